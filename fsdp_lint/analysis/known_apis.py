"""What the interpreter knows about torch and framework APIs, by qualified name or method name."""

from __future__ import annotations

from typing import Optional

OPTIMIZER_PACKAGES = ("torch.optim.", "bitsandbytes.optim.", "apex.optimizers.", "torchao.optim.", "transformers.optimization.")
NOT_OPTIMIZERS = ("torch.optim.lr_scheduler", "torch.optim.swa_utils", "torch.optim.Optimizer", "torch.optim.optimizer")

STATE_DICT_GETTERS = frozenset(
    {
        "get_model_state_dict",
        "get_optimizer_state_dict",
        "get_state_dict",
    }
)
STATE_DICT_MODULE = "torch.distributed.checkpoint.state_dict"

# Module methods that return the module itself (the same object keeps its sharding).
SELF_RETURNING_METHODS = frozenset(
    {"to", "cuda", "cpu", "train", "eval", "requires_grad_", "to_empty", "float", "half", "bfloat16",
     "double", "share_memory", "xpu", "npu", "compile", "apply"}
)
# Module methods that cannot shard anything, so passing through them keeps "nothing sharded yet".
INERT_METHODS = SELF_RETURNING_METHODS | frozenset(
    {"parameters", "named_parameters", "buffers", "named_buffers", "state_dict", "modules",
     "named_modules", "children", "named_children", "zero_grad", "register_buffer", "forward",
     "load_state_dict", "get_submodule", "items", "values", "keys", "__len__", "init_weights",
     "reset_parameters", "register_forward_hook", "register_forward_pre_hook"}
)
IDENTITY_FUNCTIONS = frozenset({"torch.compile"})
LEAF_MODULE_PREFIX = "torch.nn."
BLOCK_CONTAINERS = frozenset({"torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.Sequential"})
PRETRAINED_FACTORIES = frozenset({"from_pretrained", "from_config"})


def optimizer_class(qname: Optional[str]) -> Optional[str]:
    """The class name if `qname` names an optimizer constructor, else None."""
    if not qname or not qname.startswith(OPTIMIZER_PACKAGES) or qname.startswith(NOT_OPTIMIZERS):
        return None
    last = qname.rsplit(".", 1)[-1]
    return last if last[:1].isupper() else None


def state_dict_getter(qname: Optional[str]) -> Optional[str]:
    if not qname:
        return None
    module, _, name = qname.rpartition(".")
    if name in STATE_DICT_GETTERS and module.startswith("torch.distributed.checkpoint"):
        return name
    return None
