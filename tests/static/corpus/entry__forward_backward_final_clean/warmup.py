import torch
from torch.distributed.fsdp import fully_shard

from model import Transformer


def build_and_warm_up(vocab_size: int, mesh, warmup_batches):
    """Builds the blocks' units and compiles the blocks; the caller finishes sharding."""
    model = Transformer(vocab_size, 2048, 24)
    for block in model.layers:
        fully_shard(block, mesh=mesh)
        block.compile()
    return model
