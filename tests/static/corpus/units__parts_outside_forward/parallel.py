from torch.distributed.fsdp import fully_shard


def shard_classifier(model, mesh=None):
    for block in model.encoder.blocks:
        fully_shard(block, mesh=mesh)
    fully_shard(model.encoder, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model
