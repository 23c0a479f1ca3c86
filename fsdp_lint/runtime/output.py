"""How a finding that stops the program reaches the terminal: a few lines per rank.

Python would print the whole stack (runpy, the user's loop, torch's hooks, the guard) and, on a
rank stopped by another rank's finding, the collective's chained error too. While the guard is
enabled, an uncaught ``FSDPContractError`` prints its message and the user's line instead; an
uncaught error on a rank that a peer's finding was stopping (gloo's "Connection closed by peer")
prints that finding, then the error in one line. $FSDP_LINT_RUNTIME_VERBOSE=1 or
``enable(verbose=True)`` keeps Python's full tracebacks.
"""

import sys
from types import TracebackType
from typing import Any, Optional, Type

from fsdp_lint.runtime_errors import FSDPContractError

HINT = "(full traceback: FSDP_LINT_RUNTIME_VERBOSE=1, or enable(verbose=True))"


def _contract_error(exc: Optional[BaseException]) -> Optional[FSDPContractError]:
    """The contract error that caused ``exc``, if any (it may be wrapped or re-raised by the user's code)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, FSDPContractError):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def _user_line(tb: Optional[TracebackType]) -> Optional[str]:
    from fsdp_lint.runtime import location

    frame = None
    while tb is not None:
        frame, tb = tb.tb_frame, tb.tb_next
    return location.describe(location.user_frame(frame)[0]) if frame is not None else None


def short_report(exc: BaseException, guard: Any) -> Optional[str]:
    """The text printed instead of a traceback, or None to let Python print its own."""
    from fsdp_lint.runtime.reporter import current_rank

    error = _contract_error(exc)
    if error is not None:
        return f"{type(error).__name__}: {error}\n"
    first_line = (str(exc).strip().splitlines() or [""])[0][:200]
    pending = guard.peer_stop
    if pending is not None:
        return (f"FSDPContractError: {pending[0].message(current_rank(), _user_line(exc.__traceback__))}\n"
                f"  then: {type(exc).__name__}: {first_line}\n")
    answer = guard.dispatcher.first_answer("explain_error", exc)
    if answer is not None:
        return f"{answer[1]}\n  then: {type(exc).__name__}: {first_line}\n"
    return None


def install(patcher: Any, guard: Any) -> None:
    """Replace ``sys.excepthook`` while the guard is enabled (``disable()`` puts the previous one back)."""
    previous = sys.excepthook

    def excepthook(exc_type: Type[BaseException], exc: BaseException, tb: Optional[TracebackType]) -> None:
        try:
            text = short_report(exc, guard)
        except Exception:  # never lose the user's error to a bug here
            text = None
        if text is None:
            previous(exc_type, exc, tb)
            return
        sys.stderr.write(text + HINT + "\n")
        sys.stderr.flush()

    patcher.set_attr(sys, "excepthook", excepthook)
