"""``piquet analyse``: the double-dummy value of every card a player could have played.

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
from typing import Any, TextIO

from piquet.core.actions import Play
from piquet.core.cards import Card, card_name
from piquet.core.deal import Deal
from piquet.core.events import ROLES
from piquet.core.partie import Partie
from piquet.players.solver import Position, card_values
from piquet.records.record import RecordError, load_record, replay


@dataclass(frozen=True)
class CardAnalysis:
    """One card played: who chose it, the value of each card he could have played, the one he did."""

    deal: int  # from 0
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


def _write_text(partie: Partie, names: dict[str, str], out: TextIO) -> None:
    costs: dict[str, int] = {"A": 0, "B": 0}
    errors: dict[str, int] = {"A": 0, "B": 0}
    last_deal = -1
    for a in analyse_partie(partie):
        if a.deal != last_deal:
            last_deal = a.deal
            elder = partie.seat(a.deal, 0)
            younger = partie.seat(a.deal, 1)
            out.write(f"\nDeal {a.deal + 1}: {names[elder]} elder, {names[younger]} younger\n")
        ranked = sorted(a.values.items(), key=lambda cv: (-cv[1], cv[0]))
        options = "  ".join(f"{card_name(c)} {v:+d}" for c, v in ranked)
        verdict = "best" if a.cost == 0 else f"cost {a.cost}"
        action = "leads" if a.leads else "plays"
        out.write(f"  trick {a.trick:2d}  {names[a.seat]:<10} {action} {card_name(a.played):<3} ({verdict}):  "
                  f"{options}\n")
        costs[a.seat] += a.cost
        errors[a.seat] += a.cost > 0
    out.write("\nPoints given away against open-card best play:\n")
    for seat in ("A", "B"):
        out.write(f"  {names[seat]}: {costs[seat]} in {errors[seat]} cards\n")


def run_analyse(ns: argparse.Namespace) -> int:
    """``piquet analyse RECORD.json [--json]``: 0 when analysed, 2 for an invalid record."""
    try:
        record = load_record(ns.record)
        partie = replay(record)
    except RecordError as e:
        print(f"piquet analyse: {ns.record}: {e}", file=sys.stderr)
        return 2
    names = {seat: (record.players or {}).get(seat) or seat for seat in ("A", "B")}
    try:
        if ns.json:
            json.dump([a.to_json() for a in analyse_partie(partie)], sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            _write_text(partie, names, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


__all__ = ["CardAnalysis", "analyse_deal", "analyse_partie", "run_analyse"]
