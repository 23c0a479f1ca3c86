import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def parallelize_model(args, model: torch.nn.Module, distributed: bool, device: str = "cuda"):
    """Returns the model and what the training step calls: DDP or FSDP2, by configuration."""
    if not getattr(args, "fsdp", False):
        model = model.to(device)
        model_ddp = torch.nn.parallel.DistributedDataParallel(model) if distributed else model
        return model, model_ddp
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.blocks:
        fully_shard(block, mp_policy=policy)
    model = fully_shard(model, mp_policy=policy)
    model = model.to(device)
    return model, model
