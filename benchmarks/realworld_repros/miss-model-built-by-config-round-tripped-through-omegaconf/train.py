import sys
from typing import cast

import torch
from omegaconf import OmegaConf

from config import MolmoConfig, TrainConfig


def run_trainer(cfg: TrainConfig) -> None:
    model = cfg.model.build_model()
    model.apply_fsdp2()
    model.forward(torch.randn(2, 8))  # want: FSD201


def main() -> None:
    cfg = TrainConfig(model=MolmoConfig(), lr=1e-4)
    conf = OmegaConf.create(cfg)
    conf.merge_with_dotlist(sys.argv[1:])
    cfg = cast(TrainConfig, OmegaConf.to_object(conf))
    run_trainer(cfg)


if __name__ == "__main__":
    main()
