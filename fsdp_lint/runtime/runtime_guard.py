"""The guard object: settings, reporter, checks, patches and watcher of one ``enable()``."""

import atexit
import os
import socket
import threading
import warnings
import weakref
from typing import Any, Dict, List, Optional

import torch
from torch.utils.weak import WeakIdKeyDictionary

from fsdp_lint.runtime import output, patches, torch_shims
from fsdp_lint.runtime.config import Config
from fsdp_lint.runtime.dispatch import PASS_THROUGH, Dispatcher, load_check_classes
from fsdp_lint.runtime.rank_agreement import POLL_S, RankAgreement
from fsdp_lint.runtime.watcher import Watcher
from fsdp_lint.runtime.reporter import Finding, Reporter, current_rank


class Guard:
    def __init__(self, config: Config) -> None:
        torch_shims.resolve()
        self.config = config
        self.agreement = RankAgreement(config.timeout_s, self.check_peer)
        self.reporter = Reporter(config, self.agreement)
        checks = [cls(self) for cls in load_check_classes() if not config.ignores(cls.code)]
        self.dispatcher = Dispatcher(checks)
        self.patcher = patches.Patcher()
        self.facts: Dict[str, Any] = {}
        # original parameter -> the FSDPParam whose DTensor replaced it (id-keyed: tensors
        # cannot be dict keys by value)
        self.replaced = WeakIdKeyDictionary()
        # A peer's finding this rank must stop with, and since when (set by the watcher).
        self.peer_stop: Optional[tuple] = None
        # The thread that trains: the watcher reports its line and stops it.
        self.train_thread = threading.get_ident()
        # True during a root's first forward: each unit's forward is followed (FSD108's order).
        self.reaching = False
        self.watcher: Optional[Any] = None
        self._watcher_lock = threading.Lock()
        # unit (FSDPParamGroup) -> the hooks on its children (patches._hook_unit_children)
        self.unit_child_hooks: "weakref.WeakKeyDictionary[Any, list]" = weakref.WeakKeyDictionary()

    def install(self) -> None:
        try:
            patches.install(self)
            if not self.config.verbose:
                output.install(self.patcher, self)
        except BaseException:
            self.patcher.undo()
            raise
        atexit.register(self._stop_watcher)
        self.ensure_watcher()

    def uninstall(self) -> None:
        atexit.unregister(self._stop_watcher)
        self._stop_watcher()
        self.patcher.undo()

    def _stop_watcher(self) -> None:
        """Also at exit: a watcher still inside a store call while the interpreter ends can abort it."""
        if self.watcher is not None:
            self.watcher.stop()
            if self.watcher is not threading.current_thread():
                self.watcher.join(timeout=2 * POLL_S + 1.0)

    def ensure_watcher(self) -> None:
        """Start the watcher once the process group exists (enable() may come before it)."""
        if self.watcher is not None or torch_shims.default_store() is None:
            return
        with self._watcher_lock:
            if self.watcher is None:
                watcher = Watcher(self)
                if watcher.start_with_store():
                    self.watcher = watcher

    def check_peer(self) -> None:
        """A safe point: if another rank's finding is pending, stop this rank with it."""
        pending = self.peer_stop
        if pending is not None and (pending[0].code, pending[0].key) not in self.reporter.raised:
            self.reporter.raise_as_own(pending[0])

    def root_init(self, state: Any) -> None:
        """First forward of a root; a failure of the guard's own machinery here never stops training."""
        self.train_thread = threading.get_ident()
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
        self.ensure_watcher()
        root = modules[0]
        states: List[Any] = []
        for module in root.modules():
            found = torch_shims.state_of(module)
            if found is not None and not any(found is s for s in states):
                states.append(found)
        for unit in states:  # only the root's own modules are called on their own
            if unit is not state:
                for group in torch_shims.param_groups(unit):
                    for handle in self.unit_child_hooks.pop(group, ()):
                        handle.remove()
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
        records, meeting = self.agreement.exchange(record)
        if meeting.reason == "diverged":
            self.dispatcher.emit("on_ranks_diverged", "the first forward of the model", meeting)
        self.dispatcher.emit("on_ranks_agreed", records)
        agreed = [Finding.from_json(f) for each in sorted(records, key=lambda r: r["rank"]) for f in each["findings"]]
        if agreed:
            own = [f for f in findings if (f.code, f.key) == (agreed[0].code, agreed[0].key)]
            self.reporter.raise_as_own((own or agreed)[0])

    def after_failure(self, exc: BaseException) -> None:
        """A unit's call failed: explain torch's error if a check can, or stop with a peer's finding."""
        if isinstance(exc, RuntimeError) and not hasattr(exc, "code"):
            self.dispatcher.emit("on_mixed_tensors", exc)
        if self.config.mode != "raise" or not isinstance(exc, RuntimeError) or hasattr(exc, "code"):
            return
        if self.peer_stop is not None:
            self.reporter.raise_as_own(self.peer_stop[0], exc)
        found = self.agreement.peer_findings(self.reporter.raised, wait_s=min(self.config.timeout_s, 5.0))
        if found:
            self.reporter.raise_as_own(found[0], exc)


_active: Optional[Guard] = None
