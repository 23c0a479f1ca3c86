from torch.distributed.fsdp import fully_shard


def shard_model(model):
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    return model
