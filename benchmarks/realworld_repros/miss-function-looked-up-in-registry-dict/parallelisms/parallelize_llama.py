from torch.distributed.fsdp import fully_shard


def parallelize_llama(model, dp_mesh):
    for block in model.layers:
        fully_shard(block, mesh=dp_mesh)
    fully_shard(model, mesh=dp_mesh)
