"""Loads the runtime checks and delivers events to them, containing the guard's own failures.

A bug in a check must never stop training: it is reported once as a warning and that check is
switched off. Errors the guard means to raise (``FSDPContractError``, or a contract warning the
user's filters turned into an exception) pass through untouched.
"""

import functools
import importlib
import pkgutil
import threading
import warnings
from typing import Any, Callable, Dict, List, Optional, Tuple

import torch.compiler

from fsdp_lint.runtime.check import EVENTS, RuntimeCheck
from fsdp_lint.runtime_errors import FSDPContractError, FSDPContractWarning

PASS_THROUGH = (FSDPContractError, FSDPContractWarning)


@functools.lru_cache(maxsize=1)
def load_check_classes() -> Tuple[type, ...]:
    """One class per ``runtime_checks/fsdNNN_*.py`` module, ordered by code."""
    import fsdp_lint.runtime_checks as package

    classes = []
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("fsd"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, RuntimeCheck) and value.__module__ == module.__name__:
                classes.append(value)
    return tuple(sorted(classes, key=lambda cls: cls.code))


class Dispatcher:
    def __init__(self, checks: List[RuntimeCheck]) -> None:
        self.checks = checks
        self._lock = threading.Lock()
        self.listeners: Dict[str, Tuple[Tuple[RuntimeCheck, Callable[..., Any]], ...]] = {}
        for event in EVENTS:
            self.listeners[event] = tuple(
                (check, getattr(check, event)) for check in checks if event in check.listens_to()
            )

    def wants(self, *events: str) -> bool:
        return any(self.listeners[event] for event in events)

    def emit(self, event: str, *args: Any) -> None:
        """Deliver ``event``; checks step aside while Dynamo traces (graph capture must stay pure)."""
        listeners = self.listeners[event]
        if not listeners or torch.compiler.is_compiling():
            return
        for check, handler in listeners:
            try:
                handler(*args)
            except PASS_THROUGH:
                raise
            except Exception as exc:
                self.disable(check, event, exc)

    def first_answer(self, event: str, *args: Any) -> Optional[Tuple[RuntimeCheck, Any]]:
        """The first check with a non-None answer to a query event (``attribute_hint``), and its answer."""
        for check, handler in self.listeners[event]:
            try:
                answer = handler(*args)
            except PASS_THROUGH:
                raise
            except Exception as exc:
                self.disable(check, event, exc)
                continue
            if answer is not None:
                return check, answer
        return None

    def disable(self, check: RuntimeCheck, event: str, exc: BaseException) -> None:
        with self._lock:
            if check not in self.checks:
                return
            self.checks.remove(check)
            for name in EVENTS:
                self.listeners[name] = tuple(pair for pair in self.listeners[name] if pair[0] is not check)
        warnings.warn(
            f"fsdp-lint: internal error in runtime check {check.code} {check.name} during {event} "
            f"({type(exc).__name__}: {exc}); this check is off for the rest of the run. "
            "Training continues; please report this.",
            RuntimeWarning,
            stacklevel=3,
        )
