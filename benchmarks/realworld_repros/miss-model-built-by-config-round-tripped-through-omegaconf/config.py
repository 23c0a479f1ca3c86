from dataclasses import dataclass, field

import torch.nn as nn

from models import Molmo


@dataclass
class BaseModelConfig:
    d_model: int = 8

    def build_model(self) -> nn.Module:
        raise NotImplementedError()


@dataclass
class MolmoConfig(BaseModelConfig):
    def build_model(self) -> nn.Module:
        return Molmo(self.d_model)


@dataclass
class TrainConfig:
    model: BaseModelConfig = field(default_factory=MolmoConfig)
    lr: float = 1e-4
