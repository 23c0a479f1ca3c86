import argparse

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from embedding_utils import resize_token_embeddings
from model import build_model
from parallel import shard_model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vision", action="store_true")
    parser.add_argument("--extra-tokens", type=int, default=0)
    args = parser.parse_args()
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    model = build_model(32000, 1024, 12, args.vision)
    shard_model(model, mesh)
    if args.extra_tokens:
        resize_token_embeddings(model, 32000 + args.extra_tokens)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(10):
        tokens = torch.randint(0, 32000, (4, 256), device="cuda")
        model(tokens).mean().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
