import sys

from trainer.base import Trainer

if __name__ == "__main__":
    config = {"dim": 1024, "depth": 16, "fsdp2": len(sys.argv) > 2, "resume_dir": sys.argv[1], "lr": 1e-4}
    Trainer(config).fit(loader=[])
