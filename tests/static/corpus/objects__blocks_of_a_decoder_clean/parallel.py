from torch.distributed.fsdp import fully_shard

from blocks import TinyModel


def build_tiny(mesh=None):
    model = TinyModel()
    fully_shard(model.block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model


def shard_decoder(model, mesh=None):
    for layer in model.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model


def shard_probe(probe, mesh=None):
    fully_shard(probe, mesh=mesh)
    return probe
