from dataclasses import dataclass
from models import MAE, Encoder
from train_module import TrainModule


@dataclass
class ModelConfig:
    kind: str = "mae"

    def build(self):
        return MAE() if self.kind == "mae" else Encoder()


def main(fsdp: bool):
    model = MAE()
    tm = TrainModule(model, fsdp)
    return tm
