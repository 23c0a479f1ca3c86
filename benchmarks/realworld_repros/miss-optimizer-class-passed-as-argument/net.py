from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class CausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Backbone()
        self.lm_head = nn.Linear(4, 4)

    def forward(self, x):
        return self.lm_head(self.model(x))
