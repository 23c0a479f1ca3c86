"""Runtime check FSD102: ``fully_shard`` on a module whose ancestor is already sharded."""

from typing import Sequence

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck


class ChildShardedAfterParent(RuntimeCheck):
    """``fully_shard(child)`` ran after ``fully_shard(parent)`` already took the child's parameters.

    ## What it does
    Before ``fully_shard`` builds a unit, looks at the parameters it is about to manage: one
    that is already the sharded DTensor of another unit means an ancestor was sharded first.
    (DTensors that no unit owns, e.g. tensor-parallel ones, are fine.)

    ## Why it matters
    ``fully_shard`` must run bottom-up. Top-down, torch mistakes the parent's DTensors for
    tensor-parallel ones and fails with an unrelated mesh error ("Cannot concatenate
    overlapping meshes", or "value was None"), leaving the child half-initialised.

    ## When
    At the offending ``fully_shard`` call, before torch's own error.
    """

    code = "FSD102"
    name = "child-sharded-after-parent"

    def on_shard(self, params: Sequence[nn.Parameter], modules: Sequence[nn.Module]) -> None:
        if not any(torch_shims.is_dtensor(p) for p in params):
            return
        owners = {}
        for state in torch_shims.iter_states():
            for fsdp_param in torch_shims.fsdp_params(state):
                owners[id(torch_shims.sharded_param(fsdp_param))] = state
        for param in params:
            state = owners.get(id(param))
            if state is None:
                continue
            parent = torch_shims.state_modules(state)[0]
            child = naming.module_path(modules[0], root=parent)
            self.report(
                f"fully_shard(`{child}`) was called after fully_shard({naming.class_name(parent)}) "
                "already sharded this submodule's parameters into the parent's unit; torch would "
                "fail with a cryptic mesh error.",
                "apply fully_shard bottom-up: every block first (`for block in model.layers: "
                "fully_shard(block)`), the root last (`fully_shard(model)`).",
                key=child,
                rank_local=False,
            )
            return
