"""Cross-rank agreement through the c10d store, never through a collective.

Ranks may already have diverged when the guard looks (that is often what it diagnoses), so a
collective of the guard's own could hang. The store is reachable whatever the ranks are doing,
and every wait on it is bounded. Keys carry the torchelastic run id and restart count so that an
elastic restart never reads the previous attempt's keys.

Meetings. Where every rank of a group must arrive at the same call (the first forward of a
root, a collective-backed call, a save of shards), each rank counts itself in on the n-th
meeting of the group, keyed by what it is entering; the last to arrive completes it, so the
common case costs one or two store round trips. A rank that has to wait says where it waits
(``at/<rank>``) and, after a few tenths of a second, asks the absent ranks' watchers
(``watcher.py``) where they are. It concludes that a rank will not come when that rank waits
at another call of the same group, or sits in a collective (the same line, seconds apart), or
has stopped answering; a rank that is still running its own code is waited for (up to the
bound for the first forward, up to the process group's timeout otherwise), because plain
torch would wait for it too. Nothing is concluded from a guess.

Findings. A rank that stops with a rank-local finding publishes it before raising; every other
rank's watcher sees it and stops that rank too (``watcher.py``), and a peer whose forward
fails inside a collective reads it and raises the same error. Under plain ``init_process_group``
rank 0 hosts the TCPStore, which dies with rank 0: so the store host also appends its findings
to a file in the temp dir, named after MASTER_ADDR/MASTER_PORT, which peers on the same machine
read when the store is unreachable.
"""

import json
import os
import tempfile
import threading
import time
import warnings
import zlib
from datetime import timedelta
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from fsdp_lint.runtime import location, torch_shims
from fsdp_lint.runtime.reporter import Finding, current_rank

_FIRST_SLICE_S = 0.05  # a meeting slower than this starts looking at where the others are
_TICK_S = 0.2  # how often a waiting rank looks again
_ASK_EVERY_S = 1.0  # how often it asks an absent rank's watcher
_BLOCKED_S = 2.0  # in a collective at the same line this long: it will not come
_STORE_TIMEOUT_S = 10.0  # any single store operation of the guard


def _namespace() -> str:
    run_id = os.environ.get("TORCHELASTIC_RUN_ID", "local")
    restart = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
    return f"fsdp_lint/{run_id}/{restart}/"


# Per process, not per enable(): the store outlives a guard, and the n-th meeting of every
# rank must pair up however often the guard was switched off and on in between.
_lock = threading.Lock()
_sequence: Dict[str, int] = {}
_last_key: Dict[str, Tuple[int, str]] = {}  # group -> its last meeting's number and counter key
_seen: Set[int] = set()
_generations = 0  # guards created by this process: the n-th guard of each rank pairs up
_watcher_clients: Dict[int, Tuple[Any, Any]] = {}


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


def _fallback_findings(generation: int) -> List[Finding]:
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
        return [Finding.from_json(e["finding"]) for e in entries
                if e["time"] >= _STARTED and e.get("generation", generation) == generation]
    except (OSError, ValueError, KeyError):
        return []


def group_id(ranks: Sequence[int]) -> str:
    text = ",".join(map(str, ranks))
    return text if len(ranks) <= 8 else f"{len(ranks)}:{zlib.crc32(text.encode()):08x}"


class Meeting(NamedTuple):
    """How a meeting ended: everyone came, or who did not and where they are instead."""

    complete: bool
    records: Dict[int, Any]  # each present rank's payload (payload meetings only)
    absent: Dict[int, str]  # rank -> where it is instead, in words
    reason: str  # complete | diverged | timeout | unchecked


_COMPLETE = Meeting(True, {}, {}, "complete")


class RankAgreement:
    def __init__(self, timeout_s: float, should_stop: Callable[[], None] = lambda: None) -> None:
        global _generations
        with _lock:
            _generations += 1
            # A finding belongs to the guard that published it: a peer that caught it and went
            # on with a new guard (a test harness) must not stop the next guard's run with it.
            self.generation = _generations
        self.timeout_s = timeout_s
        self.should_stop = should_stop  # raises a peer's finding once the watcher has seen one
        self._warned: Set[str] = set()

    # --- store access ---------------------------------------------------------------------

    def _store(self) -> Optional[Any]:
        try:
            return torch_shims.default_store()
        except Exception:  # no store (single process, or a backend without one): nothing to share
            return None

    def client(self) -> Optional[Any]:
        """The store for this thread's meetings: torch's own connection (every operation of the
        guard on it returns at once or within an explicit bound)."""
        return self._store()

    def client_for_watcher(self) -> Optional[Any]:
        """A connection of the watcher's own, so that its polls never wait behind torch's use of
        the store (NCCL waits on it for its communicator). One per process: opening one can
        take seconds."""
        store = self._store()
        if store is None:
            return None
        with _lock:
            known = _watcher_clients.get(id(store))
            if known is not None and known[0] is store:
                return known[1]
        try:
            client = store.clone()
            client.set_timeout(timedelta(seconds=_STORE_TIMEOUT_S))
        except Exception:  # a store without clone(): share it
            client = store
        with _lock:
            _watcher_clients[id(store)] = (store, client)
        return client

    # --- findings ---------------------------------------------------------------------------

    def publish(self, finding: Finding) -> None:
        """Make a rank-local error visible to the other ranks before this rank raises it."""
        store = self.client()
        if store is None:
            return
        ns = _namespace()
        try:
            index = store.add(ns + "findings", 1) - 1
            with _lock:
                _seen.add(index)
            store.set(f"{ns}finding/{index}", json.dumps({**finding.to_json(), "generation": self.generation}))
        except Exception as exc:  # the store is gone: the peers will see FSDP's own error instead
            warnings.warn(f"fsdp-lint: could not publish {finding.code} to the other ranks: {exc}", RuntimeWarning)
        path = _fallback_path() if _hosts_store() else None
        if path is not None:
            try:
                with open(path, "a") as handle:
                    entry = {"time": time.time(), "generation": self.generation, "finding": finding.to_json()}
                    handle.write(json.dumps(entry) + "\n")
            except OSError:  # no writable temp dir: peers on this host see FSDP's own error
                pass

    def findings_count(self, store: Any) -> int:
        return int(store.add(_namespace() + "findings", 0))


    def peer_findings(self, known: Set[Any], wait_s: float = 0.0, store: Any = None) -> List[Finding]:
        """Findings other ranks published that this rank has not raised itself, oldest first."""
        store = store if store is not None else self.client()
        if store is None:
            return []
        ns = _namespace()
        found = []
        try:
            count = self.findings_count(store)
            for index in range(count):
                with _lock:
                    if index in _seen:
                        continue
                key = f"{ns}finding/{index}"
                store.wait([key], timedelta(seconds=max(wait_s, 1.0)))
                data = json.loads(store.get(key))
                finding = Finding.from_json(data)
                with _lock:
                    _seen.add(index)
                if data.get("generation", self.generation) != self.generation:
                    continue
                if (finding.code, finding.key) not in known and finding.rank != current_rank():
                    found.append(finding)
        except Exception:  # the store died with its host: read what the host left on this machine
            found += [f for f in _fallback_findings(self.generation)
                      if f.rank != current_rank() and (f.code, f.key) not in known]
        return found

    # --- meetings ---------------------------------------------------------------------------

    def meet(self, kind: str, ranks: Sequence[int], payload: Any = None, patient: bool = True) -> Meeting:
        """Wait until every rank of ``ranks`` reached its own n-th meeting of this group as ``kind``.

        ``payload`` (JSON) is handed to every rank. ``patient``: wait for ranks that are still
        running their own code as long as the process group would (else: ``timeout_s``).
        A meeting that diverged does not count, so that ranks that go on after the finding
        (they caught it) keep pairing up; one that timed out does, so that a late rank finds
        it complete and goes on.
        """
        import torch.distributed as dist

        me = current_rank()
        ranks = sorted(set(ranks))
        store = self.client()
        if store is None or len(ranks) < 2 or me not in ranks:
            return _COMPLETE._replace(records={me: payload})
        gid = group_id(ranks)
        with _lock:
            number = _sequence[gid] = _sequence.get(gid, 0) + 1
        ns = _namespace()
        base = f"{ns}meet/{gid}/{number}/{kind}"
        if payload is not None:
            store.set(f"{base}/{me}", json.dumps(payload))
        outcome = _COMPLETE
        try:
            if store.add(base, 1) < len(ranks):
                here = {"gid": gid, "n": number, "kind": kind, "where": location.here()}
                store.set(f"{ns}at/{me}", json.dumps(here))
                try:
                    outcome = self._wait(store, base, ranks, here, patient, _group_timeout(dist))
                finally:
                    store.set(f"{ns}at/{me}", "{}")
            else:  # the last to arrive: everyone has left the previous meeting of this group
                self._forget(store, gid, number)
        except BaseException:
            self._roll_back(store, gid, number, base)
            raise
        with _lock:
            _last_key[gid] = (number, base)
        if outcome.complete or outcome.reason == "timeout":
            present = ranks if outcome.complete else [me]
            records = self._records(store, base, present) if payload is not None else {}
            return outcome._replace(records=records or {me: payload})
        self._roll_back(store, gid, number, base)
        return outcome._replace(records={me: payload})

    def _roll_back(self, store: Any, gid: str, number: int, base: str) -> None:
        """A meeting that did not complete does not count: ranks that go on keep pairing up."""
        with _lock:
            if _sequence.get(gid) == number:
                _sequence[gid] = number - 1
        try:
            store.add(base, -1)
        except Exception:
            pass

    def _records(self, store: Any, base: str, ranks: Sequence[int]) -> Dict[int, Any]:
        return {rank: json.loads(value) for rank, value in zip(ranks, store.multi_get([f"{base}/{r}" for r in ranks]))}

    def _forget(self, store: Any, gid: str, number: int) -> None:
        """Drop the previous meeting's counter (long runs meet every step); only its last arrival may."""
        with _lock:
            previous = _last_key.get(gid)
        if previous is not None and previous[0] == number - 1:
            store.delete_key(previous[1])

    def _wait(self, store: Any, base: str, ranks: Sequence[int], here: Dict[str, Any], patient: bool,
              group_timeout_s: float) -> Meeting:
        me = current_rank()
        start = time.monotonic()
        bound = max(self.timeout_s, group_timeout_s) if patient else self.timeout_s
        sleep, next_look = 0.0002, start + _FIRST_SLICE_S
        views: Dict[int, _View] = {rank: _View() for rank in ranks if rank != me}
        while True:
            time.sleep(sleep)
            sleep = min(sleep * 2, 0.01)
            if int(store.add(base, 0)) >= len(ranks):
                return _COMPLETE
            now = time.monotonic()
            if now < next_look:
                continue
            next_look = now + _TICK_S
            verdict = self._judge(store, here, views, now - start, bound, patient)
            if verdict is not None and int(store.add(base, 0)) < len(ranks):
                return verdict
            self.should_stop()

    def _judge(self, store: Any, here: Dict[str, Any], views: Dict[int, "_View"], waited: float, bound: float,
               patient: bool) -> Optional[Meeting]:
        """Who has not come, and whether the evidence says they will not: None to keep waiting."""
        ns = _namespace()
        now = time.monotonic()
        for rank, view in views.items():
            view.read(store, ns, rank, now)
        absent = {rank: view for rank, view in views.items() if not view.at_meeting(here)}
        if not absent:
            return None
        for rank, view in absent.items():
            if view.asked_at is None or now - view.asked_at >= _ASK_EVERY_S:
                view.ask(store, ns, rank, now)
        timed_out = waited >= self.timeout_s
        if any(view.diverged(here) for view in absent.values()) or any(view.blocked() for view in absent.values()):
            return Meeting(False, {}, {rank: view.text() for rank, view in absent.items()}, "diverged")
        if timed_out and any(not view.guarded for view in absent.values()):
            return Meeting(False, {}, {r: v.text() for r, v in absent.items()}, "unchecked")
        if timed_out and any(view.desynchronised(here) for view in absent.values()):
            return Meeting(False, {}, {r: v.text() for r, v in absent.items()}, "unchecked")
        if timed_out and not patient:
            return Meeting(False, {}, {rank: view.text() for rank, view in absent.items()}, "timeout")
        if timed_out and all(not view.running(now) for view in absent.values()):
            return Meeting(False, {}, {rank: view.text() for rank, view in absent.items()}, "diverged")
        if waited >= bound:
            return Meeting(False, {}, {rank: view.text() for rank, view in absent.items()}, "timeout")
        return None

    # --- the first forward ------------------------------------------------------------------

    def exchange(self, record: Dict[str, Any]) -> Tuple[List[Dict[str, Any]], Meeting]:
        """Each rank's record for this root's first forward; only our own after a timeout.

        Every rank calls this at the same point of the program (the first forward of each root,
        before FSDP's first all-gather), so the n-th meeting of each rank pairs up.
        """
        import torch.distributed as dist

        if self.client() is None:
            return [record], _COMPLETE
        meeting = self.meet("first forward", range(dist.get_world_size()), record, patient=False)
        if meeting.reason in ("timeout", "unchecked"):
            self._warn_absent(meeting)
        return [meeting.records[rank] for rank in sorted(meeting.records)], meeting

    def _warn_absent(self, meeting: Meeting) -> None:
        """Name the ranks that never arrived: dead, stuck elsewhere, or slower than the bound."""
        if "first forward" in self._warned:
            return
        self._warned.add("first forward")
        where = "; ".join(meeting.absent.values())
        warnings.warn(
            f"fsdp-lint: rank(s) {sorted(meeting.absent)} did not reach the first forward within "
            f"{self.timeout_s:.0f} s ({where}); cross-rank checks skipped. If a rank died, the others "
            "fail or hang in FSDP's first all-gather.",
            RuntimeWarning,
        )


class _View:
    """What a waiting rank knows about one peer: its meeting record and its watcher's answers."""

    def __init__(self) -> None:
        self.guarded = False
        self.at: Dict[str, Any] = {}
        self.at_since = time.monotonic()
        self.answer: Dict[str, Any] = {}
        self.answers: List[Tuple[float, Dict[str, Any]]] = []
        self.asked: Optional[int] = None
        self.asked_at: Optional[float] = None

    def read(self, store: Any, ns: str, rank: int, now: float) -> None:
        keys = [f"{ns}at/{rank}", f"{ns}where/{rank}"]
        if not store.check(keys):  # its watcher never started: no guard on that rank (yet)
            return
        self.guarded = True
        at, answer = (json.loads(value or b"{}") for value in store.multi_get(keys))
        if at != self.at:
            self.at, self.at_since = at, now
        if answer and answer != self.answer and self.asked is not None and answer.get("asked", 0) >= self.asked:
            self.answer = answer
            self.answers.append((now, answer))

    def ask(self, store: Any, ns: str, rank: int, now: float) -> None:
        if self.guarded:
            self.asked, self.asked_at = int(store.add(f"{ns}ask/{rank}", 1)), now

    def at_meeting(self, here: Dict[str, Any]) -> bool:
        return all(self.at.get(field) == here[field] for field in ("gid", "n", "kind"))

    def diverged(self, here: Dict[str, Any]) -> bool:
        """It waits at another call of this group, at the same point: it cannot come."""
        return self.at.get("gid") == here["gid"] and self.at.get("n") == here["n"] and self.at.get("kind") != here["kind"]

    def desynchronised(self, here: Dict[str, Any]) -> bool:
        """It waits at another meeting number of this group for long: the guards disagree, not the program."""
        return self.at.get("gid") == here["gid"] and self.at.get("n") != here["n"] and (
            time.monotonic() - self.at_since >= _BLOCKED_S)

    def blocked(self) -> bool:
        """Two answers at least _BLOCKED_S apart put it in a collective at the same line."""
        if not self.answers or self.answers[-1][1].get("state") not in ("collective", "gone"):
            return False
        last_time, last = self.answers[-1]
        if last.get("state") == "gone":
            return True
        return any(
            last_time - when >= _BLOCKED_S and answer.get("state") == "collective" and answer.get("where") == last.get("where")
            for when, answer in self.answers
        )

    def running(self, now: float) -> bool:
        """Its last answer is recent and says it is running its own code: wait for it."""
        return bool(self.answers) and self.answers[-1][1].get("state") == "running" and (
            now - self.answers[-1][0] <= 2 * _ASK_EVERY_S + _TICK_S)

    def text(self) -> str:
        where = self.at.get("where") or self.answer.get("where") or "an unknown line"
        if self.at.get("kind"):
            return f"it waits in {self.at['kind']} at {where}"
        state = self.answer.get("state")
        if state == "collective":
            return f"it is blocked in a collective at {where}"
        if state == "running":
            return f"it is running at {where}"
        if state == "gone":
            return "its training thread has ended"
        if not self.guarded:
            return "it runs without the guard"
        return "it does not answer (dead, or stuck without releasing the GIL)"


def _group_timeout(dist: Any) -> float:
    """The default process group's collective timeout: how long plain torch would wait."""
    try:
        return float(dist.distributed_c10d._get_default_timeout(dist.get_backend()).total_seconds())
    except Exception:
        return 600.0
