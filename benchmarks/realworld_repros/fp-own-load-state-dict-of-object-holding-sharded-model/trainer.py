import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard

from ema import EMATracker


class Trainer:
    def __init__(self, model: nn.Module, ema_path: str) -> None:
        self.model = model
        self.ema = EMATracker(self.model)
        self.ema.load_state_dict(torch.load(ema_path, map_location="cpu"))


def main() -> None:
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    Trainer(model, "ema.pt")


if __name__ == "__main__":
    main()
