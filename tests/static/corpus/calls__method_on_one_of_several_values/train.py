import torch
import torch.distributed as dist

from export import export_model
from model import QuantMLP
from parallel import setup
from calibrate import calibrate


def main(steps: int = 8):
    dist.init_process_group("gloo")
    model = setup(QuantMLP(16, 4))
    calibrate(model, steps)
    export_model(model, torch.float16)
    torch.distributed.barrier()


if __name__ == "__main__":
    main()
