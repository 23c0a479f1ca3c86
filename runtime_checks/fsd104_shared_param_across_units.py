"""Runtime check FSD104: a tied or shared parameter ends up in two different ``fully_shard`` units."""

from typing import Sequence

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


def _where(param: nn.Parameter, unit: nn.Module) -> str:
    """``out.weight``: where the unit being built registers ``param``."""
    for name, candidate in unit.named_parameters(remove_duplicate=False):
        if candidate is param:
            return name
    return naming.class_name(unit)


def _path(module: nn.Module, unit: nn.Module) -> str:
    """``model.emb`` when the earlier unit sits inside the one being built, else its class name."""
    path = naming.module_path(module, root=unit)
    return naming.class_name(module) if path.startswith("<root") else f"model.{path}"


class SharedParamAcrossUnits(RuntimeCheck):
    """A tied or shared parameter (embedding and output weight) ends up in two different units.

    ## What it does
    ``fully_shard`` replaces a unit's parameters with DTensors, but only on the modules of
    that unit: a module outside it that shares the parameter keeps the original tensor. When a
    later ``fully_shard`` call is about to manage such an original, the parameter is being
    split across two units; the guard reports it at that call.

    ## Why it matters
    Each unit shards, all-gathers and updates its own copy: the tie is broken. Before torch
    2.13 this was silent (with uneven sharding the padded rows of the last rank were never
    updated); torch 2.13 raises ``ValueError: Parameter ... is shared with a parameter already
    managed by another FSDP group`` at the first forward.

    ## When
    At the second ``fully_shard`` call, before torch builds the unit.
    """

    code = "FSD104"
    name = "shared-param-across-units"

    def on_shard(self, params: Sequence[nn.Parameter], modules: Sequence[nn.Module]) -> None:
        for param in params:
            earlier = self.guard.replaced.get(param)
            if earlier is None:
                continue
            module, name = torch_shims.param_owner(earlier)
            first = f"{_path(module, modules[0])}.{name}"
            here = _where(param, modules[0])
            owner = here.rpartition(".")[0]
            self.report(
                f"`{here}` is the same parameter as `{first}` (tied or shared), which an earlier fully_shard "
                "call already placed in its own unit: each unit would shard and update its own copy "
                "(torch 2.13 rejects it at the first forward; earlier versions silently broke the tie).",
                "keep the modules that share it in one unit: do not shard them separately and let their "
                f"common parent's `fully_shard` take both, or group them: `fully_shard([{_path(module, modules[0])}, "
                f"model.{owner or '<module>'}])`.",
                key=first,
                rank_local=False,
            )
            return
