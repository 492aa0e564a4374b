"""Decision time of each computer level, by kind of decision.

Each level plays ``--deals`` whole deals against the simple player (in both
seats, alternately), each deal seeded, and every one of its decisions is timed
on this process's one core: the exchange (discard and look), the calls, the
first card of the play (the hardest for a searching player) and the rest of
the play.  For each kind it prints the median, the 90th and 99th
percentiles and the maximum in milliseconds, and the level's mean time per
decision as a ratio to the simple player's, measured in the same run.
``--clock cpu`` times the process's CPU time instead of the wall clock: on
a shared machine, what the decision itself cost.  Deal ``i`` is played as
deal ``i % 6 + 1`` of a partie of Rubicon Piquet, the partie at 22 to 28
points a deal played (the level's seat first), so a level that weighs the
partie's score in every deal pays for it here; ``--no-partie`` plays the
deals alone, as before.

    python bench/decisions.py [--deals N] [--levels a,b,...] [--clock wall|cpu] [--no-partie]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from piquet.core.actions import Action
from piquet.core.deal import Deal, Phase
from piquet.core.observation import Observation, PartieContext
from piquet.players.base import SimplePlayer
from piquet.players.levels import LEVEL_NAMES, make_player
from piquet.players.runner import play_deal
from variants import register  # bench/variants.py: the variants of the top level, as levels

KINDS = ("exchange", "calls", "first card", "play")


def kind(obs: Observation) -> str:
    if obs.phase in (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD, Phase.ELDER_LOOK, Phase.YOUNGER_LOOK):
        return "exchange"
    if obs.phase == Phase.PLAY:
        return "first card" if obs.trick == 1 else "play"
    return "calls"


class Timed:
    def __init__(self, player: object, clock: Callable[[], float] = time.perf_counter) -> None:
        self.player = player
        self.clock = clock
        self.times: dict[str, list[float]] = {k: [] for k in KINDS}

    def choose(self, obs: Observation) -> Action:
        t = self.clock()
        action: Action = self.player.choose(obs)  # type: ignore[attr-defined]
        self.times[kind(obs)].append(self.clock() - t)
        return action

    def choose_deal(self, won_cut: bool) -> bool:
        return True

    def deal_by(self) -> int:
        return 2


def context(i: int, elder: bool) -> PartieContext:
    """The level's place in a partie for deal ``i``: deal ``i % 6 + 1``, 22 to 28 a deal played (seat A)."""
    n = i % 6 + 1
    return PartieContext(seat="A", dealer="B" if elder else "A", deal_number=n, deals_in_partie=6,
                         rules="rubicon", scores={"A": 22 * (n - 1), "B": 28 * (n - 1)})


def measure(level: str, deals: int, clock: Callable[[], float] = time.perf_counter, partie: bool = True) -> Timed:
    timed = Timed(make_player(level, 1), clock)
    for i in range(deals):
        deal = Deal.shuffled(random.Random(f"bench:{i}"))
        elder = not i % 2
        ctx = context(i, elder) if partie else None
        if elder:
            play_deal(deal, timed, SimplePlayer(), (ctx, None))
        else:
            play_deal(deal, SimplePlayer(), timed, (None, ctx))
    return timed


def quantile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--levels", default=",".join(LEVEL_NAMES))
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("--no-partie", action="store_true", help="the deals alone, not as deals of a partie")
    ns = ap.parse_args()
    register()
    clock = time.process_time if ns.clock == "cpu" else time.perf_counter
    levels = ns.levels.split(",")
    baseline = measure("simple", ns.deals, clock, not ns.no_partie)
    base_times = [t for k in KINDS for t in baseline.times[k]]
    base_mean = statistics.fmean(base_times)
    print(f"{ns.deals} deals a level against the simple player; times in ms (median / p90 / p99 / max), "
          f"{ns.clock} clock")
    print(f"{'level':<12} " + " ".join(f"{k:>29}" for k in KINDS) + f" {'mean':>8} {'x simple':>9}")
    for level in levels:
        timed = baseline if level == "simple" else measure(level, ns.deals, clock, not ns.no_partie)
        cells = []
        for k in KINDS:
            xs = timed.times[k]
            if not xs:
                cells.append(f"{'-':>29}")
                continue
            cells.append(f"{1000 * statistics.median(xs):6.1f} /{1000 * quantile(xs, 0.9):6.1f} /"
                         f"{1000 * quantile(xs, 0.99):6.1f} /{1000 * max(xs):7.1f}")
        all_times = [t for k in KINDS for t in timed.times[k]]
        mean = statistics.fmean(all_times)
        print(f"{level:<12} " + " ".join(cells) + f" {1000 * mean:8.2f} {mean / base_mean:9.1f}")


if __name__ == "__main__":
    main()
