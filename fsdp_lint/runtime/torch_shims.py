"""Every private torch name the guard touches, looked up in this one module.

FSDP2's internals move between releases (``torch.distributed._composable.fsdp`` became
``torch.distributed.fsdp._fully_shard`` in 2.6, ``_fsdp_param_group`` became a list in 2.13, ...).
A torch upgrade should be a change to this file only; a name that cannot be found makes the
checks that need it step aside, announced by one warning, instead of breaking training.
"""

import importlib
import inspect
import warnings
from types import CodeType, FrameType
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import torch
import torch.nn as nn

_PLACES: Dict[str, Tuple[Tuple[str, str], ...]] = {
    "FSDPModule": (
        ("torch.distributed.fsdp", "FSDPModule"),
        ("torch.distributed._composable.fsdp", "FSDPModule"),
    ),
    "FSDPState": (
        ("torch.distributed.fsdp._fully_shard._fsdp_state", "FSDPState"),
        ("torch.distributed._composable.fsdp._fsdp_state", "FSDPState"),
    ),
    "FSDPParamGroup": (
        ("torch.distributed.fsdp._fully_shard._fsdp_param_group", "FSDPParamGroup"),
        ("torch.distributed._composable.fsdp._fsdp_param_group", "FSDPParamGroup"),
    ),
    "TrainingState": (
        ("torch.distributed.fsdp._fully_shard._fsdp_common", "TrainingState"),
        ("torch.distributed._composable.fsdp._fsdp_common", "TrainingState"),
    ),
    "ShardedState": (
        ("torch.distributed.fsdp._fully_shard._fsdp_param", "ShardedState"),
        ("torch.distributed._composable.fsdp._fsdp_param", "ShardedState"),
    ),
    "module_state_mapping": (("torch.distributed._composable_state", "_module_state_mapping"),),
    "DTensor": (
        ("torch.distributed.tensor", "DTensor"),
        ("torch.distributed._tensor", "DTensor"),
    ),
    "FullyShardedDataParallel": (("torch.distributed.fsdp", "FullyShardedDataParallel"),),
    "MixedPrecisionPolicy": (
        ("torch.distributed.fsdp", "MixedPrecisionPolicy"),
        ("torch.distributed._composable.fsdp", "MixedPrecisionPolicy"),
    ),
    "OffloadPolicy": (
        ("torch.distributed.fsdp", "OffloadPolicy"),
        ("torch.distributed._composable.fsdp", "OffloadPolicy"),
    ),
    "get_default_store": (("torch.distributed.distributed_c10d", "_get_default_store"),),
    "Replicate": (
        ("torch.distributed.tensor", "Replicate"),
        ("torch.distributed._tensor", "Replicate"),
    ),
}

_found: Dict[str, Any] = {}
missing: List[str] = []


def resolve() -> None:
    """Import what this torch has; warn once about what it lacks (the guard then does less)."""
    if _found or missing:
        return
    for key, places in _PLACES.items():
        for module_name, attr in places:
            try:
                _found[key] = getattr(importlib.import_module(module_name), attr)
                break
            except (ImportError, AttributeError):
                continue
        else:
            missing.append(key)
    if missing:
        warnings.warn(
            f"fsdp-lint runtime guard: torch {torch.__version__} lacks {', '.join(missing)}; "
            "the checks that need them are off.",
            RuntimeWarning,
            stacklevel=3,
        )


def get(key: str) -> Any:
    """The resolved object, or None when this torch version does not have it."""
    return _found.get(key)


# --- FSDP state and parameter-group accessors -------------------------------------------------


def state_of(module: nn.Module) -> Optional[Any]:
    """The FSDPState managing ``module`` (its own unit), or None."""
    ref = _found["module_state_mapping"].get(module)
    state = ref() if ref is not None else None
    return state if isinstance(state, _found["FSDPState"]) else None


def iter_states() -> Iterator[Any]:
    """Every live FSDPState of the process, once each."""
    seen = set()
    for ref in list(_found["module_state_mapping"].values()):
        state = ref()
        if isinstance(state, _found["FSDPState"]) and id(state) not in seen:
            seen.add(id(state))
            yield state


def param_groups(state: Any) -> List[Any]:
    groups = getattr(state, "_fsdp_param_groups", None)
    if groups is None:  # before per-parameter meshes: a single optional group
        group = getattr(state, "_fsdp_param_group", None)
        groups = [group] if group is not None else []
    return list(groups)


def fsdp_params(state: Any) -> Iterator[Any]:
    for group in param_groups(state):
        yield from group.fsdp_params


def group_fsdp_params(group: Any) -> List[Any]:
    return list(group.fsdp_params)


def state_modules(state: Any) -> Tuple[nn.Module, ...]:
    return tuple(state._modules)


def state_device(state: Any) -> torch.device:
    return state._device


def is_idle(state: Any) -> bool:
    """True between forwards: FSDP's pre-forward hook sets FORWARD, its post-forward sets IDLE."""
    return state._training_state is _found["TrainingState"].IDLE


def before_lazy_init(state: Any) -> bool:
    """True until the unit's first forward: FSDP then re-adopts whatever parameters are registered."""
    return state._is_root is None


def is_root(state: Any) -> bool:
    return bool(state._is_root)


def group_is_unsharded(group: Any) -> bool:
    return group._sharded_state is _found["ShardedState"].UNSHARDED


def group_is_sharded(group: Any) -> bool:
    """The unit's registered parameters are its DTensor shards (not all-gathered)."""
    return group._sharded_state is _found["ShardedState"].SHARDED


def group_policies(group: Any) -> Tuple[Any, Any]:
    """The ``mp_policy`` and ``offload_policy`` the unit was built with, as given to fully_shard."""
    return group.mp_policy, group.offload_policy


def group_reduces_grads(group: Any) -> bool:
    """False after ``set_requires_gradient_sync(False)`` (``reduce_scatter_grads`` in early FSDP2)."""
    return bool(getattr(group, "reduce_grads", getattr(group, "reduce_scatter_grads", True)))


def group_modules(group: Any) -> Tuple[nn.Module, ...]:
    return tuple(group.modules)


def group_mesh(group: Any) -> Any:
    return group.mesh_info.mesh


def state_ranks(state: Any) -> List[int]:
    """The ranks a unit's all-gathers involve: those of its mesh (all ranks when it has no group)."""
    for group in param_groups(state):
        return group_mesh(group).mesh.flatten().tolist()
    return _world()


# --- FSDPParam accessors ------------------------------------------------------------------------


def param_owner(fsdp_param: Any) -> Tuple[nn.Module, str]:
    """The module that registers the parameter and the attribute name it uses."""
    info = fsdp_param._module_info
    return info.module, info.param_name


def param_fqn(fsdp_param: Any) -> Optional[str]:
    """The parameter's path from the root (set by FSDP at the root's lazy init)."""
    return getattr(fsdp_param, "_param_fqn", None)


def sharded_param(fsdp_param: Any) -> torch.Tensor:
    return fsdp_param.sharded_param


def unsharded_param(fsdp_param: Any) -> Optional[torch.Tensor]:
    """The plain all-gathered parameter, if FSDP has allocated one."""
    return getattr(fsdp_param, "_unsharded_param", None)


def unreduced_grad(fsdp_param: Any) -> Optional[torch.Tensor]:
    """A gradient FSDP holds unsharded because it was not reduce-scattered yet, or None."""
    accumulated = getattr(fsdp_param, "unsharded_accumulated_grad", None)
    if accumulated is not None:
        return accumulated
    unsharded = getattr(fsdp_param, "_unsharded_param", None)
    return unsharded.grad if unsharded is not None else None


def registered_forms(fsdp_param: Any) -> Tuple[Any, ...]:
    """The tensors FSDP itself may register on the module: sharded, unsharded, resharded."""
    return (
        fsdp_param.sharded_param,
        getattr(fsdp_param, "_unsharded_param", None),
        getattr(fsdp_param, "_sharded_post_forward_param", None),
    )


def expected_device(fsdp_param: Any) -> torch.device:
    """Where the sharded parameter must live: the mesh's device, or CPU under CPU offload."""
    if getattr(fsdp_param, "offload_to_cpu", False):
        return torch.device("cpu")
    return fsdp_param.device


# --- hook points ---------------------------------------------------------------------------------


def fsdp_classes() -> List[type]:
    """Every dynamic ``FSDP<Cls>`` class created so far (FSDPModule's direct subclasses)."""
    base = _found["FSDPModule"]
    return [cls for cls in base.__subclasses__() if cls.__name__.startswith("FSDP")]


def default_store() -> Optional[Any]:
    """The c10d store of the default process group, or None before ``init_process_group``."""
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()):
        return None
    getter = _found.get("get_default_store")
    return getter() if getter is not None else None


def is_dtensor(tensor: Any) -> bool:
    return isinstance(tensor, _found["DTensor"])


def local_tensor(tensor: torch.Tensor) -> torch.Tensor:
    return tensor._local_tensor if is_dtensor(tensor) else tensor


# --- collective-backed calls ---------------------------------------------------------------------


def dtensor_ranks(tensor: Any) -> Optional[List[int]]:
    """The ranks a redistribution of ``tensor`` to Replicate talks to; None when it needs no communication.

    Along each mesh dimension whose placement is not Replicate (Shard, Partial), the ranks that
    share this rank's coordinate on the other dimensions.
    """
    if not is_dtensor(tensor):
        return None
    mesh = tensor.device_mesh
    replicate = _found["Replicate"]
    moving = [i for i, placement in enumerate(tensor.placements) if not isinstance(placement, replicate)]
    if not moving or mesh.size() < 2:
        return None
    coordinate = mesh.get_coordinate()
    if coordinate is None:
        return None
    index = tuple(slice(None) if dim in moving else coordinate[dim] for dim in range(mesh.ndim))
    ranks = mesh.mesh[index].flatten().tolist()
    return ranks if len(ranks) > 1 else None


def dtensor_mesh_ranks(tensor: Any) -> List[int]:
    """Every rank of the DTensor's mesh: those holding the other shards."""
    return tensor.device_mesh.mesh.flatten().tolist()


def _world() -> List[int]:
    import torch.distributed as dist

    return list(range(dist.get_world_size()))


def _group_ranks(group: Any) -> List[int]:
    import torch.distributed as dist

    return _world() if group is None else list(dist.get_process_group_ranks(group))


def _model_ranks(model: Any) -> Optional[List[int]]:
    """The ranks a full state dict of ``model`` gathers from: those of its sharded parameters' mesh."""
    models = model if isinstance(model, (list, tuple)) else [model]
    for module in models:
        for param in module.parameters():
            if is_dtensor(param) and param.device_mesh.size() > 1:
                return param.device_mesh.mesh.flatten().tolist()
    return None


class CollectiveEntry(NamedTuple):
    """A function to patch on ``owner``; ``ranks`` says whether this call communicates, with whom."""

    owner: Any
    name: str
    codes: Tuple[CodeType, ...]  # frames of these are inside the call: calls made there are part of it
    before: bool  # ranks(args, kwargs) before the call; else ranks(args, kwargs, result) after
    ranks: Callable[..., Optional[List[int]]]
    describe: Callable[[FrameType], str]  # from the patched function's caller


_STATE_DICT_FUNCTIONS = ("get_model_state_dict", "get_optimizer_state_dict", "get_state_dict",
                         "set_model_state_dict", "set_optimizer_state_dict", "set_state_dict")


def _code(function: Any) -> CodeType:
    return inspect.unwrap(function).__code__


def _state_dict_ranks(args: Sequence[Any], kwargs: Dict[str, Any], info: Any) -> Optional[List[int]]:
    if getattr(info, "broadcast_from_rank0", False):
        return _world()
    if getattr(info, "full_state_dict", False):
        return _model_ranks(args[0] if args else kwargs.get("model"))
    return None


def _argument(args: Sequence[Any], kwargs: Dict[str, Any], function: Any, name: str) -> Any:
    """An argument by name, however it was passed."""
    try:
        return inspect.signature(function).bind_partial(*args, **kwargs).arguments.get(name)
    except TypeError:
        return kwargs.get(name)


def collective_entries() -> List[CollectiveEntry]:
    """The calls FSD206 checks, as this torch has them."""
    entries: List[CollectiveEntry] = []
    dtensor = _found.get("DTensor")
    if dtensor is not None and "Replicate" in _found:
        entries.append(CollectiveEntry(dtensor, "full_tensor", (), True, lambda a, k: dtensor_ranks(a[0]),
                                       lambda frame: "DTensor.full_tensor()"))
    try:
        state_dict = importlib.import_module("torch.distributed.checkpoint.state_dict")
        codes = tuple(_code(getattr(state_dict, name)) for name in _STATE_DICT_FUNCTIONS)
        state_dict._verify_options  # noqa: B018 (present in every version with this API)
        entries.append(CollectiveEntry(state_dict, "_verify_options", codes, False,
                                       _state_dict_ranks, lambda frame: f"{frame.f_code.co_name}()"))
    except (ImportError, AttributeError):
        pass
    for module_name, function, public in (
        ("torch.distributed.checkpoint.state_dict_saver", "_save_state_dict", "dcp.save()"),
        ("torch.distributed.checkpoint.state_dict_loader", "_load_state_dict", "dcp.load()"),
    ):
        try:
            module = importlib.import_module(module_name)
            original = getattr(module, function)
        except (ImportError, AttributeError):
            continue

        def dcp_ranks(args: Sequence[Any], kwargs: Dict[str, Any], _original: Any = original) -> Optional[List[int]]:
            if _argument(args, kwargs, _original, "no_dist"):
                return None
            return _group_ranks(_argument(args, kwargs, _original, "process_group"))

        entries.append(CollectiveEntry(module, function, (_code(original),), True, dcp_ranks,
                                       lambda frame, _public=public: _public))
    try:
        clip_grad = importlib.import_module("torch.nn.utils.clip_grad")
        total_norm = clip_grad._get_total_norm
    except (ImportError, AttributeError):
        return entries

    def grads_ranks(args: Sequence[Any], kwargs: Dict[str, Any]) -> Optional[List[int]]:
        tensors = args[0] if args else kwargs.get("tensors")
        for tensor in [tensors] if isinstance(tensors, torch.Tensor) else list(tensors or ()):
            ranks = dtensor_ranks(tensor)
            if ranks is not None:
                return ranks
        return None

    def describe_norm(frame: FrameType) -> str:
        caller = frame.f_back if frame.f_code.co_name == "_no_grad_wrapper" else frame
        return "clip_grad_norm_()" if caller is not None and caller.f_code.co_name == "clip_grad_norm_" else (
            "get_total_norm()")

    entries.append(CollectiveEntry(clip_grad, "_get_total_norm", (_code(total_norm),), True, grads_ranks,
                                   describe_norm))
    utils = importlib.import_module("torch.nn.utils")
    if getattr(utils, "get_total_norm", None) is total_norm:
        entries.append(CollectiveEntry(utils, "get_total_norm", (), True, grads_ranks,
                                       lambda frame: "get_total_norm()"))
    return entries
