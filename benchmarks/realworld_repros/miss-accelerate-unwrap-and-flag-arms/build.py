from torch.distributed.fsdp import fully_shard


def build(model, use_fsdp):
    if not use_fsdp:
        return model
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    return model
