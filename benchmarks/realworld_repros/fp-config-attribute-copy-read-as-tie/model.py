from dataclasses import dataclass

from torch import nn


@dataclass
class Config:
    hidden_size: int = 0
    vocab_size: int = 128


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.proj(x)


class LanguageModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList([Block(config.hidden_size) for _ in range(2)])

    def forward(self, ids):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        return x


class VisionLanguageModel(nn.Module):
    def __init__(self, config, lm_config):
        super().__init__()
        self.config = config
        self.language_model = LanguageModel(lm_config)
        self.head = nn.Linear(lm_config.hidden_size, lm_config.vocab_size)
        self.config.hidden_size = self.language_model.config.hidden_size

    def forward(self, ids):
        return self.head(self.language_model(ids))
