from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def shard_for_full_finetune(model, param_dtype):
    mp_policy = MixedPrecisionPolicy(param_dtype=param_dtype)
    for block in model.blocks:
        fully_shard(block, mp_policy=mp_policy)
    fully_shard(model, mp_policy=mp_policy)
    return model
