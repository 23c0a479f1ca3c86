from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp2(model, param_dtype):
    denoiser = model.denoiser_module()
    policy = MixedPrecisionPolicy(param_dtype=param_dtype)
    for block in denoiser.blocks:
        fully_shard(block, mp_policy=policy)
    fully_shard(denoiser, mp_policy=policy)
    return model
