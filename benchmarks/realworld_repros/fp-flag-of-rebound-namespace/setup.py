import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.fsdp import fully_shard


def wrap(opts, net):
    if not getattr(opts, "sharded", False):
        return torch.nn.parallel.DistributedDataParallel(net)
    for layer in net:
        fully_shard(layer)
    fully_shard(net)
    return net


def store(opts, net, where):
    weights = net.state_dict()
    if getattr(opts, "sharded", False):
        dcp.save(weights, checkpoint_id=where)
    elif dist.get_rank() == 0:
        torch.save(weights, where)
