from torch import nn


class ResBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.act = nn.LeakyReLU(0.2)

    def forward(self, x):
        return x + self.conv2(self.act(self.conv1(x)))


class Generator(nn.Module):
    def __init__(self, z_dim: int, channels: int, n_blocks: int):
        super().__init__()
        self.stem = nn.Linear(z_dim, channels * 16)
        self.blocks = nn.ModuleList([ResBlock(channels) for _ in range(n_blocks)])
        self.to_rgb = nn.Conv2d(channels, 3, 1)

    def forward(self, z):
        x = self.stem(z).view(z.shape[0], -1, 4, 4)
        for block in self.blocks:
            x = block(x)
        return self.to_rgb(x).tanh()


class Discriminator(nn.Module):
    def __init__(self, channels: int, n_blocks: int):
        super().__init__()
        self.from_rgb = nn.Conv2d(3, channels, 1)
        self.blocks = nn.ModuleList([ResBlock(channels) for _ in range(n_blocks)])
        self.head = nn.Linear(channels * 16, 1)

    def forward(self, x):
        x = self.from_rgb(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x.flatten(1))
