import os

import torch
from torch import nn

from config import AttentionConfig, ModelConfig
from dist_utils import init_world_mesh

MODEL_PATH = os.environ.get("MODEL_PATH", "/models/dense-2b")


def _forward(model, batch):
    with torch.no_grad():
        return model(batch["input_ids"].cuda(), batch["labels"].cuda())  # expect: FSD105


def test_reward_model_scores_after_loading(batch):
    mesh = init_world_mesh()
    with torch.device("meta"):
        model_cfg = ModelConfig(attention=AttentionConfig(rope_theta=5e6))
        model_cfg.compile_cfg = False
        model = model_cfg.build()
        model.score = nn.Linear(model_cfg.hidden_size, 1, bias=False)

    model.fully_shard(mesh)
    model.from_hf(MODEL_PATH)
    model.score.to_empty(device="cuda")  # the reward head is new: not in the checkpoint
    model.eval()
    loss = _forward(model, batch)
    assert torch.isfinite(loss)
