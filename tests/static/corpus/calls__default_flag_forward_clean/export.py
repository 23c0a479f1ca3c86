import argparse

import torch

from dist_utils import init_distributed
from model import Transformer
from prepare import prepare_model


def main():
    """Record reference logits of a checkpoint, for the serving runtime's regression tests."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--out", default="reference_logits.pt")
    args = parser.parse_args()
    mesh = init_distributed()
    model = Transformer(32000, 1024, 12)
    model.load_state_dict(torch.load(args.checkpoint, map_location="cpu"))
    model = prepare_model(model, mesh, shard=False)
    example = torch.randint(0, 32000, (1, 128), device="cuda", generator=torch.Generator("cuda").manual_seed(0))
    with torch.no_grad():
        reference = model.forward(example)
    torch.save({"tokens": example.cpu(), "logits": reference.float().cpu()}, args.out)


if __name__ == "__main__":
    main()
