"""How late the server's event loop runs what is ready: the delay every action waits before it is read.

A task asks to wake every ``every`` seconds and notes how much later than asked it woke; the last ``keep``
notes (a minute, by default) give the lag's median, 99th percentile and maximum, in ``GET /api/health``
(docs/web.md).  One loop serves every table of a process, so a lag here is a lag at every table.
"""

from __future__ import annotations

import asyncio
import collections


class LoopLag:
    """The event loop's lateness over the last ``every * keep`` seconds."""

    def __init__(self, every: float = 0.05, keep: int = 1200) -> None:
        self.every = every
        self.lags: collections.deque[float] = collections.deque(maxlen=keep)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="piquet-loop-lag")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + self.every
            await asyncio.sleep(self.every)
            self.lags.append(max(0.0, loop.time() - asked))

    def summary(self) -> dict[str, float | int]:
        """``{"p50", "p99", "max"}`` in milliseconds, and ``"samples"``: how many notes they are from."""
        lags = sorted(self.lags)
        if not lags:
            return {"samples": 0}

        def at(q: float) -> float:
            return round(1000 * lags[min(len(lags) - 1, int(q * len(lags)))], 1)

        return {"p50": at(0.5), "p99": at(0.99), "max": at(1.0), "samples": len(lags)}

    async def stop(self) -> None:
        await ended(self._task)
        self._task = None


async def ended(task: asyncio.Task[None] | None) -> None:
    """Cancel a task of the loop (if any) and wait for its end, whatever it ends with (the caller's own
    cancellation still reaches him)."""
    if task is not None:
        task.cancel()
        await asyncio.wait({task})
        if not task.cancelled():
            task.exception()  # its error, if any, taken: not reported again when the task is let go


__all__ = ["LoopLag", "ended"]
