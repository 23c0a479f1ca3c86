from torch import nn


class DecoderLayer(nn.Module):
    def __init__(self, dim: int, n_heads: int):
        super().__init__()
        self.attn_norm = nn.RMSNorm(dim)
        self.attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.ffn_norm = nn.RMSNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim, bias=False), nn.SiLU(), nn.Linear(4 * dim, dim, bias=False))

    def forward(self, x):
        h = self.attn_norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.ffn(self.ffn_norm(x))


class Decoder(nn.Module):
    def __init__(self, vocab: int, dim: int, n_layers: int, n_heads: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim, n_heads) for _ in range(n_layers)])
        self.norm = nn.RMSNorm(dim)
        self.output = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x)
        return self.output(self.norm(x))
