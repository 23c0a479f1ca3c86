from torch.distributed.fsdp import fully_shard


def apply_fsdp(root, blocks):
    for block in blocks:
        fully_shard(block)
    fully_shard(root)
