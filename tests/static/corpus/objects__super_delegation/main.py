from config import TrainConfig
from data import build_loader
from finetune_trainer import FinetuneTrainer

if __name__ == "__main__":
    cfg = TrainConfig()
    FinetuneTrainer(cfg).train(build_loader(cfg))
