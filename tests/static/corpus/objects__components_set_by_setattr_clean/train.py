import sys

from diffusion_data import caption_latent_batches  # a data package outside the tree

from trainer import DiffusionTrainer


def main() -> None:
    trainer = DiffusionTrainer(sys.argv[1])
    trainer.prepare()
    trainer.train(caption_latent_batches(sys.argv[2], batch_size=8))


if __name__ == "__main__":
    main()
