import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp
from trainer import Trainer


def main(loader, val_loader, init_path: str, output_dir: str):
    mesh = init_distributed()
    model = apply_fsdp(Transformer(32000, 2048, 16), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    trainer = Trainer(model, optimizer, val_loader, output_dir)
    trainer.export_initial_weights(init_path)
    trainer.fit(loader)
