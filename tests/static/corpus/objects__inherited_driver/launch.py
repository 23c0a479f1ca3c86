import dpo_trainer  # noqa: F401  (registers "dpo")
import sft_trainer  # noqa: F401  (registers "sft")
from config import TrainConfig
from data import build_loader
from registry import build_trainer

if __name__ == "__main__":
    cfg = TrainConfig()
    build_trainer(cfg).train(build_loader(cfg))
