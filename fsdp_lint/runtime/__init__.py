"""Runtime guard for FSDP2 contracts: ``enable()`` it before (or after) building the model.

    import fsdp_lint.runtime
    fsdp_lint.runtime.enable()            # or: with fsdp_lint.runtime.guard(mode="warn"): ...

or run an unmodified script with ``python -m fsdp_lint.runtime train.py ARGS``.

Importing this package costs almost nothing: torch's FSDP internals and the checks are loaded
by ``enable()``, and nothing of the static linter (astroid) is ever imported.
"""

import threading
from contextlib import contextmanager
from typing import Iterable, Iterator, Optional, Tuple

from fsdp_lint.runtime_errors import FSDPContractAttributeError, FSDPContractError, FSDPContractWarning

__all__ = [
    "FSDPContractAttributeError",
    "FSDPContractError",
    "FSDPContractWarning",
    "disable",
    "enable",
    "guard",
    "is_enabled",
]

_lock = threading.RLock()
_settings: Optional[Tuple[Optional[str], Tuple[str, ...], Optional[bool]]] = None

INSTALL_HINT = (
    "fsdp_lint.runtime needs PyTorch: install the runtime extra, `pip install 'fsdp-lint[runtime]'` "
    "(torch, and numpy for torch.distributed.checkpoint)"
)


def enable(mode: Optional[str] = None, ignore: Iterable[str] = (), verbose: Optional[bool] = None) -> None:
    """Turn the guard on; ``mode`` is "raise" or "warn" (default: $FSDP_LINT_RUNTIME or "raise").

    ``ignore`` takes codes or prefixes (``"FSD2"``) as the static linter does, merged with
    $FSDP_LINT_RUNTIME_IGNORE; an unknown code is a ValueError. A finding that stops the program
    prints its message and the user's line; ``verbose=True`` (or $FSDP_LINT_RUNTIME_VERBOSE=1)
    keeps Python's full traceback. Calling it again with the same settings does nothing; with
    other settings it re-installs the guard with them.
    """
    global _settings
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    from fsdp_lint.runtime import runtime_guard as guard_module
    from fsdp_lint.runtime.config import check_codes, make_config

    ignore = (ignore,) if isinstance(ignore, str) else tuple(ignore)
    with _lock:
        if guard_module._active is not None:
            if _settings == (mode, ignore, verbose):
                return
            disable()
        config = make_config(mode, ignore, verbose)
        check_codes(config.ignore)
        active = guard_module.Guard(config)
        active.install()
        guard_module._active = active
        _settings = (mode, ignore, verbose)


def disable() -> None:
    """Turn the guard off and restore every function, class attribute and hook it replaced."""
    global _settings
    with _lock:
        from fsdp_lint.runtime import runtime_guard as guard_module

        if guard_module._active is not None:
            guard_module._active.uninstall()
            guard_module._active = None
        _settings = None


def is_enabled() -> bool:
    return _settings is not None


@contextmanager
def guard(mode: Optional[str] = None, ignore: Iterable[str] = (), verbose: Optional[bool] = None) -> Iterator[None]:
    """``enable()`` for the duration of a ``with`` block, then restore the previous state."""
    with _lock:
        previous = _settings
    enable(mode, ignore, verbose)
    try:
        yield
    finally:
        if previous is None:
            disable()
        else:
            enable(*previous)
