"""Decision time of each computer level, by kind of decision.

Each level plays ``--deals`` whole deals against the simple player (in both
seats, alternately), each deal seeded, and every one of its decisions is timed
on this process's one core: the exchange (discard and look), the calls, the
first card of the play (the hardest for a searching player) and the rest of
the play.  For each kind it prints the median, the 90th percentile and the
maximum in milliseconds, and the level's mean time per decision as a ratio to
the simple player's, measured in the same run.

    python bench/decisions.py [--deals N] [--levels a,b,...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from piquet.core.actions import Action
from piquet.core.deal import Deal, Phase
from piquet.core.observation import Observation
from piquet.players.base import SimplePlayer
from piquet.players.levels import LEVEL_NAMES, make_player
from piquet.players.runner import play_deal

KINDS = ("exchange", "calls", "first card", "play")


def kind(obs: Observation) -> str:
    if obs.phase in (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD, Phase.ELDER_LOOK, Phase.YOUNGER_LOOK):
        return "exchange"
    if obs.phase == Phase.PLAY:
        return "first card" if obs.trick == 1 else "play"
    return "calls"


class Timed:
    def __init__(self, player: object) -> None:
        self.player = player
        self.times: dict[str, list[float]] = {k: [] for k in KINDS}

    def choose(self, obs: Observation) -> Action:
        t = time.perf_counter()
        action: Action = self.player.choose(obs)  # type: ignore[attr-defined]
        self.times[kind(obs)].append(time.perf_counter() - t)
        return action

    def choose_deal(self, won_cut: bool) -> bool:
        return True

    def deal_by(self) -> int:
        return 2


def measure(level: str, deals: int) -> Timed:
    timed = Timed(make_player(level, 1))
    for i in range(deals):
        deal = Deal.shuffled(random.Random(f"bench:{i}"))
        if i % 2:
            play_deal(deal, SimplePlayer(), timed)
        else:
            play_deal(deal, timed, SimplePlayer())
    return timed


def quantile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--levels", default=",".join(LEVEL_NAMES))
    ns = ap.parse_args()
    levels = ns.levels.split(",")
    baseline = measure("simple", ns.deals)
    base_times = [t for k in KINDS for t in baseline.times[k]]
    base_mean = statistics.fmean(base_times)
    print(f"{ns.deals} deals a level against the simple player; times in ms (median / p90 / max)")
    print(f"{'level':<12} " + " ".join(f"{k:>22}" for k in KINDS) + f" {'mean':>8} {'x simple':>9}")
    for level in levels:
        timed = baseline if level == "simple" else measure(level, ns.deals)
        cells = []
        for k in KINDS:
            xs = timed.times[k]
            if not xs:
                cells.append(f"{'-':>22}")
                continue
            cells.append(f"{1000 * statistics.median(xs):6.1f} /{1000 * quantile(xs, 0.9):6.1f} /"
                         f"{1000 * max(xs):7.1f}")
        all_times = [t for k in KINDS for t in timed.times[k]]
        mean = statistics.fmean(all_times)
        print(f"{level:<12} " + " ".join(cells) + f" {1000 * mean:8.2f} {mean / base_mean:9.1f}")


if __name__ == "__main__":
    main()
