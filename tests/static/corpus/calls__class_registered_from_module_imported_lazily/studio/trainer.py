import importlib

import torch
import torch.distributed as dist

from studio.registry import MODEL_REGISTER
from studio.runtime.fsdp import apply_fsdp2

MODEL_MODULES = {"dit": "studio.models.dit"}


class Trainer:
    def __init__(self, config):
        self.config = config
        importlib.import_module(MODEL_MODULES[config["model"]])  # registers the model class
        self.model = MODEL_REGISTER[config["model"]](config)
        apply_fsdp2(self.model, torch.bfloat16)
        self.optimizer = torch.optim.AdamW(self.model.denoiser_module().parameters(), lr=config["lr"])

    def train(self, loader):
        for latents, target in loader:
            loss = torch.nn.functional.mse_loss(self.model.denoise(latents.cuda()), target.cuda())
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()


def main(config, loader):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    Trainer(config).train(loader)
