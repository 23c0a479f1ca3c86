from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def setup_fsdp(model, mesh, policy: MixedPrecisionPolicy):
    """Each block its own unit, then the root."""
    for block in model.blocks:
        fully_shard(block, mesh=mesh, mp_policy=policy)
    fully_shard(model, mesh=mesh, mp_policy=policy)
    return model
