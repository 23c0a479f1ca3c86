"""Runtime check FSD204: a sharded parameter replaced, re-cast or moved after ``fully_shard``."""

import weakref
from typing import Any, Optional, Sequence

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


def _problem(fsdp_param: Any, baseline: tuple) -> Optional[str]:
    original, dtype, mesh, placements = baseline
    module, name = torch_shims.param_owner(fsdp_param)
    current = torch_shims.sharded_param(fsdp_param)
    registered = module._parameters.get(name)
    if current is not original or not any(registered is form for form in torch_shims.registered_forms(fsdp_param)):
        return "replaced by another tensor"
    if not torch_shims.is_dtensor(current):
        return "replaced by a plain tensor"
    if current.dtype != dtype:
        return f"re-cast from {dtype} to {current.dtype}"
    expected = torch_shims.expected_device(fsdp_param)
    if current.device.type != "meta" and current.device != expected:
        return f"moved to {current.device} (its unit lives on {expected})"
    if current.device_mesh != mesh or tuple(current.placements) != placements:
        return f"re-sharded to {tuple(current.placements)} on {current.device_mesh}"
    return None


class ParamsMutatedAfterShard(RuntimeCheck):
    """A parameter of a unit was replaced, re-cast or moved after ``fully_shard``.

    ## What it does
    Right after ``fully_shard`` builds a unit, records each managed parameter: the DTensor
    object, its dtype, mesh and placements. At the first forward, and at the next forward or
    ``step()`` after any ``register_parameter``/``setattr`` of a parameter or module
    conversion (``.to()``, ``.half()``, ``.float()``) touched an FSDP-managed module, checks
    that the module still registers FSDP's tensor and that it is the same DTensor, with the
    same dtype, on the unit's device, mesh and placement.

    ## Why it matters
    FSDP all-gathers and reduce-scatters its own record of each parameter: a replacement is
    silently dropped or adopted half-way, a cast after sharding gives low-precision master
    weights (use ``MixedPrecisionPolicy`` instead), and a moved parameter breaks the
    collectives. Writing ``p.data = ...`` is not seen until the first forward.

    ## When
    First forward; afterwards at the next forward or step following a change. Per step it
    costs one flag read.
    """

    code = "FSD204"
    name = "params-mutated-after-shard"

    def __init__(self, guard: Any) -> None:
        super().__init__(guard)
        self._baseline: "weakref.WeakKeyDictionary[Any, tuple]" = weakref.WeakKeyDictionary()
        self._dirty = False

    def on_sharded(self, group: Any, params: Sequence[nn.Parameter]) -> None:
        for fsdp_param in torch_shims.group_fsdp_params(group):
            param = torch_shims.sharded_param(fsdp_param)
            # the tensor itself, not a weakref: torch.utils.swap_tensors refuses weakly referenced tensors
            self._baseline[fsdp_param] = (param, param.dtype, param.device_mesh, tuple(param.placements))

    def on_params_changed(self, module: nn.Module) -> None:
        self._dirty = True

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        self._dirty = False
        self._check(states)

    def on_iteration_start(self, root: nn.Module, state: Any) -> None:
        if self._dirty:
            self._dirty = False
            self._check(list(torch_shims.iter_states()))

    def on_step(self, optimizer: Any) -> None:
        if self._dirty:
            self._dirty = False
            self._check(list(torch_shims.iter_states()))

    def _check(self, states: Sequence[Any]) -> None:
        problems = []
        for state in states:
            for fsdp_param in torch_shims.fsdp_params(state):
                baseline = self._baseline.get(fsdp_param)
                problem = _problem(fsdp_param, baseline) if baseline is not None else None
                if problem is not None:
                    problems.append((fsdp_param, problem))
        if not problems:
            return
        fsdp_param, problem = problems[0]
        module, name = torch_shims.param_owner(fsdp_param)
        path = torch_shims.param_fqn(fsdp_param) or naming.param_path(module, name)
        others = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        self.report(
            f"parameter `{path}`{others} was {problem} after fully_shard; FSDP keeps communicating its "
            "own record of it, so the change is silently lost or breaks the collectives.",
            "cast, replace or move parameters before fully_shard (for low-precision compute use "
            "`fully_shard(..., mp_policy=MixedPrecisionPolicy(param_dtype=...))`); after "
            "fully_shard only change values in place (`with torch.no_grad(): p.copy_(...)`).",
            key=path,
        )
