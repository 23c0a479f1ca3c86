from torch.distributed.fsdp import fully_shard


def shard_root_first(model):
    fully_shard(module=model)
    for block in model.layers:
        fully_shard(module=block)


def shard_root_only(model):
    fully_shard(module=model)
