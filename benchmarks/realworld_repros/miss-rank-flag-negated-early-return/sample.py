import torch
import torch.distributed as dist


def p_sample(model, x):
    return model(x)


def generate(model, steps):
    samples = []
    do_sample = dist.get_rank() == 0
    if not do_sample:
        return samples
    x = torch.randn(1, 4)
    for _ in range(steps):
        x = p_sample(model, x)
    samples.append(x)
    return samples


def generate_direct(model, steps):
    if dist.get_rank() != 0:
        return []
    x = torch.randn(1, 4)
    for _ in range(steps):
        x = p_sample(model, x)
    return [x]
