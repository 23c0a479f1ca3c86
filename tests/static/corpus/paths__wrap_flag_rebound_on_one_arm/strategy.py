import torch.nn as nn
from torch.distributed.fsdp import fully_shard


def shard_experts(block: nn.Module, rank: int, world_size: int) -> None:
    """Expert parallelism: each rank keeps its slice of the experts' weights (before FSDP)."""
    rows = block.experts.weight.shape[0] // world_size
    block.experts.weight = nn.Parameter(block.experts.weight.data[rank * rows : (rank + 1) * rows].clone())  # expect: FSD204


class NativeFSDPStrategy:
    def wrap_model(self, model: nn.Module) -> nn.Module:
        for layer in model.layers:
            fully_shard(layer)  # expect: FSD102
        fully_shard(model)
        return model
