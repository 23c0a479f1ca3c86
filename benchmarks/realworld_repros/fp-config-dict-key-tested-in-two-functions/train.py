import sys

import yaml

from checkpoint import load_checkpoint
from model import Net
from parallel import wrap


def main(config_path: str) -> None:
    with open(config_path) as f:
        conf = yaml.safe_load(f)
    model = wrap(conf, Net())
    load_checkpoint(conf, model, conf["checkpoint"])


if __name__ == "__main__":
    main(sys.argv[1])
