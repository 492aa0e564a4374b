"""``piquet replay RECORD.json``: score the deals of a record, for a person or as JSON.

The record is replayed through the engine before anything is printed, so an
invalid record prints nothing on stdout: its error goes to stderr, naming the
deal, the step and the law, and the exit code is 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from .cards import SUIT_MASKS, Mask, cards_of, format_cards
from .deal import Deal, Phase
from .events import (
    ELDER,
    EXCHANGE,
    PLAY,
    S_CARDS,
    S_PLAY,
    SCORE,
    SCORE_KINDS,
    YOUNGER,
    Event,
)
from .partie import Partie
from .record import PartieRecord, RecordError, load_record, replay
from .words import Narrator, settlement_words

#: Score-card rows, in the order of the score kinds (Law 67).
_ROWS = ("carte blanche", "point", "sequences", "quatorzes and trios", "play", "the cards", "pique", "repique")

_WAITING = {
    Phase.ELDER_DISCARD: "the elder hand to discard",
    Phase.ELDER_LOOK: "the elder hand to say whether he looks at the cards he left",
    Phase.YOUNGER_DISCARD: "the younger hand to discard",
    Phase.ELDER_POINT: "the elder hand to call his point",
    Phase.YOUNGER_POINT: "the younger hand to answer the point",
    Phase.ELDER_SEQUENCES: "the elder hand to call his sequences",
    Phase.YOUNGER_SEQUENCES: "the younger hand to answer the sequence",
    Phase.ELDER_SETS: "the elder hand to call his quatorzes and trios",
    Phase.YOUNGER_SETS: "the younger hand to answer the quatorze or trio",
    Phase.YOUNGER_RECKON_POINT: "the younger hand to reckon his point",
    Phase.YOUNGER_RECKON_SEQUENCES: "the younger hand to reckon his sequences",
    Phase.YOUNGER_RECKON_SETS: "the younger hand to reckon his quatorzes and trios",
    Phase.YOUNGER_LOOK: "the younger hand to say whether he looks at the cards he left",
}


def breakdown(deal: Deal, role: int, seat: str) -> dict[str, Any]:
    """One player's scores in a deal, as scored in that deal (record format, "Replaying")."""
    out: dict[str, Any] = {"seat": seat}
    out.update(zip(SCORE_KINDS, deal.scores[role], strict=True))
    out["total"] = deal.total(role)
    return out


def scores_json(partie: Partie) -> dict[str, Any]:
    """The ``--json`` document: each deal's breakdown, then the partie's state (Laws 71-73)."""
    deals = [
        {"dealer": partie.dealer(i),
         "elder": breakdown(d, ELDER, partie.seat(i, ELDER)),
         "younger": breakdown(d, YOUNGER, partie.seat(i, YOUNGER))}
        for i, d in enumerate(partie.deals)
    ]
    s = partie.settlement()
    return {"deals": deals,
            "partie": {"scores": dict(partie.scores), "finished": s.finished, "winner": s.winner,
                       "rubicon": s.rubicon, "points_won": s.points_won}}


# ---------------------------------------------------------------- for a person


class _Writer:
    def __init__(self, partie: Partie, record: PartieRecord, out: TextIO) -> None:
        self.partie = partie
        self.out = out
        players = record.players or {}
        self.names = {seat: players.get(seat) or seat for seat in ("A", "B")}

    def label(self, seat: str) -> str:
        name = self.names[seat]
        return name if name == seat else f"{name} ({seat})"

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def run(self) -> None:
        p = self.partie
        self.say(f"{p.rules.title}: {self.label('A')} and {self.label('B')}.")
        for i in range(len(p.deals)):
            self.say()
            self.deal(i)
        self.say()
        self.partie_card()

    # ------------------------------------------------------------ a deal

    def deal(self, i: int) -> None:
        p = self.partie
        d = p.deals[i]
        seats = (p.seat(i, ELDER), p.seat(i, YOUNGER))
        names = (self.names[seats[0]], self.names[seats[1]])
        mult = p.rules.multiplier(i)
        double = ", counting double" if mult > 1 else ""
        self.say(f"Deal {i + 1} of {p.deals_needed}{double}: {self.label(p.dealer(i))} deals; "
                 f"{self.label(seats[ELDER])} is elder hand.")
        for role in (ELDER, YOUNGER):
            self.say(f"  {names[role]} is dealt {_by_suits(d.dealt[role])}.")
        held = []
        for role in (ELDER, YOUNGER):
            taken = 0
            for c in d.taken(role):
                taken |= 1 << c
            held.append(d.dealt[role] | taken)
        self.talk(d, names, (held[0], held[1]))
        if d.is_over:
            self.say(f"  Deal {i + 1} is over.")
        else:
            waiting = _WAITING.get(d.phase)
            if d.phase == Phase.PLAY:
                waiting = f"trick {d.trick}, {names[d.to_move or 0]} to play"
            self.say(f"  Deal {i + 1} is unfinished: the record stops with {waiting}. Scores so far:")
        self.deal_card(d, names, mult)

    def talk(self, d: Deal, names: tuple[str, str], held: tuple[Mask, Mask]) -> None:
        """The table talk of the deal, with the play a line a trick and the running score."""
        narrator = Narrator(names, held)
        trick: list[str] = []
        number = 0
        interrupted = False

        def flush(score: bool = True) -> None:
            nonlocal interrupted
            if not trick:
                return
            head = " " * 10 if interrupted else f"Trick {number:>2}:"
            text = f"  {head} {', '.join(trick)}"
            if score:
                text = f"{text:<46}{names[0]} {narrator.count[0]}, {names[1]} {narrator.count[1]}"
            self.say(text)
            interrupted = not score
            trick.clear()

        for e in d.events:
            if e.kind == SCORE and e.detail == S_PLAY:
                list(narrator.lines([e]))  # keeps the count: shown at the end of the trick
                continue
            if e.kind == PLAY and e.value == number:
                list(narrator.lines([e]))
                trick.append(f"{names[e.role]} plays {format_cards(cards_of(e.cards))}")
                continue
            flush(score=e.kind == PLAY or e.kind == SCORE and e.detail == S_CARDS)
            lines = list(narrator.lines([e]))
            if e.kind == PLAY:
                number = e.value
                interrupted = False
                trick.append(f"{names[e.role]} leads {format_cards(cards_of(e.cards))}")
            elif e.kind == EXCHANGE:
                self.say(f"  {_exchange(d, e, names)}")
            else:
                for who, text in lines:
                    self.say(f"    {names[who]}: \"{text}\"" if who is not None else f"  {text}")
        flush()

    def deal_card(self, d: Deal, names: tuple[str, str], mult: int) -> None:
        w = max(len(n) for n in names) + 2
        self.say(f"  {'':<20}{names[ELDER]:>{w}}{names[YOUNGER]:>{w}}")
        for k, label in enumerate(_ROWS):
            e, y = d.scores[ELDER][k], d.scores[YOUNGER][k]
            if e or y or k in (1, 2, 3, 4, 5):
                self.say(f"  {label:<20}{e:>{w}}{y:>{w}}")
        self.say(f"  {'total':<20}{d.total(ELDER):>{w}}{d.total(YOUNGER):>{w}}")
        if mult > 1:
            self.say(f"  {'in the partie':<20}{d.total(ELDER) * mult:>{w}}{d.total(YOUNGER) * mult:>{w}}")

    # ------------------------------------------------------------ the partie

    def partie_card(self) -> None:
        p = self.partie
        a, b = self.names["A"], self.names["B"]
        w = max(len(a), len(b)) + 2
        self.say("The partie:")
        self.say(f"  {'deal':<6}{'dealer':<8}{a:>{w}}{b:>{w}}")
        for i in range(len(p.deals)):
            ds = p.deal_score(i)
            flag = "" if p.deals[i].is_over else "  (unfinished)"
            self.say(f"  {i + 1:<6}{p.dealer(i):<8}{ds['A']:>{w}}{ds['B']:>{w}}{flag}")
        sc = p.scores
        self.say(f"  {'total':<14}{sc['A']:>{w}}{sc['B']:>{w}}")
        played = sum(1 for d in p.deals if d.is_over)
        names = {seat: self.label(seat) for seat in ("A", "B")}
        self.say(settlement_words(p.settlement(), sc, p.rules, names, played, p.deals_needed))


def _by_suits(mask: Mask) -> str:
    """A hand shown suit by suit: ``AS KS JS  AH QH``."""
    return "  ".join(format_cards(cards_of(mask & m)) for m in SUIT_MASKS if mask & m)


def _exchange(d: Deal, e: Event, names: tuple[str, str]) -> str:
    role = e.role
    taken = format_cards(d.taken(role))
    left = f"; {e.detail} left in the stock" if e.detail else ""
    return (f"{names[role]} discards {format_cards(cards_of(d.discards[role]))} "
            f"and takes in {taken}{left}.")


# ---------------------------------------------------------------- the command


def run_replay(ns: argparse.Namespace) -> int:
    """``piquet replay RECORD.json [--json]``: 0 when scored, 2 for an invalid record."""
    try:
        record = load_record(ns.record)
        partie = replay(record)
    except RecordError as e:
        print(f"piquet replay: {ns.record}: {e}", file=sys.stderr)
        return 2
    try:
        if ns.json:
            print(json.dumps(scores_json(partie), indent=2))
        else:
            _Writer(partie, record, sys.stdout).run()
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


__all__ = ["breakdown", "run_replay", "scores_json"]
