"""One optimizer step; the model is told apart as FSDP1 or FSDP2 by the methods it has."""

from contextlib import nullcontext

import torch


def train_step(model_container, optimizer, batches, clip):
    model = model_container[0]
    fsdp_algorithm = None
    if hasattr(model, "set_requires_gradient_sync"):
        fsdp_algorithm = 2
    elif hasattr(model, "no_sync"):
        fsdp_algorithm = 1
    no_sync = model.no_sync if fsdp_algorithm == 1 else nullcontext
    with no_sync():
        for batch in batches[:-1]:
            model(batch).backward()
    model(batches[-1]).backward()
    if fsdp_algorithm == 2:
        norm = model.clip_grad_norm_(clip)  # expect: FSD203
    else:
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    optimizer.zero_grad()
    return norm


def pipeline_step(model_container, schedule, optimizer, batch, clip):
    fsdp_algorithm = 2 if hasattr(model_container[0], "set_requires_gradient_sync") else 1
    schedule.step(batch)
    norms = []
    for model in model_container:
        if fsdp_algorithm == 2:
            norms.append(model.clip_grad_norm_(clip))  # expect: FSD203
        else:
            norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), clip))
    optimizer.step()
    optimizer.zero_grad()
    return norms
