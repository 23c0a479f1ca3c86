from torch import nn


class Base(nn.Module):
    def __init__(self):
        super().__init__()
