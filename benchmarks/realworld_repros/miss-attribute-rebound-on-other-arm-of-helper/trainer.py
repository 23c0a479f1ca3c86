import torch
from torch.nn.parallel import DistributedDataParallel

from dist_utils import apply_fully_sharded


class Trainer:
    def __init__(self, model, fsdp_shard):
        self.model = model
        self.fsdp_shard = fsdp_shard
        self.setup_model()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-3)

    def setup_model(self):
        if self.fsdp_shard:
            apply_fully_sharded(self.model)
        else:
            self.model = DistributedDataParallel(self.model)

    def train_epoch(self, loader):
        for batch in loader:
            loss = self.model(batch)
            loss.backward()
            self.optimizer.step()
            self.model.half()
            torch.save(self.model.state_dict(), "last.pt")
