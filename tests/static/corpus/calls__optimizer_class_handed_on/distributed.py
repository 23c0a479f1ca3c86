from torch.distributed.fsdp import fully_shard


def wrap_model(model, mesh):
    for layer in model.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model
