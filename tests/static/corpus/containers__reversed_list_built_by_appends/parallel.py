from torch.distributed.fsdp import fully_shard


def collect_blocks(model):
    blocks = []
    for layer in model.layers:
        blocks.append(layer)
    return blocks


def apply_fsdp(model, mesh):
    """The root, then the blocks last to first."""
    blocks = collect_blocks(model)
    fully_shard(model, mesh=mesh)
    for block in blocks[::-1]:
        fully_shard(block, mesh=mesh)  # expect: FSD102
    return model
