from torch.distributed.fsdp import fully_shard


def shard(net):
    for layer in net:
        fully_shard(layer)
    fully_shard(net)
    return net
