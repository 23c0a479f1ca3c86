import argparse

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

from dist_utils import init_distributed
from export import export_weights
from model import Transformer
from parallel import apply_fsdp


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--strategy", choices=["fsdp", "fsdp2"], default="fsdp2")
    parser.add_argument("--grad-accum", type=int, default=4)
    args = parser.parse_args()
    mesh = init_distributed()
    model = Transformer(32000, 1024, 12)
    if args.strategy == "fsdp":
        model = FSDP(model, device_id=torch.cuda.current_device(), use_orig_params=True)
    else:
        apply_fsdp(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step, micro_batches in enumerate(batches()):
        for tokens in micro_batches[:-1]:
            if args.strategy == "fsdp":
                with model.no_sync():
                    model(tokens).mean().backward()
            else:
                model(tokens).mean().backward()
        model(micro_batches[-1]).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    export_weights(model, "final.pt")


if __name__ == "__main__":
    main()
