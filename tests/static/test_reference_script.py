"""A correct FSDP2 training script, in the shape of pytorch/examples' FSDP2 example (layers then
root, optimizer after, explicit prefetching, DCP and full-state-dict checkpoints): no findings.
And the same script with each seed mistake planted: exactly that finding."""

from __future__ import annotations

import json

import pytest

from tests.static.helpers import run_cli, write_tree

MODEL = '''
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, x):
        return self.mlp(self.attn(x))

class Transformer(nn.Module):
    def __init__(self, dim, n_layers):
        super().__init__()
        self.embed = nn.Embedding(128, dim)
        self.layers = nn.ModuleList([Block(dim) for _ in range(n_layers)])
        self.head = nn.Linear(dim, 128)

    def forward(self, tokens):
        h = self.embed(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.head(h)
'''

CHECKPOINT = '''
import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_optimizer_state_dict

class Checkpointer:
    def __init__(self, folder, dcp_api):
        self.folder = folder
        self.dcp_api = dcp_api

    def _full_model_state(self, model):
        if self.dcp_api:
            return get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        sharded = model.state_dict()
        cpu_state = {}
        for name, param in sharded.items():
            full = param.full_tensor()
            if torch.distributed.get_rank() == 0:
                cpu_state[name] = full.cpu()
            else:
                del full
        return cpu_state

    def save(self, model, optim):
        model_state = self._full_model_state(model)
        optim_state = get_optimizer_state_dict(model, optim, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        if torch.distributed.get_rank() == 0:
            torch.save(model_state, f"{self.folder}/model.pt")
            torch.save(optim_state, f"{self.folder}/optim.pt")

    def save_dcp(self, model, optim):
        dcp.save({"model": get_model_state_dict(model), "optim": get_optimizer_state_dict(model, optim)}, checkpoint_id=self.folder)
'''

TRAIN = '''
import os
import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from checkpoint import Checkpointer
from model import Transformer

def prefetch(model, n):
    for i, layer in enumerate(model.layers):
        layer.set_modules_to_forward_prefetch([model.layers[j] for j in range(i + 1, min(i + 1 + n, len(model.layers)))])

def main():
    rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", rank)
    torch.cuda.set_device(device)
    torch.distributed.init_process_group("nccl", device_id=device)
    with torch.device("meta"):
        model = Transformer(64, 8)
    kwargs = {"mp_policy": MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)}
    for layer in model.layers:
        fully_shard(layer, **kwargs)
    fully_shard(model, **kwargs)
    prefetch(model, 2)
    model.to_empty(device=device)
    model.reset_parameters()
    optim = torch.optim.Adam(model.parameters(), lr=1e-2)
    checkpointer = Checkpointer("ckpt", dcp_api=True)
    for step in range(10):
        model.unshard()
        x = torch.randint(0, 128, (8, 16), device=device)
        loss = model(x).sum()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optim.step()
        optim.zero_grad()
    checkpointer.save(model, optim)
    checkpointer.save_dcp(model, optim)
    torch.distributed.destroy_process_group()

if __name__ == "__main__":
    main()
'''


def lint(tmp_path, train):
    write_tree(tmp_path, {"model.py": MODEL, "checkpoint.py": CHECKPOINT, "train.py": train})
    run = run_cli(["--format", "json", str(tmp_path)])
    return run.code, [(r["code"], r["path"].rsplit("/", 1)[-1], r["line"]) for r in json.loads(run.out)]


def test_correct_reference_script_is_clean(tmp_path):
    assert lint(tmp_path, TRAIN) == (0, [])


@pytest.mark.parametrize(
    "old, new, code",
    [
        ("        loss = model(x).sum()", "        loss = model.forward(x).sum()", "FSD201"),
        ("    for layer in model.layers:\n        fully_shard(layer, **kwargs)\n", "", "FSD101"),
        ("    fully_shard(model, **kwargs)\n", "    fully_shard(model, **kwargs)\n    fully_shard(model.layers[0])\n", "FSD102"),
        ('    with torch.device("meta"):\n', '    optim = torch.optim.Adam(Transformer(8, 2).parameters())\n    with torch.device("meta"):\n', None),
        ("    prefetch(model, 2)\n", '    prefetch(model, 2)\n    torch.save({"model": model.state_dict()}, "ckpt.pt")\n', "FSD301"),
    ],
)
def test_each_planted_mistake_is_the_only_finding(tmp_path, old, new, code):
    assert old in TRAIN
    status, findings = lint(tmp_path, TRAIN.replace(old, new))
    assert [f[0] for f in findings] == ([code] if code else [])


def test_optimizer_over_the_model_before_sharding_is_found(tmp_path):
    planted = TRAIN.replace("    for layer in model.layers:\n", "    optim = torch.optim.Adam(model.parameters())\n    for layer in model.layers:\n", 1)
    status, findings = lint(tmp_path, planted)
    assert status == 1 and [f[0] for f in findings] == ["FSD202"]
