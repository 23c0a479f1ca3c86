from torch.distributed.fsdp import fully_shard


def apply_fsdp(model, mesh):
    """The vision encoder is small: one unit for it, one per text layer."""
    units = [model.vision, *model.vision.blocks, *model.text.layers]
    for unit in units:
        fully_shard(unit, mesh=mesh)  # expect: FSD102
    fully_shard(model, mesh=mesh)
    return model
