import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(model, mesh):
    """Blocks first; embeddings and head get units of their own (whether or not they are tied)."""
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.layers:
        fully_shard(block, mesh=mesh, mp_policy=policy)
    fully_shard(model.tok_embeddings, mesh=mesh, mp_policy=policy)
    fully_shard([model.norm, model.output], mesh=mesh, mp_policy=policy, reshard_after_forward=False)  # expect: FSD104
    fully_shard(model, mesh=mesh, mp_policy=policy)
    return model
