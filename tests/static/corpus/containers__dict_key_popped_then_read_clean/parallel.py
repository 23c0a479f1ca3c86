from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def shard_denoiser(model, fsdp_cfg):
    """One unit per block, then the root."""
    policy = MixedPrecisionPolicy(param_dtype=fsdp_cfg["param_dtype"])
    for block in model.blocks:
        fully_shard(block, mp_policy=policy, reshard_after_forward=fsdp_cfg["reshard"])
    fully_shard(model, mp_policy=policy)
    return model
