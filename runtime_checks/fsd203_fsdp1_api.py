"""Runtime check FSD203: FSDP1 APIs used on an FSDP2 (``fully_shard``) module."""

from typing import Any, Optional, Sequence, Tuple

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck

_STATE_DICT_FIX = (
    "use `torch.distributed.checkpoint.state_dict.get_model_state_dict(model, options=StateDictOptions("
    "full_state_dict=True, cpu_offload=True))` (or `set_model_state_dict`), or DCP for sharded checkpoints."
)

# FSDP1 name -> what replaces it with fully_shard
REPLACEMENTS = {
    "no_sync": "for gradient accumulation call `model.set_requires_gradient_sync(False)` before the "
    "micro-batches that must not sync and `model.set_requires_gradient_sync(True)` before the last one.",
    "summon_full_params": "use `model.unshard()` ... `model.reshard()` around the code that needs full "
    "parameters, or `param.full_tensor()` for one parameter.",
    "clip_grad_norm_": "use `torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)`; it handles "
    "DTensor gradients.",
    "state_dict_type": _STATE_DICT_FIX,
    "set_state_dict_type": _STATE_DICT_FIX,
    "optim_state_dict": "use `torch.distributed.checkpoint.state_dict.get_optimizer_state_dict(model, optimizer)`.",
    "full_optim_state_dict": "use `get_optimizer_state_dict(model, optimizer, options=StateDictOptions("
    "full_state_dict=True))`.",
    "module": "fully_shard shards the module in place; use the module itself instead of `.module`.",
}
_ATTRIBUTES = ("no_sync", "summon_full_params", "clip_grad_norm_", "module")


class Fsdp1Api(RuntimeCheck):
    """FSDP1 (``FullyShardedDataParallel``) API used on a module sharded with FSDP2's ``fully_shard``.

    ## What it does
    Explains the ``AttributeError`` of ``model.no_sync()``, ``model.clip_grad_norm_()``,
    ``model.summon_full_params`` and ``model.module`` on an FSDP2 module with the FSDP2 call
    that replaces it (the error stays an ``AttributeError``: ``hasattr(model, "no_sync")`` is
    still ``False`` for libraries that feature-detect it). Also catches FSDP1's static methods
    (``FSDP.summon_full_params``, ``FSDP.state_dict_type``, ``FSDP.clip_grad_norm_``,
    ``FSDP.optim_state_dict``, ...) called on a tree that holds FSDP2 units and no FSDP1 one.

    ## Why it matters
    ``FSDP.summon_full_params(model)`` is a silent no-op on FSDP2 (parameters stay sharded);
    the others fail with unrelated errors (``KeyError: None``, ``no attribute '_is_root'``).

    ## When
    At the call.
    """

    code = "FSD203"
    name = "fsdp1-api"

    def attribute_hint(self, module: nn.Module, name: str) -> Optional[Tuple[str, str]]:
        if name not in _ATTRIBUTES:
            return None
        return (
            f"`{name}` is FSDP1 API; {naming.describe(module)} is an FSDP2 (fully_shard) module, "
            f"which has no `{name}`.",
            REPLACEMENTS[name],
        )

    def on_fsdp1_call(self, name: str, args: Sequence[Any]) -> None:
        module = args[0] if args and isinstance(args[0], nn.Module) else None
        if module is None:
            return
        fsdp1 = torch_shims.get("FullyShardedDataParallel")
        fsdp2 = torch_shims.get("FSDPModule")
        modules = list(module.modules())
        if any(isinstance(m, fsdp1) for m in modules) or not any(isinstance(m, fsdp2) for m in modules):
            return
        consequence = (
            "it finds no FSDP1 unit and silently does nothing (parameters stay sharded)"
            if name == "summon_full_params"
            else "it fails on FSDP2 modules with an unrelated error"
        )
        self.report(
            f"`FullyShardedDataParallel.{name}` was called on {naming.describe(module)}, which is sharded "
            f"with FSDP2's fully_shard: {consequence}.",
            REPLACEMENTS[name],
            key=REPLACEMENTS[name],  # state_dict_type calls set_state_dict_type: one report
        )
