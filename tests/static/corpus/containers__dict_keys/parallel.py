from torch.distributed.fsdp import fully_shard


def shard_dit(dit, mesh):
    for block in dit.blocks:
        fully_shard(block, mesh=mesh)
    fully_shard(dit, mesh=mesh)
