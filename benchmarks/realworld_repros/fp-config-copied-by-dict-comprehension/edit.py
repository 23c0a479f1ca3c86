import sys

import torch
import yaml

from factory import build


def expand(value):
    if isinstance(value, dict):
        return {k: expand(v) for k, v in value.items()}
    return value


def main(path, ckpt):
    with open(path) as f:
        config = expand(yaml.safe_load(f))
    config["denoiser"].pop("fsdp", None)
    model = build(config)
    model.load_state_dict(torch.load(ckpt))
    return model


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
