from pydantic import BaseModel
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return self.lin(x)


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(), Block()])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class Adapter(BaseModel):
    model_config = {"arbitrary_types_allowed": True}
    transformer: nn.Module | None = None

    def load_transformer(self):
        self.transformer = Transformer()

    def predict(self, x):
        return self.transformer(x)
