from torch.distributed.fsdp import fully_shard


def collect_blocks(model):
    blocks = []
    for layer in model.layers:
        blocks.append(layer)
    return blocks


def apply_fsdp(model, mesh):
    """The blocks last to first (the order the backward reaches them), then the root."""
    blocks = collect_blocks(model)
    for index, block in enumerate(reversed(blocks)):
        fully_shard(block, mesh=mesh, reshard_after_forward=index > 0)
    fully_shard(model, mesh=mesh)
    return model
