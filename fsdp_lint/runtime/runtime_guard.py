"""The guard object: settings, reporter, checks and patches of one ``enable()``."""

import os
import socket
import warnings
from typing import Any, Dict, List, Optional

import torch
from torch.utils.weak import WeakIdKeyDictionary

from fsdp_lint.runtime import patches, torch_shims
from fsdp_lint.runtime.config import Config
from fsdp_lint.runtime.dispatch import PASS_THROUGH, Dispatcher, load_check_classes
from fsdp_lint.runtime.rank_agreement import RankAgreement
from fsdp_lint.runtime.reporter import Finding, Reporter, current_rank


class Guard:
    def __init__(self, config: Config) -> None:
        torch_shims.resolve()
        self.config = config
        self.agreement = RankAgreement(config.timeout_s)
        self.reporter = Reporter(config, self.agreement)
        checks = [cls(self) for cls in load_check_classes() if not config.ignores(cls.code)]
        self.dispatcher = Dispatcher(checks)
        self.patcher = patches.Patcher()
        self.facts: Dict[str, Any] = {}
        # original parameter -> the FSDPParam whose DTensor replaced it (id-keyed: tensors
        # cannot be dict keys by value)
        self.replaced = WeakIdKeyDictionary()

    def install(self) -> None:
        try:
            patches.install(self)
        except BaseException:
            self.patcher.undo()
            raise

    def uninstall(self) -> None:
        self.patcher.undo()

    def root_init(self, state: Any) -> None:
        """First forward of a root; a failure of the guard's own machinery here never stops training."""
        try:
            self._root_init(state)
        except PASS_THROUGH:
            raise
        except Exception as exc:
            warnings.warn(
                f"fsdp-lint: internal error at the first forward of a root ({type(exc).__name__}: {exc}); "
                "its one-time and cross-rank checks are skipped. Training continues; please report this.",
                RuntimeWarning,
                stacklevel=3,
            )

    def _root_init(self, state: Any) -> None:
        """Run the one-time checks, agree across ranks, then raise.

        Rank-local verdicts (a meta-init fingerprint, a device) are exchanged through the store
        before anyone raises, so that every rank stops with the same error at the same point
        instead of one rank raising while the others wait in FSDP's first all-gather.
        """
        modules = torch_shims.state_modules(state)
        if len(modules) != 1:  # FSDP itself rejects a grouped root with a clear message
            return
        root = modules[0]
        states: List[Any] = []
        for module in root.modules():
            found = torch_shims.state_of(module)
            if found is not None and not any(found is s for s in states):
                states.append(found)
        self.facts = {}
        self.reporter.start_collecting()
        try:
            self.dispatcher.emit("on_root_init", root, states)
        finally:
            findings = self.reporter.stop_collecting()
        if torch.compiler.is_compiling():
            return
        record = {
            "rank": current_rank(),
            "host": socket.gethostname(),
            "local_rank": os.environ.get("LOCAL_RANK"),
            "facts": self.facts,
            "findings": [finding.to_json() for finding in findings],
        }
        records = self.agreement.exchange(record)
        self.dispatcher.emit("on_ranks_agreed", records)
        agreed = [Finding.from_json(f) for each in sorted(records, key=lambda r: r["rank"]) for f in each["findings"]]
        if agreed:
            own = [f for f in findings if (f.code, f.key) == (agreed[0].code, agreed[0].key)]
            self.reporter.raise_as_own((own or agreed)[0])

    def after_failure(self, exc: BaseException) -> None:
        """A forward failed: if a peer rank published a finding, stop with it instead."""
        if self.config.mode != "raise" or not isinstance(exc, RuntimeError) or hasattr(exc, "code"):
            return
        found = self.agreement.peer_findings(self.reporter.raised, wait_s=min(self.config.timeout_s, 5.0))
        if found:
            self.reporter.raise_as_own(found[0], exc)


_active: Optional[Guard] = None
