from torch import nn


class Decoder(nn.Module):
    def __init__(self, vocab_size: int, dim: int, n_layers: int):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([nn.TransformerEncoderLayer(dim, 8, batch_first=True) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(dim)
        self.output = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        h = self.tok_embeddings(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.output(self.norm(h))


class VisionEncoder(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, kernel_size=16, stride=16)

    def forward(self, images):
        return self.proj(images).flatten(2).transpose(1, 2)


class FusionModel(nn.Module):
    """A decoder that also reads image patches."""

    def __init__(self, decoder: Decoder, encoder: VisionEncoder):
        super().__init__()
        self.decoder = decoder
        self.encoder = encoder

    def forward(self, tokens, images=None):
        return self.decoder(tokens)


def build_model(vocab_size: int, dim: int, n_layers: int, vision: bool):
    decoder = Decoder(vocab_size, dim, n_layers)
    if vision:
        return FusionModel(decoder, VisionEncoder(dim))
    return decoder
