import torch

from module import LitLM


class Tiny(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(2, 2)])

    def forward(self, x):
        return self.layers[0](x)


def test_training_step():
    module = LitLM(Tiny())
    module.training_step({"x": torch.ones(2)}, 0)
