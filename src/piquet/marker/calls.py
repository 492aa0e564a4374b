"""What players say at the table, checked against what twelve cards can hold (Laws 46-64).

A marked deal is entered without its cards: the elder's calls ("Five." "A quart
to the king." "Three aces?"), the younger's replies, and what each reckons.
This module holds those calls as small values and refuses what cannot be, with
the law it breaks; ``hand_fits`` is an exact search over the cards a hand of
twelve could hold, and ``implied_bar`` what the cards a hand has shown make
wherever they lie (Case IV).  A player may sink (p. 156-158): call less than he
holds, or nothing, so a call is any cards he holds, not the most he holds.

>>> PointCall(5, 51).check()                     # A K Q J 10 make fifty-one
>>> PointCall(5, 52).check()
Traceback (most recent call last):
...
piquet.marker.calls.MarkError: five cards of one suit make 44 to 51, not 52 (Law 62)
>>> hand_fits(Declared(PointCall(5), (SequenceCall(6, 7),)))        # five called from a sixieme: sunk
True
>>> hand_fits(Declared(None, (SequenceCall(8, 7), SequenceCall(5, 7))))   # thirteen cards
False
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import cache
from typing import Final

from piquet.core.cards import ACE, POINT_VALUES, RANK_LETTERS, RANK_MASKS, RANK_NAMES, RANK_PLURALS, SUIT_NAMES, TEN
from piquet.core.combinations import (
    RUNS_OF_BYTE,
    SEQUENCE_NAMES,
    Outcome,
    best_sequences,
    best_sets,
    sequence_key,
    set_key,
)

ELDER: Final = 0
YOUNGER: Final = 1
ROLES: Final = ("elder", "younger")
CATEGORY_NAMES: Final = ("point", "sequences", "sets")
CATEGORY_LAWS: Final = ("Law 62", "Law 63", "Law 64")


class MarkError(ValueError):
    """Something entered that cannot be, with the law it breaks: ``five cards ... (Law 62)``; ``category``
    (0 point, 1 sequences, 2 quatorzes and trios), where the refusal is of one category's reckoning."""

    def __init__(self, message: str, law: str | None = None, category: int | None = None) -> None:
        self.message = message
        self.law = law
        self.category = category
        super().__init__(f"{message} ({law})" if law else message)


def _words(n: int) -> str:
    return ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")[n] if 0 <= n <= 8 else str(n)


#: What the cards of one suit make, by how many they are (Law 62: ace eleven, court cards ten, others pips).
_VALUES: Final = tuple(sum(POINT_VALUES[r] for r in range(8) if b >> r & 1) for b in range(256))
POINT_VALUES_OF: Final[dict[int, frozenset[int]]] = {
    n: frozenset(_VALUES[b] for b in range(256) if b.bit_count() == n) for n in range(1, 9)}


def point_mask(cards: int, value: int | None) -> int:
    """Cards of one suit (a byte) that are ``cards`` in number and make ``value`` (any such, if None)."""
    for b in range(255, 0, -1):
        if b.bit_count() == cards and (value is None or _VALUES[b] == value):
            return b
    raise MarkError(f"{_words(cards)} cards of one suit cannot make {value}", "Law 62")


@cache
def point_bytes(cards: int, value: int | None = None, head: int | None = None) -> tuple[int, ...]:
    """Every holding of one suit (a byte) a point call can be: so many cards, making so much, to such a card
    (any, where None) (Law 62)."""
    return tuple(b for b in range(256) if b.bit_count() == cards and (value is None or _VALUES[b] == value)
                 and (head is None or b.bit_length() - 1 == head))


def _check_suit(suit: int | None, law: str) -> None:
    if suit is not None and suit not in range(4):
        raise MarkError(f"a suit is spades, hearts, clubs or diamonds (0 to 3), not {suit}", law)


def _not_held(held: bool) -> str:
    return "" if held else " (not held)"


@dataclass(frozen=True)
class PointCall:
    """A point called: the number of cards ("Five."), and what they make when stated ("Forty-nine."); as shown
    (Law 55), its suit and its top card's rank, where entered.  ``held`` False: it was a call of what the
    player does not hold, discovered too late (Law 54)."""

    cards: int
    value: int | None = None
    suit: int | None = None
    head: int | None = None
    held: bool = True

    def check(self) -> None:
        """One to eight cards of one suit, making what they can: twelve cards hold three of a suit at least,
        but a player may call less than he holds (p. 93)."""
        if not 1 <= self.cards <= 8:
            raise MarkError(f"a point is of one to eight cards of one suit (a suit has eight), not {self.cards}",
                            "Law 62")
        if self.value is not None and self.value not in POINT_VALUES_OF[self.cards]:
            vals = POINT_VALUES_OF[self.cards]
            raise MarkError(f"{_words(self.cards)} cards of one suit make {min(vals)} to {max(vals)}, "
                            f"not {self.value}", "Law 62")
        _check_suit(self.suit, "Law 62")
        if self.head is not None and (self.head not in range(8) or not self.bytes):
            raise MarkError(f"no point of {self} can be", "Law 62")

    @property
    def key(self) -> tuple[int, int]:
        return (self.cards, self.value or 0)

    @property
    def bytes(self) -> tuple[int, ...]:
        """The holdings of its suit it can be (``point_bytes``)."""
        return point_bytes(self.cards, self.value, self.head)

    def __str__(self) -> str:
        return (f"{_words(self.cards)} cards" + ("" if self.suit is None else f" in {SUIT_NAMES[self.suit]}")
                + ("" if self.head is None else f" to the {RANK_NAMES[self.head]}")
                + ("" if self.value is None else f" making {self.value}") + _not_held(self.held))


@dataclass(frozen=True)
class SequenceCall:
    """A sequence by its length and its head card's rank (0 seven ... 7 ace): a quart to the king is (4, 6); its
    suit as shown, where entered (Law 55); ``held`` False: a call of what is not held (Law 54)."""

    length: int
    head: int
    suit: int | None = None
    held: bool = True

    def check(self) -> None:
        if not 3 <= self.length <= 8:
            raise MarkError(f"a sequence is of three to eight cards, not {self.length}", "Law 63")
        if not self.length - 1 <= self.head <= ACE:
            raise MarkError(f"a {SEQUENCE_NAMES[self.length]} cannot be headed by the {RANK_LETTERS[self.head]}: "
                            "there is no room below it", "Law 63")
        _check_suit(self.suit, "Law 63")

    @property
    def key(self) -> tuple[int, int]:
        return (self.length, self.head)

    @property
    def byte(self) -> int:
        """Its cards in its suit: a tierce major is A K Q (Law 63)."""
        return _run_byte(self.key)

    @property
    def score(self) -> int:
        """Tierce three, quart four, quint fifteen, sixieme sixteen ... (Law 63)."""
        return self.length if self.length < 5 else self.length + 10

    def __str__(self) -> str:
        name = SEQUENCE_NAMES[self.length]
        said = name if self.length == 8 else f"{name} major" if self.head == ACE else \
            f"{name} to the {RANK_LETTERS[self.head]}"
        return said + ("" if self.suit is None else f" in {SUIT_NAMES[self.suit]}") + _not_held(self.held)


@dataclass(frozen=True)
class SetCall:
    """A quatorze (size 4) or trio (size 3) by rank: fourteen tens is (4, 3); ``held`` False: a call of what
    is not held (Law 54)."""

    size: int
    rank: int
    held: bool = True

    def check(self) -> None:
        if self.size not in (3, 4):
            raise MarkError(f"a quatorze is four of a rank and a trio three, not {self.size}", "Law 64")
        if not TEN <= self.rank <= ACE:
            raise MarkError(f"{RANK_PLURALS[self.rank]} make no quatorze or trio: only tens and higher count",
                            "Law 64")

    @property
    def key(self) -> tuple[int, int]:
        return (self.size, self.rank)

    @property
    def score(self) -> int:
        """A quatorze fourteen, a trio three (Law 64)."""
        return 14 if self.size == 4 else 3

    def __str__(self) -> str:
        return f"{'fourteen' if self.size == 4 else 'three'} {RANK_PLURALS[self.rank]}" + _not_held(self.held)


Call = PointCall | SequenceCall | SetCall


def call_words(call: Call) -> str:
    """A call as said: ``a point of five cards in spades to the ace``, ``a tierce major in hearts``, ``three
    kings``."""
    if isinstance(call, PointCall):
        return f"a point of {call}"
    return f"a {call}" if isinstance(call, SequenceCall) else str(call)


@dataclass(frozen=True)
class Declared:
    """What one hand declared: its point, its sequences and its quatorzes and trios (None / empty: none)."""

    point: PointCall | None = None
    sequences: tuple[SequenceCall, ...] = ()
    sets: tuple[SetCall, ...] = ()

    def check(self) -> None:
        """Each call possible, no rank declared twice, and all those held held together in twelve cards (a
        call of what is not held need not fit, Law 54)."""
        if self.point is not None:
            self.point.check()
        if len(self.sequences) > 4:
            raise MarkError(f"twelve cards hold at most four sequences (four tierces), not {len(self.sequences)}",
                            "Law 63")
        for s in self.sequences:
            s.check()
        for t in self.sets:
            t.check()
        ranks = [t.rank for t in self.sets]
        if len(set(ranks)) != len(ranks):
            raise MarkError("a rank is declared twice among the quatorzes and trios", "Law 64")
        held = self.held()
        if not hand_fits(held):
            raise MarkError(f"no hand of twelve cards holds all of these together: {held}", "Laws 62-64")

    def key(self, category: int) -> tuple[int, int]:
        """The best item's key in a category, (0, 0) for nothing (Laws 62-64)."""
        if category == 0:
            return self.point.key if self.point else (0, 0)
        items: tuple[SequenceCall, ...] | tuple[SetCall, ...] = self.sequences if category == 1 else self.sets
        return max((i.key for i in items), default=(0, 0))

    def has(self, category: int) -> bool:
        return (self.point is not None, bool(self.sequences), bool(self.sets))[category]

    def items(self, category: int) -> tuple[Call, ...]:
        """The calls of a category: the point, the sequences, or the quatorzes and trios."""
        if category == 0:
            return () if self.point is None else (self.point,)
        return self.sequences if category == 1 else self.sets

    def all_held(self, category: int) -> bool:
        """Whether every call of the category is of cards held (Law 54)."""
        return all(i.held for i in self.items(category))

    def held(self) -> Declared:
        """The calls of cards held: a call of what is not held is void, and bars nothing (Law 54, Case II)."""
        return Declared(self.point if self.point is not None and self.point.held else None,
                        tuple(s for s in self.sequences if s.held), tuple(t for t in self.sets if t.held))

    def calls(self) -> tuple[Call, ...]:
        """Every call, in order: the point, the sequences, the quatorzes and trios."""
        return self.items(0) + self.items(1) + self.items(2)

    def not_held(self, index: int) -> Declared:
        """The calls with the ``index``-th of ``calls()`` found to be of what is not held (Law 54).

        >>> d = Declared(PointCall(5, 49), (), (SetCall(3, ACE), SetCall(3, 6)))
        >>> print(d.not_held(2))
        a point of five cards making 49, three aces, three kings (not held)
        """
        k = index
        if self.point is not None:
            if k == 0:
                return replace(self, point=replace(self.point, held=False))
            k -= 1
        if 0 <= k < len(self.sequences):
            return replace(self, sequences=tuple(replace(s, held=False) if i == k else s
                                                 for i, s in enumerate(self.sequences)))
        k -= len(self.sequences)
        if 0 <= k < len(self.sets):
            return replace(self, sets=tuple(replace(t, held=False) if i == k else t for i, t in enumerate(self.sets)))
        raise MarkError(f"there is no call {index + 1} among {len(self.calls())}")

    def __str__(self) -> str:
        return ", ".join(call_words(c) for c in self.calls()) or "nothing"


# ---------------------------------------------------------------- can twelve cards hold it?


def _run_byte(key: tuple[int, int]) -> int:
    length, head = key
    return ((1 << length) - 1) << (head - length + 1)


def _runs_apart(runs: tuple[tuple[int, int], ...]) -> int | None:
    """The cards of sequences called in one suit, or None if two share a card or touch: together they would
    be one sequence (Law 63; as the engine's ``sequences_ok``)."""
    held = 0
    for r in runs:
        b = _run_byte(r)
        if (b | b << 1 | b >> 1) & held:
            return None
        held |= b
    return held


@cache
def _suit_options(point: tuple[int, int | None, int | None] | None, runs: tuple[tuple[int, int], ...],
                  ranks: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    """The (cards, which of ``ranks`` are held) of the least holdings of one suit that carry its share of the
    calls: ``point`` (cards, value, top card), the point called in this suit, any of its cards (a player may
    call less than he holds); ``runs``, the sequences called in it."""
    held = _runs_apart(runs)
    if held is None:
        return frozenset()
    out = set()
    for pb in point_bytes(*point) if point else (0,):
        b = held | pb
        out.add((b.bit_count(), sum(1 << i for i, r in enumerate(ranks) if b >> r & 1)))
    return frozenset(out)


def _least_cards(shares: tuple[tuple[tuple[int, int | None, int | None] | None, tuple[tuple[int, int], ...]], ...],
                 ranks: tuple[int, ...], need: tuple[int, ...]) -> int:
    """The fewest cards that hold each suit's share of the calls and the quatorzes and trios: a rank short in
    the suits' holdings is made up in suits without it (13 if the shares cannot be held)."""
    states = {(0,) * len(ranks): 0}
    for point, runs in shares:
        options = _suit_options(point, runs, ranks)
        nxt: dict[tuple[int, ...], int] = {}
        for counts, cards in states.items():
            for n, bits in options:
                c = tuple(min(k, x + (bits >> i & 1)) for i, (x, k) in enumerate(zip(counts, need, strict=True)))
                if cards + n < nxt.get(c, 13):
                    nxt[c] = cards + n
        states = nxt
    return min((cards + sum(k - x for x, k in zip(counts, need, strict=True)) for counts, cards in states.items()),
               default=13)


def hand_fits(d: Declared) -> bool:
    """Whether some hand of twelve cards holds every call at once: an exact search (Laws 62-64).

    A call is any cards held, not the most held (a player may sink, p. 156-158): the point is so many cards
    of one suit, making so much; each sequence a run of its suit, apart from the others called in that suit;
    each quatorze or trio held.  The point and each sequence are tried in each suit (in its own, where
    entered); each suit's least holdings are counted by cards and by the ranks the sets need, and combined."""
    ranks = tuple(t.rank for t in d.sets)
    need = tuple(t.size for t in d.sets)
    p = d.point
    spec = None if p is None else (p.cards, p.value, p.head)
    point_suits: tuple[int | None, ...] | range = (None,) if p is None else range(4) if p.suit is None else (p.suit,)
    seq_suits = [range(4) if s.suit is None else (s.suit,) for s in d.sequences]
    suited = (p is not None and p.suit is not None) or any(s.suit is not None for s in d.sequences)
    seen: set[object] = set()
    for ps in point_suits:
        for where in itertools.product(*seq_suits):
            shares = tuple((spec if ps == s else None,
                            tuple(sorted(q.key for q, w in zip(d.sequences, where, strict=True) if w == s)))
                           for s in range(4))
            key = shares if suited else tuple(sorted(shares, key=repr))
            if key in seen:
                continue
            seen.add(key)
            if _least_cards(shares, ranks, need) <= 12:
                return True
    return False


# ---------------------------------------------------------------- what the cards shown imply (Case IV)


def _layouts(shown: Declared, category: int) -> set[int]:
    """Every mask the cards shown can be, as far as the calls tell them: the point any of its holdings in
    its suit, each sequence in its suit, each trio missing any one of its rank (the suits where not entered).
    Only what bars ``category`` is laid out: the point and the sets for sequences, the point and the sequences
    for quatorzes and trios."""
    p = shown.point
    runs = shown.sequences if category == 2 else ()
    sets = shown.sets if category == 1 else ()
    # With no suit entered the suits are alike: the point, else the first sequence, lies in spades.
    suited = (p is not None and p.suit is not None) or any(s.suit is not None for s in runs)
    if p is None:
        point_masks: list[int] = [0]
    else:
        suits = range(4) if p.suit is None and suited else (p.suit or 0,)
        high = 0xF8 if category == 2 else 0xFF  # only tens and higher make quatorzes and trios
        point_masks = sorted({(b & high) << (8 * s) for s in suits for b in p.bytes})
    run_suits = [range(4) if r.suit is None else (r.suit,) for r in runs]
    if runs and p is None and not suited:
        run_suits[0] = (0,)
    out: set[int] = set()
    for where in itertools.product(*run_suits):
        if any(_runs_apart(tuple(r.key for r, w in zip(runs, where, strict=True) if w == s)) is None
               for s in range(4)):
            continue
        run_mask = sum(r.byte << (8 * w) for r, w in zip(runs, where, strict=True))
        for missing in itertools.product(*[range(4) if t.size == 3 else (None,) for t in sets]):
            set_mask = 0
            for t, m in zip(sets, missing, strict=True):
                set_mask |= RANK_MASKS[t.rank] & ~(0 if m is None else 1 << (8 * m + t.rank))
            out.update(pm | run_mask | set_mask for pm in point_masks)
    return out


@cache
def implied_bar(shown: Declared, category: int) -> tuple[int, int]:
    """The best sequence (``category`` 1), or quatorze or trio (2), that the cards a hand has shown are sure to
    make wherever they lie, (0, 0) for none: declared by implication, it bars whatever makes as much or less
    (Case IV: "A calls a point headed by ace, and two tierce majors in other suits ... B cannot reckon three
    knaves").  ``shown``: the calls whose cards were shown, each with its suit and top card where entered;
    what the calls leave open is taken at its least.

    >>> from piquet.core.cards import HEARTS, DIAMONDS, SPADES
    >>> tierces = (SequenceCall(3, ACE, HEARTS), SequenceCall(3, ACE, DIAMONDS))
    >>> a = Declared(PointCall(5, suit=SPADES, head=ACE), tierces)
    >>> print(SetCall(*implied_bar(a, 2)))
    three aces
    >>> implied_bar(Declared(PointCall(5, head=ACE), (SequenceCall(3, ACE), SequenceCall(3, ACE))), 2)
    (0, 0)
    """
    best, key = (best_sequences, sequence_key) if category == 1 else (best_sets, set_key)
    least = (9, 9)
    for mask in _layouts(shown, category):
        found = best(mask)
        least = min(least, key(found[0]) if found else (0, 0))
        if least == (0, 0):
            break
    return least if least != (9, 9) else (0, 0)


# ---------------------------------------------------------------- what quick scores can be


@cache
def sequence_scores() -> frozenset[int]:
    """Every score sequences can make in one hand: its sequences in twelve cards, a suit's apart (Law 63)."""
    per_suit: set[tuple[int, int]] = set()
    for b in range(256):
        runs = RUNS_OF_BYTE[b]
        for k in range(len(runs) + 1):
            for chosen in itertools.combinations(runs, k):
                per_suit.add((b.bit_count(), sum(SequenceCall(r.bit_count(), 7).score for r in chosen)))
    states = {(0, 0)}
    for _ in range(4):
        states = {(c + n, s + t) for c, s in states for n, t in per_suit if c + n <= 12}
    return frozenset(s for c, s in states)


SET_SCORES: Final = frozenset(14 * q + 3 * t for q in range(4) for t in range(5)
                              if q + t <= 5 and 4 * q + 3 * t <= 12)


def reply_between(category: int, elder: tuple[int, int], younger: tuple[int, int], value_asked: bool) -> Outcome:
    """The reply the younger owes: good, equal or not good (Laws 46, 62-64)."""
    if category == 0 and not value_asked:
        elder, younger = (elder[0], 0), (younger[0], 0)
    return Outcome.GOOD if elder > younger else Outcome.EQUAL if elder == younger else Outcome.NOT_GOOD


REPLY_NAMES: Final = {"good": Outcome.GOOD, "equal": Outcome.EQUAL, "not good": Outcome.NOT_GOOD,
                      "not-good": Outcome.NOT_GOOD}

__all__ = ["CATEGORY_NAMES", "Call", "Declared", "ELDER", "MarkError", "POINT_VALUES_OF", "PointCall", "REPLY_NAMES",
           "SET_SCORES", "SequenceCall", "SetCall", "YOUNGER", "call_words", "hand_fits", "implied_bar", "point_bytes",
           "point_mask", "reply_between", "sequence_scores"]
