from torch import nn

# Where vision-language wrappers keep their text model.
TEXT_MODULE_ATTRS = ("language_model", "text_model", "text_decoder")


def get_text_module(model: nn.Module) -> nn.Module:
    """The nested text model of a multimodal wrapper, else the model itself."""
    if model is None:
        return model
    for attr_name in TEXT_MODULE_ATTRS:
        if hasattr(model, attr_name):
            nested = getattr(model, attr_name)
            if nested is not None and isinstance(nested, nn.Module):
                return nested
    return model


def module_weights_are_tied(left, right) -> bool:
    """True when the two modules hold the same `weight` parameter (then one unit must hold both)."""
    if left is None or right is None:
        return False
    left_weight = getattr(left, "weight", None)
    right_weight = getattr(right, "weight", None)
    return left_weight is not None and left_weight is right_weight
