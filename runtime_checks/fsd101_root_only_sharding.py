"""Runtime check FSD101: the root unit holds the parameters of repeated blocks."""

from collections import Counter
from typing import Any, Sequence

import torch.nn as nn

from fsdp_lint.runtime import naming, torch_shims
from fsdp_lint.runtime.check import RuntimeCheck

_CONTAINERS = (nn.ModuleList, nn.Sequential, nn.ModuleDict)


def _is_block(module: nn.Module) -> bool:
    return any(True for _ in module.children()) and any(True for _ in module.parameters())


class RootOnlySharding(RuntimeCheck):
    """Only the root was sharded: one unit all-gathers the parameters of every repeated block.

    ## What it does
    At the root's first forward, looks for a ``ModuleList``/``Sequential``/``ModuleDict`` with
    at least two blocks of the same class, where no block is a unit of its own and the root unit
    manages their parameters. A block is a child that owns parameters and holds modules of its
    own (a transformer layer, not an ``nn.Linear``): the definition the static rule reads from
    the source (``fsdp_lint.analysis.block_layout``).

    ## Why it matters
    It is numerically correct but the whole model is all-gathered at once: peak memory of an
    unsharded model and no overlap of communication with compute. A performance contract, so
    it warns even in raise mode.

    ## When
    Once, at the first forward of each root.
    """

    code = "FSD101"
    name = "root-only-sharding"
    severity = "warning"

    def on_root_init(self, root: nn.Module, states: Sequence[Any]) -> None:
        root_state = torch_shims.state_of(root)
        managed = {id(torch_shims.param_owner(fp)[0]) for fp in torch_shims.fsdp_params(root_state)}
        for path, container in root.named_modules():
            if not isinstance(container, _CONTAINERS):
                continue
            blocks = [child for child in container.children() if _is_block(child)]
            repeated = Counter(type(child) for child in blocks).most_common(1)
            if not repeated or repeated[0][1] < 2:
                continue
            if any(torch_shims.state_of(child) is not None for child in blocks):
                continue
            if not all(any(id(m) in managed for m in child.modules()) for child in blocks):
                continue
            where = f"model.{path}" if path else "model"
            self.report(
                f"the root unit ({naming.class_name(root)}) holds the parameters of {len(blocks)} "
                f"blocks in `{path or '<root>'}` ({repeated[0][0].__name__}), none of them sharded on "
                "its own: FSDP all-gathers the whole model at once (peak memory of an unsharded "
                "model, no overlap of communication with compute).",
                f"shard each block before the root: `for block in {where}: fully_shard(block)`, "
                "then `fully_shard(model)`.",
                key=path,
                rank_local=False,
            )
            return
