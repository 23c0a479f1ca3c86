"""Perplexity of a checkpoint on held-out text: `torchrun --nproc-per-node 8 score.py`. The model
is built and sharded once, when the script starts, and scored by the functions below."""
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

from model import Transformer

torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
dist.init_process_group("nccl")
MESH = init_device_mesh("cuda", (dist.get_world_size(),))


def build(mesh):
    model = Transformer(32000, 1024, 12)
    for layer in model.layers:
        fully_shard(layer, mesh=mesh)
    return model


MODEL = fully_shard(build(MESH), mesh=MESH)
REFERENCE = Transformer(32000, 256, 2)  # a small model each rank keeps whole


@torch.no_grad()
def nll(tokens):
    draft = Transformer(32000, 256, 2)  # built here, never sharded
    logits = MODEL(tokens[:, :-1])
    baseline = REFERENCE.forward(tokens[:, :-1]) + draft.forward(tokens[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten()), baseline


def score(path):
    data = torch.load(path)
    losses = [nll(data[i:i + 1024].view(1, -1).cuda())[0] for i in range(0, data.shape[0] - 1025, 1024)]
    return torch.stack(losses).mean().exp()


print(score("heldout.pt"))
