"""``piquet replay RECORD.json``: score the deals of a record, for a person or as JSON.

The record is replayed through the engine before anything is printed, so an
invalid record prints nothing on stdout: its error goes to stderr, naming the
deal, the step and the law, and the exit code is 2.

At Piquet au cent each deal is told with its game ("game 2, deal 1") and the
game's score; a game is won where a player reaches a hundred in the order of
scoring of Law 67, a double game if the adversary has not fifty, and the
partie by three games out of five, a double counting two (p. 20).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from piquet.core.cards import SUIT_MASKS, Mask, cards_of, format_cards
from piquet.core.deal import Deal, Phase
from piquet.core.events import (
    ELDER,
    ODD_EXCHANGE,
    PENALTY,
    ROLES,
    SCORE_KINDS,
    UNANSWERED,
    YOUNGER,
    Exchange,
    OddExchange,
)
from piquet.core.partie import Partie
from piquet.core.referee import ENTRIES, PENALTIES, Kind, Option, Ruling
from piquet.core.rules import Game, Rules
from piquet.records.record import DealRecord, PartieRecord, RecordError, Ruled, load_record, replay
from piquet.talk.words import Cards, Narrator, game_won_words, number_words, settlement_words, verb

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


@dataclass(frozen=True)
class DealGame:
    """At a game of so many up: the game a deal belongs to, and what it did to it (p. 20)."""

    number: int  # the game, from 1
    deal: int  # the deal within the game, from 1
    scores: dict[str, int]  # the game's scores after the deal (so far, if unfinished)
    won: Game | None  # the game, if this deal won it


def deal_games(partie: Partie) -> list[DealGame]:
    """Each deal's game (Piquet au cent, p. 20); empty for a partie of deals, which has no games."""
    if not partie.rules.partie_of_games:
        return []
    won = {g.last_deal: g for g in partie.games()}
    out: list[DealGame] = []
    number, first = 1, 0
    for i, scores in enumerate(partie.scores_after()):
        out.append(DealGame(number, i - first + 1, scores, won.get(i)))
        if i in won:
            number, first = number + 1, i + 1
    return out


def tally_words(games: Sequence[Game], names: dict[str, str]) -> str:
    """``Games won: Ann 3 (a double), Bob 1.``: a double counts two (p. 20)."""
    parts = []
    for seat in ("A", "B"):
        mine = [g for g in games if g.winner == seat]
        doubles = sum(1 for g in mine if g.double)
        note = "" if not doubles else " (a double)" if doubles == 1 else f" ({number_words(doubles)} doubles)"
        parts.append(f"{names[seat]} {sum(g.counts for g in mine)}{note}")
    return f"Games won: {', '.join(parts)}."


_ROLE_WORDS = re.compile(r"\b([Tt]he) (elder|younger)\b")


def ruling_words(ruled: Ruled, ruling: Ruling, option: Option, names: tuple[str, str]) -> str:
    """An irregularity told with its law and the ruling's words, the roles by the players' names:
    ``Bob took in more than he discarded (Law 35): he plays with more than twelve cards and reckons nothing this
    deal (Ann's choice).``"""
    i = ruled.irregularity

    def named(text: str) -> str:
        return _ROLE_WORDS.sub(lambda m: names[ROLES.index(m.group(2))], text)

    offender = option.role if option.role is not None else i.offender
    if i.kind is Kind.WRONG_COUNT:
        what = (f"{names[ELDER]} is dealt {number_words(i.elder_cards)} cards, {names[YOUNGER]} "
                f"{number_words(i.younger_cards)}, and {number_words(i.stock_cards)} are left in the stock")
    else:
        what = ENTRIES[i.kind].label
        if offender is not None and what.startswith("He "):
            what = f"{names[offender]} {what[3:]}"
        what = named(what)
    says = option.says
    if offender is not None and what.startswith(f"{names[offender]} "):
        says = re.sub(rf"^the {ROLES[offender]}\b", "he", says)
    says = named(says)
    if says.endswith("reckons nothing"):
        says += " this deal"
    choice = f" ({names[ruling.chooser]}'s choice)" if ruling.chooser is not None and len(ruling.options) > 1 else ""
    return f"{what} ({ruling.law}): {says}{choice}."


def deal_rulings(record: DealRecord, rules: Rules) -> list[tuple[Ruled, Ruling, Option]]:
    """A replayed deal's irregularities with the referee's ruling on each and the option chosen."""
    out = []
    for r in record.irregularities:
        ruling = r.ruling(rules)
        out.append((r, ruling, ruling.option(r.remedy)))
    return out


def breakdown(deal: Deal, role: int, seat: str) -> dict[str, Any]:
    """One player's scores in a deal, as scored in that deal (record format, "Replaying")."""
    out: dict[str, Any] = {"seat": seat}
    out.update(zip(SCORE_KINDS, deal.scores[role], strict=True))
    out["total"] = deal.total(role)
    return out


def scores_json(partie: Partie) -> dict[str, Any]:
    """The ``--json`` document: each deal's breakdown, then the partie's state (Laws 71-73).

    At Piquet au cent each deal has its ``game`` (number, deal in the game, the game's scores after it, and
    the winner and whether double if it won it), and the partie its ``games`` and their ``tally`` (p. 20).
    """
    deals = [
        {"dealer": partie.dealer(i),
         "elder": breakdown(d, ELDER, partie.seat(i, ELDER)),
         "younger": breakdown(d, YOUNGER, partie.seat(i, YOUNGER))}
        for i, d in enumerate(partie.deals)
    ]
    for entry, g in zip(deals, deal_games(partie), strict=False):
        entry["game"] = {"number": g.number, "deal": g.deal, "scores": dict(g.scores),
                         "winner": g.won.winner if g.won else None, "double": bool(g.won and g.won.double)}
    s = partie.settlement()
    state: dict[str, Any] = {"scores": dict(partie.scores), "finished": s.finished, "winner": s.winner,
                             "rubicon": s.rubicon, "points_won": s.points_won}
    if partie.rules.partie_of_games:
        state["games"] = [{"number": g.number, "first_deal": g.first_deal + 1, "last_deal": g.last_deal + 1,
                           "scores": dict(g.scores), "winner": g.winner, "double": g.double} for g in s.games]
        state["tally"] = dict(s.tally)
    return {"deals": deals, "partie": state}


# ---------------------------------------------------------------- for a person


class _Writer:
    def __init__(self, partie: Partie, record: PartieRecord, out: TextIO) -> None:
        self.partie = partie
        self.record = record
        self.out = out
        players = record.players or {}
        self.names = {seat: players.get(seat) or seat for seat in ("A", "B")}
        #: Names that change from a deal on (``piquet play --resume --level``): told at that deal.
        self.changes = {i: d.players for i, d in enumerate(record.deals) if d.players}

    def label(self, seat: str) -> str:
        name = self.names[seat]
        return name if name == seat else f"{name} ({seat})"

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def run(self) -> None:
        p = self.partie
        self.say(f"{p.rules.title}: {self.label('A')} and {self.label('B')}.")
        games = deal_games(p)
        for i in range(len(p.deals)):
            self.say()
            self.deal(i, games[i] if games else None)
        self.say()
        if p.rules.partie_of_games:
            self.games_card(games)
        else:
            self.partie_card()

    # ------------------------------------------------------------ a deal

    def deal(self, i: int, game: DealGame | None = None) -> None:
        p = self.partie
        d = p.deals[i]
        seats = (p.seat(i, ELDER), p.seat(i, YOUNGER))
        names = (self.names[seats[0]], self.names[seats[1]])
        mult = p.rules.multiplier(i)
        double = ", counting double" if mult > 1 else ""
        which = f"Deal {i + 1} of {p.deals_needed}{double}" if game is None else \
            f"Deal {i + 1} (game {game.number}, deal {game.deal})"
        self.say(f"{which}: {self.label(p.dealer(i))} deals; {self.label(seats[ELDER])} is elder hand.")
        for seat, name in sorted(self.changes.get(i, {}).items()):
            self.say(f"  From this deal on, {seat} is {name}.")
        if game is not None and d.game is not None:
            before = dict(zip(seats, d.game, strict=True))
            if game.deal == 1:
                self.say(f"  Game {game.number} begins: both players at nothing (a hundred up, p. 20).")
            else:
                self.say(f"  The game stands at {self.names['A']} {before['A']}, {self.names['B']} {before['B']}.")
        for role in (ELDER, YOUNGER):
            self.say(f"  {names[role]} is dealt {_by_suits(d.dealt[role])}.")
        # Each irregularity is told where it took effect: an exchange after it is told, a penalty before it is
        # entered; one the engine shows no sign of (a count that stands, a penalty waived) after the deal.
        told: dict[tuple[str, int], str] = {}
        for ruled, ruling, option in deal_rulings(self.record.deals[i], p.rules):
            words = ruling_words(ruled, ruling, option, names)
            role = option.role if option.role is not None else -1
            if ruled.took_in is not None:
                told[ODD_EXCHANGE, role] = words
            elif ruled.remedy in PENALTIES:
                told[PENALTY, role] = words
            else:
                self.say(f"  {words}")
        held = []
        for role in (ELDER, YOUNGER):
            taken = 0
            for c in d.taken(role):
                taken |= 1 << c
            held.append(d.dealt[role] | taken)
        self.talk(d, names, (held[0], held[1]), seats, told)
        if d.game_won is not None and d.trick <= 12:
            self.say(f"  Deal {i + 1} stops there: the game is won, and the rest is not played (p. 20).")
        elif d.is_over:
            self.say(f"  Deal {i + 1} is over.")
        else:
            waiting = _WAITING.get(d.phase)
            if d.phase == Phase.PLAY:
                waiting = f"trick {d.trick}, {names[d.to_move or 0]} to play"
            self.say(f"  Deal {i + 1} is unfinished: the record stops with {waiting}. Scores so far:")
        self.deal_card(d, seats, mult)
        if game is not None:
            self.game_after(d, game)

    def game_after(self, d: Deal, game: DealGame) -> None:
        """The game's score after a deal, and the game if the deal won it (p. 20)."""
        a, b = self.names["A"], self.names["B"]
        if game.won is None:
            so_far = "" if d.is_over else " so far"
            self.say(f"  Game {game.number}{so_far}: {a} {game.scores['A']}, {b} {game.scores['B']}.")
            return
        self.say(f"  {game_won_words(game.won, d, self.names)}.")
        self.say(f"  {tally_words(self.partie.games()[:game.number], self.names)}")

    def talk(self, d: Deal, names: tuple[str, str], held: tuple[Mask, Mask], seats: tuple[str, str],
             rulings: dict[tuple[str, int], str] | None = None) -> None:
        """The table talk of the deal, with the play a line a trick and the running score (A's, then B's);
        ``rulings``: the words of the rulings on an irregular exchange or a penalty, by the kind of event and role
        they go with."""
        rulings = rulings or {}
        first = ELDER if seats[ELDER] == "A" else YOUNGER
        narrator = Narrator(names, held)
        trick: list[str] = []
        number = 0
        interrupted = False
        # The deal's lines, each trick's with the running score after it: the score is put in one column,
        # to the right of the longest trick, once the deal is told.
        told: list[tuple[str, str | None]] = []

        def flush(score: bool = True) -> None:
            nonlocal interrupted
            if not trick:
                return
            head = " " * 9 if interrupted else f"Trick {number:>2}:"
            count = narrator.count
            running = f"{names[first]} {count[first]}, {names[1 - first]} {count[1 - first]}" if score else None
            told.append((f"  {head} {', '.join(trick)}", running))
            interrupted = not score
            trick.clear()

        def short(cards: Cards) -> str:
            return format_cards(cards_of(cards.mask))

        for line in narrator.lines(d.events):
            if line.kind == UNANSWERED:  # the cards that cannot be played to: the twelfth trick (Law 57)
                flush()
                number, interrupted = line.trick or 12, False
                trick.append(line.text.rstrip("."))
                continue
            if line.trick is not None:
                if line.kind == "play" and line.trick != number:
                    flush()
                    number, interrupted = line.trick, False
                if line.kind in ("play", "trick"):
                    trick.append(line.render(short).rstrip("."))
                continue  # the counts in the play: shown at the end of the trick
            flush(score=line.kind == "count")
            if line.kind == "exchange":
                e = next(e for e in d.events if isinstance(e, Exchange) and e.role == line.role)
                told.append((f"  {_exchange(d, e, names)}", None))
            elif line.kind == ODD_EXCHANGE:
                odd = next(e for e in d.events if isinstance(e, OddExchange) and e.role == line.role)
                told.append((f"  {_odd_exchange(d, odd, names)}", None))
                if (ODD_EXCHANGE, line.role) in rulings:
                    told.append((f"  {rulings[ODD_EXCHANGE, line.role]}", None))
            elif line.kind == PENALTY:
                if (PENALTY, line.role) in rulings:
                    told.append((f"  {rulings[PENALTY, line.role]}", None))
                told.append((f"  {line.text}", None))
            elif line.speaker is not None:
                told.append((f"    {names[line.speaker]}: \"{line.text}\"", None))
            else:
                told.append((f"  {line.text}", None))
        flush()
        column = max([72] + [len(text) + 3 for text, running in told if running is not None])
        for text, running in told:
            self.say(text if running is None else f"{text:<{column}}{running}")

    def deal_card(self, d: Deal, seats: tuple[str, str], mult: int) -> None:
        """The deal's score card, headed by the players' names, in the same order every deal (A, then B)."""
        a, b = self.names["A"], self.names["B"]
        ra, rb = (ELDER, YOUNGER) if seats[ELDER] == "A" else (YOUNGER, ELDER)
        w = max(len(a), len(b)) + 2
        self.say(f"  {'':<20}{a:>{w}}{b:>{w}}")
        for k, label in enumerate(_ROWS):
            x, y = d.scores[ra][k], d.scores[rb][k]
            if x or y or k in (1, 2, 3, 4, 5):
                self.say(f"  {label:<20}{x:>{w}}{y:>{w}}")
        self.say(f"  {'total':<20}{d.total(ra):>{w}}{d.total(rb):>{w}}")
        if mult > 1:
            self.say(f"  {'in the partie':<20}{d.total(ra) * mult:>{w}}{d.total(rb) * mult:>{w}}")

    # ------------------------------------------------------------ the partie

    def partie_card(self) -> None:
        p = self.partie
        a, b = self.names["A"], self.names["B"]
        w = max(len(a), len(b)) + 2
        dw = max(8, w)
        self.say("The partie:")
        self.say(f"  {'deal':<6}{'dealer':<{dw}}{a:>{w}}{b:>{w}}")
        for i in range(len(p.deals)):
            ds = p.deal_score(i)
            flag = "" if p.deals[i].is_over else "  (unfinished)"
            self.say(f"  {i + 1:<6}{self.names[p.dealer(i)]:<{dw}}{ds['A']:>{w}}{ds['B']:>{w}}{flag}")
        sc = p.scores
        self.say(f"  {'total':<{6 + dw}}{sc['A']:>{w}}{sc['B']:>{w}}")
        played = sum(1 for d in p.deals if d.is_over)
        names = {seat: self.label(seat) for seat in ("A", "B")}
        self.say(settlement_words(p.settlement(), sc, p.rules, names, played, p.deals_needed))


    def games_card(self, games: list[DealGame]) -> None:
        """The partie of games: each deal with its game and the game's score, the games won (p. 20)."""
        p = self.partie
        a, b = self.names["A"], self.names["B"]
        w = max(len(a), len(b)) + 2
        dw = max(8, w)
        self.say("The partie, three games out of five, a double counting two (p. 20):")
        self.say(f"  {'deal':<6}{'game':<6}{'dealer':<{dw}}{a:>{w}}{b:>{w}}   the game")
        for i, g in enumerate(games):
            ds = p.deal_score(i)
            if g.won is not None:
                who = self.names[g.won.winner]
                double = ", a double" if g.won.double else ""
                note = f"{who} {'win' if who == 'You' else 'wins'} game {g.number}{double}"
            else:
                note = "unfinished" if not p.deals[i].is_over else ""
            self.say(f"  {i + 1:<6}{g.number:<6}{self.names[p.dealer(i)]:<{dw}}{ds['A']:>{w}}{ds['B']:>{w}}   "
                     f"{g.scores['A']} to {g.scores['B']}{'  ' + note if note else ''}")
        self.say(f"  {tally_words(p.games(), self.names)}")
        played = sum(1 for d in p.deals if d.is_over)
        names = {seat: self.label(seat) for seat in ("A", "B")}
        self.say(settlement_words(p.settlement(), p.scores, p.rules, names, played, p.deals_needed))


def _by_suits(mask: Mask) -> str:
    """A hand shown suit by suit: ``AS KS JS  AH QH``."""
    return "  ".join(format_cards(cards_of(mask & m)) for m in SUIT_MASKS if mask & m)


def _exchange(d: Deal, e: Exchange, names: tuple[str, str]) -> str:
    role = e.role
    if not e.taken:  # Piquet au cent: the younger need not discard (p. 17)
        left = f"; {number_words(e.left)} left in the stock" if e.left else ""
        his = "your" if names[role] == "You" else "his"
        return f"{verb(names[role], 'keeps')} all {his} cards, discarding none (p. 17){left}."
    taken = format_cards(d.taken(role))
    left = f"; {e.left} left in the stock" if e.left else ""
    return (f"{verb(names[role], 'discards')} {format_cards(cards_of(d.discards[role]))} "
            f"and {'take' if names[role] == 'You' else 'takes'} in {taken}{left}.")


def _odd_exchange(d: Deal, e: OddExchange, names: tuple[str, str]) -> str:
    """An exchange of one number for another (Laws 30, 31, 35, 40-43): the cards, and what the hand then holds."""
    role = e.role
    name = names[role]
    discarded = format_cards(cards_of(d.discards[role])) or "none"
    taken = format_cards(d.taken(role)) or "none"
    left = f"; {e.left} left in the stock" if e.left else ""
    holds = d.dealt[role].bit_count() - e.discarded + e.taken
    return (f"{verb(name, 'discards')} {discarded} and {'take' if name == 'You' else 'takes'} in {taken}{left}: "
            f"{'your' if name == 'You' else 'his'} hand holds {number_words(holds)}.")


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


__all__ = ["DealGame", "breakdown", "deal_games", "deal_rulings", "ruling_words", "run_replay", "scores_json",
           "tally_words"]
