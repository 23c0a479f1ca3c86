import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int, n_heads: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(x)


class TextTransformer(nn.Module):
    def __init__(self, vocab_size: int, dim: int, depth: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.blocks = nn.ModuleList([Block(dim, 8) for _ in range(depth)])

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return x[:, 0]


class ViT(nn.Module):
    def __init__(self, patch: int, dim: int, depth: int):
        super().__init__()
        self.patchify = nn.Conv2d(3, dim, patch, stride=patch)
        self.blocks = nn.ModuleList([Block(dim, 8) for _ in range(depth)])

    def forward(self, images):
        x = self.patchify(images).flatten(2).transpose(1, 2)
        for block in self.blocks:
            x = block(x)
        return x.mean(1)


def build_text_encoder(cfg):
    model = TextTransformer(cfg.vocab_size, cfg.dim, cfg.text_depth)
    if cfg.text_weights:
        model.load_state_dict(torch.load(cfg.text_weights, map_location="cpu"))
    return model


def build_image_encoder(cfg):
    model = ViT(cfg.patch, cfg.dim, cfg.image_depth)
    return model
