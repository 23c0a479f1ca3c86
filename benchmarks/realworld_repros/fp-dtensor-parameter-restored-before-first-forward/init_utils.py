import torch
from torch import nn
from torch.distributed.tensor import DTensor, Replicate


def to_dtensor(t, mesh, placements):
    return DTensor.from_local(t, device_mesh=mesh, placements=[Replicate()]).redistribute(device_mesh=mesh, placements=placements)


def init_model_weights(model):
    """Embeddings with a padding row cannot be initialised as DTensors: give them a full
    parameter, initialise, then put a DTensor parameter with the same placements back."""
    saved = []
    for name, module in model.named_modules():
        if isinstance(module, nn.Embedding) and module.padding_idx is not None:
            saved.append((module, module.weight.data.device_mesh, module.weight.data.placements))
            full = torch.empty(module.weight.data.shape, device=module.weight.device)
            module.weight = nn.Parameter(full, requires_grad=module.weight.requires_grad)
    model.init_weights()
    for module, mesh, placements in saved:
        module.weight = nn.Parameter(to_dtensor(module.weight.data, mesh, placements), requires_grad=module.weight.requires_grad)
