"""The cost of ``piquet analyse``'s review of a whole partie: a six-deal partie of the simple player against itself,
reviewed with the default worlds and more (the exchange's sampled deals are most of the cost).

    .venv/bin/python bench/review.py [--worlds 16,48] [--seed 21]
    PIQUET_PURE_SOLVER=1 .venv/bin/python bench/review.py --worlds 4,16   # the solver as Python source
"""

from __future__ import annotations

import argparse
import time

from piquet.players.base import SimplePlayer
from piquet.players.runner import PartieRunner
from piquet.players.solver import COMPILED
from piquet.study.review import WORLDS, ReviewOptions, review_partie


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default=f"{WORLDS},{3 * WORLDS}", help="comma-separated worlds for each discard")
    ap.add_argument("--seed", type=int, default=21)
    ns = ap.parse_args()
    partie = PartieRunner({"A": SimplePlayer(), "B": SimplePlayer()}, seed=ns.seed).run()
    print(f"solver {'compiled' if COMPILED else 'pure Python'}; {len(partie.deals)} deals")
    for worlds in (int(w) for w in ns.worlds.split(",")):
        start = time.perf_counter()
        review = review_partie(partie, None, ReviewOptions(worlds=worlds))
        took = time.perf_counter() - start
        print(f"worlds {worlds:3d}: {took:6.2f} s for the partie, {took / len(partie.deals):5.2f} s a deal, "
              f"{len(review.decisions)} decisions")


if __name__ == "__main__":
    main()
