"""An arena run that keeps every mirrored pair as it ends, so a long run stopped early still has its result.

``piquet arena P1 P2 --parties 2N --seed S`` prints only at the end.  This
plays the same pairs (pair ``i`` of seed ``S`` is the same two parties in
both), appends each finished pair to ``--out`` (one pickle a pair), skips
the pairs already there when started again, and with ``--report`` prints the
arena's report over the pairs done so far, with two figures the arena does
not print: the first player's points a deal (his deal scores less his
adversary's, over the pair's deals) with its 95% interval over pairs, and
the CPU time of the run.

    python bench/arena_pairs.py search-deep search --pairs 500 --seed 1 --workers 2 --out /tmp/deep.pickles
    python bench/arena_pairs.py search-deep search --seed 1 --out /tmp/deep.pickles --report

Besides the levels, it knows the variants of the top level of
``bench/variants.py``: ``deep-without-every-count``, ``deep-without-halving``,
``deep-without-discard-prior``, ``deep-without-reckoning``,
``deep-without-partie-score``, ``deep-own-next``.
"""

from __future__ import annotations

import argparse
import pickle
import resource
import time
from pathlib import Path

import variants  # bench/variants.py, beside this script
from piquet.core.rules import rules_named
from piquet.players.levels import level_named
from piquet.study.arena import ArenaReport, PartieResult, _play_pair, format_arena, mean_interval, run_jobs


def load(path: Path) -> list[tuple[PartieResult, PartieResult]]:
    """The pairs written so far (a pair cut short by a stop is dropped)."""
    pairs: list[tuple[PartieResult, PartieResult]] = []
    if not path.exists():
        return pairs
    with path.open("rb") as f:
        while True:
            try:
                pairs.append(pickle.load(f))
            except (EOFError, pickle.UnpicklingError):
                return pairs


def points_a_deal(pairs: list[tuple[PartieResult, PartieResult]]) -> tuple[float, float]:
    """The first player's deal scores less his adversary's, a deal, by pair: the mean and its 95% half-width."""
    per_pair = []
    for pair in pairs:
        deals = sum(r.deals for r in pair)
        margin = sum(sum(r.components[0]) - sum(r.components[1]) for r in pair)
        per_pair.append(margin / max(deals, 1))
    return mean_interval(per_pair)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("p1")
    ap.add_argument("p2")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="rubicon")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--report", action="store_true", help="print the report of the pairs done, play nothing")
    ns = ap.parse_args()
    variants.register()
    levels = (level_named(ns.p1).name, level_named(ns.p2).name)
    rules_named(ns.rules)
    done = load(ns.out)
    if not ns.report:
        have = {pair[0].pair for pair in done}
        jobs = [(levels, ns.seed, i, ns.rules) for i in range(ns.pairs) if i not in have]
        start = time.perf_counter()
        with ns.out.open("ab") as f:
            for i, pair in enumerate(run_jobs(_play_pair, jobs, len(jobs), ns.workers), 1):
                pickle.dump(pair, f)
                f.flush()
                print(f"pair {pair[0].pair}: {i}/{len(jobs)} in {time.perf_counter() - start:.0f} s", flush=True)
        done = load(ns.out)
    report = ArenaReport(levels, ns.seed, ns.rules, [r for pair in done for r in pair])
    print(format_arena(report.summary()))
    mean, half = points_a_deal(done)
    print(f"  points a deal to {levels[0]}, less the other's: {mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})")
    if not ns.report:  # the CPU time of the pairs played now (a wall time would count the pauses of a shared machine)
        cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        print(f"  CPU time of this run: {cpu:.0f} s")


if __name__ == "__main__":
    main()
