import torch
import torch.distributed as dist


def p_sample(model, x, t):
    return x - 0.1 * model(x, t)


def generate(model, steps: int, dim: int = 256):
    """A few samples for the logs."""
    samples = []
    do_sample = dist.get_rank() == 0
    if not do_sample:
        return samples
    x = torch.randn(4, dim)
    for i in reversed(range(steps)):
        x = p_sample(model, x, torch.tensor(i / steps))  # expect: FSD206
    samples.append(x)
    return samples
