"""Runtime check FSD203: FSDP1 APIs used on an FSDP2 (``fully_shard``) module."""

from typing import Any, Mapping, Optional, Sequence, Tuple

import torch.nn as nn

from fsdp_lint.fsdp1_api import INSTANCE_ATTRIBUTES, STATIC_METHODS
from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck



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
        if name not in INSTANCE_ATTRIBUTES:
            return None
        return (
            f"`{name}` is FSDP1 API; {naming.describe(module)} is an FSDP2 (fully_shard) module, "
            f"which has no `{name}`.",
            INSTANCE_ATTRIBUTES[name] + ".",
        )

    def on_fsdp1_call(self, name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
        static = STATIC_METHODS[name]
        module = args[static.module_position] if len(args) > static.module_position else kwargs.get(static.module_keyword)
        if not isinstance(module, nn.Module):
            return
        fsdp1 = torch_shims.get("FullyShardedDataParallel")
        fsdp2 = torch_shims.get("FSDPModule")
        modules = list(module.modules())
        if any(isinstance(m, fsdp1) for m in modules) or not any(isinstance(m, fsdp2) for m in modules):
            return
        consequence = (
            "it finds no FSDP1 unit and silently does nothing (parameters stay sharded)"
            if static.silent
            else "it fails on FSDP2 modules with an unrelated error"
        )
        self.report(
            f"`FullyShardedDataParallel.{name}` was called on {naming.describe(module)}, which is sharded "
            f"with FSDP2's fully_shard: {consequence}.",
            static.replacement + ".",
            key=static.replacement,  # state_dict_type calls set_state_dict_type: one report
        )
