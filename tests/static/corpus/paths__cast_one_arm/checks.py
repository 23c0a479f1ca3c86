import torch


def dry_run(model, seq_len: int = 1024):
    """One forward and backward at full length, so that an out-of-memory shows before the data loader starts."""
    tokens = torch.zeros(1, seq_len, dtype=torch.long, device="cuda")
    model(tokens).sum().backward()
    model.zero_grad(set_to_none=True)
