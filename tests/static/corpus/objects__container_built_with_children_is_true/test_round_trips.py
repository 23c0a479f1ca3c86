import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from checkpoint import save_checkpoint


def _train(model, optimizer, steps=3):
    for _ in range(steps):
        model(torch.randn(2, 3, 4, 4)).sum().backward()
        optimizer.step()
        optimizer.zero_grad()


def _build_conv(device):
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.Flatten(), nn.Linear(128, 8)).to(device)
    fully_shard(model)
    return model


def test_conv_round_trip(tmp_path):
    model = _build_conv("cpu")
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    _train(model, optimizer)
    save_checkpoint(tmp_path, models=model, optimizer=optimizer, epoch=3)


def test_mlp_round_trip(tmp_path):
    model = nn.Sequential(nn.Flatten(), nn.Linear(48, 16), nn.ReLU(), nn.Linear(16, 1))
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    _train(model, optimizer)
    save_checkpoint(tmp_path, models=model, optimizer=optimizer, epoch=1)


def test_linear_round_trip(tmp_path):
    model = nn.Linear(4, 4)
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
    save_checkpoint(tmp_path, models=model, optimizer=optimizer, epoch=1)


def test_norm_round_trip(tmp_path):
    model = nn.LayerNorm(4)
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
    save_checkpoint(tmp_path, models=model, optimizer=optimizer, epoch=2)


def test_embedding_round_trip(tmp_path):
    model = nn.Embedding(16, 4)
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
    save_checkpoint(tmp_path, models=model, optimizer=optimizer, epoch=3)


def test_recurrent_round_trip(tmp_path):
    model = nn.GRU(4, 4)
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
    save_checkpoint(tmp_path, models=model, optimizer=optimizer, epoch=4)


def test_bilinear_round_trip(tmp_path):
    model = nn.Bilinear(4, 4, 4)
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
    save_checkpoint(tmp_path, models=model, optimizer=optimizer, epoch=5)


def test_optimizer_only(tmp_path):
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
    save_checkpoint(tmp_path, optimizer=optimizer, epoch=6)
