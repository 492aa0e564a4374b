"""The cyclic garbage collector on the server's own clock: short passes often, the long one seldom.

Python's collector starts a pass of its youngest generation when the objects made outnumber those freed by a
threshold.  A server of a thousand tables frees old objects (the state each action replaces) as fast as it makes
new ones, so that count rises slowly while the young objects pile up: 100,000 made in excess came with 100,000 to
240,000 young objects to follow, and a pass over them stopped every table for 50 to 270 ms, every few seconds
(measured under ``bench/web.py --tables 1000``; docs/web.md, *Performance*).  Here the automatic passes are off,
and a task of the event loop makes them by the clock instead: the young generation every ``young`` seconds (a
few thousand objects, a millisecond or two), the middle one every ``middle`` seconds (what has lived a few
tenths of a second: a table's state between two actions, a socket waiting for its next message), and the whole
heap every ``full`` seconds, or sooner once many tables have left memory (what has lived longer, a whole
process's tables: a few hundred milliseconds at a thousand tables; see ``left``).
What was made before the collector started (the modules, the app) is set aside for good (``gc.freeze``).  Between
passes nothing is lost: a cycle of garbage waits for the next pass of its generation.

The automatic passes are off while any collector of the process runs, and on again (if they were) when the last
one ends, however it ends.  ``summary()`` gives each generation's passes and their longest over the last minute,
in ``GET /api/health``.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import time

from .lag import ended

#: Seconds between passes over the young generation, the middle one, and the whole heap.
YOUNG, MIDDLE, FULL = 0.1, 0.5, 1800.0
#: A full pass comes sooner once so many tables have left memory since the last one and none for a second
#: (``left``), or four times as many.
LEFT = 250
SETTLED = 1.0
#: The passes of the last so many seconds are summed up (``summary``).
WINDOW = 60.0
_GENERATIONS = ("young", "middle", "full")

#: The collectors running in this process, and whether Python's passes were on when the first one started.
_running = 0
_was_enabled = True


class Collector:
    """Passes of the cyclic collector by the clock while it runs (``start``, ``stop``)."""

    def __init__(self, young: float = YOUNG, middle: float = MIDDLE, full: float = FULL) -> None:
        if not 0 < young <= middle <= full:
            raise ValueError("the collector's periods are 0 < young <= middle <= full seconds")
        self.young, self.middle, self.full = young, middle, full
        #: Tables let go since the last full pass, and when the last was (``left``).
        self.tables_left = 0
        self._left_at = 0.0
        #: Each generation's passes: how many in all, and (when, how long) of the last ``WINDOW`` seconds.
        self.passes = [0, 0, 0]
        self.recent: tuple[collections.deque[tuple[float, float]], ...] = tuple(collections.deque() for _ in range(3))
        self._task: asyncio.Task[None] | None = None
        self._middle_at = self._full_at = 0.0

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="piquet-collector")

    async def _run(self) -> None:
        global _running, _was_enabled
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.collect()
            gc.freeze()
            gc.disable()
        _running += 1
        try:
            loop = asyncio.get_running_loop()
            self.begin(loop.time())
            while True:
                await asyncio.sleep(self.young)
                self.collect(self.due(loop.time()))
        finally:
            _running -= 1
            if _running == 0:
                gc.unfreeze()
                if _was_enabled:
                    gc.enable()

    def begin(self, now: float) -> None:
        """Start the clocks of the middle generation and the whole heap at ``now``."""
        self._middle_at, self._full_at = now + self.middle, now + self.full

    def left(self) -> None:
        """A table has left memory (its persons gone, ``Hub.forget_if_idle``).  Once ``LEFT`` have and the leaving has
        settled, the whole heap is gone over: measured with 1000 tables left at once (``bench/web.py --rounds 3``),
        the next thousand were then held in the memory they had freed (+1 and +3 MB a round), and without it in 85
        MB more each round, until a full pass came by the clock."""
        self.tables_left += 1
        self._left_at = time.monotonic()

    def due(self, now: float) -> int:
        """The generation to collect at ``now``, a pass being due: the oldest whose time has come (the whole heap
        also once ``LEFT`` tables have left), else the young one; the clock of what it collects starts again."""
        settled = time.monotonic() - self._left_at >= SETTLED
        full = now >= self._full_at or self.tables_left >= (LEFT if settled else 4 * LEFT)
        generation = 2 if full else 1 if now >= self._middle_at else 0
        if generation >= 1:
            self._middle_at = now + self.middle
        if generation == 2:
            self._full_at = now + self.full
            self.tables_left = 0
        return generation

    def collect(self, generation: int) -> None:
        """One pass over ``generation`` and those younger, timed."""
        began = time.perf_counter()
        gc.collect(generation)
        ended_at = time.perf_counter()
        self.passes[generation] += 1
        recent = self.recent[generation]
        recent.append((ended_at, ended_at - began))
        while recent[0][0] < ended_at - WINDOW:
            recent.popleft()

    def summary(self) -> dict[str, dict[str, float | int]]:
        """For each generation (``young``, ``middle``, ``full``): its passes in all, and over the last minute how
        many and the longest, in ms."""
        since = time.perf_counter() - WINDOW
        out: dict[str, dict[str, float | int]] = {}
        for name, total, recent in zip(_GENERATIONS, self.passes, self.recent, strict=True):
            last = [took for at, took in recent if at >= since]
            out[name] = {"passes": total, "last_minute": len(last), "max_ms": round(1000 * max(last, default=0.0), 3)}
        return out

    async def stop(self) -> None:
        await ended(self._task)
        self._task = None


__all__ = ["FULL", "LEFT", "MIDDLE", "SETTLED", "YOUNG", "Collector"]
