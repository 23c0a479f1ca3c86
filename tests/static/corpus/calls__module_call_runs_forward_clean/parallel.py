from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def shard_method(model, mesh=None, mp_policy=None):
    policy = mp_policy or MixedPrecisionPolicy()
    for block in model.encoder.blocks:
        fully_shard(block, mesh=mesh, mp_policy=policy)
    fully_shard(model.encoder, mesh=mesh, mp_policy=policy)
    fully_shard(model, mesh=mesh, mp_policy=policy)
    return model
