from torch.distributed.fsdp import fully_shard


def shard_model(model):
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    return model
