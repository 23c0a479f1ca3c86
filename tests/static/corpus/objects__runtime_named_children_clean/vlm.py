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


class VisionTower(nn.Module):
    def __init__(self, dim: int, depth: int):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, 14, stride=14)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])

    def forward(self, pixels):
        x = self.patch_embed(pixels).flatten(2).transpose(1, 2)
        for block in self.blocks:
            x = block(x)
        return x


class LanguageModel(nn.Module):
    def __init__(self, vocab_size: int, dim: int, depth: int):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)


class VisionLanguageModel(nn.Module):
    """The checkpoint's own layout: where the towers live depends on the architecture."""

    def __init__(self):
        super().__init__()
        self.model = nn.Module()
        self.model.visual = VisionTower(1024, 24)
        self.model.language_model = LanguageModel(32000, 2048, 24)
        self.lm_head = nn.Linear(2048, 32000, bias=False)
