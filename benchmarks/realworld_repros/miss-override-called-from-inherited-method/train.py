import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard

from trainer_gen2 import TrainerGen2


def main() -> None:
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = [torch.randn(4, 8) for _ in range(3)]
    TrainerGen2(model, epochs=2).fit(loader, optimizer)


if __name__ == "__main__":
    main()
