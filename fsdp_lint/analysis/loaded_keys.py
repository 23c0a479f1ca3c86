"""Which modules' parameters `module.load_state_dict(sd, assign=True)` replaces.

torch 2.13 (`nn.Module._load_from_state_dict`): with `assign=True` each parameter whose key is in
`sd` is set to the loaded tensor (a new `Parameter` object; `requires_grad` taken from the old
one), and a parameter whose key is absent keeps its object. With `strict=True`, the default, an
absent key raises, so a load that returns replaced every parameter; with `strict=False` it
replaced those whose keys `sd` holds and no other (checked on plain and `fully_shard`ed modules,
2 gloo ranks). Where `sd`'s keys are named, that is which; where they are read from a file, the
load is taken to replace every parameter: a resume from the tree's own full checkpoint does
(LinB203/FSDP-Training), and what would tell a base checkpoint under LoRA adapters apart (which
parameters train) is not known here (`fp-partial-assign-load-of-frozen-weights`).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from fsdp_lint.analysis.values import Constant, Container, Obj, Value, options_of


def replaced_by_load(receiver: Obj, args: List[Value], keywords: Dict[Optional[str], Value]) -> Tuple[Obj, ...]:
    """The modules under `receiver` each of whose parameters the load replaces: those its state
    dict's named keys reach (`"head.weight"`: `receiver.head`) where `strict` is False on every
    run, else `receiver` itself."""
    strict = keywords.get("strict", args[1] if len(args) > 1 else None)
    if None in keywords and "strict" not in keywords or not _false(strict):
        return (receiver,)
    loaded = keywords.get("state_dict", args[0] if args else None)
    options = options_of(loaded) if loaded is not None else ()
    if len(options) != 1 or not isinstance(options[0], Container) or not options[0].named:
        return (receiver,)
    owners = [_owner(receiver, key) for key in options[0].keys or ()]
    return (receiver,) if None in owners else tuple(dict.fromkeys(owners))  # type: ignore[arg-type]


def _false(strict: Optional[Value]) -> bool:
    options = options_of(strict) if strict is not None else ()
    return bool(options) and all(isinstance(option, Constant) and option.value is False for option in options)


def _owner(receiver: Obj, key: object) -> Optional[Obj]:
    """The module that holds the parameter named `key` (`"head.weight"`: `receiver.head`), where
    its path is attribute names; None for an item of a list (`"layers.0.weight"`: some module
    of `receiver.layers`, which no path here names) or a key that is no string."""
    if not isinstance(key, str) or not key:
        return None
    owner = receiver
    for attr in key.split(".")[:-1]:
        if not attr.isidentifier():
            return None
        owner = owner.child(attr)
    return owner
