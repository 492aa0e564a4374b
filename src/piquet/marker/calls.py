"""What players say at the table, checked against what twelve cards can hold (Laws 46-64).

A marked deal is entered without its cards: the elder's calls ("Five." "A quart
to the king." "Three aces?"), the younger's replies, and what each reckons.
This module holds those calls as small values and refuses what cannot be, with
the law it breaks; ``hand_fits`` is an exact search over the cards a hand of
twelve could hold.

>>> PointCall(5, 51).check()                     # A K Q J 10 make fifty-one
>>> PointCall(5, 52).check()
Traceback (most recent call last):
...
piquet.marker.calls.MarkError: five cards of one suit make 44 to 51, not 52 (Law 62)
>>> hand_fits(Declared(PointCall(5), (SequenceCall(5, 7), SequenceCall(6, 6))))
False
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from typing import Final

from piquet.core.cards import ACE, POINT_VALUES, RANK_LETTERS, RANK_PLURALS, TEN
from piquet.core.combinations import RUNS_OF_BYTE, SEQUENCE_NAMES, Outcome

ELDER: Final = 0
YOUNGER: Final = 1
ROLES: Final = ("elder", "younger")
CATEGORY_NAMES: Final = ("point", "sequences", "sets")
CATEGORY_LAWS: Final = ("Law 62", "Law 63", "Law 64")


class MarkError(ValueError):
    """Something entered that cannot be, with the law it breaks: ``five cards ... (Law 62)``."""

    def __init__(self, message: str, law: str | None = None) -> None:
        self.message = message
        self.law = law
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


@dataclass(frozen=True)
class PointCall:
    """A point called: the number of cards ("Five."), and what they make when stated ("Forty-nine.")."""

    cards: int
    value: int | None = None

    def check(self) -> None:
        """Three to eight cards of one suit (twelve cards always hold three of a suit), making what they can."""
        if not 3 <= self.cards <= 8:
            raise MarkError(f"a point is of three to eight cards, not {self.cards}: twelve cards hold at least "
                            "three of one suit, and a suit has eight", "Law 62")
        if self.value is not None and self.value not in POINT_VALUES_OF[self.cards]:
            vals = POINT_VALUES_OF[self.cards]
            raise MarkError(f"{_words(self.cards)} cards of one suit make {min(vals)} to {max(vals)}, "
                            f"not {self.value}", "Law 62")

    @property
    def key(self) -> tuple[int, int]:
        return (self.cards, self.value or 0)

    def __str__(self) -> str:
        return f"{_words(self.cards)} cards" + ("" if self.value is None else f" making {self.value}")


@dataclass(frozen=True)
class SequenceCall:
    """A sequence by its length and its head card's rank (0 seven ... 7 ace): a quart to the king is (4, 6)."""

    length: int
    head: int

    def check(self) -> None:
        if not 3 <= self.length <= 8:
            raise MarkError(f"a sequence is of three to eight cards, not {self.length}", "Law 63")
        if not self.length - 1 <= self.head <= ACE:
            raise MarkError(f"a {SEQUENCE_NAMES[self.length]} cannot be headed by the {RANK_LETTERS[self.head]}: "
                            "there is no room below it", "Law 63")

    @property
    def key(self) -> tuple[int, int]:
        return (self.length, self.head)

    @property
    def score(self) -> int:
        """Tierce three, quart four, quint fifteen, sixieme sixteen ... (Law 63)."""
        return self.length if self.length < 5 else self.length + 10

    def __str__(self) -> str:
        name = SEQUENCE_NAMES[self.length]
        if self.length == 8:
            return name
        return f"{name} major" if self.head == ACE else f"{name} to the {RANK_LETTERS[self.head]}"


@dataclass(frozen=True)
class SetCall:
    """A quatorze (size 4) or trio (size 3) by rank: fourteen tens is (4, 3)."""

    size: int
    rank: int

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
        return f"{'fourteen' if self.size == 4 else 'three'} {RANK_PLURALS[self.rank]}"


@dataclass(frozen=True)
class Declared:
    """What one hand declared: its point, its sequences and its quatorzes and trios (None / empty: none)."""

    point: PointCall | None = None
    sequences: tuple[SequenceCall, ...] = ()
    sets: tuple[SetCall, ...] = ()

    def check(self) -> None:
        """Each call possible, no rank declared twice, and all of them held together in twelve cards."""
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
        if not hand_fits(self):
            raise MarkError(f"no hand of twelve cards holds all of these together: {self}", "Laws 62-64")

    def key(self, category: int) -> tuple[int, int]:
        """The best item's key in a category, (0, 0) for nothing (Laws 62-64)."""
        if category == 0:
            return self.point.key if self.point else (0, 0)
        items: tuple[SequenceCall, ...] | tuple[SetCall, ...] = self.sequences if category == 1 else self.sets
        return max((i.key for i in items), default=(0, 0))

    def has(self, category: int) -> bool:
        return (self.point is not None, bool(self.sequences), bool(self.sets))[category]

    def __str__(self) -> str:
        parts = ([f"a point of {self.point}"] if self.point else []) + [f"a {s}" for s in self.sequences] + \
            [str(t) for t in self.sets]
        return ", ".join(parts) or "nothing"


# ---------------------------------------------------------------- can twelve cards hold it?


@cache
def _suit_options(point: tuple[int, int | None] | None, longest: int, runs: tuple[tuple[int, int], ...],
                  ranks: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    """The (cards, which of ``ranks`` are held) of every suit byte that can carry this suit's share of the calls.

    ``point``: this suit is the point, of so many cards making so much; no suit holds more than ``longest``
    (the point called is the longest suit); ``runs``: the sequences called in this suit, each a whole run."""
    out = set()
    for b in range(256):
        n = b.bit_count()
        if n > longest:
            continue
        if point is not None and (n != point[0] or (point[1] is not None and _VALUES[b] != point[1])):
            continue
        have = [(r.bit_count(), r.bit_length() - 1) for r in RUNS_OF_BYTE[b]]
        if any(have.count(x) < runs.count(x) for x in runs):
            continue
        out.add((n, sum(1 << i for i, r in enumerate(ranks) if b >> r & 1)))
    return frozenset(out)


def hand_fits(d: Declared) -> bool:
    """Whether some hand of twelve cards holds every call at once: an exact search (Laws 62-64).

    The point called is the longest suit (so nothing else is longer); each sequence called is a whole run
    of its suit; each quatorze or trio is held.  Suits are tried for the point and each sequence; each
    suit's possible holdings are counted by cards and by the ranks the sets need, and combined."""
    ranks = tuple(t.rank for t in d.sets)
    need = tuple(t.size for t in d.sets)
    longest = d.point.cards if d.point else 8
    seqs = tuple(s.key for s in d.sequences)
    point_suits = range(4) if d.point else (None,)
    seen: set[tuple[object, ...]] = set()
    for p in point_suits:
        for where in itertools.product(range(4), repeat=len(seqs)):
            shares = [((d.point.cards, d.point.value) if d.point and p == s else None,
                       tuple(sorted(q for q, w in zip(seqs, where, strict=True) if w == s))) for s in range(4)]
            roles = tuple(sorted(shares, key=repr))
            if roles in seen:
                continue
            seen.add(roles)
            states = {(0, (0,) * len(ranks))}
            for point, runs in roles:
                nxt = set()
                for cards, counts in states:
                    for n, bits in _suit_options(point, longest, runs, ranks):
                        if cards + n <= 12:
                            nxt.add((cards + n, tuple(c + (bits >> i & 1) for i, c in enumerate(counts))))
                states = nxt
            if any(cards == 12 and all(c >= k for c, k in zip(counts, need, strict=True))
                   for cards, counts in states):
                return True
    return False


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

__all__ = ["CATEGORY_NAMES", "Declared", "ELDER", "MarkError", "POINT_VALUES_OF", "PointCall", "REPLY_NAMES",
           "SET_SCORES", "SequenceCall", "SetCall", "YOUNGER", "hand_fits", "point_mask", "reply_between",
           "sequence_scores"]
