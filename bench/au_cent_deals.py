"""What the elder and the younger score in a deal of Piquet au cent: the table the search player's game model uses.

Plays ``--deals`` seeded deals between two levels (``cavendish`` by default,
which is quick and plays by the treatise) from a game at love all, under the
rules given, and prints for each role the chance of scoring 0-2, 3-7, 8-12,
... points, in steps of five, the last step "a hundred or more" (a deal
stops when a player reaches a hundred, p. 20).  ``piquet.players.search`` keeps the
figures (``DEAL_SCORES``) with the command that measured them.

    python bench/au_cent_deals.py [--deals N] [--rules au-cent] [--level cavendish] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from piquet.core.deal import Deal
from piquet.core.events import ELDER, YOUNGER
from piquet.core.rules import rules_named
from piquet.players.levels import make_player
from piquet.players.runner import play_deal

STEPS = 21  # 0-2, 3-7, ..., 93-97, 98 and more (a hundred is reached at 98 and more once rounded)


def step(points: int) -> int:
    """Points in steps of five, rounded: 0-2 is 0, 3-7 is 1, ..., a hundred or more the last."""
    return min((points + 2) // 5, STEPS - 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--rules", default="au-cent")
    ap.add_argument("--level", default="cavendish")
    ap.add_argument("--seed", type=int, default=1)
    ns = ap.parse_args()
    rules = rules_named(ns.rules)
    counts = [[0] * STEPS, [0] * STEPS]
    totals: list[list[int]] = [[], []]
    start = time.perf_counter()
    for i in range(ns.deals):
        rng = random.Random(f"au-cent-deals:{ns.seed}:{i}")
        deal = Deal.shuffled(rng, rules=rules, game=(0, 0) if rules.goal is not None else None)
        play_deal(deal, make_player(ns.level, 2 * i), make_player(ns.level, 2 * i + 1))
        for role in (ELDER, YOUNGER):
            counts[role][step(deal.total(role))] += 1
            totals[role].append(deal.total(role))
    took = time.perf_counter() - start
    print(f"{ns.deals} deals, {ns.level} against itself, {rules.spec}, seed {ns.seed}, {took:.0f} s")
    for role, name in ((ELDER, "elder"), (YOUNGER, "younger")):
        print(f"  {name}: mean {statistics.mean(totals[role]):.2f}, median {statistics.median(totals[role])}")
        print("    (" + ", ".join(f"{c / ns.deals:.4f}" for c in counts[role]) + "),")


if __name__ == "__main__":
    main()
