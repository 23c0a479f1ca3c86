from torch import nn


class FlowMatchingWrapper(nn.Module):
    """Holds the denoiser and turns its velocity prediction into an x0 prediction."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, noisy, t):
        velocity = self.model(noisy, t)  # expect: FSD105
        return noisy - t[:, None, None] * velocity
