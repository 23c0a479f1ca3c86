from config import TrainConfig
from data import build_loader
from trainer import Trainer

if __name__ == "__main__":
    cfg = TrainConfig()
    Trainer(cfg).fit(build_loader(cfg))
