from torch.distributed.fsdp import fully_shard


def apply_fsdp(model, mesh):
    """Each decoder layer in a unit of its own, then the decoder (embeddings and final norm)."""
    decoder = model.model
    for layer in decoder.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(decoder, mesh=mesh)
