import torch
from torch.distributed.fsdp import fully_shard
from pkg.testing.model_utils import construct_model


def test_step():
    model, loss_fn = construct_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    loss_fn(model(torch.randn(2, 8)), torch.zeros(2, 8)).backward()
    optimizer.step()
