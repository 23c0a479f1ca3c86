import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from model import Inner, Outer


def main():
    dist.init_process_group("gloo")
    with torch.device("meta"):
        model = Outer(Inner())
    for module in model.modules():
        if isinstance(module, torch.nn.ModuleList):
            for sub in module:
                fully_shard(sub)
    fully_shard(model)
    model.to_empty(device="cpu")
    opt = torch.optim.Adam(model.parameters())
    loss = model(torch.randn(2, 8)).sum()
    loss.backward()
    opt.step()


if __name__ == "__main__":
    main()
