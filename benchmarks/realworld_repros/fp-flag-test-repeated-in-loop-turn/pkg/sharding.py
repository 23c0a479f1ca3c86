from torch.distributed.fsdp import fully_shard


def setup_fsdp(model):
    for block in model:
        fully_shard(block)
    fully_shard(model)
    return model
