"""A stage that is a list of towers is sharded stage by stage, recursively: its nested lists
first, then its own towers, each tower before its blocks: top-down."""

from torch import nn
from torch.distributed.fsdp import fully_shard


def shard_tower(tower, mesh):
    fully_shard(tower, mesh=mesh)
    for block in tower.blocks:
        fully_shard(block, mesh=mesh)  # expect: FSD102


def shard_stage(stage, mesh):
    if isinstance(stage, nn.ModuleList):
        items = list(enumerate(stage))
        nested = [(i, child) for i, child in items if isinstance(child, nn.ModuleList)]
        towers = [(i, child) for i, child in items if not isinstance(child, nn.ModuleList)]
        for _, child in nested:
            shard_stage(child, mesh)
        for _, child in towers:
            shard_tower(child, mesh)
    else:
        for _, sub in stage.named_children():
            shard_tower(sub, mesh)


def apply_fsdp(model, mesh):
    shard_stage(model.stages, mesh)
    fully_shard(model, mesh=mesh)
    return model
