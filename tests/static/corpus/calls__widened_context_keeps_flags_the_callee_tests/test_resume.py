from parallel import shard_model
from models import Attention, Bilinear, Conv, Embedder, Gated, Mlp, Normed, Recurrent
from state import ShardingConfig, TrainState, load_checkpoint


def test_resume_mlp(tmp_path):
    config = ShardingConfig()
    model = Mlp()
    shard_model(model, config)
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")


def test_resume_conv(tmp_path):
    config = ShardingConfig()
    model = Conv()
    shard_model(model, config)
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")


def test_resume_recurrent(tmp_path):
    config = ShardingConfig()
    model = Recurrent()
    shard_model(model, config)
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")


def test_resume_embedder(tmp_path):
    config = ShardingConfig()
    model = Embedder()
    shard_model(model, config)
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")


def test_resume_normed(tmp_path):
    config = ShardingConfig()
    model = Normed()
    shard_model(model, config)
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")


def test_resume_gated(tmp_path):
    config = ShardingConfig()
    model = Gated()
    shard_model(model, config)
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")


def test_resume_attention(tmp_path):
    config = ShardingConfig(reshard_after_forward=False)
    model = Attention()
    shard_model(model, config)
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")


def test_resume_bilinear(tmp_path):
    config = ShardingConfig(reshard_after_forward=False)
    model = Bilinear()
    shard_model(model, config)
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")


def test_resume_on_rank0(tmp_path):
    config = ShardingConfig(load_on_rank0=True)
    model = Mlp()
    shard_model(model, config)  # sharded before rank 0 reads the checkpoint into it
    load_checkpoint(TrainState(model, config), tmp_path / "ckpt.pt")
