"""`parallel.fork_map` computes what a plain map computes, whatever happens to its children."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from fsdp_lint.engine import parallel

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


@pytest.fixture(autouse=True)
def always_fork(monkeypatch):
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)


WAIT = 30  # seconds: a bound on a wait for the other process, never reached when it works


def test_the_results_are_those_of_a_plain_map_in_order():
    items = list(range(200))
    parent = os.getpid()
    child_started = multiprocessing.get_context("fork").Event()

    def square(item: int):
        if os.getpid() != parent:
            child_started.set()
        else:  # this process holds one chunk until the child has one: the work is shared, always
            child_started.wait(WAIT)
        return item * item, os.getpid() != parent

    results = parallel.fork_map(square, items, jobs=2, sizes=items)
    assert [square for square, _ in results] == [item * item for item in items]
    assert any(in_child for _, in_child in results)  # the work was shared


def test_a_child_that_dies_has_its_share_done_here():
    parent = os.getpid()

    def square(item: int) -> int:
        if os.getpid() != parent:
            os._exit(3)
        return item * item

    assert parallel.fork_map(square, list(range(100)), jobs=2, sizes=[1] * 100) == [i * i for i in range(100)]


def test_an_error_is_raised_here_as_without_children():
    def fail_on_seven(item: int) -> int:
        if item == 7:
            raise ValueError("seven")
        return item

    with pytest.raises(ValueError, match="seven"):
        parallel.fork_map(fail_on_seven, list(range(50)), jobs=2, sizes=[1] * 50)


def test_results_that_cannot_be_pickled_are_computed_here():
    parent = os.getpid()
    results = parallel.fork_map(lambda item: (lambda: item) if os.getpid() != parent else item, list(range(40)), jobs=2, sizes=[1] * 40)
    assert results == list(range(40))


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_an_error_here_leaves_no_child_behind():
    """The children are reaped even when this process's own share raises.

    Every item raises here. The child holds its first chunk until this process has raised, so this
    process always gets a chunk of its own (had the child taken every chunk first, nothing would
    raise here: the test failed about once in twelve runs with "DID NOT RAISE"); the child's
    results are then more than a pipe holds, so a child not read from would block."""
    parent = os.getpid()
    raised_here = multiprocessing.get_context("fork").Event()

    def fail_here(item: int) -> bytes:
        if os.getpid() == parent:
            raised_here.set()
            raise RuntimeError("here")
        raised_here.wait(WAIT)
        return b"x" * 100_000

    before = _children()
    with pytest.raises(RuntimeError):
        parallel.fork_map(fail_here, list(range(40)), jobs=2, sizes=list(range(40, 0, -1)))
    assert _children() <= before


def _children() -> set:
    """This process's child processes, living or not yet reaped (Linux: /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    if int(handle.read().rsplit(b")", 1)[1].split()[1]) == os.getpid():
                        found.add(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found
