"""Runtime check FSD201: a unit's modules run without going through the unit's FSDP hooks."""

import weakref
from typing import Any, Dict, Optional, Sequence, Tuple

import torch.nn as nn

from fsdp_lint.runtime import location, naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck
from fsdp_lint.runtime.reporter import current_rank, format_message


def _has_parameters(state: Any) -> bool:
    return any(True for _ in torch_shims.fsdp_params(state))


def _units_by_tensor() -> Dict[int, Any]:
    """id of every tensor an FSDP unit registers (sharded or not) -> that unit's state."""
    units: Dict[int, Any] = {}
    for state in torch_shims.iter_states():
        for fsdp_param in torch_shims.fsdp_params(state):
            units.update((id(t), state) for t in torch_shims.registered_forms(fsdp_param) if t is not None)
    return units


def _unit_of(module: nn.Module, units: Dict[int, Any]) -> Optional[Any]:
    for sub in module.modules():
        for param in sub._parameters.values():
            if param is not None and id(param) in units:
                return units[id(param)]
    return None


def _outside_module(exc: BaseException) -> Optional[Tuple[nn.Module, nn.Module]]:
    """For torch's "got mixed torch.Tensor and DTensor": the outermost module on the failing stack that
    belongs to a sharded unit whose own forward is not on that stack, and that unit's module."""
    if "got mixed torch.Tensor and DTensor" not in str(exc):
        return None
    units = _units_by_tensor()
    fsdp_module = torch_shims.get("FSDPModule")
    running = set()
    tb = exc.__traceback__
    while tb is not None:
        module = tb.tb_frame.f_locals.get("self") if tb.tb_frame.f_code.co_name == "forward" else None
        tb = tb.tb_next
        if isinstance(module, fsdp_module):
            running.add(id(module))
        elif isinstance(module, nn.Module) and module.__dict__.get("_is_fsdp_managed_module"):
            unit = _unit_of(module, units)
            owner = torch_shims.state_modules(unit)[0] if unit is not None else None
            if owner is not None and id(owner) not in running and not any(
                    torch_shims.group_is_unsharded(g) for g in torch_shims.param_groups(unit)):
                return module, owner
    return None


class ForwardBypass(RuntimeCheck):
    """A unit's modules ran without the unit's FSDP hooks: ``m.forward(x)``, a submodule called on its own, a block first.

    ## What it does
    Every ``FSDP<Cls>`` class gets a ``forward`` that reads the unit's training state before
    running the user's ``forward``: FSDP's pre-forward hook sets it to FORWARD (PRE_BACKWARD
    while activation checkpointing recomputes), its post-forward hook back to IDLE. An IDLE
    state inside ``forward`` therefore means the hooks were skipped: ``model.forward(x)``,
    ``block.forward(h)`` from a parent, or a method calling ``self.forward`` that was not
    registered with ``register_fsdp_forward_method``. A child of the root that holds root
    parameters (``model.tok_embeddings``, ``model.output``) called while the root is sharded,
    outside its forward, is reported before it runs; calling it while the root is all-gathered
    (after its forward, as a chunked loss does) is fine. A deeper module called outside its
    unit is named when torch's "got mixed torch.Tensor and DTensor" reaches a unit's call, or
    the top of the program. At the root's first forward, it reports blocks whose forward
    already ran on their own.

    ## Why it matters
    If the parameters are still sharded, torch fails with "got mixed torch.Tensor and DTensor"
    without saying which module. If they happen to be unsharded (after a ``no_grad`` forward of
    the root, after ``unshard()``), the forward runs, but its gradients are never
    reduce-scattered and the unit's sharded parameters never change: a silent divergence. A
    block run before the root becomes a root of its own, and the root's first forward then
    fails with "FSDP state has already been lazily initialized".

    ## When
    At the start of the bypassing forward, before any op touches the parameters; at the
    root's first forward, before its all-gather. A hook on each child of the root costs a few
    microseconds per call of that child.
    """

    code = "FSD201"
    name = "forward-bypass"

    def __init__(self, guard: Any) -> None:
        super().__init__(guard)
        self._first_forward: "weakref.WeakKeyDictionary[nn.Module, Optional[str]]" = weakref.WeakKeyDictionary()
        self._bypassed: "weakref.WeakSet[nn.Module]" = weakref.WeakSet()  # units whose forward ran without hooks

    def on_forward(self, module: nn.Module) -> None:
        state = torch_shims.state_of(module)
        if state is None or not torch_shims.is_idle(state):
            return
        where = naming.describe(module)
        self._bypassed.add(module)
        if not _has_parameters(state):
            consequence = (
                "It has no parameters of its own, so nothing fails here, but its units below become roots of "
                "their own: the model's first forward through the root will fail with 'FSDP state has "
                "already been lazily initialized'."
            )
        elif any(torch_shims.group_is_unsharded(g) for g in torch_shims.param_groups(state)):
            consequence = (
                "Its parameters happen to be unsharded right now, so it runs, but its gradients "
                "will not be reduce-scattered and its sharded parameters will not be updated: "
                "the ranks silently train different models."
            )
        else:
            consequence = (
                "Its parameters are still sharded DTensors: an operation mixing them with plain tensors "
                "fails with torch's 'got mixed torch.Tensor and DTensor'."
            )
        self.report(
            f"forward() of {where} was called directly, bypassing FSDP's pre/post-forward hooks. "
            + consequence,
            "call the module itself (`module(x)`, not `module.forward(x)`); for another entry "
            "point, `register_fsdp_forward_method(module, 'method_name')` after fully_shard.",
            key=naming.module_path(module),
        )

    def on_unit_module_called(self, module: nn.Module, group: Any) -> None:
        owner = torch_shims.group_modules(group)[0]
        if owner not in self._bypassed:  # its forward ran without hooks: reported there (warn mode goes on)
            self.report(*self._outside(module, owner), key=f"outside:{naming.module_path(module)}")

    def on_mixed_tensors(self, exc: BaseException) -> None:
        found = _outside_module(exc)
        if found is not None:
            self.report(*self._outside(*found), key=f"outside:{naming.module_path(found[0])}")

    def explain_error(self, exc: BaseException) -> Optional[str]:
        """For the uncaught error of a submodule called outside its unit with no unit on the stack."""
        found = _outside_module(exc)
        if found is None:
            return None
        detail, fix = self._outside(*found)
        return f"FSDPContractError (explaining the error below): {format_message(self.code, self.name, current_rank(), detail, fix)}"

    def _outside(self, module: nn.Module, owner: nn.Module) -> Tuple[str, str]:
        path = naming.module_path(module)
        expression = "model" + "".join(f"[{part}]" if part.isdigit() else f".{part}" for part in path.split("."))
        return (
            f"`{path}` ({naming.class_name(module)}) belongs to the unit {naming.describe(owner)} and was called "
            "outside that unit's forward, while the unit's parameters are sharded: it computes with DTensor "
            "shards, and torch fails with 'got mixed torch.Tensor and DTensor'.",
            "call it inside the forward of the unit that owns it (for the root's own modules, inside "
            "`model.forward`, or after it while the root keeps its parameters all-gathered), or make it a "
            f"unit of its own: `fully_shard({expression})` before `fully_shard(model)`.",
        )

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        """A unit below this root that already ran forward became a root itself: torch will refuse this one."""
        self._first_forward[root] = location.here()
        for state in states:
            module = torch_shims.state_modules(state)[0]
            if module is root or torch_shims.before_lazy_init(state):
                continue
            where = self._first_forward.get(module)
            at = f" (at {where})" if where else ""
            self.report(
                f"{naming.describe(module)} ran its forward{at} before the first forward of the root "
                f"({naming.class_name(root)}), so FSDP made it a root of its own; the root's first forward now "
                "fails with torch's 'FSDP state has already been lazily initialized'.",
                "run the model's first forward through the root (`model(x)`) before calling a block on its own; "
                "a block meant to run alone must not be inside another fully_shard unit.",
                key=f"before-root:{naming.module_path(module, root)}",
                rank_local=False,
            )
            return
