import torch

from dist_utils import init_distributed
from model import MoE
from sharding.by_dtype import shard_by_dtype

# the subtrees that keep fp32 compute, by dotted path
FP32_PATHS = ("blocks.0.router", "blocks.1.router", "blocks.2.router", "blocks.3.router")


def setup():
    mesh = init_distributed()
    model = MoE().cuda()
    shard_by_dtype(model, mesh, FP32_PATHS)
    return model


def train(batches):
    model = setup()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for tokens, labels in batches:
        logits = model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
