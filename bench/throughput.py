"""Throughput of the rules engine: random legal self-play of complete deals.

Each deal is shuffled and dealt, both players exchange a random legal number
of random cards, declare everything they hold (point, every sequence, every
quatorze and trio), and play random legal cards to the end, all through
``Deal.legal_actions()`` and ``Deal.apply()`` with every check of the laws.

The baseline, measured in the same run, is a bare playout: a shuffle, a
random exchange, the point only, and random legal cards with play points,
written as tightly as plain Python allows and checking nothing.  The ratio
tells what the engine's clarity costs.

    python bench/throughput.py [--seconds S]
    PIQUET_PURE=1 python bench/throughput.py   # the engine as Python source, not compiled
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/throughput.py --count engine --deals 300

The engine runs as ``pip install`` built it: compiled by mypyc from its own source where a C compiler
was found (``piquet.core.native``); the first line printed says which.  The baseline is plain Python.
"""

from __future__ import annotations

import argparse
import random
import time
from math import floor

from piquet.core import native
from piquet.core.deal import DONE, Deal, Phase, full_declarations

# The category each calling phase asks for, by phase number.
_CATEGORY = tuple(
    {Phase.ELDER_POINT: 0, Phase.YOUNGER_POINT: 0, Phase.ELDER_SEQUENCES: 1,
     Phase.YOUNGER_SEQUENCES: 1, Phase.ELDER_SETS: 2, Phase.YOUNGER_SETS: 2,
     Phase.YOUNGER_RECKON_POINT: 0, Phase.YOUNGER_RECKON_SEQUENCES: 1,
     Phase.YOUNGER_RECKON_SETS: 2}.get(p) for p in Phase)


def engine_deal(rng: random.Random) -> int:
    d = Deal.shuffled(rng)
    apply, sample = d.apply, d.legal_actions().sample
    decl = None
    while d.phase is not DONE:
        category = _CATEGORY[d.phase]
        if category is None:
            apply(sample(rng))  # exchange, looking at cards left, play
        else:
            if decl is None:
                decl = (full_declarations(d.hands[0]), full_declarations(d.hands[1]))
            role = d.to_move
            assert role is not None
            apply(decl[role][category])
    return d.total(0) + d.total(1)


def bare_deal(rng: random.Random) -> int:
    """A deal with no checks, no log and no scoring but the point and the play, drawing its random numbers the
    way the engine does (``floor(random() * n)``, a partial shuffle for the cards put out)."""
    rand = rng.random
    keys = [rand() for _ in range(32)]
    pack = sorted(range(32), key=keys.__getitem__)
    stock = pack[24:]
    elder = pack[0:12]
    k = 1 + floor(rand() * 5)
    for j in range(k):  # k cards out: the first k of a partial shuffle
        i = j + floor(rand() * (12 - j))
        elder[j], elder[i] = elder[i], elder[j]
    younger = pack[12:24]
    n = 1 + floor(rand() * (8 - k))
    for j in range(n):
        i = j + floor(rand() * (12 - j))
        younger[j], younger[i] = younger[i], younger[j]
    hands = [elder[k:] + stock[:k], younger[n:] + stock[k:k + n]]
    score = [0, 0]
    points = []
    for h in hands:
        counts = [0, 0, 0, 0]
        for c in h:
            counts[c >> 3] += 1
        points.append(max(counts))
    p0, p1 = points
    if p0 != p1:
        score[0 if p0 > p1 else 1] += max(p0, p1)
    leader = 0
    for trick in range(12):
        h = hands[leader]
        lead = h.pop(floor(rand() * len(h)))
        score[leader] += 1
        f = hands[1 - leader]
        same = [i for i, c in enumerate(f) if c >> 3 == lead >> 3]
        c = f.pop(same[floor(rand() * len(same))] if same else floor(rand() * len(f)))
        if c >> 3 == lead >> 3 and c > lead:
            leader = 1 - leader
            score[leader] += 2 if trick == 11 else 1
        elif trick == 11:
            score[leader] += 1
    return score[0] + score[1]


def rate(fn: object, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    n = 0
    f = fn  # type: ignore[assignment]
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            f(rng)  # type: ignore[operator]
        n += 50
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time for each measurement")
    ap.add_argument("--rounds", type=int, default=3, help="alternate rounds; the best of each is kept")
    ap.add_argument("--count", choices=("engine", "bare"),
                    help="play --deals seeded deals of one side and print nothing: for valgrind's instruction count")
    ap.add_argument("--deals", type=int, default=300, help="how many deals --count plays")
    args = ap.parse_args()
    if args.count:
        play, rng = engine_deal if args.count == "engine" else bare_deal, random.Random(1)
        for _ in range(args.deals):
            play(rng)
        return
    best_engine = best_bare = 0.0
    for r in range(args.rounds):
        best_bare = max(best_bare, rate(bare_deal, args.seconds, r))
        best_engine = max(best_engine, rate(engine_deal, args.seconds, r))
    print(f"engine:                  {native.engine()}")
    print(f"bare playout (baseline): {best_bare:9,.0f} deals/s")
    print(f"engine, full rules:      {best_engine:9,.0f} deals/s")
    print(f"engine / baseline:       {best_engine / best_bare:9.2f}")


if __name__ == "__main__":
    main()
