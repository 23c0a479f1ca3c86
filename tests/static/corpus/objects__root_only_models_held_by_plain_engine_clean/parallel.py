from torch.distributed.fsdp import fully_shard


def shard_decoder(model, mp_policy):
    """One unit per decoder layer, then the root for the embeddings and the head."""
    for layer in model.model.layers:
        fully_shard(layer, mp_policy=mp_policy)
    return fully_shard(model, mp_policy=mp_policy)
