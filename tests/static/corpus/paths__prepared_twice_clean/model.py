import torch
from torch import nn


class DecoderLayer(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.RMSNorm(dim)
        self.attn = nn.MultiheadAttention(dim, 8, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(x)


class CausalLM(nn.Module):
    def __init__(self, vocab_size: int, dim: int, depth: int):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim) for _ in range(depth)])
        self.norm = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        h = self.embed_tokens(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(self.norm(h))


class TextActor(nn.Module):
    """A policy around a causal LM: the strategy shards the LM it holds (`.model`)."""

    def __init__(self, vocab_size: int = 32000, dim: int = 1024, depth: int = 8):
        super().__init__()
        self.model = CausalLM(vocab_size, dim, depth)

    def forward(self, tokens):
        return torch.log_softmax(self.model(tokens).float(), dim=-1)


class VisionActor(TextActor):
    def __init__(self, vocab_size: int = 32000, dim: int = 1024, depth: int = 8):
        super().__init__(vocab_size, dim, depth)
        self.vision_proj = nn.Linear(768, dim)
