import torch
import torch.distributed as dist

from export import export_scales
from model import QuantMLP
from parallel import setup
from trainer import Trainer


def main(steps: int = 8, export_every: int = 4):
    dist.init_process_group("gloo")
    model = setup(QuantMLP(16, 4))
    trainer = Trainer(model, lr=1e-3)
    for step in range(1, steps + 1):
        trainer.step(torch.randn(8, 16), torch.randn(8))
        if step % export_every == 0:
            scales = export_scales(model, "linear", torch.bfloat16)
            if dist.get_rank() == 0:
                torch.save(scales, f"scales_{step}.pt")


if __name__ == "__main__":
    main()
