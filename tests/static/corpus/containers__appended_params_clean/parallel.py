from torch.distributed.fsdp import fully_shard


def apply_fsdp(model, mesh):
    """Each decoder layer in a unit of its own, then the root (embeddings, final norm and head)."""
    for layer in model.model.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
