from trainer import GANTrainer


def main(loader, mesh):
    trainer = GANTrainer(64, mesh)
    for real, z in loader:
        trainer.step(real, z)
