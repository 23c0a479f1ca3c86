import argparse

import torch

from dist_utils import init_distributed
from model import TextActor, VisionActor
from strategy import Strategy


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp", action="store_true")
    parser.add_argument("--text-only", action="store_true")
    parser.add_argument("--lr", type=float, default=1e-6)
    args = parser.parse_args()
    strategy = Strategy(args, init_distributed())

    Actor = TextActor if args.text_only else VisionActor
    actor = Actor()
    if args.fsdp:
        setattr(actor, "is_actor", True)
        actor = strategy.prepare_model(actor)
    reference = Actor()
    if args.fsdp:
        reference = strategy.prepare_model(reference)
    actor, reference, optimizer = strategy.prepare_models(actor, reference)

    for _ in range(100):
        tokens = torch.randint(0, 32000, (4, 512), device="cuda")
        with torch.no_grad():
            reference_logprobs = reference(tokens)
        loss = (actor(tokens) - reference_logprobs).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
