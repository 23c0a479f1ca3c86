import torch
from torch.distributed.fsdp import fully_shard

from pipeline import Pipeline
from steps import forward_step


def build(finetune):
    if finetune:
        pipe = Pipeline.from_pretrained("video")
    else:
        pipe = Pipeline.from_pretrained("image")
    fully_shard(pipe.transformer)
    optimizer = torch.optim.AdamW(pipe.transformer.parameters(), lr=1e-4)
    return pipe, optimizer


def forward_here(model):
    return model.forward(None)  # reported


class Recipe:
    def __init__(self, cfg):
        self.cfg = cfg

    def setup(self):
        (self.pipe, self.optimizer) = build(self.cfg.get("mode") == "finetune")
        self.model = self.pipe.transformer

    def run(self):
        forward_here(self.model)
        forward_step(self.model)
