import torch
from torch import nn

from fsdp_utils import weight_update


def _export_weight(layer, dtype):
    """The layer's weight, scaled and cast to the export dtype, as a new frozen parameter."""
    packed = (layer.weight.detach() / layer.weight_scale).to(dtype)
    layer.weight = nn.Parameter(packed, requires_grad=False)


def export_model(model, dtype):
    for layer in model.layers:
        with weight_update(model, layer):
            _export_weight(layer, dtype)
    return model
