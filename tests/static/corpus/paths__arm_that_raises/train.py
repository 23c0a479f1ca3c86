import argparse

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy

from checkpoint import save_training_state
from model import Net
from parallel import prepare_model_for_distributed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-type", default="net")
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args()
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16)
    model = prepare_model_for_distributed(Net(), args.model_type, mesh, policy)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(args.steps):
        x = torch.randn(8, 512, device="cuda")
        model(x).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
    if dist.get_rank() == 0:
        save_training_state(model, args.steps, "final.pt")  # expect: FSD206


if __name__ == "__main__":
    main()
