"""Runtime check FSD301: ``torch.save`` of an object that contains DTensors."""

from typing import Any, List, Optional, Tuple

import torch.nn as nn

from fsdp_lint.runtime import torch_shims
from fsdp_lint.runtime.check import RuntimeCheck

_BUDGET = 200_000  # objects visited at most: a save is never made slow by the walk


def find_dtensor(obj: Any) -> Optional[str]:
    """Path of the first DTensor inside ``obj`` (``obj['model']['fc.weight']``), or None."""
    stack: List[Tuple[Any, str]] = [(obj, "obj")]
    seen = set()
    while stack and len(seen) < _BUDGET:
        value, path = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if torch_shims.is_dtensor(value):
            return path
        if isinstance(value, dict):
            items = [(v, f"{path}[{k!r}]") for k, v in value.items()]
        elif isinstance(value, (list, tuple, set, frozenset)):
            items = [(v, f"{path}[{i}]") for i, v in enumerate(value)]
        elif isinstance(value, nn.Module):
            items = [(t, f"{path}.{name}") for name, t in value.state_dict(keep_vars=True).items()]
        else:
            continue
        stack.extend(reversed(items))
    return None


class SaveShardedState(RuntimeCheck):
    """``torch.save`` of a state dict (or module, optimizer state) that holds DTensors.

    ## What it does
    Walks the object handed to ``torch.save`` (dicts, lists, tuples, modules; bounded) before
    anything is written, and stops at the first DTensor.

    ## Why it matters
    Each rank would write only its own shard plus a pickled device mesh; the file loads
    without error but ``load_state_dict`` into a plain model fails, or, with the common
    ``if rank == 0: torch.save(...)``, the checkpoint silently holds half a model.

    ## When
    At the ``torch.save`` call; in raise mode no byte is written. Often only rank 0 saves: the
    finding goes through the c10d store so the other ranks stop with the same error instead
    of waiting in FSDP's next all-gather.
    """

    code = "FSD301"
    name = "save-sharded-state"

    def on_save(self, obj: Any) -> None:
        path = find_dtensor(obj)
        if path is None:
            return
        stopped = " The guard stopped it before anything was written." if self.guard.config.mode == "raise" else ""
        self.report(
            f"torch.save() was given DTensors (first at `{path}`): each rank would write only its own "
            f"shard, and loading it into a plain model fails or yields half a model.{stopped}",
            "save a sharded checkpoint with DCP (`dcp.save({'model': get_model_state_dict(model)}, "
            "checkpoint_id=...)`), or gather a full state dict on every rank with "
            "`get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))` "
            "and torch.save it on rank 0.",
            key=path,
        )
