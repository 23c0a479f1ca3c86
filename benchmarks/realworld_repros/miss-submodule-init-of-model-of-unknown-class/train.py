import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard
from lazy_config import instantiate


class Rope(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("freqs", torch.empty(8))

    def init_weights(self):
        self.freqs.copy_(torch.arange(8.0))


class Body(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.rope = Rope()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x) + self.rope.freqs
        return x


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Body()

    def forward(self, x):
        return self.model(x)


def setup(flag, cfg):
    with torch.device("meta"):
        net = instantiate(cfg)
    for layer in net.model.layers:
        fully_shard(layer)
    fully_shard(net)
    net.to_empty(device="cpu")
    if not flag:
        net.model.rope.init_weights()
    return net


def main(flag):
    dist.init_process_group("gloo")
    net = setup(flag, {"target": Net})
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    net(torch.randn(2, 8)).sum().backward()
    opt.step()


if __name__ == "__main__":
    import sys
    main(len(sys.argv) > 1)
