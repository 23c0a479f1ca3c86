"""Turns a check's finding into an error or a warning, once per process, with the rank.

Rank-local errors are also published through the c10d store (``rank_agreement``) so that the
other ranks can stop with the same error instead of waiting in FSDP's next collective.
"""

import os
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
    """One violation as the reporter sees it; ``key`` makes findings comparable across ranks."""

    __slots__ = ("code", "name", "severity", "key", "detail", "fix", "rank")

    def __init__(self, code: str, name: str, severity: str, key: str, detail: str, fix: str, rank: int):
        self.code, self.name, self.severity = code, name, severity
        self.key, self.detail, self.fix, self.rank = key, detail, fix, rank

    def message(self, rank: Optional[int] = None) -> str:
        here = self.rank if rank is None else rank
        return format_message(self.code, self.name, here, self.detail, self.fix, origin=self.rank)

    def to_json(self) -> dict:
        return {slot: getattr(self, slot) for slot in self.__slots__}

    @classmethod
    def from_json(cls, data: dict) -> "Finding":
        return cls(**{slot: data[slot] for slot in cls.__slots__})


class Reporter:
    def __init__(self, config: Config, agreement: Any) -> None:
        self.config = config
        self.agreement = agreement
        self._lock = threading.Lock()
        self._warned: Set[Tuple[str, str]] = set()
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
        finding = Finding(
            check.code, check.name, severity or check.severity, key or detail, detail, fix, current_rank()
        )
        if self.config.mode != "raise" or finding.severity != "error":
            self.warn(finding)
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

    def warn(self, finding: Finding) -> None:
        with self._lock:
            if (finding.code, finding.key) in self._warned:
                return
            self._warned.add((finding.code, finding.key))
        warnings.warn(FSDPContractWarning(finding.message(), finding.code), stacklevel=4)

    def raise_as_own(self, finding: Finding, cause: Optional[BaseException] = None) -> None:
        """Stop this rank with a finding another rank made (or the agreed first-forward one)."""
        with self._lock:
            self.raised.add((finding.code, finding.key))
        raise FSDPContractError(finding.message(current_rank()), finding.code) from cause

    def start_collecting(self) -> None:
        """Hold errors back so that every rank can agree on them before any rank raises."""
        self._collecting.findings = []

    def stop_collecting(self) -> List[Finding]:
        findings = getattr(self._collecting, "findings", None) or []
        self._collecting.findings = None
        return findings
