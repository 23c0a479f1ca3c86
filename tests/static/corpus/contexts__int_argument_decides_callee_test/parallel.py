from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
import torch


def apply_data_parallel(model, dp_shard: int, strategy: str):
    """Shards only when there is more than one data-parallel rank to shard over: a one-GPU
    debug run keeps the plain module (and its plain state dict)."""
    if dp_shard > 1 and strategy == "fsdp":
        policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for layer in model.layers:
            fully_shard(layer, mp_policy=policy)
        fully_shard(model, mp_policy=policy)
    return model
