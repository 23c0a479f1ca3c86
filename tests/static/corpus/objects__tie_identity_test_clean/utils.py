from typing import Optional

from torch import nn


def module_weights_are_tied(left: Optional[nn.Module], right: Optional[nn.Module]) -> bool:
    """True when the two modules hold the same `weight` parameter (then one unit must hold both)."""
    if left is None or right is None:
        return False
    left_weight = getattr(left, "weight", None)
    right_weight = getattr(right, "weight", None)
    return left_weight is not None and left_weight is right_weight
