import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from recipes.model import Transformer


def build_model(cfg, mesh):
    """Used by the launchers of several teams; nothing in this package calls it."""
    model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.layers:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy)
    return model
