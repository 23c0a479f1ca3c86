"""When the background runs happen: at once after an edit when none is under way, one at a
time, after a short quiet spell when edits came during a run; and a run that a newer edit
overtook publishes nothing (the run after it will)."""

from __future__ import annotations

import asyncio
import functools
from typing import Awaitable, Callable, Optional

Current = Callable[[], bool]  # whether no request came since the run started


class Debounced:
    """Calls `work(current)` on a request. A request made while `work` runs makes `current()`
    false (the run's results are stale: it should not publish them), and `work` runs again once
    requests have stopped coming for `delay` seconds. A run cannot be stopped half-way (the engine
    runs in a thread), so a burst of edits costs the run under way and one more, and an edit made
    while nothing runs is answered in the time of one run."""

    def __init__(self, work: Callable[[Current], Awaitable[None]], delay: float):
        self._work = work
        self._delay = delay
        self._requests = 0
        self._task: Optional[asyncio.Task[None]] = None

    def request(self) -> None:
        self._requests += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        await asyncio.sleep(0)  # take in what the client sent with this edit (the next file it opened)
        while True:
            started = self._requests
            await self._work(functools.partial(self._unchanged_since, started))
            if self._unchanged_since(started):
                return
            while True:  # edits came during the run: wait until they pause
                seen = self._requests
                await asyncio.sleep(self._delay)
                if self._unchanged_since(seen):
                    break

    def _unchanged_since(self, requests: int) -> bool:
        return self._requests == requests

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
