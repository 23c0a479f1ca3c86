from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import Block


def wrap_model_fsdp(model, param_dtype):
    """Shard each block, then the root (the root keeps what no block holds)."""
    mp_policy = MixedPrecisionPolicy(param_dtype=param_dtype)
    for module in model.modules():
        if isinstance(module, Block):
            fully_shard(module, mp_policy=mp_policy)
    fully_shard(model, mp_policy=mp_policy)
    return model
