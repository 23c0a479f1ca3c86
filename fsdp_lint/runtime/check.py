"""The base class of the runtime checks in ``runtime_checks/`` and the events they listen to.

The guard patches a handful of torch places once (``patches.py``) and turns each call into an
event; a check overrides the ``on_*`` methods of the events it needs and nothing else, so the
guard installs only the patch points that some enabled check listens to.
"""

from typing import Any, List, Mapping, Optional, Sequence, Tuple

import torch.nn as nn

EVENTS: Tuple[str, ...] = (
    "on_shard",  # (params, modules) before fully_shard turns a unit's parameters into DTensors
    "on_sharded",  # (group, params) after: the unit's FSDPParamGroup exists
    "on_root_init",  # (root, states) first forward of a root, before FSDP's lazy init/all-gather
    "on_ranks_agreed",  # (records,) every rank's first-forward record, the same list on every rank
    "on_iteration_start",  # (root, state) every forward of a root: keep it to a few attribute reads
    "on_unit_reached",  # (state,) a unit's forward starts, in the first iteration after its root's first forward
    "on_ranks_diverged",  # (what, meeting) a rank waits elsewhere at a point every rank must reach
    "on_collective",  # (call, ranks) a collective-backed call (full_tensor, DCP, full state dicts, clipping)
    "on_unit_module_called",  # (module, group) a child of a unit runs while the unit is sharded
    "on_mixed_tensors",  # (exc,) a unit's call failed with torch's "got mixed torch.Tensor and DTensor"
    "explain_error",  # (exc,) -> message or None: an uncaught error the guard can explain
    "on_forward",  # (module,) forward body of an FSDP module: per module per step
    "on_optimizer_init",  # (optimizer,) an optimizer was constructed
    "on_step",  # (optimizer,) before every optimizer.step(): keep it to a few attribute reads
    "on_sync_changed",  # (module, requires_sync, recurse) after module.set_requires_gradient_sync(...)
    "on_load_state_dict",  # (module, state_dict) module.load_state_dict(state_dict) is about to copy
    "on_save",  # (obj, f) torch.save(obj, f) is about to write
    "on_materialized",  # (module,) module.to_empty(...) allocated storage for meta tensors
    "on_params_changed",  # (module,) an FSDP-managed module registered or converted parameters
    "on_fsdp1_call",  # (name, args, kwargs) an FSDP1 static method (fsdp1_api.STATIC_METHODS) was called
    "attribute_hint",  # (module, name) an attribute lookup failed on an FSDP2 module
)


class RuntimeCheck:
    """One contract enforced at run time; subclasses set ``code``, ``name`` and maybe ``severity``."""

    code: str = ""
    name: str = ""
    severity: str = "error"

    def __init__(self, guard: Any) -> None:
        self.guard = guard

    def report(
        self, detail: str, fix: str, key: Optional[str] = None, rank_local: bool = True, severity: Optional[str] = None
    ) -> None:
        """Raise or warn (see ``Reporter.report``); ``rank_local=False`` when all ranks see it.

        ``severity="warning"`` downgrades one finding of an error-severity check (a choice that
        is usually wrong but may be deliberate) to a warning in every mode.
        """
        self.guard.reporter.report(self, detail, fix, key=key, rank_local=rank_local, severity=severity)

    def listens_to(self) -> List[str]:
        return [event for event in EVENTS if getattr(type(self), event) is not getattr(RuntimeCheck, event)]

    def on_shard(self, params: Sequence[nn.Parameter], modules: Sequence[nn.Module]) -> None:
        pass

    def on_sharded(self, group: Any, params: Sequence[nn.Parameter]) -> None:
        pass

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        pass

    def on_ranks_agreed(self, records: Sequence[dict]) -> None:
        pass

    def on_iteration_start(self, root: nn.Module, state: Any) -> None:
        pass

    def on_unit_reached(self, state: Any) -> None:
        pass

    def on_ranks_diverged(self, what: str, meeting: Any) -> None:
        pass

    def on_collective(self, call: str, ranks: Sequence[int]) -> None:
        pass

    def on_unit_module_called(self, module: nn.Module, group: Any) -> None:
        pass

    def on_mixed_tensors(self, exc: BaseException) -> None:
        pass

    def explain_error(self, exc: BaseException) -> Optional[str]:
        return None

    def on_forward(self, module: nn.Module) -> None:
        pass

    def on_optimizer_init(self, optimizer: Any) -> None:
        pass

    def on_step(self, optimizer: Any) -> None:
        pass

    def on_sync_changed(self, module: nn.Module, requires_sync: bool, recurse: bool) -> None:
        pass

    def on_load_state_dict(self, module: nn.Module, state_dict: Any) -> None:
        pass

    def on_save(self, obj: Any, destination: Any) -> None:
        pass

    def on_materialized(self, module: nn.Module) -> None:
        pass

    def on_params_changed(self, module: nn.Module) -> None:
        pass

    def on_fsdp1_call(self, name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
        pass

    def attribute_hint(self, module: nn.Module, name: str) -> Optional[str]:
        return None
