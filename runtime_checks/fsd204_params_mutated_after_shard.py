"""Runtime check FSD204: a sharded parameter replaced, re-cast or moved after ``fully_shard``."""

import weakref
from typing import Any, Optional, Sequence, Tuple

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


def _problem(fsdp_param: Any, baseline: tuple, readopts: bool) -> Tuple[Optional[str], Any]:
    """What is wrong with the parameter FSDP will communicate, and that tensor.

    torch re-adopts a replacement it is told about: ``load_state_dict`` (its post-hook) and
    ``module.to(...)``/``to_empty`` (``FSDPModule._apply``) make the registered tensor FSDP's
    sharded parameter at once, and a unit's first lazy init does it for whatever is registered
    then. So a replacement is fine when torch adopted it, or will (``readopts``: before the
    unit's lazy init), and it is the same kind of shard: a DTensor on the unit's device, mesh and
    placements, of the same dtype unless the lazy init is still to come (which adopts a cast:
    ``model.to(torch.float64)`` between ``fully_shard`` and the first forward trains as a float64
    model does, torch 2.13). Any other replacement is lost at the next all-gather.
    """
    original, dtype, mesh, placements = baseline
    module, name = torch_shims.param_owner(fsdp_param)
    registered = module._parameters.get(name)
    if any(registered is form for form in torch_shims.registered_forms(fsdp_param)):
        candidate = torch_shims.sharded_param(fsdp_param)
    elif readopts:
        candidate = registered
    else:
        return "replaced by another tensor", registered
    if not torch_shims.is_dtensor(candidate):
        return "replaced by a plain tensor", candidate
    if candidate.dtype != dtype and not readopts:
        return f"re-cast from {dtype} to {candidate.dtype}", candidate
    expected = torch_shims.expected_device(fsdp_param)
    if candidate.device.type != "meta" and candidate.device != expected:
        return f"moved to {candidate.device} (its unit lives on {expected})", candidate
    if candidate.device_mesh != mesh or tuple(candidate.placements) != placements:
        return f"re-sharded to {tuple(candidate.placements)} on {candidate.device_mesh}", candidate
    return None, candidate


class ParamsMutatedAfterShard(RuntimeCheck):
    """A parameter of a unit was replaced, re-cast or moved after ``fully_shard``.

    ## What it does
    Right after ``fully_shard`` builds a unit, records each managed parameter: the DTensor
    object, its dtype, mesh and placements. At the first forward, and at the next forward or
    ``step()`` after any ``register_parameter``/``setattr`` of a parameter or module
    conversion (``.to()``, ``.half()``, ``.float()``) touched an FSDP-managed module, checks
    that the module still registers FSDP's tensor with the same dtype, on the unit's device,
    mesh and placement. A replacement that torch re-adopts is accepted: a DTensor of the same
    kind loaded with ``load_state_dict(..., assign=True)`` (the FSDP2 tutorial's resume, what
    ``set_model_state_dict`` does for a meta-device model) or registered before the unit's
    first forward.

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
            readopts = torch_shims.before_lazy_init(state)
            for fsdp_param in torch_shims.fsdp_params(state):
                baseline = self._baseline.get(fsdp_param)
                if baseline is None:
                    continue
                problem, tensor = _problem(fsdp_param, baseline, readopts)
                if problem is not None:
                    problems.append((fsdp_param, problem))
                elif tensor is not baseline[0]:  # a replacement torch adopts: the new baseline
                    self._baseline[fsdp_param] = (tensor,) + baseline[1:]
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
