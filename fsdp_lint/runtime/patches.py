"""The few places the guard hooks into torch, and the bookkeeping that lets ``disable()`` undo them.

Every hook is a class attribute or a global registry entry looked up at call time, so it also
catches scripts that imported ``fully_shard`` (or built modules and optimizers) before
``enable()``. Each wrapper calls the original first or last and adds only an event; the
original's own exceptions pass through untouched.
"""

import functools
import sys
import threading
import weakref
from typing import Any, Callable, Dict, List

import torch
import torch.nn as nn
from torch.optim.optimizer import register_optimizer_step_pre_hook

from fsdp_lint.fsdp1_api import STATIC_METHODS
from fsdp_lint.runtime import torch_shims
from fsdp_lint.runtime.reporter import format_message, current_rank
from fsdp_lint.runtime_errors import FSDPContractAttributeError

_is_compiling = torch.compiler.is_compiling


class Patcher:
    """Remembers what each patch replaced; ``undo`` puts back exactly what was there."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._undo: List[Any] = []

    def set_attr(self, owner: Any, name: str, value: Any) -> None:
        with self._lock:
            had_own = name in vars(owner)
            self._undo.append((owner, name, had_own, vars(owner).get(name)))
            setattr(owner, name, value)

    def set_instance_attr(self, instance: Any, name: str, value: Any) -> None:
        """Like ``set_attr`` on one object, held weakly: a model that goes away takes its patch along."""
        with self._lock:
            self._undo.append((weakref.ref(instance), name, True, vars(instance)[name]))
            setattr(instance, name, value)

    def add_handle(self, handle: Any) -> None:
        with self._lock:
            self._undo.append(handle)

    def undo(self) -> None:
        with self._lock:
            entries, self._undo = self._undo, []
        for entry in reversed(entries):
            if not isinstance(entry, tuple):
                entry.remove()
                continue
            owner, name, had_own, old = entry
            if isinstance(owner, weakref.ref):
                owner = owner()
                if owner is None:
                    continue
            if had_own:
                setattr(owner, name, old)
            elif name in vars(owner):
                delattr(owner, name)


def install(guard: Any) -> None:
    """Install the patch points that at least one enabled check listens to."""
    wants = guard.dispatcher.wants
    patcher = guard.patcher
    if torch_shims.get("FSDPParamGroup") is not None:  # once per unit; records ``guard.replaced``
        _patch_param_group_init(guard, torch_shims.get("FSDPParamGroup"))
    if torch_shims.get("FSDPState") is not None:
        _patch_lazy_init(guard, torch_shims.get("FSDPState"))
    if torch_shims.get("FSDPModule") is not None:
        _patch_fsdp_classes(guard, torch_shims.get("FSDPModule"))
        if wants("attribute_hint"):
            _patch_fsdp_getattr(guard, torch_shims.get("FSDPModule"))
        if wants("on_sync_changed"):
            _patch_sync_setter(guard, torch_shims.get("FSDPModule"))
    if wants("on_fsdp1_call") and torch_shims.get("FullyShardedDataParallel") is not None:
        _patch_fsdp1_methods(guard, torch_shims.get("FullyShardedDataParallel"))
    if wants("on_optimizer_init"):
        _patch_optimizer_init(guard)
    patcher.add_handle(register_optimizer_step_pre_hook(_step_hook(guard)))
    if wants("on_collective"):
        _patch_collective_entries(guard)

    if wants("on_save"):
        _patch_save(guard)
    if wants("on_load_state_dict"):
        _patch_load_state_dict(guard)
    if wants("on_materialized"):
        _wrap_after(guard, nn.Module, "to_empty", "on_materialized")
    if wants("on_params_changed"):
        _wrap_after(guard, nn.Module, "_apply", "on_params_changed", managed_only=True)
        _wrap_after(guard, nn.Module, "register_parameter", "on_params_changed", managed_only=True)


def _patch_param_group_init(guard: Any, group_cls: type) -> None:
    original = group_cls.__init__
    emit = guard.dispatcher.emit

    replaced = guard.replaced
    with_forward = guard.dispatcher.wants("on_forward")
    with_children = guard.dispatcher.wants("on_unit_module_called")

    @functools.wraps(original)
    def __init__(self: Any, params: Any, modules: Any, *args: Any, **kwargs: Any) -> None:
        params = list(params)
        modules = tuple(modules)
        guard.train_thread = threading.get_ident()
        guard.ensure_watcher()
        emit("on_shard", params, modules)
        original(self, params, modules, *args, **kwargs)
        for param, fsdp_param in zip(params, torch_shims.group_fsdp_params(self)):
            replaced[param] = fsdp_param
        for module in modules if with_forward else ():
            if callable(module.__dict__.get("forward")):  # torch.compile's OptimizedModule sets its own
                guard.patcher.set_instance_attr(module, "forward", _instance_forward(guard, module))
        if with_children:
            _hook_unit_children(guard, self, modules)
        emit("on_sharded", self, params)

    guard.patcher.set_attr(group_cls, "__init__", __init__)


def _hook_unit_children(guard: Any, group: Any, modules: Any) -> None:
    """A pre-forward hook on each child of the unit that holds some of its parameters.

    Called while the unit is sharded, such a child (``model.tok_embeddings``, ``model.output``)
    runs outside the unit's forward and would compute with DTensor shards. Only the root's
    children keep their hooks after its first forward (``Guard.root_init``): the root's own
    modules are the ones called on their own, and a hook costs a few microseconds per call.
    """
    emit = guard.dispatcher.emit
    is_sharded = torch_shims.group_is_sharded
    owner = weakref.ref(group)
    ids = {id(torch_shims.sharded_param(fsdp_param)) for fsdp_param in torch_shims.group_fsdp_params(group)}

    def hook(module: nn.Module, args: Any) -> None:
        unit = owner()
        if unit is not None and is_sharded(unit) and not _is_compiling():
            emit("on_unit_module_called", module, unit)

    handles = []
    for unit in modules:
        for child in unit.children():
            if torch_shims.state_of(child) is None and any(id(p) in ids for p in child.parameters()):
                handles.append(child.register_forward_pre_hook(hook))
    for handle in handles:
        guard.patcher.add_handle(handle)
    guard.unit_child_hooks[group] = handles


def _patch_lazy_init(guard: Any, state_cls: type) -> None:
    """FSDP calls ``_lazy_init`` at the start of every unit's forward, before any all-gather."""
    original = state_cls._lazy_init
    emit = guard.dispatcher.emit
    listeners = guard.dispatcher.listeners

    @functools.wraps(original)
    def _lazy_init(self: Any) -> None:
        if guard.peer_stop is not None:
            guard.check_peer()
        if self._is_root is None:
            guard.root_init(self)
            original(self)
            guard.reaching = listeners["on_unit_reached"] and self._is_root
            return
        if self._is_root:
            guard.reaching = False  # only the first forward of a root is followed unit by unit
            if listeners["on_iteration_start"] and self._state_ctx.iter_forward_root is None:
                emit("on_iteration_start", self._modules[0], self)
        elif guard.reaching:
            emit("on_unit_reached", self)
        original(self)

    guard.patcher.set_attr(state_cls, "_lazy_init", _lazy_init)


def _step_hook(guard: Any) -> Callable[..., None]:
    """Before every optimizer step: a safe point for a peer's finding, then the step checks."""
    emit = guard.dispatcher.emit

    def hook(optimizer: Any, args: Any, kwargs: Any) -> None:
        if guard.peer_stop is not None:
            guard.check_peer()
        emit("on_step", optimizer)

    return hook


def _patch_fsdp_classes(guard: Any, fsdp_module: type) -> None:
    """Wrap ``forward`` (FSD201) and ``__call__`` of every ``FSDP<Cls>``, present and future."""
    patcher = guard.patcher
    with_forward = guard.dispatcher.wants("on_forward")

    def install_class(cls: type) -> None:
        if with_forward:
            patcher.set_attr(cls, "forward", _forward_wrapper(guard, cls.forward))
        patcher.set_attr(cls, "__call__", _call_wrapper(guard, cls.__call__))
    original_hook = vars(fsdp_module).get("__init_subclass__")  # another library's hook: keep it

    def __init_subclass__(cls: type, **kwargs: Any) -> None:
        if original_hook is not None:
            original_hook.__get__(None, cls)(**kwargs)
        else:
            super(fsdp_module, cls).__init_subclass__(**kwargs)
        if cls.__name__.startswith("FSDP"):
            install_class(cls)

    patcher.set_attr(fsdp_module, "__init_subclass__", classmethod(__init_subclass__))
    for cls in torch_shims.fsdp_classes():
        install_class(cls)


def _forward_wrapper(guard: Any, inherited: Callable[..., Any]) -> Callable[..., Any]:
    emit = guard.dispatcher.emit

    @functools.wraps(inherited)
    def forward(self: nn.Module, *args: Any, **kwargs: Any) -> Any:
        emit("on_forward", self)  # emit itself steps aside while Dynamo traces
        return inherited(self, *args, **kwargs)

    return forward


def _instance_forward(guard: Any, module: nn.Module) -> Callable[..., Any]:
    """``_forward_wrapper`` for a module whose ``forward`` is its own attribute (a compiled module)."""
    emit = guard.dispatcher.emit
    inherited = module.__dict__["forward"]
    owner = weakref.ref(module)

    def forward(*args: Any, **kwargs: Any) -> Any:
        emit("on_forward", owner())
        return inherited(*args, **kwargs)

    return forward


def _call_wrapper(guard: Any, inherited: Callable[..., Any]) -> Callable[..., Any]:
    """A unit's call failed: let the guard explain torch's error, or raise the finding of the peer that stopped."""

    @functools.wraps(inherited)
    def __call__(self: nn.Module, *args: Any, **kwargs: Any) -> Any:
        try:
            return inherited(self, *args, **kwargs)
        except Exception as exc:
            if not _is_compiling():
                guard.after_failure(exc)
            raise

    return __call__


def _patch_fsdp_getattr(guard: Any, fsdp_module: type) -> None:
    """Explain FSDP1 attributes (``no_sync``) but stay an AttributeError, so ``hasattr`` is False.

    A lookup goes on exactly where it would have gone without the guard: to FSDPModule's own
    ``__getattr__`` if it has one, else to the next class in the module's MRO that defines one,
    which forwards to a wrapped module for ``checkpoint_wrapper`` and ``torch.compile``'s
    ``OptimizedModule`` sharded after wrapping.
    """
    own = vars(fsdp_module).get("__getattr__")
    first_answer = guard.dispatcher.first_answer
    following: Dict[type, Callable[..., Any]] = {}

    def next_getattr(cls: type) -> Callable[..., Any]:
        if own is not None:
            return own
        mro = cls.__mro__
        for base in mro[mro.index(fsdp_module) + 1:]:
            if "__getattr__" in vars(base):
                return vars(base)["__getattr__"]
        return nn.Module.__getattr__

    def __getattr__(self: nn.Module, name: str) -> Any:
        cls = type(self)
        inherited = following.get(cls)
        if inherited is None:
            inherited = following[cls] = next_getattr(cls)
        try:
            return inherited(self, name)
        except AttributeError:
            answer = first_answer("attribute_hint", self, name)
            if answer is None:
                raise
            check, (detail, fix) = answer
            message = format_message(check.code, check.name, current_rank(), detail, fix)
            raise FSDPContractAttributeError(message, check.code) from None

    guard.patcher.set_attr(fsdp_module, "__getattr__", __getattr__)


def _patch_sync_setter(guard: Any, fsdp_module: type) -> None:
    """Gradient accumulation toggles this public setter; the step check reads what it left."""
    original = fsdp_module.set_requires_gradient_sync
    emit = guard.dispatcher.emit

    @functools.wraps(original)
    def set_requires_gradient_sync(self: nn.Module, requires_gradient_sync: bool, *, recurse: bool = True) -> None:
        original(self, requires_gradient_sync, recurse=recurse)
        emit("on_sync_changed", self, requires_gradient_sync, recurse)

    guard.patcher.set_attr(fsdp_module, "set_requires_gradient_sync", set_requires_gradient_sync)


def _patch_fsdp1_methods(guard: Any, fsdp1_cls: type) -> None:
    emit = guard.dispatcher.emit
    for name in STATIC_METHODS:
        raw = vars(fsdp1_cls).get(name)
        if raw is None:
            continue
        is_static = isinstance(raw, staticmethod)
        function = raw.__func__ if is_static else raw

        def wrapper(*args: Any, _function: Callable[..., Any] = function, _name: str = name, **kwargs: Any) -> Any:
            emit("on_fsdp1_call", _name, args, kwargs)
            return _function(*args, **kwargs)

        functools.update_wrapper(wrapper, function)
        guard.patcher.set_attr(fsdp1_cls, name, staticmethod(wrapper) if is_static else wrapper)


def _patch_optimizer_init(guard: Any) -> None:
    original = torch.optim.Optimizer.__init__
    emit = guard.dispatcher.emit

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        emit("on_optimizer_init", self)

    guard.patcher.set_attr(torch.optim.Optimizer, "__init__", __init__)


def _patch_save(guard: Any) -> None:
    """``torch.save`` and ``torch.serialization.save`` are one function under two names."""
    original = torch.serialization.save
    emit = guard.dispatcher.emit

    @functools.wraps(original)
    def save(obj: Any, *args: Any, **kwargs: Any) -> Any:
        if guard.peer_stop is not None:
            guard.check_peer()
        emit("on_save", obj, args[0] if args else kwargs.get("f"))
        return original(obj, *args, **kwargs)

    guard.patcher.set_attr(torch.serialization, "save", save)
    if torch.save is original:
        guard.patcher.set_attr(torch, "save", save)


def _patch_load_state_dict(guard: Any) -> None:
    """Checked before torch copies anything, so a misload never half-happens."""
    original = nn.Module.load_state_dict
    emit = guard.dispatcher.emit

    @functools.wraps(original)
    def load_state_dict(self: nn.Module, state_dict: Any, *args: Any, **kwargs: Any) -> Any:
        emit("on_load_state_dict", self, state_dict)
        return original(self, state_dict, *args, **kwargs)

    guard.patcher.set_attr(nn.Module, "load_state_dict", load_state_dict)


def _wrap_after(guard: Any, owner: type, name: str, event: str, managed_only: bool = False) -> None:
    original = getattr(owner, name)
    emit = guard.dispatcher.emit

    @functools.wraps(original)
    def wrapper(self: nn.Module, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        if not managed_only or self.__dict__.get("_is_fsdp_managed_module"):
            emit(event, self)
        return result

    guard.patcher.set_attr(owner, name, wrapper)


# --- collective-backed calls (FSD206) -------------------------------------------------------------


def _patch_collective_entries(guard: Any) -> None:
    """The entries of the calls that communicate with every rank of a group, wherever they were imported from.

    Each patch is on a name looked up at call time: ``DTensor.full_tensor``, the state-dict
    API's ``_verify_options`` (every public function of ``torch.distributed.checkpoint.state_dict``
    calls it first, with the options that decide whether it communicates), DCP's
    ``_save_state_dict``/``_load_state_dict`` (behind ``dcp.save``, ``async_save``, ``load``)
    and ``clip_grad_norm_``'s ``_get_total_norm``. A call made inside another of them (DCP
    gathering full tensors) is part of that one and not checked again.
    """
    emit = guard.dispatcher.emit
    entries = torch_shims.collective_entries()
    outer_codes = frozenset(code for entry in entries for code in entry.codes)

    def inside_another(frame: Any) -> bool:
        depth = 0
        while frame is not None and depth < 64:
            if frame.f_code in outer_codes:
                return True
            frame, depth = frame.f_back, depth + 1
        return False

    for entry in entries:
        original = getattr(entry.owner, entry.name)

        def wrapper(*args: Any, _original: Callable[..., Any] = original, _entry: Any = entry, **kwargs: Any) -> Any:
            if _is_compiling():
                return _original(*args, **kwargs)
            if _entry.before:
                call_ranks = _entry.ranks(args, kwargs)
                if call_ranks is not None and not inside_another(sys._getframe(1)):
                    guard.check_peer()
                    emit("on_collective", _entry.describe(sys._getframe(1)), call_ranks)
                return _original(*args, **kwargs)
            result = _original(*args, **kwargs)
            call_ranks = _entry.ranks(args, kwargs, result)
            if call_ranks is not None and not inside_another(sys._getframe(2)):
                guard.check_peer()
                emit("on_collective", _entry.describe(sys._getframe(1)), call_ranks)
            return result

        functools.update_wrapper(wrapper, original)
        guard.patcher.set_attr(entry.owner, entry.name, wrapper)
