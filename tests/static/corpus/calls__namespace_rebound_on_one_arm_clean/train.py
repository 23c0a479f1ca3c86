import argparse

import torch
import torch.distributed as dist
import yaml

from model import FlowModel
from training import parallelize_model, save_model


def main(args):
    if args.model_config:  # a config file's options, where the command line does not give them
        with open(args.model_config) as f:
            merged = yaml.safe_load(f)
        merged.update({k: v for k, v in vars(args).items() if v is not None})
        args = argparse.Namespace(**merged)
    dist.init_process_group("nccl")
    device = torch.device("cuda", dist.get_rank() % torch.cuda.device_count())
    torch.cuda.set_device(device)
    model, model_ddp = parallelize_model(args, FlowModel(), device)
    optimizer = torch.optim.AdamW(model_ddp.parameters(), lr=1e-4)
    for step in range(args.steps):
        x = torch.randn(8, 16, 128, device=device)
        loss = (model_ddp(x) - x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if (step + 1) % 1000 == 0:
            save_model(args, model, f"checkpoints/step{step + 1}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-config", default=None)
    parser.add_argument("--fsdp", type=int, default=None)
    parser.add_argument("--steps", type=int, default=10000)
    main(parser.parse_args())
