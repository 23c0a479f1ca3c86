"""When the background runs happen: after a short quiet spell following an edit, one at a time,
and a run that a newer edit overtook publishes nothing (the run after it will)."""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Optional

Current = Callable[[], bool]  # whether no request came since the run started


class Debounced:
    """Calls `work(current)` once requests stop coming for `delay` seconds. A request made while
    `work` runs makes `current()` false (the run's results are stale: it should not publish
    them) and `work` runs again once that one ends. A run cannot be stopped half-way (the engine
    runs in a thread), so a burst of edits costs at most the run under way and one more."""

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
        while True:
            seen = self._requests
            await asyncio.sleep(self._delay)
            if seen != self._requests:
                continue  # still typing
            await self._work(lambda: seen == self._requests)
            if seen == self._requests:
                return

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
