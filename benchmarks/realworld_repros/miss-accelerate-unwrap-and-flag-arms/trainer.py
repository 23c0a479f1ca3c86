import os

from save import save


class Trainer:
    def __init__(self, model, optimizer, accelerator, is_fsdp):
        self.model = model
        self.optimizer = optimizer
        self.accelerator = accelerator
        self.is_fsdp = is_fsdp
        if not is_fsdp:
            self.model, self.optimizer = accelerator.prepare(model, optimizer)

    def checkpoint(self):
        rank = int(os.environ.get("RANK", 0))
        save(self.accelerator.unwrap_model(self.model), self.optimizer, self.is_fsdp, rank)
