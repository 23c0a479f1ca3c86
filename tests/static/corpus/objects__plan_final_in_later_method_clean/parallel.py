from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(model, mesh):
    """One unit per decoder layer, then the root (embeddings and head)."""
    mp_policy = MixedPrecisionPolicy()
    for layer in model.decoder.layers:
        fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    return model
