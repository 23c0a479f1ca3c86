from config import TrainConfig
from data import build_loader
from trainer import EMATrainer

if __name__ == "__main__":
    cfg = TrainConfig()
    EMATrainer(cfg).fit(build_loader(cfg))
