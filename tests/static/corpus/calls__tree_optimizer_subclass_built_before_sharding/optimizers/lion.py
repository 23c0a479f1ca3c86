import torch


class Lion(torch.optim.Optimizer):
    """Sign-momentum optimizer, re-implemented for the study (not torch's)."""

    def __init__(self, params, lr: float = 1e-4, betas=(0.9, 0.99), weight_decay: float = 0.0):
        defaults = dict(lr=lr, betas=betas, weight_decay=weight_decay)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["exp_avg"] = torch.zeros_like(p)
                update = state["exp_avg"].lerp(p.grad, 1 - beta1).sign_()
                p.mul_(1 - group["lr"] * group["weight_decay"]).add_(update, alpha=-group["lr"])
                state["exp_avg"].lerp_(p.grad, 1 - beta2)


class ScheduledAdamW(torch.optim.AdamW):
    """torch's AdamW with the warm-up folded into the step."""

    def __init__(self, params, lr: float = 3e-4, warmup: int = 100):
        super().__init__(params, lr=lr)
        self.warmup = warmup
