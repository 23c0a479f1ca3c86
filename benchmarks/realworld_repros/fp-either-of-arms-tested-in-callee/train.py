from torch import nn
from torch.distributed.fsdp import fully_shard
from ckpt import save_checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)


def main(domain_mesh, data_mesh):
    model = Net()
    if domain_mesh is None:
        model = Net()
    else:
        model = fully_shard(model, mesh=data_mesh)
    save_checkpoint("ckpt", model)
