import torch
from torch import nn

from quant_utils import weight_update


def _export_weight(layer, dtype):
    """The layer's weight, scaled and cast to the export dtype, as a new frozen parameter."""
    packed = (layer.weight.detach() / layer.weight_scale).to(dtype)
    layer.weight = nn.Parameter(packed, requires_grad=False)


def _export_weights(layers, dtype):
    for layer in layers:
        _export_weight(layer, dtype)


def export_model(model, dtype):
    """Each block's two layers in one update of the block's unit."""
    for block in model.layers:
        layers = [block.up, block.down]
        with weight_update(model, layers):
            _export_weights(layers, dtype)
    return model
