from torch.distributed.fsdp import fully_shard

from model import FusionModel


def shard_model(model, mesh):
    decoder = model.decoder if isinstance(model, FusionModel) else model
    for layer in decoder.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
