import torch
from torch import nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * (x.pow(2).mean(-1, keepdim=True) + self.eps).rsqrt() * self.weight


class DecoderLayer(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.input_layernorm = RMSNorm(dim)
        self.self_attn = nn.MultiheadAttention(dim, 16, batch_first=True)
        self.post_attention_layernorm = RMSNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.input_layernorm(x)
        x = x + self.self_attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.post_attention_layernorm(x))


class Decoder(nn.Module):
    def __init__(self, vocab_size: int, dim: int, depth: int):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim) for _ in range(depth)])
        self.norm = RMSNorm(dim)


class CausalLM(nn.Module):
    def __init__(self, vocab_size: int = 32000, dim: int = 2048, depth: int = 24):
        super().__init__()
        self.model = Decoder(vocab_size, dim, depth)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        h = self.model.embed_tokens(tokens)
        for layer in self.model.layers:
            h = layer(h)
        return self.lm_head(self.model.norm(h))
