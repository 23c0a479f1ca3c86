from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def distributed_model_wrapper(conf, model):
    """Shards the model only where the data-parallel mode asks for FSDP2."""
    if conf["trainer"]["parallelism"]["data"] == "fsdp2":
        policy = MixedPrecisionPolicy(reduce_dtype=None)
        for block in model.blocks:
            fully_shard(block, mp_policy=policy)
        fully_shard(model, mp_policy=policy)
    return model
