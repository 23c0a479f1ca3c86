import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([torch.nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


def full_state_dict(model, cf):
    sd = model.state_dict()
    if cf.with_ddp and cf.with_fsdp:
        return {k: v.full_tensor() for k, v in sd.items()}
    return sd


def main(cf):
    model = Net()
    if cf.with_ddp and cf.with_fsdp:
        for block in model.blocks:
            fully_shard(block)
        fully_shard(model)
    opt = torch.optim.AdamW(model.parameters())
    model(torch.randn(2, 8)).sum().backward()
    opt.step()
    sd = full_state_dict(model, cf)
    if dist.get_rank() == 0:
        torch.save(sd, "m.pt")
