"""Speed of the double-dummy solver on full twelve-trick positions.

Each position is a random deal of twelve cards to each hand out of the 32,
the elder to lead the first trick, no pique.  For the compiled core and, as
the baseline in the same run, the pure-Python search (the same algorithm, node
for node), it times ``value`` and ``card_values`` (every card of the first
lead, one shared table) and prints the median, 90th percentile and maximum of
the times and of the nodes searched, and the compiled core's speed-up.

    python bench/solver.py [--positions N] [--seed S] [--pure-positions M]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from piquet.core.events import ELDER
from piquet.players import solver
from piquet.players.solver import Position, card_values_and_nodes, value_and_nodes


def positions(n: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rng.sample(range(32), 24)
        out.append(Position((sum(1 << c for c in cards[:12]), sum(1 << c for c in cards[12:])), ELDER))
    return out


def measure(fn: Callable[[Position, bool], tuple[object, int]], cases: list[Position],
            pure: bool) -> tuple[list[float], list[int]]:
    """Seconds and nodes for each position."""
    times, nodes = [], []
    for pos in cases:
        start = time.perf_counter()
        _, n = fn(pos, pure)
        times.append(time.perf_counter() - start)
        nodes.append(n)
    return times, nodes


def quantile(xs: list[float] | list[int], q: float) -> float:
    s = sorted(xs)
    return float(s[min(len(s) - 1, int(q * len(s)))])


def report(label: str, times: list[float], nodes: list[int]) -> None:
    print(f"{label:<26} {1000 * statistics.median(times):8.2f} {1000 * quantile(times, 0.9):8.2f}"
          f" {1000 * max(times):8.2f} ms   {statistics.median(nodes):9,.0f} {quantile(nodes, 0.9):9,.0f}"
          f" {max(nodes):9,}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200, help="random full positions (default 200)")
    ap.add_argument("--seed", type=int, default=2024, help="seed of the deals")
    ap.add_argument("--pure-positions", type=int, default=200,
                    help="how many of the same positions the pure-Python baseline solves (it is slow)")
    args = ap.parse_args()
    cases = positions(args.positions, args.seed)
    pure_cases = cases[:args.pure_positions]
    print(f"{len(cases)} random deals (seed {args.seed}), the elder to lead trick 1; one core")
    print(f"{'':<26} {'median':>8} {'p90':>8} {'max':>8}      {'nodes':>9} {'p90':>9} {'max':>9}")
    kinds: list[tuple[str, Callable[[Position, bool], tuple[object, int]]]] = [
        ("value", lambda p, pure: value_and_nodes(p, pure=pure)),
        ("card_values", lambda p, pure: card_values_and_nodes(p, pure=pure)),
    ]
    for name, fn in kinds:
        compiled: list[float] = []
        if solver.COMPILED:
            compiled, nodes = measure(fn, cases, False)
            report(f"{name}, compiled", compiled, nodes)
        else:
            print(f"{name}, compiled: not built (or PIQUET_PURE_SOLVER is set)")
        if not pure_cases:
            continue
        pure, nodes = measure(fn, pure_cases, True)
        report(f"{name}, pure Python", pure, nodes)
        if compiled:
            ratio = statistics.median(pure) / statistics.median(compiled[:len(pure_cases)])
            print(f"{name}: compiled / pure-Python baseline, on the same {len(pure_cases)} positions:"
                  f" {ratio:.0f}x faster (medians)")


if __name__ == "__main__":
    main()
