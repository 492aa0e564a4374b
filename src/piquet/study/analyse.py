"""The double-dummy value of every card a player could have played; ``piquet analyse`` (the review of the
partie, ``piquet.study.review``, of which this is the play).

Each deal of a record is played again through the engine.  Before every card
the exact solver is given both hands open and values each legal card for the
player to play: the difference between his points still to come and his
adversary's, in play and for the cards (ten, or forty for a capot), with best
play by both from then on (Laws 65-66).  At a lead the point for leading is
still to come and counts; at the reply it was scored with the lead and does
not.  A pique is not counted.  A card's *cost* is the best card's value less
the value of the card played: what the choice gave away against perfect play
with open cards (a player who cannot see his adversary's hand may well have
had good reason for it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from piquet.core.actions import Play
from piquet.core.cards import Card, card_name
from piquet.core.deal import Deal
from piquet.core.events import ROLES
from piquet.core.partie import Partie
from piquet.players.solver import Position, card_values
from piquet.records.record import RecordError, load_record, replay
from piquet.study.review import ReviewOptions, review_partie, write_text


@dataclass(frozen=True)
class CardAnalysis:
    """One card played: who chose it, the value of each card he could have played, the one he did."""

    deal: int  # from 0 (the review, and its JSON, count from 1)
    trick: int  # from 1
    role: int
    seat: str
    played: Card
    values: dict[Card, int]
    leads: bool = False  # the card opens the trick

    @property
    def best(self) -> int:
        return max(self.values.values())

    @property
    def cost(self) -> int:
        return self.best - self.values[self.played]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "trick": self.trick, "to_play": ROLES[self.role], "played": card_name(self.played),
            "values": {card_name(c): v for c, v in sorted(self.values.items(), key=lambda cv: (-cv[1], cv[0]))},
        }


def analyse_deal(deal: Deal, index: int, partie: Partie) -> Iterator[CardAnalysis]:
    """Every card played in ``deal`` (number ``index`` in ``partie``), valued double dummy."""
    again = Deal(deal.dealt[0], deal.dealt[1], deal.stock, deal.rules, deal.game)
    for action in deal.history:
        if isinstance(action, Play):
            role = again.to_move
            assert role is not None
            values = card_values(Position.of_deal(again))
            yield CardAnalysis(index, again.trick, role, partie.seat(index, role), action.card, values,
                               leads=again.lead < 0)
        again.apply(action)


def analyse_partie(partie: Partie) -> Iterator[CardAnalysis]:
    for i, deal in enumerate(partie.deals):
        yield from analyse_deal(deal, i, partie)


def seat_named(who: str, names: dict[str, str]) -> str | None:
    """The seat ``who`` names: "A" or "B" (any case), or a player's name as the record gives it."""
    if who.upper() in ("A", "B"):
        return who.upper()
    found = [s for s, n in names.items() if n.casefold() == who.casefold()]
    return found[0] if len(found) == 1 else None


def run_analyse(ns: argparse.Namespace) -> int:
    """``piquet analyse RECORD.json [--json] [--player P] [--worlds N] [--discards N] [--seed N]``: the review of
    the partie (``piquet.study.review``); 0 when reviewed, 2 for an invalid record or option."""
    try:
        record = load_record(ns.record)
        partie = replay(record)
    except RecordError as e:
        print(f"piquet analyse: {ns.record}: {e}", file=sys.stderr)
        return 2
    names = {seat: (record.players or {}).get(seat) or seat for seat in ("A", "B")}
    player = None
    if ns.player is not None:
        player = seat_named(ns.player, names)
        if player is None:
            print(f"piquet analyse: --player {ns.player}: not a player of this partie (A, B, "
                  f"{names['A']} or {names['B']})", file=sys.stderr)
            return 2
    given = {k: v for k, v in (("worlds", ns.worlds), ("discards_per_count", ns.discards), ("seed", ns.seed))
             if v is not None}
    try:
        options = ReviewOptions(**given)
    except ValueError as e:
        print(f"piquet analyse: {e}", file=sys.stderr)
        return 2
    review = review_partie(partie, names, options)
    try:
        if ns.json:
            json.dump(review.to_json(player), sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            write_text(review, sys.stdout, player)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


__all__ = ["CardAnalysis", "analyse_deal", "analyse_partie", "run_analyse", "seat_named"]
