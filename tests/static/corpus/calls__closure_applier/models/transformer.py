from torch import nn


class DecoderLayer(nn.Module):
    def __init__(self, dim: int, num_heads: int):
        super().__init__()
        self.self_attn_norm = nn.LayerNorm(dim)
        self.self_attn = nn.MultiheadAttention(dim, num_heads, batch_first=True)
        self.ffn_norm = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.self_attn_norm(x)
        x = x + self.self_attn(h, h, h, need_weights=False)[0]
        return x + self.ffn(self.ffn_norm(x))


class Decoder(nn.Module):
    def __init__(self, dim: int, num_layers: int, num_heads: int):
        super().__init__()
        self.layers = nn.ModuleList([DecoderLayer(dim, num_heads) for _ in range(num_layers)])
        self.layer_norm = nn.LayerNorm(dim)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.layer_norm(x)


class TransformerLM(nn.Module):
    def __init__(self, vocab_size: int = 32000, dim: int = 1024, num_layers: int = 16, num_heads: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.decoder = Decoder(dim, num_layers, num_heads)
        self.final_proj = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        return self.final_proj(self.decoder(self.embed(tokens)))
