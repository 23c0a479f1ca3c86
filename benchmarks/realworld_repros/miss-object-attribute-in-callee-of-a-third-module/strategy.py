import torch
from torch.distributed.fsdp import fully_shard


class FSDPStrategy:
    def __init__(self) -> None:
        self.model = None
        self.optimizer = None

    def setup(self) -> None:
        model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
        for layer in model:
            fully_shard(layer)
        fully_shard(model)
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters())
