"""The cyclic garbage collector on the server's own clock: short passes often, the long one seldom.

Python's collector starts a pass of its youngest generation when the objects made outnumber those freed by a
threshold.  A server of a thousand tables frees old objects (the state each action replaces) as fast as it makes
new ones, so that count rises slowly while the young objects pile up: 100,000 made in excess came with 100,000 to
240,000 young objects to follow, and a pass over them stopped every table for 50 to 270 ms, every few seconds
(measured under ``bench/web.py --tables 1000``; docs/web.md, *Performance*).  Here the automatic passes are off,
and a task of the event loop makes them by the clock instead: the young generation every ``young`` seconds (a
few thousand objects, a millisecond or two), the middle one every ``middle`` seconds (what has lived a few
tenths of a second: a table's state between two actions, a socket waiting for its next message), and the whole
heap every ``full`` seconds (what has lived longer, a whole process's tables: a few hundred milliseconds, once in
so many minutes).  Between passes nothing is lost: a cycle of garbage waits for the next pass of its generation.

``summary()`` gives each generation's passes over the last minutes and their longest, in ``GET /api/health``.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import time

from .lag import ended

#: Seconds between passes over the young generation, the middle one, and the whole heap.
YOUNG, MIDDLE, FULL = 0.1, 0.5, 1800.0


class Collector:
    """Passes of the cyclic collector by the clock (``start``: the automatic ones off; ``stop``: on again)."""

    def __init__(self, young: float = YOUNG, middle: float = MIDDLE, full: float = FULL, keep: int = 600) -> None:
        if not 0 < young <= middle <= full:
            raise ValueError("the collector's periods are 0 < young <= middle <= full seconds")
        self.young, self.middle, self.full = young, middle, full
        #: The last passes of each generation: how long each took, in seconds.
        self.pauses: tuple[collections.deque[float], ...] = tuple(collections.deque(maxlen=keep) for _ in range(3))
        self._task: asyncio.Task[None] | None = None
        self._was_enabled = True
        self._middle_at = self._full_at = 0.0

    def start(self) -> None:
        if self._task is None:
            self._was_enabled = gc.isenabled()
            gc.disable()
            self._task = asyncio.create_task(self._run(), name="piquet-collector")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        self.begin(loop.time())
        while True:
            await asyncio.sleep(self.young)
            self.collect(self.due(loop.time()))

    def begin(self, now: float) -> None:
        """Start the clocks of the middle generation and the whole heap at ``now``."""
        self._middle_at, self._full_at = now + self.middle, now + self.full

    def due(self, now: float) -> int:
        """The generation to collect at ``now``, a pass being due (the oldest whose time has come; else the young
        one); the clock of what it collects starts again."""
        generation = 2 if now >= self._full_at else 1 if now >= self._middle_at else 0
        if generation >= 1:
            self._middle_at = now + self.middle
        if generation == 2:
            self._full_at = now + self.full
        return generation

    def collect(self, generation: int) -> None:
        """One pass over ``generation`` and those younger, timed."""
        began = time.perf_counter()
        gc.collect(generation)
        self.pauses[generation].append(time.perf_counter() - began)

    def summary(self) -> dict[str, dict[str, float | int]]:
        """For each generation (``young``, ``middle``, ``full``): the passes noted and the longest, in ms."""
        return {name: {"passes": len(p), "max_ms": round(1000 * max(p, default=0.0), 1)}
                for name, p in zip(("young", "middle", "full"), self.pauses, strict=True)}

    async def stop(self) -> None:
        if self._task is not None:
            await ended(self._task)
            self._task = None
            if self._was_enabled:
                gc.enable()


__all__ = ["FULL", "MIDDLE", "YOUNG", "Collector"]
