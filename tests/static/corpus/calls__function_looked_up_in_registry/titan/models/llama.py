import torch
from torch import nn


class TransformerBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attention = nn.Linear(dim, dim)
        self.feed_forward = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.feed_forward(torch.relu(self.attention(x)))


class Transformer(nn.Module):
    def __init__(self, vocab_size, dim, n_layers):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList(TransformerBlock(dim) for _ in range(n_layers))
        self.output = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        h = self.tok_embeddings(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.output(h)
