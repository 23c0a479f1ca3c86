import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def shard_vlm(model, mesh):
    """The language model's blocks, the vision tower and the language model each a unit; the
    projector and the head (its own weight) stay in the root's."""
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for layer in model.language_model.layers:
        fully_shard(layer, mesh=mesh, mp_policy=policy)
    fully_shard(model.vision_tower, mesh=mesh, mp_policy=policy)
    fully_shard(model.language_model, mesh=mesh, mp_policy=policy)
    fully_shard(model, mesh=mesh, mp_policy=policy)
    return model
