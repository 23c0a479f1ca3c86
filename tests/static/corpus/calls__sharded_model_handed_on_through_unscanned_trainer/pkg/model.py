import torch
from torch.distributed.fsdp import fully_shard


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([torch.nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class BaseModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.set_up_model()

    def set_up_model(self):
        raise NotImplementedError

    def training_step(self, batch):
        raise NotImplementedError


class DiffusionModel(BaseModel):
    def __init__(self):
        torch.nn.Module.__init__(self)
        self.set_up_model()

    def set_up_model(self):
        net = Net()
        for block in net.blocks:
            fully_shard(block)
        self.net = fully_shard(net)

    def training_step(self, batch):
        return self.net(batch).pow(2).mean()
