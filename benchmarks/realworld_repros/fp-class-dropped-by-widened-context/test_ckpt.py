import torch
from torch import nn
from torch.distributed.fsdp import fully_shard
from ckpt import save_checkpoint
from nets import Net

def test_0():
    model = Net()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters())
    save_checkpoint('ckpt0', model, optimizer)


def test_1():
    model = nn.Linear(4, 4)
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters())
    save_checkpoint('ckpt1', model, optimizer)


def test_2():
    model = nn.Conv2d(3, 3, 1)
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters())
    save_checkpoint('ckpt2', model, optimizer)


def test_3():
    model = nn.LayerNorm(4)
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters())
    save_checkpoint('ckpt3', model, optimizer)


def test_4():
    model = nn.Embedding(8, 4)
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters())
    save_checkpoint('ckpt4', model, optimizer)


def test_5():
    model = nn.GRU(4, 4)
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters())
    save_checkpoint('ckpt5', model, optimizer)


def test_6():
    model = nn.Bilinear(4, 4, 4)
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters())
    save_checkpoint('ckpt6', model, optimizer)


def test_7():
    model = nn.PReLU()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters())
    save_checkpoint('ckpt7', model, optimizer)

