from torch.distributed.fsdp import fully_shard


def wrap(conf, model):
    if conf["data"] == "fsdp2":
        for block in model.blocks:
            fully_shard(block)
        fully_shard(model)
    return model
