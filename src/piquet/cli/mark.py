"""``piquet mark``: the marker for a game played with real cards.

Two people play with a real pack; the program asks, deal by deal, who dealt,
the calls and answers (or the quick scores), the tricks and play points (or
the cards), and keeps the score by the laws.  Answers are read with
``input()``, so a partie can be scripted: ``help`` at any prompt, ``undo``
takes back the last answer (at the start of a deal, the deal before),
``wrong`` when something went wrong at the table (the irregularities by
group, the facts the law asks, its ruling, the choice it gives and its effect
on the score: ``piquet.core.referee``), and ``quit`` (or the end of input)
saves the record, with ``--record FILE``, and leaves.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from rich.console import Console
from rich.table import Table

from piquet.core.cards import parse_cards, parse_rank
from piquet.core.referee import FACTS, IRREGULARITIES, Irregularity, Option, Ruling, rule
from piquet.core.rules import rules_named
from piquet.marker.calls import ELDER, REPLY_NAMES, YOUNGER, Declared, MarkError, PointCall, SequenceCall, SetCall
from piquet.marker.deal import CardPlay, FullCalls, MarkedDeal, PlayTotals, QuickScores, check_full, check_quick
from piquet.marker.partie import MarkedPartie
from piquet.marker.record import load_marked, marked_to_json
from piquet.marker.telling import deal_lines, partie_text
from piquet.marker.wrong import CORRECTIONS, Pending, apply_choice
from piquet.talk.guide import rules_text, topic_list
from piquet.talk.words import settlement_words

HELP = ("Answer the question, or: help (this), undo (take back the last answer), wrong (something went wrong "
        "at the table: a card exposed, thirteen cards, a miscall, a revoke, a score wrongly reckoned ...; the "
        "laws' ruling), rules TOPIC (how to play: rules pique), quit (save and leave). Press Enter to take the "
        "answer in [brackets].")


class Quit(Exception):
    """The person asked to stop."""


def _none(text: str) -> bool:
    return text.strip().lower() in ("", "none", "no", "-", "nothing")


def parse_point(text: str) -> PointCall | None:
    """``5 49``, ``5``, or none."""
    if _none(text):
        return None
    nums = [int(x) for x in re.findall(r"\d+", text)]
    if not 1 <= len(nums) <= 2:
        raise MarkError("a point is its number of cards, and what they make if it was said: 5 49")
    p = PointCall(nums[0], nums[1] if len(nums) > 1 else None)
    p.check()
    return p


_Call = TypeVar("_Call", SequenceCall, SetCall)


def _parse_calls(text: str, pattern: str, make: Callable[[int, int], _Call], cannot: str) -> tuple[_Call, ...]:
    """Calls separated by commas (or semicolons), each a number and a rank matched by ``pattern``; or none."""
    if _none(text):
        return ()
    out = []
    for part in text.replace(";", ",").split(","):
        m = re.fullmatch(pattern, part.upper())
        if not m:
            raise MarkError(cannot.format(part.strip()))
        call = make(int(m.group(1)), parse_rank(m.group(2)))
        call.check()
        out.append(call)
    return tuple(out)


def parse_sequences(text: str) -> tuple[SequenceCall, ...]:
    """``4 A, 3 Q``: each sequence by its length and head card; or none."""
    return _parse_calls(text, r"\s*([3-8])\s*(?:to\s+(?:the\s+)?)?(10|[AKQJT987])\s*", SequenceCall,
                        "cannot read the sequence {!r}: its length and head card, as 4 K")


def parse_sets(text: str) -> tuple[SetCall, ...]:
    """``4 10, 3 A``: each quatorze or trio by its size and rank; or none."""
    return _parse_calls(text, r"\s*(\d)\s*(10|[AKQJT987])\s*", SetCall,
                        "cannot read {!r}: a quatorze or trio by its size and rank, as 3 A")


def parse_reply(text: str) -> Any:
    key = text.strip().lower()
    if key not in REPLY_NAMES:
        raise MarkError("the reply is good, equal or not good")
    return REPLY_NAMES[key]


def parse_three(text: str) -> tuple[int, int, int]:
    nums = [int(x) for x in re.findall(r"\d+", text)]
    if _none(text):
        return (0, 0, 0)
    if len(nums) != 3:
        raise MarkError("three numbers: for the point, the sequences, the quatorzes and trios (0 for nothing)")
    return (nums[0], nums[1], nums[2])


def parse_yes(text: str) -> bool:
    t = text.strip().lower()
    if t in ("y", "yes"):
        return True
    if t in ("n", "no"):
        return False
    raise MarkError("yes or no")


class MarkSession:
    """The questions of ``piquet mark``, asked deal by deal; the partie is kept whole after each deal."""

    def __init__(self, partie: MarkedPartie, ask: Callable[[str], str], console: Console,
                 path: str | None = None) -> None:
        self.partie = partie
        self.ask_raw = ask
        self.console = console
        self.path = path
        self.answers: list[tuple[str, Any]] = []
        #: Roles that reckon nothing in the deal being entered, and of those the penalties waived (Law 44).
        self.penalties: set[int] = set()
        self.waived: set[int] = set()

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, highlight=False, markup=False)

    # ------------------------------------------------------------ one question

    def _role_name(self, role: int, dealer: str) -> str:
        seat = dealer if role == YOUNGER else ("B" if dealer == "A" else "A")
        return self.partie.name(seat)

    def _next(self) -> tuple[str, str, Callable[[str], Any], str] | None:
        """The next question of the deal: its key, its words, how it is read, and the default answer."""
        a = dict(self.answers)
        p = self.partie
        if "dealer" not in a:
            nxt = p.next_dealer
            return ("dealer", f"Deal: who dealt? {p.players[0]} or {p.players[1]} (or annul, void)",
                    self._read_dealer, p.name(nxt))
        if a["dealer"] in ("annul", "void"):
            return None
        dealer = a["dealer"]
        el, yo = self._role_name(ELDER, dealer), self._role_name(YOUNGER, dealer)
        if "carte_blanche" not in a:
            return ("carte_blanche", f"Carte blanche? none, {el} or {yo}", self._read_who(el, yo), "none")
        if "form" not in a:
            return ("form", "The hands: calls (as spoken) or scores (quick)", self._read_form, "scores")
        if a["form"] == "scores":
            for key, who in (("quick_elder", el), ("quick_younger", yo)):
                if key not in a:
                    return (key, f"{who}'s scores for point, sequences, quatorzes and trios (e.g. 5 4 0)",
                            parse_three, "0 0 0")
        else:
            steps = [("e_point", f"{el}'s point: cards and value (e.g. 5 49), or none", parse_point),
                     ("r_point", f"{yo}'s answer to the point: good, equal or not good", parse_reply),
                     ("e_seqs", f"{el}'s sequences: length and head (e.g. 4 K, 3 Q), or none", parse_sequences),
                     ("r_seqs", f"{yo}'s answer to the sequence: good, equal or not good", parse_reply),
                     ("e_sets", f"{el}'s quatorzes and trios (e.g. 4 10, 3 A), or none", parse_sets),
                     ("r_sets", f"{yo}'s answer to the quatorze or trio: good or not good", parse_reply),
                     ("y_point", f"What {yo} reckons of his own: his point (cards and value), or none", parse_point),
                     ("y_seqs", f"{yo}'s sequences he reckons, or none", parse_sequences),
                     ("y_sets", f"{yo}'s quatorzes and trios he reckons, or none", parse_sets)]
            for i, (key, words, read) in enumerate(steps):
                if key.startswith("r_") and not a.get(steps[i - 1][0]):
                    continue
                if key not in a:
                    return (key, words, read, "good" if key.startswith("r_") else "none")
        if "play" not in a:
            return ("play", f"The play: {el}'s tricks, {el}'s play points, {yo}'s play points (e.g. 7 9 6), "
                    "or cards", self._read_play, "")
        if a["play"] == "cards" and "cards" not in a:
            return ("cards", "The cards played, in order, the elder leading (e.g. AH 10H KH 7D ...)",
                    self._read_cards, "")
        if a.get("need_pique") and "pique" not in a:
            return ("pique", f"Did {el} make a pique? yes or no", parse_yes, "")
        if a.get("need_first") and "first" not in a:
            return ("first", f"Who reached the goal first? {el} or {yo}", self._read_who(el, yo), "")
        return None

    def _read_dealer(self, text: str) -> str:
        t = text.strip().lower()
        if t in ("annul", "void"):
            return t
        for seat, name in zip("AB", self.partie.players, strict=True):
            if t in (seat.lower(), name.lower()):
                return seat
        raise MarkError(f"the dealer is {self.partie.players[0]} or {self.partie.players[1]}")

    @staticmethod
    def _read_who(el: str, yo: str) -> Callable[[str], int | None]:
        def read(text: str) -> int | None:
            t = text.strip().lower()
            if t in ("none", "no", ""):
                return None
            if t in (el.lower(), "elder"):
                return ELDER
            if t in (yo.lower(), "younger"):
                return YOUNGER
            raise MarkError(f"none, {el} or {yo}")
        return read

    @staticmethod
    def _read_form(text: str) -> str:
        t = text.strip().lower()
        if t in ("calls", "full", "c"):
            return "calls"
        if t in ("scores", "quick", "s"):
            return "scores"
        raise MarkError("calls or scores")

    @staticmethod
    def _read_play(text: str) -> Any:
        if text.strip().lower() in ("cards", "card"):
            return "cards"
        nums = [int(x) for x in re.findall(r"\d+", text)]
        if len(nums) != 3:
            raise MarkError("three numbers: the elder's tricks, his play points, the younger's play points")
        return tuple(nums)

    @staticmethod
    def _read_cards(text: str) -> tuple[int, ...]:
        try:
            return tuple(parse_cards(text))
        except ValueError as e:
            raise MarkError(str(e)) from None

    # ------------------------------------------------------------ the deal entered

    def _deal(self) -> MarkedDeal:
        a = dict(self.answers)
        decl: FullCalls | QuickScores
        if a["form"] == "scores":
            decl = QuickScores(a["quick_elder"], a["quick_younger"])
        else:
            decl = FullCalls(Declared(a.get("e_point"), a.get("e_seqs", ()), a.get("e_sets", ())),
                             (a.get("r_point") if a.get("e_point") else None,
                              a.get("r_seqs") if a.get("e_seqs") else None,
                              a.get("r_sets") if a.get("e_sets") else None),
                             Declared(a.get("y_point"), a.get("y_seqs", ()), a.get("y_sets", ())))
        play: PlayTotals | CardPlay
        if a["play"] == "cards":
            play = CardPlay(a["cards"])
        else:
            e_tricks, e_pts, y_pts = a["play"]
            play = PlayTotals(e_tricks, e_pts, y_pts, a.get("pique"), a.get("first"))
        dealer = a["dealer"]
        if not self.partie.deals:  # the first deal says who dealt first (Law 4: the cut's choice)
            self.partie = replace(self.partie, first_dealer=dealer)
        return MarkedDeal(dealer, a["carte_blanche"], decl, play,
                          out_of_turn=dealer != self.partie.next_dealer,
                          reckons_nothing=frozenset(self.penalties), waived=frozenset(self.waived))

    def _drop(self, keys: tuple[str, ...]) -> None:
        first = min((i for i, (k, _) in enumerate(self.answers) if k in keys), default=len(self.answers))
        self.answers = self.answers[:first]

    def _try_hands(self) -> None:
        """Refuse the hands as soon as they are entered, and ask them again (nothing before is lost)."""
        a = dict(self.answers)
        if "play" in a or "form" not in a:
            return
        try:
            if a["form"] == "scores" and "quick_younger" in a:
                check_quick(QuickScores(a["quick_elder"], a["quick_younger"]), self.partie.rules)
            elif a["form"] == "calls" and "y_sets" in a:
                d = self._deal_hands_only()
                check_full(d, self.partie.rules)
        except MarkError as e:
            self.say(f"That cannot be: {e}", "bold red")
            self._drop(("quick_elder",) if a["form"] == "scores" else ("e_point",))

    def _deal_hands_only(self) -> FullCalls:
        a = dict(self.answers)
        return FullCalls(Declared(a.get("e_point"), a.get("e_seqs", ()), a.get("e_sets", ())),
                         (a.get("r_point") if a.get("e_point") else None,
                          a.get("r_seqs") if a.get("e_seqs") else None,
                          a.get("r_sets") if a.get("e_sets") else None),
                         Declared(a.get("y_point"), a.get("y_seqs", ()), a.get("y_sets", ())))

    def _finish_deal(self) -> bool:
        """Add the deal to the partie; on a refusal say why and ask again what is at fault."""
        a = dict(self.answers)
        if a["dealer"] in ("annul", "void"):
            self.partie = self.partie.annul() if a["dealer"] == "annul" else self.partie.void()
            self._new_deal()
            self.say(deal_lines(self.partie, len(self.partie.deals) - 1, 0)[0])
            return True
        try:
            self.partie = self.partie.add(self._deal())
        except MarkError as e:
            if e.law == "Law 69" and "pique" not in a:
                self.answers.append(("need_pique", True))
                return False
            if e.law == "p. 20" and "first" not in a and "both reach" in e.message:
                self.answers.append(("need_first", True))
                return False
            self.say(f"That cannot be: {e}", "bold red")
            at_play = e.law in ("Law 65", "Law 59", "Law 69", "Law 75", "p. 20")
            self._drop(("play", "need_pique", "need_first") if at_play else ("dealer",))
            return False
        self._new_deal()
        n = sum(d.counts for d in self.partie.deals)
        for line in deal_lines(self.partie, len(self.partie.deals) - 1, n):
            self.say(line)
        self.table()
        self.save()
        return True

    # ------------------------------------------------------------ the table, the record

    def table(self) -> None:
        p = self.partie
        t = Table(title="The score (Law 67; the partie, Laws 71-73)")
        t.add_column("deal")
        t.add_column("dealer")
        t.add_column(p.players[0], justify="right")
        t.add_column(p.players[1], justify="right")
        dealers = [p.name(d.dealer) for d in p.deals if d.counts]
        for i, (pts, after) in enumerate(zip(p.deal_points, p.scores_after, strict=True), 1):
            t.add_row(str(i), dealers[i - 1], f"{pts['A']} ({after['A']})", f"{pts['B']} ({after['B']})")
        self.console.print(t)

    def save(self) -> None:
        if self.path is None:
            return
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(marked_to_json(self.partie))
        os.replace(tmp, self.path)

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        try:
            while not self.partie.is_finished:
                self._try_hands()
                step = self._next()
                if step is None:
                    self._finish_deal()
                    continue
                key, words, read, default = step
                text = self._ask(f"{words}" + (f" [{default}]" if default else ""))
                low = text.strip().lower()
                if low == "help":
                    self.say(HELP)
                    continue
                if low == "rules" or low.startswith("rules "):
                    topic = text.strip()[len("rules"):].strip()
                    self.say(rules_text(topic) if topic else topic_list())
                    continue
                if low == "undo":
                    self._undo()
                    continue
                if low == "quit":
                    raise Quit
                if low == "wrong":
                    self._wrong()
                    continue
                try:
                    value = read(text if text.strip() else default)
                except (MarkError, ValueError) as e:
                    self.say(f"That cannot be: {e}", "bold red")
                    continue
                self.answers.append((key, value))
        except Quit:
            self.save()
            kept = f" The record is saved to {self.path}." if self.path else ""
            self.say(f"Leaving the partie.{kept}")
            return 0
        self.say(partie_text(self.partie).splitlines()[-1])
        self.save()
        return 0

    def _ask(self, prompt: str) -> str:
        try:
            return self.ask_raw(prompt + " › ")
        except (EOFError, KeyboardInterrupt):
            raise Quit from None

    def _new_deal(self) -> None:
        self.answers = []
        self.penalties, self.waived = set(), set()

    # ------------------------------------------------------------ something went wrong (the referee)

    def _dealer_now(self) -> str:
        """Who dealt the deal being entered: as answered, else the right dealer."""
        d = dict(self.answers).get("dealer")
        return d if d in ("A", "B") else self.partie.next_dealer

    def _choose(self, words: str, count: int) -> int | None:
        """A number from 1 to ``count`` (None: back to the deal)."""
        while True:
            text = self._ask(words).strip().lower()
            if text in ("", "back", "none"):
                return None
            if text.isdigit() and 1 <= int(text) <= count:
                return int(text) - 1
            self.say(f"A number from 1 to {count}, or Enter to go back.", "bold red")

    def _wrong(self) -> None:
        """Something went wrong: the irregularity picked from the list, its facts asked, the ruling shown, the
        choice asked of the player the law gives it to, and applied to the partie."""
        self.say("Something went wrong. Which of these?")
        group = None
        for n, e in enumerate(IRREGULARITIES, 1):
            if e.group is not group:
                group = e.group
                self.say(f"  {str(group).capitalize()}:")
            self.say(f"    {n}. {e.label} ({e.laws})")
        k = self._choose("Which? (a number, or Enter to go back)", len(IRREGULARITIES))
        if k is None:
            return
        entry = IRREGULARITIES[k]
        dealer = self._dealer_now()
        el, yo = self._role_name(ELDER, dealer), self._role_name(YOUNGER, dealer)
        facts: dict[str, Any] = {}
        for name in entry.facts:
            fact = FACTS[name]
            read: Callable[[str], Any] = (self._read_who(el, yo) if name == "offender" else
                                          (lambda t: int(t.strip())) if fact.number else parse_yes)
            words = f"Who is in error, {el} (the elder) or {yo} (the younger)?" if name == "offender" else \
                fact.question
            while True:
                try:
                    value = read(self._ask(words))
                except (MarkError, ValueError) as e:
                    self.say(f"That cannot be: {e}", "bold red")
                    continue
                if name == "offender" and value is None:
                    self.say(f"{el} or {yo}", "bold red")
                    continue
                facts[name] = value
                break
        try:
            ruling = rule(Irregularity(entry.kind, **facts), self.partie.rules)
        except ValueError as e:
            self.say(f"That cannot be: {e}", "bold red")
            return
        names = (el, yo)
        self.say(f"{ruling.law}: {ruling.says}")
        if len(ruling.options) == 1:
            self.say("The law decides; nobody chooses.")
            self._apply(ruling, ruling.options[0], dealer)
            return
        who = "The players agree" if ruling.chooser is None else f"{names[ruling.chooser]} chooses"
        self.say(f"{who}:")
        for n, o in enumerate(ruling.options, 1):
            self.say(f"  {n}. {o.says}")
        c = self._choose("Which? (a number, or Enter to go back)", len(ruling.options))
        if c is not None:
            self._apply(ruling, ruling.options[c], dealer)

    def _apply(self, ruling: Ruling, option: Option, dealer: str) -> None:
        """The choice applied by ``piquet.marker.wrong.apply_choice``: to the marked partie, or to the deal being
        entered (its dealer, its penalties); what concerns only the cards on the table is told."""
        if option.remedy in CORRECTIONS:
            self._correct(ruling, option, dealer)
            return
        pending = Pending(dealer, dealer != self.partie.next_dealer, frozenset(self.penalties),
                          frozenset(self.waived))
        try:
            done = apply_choice(self.partie, ruling, option, pending)
        except MarkError as e:
            self.say(f"That cannot be: {e}", "bold red")
            return
        self.partie = done.partie
        if done.deal_over:
            self._new_deal()
            self.say(done.says)
            if self.partie.deals[-1].status == "lost":
                self.table()
            self.save()
            return
        self.penalties, self.waived = set(done.pending.reckons_nothing), set(done.pending.waived)
        if done.pending.dealer != dealer:
            self.answers = [(k, v) for k, v in self.answers if k != "dealer"]
            self.answers.insert(0, ("dealer", done.pending.dealer))
        self.say(done.says)

    def _correct(self, ruling: Ruling, option: Option, dealer: str) -> None:
        """A deal's score put right (Law 70; Law 74: each player's score of his own hand), re-entered quickly;
        applied by ``apply_choice``."""
        p = self.partie
        counted = [i for i, d in enumerate(p.deals) if d.counts]
        if not counted:
            self.say("No deal has been scored yet.")
            return
        n = self._choose(f"Which deal? (1 to {len(counted)})", len(counted))
        if n is None:
            return
        index = counted[n]
        old = p.deals[index]
        el, yo = self._role_name(ELDER, old.dealer), self._role_name(YOUNGER, old.dealer)
        pending = Pending(dealer, dealer != p.next_dealer, frozenset(self.penalties), frozenset(self.waived))
        try:
            e = parse_three(self._ask(f"{el}'s scores for point, sequences, quatorzes and trios"))
            y = parse_three(self._ask(f"{yo}'s scores for point, sequences, quatorzes and trios"))
            t = self._read_play(self._ask(f"The play: {el}'s tricks, {el}'s play points, {yo}'s play points"))
            done = apply_choice(p, ruling, option, pending,
                                (index, replace(old, declarations=QuickScores(e, y), play=PlayTotals(*t))))
        except (MarkError, ValueError, TypeError) as err:
            self.say(f"That cannot be: {err}", "bold red")
            return
        self.partie = done.partie
        self.say(done.says)
        self.table()
        self.save()

    def _undo(self) -> None:
        while self.answers and self.answers[-1][0].startswith("need_"):
            self.answers.pop()
        if self.answers:
            self.answers.pop()
            self.say("Taken back.")
        elif self.partie.deals:
            self.partie = self.partie.undo()
            self.say("The last deal is taken back.")
            self.save()
        else:
            self.say("Nothing to take back.")


def add_mark_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="rubicon", help="rubicon (the default), four-deal or au-cent[+agreements]")
    p.add_argument("--names", nargs=2, metavar=("A", "B"), default=("A", "B"), help="the two players' names")
    p.add_argument("--first-dealer", default=None, help="who deals first, A or B (else asked at the first deal)")
    p.add_argument("--record", metavar="FILE", default=None,
                   help="save the marked partie to FILE after each deal (an existing marked record goes on)")
    p.add_argument("--stake", default=None, help="so much a point or a hundred, as piquet settle takes it")


def run_mark(ns: argparse.Namespace, ask: Callable[[str], str] = input, console: Console | None = None) -> int:
    console = console or Console(highlight=False)
    try:
        rules = rules_named(ns.rules)
        if ns.record and os.path.exists(ns.record):
            partie = load_marked(ns.record)
            console.print(f"Going on with the marked partie in {ns.record}.", markup=False)
        else:
            first = (ns.first_dealer or "B").upper()
            partie = MarkedPartie(rules, (ns.names[0], ns.names[1]), "A" if first in ("A", ns.names[0].upper())
                                  else "B")
    except (ValueError, MarkError) as e:
        print(f"piquet mark: {e}", file=sys.stderr)
        return 2
    session = MarkSession(partie, ask, console, ns.record)
    code = session.run()
    p = session.partie
    if p.is_finished:
        names = {"A": p.players[0], "B": p.players[1]}
        console.print(settlement_words(p.settlement(), p.scores, p.rules, names, len(p.scores_after),
                                       p.deals_needed), markup=False, highlight=False)
        if ns.stake and not p.rules.partie_of_games:
            from piquet.cli.stakes import marked_card_partie
            from piquet.stakes.settlement import FIFTY, Session, Stake, scoring_card_text

            card = Session.of([(p.players, marked_card_partie(p))])
            console.print(scoring_card_text(card, card.settle(Stake.parse(ns.stake), FIFTY)), markup=False,
                          highlight=False)
    return code


__all__ = ["MarkSession", "add_mark_arguments", "parse_point", "parse_sequences", "parse_sets", "run_mark"]
