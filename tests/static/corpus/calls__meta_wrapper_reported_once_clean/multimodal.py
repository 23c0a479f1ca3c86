import torch
from torch import nn


class MultimodalModel(nn.Module):
    """Projects image features into the language model's embedding space, then runs it."""

    def __init__(self, language_model, feature_dim: int, dim: int):
        super().__init__()
        self.language_model = language_model
        self.projector = nn.Linear(feature_dim, dim)

    def forward(self, image_features, text_embeds):
        embeds = torch.cat([self.projector(image_features), text_embeds], dim=1)
        return self.language_model(embeds)

    @torch.no_grad()
    def init_weights(self):
        self.projector.reset_parameters()
        self.language_model.init_weights()
