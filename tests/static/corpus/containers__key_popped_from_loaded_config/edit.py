import argparse

import torch
import yaml

from factory import create_latent_flow


def load_for_editing(config_path, ckpt_path):
    """Single-GPU editing from the training config: the text encoder's sharding is dropped, the
    denoiser keeps the section it was trained with."""
    with open(config_path) as f:
        config = yaml.safe_load(f)
    config["text_encoder"].pop("fsdp", None)
    latent_flow = create_latent_flow(config)
    latent_flow.denoiser.load_state_dict(torch.load(ckpt_path, map_location="cpu"))  # expect: FSD302
    return latent_flow


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--ckpt", required=True)
    args = parser.parse_args()
    load_for_editing(args.config, args.ckpt).eval()
