"""Runtime check FSD205: ``optimizer.step()`` while a unit's gradients were never reduced."""

import weakref
from typing import Any, List

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


class GradientSyncLeftOff(RuntimeCheck):
    """``optimizer.step()`` ran while gradient sync was off, or with gradients that were never reduced.

    ## What it does
    Remembers the units that ``set_requires_gradient_sync(False)`` switched off. At the next
    ``optimizer.step()`` it looks at those units only: a unit whose sync is still off, or whose
    gradients are still held unsharded because the last backward ran with sync off (sync
    switched back on only after ``backward()``), is reported.

    ## Why it matters
    Gradients that were never reduce-scattered stay on the unsharded parameters: the sharded
    parameters get no gradient, ``step()`` leaves them unchanged and the ranks' local
    gradients are never averaged, silently. The unsharded gradients also keep a full copy of
    the unit in memory.

    ## When
    At ``optimizer.step()``. A loop that never calls ``set_requires_gradient_sync`` pays one
    emptiness test per step; gradient accumulation pays one read per parameter of the toggled
    units at each step.
    """

    code = "FSD205"
    name = "gradient-sync-left-off"

    def __init__(self, guard: Any) -> None:
        super().__init__(guard)
        self._toggled: "weakref.WeakSet[nn.Module]" = weakref.WeakSet()

    def on_sync_changed(self, module: nn.Module, requires_sync: bool, recurse: bool) -> None:
        if not requires_sync:
            self._toggled.add(module)

    def on_step(self, optimizer: Any) -> None:
        if not self._toggled:
            return
        off: List[str] = []
        unreduced: List[str] = []
        still_toggled = []
        for top in list(self._toggled):
            for module in top.modules():
                state = torch_shims.state_of(module)
                if state is None or torch_shims.state_modules(state)[0] is not module:
                    continue
                for group in torch_shims.param_groups(state):
                    if not torch_shims.group_reduces_grads(group):
                        off.append(naming.module_path(module))
                        still_toggled.append(top)
                    elif any(torch_shims.unreduced_grad(fp) is not None for fp in torch_shims.group_fsdp_params(group)):
                        unreduced.append(naming.module_path(module))
        self._toggled = weakref.WeakSet(still_toggled)
        kind = type(optimizer).__name__
        if off:
            self.report(
                f"{kind}.step() was called while gradient sync is off for {len(off)} unit(s) (e.g. `{off[0]}`): "
                "their gradients were never reduced across ranks, so their sharded parameters get no "
                "gradient and the ranks silently drift apart.",
                "re-enable sync before the last micro-batch's backward: "
                "`model.set_requires_gradient_sync(is_last_microbatch)` (or `True` before the final backward).",
                key=f"off:{off[0]}",
                rank_local=False,
            )
        elif unreduced:
            self.report(
                f"{kind}.step() was called while {len(unreduced)} unit(s) (e.g. `{unreduced[0]}`) still hold "
                "unreduced, unsharded gradients: the last backward ran with gradient sync off and sync was "
                "switched back on only afterwards, so those gradients never reach the sharded parameters.",
                "call `model.set_requires_gradient_sync(True)` before the last micro-batch's forward/backward, "
                "not after it.",
                key=f"unreduced:{unreduced[0]}",
                rank_local=False,
            )
