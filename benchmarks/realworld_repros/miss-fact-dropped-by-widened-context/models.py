from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.norm = nn.LayerNorm(4)


def _blocks():
    return nn.ModuleList([Block() for _ in range(2)])


class ModelA(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = _blocks()


class ModelB(ModelA):
    pass


class ModelC(ModelA):
    pass


class ModelD(ModelA):
    pass


class ModelE(ModelA):
    pass


class ModelF(ModelA):
    pass


class ModelG(ModelA):
    pass
