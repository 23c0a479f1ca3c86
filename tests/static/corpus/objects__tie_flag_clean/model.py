from dataclasses import dataclass

from torch import nn


@dataclass
class ModelArgs:
    vocab_size: int = 32000
    dim: int = 1024
    n_layers: int = 12
    tie_embeddings: bool = False


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Transformer(nn.Module):
    def __init__(self, args: ModelArgs):
        super().__init__()
        self.tok_embeddings = nn.Embedding(args.vocab_size, args.dim)
        self.layers = nn.ModuleList([Block(args.dim) for _ in range(args.n_layers)])
        self.norm = nn.LayerNorm(args.dim)
        self.output = nn.Linear(args.dim, args.vocab_size, bias=False)
        self.tie_embeddings = args.tie_embeddings
        if self.tie_embeddings:
            self._tie()

    def _tie(self):
        self.output.weight = self.tok_embeddings.weight

    def reset_parameters(self):
        nn.init.normal_(self.tok_embeddings.weight, std=0.02)
        if self.tie_embeddings:
            self._tie()

    def forward(self, tokens):
        h = self.tok_embeddings(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.output(self.norm(h))
