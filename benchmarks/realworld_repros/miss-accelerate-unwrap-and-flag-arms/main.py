import torch
from accelerate import Accelerator

from build import build
from trainer import Trainer


def main(model, use_fsdp):
    model = build(model, use_fsdp)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    trainer = Trainer(model, optimizer, Accelerator(), is_fsdp=use_fsdp)
    trainer.checkpoint()
