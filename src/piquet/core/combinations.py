"""Point, sequences, quatorzes and trios: finding, naming and comparing them.

A declaration is given by the cards it counts.  A *point* is a mask within one
suit; a *sequence* a run of three or more cards of one suit; a *set* three
(a trio) or four (a quatorze) cards of one rank, ten or higher.  Each has a
key: comparing keys tells good, equal or not good (Laws 62-64).

>>> from piquet.core.cards import CardSet
>>> hand = CardSet.parse("AH QH JH 10H 9H KS QS JS").mask
>>> sequence_name(best_sequences(hand)[0])
'quart to a queen'
>>> point_key(best_point(hand))
(5, 50)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Final

from piquet.core.cards import (
    ACE,
    COURT_CARDS,
    POINT_VALUES,
    RANK_MASKS,
    RANK_PLURALS,
    SUIT_MASKS,
    SUITS,
    TEN,
    Mask,
)

# Per suit byte (bit r = rank r present): how many cards, what they make.
_COUNT: Final = tuple(b.bit_count() for b in range(256))
_VALUE: Final = tuple(sum(POINT_VALUES[r] for r in range(8) if b >> r & 1) for b in range(256))


def _runs_of_byte(b: int) -> tuple[int, ...]:
    """Maximal runs of three or more set bits in a byte, as byte masks, best first."""
    runs: list[int] = []
    r = 7
    while r >= 0:
        if b >> r & 1:
            top = r
            while r >= 0 and b >> r & 1:
                r -= 1
            length = top - r
            if length >= 3:
                runs.append(((1 << length) - 1) << (r + 1))
        else:
            r -= 1
    return tuple(runs)


#: For each suit byte, its maximal runs of three or more (as byte masks), the highest first.
RUNS_OF_BYTE: Final = tuple(_runs_of_byte(b) for b in range(256))
_RUNS: Final = RUNS_OF_BYTE
#: The same for each suit, as masks of the hand, best first.
_SUIT_RUNS: Final = tuple(tuple(tuple(r << (8 * s) for r in runs) for runs in _RUNS) for s in SUITS)
#: Every run of three or more cards of one suit.
_RUN_MASKS: Final = frozenset(
    ((1 << n) - 1) << (8 * s + low) for s in range(4) for n in range(3, 9) for low in range(9 - n))
#: A point's strength in one number, by suit byte: the number of cards, then what they make (at most 84).
_POINT_STRENGTH: Final = tuple(_COUNT[b] << 8 | _VALUE[b] for b in range(256))
#: Byte masks that are a single run of three or more cards.
_IS_RUN: Final = tuple(len(_RUNS[b]) == 1 and _RUNS[b][0] == b for b in range(256))

SEQUENCE_NAMES: Final = {3: "tierce", 4: "quart", 5: "quint", 6: "sixieme", 7: "septieme", 8: "huitieme"}
_TO_A: Final = ("", "", "", "ten", "knave", "queen", "king", "")


class Outcome(Enum):
    """The younger hand's answer to a call: the call is good, equal or not good."""

    GOOD = "Good"
    EQUAL = "Equal"
    NOT_GOOD = "Not good"


# ---------------------------------------------------------------- the point

def suit_of_mask(mask: Mask) -> int | None:
    """The suit of a non-empty mask lying in one suit, else None."""
    s = (mask.bit_length() - 1) >> 3
    return s if mask and mask & ~SUIT_MASKS[s] == 0 else None


def is_point(mask: Mask) -> bool:
    """A point may be called with any cards of one suit (calling less is allowed, p. 93)."""
    return suit_of_mask(mask) is not None


#: The key of every point that may be called (any cards of one suit), by its mask.
_POINT_KEYS: Final = {b << (8 * s): (_COUNT[b], _VALUE[b]) for s in SUITS for b in range(1, 256)}


def point_key(mask: Mask) -> tuple[int, int]:
    """(number of cards, what they make): more cards win; then the higher value (Law 62)."""
    return _POINT_KEYS.get(mask, (0, 0))


def point_score(mask: Mask) -> int:
    """A good point scores one for each card (Law 62)."""
    return mask.bit_count()


def best_point(hand: Mask) -> Mask:
    """The hand's point: its longest suit, the stronger of equal lengths."""
    # Each suit's strength as one number, cards then value: the first of the strongest suits.
    strength = _POINT_STRENGTH
    keys = [strength[hand & 0xFF], strength[hand >> 8 & 0xFF], strength[hand >> 16 & 0xFF], strength[hand >> 24]]
    top = max(keys)
    return hand & SUIT_MASKS[keys.index(top)] if top else 0


# ---------------------------------------------------------------- sequences

def is_run(mask: Mask) -> bool:
    """Three or more cards of one suit next to each other in rank."""
    s = suit_of_mask(mask)
    return s is not None and _IS_RUN[mask >> (8 * s) & 0xFF]


def sequence_key(run: Mask) -> tuple[int, int]:
    """(length, head): the longer is good; of equal length the higher (Law 63)."""
    length = run.bit_count()
    return (length, (run.bit_length() - 1) & 7)


def sequence_score(run: Mask) -> int:
    """Tierce 3, quart 4, quint 15, sixieme 16, septieme 17, huitieme 18 (Law 63)."""
    n = run.bit_count()
    return n if n < 5 else n + 10


def best_sequences(hand: Mask) -> tuple[Mask, ...]:
    """Every sequence in the hand (maximal runs), the best first."""
    s0, s1, s2, s3 = _SUIT_RUNS
    runs = [*s0[hand & 0xFF], *s1[hand >> 8 & 0xFF], *s2[hand >> 16 & 0xFF], *s3[hand >> 24]]
    if len(runs) > 1:
        runs.sort(key=sequence_key, reverse=True)
    return tuple(runs)


def sequence_name(run: Mask) -> str:
    """``tierce major``, ``quart to a queen``, ``quint minor``, ``huitieme``."""
    length, head = sequence_key(run)
    name = SEQUENCE_NAMES[length]
    if length == 8:
        return name
    if head == ACE:
        return f"{name} major"
    if head == length - 1:
        return f"{name} minor"
    return f"{name} to a {_TO_A[head]}"


def sequences_ok(runs: Iterable[Mask]) -> str | None:
    """Why a list of runs cannot be declared together, or None if it can."""
    used = 0
    for run in runs:
        if run not in _RUN_MASKS:  # is_run(run), by table
            return "is not a sequence (three or more cards of one suit in order)"
        if run & used:
            return "uses a card twice"
        if (run << 1 | run >> 1) & used & SUIT_MASKS[suit_of_mask(run) or 0]:
            return "joins another declared sequence: together they are one sequence"
        used |= run
    return None


# ---------------------------------------------------------------- quatorzes and trios

#: The ranks of each byte's bits, aces first.
_RANKS_DOWN: Final = tuple(tuple(r for r in range(7, -1, -1) if b >> r & 1) for b in range(256))
#: Every quatorze and trio, by its mask: its rank.
_SET_RANKS: Final = {m: r for r in range(TEN, ACE + 1) for m in
                     [RANK_MASKS[r]] + [RANK_MASKS[r] & ~(1 << (8 * s + r)) for s in SUITS]}


def set_rank(mask: Mask) -> int | None:
    """The rank of cards all of one rank, ten or higher; else None."""
    r = (mask.bit_length() - 1) & 7
    return r if mask and r >= TEN and mask & ~RANK_MASKS[r] == 0 else None


def is_set(mask: Mask) -> bool:
    """Three or four cards of one rank, ten or higher (Law 64; nines and below count nothing)."""
    return set_rank(mask) is not None and mask.bit_count() >= 3


def set_key(mask: Mask) -> tuple[int, int]:
    """Any quatorze beats any trio; then the higher rank (Law 64)."""
    r = _SET_RANKS.get(mask)  # set_rank(mask), by table when it is a quatorze or trio
    return (mask.bit_count(), r if r is not None else set_rank(mask) or 0)


def set_score(mask: Mask) -> int:
    """A quatorze scores fourteen, a trio three (Law 64)."""
    return 14 if mask.bit_count() == 4 else 3


def best_sets(hand: Mask) -> tuple[Mask, ...]:
    """Every quatorze and trio in the hand, the best first."""
    a, b, c, d = hand & 0xFF, hand >> 8 & 0xFF, hand >> 16 & 0xFF, hand >> 24
    ranks = (a & b & (c | d) | c & d & (a | b)) & 0xF8  # the ranks held in three suits or four, tens and up
    if not ranks:
        return ()
    found = [hand & RANK_MASKS[r] for r in _RANKS_DOWN[ranks]]
    if len(found) > 1:
        # Found from the aces down: sorting on the size alone (a stable sort) puts them in key order.
        found.sort(key=int.bit_count, reverse=True)
    return tuple(found)


def set_name(mask: Mask) -> str:
    """``four aces`` (a quatorze), ``three knaves`` (a trio)."""
    n = mask.bit_count()
    return f"{'four' if n == 4 else 'three'} {RANK_PLURALS[set_rank(mask) or 0]}"


def sets_ok(sets: Iterable[Mask]) -> str | None:
    """Why a list of sets cannot be declared together, or None if it can."""
    ranks = 0
    for m in sets:
        r = _SET_RANKS.get(m)  # set_rank(m) when is_set(m), by table
        if r is None:
            return "is not a quatorze or trio (three or four of a rank, ten or higher)"
        if ranks >> r & 1:
            return "declares one rank twice"
        ranks |= 1 << r
    return None


# ---------------------------------------------------------------- comparing and carte blanche

def compare(a: tuple[int, int], b: tuple[int, int]) -> int:
    """1 if ``a`` is good against ``b``, 0 if equal, -1 if not good; (0, 0) is nothing."""
    return (a > b) - (a < b)


def outcome(call: tuple[int, int], reply: tuple[int, int]) -> Outcome:
    c = compare(call, reply)
    return Outcome.GOOD if c > 0 else Outcome.EQUAL if c == 0 else Outcome.NOT_GOOD


def is_carte_blanche(dealt: Mask) -> bool:
    """Twelve cards dealt without king, queen or knave (Law 18)."""
    return dealt.bit_count() >= 12 and dealt & COURT_CARDS == 0

