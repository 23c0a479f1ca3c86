from config import JobConfig
from trainer import Trainer


def main():
    trainer = Trainer(JobConfig())
    for step in range(1000):
        trainer.train_step(*next_batch())
        if step % 100 == 0:
            trainer.save(f"checkpoints/step-{step}")
