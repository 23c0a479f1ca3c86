from torch import nn


class Mlp(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        return self.down(self.up(x).relu())


class Conv(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


class Recurrent(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.rnn = nn.GRU(width, width, batch_first=True)

    def forward(self, x):
        return self.rnn(x)[0]


class Embedder(nn.Module):
    def __init__(self, vocab=100, width=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)

    def forward(self, x):
        return self.embed(x)


class Normed(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        return self.proj(self.norm(x))


class Gated(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.gate = nn.Linear(width, width)
        self.value = nn.Linear(width, width)

    def forward(self, x):
        return self.gate(x).sigmoid() * self.value(x)


class Attention(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, 2, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


class Bilinear(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.bilinear = nn.Bilinear(width, width, width)

    def forward(self, x):
        return self.bilinear(x, x)
