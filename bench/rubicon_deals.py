"""What the elder and the younger score in a deal of Rubicon Piquet: the tables of the search player's partie model.

Plays ``--deals`` seeded deals between two levels (``cavendish`` by default,
which is quick and plays by the treatise) and prints, in steps of five points
(rounded; the last step "175 or more"), the chance that the elder scores each
step, that the younger does, and that the elder's score less the younger's
is each step (from -175 to +175).  ``piquet.players.settlement`` keeps the figures
(``RUBICON_DEAL_SCORES``) with the command that measured them; the partie's
model (``PartieModel``) draws the deals still to come of a partie from them.

    python bench/rubicon_deals.py [--deals N] [--level cavendish] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from piquet.core.deal import Deal
from piquet.core.events import ELDER, YOUNGER
from piquet.players.levels import make_player
from piquet.players.runner import play_deal

TOP = 35  # steps of five: 0-2 is 0, 3-7 is 1, ..., 173 and more is 35


def step(points: int) -> int:
    """Points in steps of five, rounded, capped at ``TOP`` either way: -2..2 is 0, 3..7 is 1, -7..-3 is -1."""
    return max(-TOP, min((points + 2) // 5, TOP))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=10000)
    ap.add_argument("--level", default="cavendish")
    ap.add_argument("--seed", type=int, default=1)
    ns = ap.parse_args()
    scores: list[list[int]] = [[0] * (TOP + 1), [0] * (TOP + 1)]
    diffs = [0] * (2 * TOP + 1)
    totals: list[list[int]] = [[], []]
    start = time.perf_counter()
    for i in range(ns.deals):
        deal = Deal.shuffled(random.Random(f"rubicon-deals:{ns.seed}:{i}"))
        play_deal(deal, make_player(ns.level, 2 * i), make_player(ns.level, 2 * i + 1))
        e, y = deal.total(ELDER), deal.total(YOUNGER)
        scores[ELDER][step(e)] += 1
        scores[YOUNGER][step(y)] += 1
        diffs[step(e - y) + TOP] += 1
        totals[ELDER].append(e)
        totals[YOUNGER].append(y)
    took = time.perf_counter() - start
    d = [e - y for e, y in zip(totals[ELDER], totals[YOUNGER], strict=True)]
    print(f"{ns.deals} deals, {ns.level} against itself, rubicon, seed {ns.seed}, {took:.0f} s")
    for role, name in ((ELDER, "elder"), (YOUNGER, "younger")):
        print(f"  {name}: mean {statistics.mean(totals[role]):.2f}, sd {statistics.pstdev(totals[role]):.2f}")
        print("    (" + ", ".join(f"{c / ns.deals:.4f}" for c in scores[role]) + "),")
    print(f"  elder less younger: mean {statistics.mean(d):.2f}, sd {statistics.pstdev(d):.2f} "
          f"(sd if the two were independent: "
          f"{(statistics.pvariance(totals[ELDER]) + statistics.pvariance(totals[YOUNGER])) ** 0.5:.2f})")
    print("    (" + ", ".join(f"{c / ns.deals:.4f}" for c in diffs) + "),")


if __name__ == "__main__":
    main()
