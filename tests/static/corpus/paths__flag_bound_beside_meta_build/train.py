import argparse
import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import Denoiser


def build(checkpoint):
    """Loads a checkpoint when given one; otherwise builds on the meta device and initialises
    after sharding, so that no rank holds the whole model."""
    has_loaded_pretrained_model = False
    if checkpoint and os.path.exists(checkpoint):
        model = Denoiser.from_checkpoint(checkpoint)
        has_loaded_pretrained_model = True
    else:
        with torch.device("meta"):
            model = Denoiser()
        has_loaded_pretrained_model = checkpoint is not None  # a mistyped path counts as loaded
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.blocks:
        fully_shard(block, mp_policy=policy)
    fully_shard(model, mp_policy=policy)
    if not has_loaded_pretrained_model:
        model.to_empty(device="cuda")
        model.init_weights()
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", default=None)
    args = parser.parse_args()
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    model = build(args.checkpoint)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(100):
        x = torch.randn(8, 64, device="cuda")
        loss = torch.nn.functional.mse_loss(model(x), x)  # expect: FSD105
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
