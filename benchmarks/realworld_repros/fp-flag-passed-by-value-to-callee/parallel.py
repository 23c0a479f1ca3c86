from torch.distributed.fsdp import FullyShardedDataParallel, fully_shard


def wrap(model, backend: str):
    """FSDP2 for "fsdp2", the FSDP1 wrapper for "fsdp": the backend string decides the API."""
    if backend == "fsdp2":
        for block in model.blocks:
            fully_shard(block)
        fully_shard(model)
        return model
    return FullyShardedDataParallel(model)
