import torch


def train_step(model, optimizer, batch, clip):
    # FSDP2 modules have set_requires_gradient_sync; FSDP1 ones do not
    fsdp_version = 2 if hasattr(model, "set_requires_gradient_sync") else 1
    model(batch).backward()
    if fsdp_version == 1:
        norm = model.clip_grad_norm_(clip)
    else:
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    optimizer.zero_grad()
    return norm


def backward(model, loss, sync):
    # only FSDP1/DDP wrappers have no_sync; an FSDP2 module (and Net) does not
    if not sync and hasattr(model, "no_sync"):
        with model.no_sync():
            loss.backward()
    else:
        loss.backward()
