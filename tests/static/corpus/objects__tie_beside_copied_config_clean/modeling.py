import torch
from torch import nn

from configs import TextConfig, VLMConfig


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class LanguageModel(nn.Module):
    def __init__(self, config: TextConfig):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList([Block(config.hidden_size) for _ in range(config.num_layers)])
        self.norm = nn.LayerNorm(config.hidden_size)

    def forward(self, input_ids, prefix):
        embeds = torch.cat([prefix, self.embed_tokens(input_ids)], dim=1)
        for layer in self.layers:
            embeds = layer(embeds)
        return self.norm(embeds)


class VisionTower(nn.Module):
    def __init__(self, config: VLMConfig):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, config.vision_dim, config.patch_size, stride=config.patch_size)
        self.blocks = nn.ModuleList([Block(config.vision_dim) for _ in range(2)])

    def forward(self, pixels):
        x = self.patch_embed(pixels).flatten(2).transpose(1, 2)
        for block in self.blocks:
            x = block(x)
        return x


class VisionLanguageModel(nn.Module):
    def __init__(self, config: VLMConfig, text_config: TextConfig):
        super().__init__()
        self.config = config
        self.vision_tower = VisionTower(config)
        self.projector = nn.Linear(config.vision_dim, text_config.hidden_size)
        self.language_model = LanguageModel(text_config)
        self.lm_head = nn.Linear(text_config.hidden_size, text_config.vocab_size, bias=False)
        self.config.hidden_size = self.language_model.config.hidden_size
        self.config.vocab_size = self.language_model.config.vocab_size

    def forward(self, pixels, input_ids):
        image = self.projector(self.vision_tower(pixels))
        return self.lm_head(self.language_model(input_ids, image))
