import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(model, mesh):
    """The embedding, each decoder layer and the head in units of their own, then the root."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    fully_shard(model.lm_head, mesh=mesh, mp_policy=mp_policy)
    decoder = model.model
    for layer in decoder.layers:
        fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
    fully_shard(decoder.embed_tokens, mesh=mesh, mp_policy=mp_policy)  # expect: FSD104
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
