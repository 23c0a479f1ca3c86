from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))

    def forward(self, x):
        return self.layers(x)


def construct_model():
    model = Model()
    return model, nn.MSELoss()
