import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from model import ModelArgs, Transformer
from parallelize import apply_fsdp


def main():
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    args = ModelArgs(tie_embeddings=os.environ.get("TIE", "0") == "1")
    model = apply_fsdp(Transformer(args), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(100):
        tokens = torch.randint(0, args.vocab_size, (8, 512), device="cuda")
        model(tokens).mean().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
