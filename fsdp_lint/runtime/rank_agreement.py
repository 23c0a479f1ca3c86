"""Cross-rank agreement through the c10d store, never through a collective.

Ranks may already have diverged when the guard looks (that is often what it diagnoses), so a
collective of the guard's own could hang. The store is reachable whatever the ranks are doing,
and every wait on it is bounded. Keys carry the torchelastic run id and restart count so that an
elastic restart never reads the previous attempt's keys.

Meetings. Where every rank of a group must arrive at the same call (the first forward of a
root, a collective-backed call, a save of shards), each rank says what it enters and counts
itself in on the group's n-th meeting; the last to arrive compares the calls and wakes the
others (``RankAgreement.meet``). While a rank waits, its watcher (``watcher.py``) asks the
absent ranks' watchers where they are, and wakes it with a verdict when a rank will not
come: it entered another call of the group, or sits in a collective (the same line, seconds
apart), or has stopped answering. A rank that is still running its own code is waited for (up
to the bound for the first forward, up to the process group's timeout otherwise), because
plain torch would wait for it too. Nothing is concluded from a guess.

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
POLL_S = 0.2  # how often each rank's watcher looks at the store
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
_seen: Set[int] = set()
_generations = 0  # guards created by this process: the n-th guard of each rank pairs up
_clients: Dict[Tuple[int, str], Tuple[Any, Any]] = {}  # (store, use) -> (store, connection of the guard's own)


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
        self.waiting: Dict[int, _Waiting] = {}  # thread -> the meeting it waits at

    # --- store access ---------------------------------------------------------------------

    def _store(self) -> Optional[Any]:
        try:
            return torch_shims.default_store()
        except Exception:  # no store (single process, or a backend without one): nothing to share
            return None

    def client(self) -> Optional[Any]:
        """The store for this thread's meetings: a connection of the guard's own once the watcher
        has opened it (a meeting blocks on it), torch's own until then."""
        store = self._store()
        if store is None:
            return None
        with _lock:
            own = _clients.get((id(store), "meetings"))
        return own[1] if own is not None and own[0] is store else store

    def client_for_watcher(self) -> Optional[Any]:
        """Open (once per process: it can take seconds) the watcher's connection and the meetings'.

        Their own, so that the watcher's polls never wait behind a blocked meeting or torch's use
        of the store (NCCL waits on it for its communicator). Called from the watcher's thread.
        """
        store = self._store()
        if store is None:
            return None
        for use in ("meetings", "watcher"):
            with _lock:
                known = _clients.get((id(store), use))
            if known is not None and known[0] is store:
                continue
            try:
                client = store.clone()
                client.set_timeout(timedelta(seconds=_STORE_TIMEOUT_S if use == "watcher" else 3600.0))
            except Exception:  # a store without clone(): share it
                client = store
            with _lock:
                _clients[(id(store), use)] = (store, client)
        return _clients[(id(store), "watcher")][1]

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

        Each rank writes what it enters (``entered/<group>/<rank>``: meeting number, call, line)
        and counts itself in on the group's arrival counter; the arrival that completes the count
        compares what everyone entered and wakes the others through their queues
        (``wake/<group>/<rank>``) with the outcome. A waiting rank blocks on its queue, which its
        watcher also fills with a verdict once the evidence says the others will not come
        (``judge_waiting``). Nothing polls, and no key accumulates: three round trips to the
        store when everyone comes.
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
        if payload is not None:
            store.set(f"{ns}record/{gid}/{number}/{me}", json.dumps(payload))
        here = {"gid": gid, "n": number, "kind": kind, "where": location.here()}
        store.set(f"{ns}entered/{gid}/{me}", json.dumps(here))
        try:
            if store.add(f"{ns}arrivals/{gid}", 1) >= number * len(ranks):
                outcome = self._complete(store, here, ranks)
            else:
                outcome = self._sleep(store, _Waiting(here, ranks, patient, self, _group_timeout(dist)))
        except BaseException:
            self._roll_back(store, gid, number)
            raise
        if outcome.complete or outcome.reason == "timeout":
            present = ranks if outcome.complete else [me]
            records = self._records(store, gid, number, present) if payload is not None else {}
            return outcome._replace(records=records or {me: payload})
        self._roll_back(store, gid, number)
        return outcome._replace(records={me: payload})

    def _complete(self, store: Any, here: Dict[str, Any], ranks: Sequence[int]) -> Meeting:
        """The last arrival: did everyone enter the same call? Wake the others with the answer."""
        ns, me = _namespace(), current_rank()
        entered = [json.loads(value) for value in store.multi_get([f"{ns}entered/{here['gid']}/{r}" for r in ranks])]
        # A record further on belongs to a rank that passed this meeting after waiting out its bound.
        calls = {rank: record for rank, record in zip(ranks, entered) if record["n"] == here["n"]}

        def outcome_of(rank: int) -> Meeting:
            absent = {other: f"it waits in {record['kind']} at {record['where'] or 'an unknown line'}"
                      for other, record in calls.items() if record["kind"] != calls[rank]["kind"]}
            return Meeting(False, {}, absent, "diverged") if absent else _COMPLETE

        for rank in ranks:
            if rank != me:
                outcome = outcome_of(rank)
                wake = {"n": here["n"], "reason": outcome.reason, "absent": outcome.absent}
                store.queue_push(f"{ns}wake/{here['gid']}/{rank}", json.dumps(wake))
        return outcome_of(me)

    def _sleep(self, store: Any, waiting: "_Waiting") -> Meeting:
        """Block until the last arrival or this rank's watcher wakes this rank; what the wake says."""
        ns, me, here = _namespace(), current_rank(), waiting.here
        with _lock:
            self.waiting[threading.get_ident()] = waiting
        try:
            while True:
                try:
                    wake = json.loads(store.queue_pop(f"{ns}wake/{here['gid']}/{me}"))
                except Exception:  # the store's own timeout: no watcher judged (it could not start)
                    wake = {"n": here["n"], "reason": "timeout", "absent": {}}
                if wake["n"] == here["n"]:
                    break  # else: the second wake of an earlier meeting (judged as it completed)
        finally:
            with _lock:
                self.waiting.pop(threading.get_ident(), None)
        if wake["reason"] == "complete":
            return _COMPLETE
        if wake["reason"] == "stop":
            self.should_stop()
            return Meeting(False, {}, {}, "unchecked")
        return Meeting(False, {}, {int(rank): text for rank, text in wake["absent"].items()}, wake["reason"])

    def waiting_at(self, thread_id: int) -> Optional[str]:
        """The call a thread of this rank waits at in a meeting, if it does."""
        with _lock:
            waiting = self.waiting.get(thread_id)
        return waiting.here["kind"] if waiting is not None else None

    def judge_waiting(self, store: Any, stop: bool = False) -> None:
        """Run by the watcher: wake this rank's waiting meetings once the evidence (or a peer's finding) says so."""
        now, ns, me = time.monotonic(), _namespace(), current_rank()
        with _lock:
            waiting = list(self.waiting.values())
        for meeting in waiting:
            if meeting.woken:
                continue
            if stop:
                found: Optional[Meeting] = Meeting(False, {}, {}, "stop")
            elif now - meeting.start < _FIRST_SLICE_S:
                continue
            else:
                found = self._judge(store, meeting, now)
            if found is not None:
                meeting.woken = True
                wake = {"n": meeting.here["n"], "reason": found.reason, "absent": found.absent}
                store.queue_push(f"{ns}wake/{meeting.here['gid']}/{me}", json.dumps(wake))

    def _judge(self, store: Any, meeting: "_Waiting", now: float) -> Optional[Meeting]:
        """Who has not come, and whether the evidence says they will not: None to keep waiting."""
        ns, here, views = _namespace(), meeting.here, meeting.views
        waited = now - meeting.start
        for rank, view in views.items():
            view.read(store, ns, here["gid"], rank, now)
        absent = {rank: view for rank, view in views.items() if not view.arrived(here)}
        if not absent:
            return None
        for rank, view in absent.items():
            if view.asked_at is None or now - view.asked_at >= _ASK_EVERY_S:
                view.ask(store, ns, rank, now)
        timed_out = waited >= self.timeout_s
        texts = {rank: view.text(here) for rank, view in absent.items()}
        if any(view.diverged(here) or view.blocked() for view in absent.values()):
            return Meeting(False, {}, texts, "diverged")
        if timed_out and any(not view.guarded or view.desynchronised(here) for view in absent.values()):
            return Meeting(False, {}, texts, "unchecked")
        if timed_out and not meeting.patient:
            return Meeting(False, {}, texts, "timeout")
        if timed_out and all(not view.running(now) for view in absent.values()):
            return Meeting(False, {}, texts, "diverged")
        if waited >= meeting.bound:
            return Meeting(False, {}, texts, "timeout")
        return None

    def _roll_back(self, store: Any, gid: str, number: int) -> None:
        """A meeting that did not complete does not count: ranks that go on keep pairing up."""
        with _lock:
            if _sequence.get(gid) == number:
                _sequence[gid] = number - 1
        try:
            store.add(f"{_namespace()}arrivals/{gid}", -1)
        except Exception:
            pass

    def _records(self, store: Any, gid: str, number: int, ranks: Sequence[int]) -> Dict[int, Any]:
        keys = [f"{_namespace()}record/{gid}/{number}/{rank}" for rank in ranks]
        return {rank: json.loads(value) for rank, value in zip(ranks, store.multi_get(keys))}

    # --- the first forward ------------------------------------------------------------------

    def exchange(self, record: Dict[str, Any]) -> Tuple[List[Dict[str, Any]], Meeting]:
        """Each rank's record for this root's first forward; only our own after a timeout.

        Every rank calls this at the same point of the program (the first forward of each root,
        before FSDP's first all-gather), so the n-th meeting of each rank pairs up.
        """
        import torch.distributed as dist

        if self.client() is None:
            return [record], _COMPLETE
        meeting = self.meet("its first forward", range(dist.get_world_size()), record, patient=False)
        if meeting.reason in ("timeout", "unchecked"):
            self._warn_absent(meeting)
        return [meeting.records[rank] for rank in sorted(meeting.records)], meeting

    def _warn_absent(self, meeting: Meeting) -> None:
        """Name the ranks that never arrived: dead, stuck elsewhere, or slower than the bound."""
        if "its first forward" in self._warned:
            return
        self._warned.add("its first forward")
        where = "; ".join(meeting.absent.values())
        warnings.warn(
            f"fsdp-lint: rank(s) {sorted(meeting.absent)} did not reach the first forward within "
            f"{self.timeout_s:.0f} s ({where}); cross-rank checks skipped. If a rank died, the others "
            "fail or hang in FSDP's first all-gather.",
            RuntimeWarning,
        )


class _Waiting:
    """A meeting this rank waits at, as its watcher judges it."""

    def __init__(self, here: Dict[str, Any], ranks: Sequence[int], patient: bool, agreement: "RankAgreement",
                 group_timeout_s: float) -> None:
        self.here, self.patient, self.woken = here, patient, False
        self.start = time.monotonic()
        self.bound = max(agreement.timeout_s, group_timeout_s) if patient else agreement.timeout_s
        self.views = {rank: _View() for rank in ranks if rank != current_rank()}


class _View:
    """What a waiting rank knows about one peer: what it entered last in this group, its watcher's answers."""

    def __init__(self) -> None:
        self.guarded = False
        self.entered: Dict[str, Any] = {}
        self.entered_since = time.monotonic()
        self.answer: Dict[str, Any] = {}
        self.answers: List[Tuple[float, Dict[str, Any]]] = []
        self.asked: Optional[int] = None
        self.asked_at: Optional[float] = None

    def read(self, store: Any, ns: str, gid: str, rank: int, now: float) -> None:
        where_key, entered_key = f"{ns}where/{rank}", f"{ns}entered/{gid}/{rank}"
        if not store.check([where_key]):  # its watcher never started: no guard on that rank (yet)
            return
        self.guarded = True
        keys = [where_key, entered_key] if store.check([entered_key]) else [where_key]
        values = [json.loads(value or b"{}") for value in store.multi_get(keys)]
        answer, entered = values[0], (values[1] if len(values) > 1 else {})
        if entered != self.entered:
            self.entered, self.entered_since = entered, now
        if answer and answer != self.answer and self.asked is not None and answer.get("asked", 0) >= self.asked:
            self.answer = answer
            self.answers.append((now, answer))

    def ask(self, store: Any, ns: str, rank: int, now: float) -> None:
        if self.guarded:
            self.asked, self.asked_at = int(store.add(f"{ns}ask/{rank}", 1)), now

    def arrived(self, here: Dict[str, Any]) -> bool:
        return self.entered.get("n") == here["n"] and self.entered.get("kind") == here["kind"]

    def diverged(self, here: Dict[str, Any]) -> bool:
        """It entered another call of this group at the same point: it cannot come."""
        return self.entered.get("n") == here["n"] and self.entered.get("kind") != here["kind"]

    def desynchronised(self, here: Dict[str, Any]) -> bool:
        """It is further on in this group's meetings, for long: the guards disagree, not the program."""
        return self.entered.get("n", 0) > here["n"] and time.monotonic() - self.entered_since >= _BLOCKED_S

    def blocked(self) -> bool:
        """Two answers at least _BLOCKED_S apart put it in a collective at the same line, or it has ended."""
        if not self.answers:
            return False
        last_time, last = self.answers[-1]
        if last.get("state") == "gone":
            return True
        return last.get("state") == "collective" and any(
            last_time - when >= _BLOCKED_S and answer.get("state") == "collective" and answer.get("where") == last.get("where")
            for when, answer in self.answers
        )

    def running(self, now: float) -> bool:
        """Its last answer is recent and says it runs its own code (or waits at a meeting of another group)."""
        return bool(self.answers) and self.answers[-1][1].get("state") in ("running", "meeting") and (
            now - self.answers[-1][0] <= 2 * _ASK_EVERY_S + POLL_S)

    def text(self, here: Dict[str, Any]) -> str:
        if self.diverged(here):
            return f"it waits in {self.entered['kind']} at {self.entered.get('where') or 'an unknown line'}"
        where = self.answer.get("where") or "an unknown line"
        state = self.answer.get("state")
        if state == "meeting":
            return f"it waits in {self.answer.get('meeting')} at {where}"
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
