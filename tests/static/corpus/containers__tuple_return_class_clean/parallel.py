from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
import torch


def apply_fsdp(model, mesh):
    """Each layer in a unit of its own, the tied embedding and head in one, then the root."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for layer in model.model.layers:
        fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
    fully_shard([model.model.embed_tokens, model.lm_head], mesh=mesh, mp_policy=mp_policy)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
