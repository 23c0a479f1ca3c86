import torch.distributed as dist

from trainer import Trainer


def main(loader, save_every: int = 1000):
    dist.init_process_group("nccl")
    trainer = Trainer("checkpoints")
    for x, y in loader:
        trainer.train_step(x, y)
        if trainer.step % save_every == 0:
            trainer.save_optimizer()


if __name__ == "__main__":
    main([])
