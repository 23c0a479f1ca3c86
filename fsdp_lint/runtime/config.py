"""Guard settings: mode, ignored codes, bounded wait; read from arguments and the environment.

The environment variables let ``python -m fsdp_lint.runtime`` (and a ``torchrun`` launch of it)
configure an unmodified script.
"""

import os
from dataclasses import dataclass
from typing import Iterable, Optional, Tuple

from fsdp_lint.selection import Selection

MODES = ("raise", "warn")
ENV_MODE = "FSDP_LINT_RUNTIME"
ENV_IGNORE = "FSDP_LINT_RUNTIME_IGNORE"
ENV_TIMEOUT = "FSDP_LINT_RUNTIME_TIMEOUT"
DEFAULT_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Config:
    mode: str
    ignore: Tuple[str, ...]
    timeout_s: float

    def ignores(self, code: str) -> bool:
        """Codes and prefixes, with the static linter's meaning: ``FSD2`` ignores every FSD2xx."""
        return not Selection(ignore=self.ignore).enabled(code)


def _split(text: str) -> Tuple[str, ...]:
    return tuple(part.strip().upper() for part in text.replace(";", ",").split(",") if part.strip())


def make_config(mode: Optional[str] = None, ignore: Iterable[str] = ()) -> Config:
    """Explicit arguments win over the environment for the mode; ignores are merged."""
    if isinstance(ignore, str):
        ignore = (ignore,)
    env_mode = os.environ.get(ENV_MODE, "").strip().lower()
    chosen = (mode or env_mode or "raise").lower()
    if chosen in ("1", "on", "true", "yes", "error"):
        chosen = "raise"
    if chosen not in MODES:
        raise ValueError(f"fsdp-lint runtime mode must be one of {MODES}, got {chosen!r}")
    codes = tuple(code.strip().upper() for code in ignore if code.strip())
    codes += _split(os.environ.get(ENV_IGNORE, ""))
    try:
        timeout_s = float(os.environ.get(ENV_TIMEOUT, DEFAULT_TIMEOUT_S))
    except ValueError:
        timeout_s = DEFAULT_TIMEOUT_S
    return Config(mode=chosen, ignore=tuple(dict.fromkeys(codes)), timeout_s=timeout_s)
