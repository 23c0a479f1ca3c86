import torch
import torch.distributed as dist


def eval_model(model, loader, num_batches):
    model = model.eval()
    loss = 0.0
    n_batches = 0
    with torch.no_grad():
        for batch_idx, batch in enumerate(loader):
            if batch_idx >= num_batches:
                break
            loss += model(batch).sum()
            n_batches += 1
    if n_batches > 0:
        dist.all_reduce(loss)
        loss = loss / n_batches
    return loss
