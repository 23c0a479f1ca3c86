import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from parallel import setup_model


class Trainer:
    def __init__(self, model_name: str, lr: float):
        dist.init_process_group("nccl")
        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
        self.mesh = init_device_mesh("cuda", (dist.get_world_size(),))
        self.model = setup_model(model_name, self.mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)

    def fit(self, loader):
        for batch in loader:
            loss = self.model(**batch).loss
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
