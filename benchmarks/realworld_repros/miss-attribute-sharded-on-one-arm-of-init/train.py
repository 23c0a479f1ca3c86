import sys

import torch

from trainer import MultimodalTrainer


def main() -> None:
    trainer = MultimodalTrainer(is_vision_rank="--text-only" not in sys.argv)
    trainer.embed(torch.ones(2, 8))
    trainer.save("projector.pt")


if __name__ == "__main__":
    main()
