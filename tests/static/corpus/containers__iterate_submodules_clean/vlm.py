from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, 8, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.norm(x)
        return x + self.attn(h, h, h, need_weights=False)[0] + self.mlp(h)


class VisionEncoder(nn.Module):
    def __init__(self, dim: int, depth: int):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, 14, stride=14)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, pixels):
        x = self.patch_embed(pixels).flatten(2).transpose(1, 2)
        for block in self.blocks:
            x = block(x)
        return self.norm(x)


class TextDecoder(nn.Module):
    def __init__(self, vocab_size: int, dim: int, depth: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, vocab_size)


class VisionLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision = VisionEncoder(1024, 24)
        self.projector = nn.Linear(1024, 2048)
        self.text = TextDecoder(32000, 2048, 24)
