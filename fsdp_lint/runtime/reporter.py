"""Turns a check's finding into an error or a warning, once per process, with the rank and the user's line.

Rank-local errors are also published through the c10d store (``rank_agreement``) so that the
other ranks stop with the same error instead of waiting in FSDP's next collective.
"""

import os
import sys
import threading
import warnings
from typing import Any, List, Optional, Set, Tuple

from fsdp_lint.runtime.config import Config
from fsdp_lint.runtime_errors import FSDPContractError, FSDPContractWarning

def current_rank() -> int:
    """The global rank, also before ``init_process_group`` (from torchrun's ``RANK``)."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        return dist.get_rank()
    return int(os.environ.get("RANK", "0") or 0)


def format_message(
    code: str, name: str, rank: int, detail: str, fix: str, origin: Optional[int] = None
) -> str:
    where = f"rank {rank}" if origin is None or origin == rank else f"rank {rank}, found on rank {origin}"
    return f"{code} {name}: [{where}] {detail} Fix: {fix} (see `fsdp-lint rule {code}`)"


class Finding:
    """One violation as the reporter sees it; ``key`` makes findings comparable across ranks.

    ``where`` is the user's line on the rank that found it (None when unknown).
    """

    __slots__ = ("code", "name", "severity", "key", "detail", "fix", "rank", "where")

    def __init__(self, code: str, name: str, severity: str, key: str, detail: str, fix: str, rank: int,
                 where: Optional[str] = None):
        self.code, self.name, self.severity = code, name, severity
        self.key, self.detail, self.fix, self.rank, self.where = key, detail, fix, rank, where

    def message(self, rank: Optional[int] = None, here: Optional[str] = None) -> str:
        """The one-paragraph message, then where it happened: a few lines, whatever the stack."""
        current = self.rank if rank is None else rank
        text = format_message(self.code, self.name, current, self.detail, self.fix, origin=self.rank)
        if current == self.rank:
            return text + (f"\n  at {self.where}" if self.where else "")
        if self.where:
            text += f"\n  rank {self.rank} at {self.where}"
        return text + (f"\n  this rank stopped at {here}" if here else "")

    def to_json(self) -> dict:
        return {slot: getattr(self, slot) for slot in self.__slots__}

    @classmethod
    def from_json(cls, data: dict) -> "Finding":
        return cls(**{slot: data.get(slot) for slot in cls.__slots__})


class Reporter:
    def __init__(self, config: Config, agreement: Any) -> None:
        self.config = config
        self.agreement = agreement
        self._lock = threading.Lock()
        self._warned: Set[Tuple[str, str]] = set()
        # (code, key) of every finding this guard raised: a peer's copy must not stop it twice.
        self.raised: Set[Tuple[str, str]] = set()
        self._collecting = threading.local()

    def report(
        self,
        check: Any,
        detail: str,
        fix: str,
        key: Optional[str] = None,
        rank_local: bool = True,
        severity: Optional[str] = None,
    ) -> None:
        """Raise (raise mode, error severity) or warn once; ``key`` identifies the violation."""
        from fsdp_lint.runtime import location

        frame, depth = location.user_frame(sys._getframe(1))
        finding = Finding(check.code, check.name, severity or check.severity, key or detail, detail, fix,
                          current_rank(), location.describe(frame))
        if self.config.mode != "raise" or finding.severity != "error":
            self.warn(finding, stacklevel=depth + 2 if frame is not None else 2)
            return
        collected = getattr(self._collecting, "findings", None)
        if collected is not None:
            collected.append(finding)
            return
        with self._lock:
            self.raised.add((finding.code, finding.key))
        if rank_local:
            self.agreement.publish(finding)
        raise FSDPContractError(finding.message(), finding.code)

    def warn(self, finding: Finding, stacklevel: int = 2) -> None:
        """A warning attributed to the user's line (``stacklevel`` counts from the caller of this)."""
        with self._lock:
            if (finding.code, finding.key) in self._warned:
                return
            self._warned.add((finding.code, finding.key))
        text = format_message(finding.code, finding.name, finding.rank, finding.detail, finding.fix)
        warnings.warn(FSDPContractWarning(text, finding.code), stacklevel=stacklevel + 1)

    def raise_as_own(self, finding: Finding, cause: Optional[BaseException] = None) -> None:
        """Stop this rank with a finding another rank made (or the agreed first-forward one)."""
        from fsdp_lint.runtime import location

        with self._lock:
            self.raised.add((finding.code, finding.key))
        raise FSDPContractError(finding.message(current_rank(), location.here()), finding.code) from cause

    def start_collecting(self) -> None:
        """Hold errors back so that every rank can agree on them before any rank raises."""
        self._collecting.findings = []

    def stop_collecting(self) -> List[Finding]:
        findings = getattr(self._collecting, "findings", None) or []
        self._collecting.findings = None
        return findings
