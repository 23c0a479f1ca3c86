"""What the interpreter knows about torch and framework APIs, by qualified name or method name."""

from __future__ import annotations

from typing import Callable, Optional

from astroid import nodes

OPTIMIZER_PACKAGES = ("torch.optim.", "bitsandbytes.optim.", "apex.optimizers.", "torchao.optim.", "transformers.optimization.")
NOT_OPTIMIZERS = ("torch.optim.lr_scheduler", "torch.optim.swa_utils", "torch.optim.Optimizer", "torch.optim.optimizer")

STATE_DICT_GETTERS = frozenset(
    {
        "get_model_state_dict",
        "get_optimizer_state_dict",
        "get_state_dict",
    }
)

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
# torch.nn leaf modules that own parameters (containers and activations own none).
PARAMETERISED_LEAVES = frozenset(
    {"Linear", "Embedding", "EmbeddingBag", "LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d",
     "BatchNorm3d", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
     "Bilinear", "Parameter", "MultiheadAttention", "LSTM", "GRU", "RNN", "PReLU"}
)
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


# Context managers under which modules are built on the meta device (no storage).
META_CONTEXTS = frozenset({"accelerate.init_empty_weights", "accelerate.big_modeling.init_empty_weights"})


def is_meta_device_context(expr: object, qualify: Callable[[nodes.NodeNG], Optional[str]]) -> bool:
    """`torch.device("meta")` or accelerate's `init_empty_weights()` used as a `with` item."""
    if not isinstance(expr, nodes.Call):
        return False
    qname = qualify(expr.func)
    if qname in META_CONTEXTS:
        return True
    if qname != "torch.device":
        return False
    arg = expr.args[0] if expr.args else next((k.value for k in expr.keywords or [] if k.arg == "type"), None)
    return isinstance(arg, nodes.Const) and arg.value == "meta"


DCP_COLLECTIVES = frozenset(
    {"save", "load", "async_save", "save_state_dict", "load_state_dict"}
)
DCP_MODULE = "torch.distributed.checkpoint"
STATE_DICT_SETTERS = frozenset({"set_model_state_dict", "set_optimizer_state_dict", "set_state_dict"})


def dcp_function(qname: Optional[str]) -> Optional[str]:
    """`save`/`load`/... when `qname` is one of DCP's collective entry points."""
    if not qname:
        return None
    module, _, name = qname.rpartition(".")
    if name in DCP_COLLECTIVES and (module == DCP_MODULE or module.startswith(DCP_MODULE + ".state_dict_")):
        return name
    return None


def state_dict_function(qname: Optional[str]) -> Optional[str]:
    """`get_model_state_dict`, `set_state_dict`, ... from `torch.distributed.checkpoint.state_dict`."""
    if not qname:
        return None
    module, _, name = qname.rpartition(".")
    if (name in STATE_DICT_GETTERS or name in STATE_DICT_SETTERS) and module.startswith(DCP_MODULE):
        return name
    return None


def full_state_dict_option(call: nodes.Call) -> Optional[bool]:
    """Whether the `options=StateDictOptions(...)` of a state-dict call asks for a full state dict:
    True or False when visible (literally or through one local assignment), None when unknown."""
    options = next((k.value for k in call.keywords or [] if k.arg == "options"), None)
    if options is None:  # `options` is keyword-only in every state-dict function
        return None if any(k.arg is None for k in call.keywords or []) else False
    if isinstance(options, nodes.Name):
        from fsdp_lint.analysis.names import binding_of

        binding = binding_of(options, options.name)
        if not isinstance(binding, nodes.AssignName) or not isinstance(binding.parent, nodes.Assign):
            return None
        options = binding.parent.value
    if not isinstance(options, nodes.Call) or not getattr(options.func, "attrname", getattr(options.func, "name", "")).endswith("StateDictOptions"):
        return None
    full = [k.value for k in options.keywords or [] if k.arg in ("full_state_dict", "broadcast_from_rank0")]
    if any(isinstance(value, nodes.Const) and value.value is True for value in full):
        return True
    if any(not isinstance(value, nodes.Const) for value in full) or any(k.arg is None for k in options.keywords or []):
        return None
    return False


# Calls that pick this process's accelerator (or hand the job to a launcher/framework that does).
DEVICE_SELECTORS = frozenset(
    {"set_device", "set_device_index", "Accelerator", "PartialState", "AcceleratorState", "Fabric", "Trainer",
     }
)
# Calls that create the CUDA context on the current device (GPU 0 unless one was selected).
CUDA_INITIALISERS = frozenset({"current_device", "synchronize", "get_device_properties", "mem_get_info", "cuda"})


def selects_device(module: nodes.Module, count_mesh: bool = True) -> bool:
    """Whether a module picks the process's GPU somewhere: `torch.cuda.set_device(...)`,
    `device_id=` (of `init_process_group`), `with torch.cuda.device(...)`, `CUDA_VISIBLE_DEVICES`,
    `init_device_mesh(...)` (which sets it from LOCAL_RANK when nothing touched CUDA before), or a
    framework object that does it (accelerate, Lightning)."""
    for node in module.nodes_of_class((nodes.Call, nodes.Keyword, nodes.Const)):
        if isinstance(node, nodes.Keyword) and node.arg == "device_id":
            return True
        if isinstance(node, nodes.Const) and node.value == "CUDA_VISIBLE_DEVICES":
            return True
        if isinstance(node, nodes.Call):
            func = node.func
            name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)
            if name in DEVICE_SELECTORS or (count_mesh and name == "init_device_mesh"):
                return True
            if name == "device" and isinstance(node.parent, nodes.With) and "cuda" in func.as_string():
                return True
    return False
