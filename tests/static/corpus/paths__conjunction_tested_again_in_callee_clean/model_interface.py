from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import Forecaster


def init_model_and_shard(cf):
    model = Forecaster(cf.dim, cf.n_layers)
    if cf.with_ddp and cf.with_fsdp:
        policy = MixedPrecisionPolicy(param_dtype=cf.param_dtype)
        for block in model.blocks:
            fully_shard(block, mp_policy=policy)
        fully_shard(model, mp_policy=policy)
    return model
