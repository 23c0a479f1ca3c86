import torch
from torch import nn
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor, distribute_tensor


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def build(state_dict, device):
    with torch.device("meta"):
        model = Net()
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    model.to_empty(device=device)
    for name, dest in model.state_dict().items():
        source = state_dict[name]
        if isinstance(dest, DTensor):
            source = distribute_tensor(source, device_mesh=dest.device_mesh, placements=dest.placements)
        dest.copy_(source)
    return model
