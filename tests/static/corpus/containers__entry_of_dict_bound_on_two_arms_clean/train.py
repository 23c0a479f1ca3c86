import argparse

import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from export import export_weights
from model import TinyLM


def main(args: argparse.Namespace) -> None:
    model = TinyLM()
    if args.fsdp:
        dist.init_process_group("nccl")
        torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(args.steps):
        tokens = torch.randint(0, 32000, (4, 128))
        logits = model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens.flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    export_weights(model, args, "model.pt")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp", action="store_true")
    parser.add_argument("--steps", type=int, default=100)
    main(parser.parse_args())
