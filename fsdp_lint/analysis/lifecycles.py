"""The documented order in which frameworks call the methods of the objects users give them, so
that a method's analysis can start from what the hooks before it did to `self`.

Only frameworks whose order is documented are listed; for any other class the order of its
methods is unknown, and the analysis assumes only that `__init__` ran first.
"""

from __future__ import annotations

from typing import Iterable, List, Optional

# Lightning: `configure_model` (sharding) runs before `configure_optimizers`, which runs before
# the first `training_step` (https://lightning.ai/docs/pytorch/stable/common/lightning_module.html#hooks).
_LIGHTNING = (
    "configure_model", "configure_sharded_model", "configure_optimizers", "on_fit_start", "on_train_start",
    "training_step", "validation_step", "test_step", "predict_step",
)
_LIGHTNING_BASES = frozenset({
    "lightning.LightningModule", "lightning.pytorch.LightningModule", "lightning.pytorch.core.LightningModule",
    "lightning.pytorch.core.module.LightningModule", "pytorch_lightning.LightningModule",
    "pytorch_lightning.core.LightningModule", "pytorch_lightning.core.module.LightningModule",
})


def lifecycle_before(bases: Iterable[str], method: Optional[str]) -> List[str]:
    """The hooks a framework calls before `method` (None: all of them, in order) on an object
    whose framework bases (qualified names) are `bases`; empty when the order is not
    documented or `method` is not a hook."""
    if not _LIGHTNING_BASES & set(bases) or (method is not None and method not in _LIGHTNING):
        return []
    earlier = list(_LIGHTNING[: _LIGHTNING.index(method)] if method is not None else _LIGHTNING)
    # the step hooks do not run one before another
    return [name for name in earlier if not name.endswith("_step")]
