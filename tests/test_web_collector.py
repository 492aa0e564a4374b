"""The collector's passes by the clock under ``piquet serve`` (``piquet.web.collector``; docs/web.md, *Performance*):
Python's automatic passes off while it runs, each generation's passes on its own clock, cycles of garbage still
collected, and ``GET /api/health`` telling the passes."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

import pytest
from starlette.testclient import TestClient

from piquet.web import collector as collector_module
from piquet.web.app import create_app
from piquet.web.collector import Collector


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_each_generation_has_its_own_clock() -> None:
    """Every 0.1 s a pass: of the whole heap every 2 s, else of the middle generation every 0.5 s, else of the young
    one; a pass of an older generation (which takes the younger ones with it) starts the younger clocks again."""
    collector = Collector(young=0.1, middle=0.5, full=2.0)
    collector.begin(0.0)
    due = {round(0.1 * k, 1): collector.due(0.1 * k + 1e-9) for k in range(1, 51)}
    assert [t for t, g in due.items() if g == 2] == [2.0, 4.0]
    assert [t for t, g in due.items() if g == 1] == [0.5, 1.0, 1.5, 2.5, 3.0, 3.5, 4.5, 5.0]
    assert sum(g == 0 for g in due.values()) == 40


def test_tables_gone_bring_the_full_pass_sooner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once ``LEFT`` tables have left memory and none for ``SETTLED`` s (or four times as many at once), the whole
    heap is gone over, and the count starts again."""
    clock = [100.0]
    monkeypatch.setattr(collector_module.time, "monotonic", lambda: clock[0])
    collector = Collector(young=0.1, middle=0.5, full=1800)
    collector.begin(0.0)
    for _ in range(collector_module.LEFT):
        collector.left()
    assert collector.due(0.1) == 0  # still leaving
    clock[0] += collector_module.SETTLED
    assert collector.due(0.2) == 2 and collector.tables_left == 0
    for _ in range(4 * collector_module.LEFT - 1):
        collector.left()
    assert collector.due(0.3) == 0
    collector.left()
    assert collector.due(0.4) == 2


def test_the_passes_collect_cycles_while_python_does_not() -> None:
    async def run() -> Collector:
        collector = Collector(young=0.01, middle=0.03, full=0.1)
        assert gc.isenabled()
        collector.start()
        await asyncio.sleep(0)
        assert not gc.isenabled()  # Python's own passes are off while the collector makes them
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # a cycle: only a pass of the collector frees it
        gone = weakref.ref(a)
        del a, b
        for _ in range(200):
            if gone() is None and all(collector.passes):
                break
            await asyncio.sleep(0.01)
        assert gone() is None
        await collector.stop()
        assert gc.isenabled() and gc.get_freeze_count() == 0
        return collector

    collector = asyncio.run(run())
    assert all(collector.passes)  # each generation has had its passes, each one timed
    summary = collector.summary()
    assert set(summary) == {"young", "middle", "full"}
    assert summary["full"]["passes"] == collector.passes[2] >= 1
    assert 1 <= summary["young"]["last_minute"] <= summary["young"]["passes"]


def test_python_collects_again_however_the_collectors_end() -> None:
    """Two collectors in one process (two apps): Python's passes stay off until the last has ended, stopped or
    cancelled with its loop, and are on again after it only if they were on before the first."""
    async def two(stop_first: bool) -> None:
        one, other = Collector(young=0.01), Collector(young=0.01)
        one.start()
        other.start()
        await asyncio.sleep(0.03)
        assert not gc.isenabled()
        await (one.stop() if stop_first else other.stop())
        assert not gc.isenabled()  # the other still runs
        # The loop ends with the other's task still running: asyncio.run cancels it.

    for stop_first in (True, False):
        asyncio.run(two(stop_first))
        assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        asyncio.run(two(True))
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("periods", [(0, 1, 2), (1, 0.5, 2), (0.1, 1, 0.5)])
def test_periods_go_from_the_young_to_the_full(periods: tuple[float, float, float]) -> None:
    with pytest.raises(ValueError, match="young <= middle <= full"):
        Collector(*periods)


def test_health_tells_the_passes(db: str) -> None:
    with TestClient(create_app(db, poll=0, collector=Collector(young=0.01, middle=0.02, full=60))) as client:
        for _ in range(200):
            body = client.get("/api/health").json()
            if body["collector"]["young"]["passes"] and body["collector"]["middle"]["passes"]:
                break
            time.sleep(0.01)
        assert not gc.isenabled()
        assert set(body["collector"]) == {"young", "middle", "full"}
        assert body["collector"]["young"]["passes"] > 0 and body["collector"]["middle"]["passes"] > 0
        assert body["collector"]["young"]["max_ms"] > 0 and body["collector"]["full"]["passes"] == 0
    assert gc.isenabled()
    with TestClient(create_app(db, poll=0)) as client:
        assert "collector" not in client.get("/api/health").json() and gc.isenabled()
