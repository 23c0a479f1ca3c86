from torch import nn


class ResBlock(nn.Module):
    def __init__(self, ch: int):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.norm = nn.BatchNorm2d(ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return x + self.conv2(self.norm(self.conv1(x)).relu())


class Generator(nn.Module):
    def __init__(self, ch: int, n_blocks: int):
        super().__init__()
        layers = [nn.Conv2d(3, ch, 3, padding=1)]
        for _ in range(n_blocks):
            layers.append(ResBlock(ch))
        layers += [nn.Conv2d(ch, 3, 3, padding=1), nn.Tanh()]
        self.net = nn.Sequential(*layers)

    def forward(self, z):
        return self.net(z)


class PatchDiscriminator(nn.Module):
    """PatchGAN: strided convolutions, each with its norm and activation, no blocks."""

    def __init__(self, ch: int, n_layers: int):
        super().__init__()
        sequence = [nn.Conv2d(3, ch, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True)]
        for n in range(1, n_layers):
            sequence += [
                nn.Conv2d(ch * 2 ** (n - 1), ch * 2**n, 4, stride=2, padding=1),
                nn.BatchNorm2d(ch * 2**n),
                nn.LeakyReLU(0.2, True),
            ]
        sequence.append(nn.Conv2d(ch * 2 ** (n_layers - 1), 1, 4, padding=1))
        self.main = nn.Sequential(*sequence)

    def forward(self, x):
        return self.main(x)
