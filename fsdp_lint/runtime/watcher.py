"""One thread per rank that keeps this rank in touch with the others while it trains.

Every 0.2 s it reads two counters in the store (one round trip). When another rank asks where
this rank is (a meeting it waits at, ``rank_agreement.py``), it answers with the training
thread's line and whether it sits in a collective. When this rank waits at a meeting, the
watcher judges from the others' answers whether they will come, and wakes it with the verdict. When another rank publishes a finding (raise
mode), this rank stops with it too, even when it is nowhere near a forward:

1. at once, the guard's next event on this rank raises it (each unit's forward, an optimizer
   step, a save, a load, a collective-backed call), and a meeting it waits at wakes up;
2. after a second without one, the training thread gets it as an asynchronous exception (it
   fires at its next Python line; a thread blocked inside a collective gets it when the
   collective returns, which on gloo is when the finding rank's process ends), and an NCCL
   process group is aborted so that a blocked collective returns.
"""

import ctypes
import json
import threading
import time
from typing import Any, Optional

from fsdp_lint.runtime import location
from fsdp_lint.runtime.rank_agreement import POLL_S, _namespace
from fsdp_lint.runtime.reporter import Finding, current_rank
from fsdp_lint.runtime_errors import FSDPContractError

ESCALATE_AFTER_S = 1.0


class Watcher(threading.Thread):
    def __init__(self, guard: Any) -> None:
        super().__init__(name="fsdp-lint-watcher", daemon=True)
        self.guard = guard
        self.rank = current_rank()
        self.stopped = threading.Event()
        self.store: Optional[Any] = None
        self._escalated = False
        self._lock = threading.Lock()

    def start_with_store(self) -> bool:
        """Announce this rank's guard in the store, then start; False when there is no store."""
        store = self.guard.agreement.client()
        if store is None:
            return False
        ns = _namespace()
        store.add(f"{ns}ask/{self.rank}", 0)
        store.add(f"{ns}findings", 0)
        store.set(f"{ns}where/{self.rank}", "{}")  # last: the others take its presence for "guarded"
        self.start()
        return True

    def stop(self) -> None:
        """Before the guard goes: no exception of this guard may reach the training thread later."""
        with self._lock:
            self.stopped.set()
            if self._escalated:
                _async_raise(self.guard.train_thread, None)

    def run(self) -> None:
        self.store = self.guard.agreement.client_for_watcher()
        ns = _namespace()
        keys = [f"{ns}ask/{self.rank}", f"{ns}findings"]
        answered, findings = -1, 0
        while not self.stopped.wait(POLL_S):
            try:
                asked, published = (int(value) for value in self.store.multi_get(keys))
            except Exception:  # the store died with its host: maybe it left its finding on this machine
                self._deliver(self.guard.agreement.peer_findings(self.guard.reporter.raised, store=self.store))
                self.stopped.wait(1.0)
                continue
            if asked != answered:
                answered = asked
                thread = self.guard.train_thread
                state, where = location.thread_state(thread)
                meeting = self.guard.agreement.waiting_at(thread)
                answer = {"asked": asked, "state": "meeting" if meeting else state, "where": where, "meeting": meeting}
                self.store.set(f"{ns}where/{self.rank}", json.dumps(answer))
            if published > findings:  # those of earlier guards are told apart by their generation
                findings = published
                self._deliver(self.guard.agreement.peer_findings(self.guard.reporter.raised, store=self.store))
            self.guard.agreement.judge_waiting(self.store, stop=self.guard.peer_stop is not None)
            self._escalate()

    def _deliver(self, found: Any) -> None:
        if found and self.guard.config.mode == "raise" and self.guard.peer_stop is None:
            self.guard.peer_stop = (found[0], time.monotonic())

    def _escalate(self) -> None:
        pending = self.guard.peer_stop
        if pending is None or self._escalated:
            return
        finding, since = pending
        if (finding.code, finding.key) in self.guard.reporter.raised or time.monotonic() - since < ESCALATE_AFTER_S:
            return
        with self._lock:
            if self.stopped.is_set():
                return
            self._escalated = True
            _abort_nccl()
            _async_raise(self.guard.train_thread, finding)


def _async_raise(thread_id: int, finding: Optional[Finding]) -> None:
    """Raise ``finding`` in another thread at its next Python line (None: cancel a pending one)."""
    if finding is None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.c_void_p(0))
        return
    message = finding.message(current_rank())

    def __init__(self: FSDPContractError) -> None:
        FSDPContractError.__init__(self, message, finding.code)
        self.finding = finding

    # The C API raises a class, not an instance: one made for this message.
    peer_error = type("FSDPContractError", (FSDPContractError,), {"__init__": __init__,
                                                                   "__module__": FSDPContractError.__module__})
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(peer_error))


def _abort_nccl() -> None:
    """A collective blocked on NCCL returns only when its communicator is aborted (gloo: when a peer dies)."""
    try:
        import torch.distributed as dist

        if "nccl" in str(dist.get_backend()):
            dist.distributed_c10d._abort_process_group()
    except Exception:
        pass
