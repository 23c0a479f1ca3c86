import os

import torch

from config import AttentionConfig, ModelConfig
from dist_utils import init_world_mesh

MODEL_PATH = os.environ.get("MODEL_PATH", "/models/dense-2b")


def _forward(model, batch):
    with torch.no_grad():
        return model(batch["input_ids"].cuda(), batch["labels"].cuda())  # expect: FSD105


def test_fsdp_matches_single_device(batch):
    mesh = init_world_mesh()
    with torch.device("meta"):
        model_cfg = ModelConfig(attention=AttentionConfig(rope_theta=5e6))
        model_cfg.compile_cfg = False
        model = model_cfg.build()

    model.fully_shard(mesh)
    model.to_empty(device="cuda")
    model.eval()
    loss = _forward(model, batch)
    assert torch.isfinite(loss)
