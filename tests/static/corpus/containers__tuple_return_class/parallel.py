from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
import torch


def apply_fsdp(model, mesh):
    """Embeddings, each layer and the head in units of their own, then the root."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    fully_shard(model.model.embed_tokens, mesh=mesh, mp_policy=mp_policy)
    for layer in model.model.layers:
        fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
    fully_shard(model.lm_head, mesh=mesh, mp_policy=mp_policy)  # expect: FSD104
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
