import torch
from torch.distributed.tensor import DTensor, distribute_tensor


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
        """Restores the decay and the shadow, each tensor cut to this rank's shard of the live one."""
        self.decay = d["decay"]
        live = self._model.state_dict()
        self.shadow = {}
        for k, full in d["shadow"].items():
            if isinstance(live[k], DTensor):
                full = distribute_tensor(full, live[k].device_mesh, live[k].placements)
            self.shadow[k] = full
