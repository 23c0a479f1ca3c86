from torch import nn
from torch.distributed.fsdp import fully_shard


class Attention(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        weights = (q @ k.transpose(-2, -1)).softmax(-1)
        return self.proj(weights @ v)


class DecoderLayer(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.attn = Attention(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(x)
        return x + self.mlp(x)

    def shard(self, mesh, combined: bool):
        """One unit for the whole layer, or attention and MLP as units of their own."""
        if combined:
            fully_shard(self, mesh=mesh)
        else:
            fully_shard(self.attn, mesh=mesh)
            fully_shard(self.mlp, mesh=mesh)


class Decoder(nn.Module):
    def __init__(self, vocab_size: int, dim: int, n_layers: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim) for _ in range(n_layers)])
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, tokens):
        h = self.embed(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.head(h)
