import torch.distributed as dist


def configure_model(model, shard_fn, device, dtype):
    """Shards with the function the trainer chooses when running distributed; a single
    process keeps the plain module on its device."""
    if dist.is_initialized():
        model = shard_fn(model)
    else:
        model = model.to(device=device, dtype=dtype)
    return model
