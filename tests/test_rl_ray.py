"""The arena's and stats' parties on Ray (the ``rl`` extra) give the results of a serial run for the same seed."""

from __future__ import annotations

import dataclasses

import pytest

ray = pytest.importorskip("ray")

from piquet.study.arena import PartieResult, run_arena  # noqa: E402
from piquet.study.stats import run_stats  # noqa: E402


def untimed(results: list[PartieResult]) -> list[PartieResult]:
    """The results less the time each player spent choosing (the one thing a run does not repeat)."""
    return [dataclasses.replace(r, seconds=(0.0, 0.0)) for r in results]


@pytest.mark.slow
def test_ray_runs_equal_the_serial_runs() -> None:
    try:
        serial = run_stats("simple", "random", deals=24, seed=5, workers=1)
        on_ray = run_stats("simple", "random", deals=24, seed=5, workers=2, ray="local")
        assert len(serial.results) == 4
        assert untimed(on_ray.results) == untimed(serial.results)
        arena_serial = run_arena("cavendish", "simple", parties=4, seed=2, workers=1)
        arena_ray = run_arena("cavendish", "simple", parties=4, seed=2, workers=2, ray="local")
        assert untimed(arena_ray.results) == untimed(arena_serial.results)
        assert arena_ray.points() == arena_serial.points()
    finally:
        ray.shutdown()
