from dataclasses import dataclass
from models import MAE, Encoder
from train_module import TrainModule


@dataclass
class ModelConfig:
    kind: str = "mae"

    def build(self):
        return MAE()


def main(cfg: ModelConfig, fsdp: bool):
    model = cfg.build()
    tm = TrainModule(model, fsdp)
    return tm
