from torch.distributed.fsdp import fully_shard


def parallelize_small(model, world_mesh, job_config):
    """Debug models: few layers, kept unsharded after forward."""
    for block in model.layers:
        fully_shard(block, mesh=world_mesh, reshard_after_forward=False)
    fully_shard(model, mesh=world_mesh, reshard_after_forward=False)
    return model
