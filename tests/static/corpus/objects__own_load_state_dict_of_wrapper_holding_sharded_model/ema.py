import torch


class EMATracker:
    """Not a module: holds the live model and a dict of shadow tensors."""

    def __init__(self, model, decay: float = 0.999) -> None:
        self._model = model
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}

    @torch.no_grad()
    def update(self) -> None:
        for k, v in self._model.state_dict().items():
            self.shadow[k].mul_(self.decay).add_(v.detach(), alpha=1 - self.decay)

    def load_state_dict(self, d) -> None:
        """Restores the decay and the live weights the shadow was last synced with."""
        self.decay = d["decay"]
        self._model.load_state_dict(d["live"])  # expect: FSD302
