"""The few places the guard hooks into torch, and the bookkeeping that lets ``disable()`` undo them.

Every hook is a class attribute or a global registry entry looked up at call time, so it also
catches scripts that imported ``fully_shard`` (or built modules and optimizers) before
``enable()``. Each wrapper calls the original first or last and adds only an event; the
original's own exceptions pass through untouched.
"""

import functools
import threading
from typing import Any, Callable, List

import torch
import torch.nn as nn
from torch.optim.optimizer import register_optimizer_step_pre_hook

from fsdp_lint.runtime import torch_shims
from fsdp_lint.runtime.reporter import format_message, current_rank
from fsdp_lint.runtime_errors import FSDPContractAttributeError

_is_compiling = torch.compiler.is_compiling

FSDP1_METHODS = (
    "summon_full_params",
    "state_dict_type",
    "set_state_dict_type",
    "clip_grad_norm_",
    "optim_state_dict",
    "full_optim_state_dict",
)


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
    if wants("on_step"):
        emit = guard.dispatcher.emit
        patcher.add_handle(
            register_optimizer_step_pre_hook(lambda opt, args, kwargs: emit("on_step", opt))
        )
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

    @functools.wraps(original)
    def __init__(self: Any, params: Any, modules: Any, *args: Any, **kwargs: Any) -> None:
        params = list(params)
        emit("on_shard", params, tuple(modules))
        original(self, params, modules, *args, **kwargs)
        for param, fsdp_param in zip(params, torch_shims.group_fsdp_params(self)):
            replaced[param] = fsdp_param
        emit("on_sharded", self, params)

    guard.patcher.set_attr(group_cls, "__init__", __init__)


def _patch_lazy_init(guard: Any, state_cls: type) -> None:
    """FSDP calls ``_lazy_init`` at the start of every unit's forward, before any all-gather."""
    original = state_cls._lazy_init
    emit = guard.dispatcher.emit
    listeners = guard.dispatcher.listeners

    @functools.wraps(original)
    def _lazy_init(self: Any) -> None:
        if self._is_root is None:
            guard.root_init(self)
        elif self._is_root and listeners["on_iteration_start"] and self._state_ctx.iter_forward_root is None:
            emit("on_iteration_start", self._modules[0], self)
        original(self)

    guard.patcher.set_attr(state_cls, "_lazy_init", _lazy_init)


def _patch_fsdp_classes(guard: Any, fsdp_module: type) -> None:
    """Wrap ``forward`` (and ``__call__`` in raise mode) of every ``FSDP<Cls>``, present and future."""
    patcher = guard.patcher
    with_forward = guard.dispatcher.wants("on_forward")
    with_call = guard.config.mode == "raise"

    def install_class(cls: type) -> None:
        if with_forward:
            patcher.set_attr(cls, "forward", _forward_wrapper(guard, cls.forward))
        if with_call:
            patcher.set_attr(cls, "__call__", _call_wrapper(guard, cls.__call__))

    if not (with_forward or with_call):
        return
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


def _call_wrapper(guard: Any, inherited: Callable[..., Any]) -> Callable[..., Any]:
    """When a collective fails because a peer rank stopped, raise the peer's finding instead."""

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
    """Explain FSDP1 attributes (``no_sync``) but stay an AttributeError, so ``hasattr`` is False."""
    module_getattr = nn.Module.__getattr__
    inherited = getattr(fsdp_module, "__getattr__", module_getattr)
    first_answer = guard.dispatcher.first_answer

    def __getattr__(self: nn.Module, name: str) -> Any:
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
    for name in FSDP1_METHODS:
        raw = vars(fsdp1_cls).get(name)
        if raw is None:
            continue
        is_static = isinstance(raw, staticmethod)
        function = raw.__func__ if is_static else raw

        def wrapper(*args: Any, _function: Callable[..., Any] = function, _name: str = name, **kwargs: Any) -> Any:
            emit("on_fsdp1_call", _name, args)
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
        emit("on_save", obj)
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
