from torch import nn


def apply_layerwise_fsdp(model: nn.Module, wrapper) -> nn.Module:
    """Each decoder layer is a unit of its own."""
    for layer in model.decoder.layers:
        wrapper(layer)
    return model
