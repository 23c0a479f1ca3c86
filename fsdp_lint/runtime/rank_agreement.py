"""Cross-rank agreement through the c10d store, never through a collective.

Ranks may already have diverged when the guard looks (that is often what it diagnoses), so a
collective of the guard's own could hang. The store is reachable whatever the ranks are doing,
and every wait on it is bounded. Keys carry the torchelastic run id and restart count so that an
elastic restart never reads the previous attempt's keys.

A rank that stops with a rank-local finding publishes it before raising; a peer whose next
forward then fails inside a collective reads it and raises the same error. Under plain
``init_process_group`` rank 0 hosts the TCPStore, and a peer's collective fails only once rank
0's process is gone, taking the store with it: so the store host also appends its findings to a
file in the temp dir, named after MASTER_ADDR/MASTER_PORT, which peers on the same machine read
when the store is unreachable. Not covered: peers on other machines in that setup (they see the
backend's "Connection closed"; under torchrun the agent hosts the store and they are covered),
and peers blocked in an NCCL collective, which notices a dead peer only at its own timeout.
"""

import json
import os
import tempfile
import threading
import time
import warnings
import zlib
from datetime import timedelta
from typing import Any, Dict, List, Optional, Set

from fsdp_lint.runtime import torch_shims
from fsdp_lint.runtime.reporter import Finding, current_rank


def _namespace() -> str:
    run_id = os.environ.get("TORCHELASTIC_RUN_ID", "local")
    restart = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
    return f"fsdp_lint/{run_id}/{restart}/"


# Per process, not per enable(): the store outlives a guard, and the n-th exchange of every
# rank must pair up however often the guard was switched off and on in between.
_lock = threading.Lock()
_exchanges = 0
_seen: Set[int] = set()


def _process_start() -> float:
    """When this process started (Linux), else now: no rank can publish before every rank started."""
    try:
        return os.stat(f"/proc/{os.getpid()}").st_ctime
    except OSError:
        return time.time()


_STARTED = _process_start()


def _hosts_store() -> bool:
    """With plain ``init_process_group`` rank 0 hosts the TCPStore; under torchrun the agent does."""
    return current_rank() == 0 and os.environ.get("TORCHELASTIC_USE_AGENT_STORE", "").lower() != "true"


def _fallback_path() -> Optional[str]:
    """Where the store host also leaves its findings: the store dies with its process."""
    addr, port = os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT")
    if not (addr and port):
        return None
    name = f"fsdp_lint_{addr}_{port}_{zlib.crc32(_namespace().encode())}.jsonl"
    return os.path.join(tempfile.gettempdir(), name)


def _fallback_findings() -> List[Finding]:
    """Findings the (now dead) store host left on this machine for this run, not an earlier one.

    An earlier run on the same port left lines too: only those written after this process
    started count.
    """
    path = _fallback_path()
    try:
        if path is None or os.path.getmtime(path) < _STARTED:
            return []
        with open(path) as handle:
            entries = [json.loads(line) for line in handle if line.strip()]
        return [Finding.from_json(e["finding"]) for e in entries if e["time"] >= _STARTED]
    except (OSError, ValueError, KeyError):
        return []


class RankAgreement:
    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._warned_timeout = False

    def _store(self) -> Optional[Any]:
        try:
            return torch_shims.default_store()
        except Exception:  # no store (single process, or a backend without one): nothing to share
            return None

    def publish(self, finding: Finding) -> None:
        """Make a rank-local error visible to the other ranks before this rank raises it."""
        store = self._store()
        if store is None:
            return
        ns = _namespace()
        try:
            index = store.add(ns + "findings", 1) - 1
            with _lock:
                _seen.add(index)
            store.set(f"{ns}finding/{index}", json.dumps(finding.to_json()))
        except Exception as exc:  # the store is gone: the peers will see FSDP's own error instead
            warnings.warn(f"fsdp-lint: could not publish {finding.code} to the other ranks: {exc}", RuntimeWarning)
        path = _fallback_path() if _hosts_store() else None
        if path is not None:
            try:
                with open(path, "a") as handle:
                    handle.write(json.dumps({"time": time.time(), "finding": finding.to_json()}) + "\n")
            except OSError:  # no writable temp dir: peers on this host see FSDP's own error
                pass

    def peer_findings(self, known: Set[Any], wait_s: float = 0.0) -> List[Finding]:
        """Findings other ranks published that this rank has not raised itself, oldest first."""
        store = self._store()
        if store is None:
            return []
        ns = _namespace()
        found = []
        try:
            count = store.add(ns + "findings", 0)
            for index in range(count):
                with _lock:
                    if index in _seen:
                        continue
                key = f"{ns}finding/{index}"
                store.wait([key], timedelta(seconds=max(wait_s, 1.0)))
                finding = Finding.from_json(json.loads(store.get(key)))
                with _lock:
                    _seen.add(index)
                if (finding.code, finding.key) not in known:
                    found.append(finding)
        except Exception:  # the store died with its host: read what the host left on this machine
            found += [f for f in _fallback_findings() if f.rank != current_rank() and (f.code, f.key) not in known]
        return found

    def exchange(self, record: Dict[str, Any]) -> List[Dict[str, Any]]:
        """Each rank's record for this root's first forward; only our own after a timeout.

        Every rank calls this at the same point of the program (the first forward of each root,
        before FSDP's first all-gather), so the n-th exchange of each rank pairs up.
        """
        import torch.distributed as dist

        store = self._store()
        if store is None:
            return [record]
        global _exchanges
        with _lock:
            _exchanges += 1
            number = _exchanges
        prefix = f"{_namespace()}first_forward/{number}/"
        world = dist.get_world_size()
        keys = [f"{prefix}{rank}" for rank in range(world)]
        try:
            store.set(keys[dist.get_rank()], json.dumps(record))
            store.wait(keys, timedelta(seconds=self.timeout_s))
            return [json.loads(store.get(key)) for key in keys]
        except Exception as exc:
            self._warn_absent(store, keys, exc)
            return [record]

    def _warn_absent(self, store: Any, keys: List[str], exc: Exception) -> None:
        """Name the ranks that never arrived: dead, stuck elsewhere, or slower than the bound."""
        if self._warned_timeout:
            return
        self._warned_timeout = True
        try:
            absent = [rank for rank, key in enumerate(keys) if not store.check([key])]
            who = f"rank(s) {absent} did not"
        except Exception:  # the store itself is gone: its host (rank 0 or the agent) died
            who = f"the store is unreachable ({exc}), so not every rank could"
        warnings.warn(
            f"fsdp-lint: {who} reach the first forward within {self.timeout_s:.0f} s (dead, stuck "
            "elsewhere, or slower than $FSDP_LINT_RUNTIME_TIMEOUT); cross-rank checks skipped. If a "
            "rank died, the others fail or hang in FSDP's first all-gather.",
            RuntimeWarning,
        )
