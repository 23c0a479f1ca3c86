import torch
from torch.distributed.tensor import DTensor


class EMATracker:
    def __init__(self, model, decay=0.999):
        self._model = model
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            self.shadow[k].mul_(self.decay).add_(v.detach(), alpha=1 - self.decay)

    def load_state_dict(self, d):
        self.decay = d["decay"]
        live = self._model.state_dict()
        self.shadow = {}
        for k, full in d["shadow"].items():
            if isinstance(live[k], DTensor):
                full = DTensor.from_local(full, live[k].device_mesh).redistribute(
                    live[k].device_mesh, live[k].placements
                )
            self.shadow[k] = full
