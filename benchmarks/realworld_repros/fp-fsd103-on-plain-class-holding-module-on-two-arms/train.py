import sys

import torch

from distill import ProjectionRunner


def main() -> None:
    runner = ProjectionRunner(shard="--fsdp" in sys.argv)
    runner(torch.ones(2, 8))


if __name__ == "__main__":
    main()
