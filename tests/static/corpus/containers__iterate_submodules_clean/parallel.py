from torch.distributed.fsdp import fully_shard


def apply_fsdp(model, mesh):
    """The vision encoder is small: one unit for it, one per text layer."""
    units = [*model.vision.blocks, model.vision, *model.text.layers]
    for unit in units:
        fully_shard(unit, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model
