import argparse

import torch

from model import Denoiser
from parallel import shard_denoiser


def training_config(dim=64, depth=4):
    """The settings the training run used; the editing script starts from them too."""
    return {
        "denoiser": {"dim": dim, "depth": depth, "fsdp": {"param_dtype": torch.bfloat16, "reshard": True}},
        "ema": {"decay": 0.999},
    }


def build_for_editing(ckpt_path):
    """Single-GPU editing: the training settings without the sharding."""
    config = training_config()
    config["ema"].pop("fsdp", None)
    section = config["denoiser"]
    model = Denoiser(section["dim"], section["depth"])
    if config["denoiser"].get("fsdp") is not None:
        shard_denoiser(model, config["denoiser"]["fsdp"])
    model.load_state_dict(torch.load(ckpt_path, map_location="cpu"))  # expect: FSD302
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", required=True)
    model = build_for_editing(parser.parse_args().ckpt)
    model.eval()
