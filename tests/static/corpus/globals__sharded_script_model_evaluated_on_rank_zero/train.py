"""Pretraining as one script (`torchrun --nproc-per-node 8 train.py`): the model, built from
scratch or resumed, is sharded when the script starts; the loop below evaluates and steps it."""
import os

import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.device_mesh import init_device_mesh

from model import Transformer
from parallel import parallelize

init_from = os.environ.get("INIT_FROM", "scratch")
eval_interval = 250
eval_iters = 20
max_iters = 5000
batch_size = 8
block_size = 1024

dist.init_process_group("nccl")
rank = dist.get_rank()
master_process = rank == 0
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
mesh = init_device_mesh("cuda", (dist.get_world_size(),))

if init_from == "scratch":
    model = Transformer(32000, 2048, 16)
else:
    checkpoint = torch.load(os.path.join(init_from, "ckpt.pt"), map_location="cpu")
    model = Transformer(32000, 2048, 16)
    model.load_state_dict(checkpoint["model"])
model.to("cuda")
parallelize(model, mesh)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)


def get_batch(split):
    data = np.memmap(f"data/{split}.bin", dtype=np.uint16, mode="r")
    ix = torch.randint(len(data) - block_size - 1, (batch_size,))
    x = torch.stack([torch.from_numpy(data[i : i + block_size].astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy(data[i + 1 : i + 1 + block_size].astype(np.int64)) for i in ix])
    return x.cuda(), y.cuda()


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            x, y = get_batch(split)
            logits = model(x)
            losses[k] = F.cross_entropy(logits.flatten(0, 1), y.flatten()).item()
        out[split] = losses.mean()
    model.train()
    return out


for iter_num in range(max_iters):
    if iter_num % eval_interval == 0 and master_process:
        losses = estimate_loss()  # expect: FSD206
        print(f"step {iter_num}: train {losses['train']:.4f}, val {losses['val']:.4f}")
    x, y = get_batch("train")
    loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
dist.destroy_process_group()
