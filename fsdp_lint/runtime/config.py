"""Guard settings: mode, ignored codes, bounded wait; read from arguments and the environment.

The environment variables let ``python -m fsdp_lint.runtime`` (and a ``torchrun`` launch of it)
configure an unmodified script.
"""

import os
import pkgutil
from dataclasses import dataclass
from typing import Iterable, Optional, Tuple

from fsdp_lint.selection import Selection

MODES = ("raise", "warn")
ENV_MODE = "FSDP_LINT_RUNTIME"
ENV_IGNORE = "FSDP_LINT_RUNTIME_IGNORE"
ENV_TIMEOUT = "FSDP_LINT_RUNTIME_TIMEOUT"
ENV_VERBOSE = "FSDP_LINT_RUNTIME_VERBOSE"
DEFAULT_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Config:
    mode: str
    ignore: Tuple[str, ...]
    timeout_s: float
    verbose: bool = False

    def ignores(self, code: str) -> bool:
        """Codes and prefixes, with the static linter's meaning: ``FSD2`` ignores every FSD2xx."""
        return not Selection(ignore=self.ignore).enabled(code)


def _split(text: str) -> Tuple[str, ...]:
    return tuple(part.strip().upper() for part in text.replace(";", ",").split(",") if part.strip())


def runtime_codes() -> Tuple[str, ...]:
    """The runtime checks' codes, from their file names (``fsd201_forward_bypass.py``): nothing is imported."""
    import fsdp_lint.runtime_checks as package

    return tuple(sorted(info.name[:6].upper() for info in pkgutil.iter_modules(package.__path__)
                        if info.name.startswith("fsd")))


def check_codes(codes: Iterable[str], known: Iterable[str] = ()) -> None:
    """Every ignored code must be a runtime check's code or a prefix of one (``FSD2``)."""
    known = tuple(known) or runtime_codes()
    for code in codes:
        if not any(k.startswith(code) for k in known):
            raise ValueError(f"unknown runtime check code {code!r} (the runtime checks are {', '.join(known)})")


def make_config(mode: Optional[str] = None, ignore: Iterable[str] = (), verbose: Optional[bool] = None) -> Config:
    """Explicit arguments win over the environment for the mode and verbosity; ignores are merged."""
    if isinstance(ignore, str):
        ignore = (ignore,)
    env_mode = os.environ.get(ENV_MODE, "").strip().lower()
    chosen = (mode or env_mode or "raise").lower()
    if chosen in ("1", "on", "true", "yes", "error"):
        chosen = "raise"
    if chosen not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {chosen!r}")
    codes = tuple(code.strip().upper() for code in ignore if code.strip())
    codes += _split(os.environ.get(ENV_IGNORE, ""))
    try:
        timeout_s = float(os.environ.get(ENV_TIMEOUT, DEFAULT_TIMEOUT_S))
    except ValueError:
        timeout_s = DEFAULT_TIMEOUT_S
    if verbose is None:
        verbose = os.environ.get(ENV_VERBOSE, "").strip().lower() in ("1", "true", "yes", "on")
    return Config(mode=chosen, ignore=tuple(dict.fromkeys(codes)), timeout_s=timeout_s, verbose=verbose)
