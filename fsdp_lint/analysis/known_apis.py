"""What the interpreter knows about torch and framework APIs, by qualified name or method name."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple, TypeVar

from astroid import nodes

from fsdp_lint.analysis.call_arguments import call_argument
from fsdp_lint.analysis.node_listing import nodes_within

V = TypeVar("V")

OPTIMIZER_PACKAGES = ("torch.optim.", "torch.distributed.optim.", "bitsandbytes.optim.", "apex.optimizers.", "torchao.optim.", "transformers.optimization.")
NOT_OPTIMIZERS = ("torch.optim.lr_scheduler", "torch.optim.swa_utils", "torch.optim.Optimizer", "torch.optim.optimizer")
# Classes whose objects hold numbers and a reference to an optimizer, never a module: an LR
# scheduler's state dict is `base_lrs`, `last_epoch`, `_last_lr`..., a gradient scaler's `scale`,
# `growth_factor`, `_growth_tracker`... (torch 2.13, checked on a `fully_shard`ed model on 2 gloo
# ranks: no DTensor in either, and stored on a module neither is a child).
_HOLD_NO_MODULE = (
    "torch.optim.lr_scheduler.", "torch.amp.grad_scaler.", "torch.amp.GradScaler", "torch.cuda.amp.grad_scaler.", "torch.cuda.amp.GradScaler",
    "torch.GradScaler",
)


def holds_no_module(cls: Optional[str]) -> bool:
    """Whether an object of class `cls` holds no module, wherever it is stored."""
    return bool(cls) and cls.startswith(_HOLD_NO_MODULE)  # type: ignore[union-attr]


# Modules whose members code looks up by a configured name to build an object
# (`getattr(torch.optim.lr_scheduler, cfg.name)(optimizer)`): what it finds is one of the
# module's classes, whichever name (`lookup_class`).
_CLASS_MODULES = frozenset({"torch.optim.lr_scheduler"})


def lookup_class(module: Optional[str]) -> Optional[str]:
    """The class name (`<module>.*`) that `getattr(module, name)` of a name known only at run
    time finds, where every member code builds objects from there is a class of it; else None."""
    return f"{module}.*" if module in _CLASS_MODULES else None


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
# Tensor methods whose result holds the same values as the tensor, in the same kind of tensor (a
# DTensor's stays a DTensor holding this rank's shard; `full_tensor()` would gather).
TENSOR_COPIES = frozenset(
    {"detach", "clone", "cpu", "to", "contiguous", "float", "half", "bfloat16", "double", "requires_grad_", "detach_"}
)
# Module methods that cannot shard anything, so passing through them keeps "nothing sharded yet".
INERT_METHODS = SELF_RETURNING_METHODS | frozenset(
    {"parameters", "named_parameters", "buffers", "named_buffers", "state_dict", "modules",
     "named_modules", "children", "named_children", "zero_grad", "register_buffer", "forward",
     "load_state_dict", "get_submodule", "items", "values", "keys", "__len__", "init_weights",
     "reset_parameters", "register_forward_hook", "register_forward_pre_hook"}
)
# `torch.compile(module)` returns an `OptimizedModule` around the module (`COMPILED_MODULES`),
# which the analysis takes for the module itself: its parameters, its sharding. Where the walk
# compiled an object it does not decide whether it is the wrapper (`Flow.compiled`), and the
# wrapper's `_orig_mod` is the object. (torch 2.13, 2 gloo ranks: the wrapper reads its module's
# attributes, `fully_shard` of the wrapper shards the module's parameters and makes the wrapper,
# not `_orig_mod`, an `FSDPModule`, and `get_model_state_dict` of it gathers the module's state
# dict, keys without the `_orig_mod.` prefix; `fully_shard` of the module makes it one and not
# the wrapper. Which object a test asks about is what the walk does not tell apart.)
IDENTITY_FUNCTIONS = frozenset({"torch.compile"})
# The job's number of processes, where no group is named (a group may have one process): a
# `values.WorldSize`, more than one on the runs the contracts are about.
WORLD_SIZE_GETTERS = frozenset({"torch.distributed.get_world_size", "torch.distributed.distributed_c10d.get_world_size"})
# True on every run of several processes that communicates (one that does not initialise the
# process group issues no collective to misuse).
DISTRIBUTED_RUN_TESTS = frozenset({
    "torch.distributed.is_initialized", "torch.distributed.distributed_c10d.is_initialized", "torch.distributed.is_available",
})
# The launcher's variable holding the job's number of processes (torchrun, SLURM wrappers).
WORLD_SIZE_VARIABLE = "WORLD_SIZE"
COMPILED_ORIGINAL = "_orig_mod"
# Functions that return their last argument as it is (`cast(FSDPModule, module)` is `module`).
LAST_ARGUMENT_FUNCTIONS = frozenset({"typing.cast", "typing_extensions.cast"})
# Functions that change the module they are given in place and return it (torch 2.13:
# `distribute_module(m, mesh, partition_fn)` makes m's parameters DTensors, returns m).
FIRST_ARGUMENT_FUNCTIONS = frozenset(
    {"torch.distributed.tensor.distribute_module", "torch.distributed._tensor.distribute_module",
     "torch.distributed.tensor._api.distribute_module"}
)
# Functions that wrap a module, or the submodules a predicate picks, for activation checkpointing or
# CPU offload: the parameters keep the values they had (torch 2.13: after `to_empty` and
# `apply_activation_checkpointing(m, ...)`, or of `checkpoint_wrapper(m)` on the meta device, the
# same tensors, still uninitialised or still meta), so they initialise nothing.
VALUE_KEEPING_WRAPPERS = frozenset(
    f"torch.distributed.algorithms._checkpoint.checkpoint_wrapper.{name}"
    for name in ("apply_activation_checkpointing", "checkpoint_wrapper", "offload_wrapper")
)
# Decorators that make a generator function a context manager: `with f():` runs the code before
# its `yield` on entry and the code after it when the block ends.
CONTEXT_MANAGER_DECORATORS = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})
LEAF_MODULE_PREFIX = "torch.nn."
BLOCK_CONTAINERS = frozenset({"torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.Sequential"})
# torch.nn leaf modules that own parameters (containers and activations own none).
PARAMETERISED_LEAVES = frozenset(
    {"Linear", "Embedding", "EmbeddingBag", "LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d",
     "BatchNorm3d", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
     "Bilinear", "Parameter", "MultiheadAttention", "LSTM", "GRU", "RNN", "PReLU"}
)
# `torch.multiprocessing.spawn(fn, args=(a, b), nprocs=n)` and `start_processes` (same leading
# parameters) run `fn(rank, a, b)` in each process they start (torch 2.13).
SPAWN_FUNCTIONS = frozenset(
    {"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes",
     "torch.multiprocessing.spawn.spawn", "torch.multiprocessing.spawn.start_processes"}
)
# torch.nn modules that own parameters through children of their own (torch 2.13): blocks, where
# the layers of `PARAMETERISED_LEAVES` without children are not.
COMPOSITE_LAYERS = frozenset(
    {"MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
     "TransformerDecoder", "Transformer"}
)
PRETRAINED_FACTORIES = frozenset({"from_pretrained", "from_config"})
PRETRAINED_MODEL = "transformers.PreTrainedModel"  # the class of what a pretrained factory returns
# FSDP1's wrapper class (calling it wraps a module), and the class `fully_shard` makes the module
# it shards an instance of (FSDP2).
FSDP1_WRAPPERS = frozenset(
    {"torch.distributed.fsdp.FullyShardedDataParallel", "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel"}
)
FSDP_MODULE = "torch.distributed.fsdp.FSDPModule"
FSDP2_MODULES = frozenset(
    {FSDP_MODULE, "torch.distributed.fsdp._fully_shard.FSDPModule",
     "torch.distributed.fsdp._fully_shard._fully_shard.FSDPModule", "torch.distributed._composable.fsdp.FSDPModule",
     "torch.distributed._composable.fsdp.fully_shard.FSDPModule"}
)
# The public methods `FSDPModule` adds to a module (torch 2.13, `vars(FSDPModule)`): a module has
# one exactly where `fully_shard` made it an `FSDPModule`, unless its own class defines it, so
# `hasattr(model, "set_requires_gradient_sync")` asks what `isinstance(model, FSDPModule)` asks
# (checked on 2 gloo ranks: True for a `fully_shard`-ed Sequential, and `hasattr(m, "no_sync")` False).
FSDP_MODULE_METHODS = frozenset({
    "reset_iter_state", "reshard", "set_all_reduce_hook", "set_allocate_memory_from_process_group_for_comm",
    "set_custom_all_gather", "set_custom_reduce_scatter", "set_force_sum_reduction_for_comms", "set_gradient_divide_factor",
    "set_is_last_backward", "set_modules_to_backward_prefetch", "set_modules_to_forward_prefetch", "set_post_optim_event",
    "set_reduce_scatter_divide_factor", "set_reduce_scatter_max_input_buffers", "set_reduce_scatter_unused_params",
    "set_requires_all_reduce", "set_requires_gradient_sync", "set_reshard_after_backward", "set_reshard_after_forward",
    "set_separate_reduce_scatter_group", "set_symm_mem_for_comm", "set_unshard_in_backward", "unshard",
})


# DTensor by its names (torch 2.13): what holds one rank's shard of a sharded parameter, and what
# a full state dict never holds (its values are plain tensors, on every rank that gets them).
DTENSOR_CLASSES = frozenset(
    {"torch.distributed.tensor.DTensor", "torch.distributed._tensor.DTensor", "torch.distributed.tensor._api.DTensor",
     "torch.distributed._tensor.api.DTensor"}
)


# DDP's wrapper class (calling it wraps a module).
DDP_WRAPPERS = frozenset({"torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel"})
# `nn.DataParallel` by its names (one class, torch 2.13).
DATA_PARALLEL = frozenset({"torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel"})
# What `torch.compile(module)` returns: a wrapper module around it.
COMPILED_MODULES = frozenset({"torch._dynamo.eval_frame.OptimizedModule", "torch._dynamo.OptimizedModule"})
# For each wrapper class torch defines (FSDP1's, DDP's, `DataParallel`, `torch.compile`'s), the
# classes of torch whose objects are instances of it: its own names and DDP's one subclass in
# torch (`DistributedDataParallelCPU`); no other class of torch 2.13 derives from any of them.
_WRAPPER_INSTANCES = {
    **{name: FSDP1_WRAPPERS for name in FSDP1_WRAPPERS},
    **{name: DDP_WRAPPERS | {"torch.nn.parallel.DistributedDataParallelCPU"} for name in DDP_WRAPPERS},
    **{name: DATA_PARALLEL for name in DATA_PARALLEL},
    **{name: COMPILED_MODULES for name in COMPILED_MODULES},
}


# nn.Module by its names; its method resolution order is itself and `object`.
MODULE_CLASSES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module", "torch.nn.modules.Module"})
# Classes outside the tree whose methods call `fully_shard` only where named here: torch's
# `nn.Module` (2.13: the source of its module names no FSDP) and transformers' `PreTrainedModel`
# (4.57.1: none of its methods does; 5.24.0: `maybe_distribute_model`, of its `DistributedMixin`,
# applies the model's FSDP plan). What else a method of one runs is their code and the functions
# it is given.
_SHARDING_METHODS = {
    **{name: frozenset() for name in MODULE_CLASSES},
    **{name: frozenset({"maybe_distribute_model"}) for name in (PRETRAINED_MODEL, "transformers.modeling_utils.PreTrainedModel")},
}


def library_method_may_shard(classes: Tuple[str, ...], method: str) -> bool:
    """Whether `method`, taken from the classes outside the tree `classes` (an object's own class,
    or the library bases of a class of the tree), may call `fully_shard` on its own: unless each
    is a class whose methods are known (`_SHARDING_METHODS`) and this is none that shards."""
    return not classes or any(method in _SHARDING_METHODS.get(cls, frozenset({method})) for cls in classes)


# Builtin types no module is an instance of.
BUILTIN_TYPES = frozenset(f"builtins.{name}" for name in ("list", "tuple", "dict", "set", "frozenset", "str", "bytes", "int", "float", "bool", "complex"))


def module_base_instance(tested: str) -> Optional[bool]:
    """`isinstance(obj, tested)` as far as `nn.Module`, a base of obj's class, answers it:
    True for nn.Module; False for a class that an instance check answers from the class's
    bases alone and that is not among Module's: torch.nn's modules and wrappers
    (`DataParallel`, DDP), the module `torch.compile` returns, builtin types. None for others,
    whose check may look at methods (an ABC, a runtime-checkable Protocol such as DCP's
    `Stateful`, which every module passes)."""
    if tested in MODULE_CLASSES:
        return True
    if tested.startswith("torch.nn.") or tested in COMPILED_MODULES or tested in BUILTIN_TYPES:
        return False
    return None


# torch.nn's classes whose objects are as true as they are long (torch 2.13: they define
# `__len__`; `nn.Module`, its other subclasses, DDP and `FSDPModule` define neither `__len__`
# nor `__bool__`). `torch.compile`'s wrapper forwards `__len__`, and raises for a module without.
_SIZED_MODULES = frozenset({"ModuleList", "Sequential", "ModuleDict", "ParameterList", "ParameterDict"})


def module_always_true(cls: str) -> bool:
    """Whether every object of `cls`, a class of torch.nn, is true in a test (`if model:`)."""
    return nn_module_class(cls) and cls.rsplit(".", 1)[-1] not in _SIZED_MODULES


SEQUENTIAL = "torch.nn.Sequential"


def written_children(container: nodes.Call, kind: str) -> Optional[List[nodes.NodeNG]]:
    """The children a `ModuleList`/`ModuleDict`/`Sequential(...)` call (`kind`) writes out, or
    None when a loop supplies them: a comprehension, a list built elsewhere, `*layers`, or an
    empty container that `append` fills. `Sequential` takes its modules as arguments or one
    `OrderedDict` of them; the others one list or dict."""
    args = list(container.args)
    if not args or any(isinstance(arg, nodes.Starred) for arg in args):
        return None
    if kind == SEQUENTIAL and not (len(args) == 1 and isinstance(args[0], nodes.Call) and _is_ordered_dict(args[0])):
        return args  # Sequential(a, b, c): the modules themselves
    if len(args) != 1:
        return None
    given = args[0]
    if isinstance(given, nodes.Call) and _is_ordered_dict(given) and given.args:  # OrderedDict([...]) / ({...})
        given = given.args[0]
    if isinstance(given, (nodes.List, nodes.Tuple)):
        return [item.elts[1] if isinstance(item, nodes.Tuple) and len(item.elts) == 2 else item for item in given.elts]
    if isinstance(given, nodes.Dict):
        return [value for _, value in given.items]
    return None


def built_true(container: nodes.Call, kind: str) -> bool:
    """Whether the container of modules a call of `kind` (`BLOCK_CONTAINERS`) builds is true in
    a test as built: it writes out children, so its length is theirs, one at least (torch 2.13:
    `bool(nn.Sequential(nn.ReLU()))` is True, `bool(nn.Sequential())` False)."""
    return kind in BLOCK_CONTAINERS and bool(written_children(container, kind))


def _is_ordered_dict(call: nodes.Call) -> bool:
    func = call.func
    return (func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)) == "OrderedDict"


def nn_module_class(cls: str) -> bool:
    """Whether `cls` names a module class of torch.nn, which derives from no builtin type (torch
    2.13: none of `torch.nn`'s); not one of `torch.nn.utils`, whose `PackedSequence` is a tuple."""
    return cls.startswith("torch.nn.") and not cls.startswith("torch.nn.utils.") and constructs_module(cls)


def torch_wrapper(cls: str) -> bool:
    """Whether `cls` names one of torch's wrapper classes (DDP, FSDP1, `DataParallel`,
    `torch.compile`'s) or a class of torch deriving from one: an object of any other module class
    passes no `isinstance` test against them."""
    return cls in _WRAPPER_INSTANCES or any(cls in instances for instances in _WRAPPER_INSTANCES.values())


def wrapper_instance(cls: str, tested: str) -> Optional[bool]:
    """`isinstance(obj, tested)` for an object of `cls`, a class outside the tree, where `tested`
    is one of torch's wrappers (DDP, FSDP1, `DataParallel`, `torch.compile`'s): True for the
    wrapper, False for any other class of torch (`nn.Linear`, `nn.Module`, DDP tested against
    FSDP1's class); None for other classes or tests. `fully_shard` does not change it: the module it shards keeps its class as a base."""
    instances = _WRAPPER_INSTANCES.get(tested)
    if instances is None:
        return None
    if cls in instances:
        return True
    return False if cls.startswith("torch.") else None


def optimizer_class(qname: Optional[str]) -> Optional[str]:
    """The class name if `qname` names an optimizer constructor, else None."""
    if not qname or not qname.startswith(OPTIMIZER_PACKAGES) or qname.startswith(NOT_OPTIMIZERS):
        return None
    last = qname.rsplit(".", 1)[-1]
    return last if last[:1].isupper() else None


# torch's base of every optimizer: a class deriving from it keeps the tensors it is handed
# (`super().__init__(params, defaults)` fills `param_groups`) and steps them.
OPTIMIZER_BASES = frozenset({"torch.optim.Optimizer", "torch.optim.optimizer.Optimizer"})


def optimizer_base(qname: Optional[str]) -> bool:
    """Whether a class outside the tree, as a base of one of the tree's, makes it an optimizer:
    torch's `Optimizer`, or one of the optimizer classes `optimizer_class` names."""
    return qname in OPTIMIZER_BASES or optimizer_class(qname) is not None


def state_dict_getter(qname: Optional[str]) -> Optional[str]:
    if not qname:
        return None
    module, _, name = qname.rpartition(".")
    if name in STATE_DICT_GETTERS and module.startswith("torch.distributed.checkpoint"):
        return name
    return None


# Library bases of configuration and record classes: no `nn.Module` derives from one, and their
# objects hold no tensor of their own (a pydantic model of options, a NamedTuple, an enum).
SETTING_BASES = frozenset(
    {"pydantic.BaseModel", "pydantic.main.BaseModel", "typing.NamedTuple", "typing.Generic", "typing.Protocol",
     "abc.ABC", "enum.Enum", "enum.IntEnum", "enum.StrEnum"}
)


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
    arg = call_argument(expr, 0, "type")
    return isinstance(arg, nodes.Const) and arg.value == "meta"


# Module methods that give parameters values after `to_empty` (or load real tensors in place of
# meta ones); any other method whose name says it initialises, loads or materialises counts too.
INIT_METHODS = frozenset(
    {"init_weights", "reset_parameters", "_init_weights", "init_parameters", "initialize_weights",
     "initialize_parameters", "apply", "post_init", "load_state_dict", "from_pretrained"}
)


def initialises(method: str) -> bool:
    """Whether a module method of this name may give its parameters values."""
    if method in INIT_METHODS:
        return True
    return any(part in method for part in ("init", "load", "materiali")) and method not in INERT_METHODS and method != "__init__"


DCP_COLLECTIVES = frozenset(
    {"save", "load", "async_save", "save_state_dict", "load_state_dict"}
)
DCP_MODULE = "torch.distributed.checkpoint"
STATE_DICT_SETTERS = frozenset({"set_model_state_dict", "set_optimizer_state_dict", "set_state_dict"})
# Calls that build a file name from their arguments (a name built from the rank stays one:
# `values.RankNamed`); a method of such a name (`.with_suffix`, `.format`) builds one too.
FILE_NAME_BUILDERS = frozenset({
    "os.path.join", "os.path.abspath", "os.path.expanduser", "os.fspath", "builtins.str",
    "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath",
})
# Readers of a file `torch.save` (or safetensors) wrote: they give back the tensors saved, plain ones
# for a full state dict (`values.FileState`), with no collective and no layout of their own.
PLAIN_LOADERS = frozenset({"torch.load", "torch.serialization.load", "safetensors.torch.load_file", "safetensors.torch.load"})
# `nn.Module.load_state_dict(state_dict, strict=True, assign=False)`: the state dict it copies from.
LOADED_STATE_PARAMETER = "state_dict"


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


def is_state_dict_options(qname: Optional[str]) -> bool:
    """`StateDictOptions` of `torch.distributed.checkpoint.state_dict`."""
    return bool(qname) and qname.rsplit(".", 1)[-1] == "StateDictOptions" and qname.startswith(DCP_MODULE)


def full_state_dict(options: nodes.Call) -> Optional[bool]:
    """Whether a `StateDictOptions(...)` call asks for a full (gathered) state dict: True or
    False when its arguments say so, None when they are not visible (`**kwargs`, a variable)."""
    full = [k.value for k in options.keywords or [] if k.arg in ("full_state_dict", "broadcast_from_rank0")]
    if any(isinstance(value, nodes.Const) and value.value is True for value in full):
        return True
    if options.args or any(not isinstance(value, nodes.Const) for value in full) or any(k.arg is None for k in options.keywords or []):
        return None
    return False


def full_state_dict_of(options: object, given: bool, star_keywords: bool) -> Optional[bool]:
    """Whether a state-dict call whose `options` argument has the abstract value `options`
    (`fsdp_lint.analysis.values.Options` when known) returns a full state dict. Without options
    it returns the sharded one (`options` is keyword-only in every state-dict function), unless
    `**kwargs` may carry some."""
    from fsdp_lint.analysis.values import Options

    if not given:
        return None if star_keywords else False
    return options.full_state_dict if isinstance(options, Options) else None


# Methods whose result always has an item: a loop over it runs its body at least once.
_NEVER_EMPTY_METHODS = frozenset({"split", "rsplit", "partition", "rpartition"})


def never_empty(iterated: nodes.NodeNG) -> bool:
    """Whether a `for` loop over this expression runs at least once (`path.split(".")`)."""
    return isinstance(iterated, nodes.Call) and isinstance(iterated.func, nodes.Attribute) and iterated.func.attrname in _NEVER_EMPTY_METHODS


# Calls that never return: `sys.exit` and the `exit`/`quit` builtins raise `SystemExit`, `os._exit`
# and `os.abort` end the process. What follows one in its block runs on no run.
_PROCESS_EXITS = frozenset({"sys.exit", "os._exit", "os.abort"})
_EXIT_BUILTINS = frozenset({"exit", "quit"})


def never_returns(qname: Optional[str], func: nodes.NodeNG, builtin: bool) -> bool:
    """Whether calling `func` (named `qname`, where it resolves) leaves the program; `builtin`:
    the name `func` reads binds to nothing of the module (so `exit` is the builtin)."""
    return qname in _PROCESS_EXITS or builtin and isinstance(func, nodes.Name) and func.name in _EXIT_BUILTINS


# `fully_shard(module, *, mesh=None, ...)` (torch 2.13): the module it shards is its first
# argument, or that parameter named (`fully_shard(module=block, mesh=mesh)`).
SHARDED_MODULE_PARAMETER = "module"


def sharded_module_node(call: nodes.Call) -> Optional[nodes.NodeNG]:
    """The expression naming the module a sharding call shards, if it names one."""
    return call_argument(call, 0, SHARDED_MODULE_PARAMETER)


# `register_fsdp_forward_method(module, "name")` makes `module.name(...)` run FSDP2's pre- and
# post-forward hooks, as `module(...)` does (torch 2.13, 2 gloo ranks: a registered method of a
# unit runs its layers with the right gradients; unregistered it fails on the sharded DTensors).
REGISTER_FORWARD_METHOD = "register_fsdp_forward_method"
# `fully_shard`'s keyword: True (the default for a non-root unit) frees the gathered parameters
# after the forward; False keeps them until the backward (torch 2.13: a layer of such a unit runs
# on its own after a forward, not before the first).
RESHARD_AFTER_FORWARD = "reshard_after_forward"
PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# FSDP2's record of one managed parameter. Building one from a module's parameter hands that
# parameter to FSDP: `FSDPParam.__init__` shards it and sets the sharded DTensor on the module in
# its place (`_init_sharded_param`); a library that then puts it in the unit's
# `_fsdp_param_group.fsdp_params` (Model-Optimizer's `fsdp2_aware_weight_update`) has re-registered
# a parameter replaced after `fully_shard` (torch 2.13, 2 gloo ranks: a weight replaced after the
# first forward and re-registered so trains as the same replacement without FSDP; not re-registered,
# it does not).
FSDP_PARAM_CLASSES = frozenset({"torch.distributed.fsdp._fully_shard._fsdp_param.FSDPParam"})
# What only an optimizer answers: an object built by unknown code over parameters and used so is one.
OPTIMIZER_USES = frozenset({"step", "zero_grad", "state_dict", "load_state_dict", "add_param_group"})
# `Optimizer.state_dict()` is `{"state": {index: {"step": ..., "exp_avg": ...}}, "param_groups": [...]}`
# (torch 2.13, and `get_optimizer_state_dict` keyed by parameter names): every tensor is under this key.
OPTIMIZER_STATE_KEY = "state"


def is_parameter_call(expr: nodes.NodeNG, qualify: Callable[[nodes.NodeNG], Optional[str]]) -> bool:
    """`nn.Parameter(...)`: a new parameter tensor."""
    return isinstance(expr, nodes.Call) and qualify(expr.func) in PARAMETER_CLASSES


# How `nn.Module.__setattr__` and the registration methods file an attribute (torch 2.13): a tensor
# named by `register_buffer` is a buffer, by `register_parameter` a parameter, a module assigned
# or added (`add_module`, `register_module`) a submodule. Assigning a module's cast result back
# (`m.head = m.head.float()`) keeps the submodule, its parameters cast in place (a sharded one's
# next step then fails: the gradient's dtype no longer matches); a buffer's cast is a copy stored
# as the buffer, which FSDP2 does not manage (trains on, 2 gloo ranks).
REGISTERED_KINDS = {"register_buffer": "buffer", "register_parameter": "parameter", "add_module": "submodule", "register_module": "submodule"}


def registered_attribute(call: nodes.Call) -> Optional[Tuple[str, str]]:
    """`self.register_buffer("scale", ...)` and the like: the kind it files the attribute as, and
    its name (a constant); None for other calls."""
    func = call.func
    kind = REGISTERED_KINDS.get(func.attrname) if isinstance(func, nodes.Attribute) else None
    name = call.args[0] if call.args else next((k.value for k in call.keywords or [] if k.arg == "name"), None)
    if kind is None or not (isinstance(name, nodes.Const) and isinstance(name.value, str)):
        return None
    return kind, name.value


def constructs_module(qname: Optional[str]) -> bool:
    """Whether a call of `qname` builds a torch.nn module (`nn.Linear(...)`, `nn.Sequential(...)`),
    not a tensor (`nn.Parameter`, `nn.Buffer`)."""
    if not qname or not qname.startswith(LEAF_MODULE_PREFIX) or qname in PARAMETER_CLASSES:
        return False
    last = qname.rsplit(".", 1)[-1]
    return last[:1].isupper() and last not in ("Parameter", "Buffer")


# The parameters a torch.nn leaf module of `PARAMETERISED_LEAVES` is built with (torch 2.13).
LEAF_PARAMETERS = ("weight", "bias")


def leaf_parameter(cls: Optional[str], attr: str) -> bool:
    """Whether `attr` of a module of class `cls` is one of the parameters a torch.nn leaf module
    is built with (`nn.Linear(...).weight`, `.bias`): a tensor, not a submodule."""
    return bool(cls) and cls.startswith(LEAF_MODULE_PREFIX) and cls.rsplit(".", 1)[-1] in PARAMETERISED_LEAVES and module_parameter(attr)


def module_parameter(attr: str) -> bool:
    """Whether `attr` names a parameter of a module of a class nothing is known of: the leaf
    modules' `weight` and `bias`, which the modules of other classes hold through them."""
    return attr in LEAF_PARAMETERS


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
    for node in nodes_within(module, (nodes.Call, nodes.Keyword, nodes.Const)):
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


def spawned_call(qname: Optional[str], args: List[V], keywords: Dict[Optional[str], V]) -> Optional[Tuple[V, V]]:
    """For a call that starts processes running a function (`SPAWN_FUNCTIONS`), the function
    and the value of the arguments it is given after the rank (`args=`, a tuple); None for any
    other call."""
    if qname not in SPAWN_FUNCTIONS:
        return None
    function = args[0] if args else keywords.get("fn")
    if function is None:
        return None
    return function, args[1] if len(args) > 1 else keywords.get("args")
