def model_to_fsdp(modules, mesh):
    """Each trained network shards itself, by its own plan."""
    for name, module in modules.items():
        module.fully_shard(mesh=mesh, reshard_after_forward=True)
