"""The speed-up of ``piquet stats`` on Ray from one worker to two (issue 19; docs/rl.md, running on a cluster).

The same workload (``run_stats`` of two levels, ``--deals`` deals from
``--seed``) runs three times: serially in this process (the reference), then
on a Ray started here with ``num_cpus=1`` (``--workers 1 --ray``), then on
one with ``num_cpus=2``.  Ray's start and its workers' first imports are left
out of the times (a few tasks warm every worker first); what is timed is the
run itself, Ray's workers at this process's niceness (Ray's default is 15,
behind everything else on a shared machine).  For each run it prints the wall
time, the CPU time of every process of the run (this one, Ray's servers and
its workers, read with psutil before and after) and their ratio, the cores
kept busy (below the number of workers, the run waited for the machine);
then the speed-up (the one-worker run's wall time over the two-worker run's)
and whether the three runs gave the same results (each partie's result, less
the time the players spent choosing).  The load average before and after is
printed too: the machine is shared.

    python bench/ray_workers.py [--deals 900] [--levels cavendish,simple] [--seed 1]

Needs the rl extra (ray).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections.abc import Sequence

try:
    import ray
except ImportError:  # pragma: no cover - said plainly rather than as a traceback
    sys.exit("bench/ray_workers.py needs the rl extra (ray): pip install -e '.[rl]'")

from piquet.study.arena import PartieResult
from piquet.study.stats import run_stats

#: Ray's setting of its workers' niceness (its worker_niceness, read from the environment by its servers).
NICENESS = "RAY_worker_niceness"


def untimed(results: Sequence[PartieResult]) -> list[PartieResult]:
    """The results less the time each player spent choosing (the one thing a run does not repeat)."""
    return [dataclasses.replace(r, seconds=(0.0, 0.0)) for r in results]


def cpu_times() -> dict[int, float]:
    """The CPU seconds (user and system) of this process and of every process under it, by pid."""
    import psutil  # Ray ships one, on the path once ray is imported, when none is installed

    me = psutil.Process()
    out: dict[int, float] = {}
    for p in [me, *me.children(recursive=True)]:
        try:
            t = p.cpu_times()
            out[p.pid] = t.user + t.system
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return out


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU seconds spent between two readings (a process started in between counts from zero)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


@ray.remote
def _warm(seconds: float) -> tuple[int, int]:
    """A worker's pid and niceness, once it has imported the stats (its first import, out of the timed run)."""
    import piquet.study.stats  # noqa: F401

    time.sleep(seconds)
    return os.getpid(), os.nice(0)


@dataclasses.dataclass(frozen=True)
class Run:
    name: str
    wall: float
    cpu: float
    results: list[PartieResult]


def timed(name: str, levels: tuple[str, str], deals: int, seed: int, workers: int | None) -> Run:
    """One run: serial when ``workers`` is None, else on a Ray of ``workers`` CPUs started here."""
    if workers is not None:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        warmed = dict(ray.get([_warm.remote(0.5) for _ in range(2 * workers)]))
        if len(warmed) != workers or set(warmed.values()) != {os.nice(0)}:
            print(f"  (warm-up reached {len(warmed)} workers of {workers}, niceness {sorted(set(warmed.values()))})")
    try:
        before, t = cpu_times(), time.perf_counter()
        report = run_stats(*levels, deals=deals, seed=seed, workers=workers or 1,
                           ray="local" if workers is not None else None)
        wall, cpu = time.perf_counter() - t, spent(before, cpu_times())
    finally:
        if workers is not None:
            ray.shutdown()
    run = Run(name, wall, cpu, untimed(report.results))
    print(f"{name:22s} wall {wall:7.2f} s   CPU {cpu:7.2f} s   ({len(report.results)} parties; cores busy "
          f"{cpu / wall:.2f})", flush=True)
    return run


def main(argv: Sequence[str] | None = None) -> int:
    # Ray runs its workers at niceness 15 unless told (its worker_niceness): on a shared machine they would wait
    # behind everything else while the serial run did not.  The same niceness as this process, unless set.
    os.environ.setdefault(NICENESS, str(os.nice(0)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=900, help="deals of the workload (default 900: 150 parties)")
    ap.add_argument("--levels", default="cavendish,simple", help="the two levels (default cavendish,simple)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    levels = tuple(a.levels.split(","))
    if len(levels) != 2 or a.deals < 1:
        ap.error("--levels is two levels, comma-separated; --deals at least 1")
    print(f"piquet stats {levels[0]} {levels[1]} --deals {a.deals} --seed {a.seed}: serial, then Ray with 1 and 2 "
          f"workers (ray {ray.__version__}, {os.cpu_count()} cores here)")
    print(f"Ray's workers at niceness {os.environ[NICENESS]} ({NICENESS}), this process at "
          f"{os.nice(0)}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    serial = timed("serial (no Ray)", (levels[0], levels[1]), a.deals, a.seed, None)
    one = timed("Ray, 1 worker", (levels[0], levels[1]), a.deals, a.seed, 1)
    two = timed("Ray, 2 workers", (levels[0], levels[1]), a.deals, a.seed, 2)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    same = one.results == serial.results and two.results == serial.results
    print(f"speed-up, 1 worker to 2: {one.wall / two.wall:.2f}x wall "
          f"(CPU {two.cpu / one.cpu:.2f}x of the one-worker run's)")
    print(f"Ray's cost over the serial run, 1 worker: {one.wall / serial.wall:.2f}x wall, "
          f"{one.cpu / serial.cpu:.2f}x CPU")
    print(f"results identical (serial, 1 worker, 2 workers): {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
