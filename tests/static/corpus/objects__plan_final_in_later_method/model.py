from torch import nn


class Decoder(nn.Module):
    def __init__(self, dim: int, n_layers: int):
        super().__init__()
        self.layers = nn.ModuleList([nn.TransformerEncoderLayer(dim, 8, batch_first=True) for _ in range(n_layers)])

    def forward(self, h):
        for layer in self.layers:
            h = layer(h)
        return h


class CausalLM(nn.Module):
    def __init__(self, vocab_size: int = 32000, dim: int = 512, n_layers: int = 8):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.decoder = Decoder(dim, n_layers)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        return self.lm_head(self.decoder(self.embed(tokens)))
