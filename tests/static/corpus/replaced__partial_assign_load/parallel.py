from torch.distributed.fsdp import fully_shard


def shard_model(model, mesh):
    for block in model.layers:
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model
