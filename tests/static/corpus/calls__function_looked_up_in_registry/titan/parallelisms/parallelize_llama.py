from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def parallelize_llama(model, world_mesh, job_config):
    mp_policy = MixedPrecisionPolicy(param_dtype=job_config.param_dtype, reduce_dtype=job_config.reduce_dtype)
    for layer_id, block in enumerate(model.layers):
        reshard = layer_id < len(model.layers) - 1
        fully_shard(block, mesh=world_mesh, mp_policy=mp_policy, reshard_after_forward=reshard)
    fully_shard(model, mesh=world_mesh, mp_policy=mp_policy)
    return model
