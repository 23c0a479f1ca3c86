import torch
from torch.distributed.fsdp import fully_shard

from checkpoint import save_checkpoint
from nets import MLP, Gated, Conv, Norm, Embed, Recurrent, Bilinear, Residual


def test_mlp_round_trip(tmp_path):
    model = MLP()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    save_checkpoint(tmp_path / "mlp.pt", model, optimizer)


def test_gated_round_trip(tmp_path):
    model = Gated()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    save_checkpoint(tmp_path / "gated.pt", model, optimizer)


def test_conv_round_trip(tmp_path):
    model = Conv()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    save_checkpoint(tmp_path / "conv.pt", model, optimizer)


def test_norm_round_trip(tmp_path):
    model = Norm()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    save_checkpoint(tmp_path / "norm.pt", model, optimizer)


def test_embed_round_trip(tmp_path):
    model = Embed()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    save_checkpoint(tmp_path / "embed.pt", model, optimizer)


def test_recurrent_round_trip(tmp_path):
    model = Recurrent()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    save_checkpoint(tmp_path / "recurrent.pt", model, optimizer)


def test_bilinear_round_trip(tmp_path):
    model = Bilinear()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    save_checkpoint(tmp_path / "bilinear.pt", model, optimizer)


def test_residual_round_trip(tmp_path):
    model = Residual()
    fully_shard(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    save_checkpoint(tmp_path / "residual.pt", model, optimizer)
