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
    def __init__(self, vocab_size: int, dim: int, n_layers: int, n_heads: int = 8, max_seq_len: int = 2048):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([Block(dim, n_heads) for _ in range(n_layers)])
        self.norm = nn.RMSNorm(dim)
        self.output = nn.Linear(dim, vocab_size, bias=False)
        self.register_buffer("positions", torch.empty(max_seq_len, dim), persistent=False)

    def forward(self, tokens):
        h = self.tok_embeddings(tokens) + self.positions[: tokens.shape[1]]
        for layer in self.layers:
            h = layer(h)
        return self.output(self.norm(h))

    @torch.no_grad()
    def init_weights(self):
        """Called after `to_empty`: every parameter and the position table get their values."""
        nn.init.normal_(self.tok_embeddings.weight, std=1.0)
        for block in self.layers:
            for module in block.modules():
                if isinstance(module, nn.Linear):
                    nn.init.trunc_normal_(module.weight, std=0.02)
                    if module.bias is not None:
                        nn.init.zeros_(module.bias)
                elif isinstance(module, nn.RMSNorm):
                    module.reset_parameters()
            block.attn._reset_parameters()
        self.norm.reset_parameters()
        nn.init.trunc_normal_(self.output.weight, std=1.0 / math.sqrt(self.output.in_features))
        steps = torch.arange(self.positions.shape[0], dtype=torch.float32)[:, None]
        freqs = torch.exp(torch.arange(self.positions.shape[1], dtype=torch.float32) * (-math.log(10000.0) / self.positions.shape[1]))
        self.positions.copy_(torch.sin(steps * freqs))


def build_on_meta(cfg) -> nn.Sequential:
    """A stack of blocks without memory: its tensors are allocated after sharding."""
    with torch.device("meta"):
        return nn.Sequential(*[Block(cfg.dim, n_heads=8) for _ in range(cfg.n_layers)])


@torch.no_grad()
def init_block_weights(module: nn.Module) -> None:
    if isinstance(module, nn.Linear):
        nn.init.trunc_normal_(module.weight, std=0.02)
        if module.bias is not None:
            nn.init.zeros_(module.bias)
    elif isinstance(module, (nn.RMSNorm, nn.MultiheadAttention)):
        module._reset_parameters() if isinstance(module, nn.MultiheadAttention) else module.reset_parameters()
