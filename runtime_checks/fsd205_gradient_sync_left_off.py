"""Runtime check FSD205: ``optimizer.step()`` while a unit's gradients were never reduced."""

import weakref
from typing import Any, Dict

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


def _path(group: Any) -> str:
    return naming.module_path(torch_shims.group_modules(group)[0])


class GradientSyncLeftOff(RuntimeCheck):
    """``optimizer.step()`` ran while gradient sync was off, or with gradients that were never reduced.

    ## What it does
    Remembers (weakly) the units that ``set_requires_gradient_sync(False)`` switched off. At
    the next ``optimizer.step()`` it looks at those units only: a unit whose sync is still off, or whose
    gradients are still held unsharded because the last backward ran with sync off (sync
    switched back on only after ``backward()``), is reported.

    ## Why it matters
    Gradients that were never reduce-scattered stay on the unsharded parameters: the sharded
    parameters get no gradient, ``step()`` leaves them unchanged and the ranks' local
    gradients are never averaged, silently. The unsharded gradients also keep a full copy of
    the unit in memory.

    ## When
    At ``optimizer.step()``. A loop that never calls ``set_requires_gradient_sync`` pays one
    emptiness test per step; gradient accumulation pays a flag read per toggled unit and a
    gradient read per parameter of those units at each step.
    """

    code = "FSD205"
    name = "gradient-sync-left-off"

    def __init__(self, guard: Any) -> None:
        super().__init__(guard)
        # id -> weak reference of each group that sync was switched off for since the last step
        self._pending: Dict[int, "weakref.ReferenceType[Any]"] = {}

    def on_sync_changed(self, module: nn.Module, requires_sync: bool, recurse: bool) -> None:
        if requires_sync:
            return
        for sub in module.modules() if recurse else (module,):
            state = torch_shims.state_of(sub)
            if state is not None and torch_shims.state_modules(state)[0] is sub:
                self._pending.update((id(g), weakref.ref(g)) for g in torch_shims.param_groups(state))

    def on_step(self, optimizer: Any) -> None:
        if not self._pending:
            return
        groups = [ref() for ref in self._pending.values()]
        off = [g for g in groups if g is not None and not torch_shims.group_reduces_grads(g)]
        self._pending = {id(g): weakref.ref(g) for g in off}  # still off: look again at the next step
        unreduced = [
            g for g in groups
            if g is not None and g not in off
            and any(torch_shims.unreduced_grad(fp) is not None for fp in torch_shims.group_fsdp_params(g))
        ]
        kind = type(optimizer).__name__
        if off:
            self.report(
                f"{kind}.step() was called while gradient sync is off for {len(off)} unit(s) (e.g. "
                f"`{_path(off[0])}`): their gradients were never reduced across ranks, so their sharded "
                "parameters get no gradient and the ranks silently drift apart.",
                "re-enable sync before the last micro-batch's backward: "
                "`model.set_requires_gradient_sync(is_last_microbatch)` (or `True` before the final backward).",
                key=f"off:{_path(off[0])}",
                rank_local=False,
            )
        elif unreduced:
            self.report(
                f"{kind}.step() was called while {len(unreduced)} unit(s) (e.g. `{_path(unreduced[0])}`) still "
                "hold unreduced, unsharded gradients: the last backward ran with gradient sync off and sync was "
                "switched back on only afterwards, so those gradients never reach the sharded parameters.",
                "call `model.set_requires_gradient_sync(True)` before the last micro-batch's forward/backward, "
                "not after it.",
                key=f"unreduced:{_path(unreduced[0])}",
                rank_local=False,
            )
