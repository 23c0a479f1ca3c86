import functools

import torch
from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import (
    CheckpointImpl,
    apply_activation_checkpointing,
    checkpoint_wrapper,
)
from torch.distributed.fsdp import fully_shard

from model import Block, build


def train_step(model, optimizer):
    loss = model(torch.randn(2, 4)).sum()
    loss.backward()
    optimizer.step()


def main(activation_checkpointing=True):
    model = build()
    for module in model.modules():
        if isinstance(module, Block):
            fully_shard(module)
    fully_shard(model)
    model.to_empty(device=torch.device("cuda"))
    if activation_checkpointing:
        wrapper_fn = functools.partial(checkpoint_wrapper, checkpoint_impl=CheckpointImpl.NO_REENTRANT)
        apply_activation_checkpointing(model, checkpoint_wrapper_fn=wrapper_fn, check_fn=lambda m: isinstance(m, Block))
    optimizer = torch.optim.AdamW(model.parameters())
    train_step(model, optimizer)


if __name__ == "__main__":
    main()
