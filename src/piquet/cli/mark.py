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

The calls are typed short or in words (``CALLS_HELP``), each with its suit and
a point's top card where the player likes ("5 49 S A", "quart to the king in
hearts"): the suits let the marker apply Case IV (``calls.implied_bar``).  A
call of what the caller does not hold ends with "!" or "not held" (Law 54);
after the ruling on it (``wrong``, "He called what he does not hold"), the
marker asks which of his calls it was, or asks when they are entered, and
what the younger reckons now in that category (Case II).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from rich.console import Console
from rich.table import Table

from piquet.core.cards import ACE, parse_cards
from piquet.core.referee import FACTS, IRREGULARITIES, Irregularity, Kind, Option, Ruling, rule
from piquet.core.rules import rules_named
from piquet.marker.calls import (
    ELDER,
    REPLY_NAMES,
    YOUNGER,
    Call,
    Declared,
    MarkError,
    PointCall,
    SequenceCall,
    SetCall,
    call_words,
)
from piquet.marker.deal import CardPlay, FullCalls, MarkedDeal, PlayTotals, QuickScores, check_full, check_quick
from piquet.marker.partie import MarkedPartie
from piquet.marker.record import load_marked, marked_to_json
from piquet.marker.telling import deal_lines, partie_text
from piquet.marker.wrong import CORRECTIONS, Pending, apply_choice, not_held_says
from piquet.talk.guide import rules_text, topic_list
from piquet.talk.laws import with_law
from piquet.talk.words import settlement_words

HELP = ("Answer the question, or: help (this), undo (take back the last answer), wrong (something went wrong "
        "at the table: a card exposed, thirteen cards, a miscall, a revoke, a score wrongly reckoned ...; the "
        "laws' ruling), rules TOPIC (how to play: rules pique), quit (save and leave). Press Enter to take the "
        "answer in [brackets]. At a call's question, help also says how to give its suit (Case IV) or a call of "
        "what is not held (Law 54).")


class Quit(Exception):
    """The person asked to stop."""


# ---------------------------------------------------------------- the calls as typed
#
# A call is typed short or in words, its suit and a point's top card where the player likes: "5 49", "5 S A",
# "five in spades to the ace making 49"; "4 K", "4 K H", "quart to the king in hearts", "tierce major C";
# "4 10", "3 A", "three kings", "fourteen tens".  A card ("AS", "10H") is its rank and suit.  A trailing "!"
# or "not held" marks a call of what the caller does not hold (Law 54).  Each call's own words, as the marker
# says it ("a tierce major in hearts (not held)"), read back as typed.

_COUNTS: Final = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_SUITS: Final = {w: suit for suit, words in enumerate((("s", "spade", "spades", "♠", "♤"),
                                                       ("h", "heart", "hearts", "♥", "♡"),
                                                       ("c", "club", "clubs", "♣", "♧"),
                                                       ("d", "diamond", "diamonds", "♦", "♢"))) for w in words}
_RANKS: Final = {w: rank for rank, words in enumerate((
    ("7", "seven", "sevens"), ("8", "eight", "eights"), ("9", "nine", "nines"), ("10", "t", "ten", "tens"),
    ("j", "knave", "knaves", "jack", "jacks"), ("q", "queen", "queens"), ("k", "king", "kings"),
    ("a", "ace", "aces"))) for w in words}
_LENGTHS: Final = {"tierce": 3, "quart": 4, "quarte": 4, "quint": 5, "quinte": 5, "sixieme": 6, "sixième": 6,
                   "septieme": 7, "septième": 7, "huitieme": 8, "huitième": 8}
_SIZES: Final = {"trio": 3, "fourteen": 4, "quatorze": 4}
#: Words that join a call's parts and say nothing of it.
_JOINING: Final = frozenset({"a", "an", "the", "in", "of", "to", "making", "makes", "make", "cards", "card",
                             "point", "headed", "head", "by", "suit"})

POINT_FORM = "a point: its cards, what they make if said, its suit and top card if you like: 5 49, 5 S A, five " \
    "in spades to the ace"
SEQUENCE_FORM = "a sequence: its length and head card, its suit if you like: 4 K, 4 K H, quart to the king in " \
    "hearts, tierce major C"
SET_FORM = "a quatorze or trio: its size and rank: 4 10, 3 A, three kings"

CALLS_HELP = ("The calls: a point by its cards and what they make if said (5 49), a sequence by its length and head "
              "card (4 K, tierce major), a quatorze or trio by its size and rank (4 10, three kings); several "
              "separated by commas. Where you like, give a call's suit and a point's top card, short or in words: "
              "5 S A, 5 49 in spades to the ace, 4 K H, quart to the king in hearts, 3 A C (a card such as AS is "
              "its rank and suit). The suits let the marker apply Case IV: the cards the elder has shown declare "
              "by implication, and bar the younger's smaller reckoning in a category the elder did not call "
              "(Law 56). A call of what the caller does not hold (Law 54): end it with ! or 'not held' (3 K!); "
              "wrong gives the laws' ruling, and then asks which call it was.")


def _none(text: str) -> bool:
    return text.strip().lower() in ("", "none", "no", "-", "nothing")


def _words_of(text: str, form: str) -> list[tuple[str, int, bool]]:
    """A call's words, each read as what it says: ``("number", n, after "to")`` (a figure), ``("count", n,
    ...)`` (one to eight in words), ``("rank", r, ...)``, ``("suit", s, ...)``, ``("length", n, ...)`` (a
    sequence's name), ``("size", n, ...)`` (trio, fourteen), ``("major", ...)``, ``("not held", ...)``."""
    words = re.findall(r"\d+|[^\W\d_]+|[♠♥♣♦♤♡♧♢!]|[^\s,.;:()'\"-]", text.lower())
    out: list[tuple[str, int, bool]] = []
    to = False
    for i, w in enumerate(words):
        if w == "not" and i + 1 < len(words) and words[i + 1] == "held":
            out.append(("not held", 0, False))
        elif w == "held" and i > 0 and words[i - 1] == "not":
            continue
        elif w == "!":
            out.append(("not held", 0, False))
        elif w.isdigit():
            out.append(("number", int(w), to))
        elif w in _LENGTHS:
            out.append(("length", _LENGTHS[w], to))
        elif w in _SIZES:
            out.append(("size", _SIZES[w], to))
        elif w == "major":
            out.append(("major", ACE, to))
        elif w in _COUNTS:
            out.append(("count", _COUNTS[w], to))
        elif w in ("a", "an") and not out:
            pass  # "a quart to the king": the article
        elif w in _RANKS:
            out.append(("rank", _RANKS[w], to))
        elif w in _SUITS:
            out.append(("suit", _SUITS[w], to))
        elif len(w) == 2 and w[0] in _RANKS and w[1] in "shcd":
            out += [("rank", _RANKS[w[0]], to), ("suit", _SUITS[w[1]], to)]  # a card: AS, kh
        elif w in _JOINING:
            to = w in ("to", "the") and (to or w == "to")
            continue
        else:
            raise MarkError(f"cannot read {w!r} in {text.strip()!r}: {form}")
        to = False
    return out


#: A figure that names a card: 7 to 10.
_FIGURE_RANKS: Final = {7: _RANKS["7"], 8: _RANKS["8"], 9: _RANKS["9"], 10: _RANKS["10"]}


def _rank_of(kind: str, n: int) -> int | None:
    """The rank a word names, where it names one: "seven" and "8" may be a count or a card."""
    if kind == "rank":
        return n
    return _FIGURE_RANKS.get(n) if kind in ("number", "count") else None


def _once(old: int | None, new: int | None, what: str, text: str, form: str) -> int | None:
    if new is None:
        raise MarkError(f"cannot read {text.strip()!r}: {form}")
    if old is not None:
        raise MarkError(f"{what} is said twice in {text.strip()!r}: {form}")
    return new


def parse_point(text: str) -> PointCall | None:
    """``5 49``, ``5``, ``5 S A``, ``five in spades to the ace making 49``, ``5 49!``; or none.

    The first number is the cards; a figure after ``to`` is the top card, as is a figure of 7 to 10 after two
    cards or more (they make fifteen at least); another is what they make.

    >>> parse_point("5 49 S A")
    PointCall(cards=5, value=49, suit=0, head=7, held=True)
    >>> parse_point("four in hearts to the ten, not held")
    PointCall(cards=4, value=None, suit=1, head=3, held=False)
    """
    if _none(text):
        return None
    cards: int | None = None
    value: int | None = None
    suit: int | None = None
    head: int | None = None
    held = True
    for kind, n, to in _words_of(text, POINT_FORM):
        if kind == "not held":
            held = False
        elif kind == "suit":
            suit = _once(suit, n, "the suit", text, POINT_FORM)
        elif kind in ("number", "count") and cards is None and not to:
            cards = n
        elif kind == "rank" or to or kind == "count" or (
                cards is not None and cards >= 2 and n in _FIGURE_RANKS and head is None):
            head = _once(head, _rank_of(kind, n), "the top card", text, POINT_FORM)
        elif kind == "number":
            value = _once(value, n, "what the point makes", text, POINT_FORM)
        else:
            raise MarkError(f"{POINT_FORM}; not {text.strip()!r}")
    if cards is None:
        raise MarkError(f"{POINT_FORM}; not {text.strip()!r}")
    p = PointCall(cards, value, suit, head, held)
    p.check()
    return p


def _parts(text: str) -> list[str]:
    """Calls separated by commas, semicolons or "and"."""
    return [p for p in re.split(r"[,;]|\band\b", text, flags=re.IGNORECASE) if p.strip()]


def _sequence(text: str) -> SequenceCall:
    length: int | None = None
    head: int | None = None
    suit: int | None = None
    held = True
    for kind, n, to in _words_of(text, SEQUENCE_FORM):
        if kind == "not held":
            held = False
        elif kind == "suit":
            suit = _once(suit, n, "the suit", text, SEQUENCE_FORM)
        elif kind == "length" or (kind in ("number", "count") and length is None and not to):
            length = _once(length, n, "the length", text, SEQUENCE_FORM)
        elif kind in ("rank", "major", "number", "count"):
            head = _once(head, n if kind in ("rank", "major") else _rank_of(kind, n), "the head card", text,
                         SEQUENCE_FORM)
        else:
            raise MarkError(f"{SEQUENCE_FORM}; not {text.strip()!r}")
    if length == 8 and head is None:
        head = ACE  # a huitieme is the whole suit
    if length is None or head is None:
        raise MarkError(f"{SEQUENCE_FORM}; not {text.strip()!r}")
    s = SequenceCall(length, head, suit, held)
    s.check()
    return s


def _set(text: str) -> SetCall:
    size: int | None = None
    rank: int | None = None
    held = True
    for kind, n, _ in _words_of(text, SET_FORM):
        if kind == "not held":
            held = False
        elif kind == "size" or (kind in ("number", "count") and size is None):
            size = _once(size, n, "the size", text, SET_FORM)
        elif kind in ("rank", "number", "count"):
            rank = _once(rank, _rank_of(kind, n), "the rank", text, SET_FORM)
        elif kind == "suit":
            raise MarkError(f"a quatorze or trio is of one rank in several suits: it has no suit; not {text.strip()!r}")
        else:
            raise MarkError(f"{SET_FORM}; not {text.strip()!r}")
    if size is None or rank is None:
        raise MarkError(f"{SET_FORM}; not {text.strip()!r}")
    t = SetCall(size, rank, held)
    t.check()
    return t


def parse_sequences(text: str) -> tuple[SequenceCall, ...]:
    """``4 A, 3 Q``, ``quart to the king in hearts``, ``tierce major C, 3 A H!``: each sequence by its length
    (or name) and head card, its suit where given; or none.

    >>> [str(s) for s in parse_sequences("4 K H, tierce major in clubs, quart to the 10!")]
    ['quart to the K in hearts', 'tierce major in clubs', 'quart to the 10 (not held)']
    """
    return () if _none(text) else tuple(_sequence(p) for p in _parts(text))


def parse_sets(text: str) -> tuple[SetCall, ...]:
    """``4 10, 3 A``, ``three kings!``: each quatorze or trio by its size and rank; or none.

    >>> [str(t) for t in parse_sets("4 10, three kings not held")]
    ['fourteen tens', 'three kings (not held)']
    """
    return () if _none(text) else tuple(_set(p) for p in _parts(text))


def calls_said(value: PointCall | tuple[SequenceCall, ...] | tuple[SetCall, ...] | None) -> str:
    """An answer as typed again: the calls as the marker says them, which read back the same (``none``)."""
    if value is None or value == ():
        return "none"
    return str(value) if isinstance(value, PointCall) else ", ".join(str(c) for c in value)


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


#: The answers that hold each role's calls: the elder's as called, the younger's as he reckons them.
_OWN_KEYS: Final = (("e_point", "e_seqs", "e_sets"), ("y_point", "y_seqs", "y_sets"))
_CALL_KEYS: Final = frozenset(_OWN_KEYS[0] + _OWN_KEYS[1])


def _category_of(call: Call) -> int:
    return 0 if isinstance(call, PointCall) else 1 if isinstance(call, SequenceCall) else 2


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
        #: Roles ruled to have called what they do not hold, whose call is to be marked when entered (Law 54).
        self.miscalled: set[int] = set()

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, highlight=False, markup=False)

    def cannot(self, refusal: Exception) -> None:
        """A refusal, and what the law it cites says (``talk.laws.with_law``, as the table's refusals)."""
        self.say(f"That cannot be: {with_law(str(refusal))}", "bold red")

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
            steps = [("e_point", f"{el}'s point: cards and value, suit and top card if shown (e.g. 5 49, 5 49 S A), "
                      "or none", parse_point),
                     ("r_point", f"{yo}'s answer to the point: good, equal or not good", parse_reply),
                     ("e_seqs", f"{el}'s sequences: length and head, suit if shown (e.g. 4 K, 3 A H), or none",
                      parse_sequences),
                     ("r_seqs", f"{yo}'s answer to the sequence: good, equal or not good", parse_reply),
                     ("e_sets", f"{el}'s quatorzes and trios (e.g. 4 10, 3 A), or none", parse_sets),
                     ("r_sets", f"{yo}'s answer to the quatorze or trio: good or not good", parse_reply),
                     ("y_point", f"What {yo} reckons of his own: his point (cards and value; suit and top card if "
                      "shown), or none", parse_point),
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
        if a["form"] == "calls" and "y_sets" in a and self.miscalled:
            for role in sorted(self.miscalled):  # the call not held, asked now that the hands are entered
                self.miscalled.discard(role)
                self._mark_not_held(role, self._dealer_now())
            a = dict(self.answers)
        try:
            if a["form"] == "scores" and "quick_younger" in a:
                check_quick(QuickScores(a["quick_elder"], a["quick_younger"]), self.partie.rules)
            elif a["form"] == "calls" and "y_sets" in a:
                d = self._deal_hands_only()
                check_full(d, self.partie.rules)
        except MarkError as e:
            self.cannot(e)
            if not self._drop_barred(e):
                self._drop(("quick_elder",) if a["form"] == "scores" else ("e_point",))

    def _drop_barred(self, e: MarkError) -> bool:
        """A reckoning of the younger's that the elder's cards shown bar (Case IV): only it is asked again."""
        if e.law != "Law 56, Case IV" or e.category is None:
            return False
        key = _OWN_KEYS[YOUNGER][e.category]
        self.answers = [(k, v) for k, v in self.answers if k != key]
        return True

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
            self.cannot(e)
            if self._drop_barred(e):
                return False
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
                    if key in _CALL_KEYS:
                        self.say(CALLS_HELP)
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
                    self.cannot(e)
                    continue
                self.answers.append((key, value))
                self._told_not_held(key, value)
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
        self.penalties, self.waived, self.miscalled = set(), set(), set()

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
                    self.cannot(e)
                    continue
                if name == "offender" and value is None:
                    self.say(f"{el} or {yo}", "bold red")
                    continue
                facts[name] = value
                break
        try:
            ruling = rule(Irregularity(entry.kind, **facts), self.partie.rules)
        except ValueError as e:
            self.cannot(e)
            return
        names = (el, yo)
        self.say(f"{ruling.law}: {ruling.says}")
        if len(ruling.options) == 1:
            self.say("The law decides; nobody chooses.")
            self._apply(ruling, ruling.options[0], dealer, entry.kind)
            return
        who = "The players agree" if ruling.chooser is None else f"{names[ruling.chooser]} chooses"
        self.say(f"{who}:")
        for n, o in enumerate(ruling.options, 1):
            self.say(f"  {n}. {o.says}")
        c = self._choose("Which? (a number, or Enter to go back)", len(ruling.options))
        if c is not None:
            self._apply(ruling, ruling.options[c], dealer, entry.kind)

    def _apply(self, ruling: Ruling, option: Option, dealer: str, kind: Kind | None = None) -> None:
        """The choice applied by ``piquet.marker.wrong.apply_choice``: to the marked partie, or to the deal being
        entered (its dealer, its penalties); what concerns only the cards on the table is told."""
        if option.remedy in CORRECTIONS:
            self._correct(ruling, option, dealer)
            return
        pending = Pending(dealer, dealer != self.partie.next_dealer, frozenset(self.penalties),
                          frozenset(self.waived))
        try:
            done = apply_choice(self.partie, ruling, option, pending, kind=kind)
        except MarkError as e:
            self.cannot(e)
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
        if done.not_held is not None:
            self._mark_not_held(done.not_held, done.pending.dealer)

    # ------------------------------------------------------------ a call of what is not held (Law 54, Case II)

    def _told_not_held(self, key: str, value: Any) -> None:
        """A call typed as not held, with no ruling on it yet: the penalty is the laws' to give (``wrong``)."""
        if key not in _CALL_KEYS:
            return
        role = ELDER if key.startswith("e_") else YOUNGER
        calls = (value,) if isinstance(value, PointCall) else value if isinstance(value, tuple) else ()
        if any(not c.held for c in calls) and role not in self.penalties:
            self.say("A call of what he does not hold: say wrong (He called what he does not hold) for the laws' "
                     "ruling on it (Law 54).")

    def _mark_not_held(self, role: int, dealer: str) -> None:
        """After the ruling on a call of what is not held (Law 54): which of the player's calls entered it was,
        marked not held so that the adversary's good is reckoned (Case II); then, where the adversary is the
        younger and had said what he reckons in that category, what he reckons now.  Asked again when the hands
        are all entered, if none of his calls is entered yet (or ends with !); quick scores are entered as
        reckoned."""
        calls_words, scores_words = not_held_says(self.partie, Pending(dealer), role)
        a = dict(self.answers)
        if a.get("form") == "scores":
            self.say(scores_words)
            return
        keys = _OWN_KEYS[role]
        decl = Declared(a.get(keys[0]), a.get(keys[1], ()), a.get(keys[2], ()))
        calls = decl.calls()
        name = self._role_name(role, dealer)
        if any(not c.held for c in calls):
            self.say(f"Marked already: {', '.join(call_words(c) for c in calls if not c.held)}.")
            return
        complete = "y_sets" in a  # the hands all entered
        if not calls:
            if complete:
                self.say(f"None of {name}'s calls is entered: nothing to mark.")
                return
            self.miscalled.add(role)
            self.say(f"{calls_words} None of {name}'s calls is entered yet: you will be asked which when they are "
                     "(or end it with ! as you enter it, e.g. 3 K!)." + ("" if "form" in a else f" {scores_words}"))
            return
        self.say(calls_words)
        for n, c in enumerate(calls, 1):
            self.say(f"  {n}. {call_words(c)}")
        while True:
            text = self._ask(f"Which does {name} not hold? (its number, or Enter if " +
                             ("none of these)" if complete else "it is not entered yet)"))
            if text.strip().lower() in ("", "none", "back"):
                if complete:
                    self.say("Nothing is marked.")
                else:
                    self.miscalled.add(role)
                    self.say("You will be asked again when the hands are entered (or end it with ! as you enter "
                             "it, e.g. 3 K!).")
                return
            picked = [int(x) - 1 for x in re.findall(r"\d+", text)]
            if picked and all(0 <= i < len(calls) for i in picked) and not re.search(r"[^\d\s,]", text):
                break
            self.say(f"A number from 1 to {len(calls)}, or Enter.", "bold red")
        for i in picked:
            decl = decl.not_held(i)
        values: dict[str, Any] = {keys[0]: decl.point, keys[1]: decl.sequences, keys[2]: decl.sets}
        self.answers = [(k, values.get(k, v)) for k, v in self.answers]
        self.say(f"Marked as not held: {', '.join(call_words(calls[i]) for i in sorted(set(picked)))}.")
        if role == ELDER:
            for category in sorted({_category_of(calls[i]) for i in picked}):
                self._reckon_again(category, dealer)

    def _reckon_again(self, category: int, dealer: str) -> None:
        """The elder's call void, the younger may reckon in its category what it barred (Case II: "B then claims
        to reckon four tens. ... Yes."): what he reckons there is asked again, where he had said it."""
        key = _OWN_KEYS[YOUNGER][category]
        if key not in dict(self.answers):
            return
        el, yo = self._role_name(ELDER, dealer), self._role_name(YOUNGER, dealer)
        read = (parse_point, parse_sequences, parse_sets)[category]
        what = ("his point", "his sequences", "his quatorzes and trios")[category]
        default = calls_said(dict(self.answers)[key])
        checked = self._hands_refusal() is None  # the answer as it stands passes: a new one is checked
        while True:
            text = self._ask(f"{el}'s call void, what {yo} reckons now of his own: {what} (Case II) [{default}]")
            before = self.answers
            try:
                value = read(text if text.strip() else default)
            except (MarkError, ValueError) as e:
                self.cannot(e)
                continue
            self.answers = [(k, value if k == key else v) for k, v in self.answers]
            refused = self._hands_refusal() if checked else None
            if refused is None:
                return
            self.answers = before
            self.cannot(refused)

    def _hands_refusal(self) -> MarkError | None:
        """Why the calls as entered, all of them, cannot be (``check_full``); None if they can, or are not all
        entered yet."""
        if "y_sets" not in dict(self.answers):
            return None
        try:
            check_full(self._deal_hands_only(), self.partie.rules)
        except MarkError as e:
            return e
        return None

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
            self.cannot(err)
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
