import torch
from torch.distributed.fsdp import FSDPModule


class Runner:
    def __init__(self, model, dp_config=None, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
        if dp_config is not None:
            self.model.apply_fsdp()

    def step(self, x):
        if isinstance(self.model, FSDPModule):
            self.model.set_is_last_backward(True)
        self.model(x).sum().backward()
        self.optimizer.step()


class RunnerConfig:
    def __init__(self, options):
        self.options = options

    def build(self, model):
        kwargs = dict(self.options)
        return Runner(model=model, **kwargs)
