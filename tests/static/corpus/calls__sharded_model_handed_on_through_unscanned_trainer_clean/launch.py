import torch.distributed as dist

from pkg.model import DiffusionModel
from pkg.trainer import Trainer


def main():
    dist.init_process_group("gloo")
    model = DiffusionModel()
    Trainer({"max_iter": 3, "sharded_checkpoint": False}).train(model)


if __name__ == "__main__":
    main()
