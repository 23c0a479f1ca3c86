from trainer import Trainer


def main(loader, output_dir: str, save_every: int = 500):
    trainer = Trainer(vocab=32000, dim=2048, n_layers=16, n_heads=16, lr=3e-4)
    for tokens, labels in loader:
        trainer.train_step(tokens.cuda(), labels.cuda())
        if trainer.step % save_every == 0:
            trainer.save_checkpoint(f"{output_dir}/step_{trainer.step}")
