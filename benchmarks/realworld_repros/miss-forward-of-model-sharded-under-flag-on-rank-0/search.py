import torch


def try_batch(model, size):
    x = torch.zeros(size, 8, device="cuda")
    model(x).sum().backward()
    return True


def find_batch_size(model, start):
    size = start
    while size >= 16 and try_batch(model, size):
        size *= 2
    return size
