"""Runtime check FSD103: blocks are sharded but the model around them is not, and it owns parameters."""

import sys
from typing import Any, List, Optional, Sequence

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck

_MAX_FRAMES = 64


def _enclosing_model(unit: nn.Module) -> Optional[nn.Module]:
    """The outermost module whose Python frame is calling ``unit`` and that contains it.

    FSDP treats a unit as a root when no sharded ancestor runs first; the model around it is
    then only visible as the ``self`` of a calling frame. Walked once per root, at its first
    forward.
    """
    found = None
    frame = sys._getframe(1)
    for _ in range(_MAX_FRAMES):
        if frame is None:
            break
        caller = frame.f_locals.get("self")
        if isinstance(caller, nn.Module) and caller is not unit and any(m is unit for m in caller.modules()):
            found = caller
        frame = frame.f_back
    return found


def _replicated_elsewhere(model: nn.Module) -> bool:
    """DDP or another composable API (``replicate``) reduces the model's own gradients."""
    mapping = torch_shims.get("module_state_mapping")
    return type(model).__name__ == "DistributedDataParallel" or (mapping is not None and model in mapping)


class UnshardedRoot(RuntimeCheck):
    """The blocks are sharded but the root model never is, while it owns trainable parameters.

    ## What it does
    At the first forward of an FSDP unit that runs as its own root, looks at the module whose
    ``forward`` called it: if that enclosing model was never passed to ``fully_shard`` and holds
    trainable parameters outside every unit (embeddings, norms, the output head), they are
    reported. A model whose own parameters are all inside units, and frozen parameters, are fine.

    ## Why it matters
    Parameters outside every unit are plain tensors: FSDP never reduces their gradients, so
    each rank's optimizer updates them with its own local gradient and the replicas silently
    diverge (each block also becomes its own root: no prefetching across blocks).

    ## When
    Once, at the first forward of the first block, before any all-gather.
    """

    code = "FSD103"
    name = "unsharded-root"

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        model = _enclosing_model(root)
        if model is None or _replicated_elsewhere(model):
            return
        own: List[str] = []
        for path, module in model.named_modules():
            if module.__dict__.get("_is_fsdp_managed_module"):
                continue
            own += [f"{path}.{name}" if path else name for name, p in module.named_parameters(recurse=False)
                    if p.requires_grad]
        if not own:
            return
        cls = naming.class_name(model)
        self.report(
            f"the units inside {cls} are sharded but {cls} itself is not, and it owns {len(own)} trainable "
            f"parameters outside every unit (e.g. `{'`, `'.join(own[:3])}`): their gradients are never "
            "reduced across ranks, so each rank trains its own copy and the replicas silently diverge.",
            f"shard the root last, after its blocks: `fully_shard(model)` (the {cls} instance); it takes "
            "every parameter not already in a unit.",
            key=f"{cls}:{own[0]}",
            rank_local=False,
        )
