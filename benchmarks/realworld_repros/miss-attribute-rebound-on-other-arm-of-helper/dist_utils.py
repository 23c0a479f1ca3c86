from torch.distributed.fsdp import fully_shard


def apply_fully_sharded(model):
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    return model
