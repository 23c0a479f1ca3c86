import torch
from torch import nn
from torch.distributed.fsdp import fully_shard
from ckpt import save_checkpoint, load_checkpoint
from net import Net, Plain


def main(data_mesh):
    model = Net()
    model = fully_shard(model, mesh=data_mesh)
    opt = torch.optim.Adam(model.parameters())
    load_checkpoint("ckpt", models=model)
    model(torch.randn(2, 4)).sum().backward()
    opt.step()
    save_checkpoint("ckpt", models=model, optimizer=opt)


def test_roundtrip(mesh):
    model = Plain()
    fully_shard(model, mesh=mesh)
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(2, 4)).sum().backward()
    opt.step()
    save_checkpoint("ckpt", models=model, optimizer=opt, optimizer_model=model)
