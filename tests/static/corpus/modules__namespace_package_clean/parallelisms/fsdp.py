import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(model, mesh):
    """Each decoder layer in a unit of its own, the tied embedding and head together, then the root."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    decoder = model.model
    for layer in decoder.layers:
        fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
    fully_shard([decoder.embed_tokens, model.lm_head], mesh=mesh, mp_policy=mp_policy)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
