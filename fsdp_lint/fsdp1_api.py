"""FSDP1 (`FullyShardedDataParallel`) API that fails or does nothing on an FSDP2 (`fully_shard`)
module, and the FSDP2 call that replaces each: the facts of contract FSD203, read by its static
rule, its runtime check and the runtime patches that intercept the static methods.

Kept free of torch and astroid, as `contract.py` is, so that both halves read the same list. What
each entry does on a `fully_shard` model was checked on torch 2.13 (2 gloo ranks, CPU):
`summon_full_params` returns without gathering anything; the other static methods raise errors
that name no FSDP2 concept (`AttributeError: 'NoneType' object has no attribute
'optim_state_dict_config'`, `IndexError: list index out of range`, `KeyError: None`).
`FSDP.fsdp_modules(model)` and `FSDP.get_state_dict_type(model)` are left out: they answer
truthfully that the model holds no FSDP1 unit, which is how code that supports both versions
tells them apart. `FSDP.rekey_optim_state_dict` works on any model.
"""

from __future__ import annotations

from typing import Dict

_MODEL_STATE_DICT = (
    "use `get_model_state_dict` / `set_model_state_dict` with `StateDictOptions` "
    "(torch.distributed.checkpoint.state_dict), or DCP for sharded checkpoints"
)
_OPTIMIZER_STATE_DICT = (
    "use `get_optimizer_state_dict(model, optimizer)` (torch.distributed.checkpoint.state_dict), "
    "with `StateDictOptions(full_state_dict=True)` for a full one"
)
_OPTIMIZER_LOAD = (
    "use `set_optimizer_state_dict(model, optimizer, optim_state_dict)` "
    "(torch.distributed.checkpoint.state_dict), which takes full or sharded state dicts"
)
_SUMMON = "use `model.unshard()` ... `model.reshard()`, or `param.full_tensor()` for one parameter"
_CLIP = "use `torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)`: it handles DTensor gradients"

# Attributes of an FSDP1 instance that an FSDP2 module does not have, and what replaces each.
INSTANCE_ATTRIBUTES: Dict[str, str] = {
    "no_sync": "call `model.set_requires_gradient_sync(False)` for the micro-batches that must not sync, "
    "and `True` before the last one",
    "summon_full_params": _SUMMON,
    "clip_grad_norm_": _CLIP,
    "module": "fully_shard shards the module in place: use the module itself instead of `.module`",
}


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class StaticMethod:
    """`FSDP.<name>(...)`, called with the module as one of its arguments."""

    __slots__ = ("replacement", "module_position", "module_keyword", "silent")

    def __init__(self, replacement: str, module_position: int, module_keyword: str, silent: bool = False):
        self.replacement = replacement
        self.module_position = module_position  # where the module is among the positional arguments
        self.module_keyword = module_keyword  # its keyword
        self.silent = silent  # on an FSDP2 module it returns as if it had worked


STATIC_METHODS: Dict[str, StaticMethod] = {
    "summon_full_params": StaticMethod(_SUMMON, 0, "module", silent=True),
    "clip_grad_norm_": StaticMethod(_CLIP, 0, "self"),
    "state_dict_type": StaticMethod(_MODEL_STATE_DICT, 0, "module"),
    "set_state_dict_type": StaticMethod(_MODEL_STATE_DICT, 0, "module"),
    "optim_state_dict": StaticMethod(_OPTIMIZER_STATE_DICT, 0, "model"),
    "full_optim_state_dict": StaticMethod(_OPTIMIZER_STATE_DICT, 0, "model"),
    "sharded_optim_state_dict": StaticMethod(_OPTIMIZER_STATE_DICT, 0, "model"),
    "optim_state_dict_to_load": StaticMethod(_OPTIMIZER_LOAD, 0, "model"),
    "flatten_sharded_optim_state_dict": StaticMethod(_OPTIMIZER_LOAD, 1, "model"),
    "shard_full_optim_state_dict": StaticMethod(_OPTIMIZER_LOAD, 1, "model"),
    "scatter_full_optim_state_dict": StaticMethod(_OPTIMIZER_LOAD, 1, "model"),
}
