import torch.nn as nn


class ToyModel:
    def __init__(self):
        self.net = nn.Sequential(*[nn.Linear(8, 8) for _ in range(4)])

    def denoiser(self):
        return self.net

    def shard_plan(self):
        # what to shard, in order: the blocks, then the root
        return [
            {"modules": self.net, "reshard_after_forward": True},
            {"module": self.net, "reshard_after_forward": False},
        ]

    def denoise(self, x):
        return self.net.forward(x)
