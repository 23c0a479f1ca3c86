import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from parallelisms import models_parallelize_fns


class Transformer(torch.nn.Module):
    def __init__(self, dim, n_layers):
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(dim, dim) for _ in range(n_layers))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def main(model_name):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    model = Transformer(8, 2)
    models_parallelize_fns[model_name](model, mesh)
    optimizer = torch.optim.AdamW(model.parameters())
    loss = model.forward(torch.zeros(2, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()
