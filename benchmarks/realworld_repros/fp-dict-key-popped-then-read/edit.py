import sys

import torch
import yaml

from factory import build


def main(path, ckpt):
    with open(path) as f:
        config = yaml.safe_load(f)
    config["denoiser"].pop("fsdp", None)
    model = build(config)
    model.load_state_dict(torch.load(ckpt))
    return model


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
