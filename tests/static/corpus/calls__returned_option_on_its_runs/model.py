import math

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int, n_heads: int):
        super().__init__()
        self.attn_norm = nn.RMSNorm(dim)
        self.attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.mlp_norm = nn.RMSNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.attn_norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.mlp_norm(x))


class Transformer(nn.Module):
    def __init__(self, config, num_image_tokens: int = 0):
        super().__init__()
        self.num_image_tokens = num_image_tokens
        self.tok_embeddings = nn.Embedding(config.vocab_size, config.dim)
        self.layers = nn.ModuleList([Block(config.dim, config.n_heads) for _ in range(config.n_layers)])
        self.norm = nn.RMSNorm(config.dim)
        self.output = nn.Linear(config.dim, config.vocab_size, bias=False)

    def forward(self, tokens, prefix=None):
        h = self.tok_embeddings(tokens)
        if prefix is not None:
            h = torch.cat([prefix, h], dim=1)
        for layer in self.layers:
            h = layer(h)
        return self.output(self.norm(h))

    @torch.no_grad()
    def init_weights(self):
        nn.init.normal_(self.tok_embeddings.weight, std=1.0)
        for block in self.layers:
            for module in block.modules():
                if isinstance(module, nn.Linear):
                    nn.init.trunc_normal_(module.weight, std=0.02)
                elif isinstance(module, nn.RMSNorm):
                    module.reset_parameters()
            block.attn._reset_parameters()
        self.norm.reset_parameters()
        nn.init.trunc_normal_(self.output.weight, std=1.0 / math.sqrt(self.output.in_features))


class Adapter(nn.Module):
    def __init__(self, in_dim: int, out_dim: int):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(in_dim, out_dim), nn.GELU(), nn.Linear(out_dim, out_dim))

    def forward(self, features):
        return self.proj(features)


class VLMWrapper(nn.Module):
    def __init__(self, encoder, adapter, transformer):
        super().__init__()
        self.encoder = encoder
        self.adapter = adapter
        self.transformer = transformer

    def forward(self, pixel_values, tokens):
        with torch.no_grad():
            features = self.encoder(pixel_values).last_hidden_state
        return self.transformer(tokens, prefix=self.adapter(features))
