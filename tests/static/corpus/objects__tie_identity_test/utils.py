from typing import Optional

from torch import nn


def modules_are_shared(left: Optional[nn.Module], right: Optional[nn.Module]) -> bool:
    """True when the embedding and the head are one module (then one unit must hold both)."""
    if left is None or right is None:
        return False
    return left is right
