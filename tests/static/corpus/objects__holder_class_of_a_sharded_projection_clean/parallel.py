from torch.distributed.fsdp import fully_shard


def shard_student(model):
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    return model
