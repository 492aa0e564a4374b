"""The hands a computer level keeps after its exchange, simulated with intervals (``piquet odds exchange --level``).

The exact odds stand below the players (``piquet.odds``); this simulation plays
a level's exchange, so it stands above them.
"""

from __future__ import annotations

import random

from piquet.core.cards import Mask
from piquet.core.combinations import best_point, best_sequences, best_sets
from piquet.core.deal import Deal, Phase
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import observe
from piquet.odds.chances import Estimate, OddsError
from piquet.players.levels import make_player

#: What ``after_exchange`` counts for each hand (tested in this order by ``_tally``).
_AFTER = ("point 4+", "point 5+", "point 6+", "point 7+", "tierce or better", "quart or better", "quint or better",
          "sixieme or better", "quatorze", "trio")


def _tally(hand: Mask) -> list[bool]:
    pt = best_point(hand).bit_count()
    seqs = best_sequences(hand)
    run = seqs[0].bit_count() if seqs else 0
    sets = best_sets(hand)
    return [pt >= 4, pt >= 5, pt >= 6, pt >= 7, run >= 3, run >= 4, run >= 5, run >= 6,
            bool(sets) and sets[0].bit_count() == 4, bool(sets)]


def after_exchange(level: str, samples: int, seed: int) -> dict[str, dict[str, Estimate]]:
    """How the hands of a computer level end after its exchange, over ``samples`` random deals (simulated).

    Both hands are played by the level; the same seed gives the same deals and
    counts.  For "elder" and "younger": "point 4+" .. "point 7+" (cards in
    the point), "tierce or better" .. "sixieme or better", "quatorze" and
    "trio" (a trio or a quatorze).

    >>> r = after_exchange("random", 20, seed=1)
    >>> sorted(r), r["elder"]["point 4+"].samples, r == after_exchange("random", 20, seed=1)
    (['elder', 'younger'], 20, True)
    """
    if samples < 1:
        raise OddsError(f"at least one deal is needed, not {samples}")
    try:
        players = (make_player(level, seed), make_player(level, seed + 1))
    except ValueError as e:
        raise OddsError(str(e)) from None
    rng = random.Random(seed)
    hits = [[0] * len(_AFTER), [0] * len(_AFTER)]
    for _ in range(samples):
        deal = Deal.shuffled(rng)
        while deal.phase < Phase.ELDER_POINT:
            role = deal.to_move
            assert role is not None
            deal.apply(players[role].choose(observe(deal, role)))
        for role in (ELDER, YOUNGER):
            for i, ok in enumerate(_tally(deal.hands[role])):
                hits[role][i] += ok
    return {who: {name: Estimate(hits[role][i], samples) for i, name in enumerate(_AFTER)}
            for who, role in (("elder", ELDER), ("younger", YOUNGER))}
