"""What a `load_state_dict` call loads, and into what.

torch's `nn.Module.load_state_dict(sd)` copies `sd`'s tensors into the module's. Into a sharded
module (DTensor parameters) only tensors of its layout go: its own `state_dict()`, a
`get_model_state_dict` without `full_state_dict`, a file of this rank's shards. Full plain tensors
(a `torch.load` of a checkpoint saved before sharding, `get_model_state_dict(...,
options=StateDictOptions(full_state_dict=True))`) raise "Error(s) in loading state_dict", with
`strict=False` too, and with `assign=True` leave parameters FSDP no longer manages (torch 2.13 CPU,
2 gloo ranks). What the state dict holds is a fact of its value, wherever it was made (a
callee's return, an entry of a loaded checkpoint), not of the text around the load; which
method runs is a fact of the receiver's class (a tree class's own `load_state_dict` is walked
like any call, its loads asked where they are).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from fsdp_lint.analysis.values import Container, FileState, Gathered, Obj, StateDict, Value, options_of

_MAX_DEPTH = 4


class Loaded(enum.Enum):
    """What a state dict handed to `load_state_dict` holds."""

    FULL = "full"  # whole plain tensors (`values.FileState`, `values.Gathered`)
    SHARDED = "sharded"  # a module's own state dict, of a module that may hold shards here
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class StateDictLoad:
    """One `load_state_dict` of torch into `into`, a module that may hold shards where it is
    called, of a state dict that holds `state`; `source`, where that is full, says where it came
    from as a message names it."""

    into: Obj
    state: Loaded
    source: Optional[str] = None


def full_source(value: Value, depth: int = 0) -> Optional[str]:
    """Where a value that holds full plain tensors on every run that gives it came from (a
    plain loader, a gathering getter), also through a dict made of such entries (`{k[7:]: v for
    k, v in sd.items()}`); None where it need not."""
    if isinstance(value, FileState):
        return f"`{value.loader}`"
    if isinstance(value, Gathered):
        return "a full state dict (`full_state_dict=True`)"
    if isinstance(value, Container) and value.items and depth < _MAX_DEPTH:
        sources = [full_source(option, depth + 1) for item in value.items for option in options_of(item)]
        return sources[0] if None not in sources else None
    return None


def module_state_owner(value: Value) -> Optional[Obj]:
    """The module whose own state dict (in its layout) a value is, if it is one."""
    return value.owner if isinstance(value, StateDict) and isinstance(value.owner, Obj) else None

