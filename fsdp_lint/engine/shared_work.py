"""Work split between processes by taking chunks from one shared position, so that it balances
however unevenly it is spread and whichever process finishes its other work first."""

from __future__ import annotations

import multiprocessing
from typing import Any, Iterator

CHUNK = 16  # items a take: few lock round trips, still a fair split


def shared_position() -> Any:
    """A counter that forked processes share (create it before forking)."""
    return multiprocessing.get_context("fork").Value("q", 0)


def chunks(position: Any, count: int) -> Iterator[slice]:
    """The slices of `range(count)` this process takes from `position` until none is left."""
    while True:
        with position.get_lock():
            start = position.value
            position.value = start + CHUNK
        if start >= count:
            return
        yield slice(start, start + CHUNK)
