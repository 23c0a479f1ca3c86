import torch
from torch.distributed.fsdp import fully_shard

from model import Transformer


def build_and_warm_up(vocab_size: int, mesh, warmup_batches):
    """Builds the blocks' units and compiles the kernels on a few batches before handing over."""
    model = Transformer(vocab_size, 2048, 24)
    for block in model.layers:
        fully_shard(block, mesh=mesh)  # expect: FSD103
        block.compile()
    for tokens in warmup_batches:
        model(tokens).float().mean().backward()
    model.zero_grad(set_to_none=True)
    return model
