from torch.distributed.fsdp import fully_shard

from net import Block


def parallelize_fn(model, device_mesh):
    dp_mesh = device_mesh["data_parallel"]
    for module in reversed(list(model.modules())):
        if isinstance(module, Block):
            fully_shard(module, mesh=dp_mesh)
    fully_shard(model, mesh=dp_mesh)
    return model
