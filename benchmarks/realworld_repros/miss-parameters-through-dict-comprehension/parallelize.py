from torch.distributed.fsdp import fully_shard

from model import GPT


def parallelize(model: GPT) -> None:
    for block in model.h:
        fully_shard(block)
    fully_shard(model)
