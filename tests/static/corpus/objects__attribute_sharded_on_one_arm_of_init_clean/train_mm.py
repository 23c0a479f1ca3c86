import argparse

import torch

from trainer import MultimodalTrainer


def main(language_model, loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--text-only", action="store_true")
    parser.add_argument("--vision-dim", type=int, default=1024)
    args = parser.parse_args()
    trainer = MultimodalTrainer(language_model, args.vision_dim, is_vision_rank=not args.text_only)
    optimizer = torch.optim.AdamW(language_model.parameters(), lr=1e-5)
    for step, batch in enumerate(loader):
        trainer.train_step(batch, optimizer)
        if step % 1000 == 0:
            trainer.checkpoint(step)
