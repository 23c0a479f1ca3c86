import torch


class AdamW(torch.optim.Optimizer):
    """A research re-implementation of AdamW (the shape of many optimizer-study repositories)."""

    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.95), weight_decay: float = 0.0):
        super().__init__(params, dict(lr=lr, betas=betas, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["exp_avg"] = torch.zeros_like(p)
                state["exp_avg"].lerp_(p.grad, 1 - group["betas"][0])
                p.add_(state["exp_avg"], alpha=-group["lr"])
