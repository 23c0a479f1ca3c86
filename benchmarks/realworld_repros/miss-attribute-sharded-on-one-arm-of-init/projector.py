import torch


class Projector(torch.nn.Module):
    def __init__(self, vision_dim: int = 8, lm_dim: int = 4):
        super().__init__()
        self.fc = torch.nn.Linear(vision_dim, lm_dim)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return self.fc(feats)
