"""The odds of piquet: the treatise's calculations (p. 116-125, 155), exact, and the odds of the deal.

A player who discards has seen twelve cards; the other twenty (the
adversary's twelve and the stock's eight) are equally likely to be the ones he
takes in (p. 121).  So every chance of taking in named cards is a count of
equally likely draws, and is computed here exactly, with fractions.  What
cannot be counted (how a computer level's hands end after its own exchange)
is simulated, with a stated error bound (a Wilson interval).

>>> elder = Drawing(ELDER)
>>> p = elder.chance([[Need(CardSet.parse("10S AD").mask, 1)]])   # the ten to his quart, or the other ace (p. 122)
>>> p, exact_odds(p), treatise_odds(p)
(Fraction(17, 38), '21 to 17 against', '5 to 4 against')
>>> treatise_odds(carte_blanche_chance())
'1791 to 1 against'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb, floor, sqrt
from typing import TypeAlias, TypeVar

from piquet.core.cards import (
    ACE,
    COURT_CARDS,
    FULL_PACK,
    RANK_MASKS,
    RANK_PLURALS,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    TEN,
    CardSet,
    Mask,
    card_name,
    cards_of,
)
from piquet.core.combinations import (
    best_point,
    best_sequences,
    best_sets,
    point_key,
    sequence_key,
    sequence_name,
    set_key,
    set_name,
)
from piquet.core.events import ELDER, YOUNGER


class OddsError(ValueError):
    """An impossible question; the message says what is wrong, in plain words."""


#: The cards a player has not seen when he discards: the adversary's twelve and the stock's eight.
POOL = 20
#: The cards a player is dealt, and the pack.
_DEALT, _PACK = 12, 32

_COUNT = tuple(b.bit_count() for b in range(256))
_K = TypeVar("_K")


def _names(mask: Mask) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


# ---------------------------------------------------------------- the drawing odds (p. 121-125)

def draw_chance(named: int, drawn: int, need: int = 1, pool: int = POOL) -> Fraction:
    """The chance of taking in at least ``need`` of ``named`` cards, taking ``drawn`` of ``pool`` unseen.

    Every card a player has not seen is equally likely to be any of the stock's
    cards, so the cards he takes in are a random ``drawn`` of the ``pool``
    (p. 121-125).  The elder takes five of twenty, the younger three.

    >>> odds_against(draw_chance(2, 5, need=2))   # elder, two named cards: 18 to 1
    Fraction(18, 1)
    >>> odds_against(draw_chance(1, 3))        # younger, one named card: 17 to 3
    Fraction(17, 3)
    >>> round(float(odds_against(draw_chance(4, 5, need=2))), 2)   # elder, two of four named: 3 to 1
    3.02
    """
    if need <= 0:
        return Fraction(1)
    hits = sum(comb(named, j) * comb(pool - named, drawn - j) for j in range(need, min(named, drawn) + 1))
    return Fraction(hits, comb(pool, drawn))


def odds_against(p: Fraction) -> Fraction:
    """The odds against an event of chance ``p``: 3 is "3 to 1 against", 28/29 "29 to 28 on"."""
    return (1 - p) / p


def chance_of_any(groups: Sequence[Mask], drawn: int, pool: int = POOL) -> Fraction:
    """The chance that the whole of at least one group of named cards is taken in (inclusion-exclusion).

    "The ten to his quart, or the other ace" is two groups of one card
    (p. 122); "the ace or nine to the quart, or the fourth king" three.

    >>> from piquet.core.cards import CardSet
    >>> groups = [CardSet.parse(g).mask for g in ("10S", "AD")]
    >>> round(float(odds_against(chance_of_any(groups, 5))), 3)   # 5 to 4 against (p. 122)
    1.235
    """
    total = Fraction(0)
    for k in range(1, len(groups) + 1):
        for chosen in combinations(groups, k):
            union = 0
            for g in chosen:
                union |= g
            n = union.bit_count()
            if n <= drawn:
                term = Fraction(comb(pool - n, drawn - n), comb(pool, drawn))
                total += term if k % 2 else -term
    return total


@dataclass(frozen=True)
class Need:
    """At least ``at_least`` (and, when given, at most ``at_most``) of the named ``cards`` taken in."""

    cards: Mask
    at_least: int
    at_most: int | None = None

    def holds(self, count: int) -> bool:
        return count >= self.at_least and (self.at_most is None or count <= self.at_most)


#: Satisfied when all the needs of any one inner sequence hold: an "or" of "and"s.
Condition: TypeAlias = Sequence[Sequence[Need]]


def _check_condition(condition: Condition) -> Mask:
    """The union of every named card; OddsError for a need that cannot be asked."""
    union = 0
    for alternative in condition:
        for need in alternative:
            if need.cards < 0 or need.cards & ~FULL_PACK:
                raise OddsError("a need names something that is not a card of the 32-card pack")
            n = need.cards.bit_count()
            if need.at_least < 0:
                raise OddsError(f"at least {need.at_least} cards is not a number of cards")
            if need.at_most is not None and need.at_most < need.at_least:
                raise OddsError(f"at most {need.at_most} but at least {need.at_least} cards: nothing can satisfy it")
            if need.at_least > n:
                raise OddsError(f"{need.at_least} cards of {_names(need.cards) or 'no cards'}: "
                                f"more cards than are named ({n})")
            union |= need.cards
    return union


def chance(condition: Condition, drawn: int, pool: int = POOL) -> Fraction:
    """Exact: ``drawn`` cards taken uniformly from ``pool`` unseen cards, among them every named card (p. 121).

    Cards named by exactly the same needs are interchangeable, so the draws are
    counted by how many of each such group come in, each weighted by the ways
    of taking the rest from the cards nobody named.

    >>> aces, kings = RANK_MASKS[ACE], RANK_MASKS[ACE - 1]
    >>> chance([[Need(aces, 1), Need(kings, 1)]], 5)   # both an ace and a king, elder (p. 125)
    Fraction(315, 646)
    >>> chance([[Need(aces, 2, 2)]], 3)                 # exactly two of the four aces, younger
    Fraction(8, 95)
    """
    union = _check_condition(condition)
    size = union.bit_count()
    if size > pool:
        raise OddsError(f"{size} cards are named but only {pool} are unseen")
    if not 0 <= drawn <= pool:
        raise OddsError(f"cannot take {drawn} cards of the {pool} unseen")
    needs = [n for alternative in condition for n in alternative]
    alternatives: list[list[int]] = []
    i = 0
    for alternative in condition:
        alternatives.append(list(range(i, i + len(alternative))))
        i += len(alternative)
    atoms: dict[int, int] = {}  # which needs name a card (as bits) -> how many such cards
    for c in cards_of(union):
        sig = sum(1 << j for j, n in enumerate(needs) if n.cards >> c & 1)
        atoms[sig] = atoms.get(sig, 0) + 1
    groups = list(atoms.items())
    rest = pool - size
    hits = 0

    def walk(g: int, taken: int, ways: int, counts: list[int]) -> None:
        nonlocal hits
        if g == len(groups):
            if any(all(needs[j].holds(counts[j]) for j in alt) for alt in alternatives):
                hits += ways * comb(rest, drawn - taken)
            return
        sig, n = groups[g]
        for t in range(min(n, drawn - taken) + 1):
            now = counts if not t else [c + t if sig >> j & 1 else c for j, c in enumerate(counts)]
            walk(g + 1, taken + t, ways * comb(n, t), now)

    walk(0, 0, 1, [0] * len(needs))
    return Fraction(hits, comb(pool, drawn))


@dataclass(frozen=True)
class Drawing:
    """Who draws and what he knows: the cards he holds and puts out, other cards seen, how many he takes (p. 121).

    >>> Drawing(YOUNGER).takes(), Drawing(YOUNGER, elder_left=2).takes(), Drawing(ELDER, taken=3).takes()
    (3, 5, 3)
    >>> Drawing(ELDER, hand=CardSet.parse("QS").mask).chance([[Need(CardSet.parse("QS").mask, 1)]])
    Traceback (most recent call last):
    ...
    piquet.odds.chances.OddsError: QS is in your hand
    """

    role: int
    hand: Mask = 0
    discard: Mask = 0
    seen: Mask = 0
    taken: int | None = None
    elder_left: int = 0

    def most(self) -> int:
        """The most cards he may take in: the elder five, the younger three and any the elder left (Laws 32-34)."""
        if self.role not in (ELDER, YOUNGER):
            raise OddsError(f"the hand must be elder ({ELDER}) or younger ({YOUNGER}), not {self.role}")
        if self.role == ELDER:
            if self.elder_left:
                raise OddsError("only the younger hand may take cards the elder left")
            return 5
        if not 0 <= self.elder_left <= 4:
            raise OddsError(f"the elder leaves 0 to 4 cards (he must take at least one), not {self.elder_left}")
        return 3 + self.elder_left

    def takes(self) -> int:
        """How many cards he takes in: all he may unless ``taken`` says fewer."""
        most = self.most()
        if self.taken is None:
            return most
        if not 1 <= self.taken <= most:
            who = "elder" if self.role == ELDER else "younger"
            left = f" (three and the {self.elder_left} the elder left)" if self.elder_left else ""
            raise OddsError(f"the {who} hand takes 1 to {most} cards{left}, not {self.taken}")
        return self.taken

    def pool(self) -> int:
        """The cards he has not seen: 32 less his twelve and any others seen."""
        return _PACK - _DEALT - self.seen.bit_count()

    def check(self) -> None:
        """OddsError if the cards given cannot be: more than twelve held and put out, a card both held and seen."""
        for what, m in (("hand", self.hand), ("discard", self.discard), ("seen cards", self.seen)):
            if m < 0 or m & ~FULL_PACK:
                raise OddsError(f"the {what} is not a set of cards of the 32-card pack")
        mine = self.hand | self.discard
        if mine.bit_count() > _DEALT:
            raise OddsError(f"the hand and discard hold {mine.bit_count()} cards; a player is dealt twelve")
        if both := self.seen & mine:
            raise OddsError(f"{_names(both)} cannot be both seen and in your hand or discard")

    def chance(self, condition: Condition) -> Fraction:
        """The exact chance that the cards he takes in satisfy ``condition``."""
        self.check()
        named = _check_condition(condition)
        for m, where in ((self.hand, "is in your hand"), (self.discard, "is in your discard"),
                         (self.seen, "has been seen")):
            if clash := named & m:
                verb = where if clash.bit_count() == 1 else where.replace("is ", "are ").replace("has ", "have ")
                raise OddsError(f"{_names(clash)} {verb}")
        return chance(condition, self.takes(), self.pool())


# ---------------------------------------------------------------- saying the odds

def _check_p(p: Fraction) -> Fraction:
    p = Fraction(p)
    if not 0 <= p <= 1:
        raise OddsError(f"{p} is not a chance (between 0 and 1)")
    return p


def exact_odds(p: Fraction) -> str:
    """The odds in lowest terms, against or on (p. 121).

    >>> exact_odds(Fraction(1, 4)), exact_odds(Fraction(29, 57)), exact_odds(Fraction(1, 2))
    ('3 to 1 against', '29 to 28 on', 'evens')
    """
    p = _check_p(p)
    if p == 0:
        return "impossible"
    if p == 1:
        return "certain"
    if p == Fraction(1, 2):
        return "evens"
    r, side = ((1 - p) / p, "against") if p < Fraction(1, 2) else (p / (1 - p), "on")
    return f"{r.numerator} to {r.denominator} {side}"


def _convergents(r: Fraction) -> Iterator[tuple[int, int]]:
    """The continued-fraction convergents h/k of ``r``, in order, the last being ``r``."""
    h0, h1, k0, k1 = 0, 1, 1, 0
    x = r
    while True:
        a = floor(x)
        h0, h1 = h1, a * h1 + h0
        k0, k1 = k1, a * k1 + k0
        yield h1, k1
        if x == a:
            return
        x = 1 / (x - a)


def treatise_odds(p: Fraction) -> str:
    """The odds as the treatise gives them: the first convergent of the odds within 3% of them (p. 121-125).

    >>> [treatise_odds(Fraction(*f)) for f in ((17, 38), (137, 228), (3, 190), (3, 20), (29, 57), (101, 969))]
    ['5 to 4 against', '3 to 2 on', '62 to 1 against', '17 to 3 against', '29 to 28 on', '17 to 2 against']
    >>> treatise_odds(Fraction(31, 969))   # the table prints 33 to 1; the exact odds are 938 to 31
    '30 to 1 against'
    """
    p = _check_p(p)
    if p == 0:
        return "impossible"
    if p == 1:
        return "certain"
    r, side = ((1 - p) / p, "against") if p < Fraction(1, 2) else (p / (1 - p), "on")
    for h, k in _convergents(r):
        if abs(Fraction(h, k) - r) <= Fraction(3, 100) * r:
            return "evens" if h == k else f"{h} to {k} {side}"
    raise AssertionError("the last convergent is the odds themselves")  # pragma: no cover


def ratio_words(a: Fraction, b: Fraction) -> str:
    """Two chances compared, in lowest terms: "74 to 57 ... in favour of leaving a card" (p. 125).

    >>> ratio_words(Fraction(74, 380), Fraction(57, 380))
    '74 to 57'
    """
    if a < 0 or b <= 0:
        raise OddsError("two chances are compared only when the second is not nothing")
    r = Fraction(a) / Fraction(b)
    return f"{r.numerator} to {r.denominator}"


# ---------------------------------------------------------------- the tables of p. 121-122

@dataclass(frozen=True)
class TableRow:
    """One line of the tables of p. 121-122: taking all his cards, ``at_least`` of ``named`` cards."""

    hand: str
    named: int
    at_least: int
    probability: Fraction
    printed: str

    @property
    def odds(self) -> str:
        """The program's figure, in the treatise's form."""
        return treatise_odds(self.probability)

    def as_json(self) -> dict[str, object]:
        return {"hand": self.hand, "named": self.named, "at_least": self.at_least,
                "probability": str(self.probability), "odds": self.odds}


#: (named, at least, as printed) for the elder (p. 121) and the younger (p. 122), in the printed order.
_TABLES = (
    ("elder", ((1, 1, "3 to 1 against"), (2, 2, "18 to 1 against"), (3, 3, "113 to 1 against"),
               (4, 4, "968 to 1 against"), (5, 5, "15503 to 1 against"), (2, 1, "5 to 4 against"),
               (3, 1, "3 to 2 on"), (3, 2, "6 to 1 against"), (4, 1, "5 to 2 on"), (4, 2, "3 to 1 against"),
               (4, 3, "33 to 1 against"))),
    ("younger", ((1, 1, "17 to 3 against"), (2, 2, "62 to 1 against"), (3, 3, "1139 to 1 against"),
                 (2, 1, "5 to 2 against"), (3, 1, "3 to 2 against"), (3, 2, "21 to 1 against"),
                 (4, 1, "29 to 28 on"))),
)


def drawing_tables() -> list[TableRow]:
    """The eighteen lines of p. 121-122 in the printed order, with the exact chance of each.

    Every line but one agrees with the program's rounded odds; "three of four
    named cards, 33 to 1" is 31/969 exactly, 938 to 31 (about 30 to 1).

    >>> rows = drawing_tables()
    >>> len(rows), [r.printed for r in rows if r.odds != r.printed]
    (18, ['33 to 1 against'])
    >>> rows[5].as_json()
    {'hand': 'elder', 'named': 2, 'at_least': 1, 'probability': '17/38', 'odds': '5 to 4 against'}
    """
    rows = []
    for hand, lines in _TABLES:
        drawing = Drawing(ELDER if hand == "elder" else YOUNGER)
        for named, at_least, printed in lines:
            p = drawing.chance([[Need((1 << named) - 1, at_least)]])
            rows.append(TableRow(hand, named, at_least, p, printed))
    return rows


# ---------------------------------------------------------------- the worked cases of p. 122-125

@dataclass(frozen=True)
class WorkedCase:
    """A case the treatise works out (p. 122-125): the hand, what he hopes to take in, and the figure printed.

    ``printed`` is the figure as our transcription gives it ("5 to 4 against",
    "3 to 2 on"; a chance as "57/380"; a damaged figure as transcribed);
    ``note`` says why the program's figure differs, where it does.
    """

    page: int
    words: str
    role: int
    condition: tuple[tuple[Need, ...], ...]
    printed: str
    hand: Mask = 0
    taken: int | None = None
    note: str = ""

    @property
    def drawing(self) -> Drawing:
        return Drawing(self.role, hand=self.hand, taken=self.taken)

    @property
    def chance(self) -> Fraction:
        """The exact chance."""
        return self.drawing.chance(self.condition)

    @property
    def figure(self) -> str:
        """The program's figure in the printed form: rounded odds, or a chance over the printed denominator."""
        if "/" in self.printed:
            den = int(self.printed.split("/")[1])
            return f"{self.chance * den}/{den}"
        return treatise_odds(self.chance)

    @property
    def agrees(self) -> bool:
        return self.figure == self.printed


def _m(text: str) -> Mask:
    return CardSet.parse(text).mask


def _one_of(text: str, at_least: int = 1) -> tuple[tuple[Need, ...], ...]:
    return ((Need(_m(text), at_least),),)


_ACES, _KINGS = "AS AH AC AD", "KS KH KC KD"

#: Every case worked out on p. 122-125, in the treatise's order.
WORKED_CASES: tuple[WorkedCase, ...] = (
    WorkedCase(122, "elder, a quart major and two other aces: the ten to his quart, or the other ace", ELDER,
               _one_of("10S AD"), "5 to 4 against", _m("AS KS QS JS AH AC")),
    WorkedCase(123, "elder, three aces and three kings: the other ace or the other king", ELDER,
               _one_of("AD KD"), "5 to 4 against", _m("AS AH AC KS KH KC")),
    WorkedCase(123, "elder, a quatorze of kings with only a quatorze of aces against: one of the four aces", ELDER,
               _one_of(_ACES), "5 to 2 on", _m(_KINGS)),
    WorkedCase(123, "elder, a quart to a king and two other kings: the ace or nine to the quart, or the fourth king",
               ELDER, _one_of("AS 9S KD"), "3 to 2 on", _m("KS QS JS 10S KH KC")),
    WorkedCase(123, "elder, a quart to a king and a quart major: the ten to the quart major", ELDER,
               _one_of("10H"), "3 to 1 against", _m("KS QS JS 10S AH KH QH JH")),
    WorkedCase(123, "elder, a quart to a king and a quart major: the ace or nine to the quart to the king", ELDER,
               _one_of("AS 9S"), "5 to 4 against", _m("KS QS JS 10S AH KH QH JH")),
    WorkedCase(124, "elder, two kings and two queens: two of the other kings and queens", ELDER,
               _one_of("KH KD QH QD", 2), "3 to 1 against", _m("KS KC QS QC")),
    WorkedCase(124, "elder, two kings and two queens: the two other kings or the two other queens", ELDER,
               ((Need(_m("KH KD"), 2),), (Need(_m("QH QD"), 2),)), "17 to 2 against", _m("KS KC QS QC")),
    WorkedCase(124, "younger, one named card", YOUNGER, _one_of("AS"), "17 to 3 against"),
    WorkedCase(124, "younger, one at least of two named cards", YOUNGER, _one_of("AS AH"), "5 to 2 against"),
    WorkedCase(124, "younger, one at least of three named cards", YOUNGER, _one_of("AS AH AC"), "3 to 2 against"),
    WorkedCase(124, "younger, no ace dealt him: one of the four aces", YOUNGER, _one_of(_ACES), "29 to 28 on"),
    WorkedCase(125, "elder, two quatorzes against him (aces and kings): both an ace and a king", ELDER,
               ((Need(_m(_ACES), 1), Need(_m(_KINGS), 1)),), "^;^ to 31",
               note="the figure is damaged in the transcription; exactly 315/646, 331 to 315 against"),
    WorkedCase(125, "younger, two quatorzes against him (aces and kings): both an ace and a king", YOUNGER,
               ((Need(_m(_ACES), 1), Need(_m(_KINGS), 1)),), "4 to 1 against",
               note="exactly 4/19, 15 to 4 against: the treatise rounds to 4 to 1"),
    WorkedCase(125, "younger, three knaves and three tens, taking three and discarding a ten: the fourth knave",
               YOUNGER, _one_of("JD"), "57/380", _m("JS JH JC 10S 10H 10C"),
               note="the fraction is damaged in the transcription; restored from the 74 to 57 that follows"),
    WorkedCase(125, "younger, three knaves and three tens, leaving a card and taking two: the fourth knave or ten",
               YOUNGER, _one_of("JD 10D"), "74/380", _m("JS JH JC 10S 10H 10C"), taken=2,
               note="the fraction is damaged in the transcription; restored from the 74 to 57 that follows"),
)


# ---------------------------------------------------------------- the odds of the deal

def carte_blanche_chance() -> Fraction:
    """The chance that a hand of twelve dealt holds no king, queen or knave (Law 18; p. 95).

    >>> carte_blanche_chance(), treatise_odds(carte_blanche_chance())
    (Fraction(323, 578956), '1791 to 1 against')
    """
    return Fraction(comb(_PACK - COURT_CARDS.bit_count(), _DEALT), comb(_PACK, _DEALT))


def _poly_mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _hands_where(ok: Callable[[int], bool], size: int = _DEALT) -> int:
    """How many hands of ``size`` cards have every suit byte satisfying ``ok``.

    The coefficient of z**size in the product over the four suits of the sum,
    over the suit's holdings allowed, of z**(cards held).  Checked here by
    brute force on hands of three cards:

    >>> from itertools import combinations as subsets
    >>> ok = lambda b: _COUNT[b] <= 1
    >>> sum(all(ok(sum(1 << c % 8 for c in h if c // 8 == s)) for s in SUITS) for h in subsets(range(32), 3))
    2048
    >>> _hands_where(ok, 3)
    2048
    """
    suit = [0] * 9
    for b in range(256):
        if ok(b):
            suit[_COUNT[b]] += 1
    poly = [1]
    for _ in SUITS:
        poly = _poly_mul(poly, suit)
    return poly[size] if size < len(poly) else 0


_POINT_KEY = tuple(point_key(b) for b in range(256))
#: The longest sequence in each suit byte (0 if none).
_LONGEST = tuple(max((r.bit_count() for r in best_sequences(b)), default=0) for b in range(256))


def _distribution(levels: Sequence[tuple[_K, Callable[[int], bool]]]) -> dict[_K, Fraction]:
    """Chances of each level from the cumulative counts: ``ok`` of a level allows it and every lower one."""
    total = comb(_PACK, _DEALT)
    out: dict[_K, Fraction] = {}
    below = 0
    for key, ok in levels:
        upto = _hands_where(ok)
        out[key] = Fraction(upto - below, total)
        below = upto
    assert below == total, "every hand is counted once"
    return out


def dealt_point_chances() -> dict[int, Fraction]:
    """The number of cards in the best point of a hand of twelve dealt (1 to 8; 1 and 2 cannot be).

    >>> d = dealt_point_chances()
    >>> sum(d.values()), {n: round(float(p), 4) for n, p in d.items()}
    (Fraction(1, 1), {1: 0.0, 2: 0.0, 3: 0.0436, 4: 0.5515, 5: 0.332, 6: 0.0667, 7: 0.006, 8: 0.0002})
    """
    levels = [(n, lambda b, n=n: _COUNT[b] <= n) for n in range(1, 9)]
    return _distribution(levels)


def dealt_point_value_chances() -> dict[tuple[int, int], Fraction]:
    """The best point of a hand dealt, as (cards, what they make): the keys that can be, in order.

    >>> d = dealt_point_value_chances()
    >>> sum(d.values()) == 1, min(d), max(d)
    (True, (3, 24), (8, 75))
    """
    keys = sorted(set(_POINT_KEY))
    levels = [(k, lambda b, k=k: _POINT_KEY[b] <= k) for k in keys]
    return {k: p for k, p in _distribution(levels).items() if p}


def dealt_sequence_chances() -> dict[int, Fraction]:
    """The longest sequence of a hand dealt: 0 for none, else 3 (tierce) to 8 (huitieme).

    >>> d = dealt_sequence_chances()
    >>> sum(d.values()), {n: round(float(p), 4) for n, p in d.items()}
    (Fraction(1, 1), {0: 0.3561, 3: 0.4368, 4: 0.1565, 5: 0.0403, 6: 0.0087, 7: 0.0015, 8: 0.0002})
    """
    levels = [(n, lambda b, n=n: _LONGEST[b] <= n) for n in (0, 3, 4, 5, 6, 7, 8)]
    return _distribution(levels)


def _rank_counts(limits: Sequence[int]) -> int:
    """Hands of twelve with at most ``limits[i]`` cards of each rank ten to ace (sevens, eights, nines free)."""
    poly = [comb(12, k) for k in range(13)]
    for most in limits:
        poly = _poly_mul(poly, [comb(4, k) if k <= most else 0 for k in range(5)])
    return poly[_DEALT]


def dealt_set_chances() -> dict[str, Fraction]:
    """Quatorzes and trios in a hand dealt (only tens and above count, Law 64).

    Keys: "quatorze" (at least one), "trio only" (a trio, no quatorze) and
    "none" (these three add to one); then for each rank, ace down to ten,
    "four aces" (holding that quatorze) and "three aces" (exactly three).

    >>> d = dealt_set_chances()
    >>> d["quatorze"] + d["trio only"] + d["none"], d["four aces"]
    (Fraction(1, 1), Fraction(99, 7192))
    >>> [round(float(d[k]), 4) for k in ("quatorze", "trio only", "none")]
    [0.0684, 0.505, 0.4266]
    """
    total = comb(_PACK, _DEALT)
    no_quatorze, no_trio = _rank_counts([3] * 5), _rank_counts([2] * 5)
    out = {"quatorze": Fraction(total - no_quatorze, total), "trio only": Fraction(no_quatorze - no_trio, total),
           "none": Fraction(no_trio, total)}
    for r in range(ACE, TEN - 1, -1):
        out[f"four {RANK_PLURALS[r]}"] = Fraction(comb(28, 8), total)
    for r in range(ACE, TEN - 1, -1):
        out[f"three {RANK_PLURALS[r]}"] = Fraction(4 * comb(28, 9), total)
    return out


# ---------------------------------------------------------------- ending the exchange, exactly

@dataclass(frozen=True)
class ExchangeChances:
    """The hand after the exchange, over every equally likely draw (p. 121).

    ``point`` has the keys 1 to 8 and ``sequence`` 0 (none) and 3 to 8, as
    for the hand dealt; each adds to one.
    """

    draws: int
    point: dict[int, Fraction]
    sequence: dict[int, Fraction]
    quatorze: Fraction
    trio: Fraction


def exchange_chances(drawing: Drawing) -> ExchangeChances:
    """Every draw for the twelve dealt ``hand`` less its ``discard``, counted (p. 121-125).

    He takes as many cards as he puts out (the younger may put out none);
    ``seen`` cards cannot come in.

    >>> hand = CardSet.parse("AS KS QS JS 9S AH KH 8H AC QC 9D 7D").mask
    >>> x = exchange_chances(Drawing(ELDER, hand=hand, discard=CardSet.parse("8H QC 9D 7D 9S").mask))
    >>> x.draws, x.quatorze, treatise_odds(x.quatorze)
    (15504, Fraction(2345, 7752), '7 to 3 against')
    """
    drawing.check()
    hand, discard = drawing.hand, drawing.discard
    if hand.bit_count() != _DEALT:
        raise OddsError(f"the hand must be the twelve cards dealt, not {hand.bit_count()}")
    if stray := discard & ~hand:
        raise OddsError(f"{_names(stray)} is not in the hand: the discard is put out from the twelve dealt")
    n = discard.bit_count()
    if drawing.taken is not None and drawing.taken != n:
        raise OddsError(f"a player takes in as many cards as he discards: {n}, not {drawing.taken}")
    if n or drawing.role == ELDER:  # the younger need not take any (Law 34); the elder must take one at least
        Drawing(drawing.role, taken=n, elder_left=drawing.elder_left).takes()
    unseen = [1 << c for c in cards_of(FULL_PACK & ~hand & ~drawing.seen)]
    kept = hand & ~discard
    point = dict.fromkeys(range(1, 9), 0)
    sequence = dict.fromkeys((0, 3, 4, 5, 6, 7, 8), 0)
    quatorze = trio = draws = 0
    count, longest = _COUNT, _LONGEST
    for combo in combinations(unseen, n):
        m = kept | sum(combo)
        b0, b1, b2, b3 = m & 255, m >> 8 & 255, m >> 16 & 255, m >> 24 & 255
        point[max(count[b0], count[b1], count[b2], count[b3])] += 1
        sequence[max(longest[b0], longest[b1], longest[b2], longest[b3])] += 1
        if sets := best_sets(m):
            trio += 1
            quatorze += sets[0].bit_count() == 4
        draws += 1
    if not draws:
        raise OddsError(f"cannot take {n} cards of the {len(unseen)} unseen")
    return ExchangeChances(draws, {k: Fraction(v, draws) for k, v in point.items()},
                           {k: Fraction(v, draws) for k, v in sequence.items()},
                           Fraction(quatorze, draws), Fraction(trio, draws))


# ---------------------------------------------------------------- simulated, with an error bound

@dataclass(frozen=True)
class Estimate:
    """A chance estimated by ``hits`` in ``samples`` trials, with its Wilson interval.

    >>> e = Estimate(30, 100)
    >>> e.rate, tuple(round(x, 3) for x in e.interval())
    (0.3, (0.219, 0.396))
    """

    hits: int
    samples: int

    @property
    def rate(self) -> float:
        return self.hits / self.samples if self.samples else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval (95% for z = 1.96)."""
        return wilson(self.rate, self.samples, z) if self.samples else (0.0, 1.0)


def wilson(p: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``p`` observed in ``n`` trials (``n`` may be an effective, fractional
    number of trials); 95% for z = 1.96.

    >>> [round(x, 4) for x in wilson(0.3, 100)]
    [0.2189, 0.3959]
    """
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


# ---------------------------------------------------------------- the point table (p. 155)

_NUMBER_WORDS = ("no", "a", "two", "three", "four")


@dataclass(frozen=True)
class Composition:
    """The cards of a point: which of 7, 8, 9, how many tenth cards (10, J, Q, K), and whether an ace (p. 155)."""

    low: tuple[int, ...]
    tenths: int
    ace: bool

    @property
    def length(self) -> int:
        return len(self.low) + self.tenths + self.ace

    @property
    def value(self) -> int:
        return sum(self.low) + 10 * self.tenths + 11 * self.ace

    def words(self) -> str:
        """In the treatise's words: "7, 8, 9, and a tenth card", "three tenth cards and an ace".

        >>> Composition((7,), 3, False).words(), Composition((), 4, False).words()
        ('7, and three tenth cards', 'four tenth cards')
        """
        items = [str(c) for c in self.low]
        if self.tenths:
            items.append(f"{_NUMBER_WORDS[self.tenths]} tenth card{'s' if self.tenths > 1 else ''}")
        if self.ace:
            items.append("an ace")
        if not items:
            return "no cards"
        if len(items) == 1:
            return items[0]
        if len(items) == 2 and not (self.low and len(self.low) == 1):
            return f"{items[0]} and {items[1]}"
        return ", ".join(items[:-1]) + ", and " + items[-1]


def _c(low: tuple[int, ...], tenths: int, ace: bool) -> Composition:
    return Composition(low, tenths, ace)


def _order(c: Composition) -> tuple[bool, int, tuple[int, ...]]:
    """Without an ace first, then fewer low cards, then the lower ones: the order of p. 155 but for one pair at 38."""
    return (c.ace, len(c.low), c.low)


def point_compositions(value: int, length: int) -> list[Composition]:
    """Every way of making a point of ``length`` cards worth ``value`` (p. 155), generated.

    >>> [c.words() for c in point_compositions(38, 4)]
    ['8, and three tenth cards', '7, two tenth cards, and an ace', '8, 9, a tenth card, and an ace']
    >>> [c.words() for c in point_compositions(50, 5)]   # "fifty can only be made in one way"
    ['9, three tenth cards, and an ace']
    """
    if not 1 <= length <= 8:
        raise OddsError(f"a point has 1 to 8 cards, not {length}")
    found = []
    for k in range(4):
        for low in combinations((7, 8, 9), k):
            for ace in (False, True):
                tenths = length - k - ace
                c = Composition(low, tenths, ace)
                if 0 <= tenths <= 4 and c.value == value:
                    found.append(c)
    return sorted(found, key=_order)


def _composition_of(b: int) -> Composition:
    return Composition(tuple(r + 7 for r in range(3) if b >> r & 1), _COUNT[b >> 3 & 15], bool(b >> ACE & 1))


def point_holdings(value: int, length: int, possible: Mask) -> list[Mask]:
    """The actual cards of such a point, in any suit, lying within ``possible`` (p. 155): by suit, then as the
    compositions, high cards first.

    >>> hand = CardSet.parse("AS KS JS AH QH JH 8H JC 8C 7C 9D 8D").mask   # A's hand, p. 103
    >>> [str(CardSet(m)) for m in point_holdings(44, 5, FULL_PACK & ~hand)]   # "ending in a tierce minor"
    ['QS 10S 9S 8S 7S']
    >>> spades = [str(CardSet(m)) for m in point_holdings(38, 4, SUIT_MASKS[0])]   # 8 and three tenth cards, ...
    >>> len(spades), spades[:5]
    (14, ['KS QS JS 8S', 'KS QS 10S 8S', 'KS JS 10S 8S', 'QS JS 10S 8S', 'AS KS QS 7S'])
    """
    ways = point_compositions(value, length)
    out = []
    for s in SUITS:
        b_possible = possible >> (8 * s) & 255
        for b in range(255, -1, -1):
            if _COUNT[b] == length and b & ~b_possible == 0 and _POINT_KEY[b][1] == value:
                out.append((s, ways.index(_composition_of(b)), -b, b << (8 * s)))
    return [m for *_, m in sorted(out)]


# ---------------------------------------------------------------- what is against you (p. 116)

_POINT_WORDS = {3: "three-card", 4: "four-card", 5: "five-card", 6: "six-card", 7: "seven-card", 8: "eight-card"}


def _point_name(key: tuple[int, int], s: int) -> str:
    return f"{_POINT_WORDS.get(key[0], str(key[0]) + '-card')} point in {SUIT_NAMES[s]}"


def _run_name(run: Mask) -> str:
    return f"{sequence_name(run)} in {SUIT_NAMES[run.bit_length() - 1 >> 3]}"


@dataclass(frozen=True)
class Threat:
    """Something the adversary may hold that beats or equals the hand's best of its kind (p. 116)."""

    category: str
    name: str
    cards: Mask
    verdict: str


@dataclass(frozen=True)
class Against:
    """What the adversary may hold, given the cards he cannot hold (p. 116).

    "Before deciding on your discard, you should ascertain whether you hold
    anything which is good against the cards, or is equal, and what there is
    against you": ``possible`` is every card he may have.
    """

    possible: Mask

    @classmethod
    def of(cls, known: Mask) -> Against:
        """Against a player who knows the cards ``known`` (his hand, discard, cards seen)."""
        return cls(FULL_PACK & ~known)

    def point(self, s: int) -> tuple[int, int]:
        """The best point he could hold in suit ``s``."""
        return point_key(self.possible & SUIT_MASKS[s])

    def best_point(self) -> tuple[int, int]:
        return max(self.point(s) for s in SUITS)

    def point_beaten(self, key: tuple[int, int]) -> bool:
        """Whether any point he could hold beats ``key``: if not, it is good against the cards."""
        return any(self.point(s) > key for s in SUITS)

    def sequences(self) -> tuple[Mask, ...]:
        return best_sequences(self.possible)

    def sequence_beaten(self, key: tuple[int, int]) -> bool:
        return any(sequence_key(r) > key for r in self.sequences())

    def sets(self) -> tuple[Mask, ...]:
        """Every quatorze or trio he could hold: the cards of each rank (ten or higher) he may have, three or four."""
        found = [m for r in range(ACE, TEN - 1, -1) if (m := self.possible & RANK_MASKS[r]).bit_count() >= 3]
        return tuple(sorted(found, key=set_key, reverse=True))

    def set_beaten(self, key: tuple[int, int]) -> bool:
        return any(set_key(m) > key for m in self.sets())

    def describe(self, hand: Mask) -> list[str]:
        """The points better than the hand's, every sequence and every quatorze and trio against it.

        >>> from piquet.core.cards import CardSet
        >>> hand = CardSet.parse("AS KS JS AH QH JH 8H JC 8C 7C 9D 8D").mask   # A's hand, p. 103
        >>> Against.of(hand).describe(hand)   # p. 116-117
        ['six-card point in diamonds', 'five-card point in clubs', 'five-card point in spades', \
'quint major in diamonds', 'quart minor in spades', 'tierce major in clubs', 'four tens', 'three kings', 'three queens']
        """
        mine = point_key(best_point(hand))
        out: list[str] = []
        for key, s in sorted(((self.point(s), s) for s in SUITS), reverse=True):
            if key > mine:
                out.append(_point_name(key, s))
        out.extend(_run_name(r) for r in self.sequences())
        for m in self.sets():
            r = (m.bit_length() - 1) & 7
            out.append(f"{'four' if m.bit_count() == 4 else 'three'} {RANK_PLURALS[r]}")
        return out

    def threats(self, hand: Mask) -> list[Threat]:
        """Every point, sequence and set he could hold that beats or equals the hand's best of its kind (p. 116).

        >>> hand = CardSet.parse("AS KS JS AH QH JH 8H JC 8C 7C 9D 8D").mask   # A's hand, p. 103
        >>> [(t.name, t.verdict) for t in Against.of(hand).threats(hand) if t.category == "point"]
        [('six-card point in diamonds', 'beats'), ('five-card point in clubs', 'beats'), \
('five-card point in spades', 'beats')]
        """
        out: list[Threat] = []

        def add(category: str, name: str, cards: Mask, key: tuple[int, int], mine: tuple[int, int]) -> None:
            if key > mine:
                out.append(Threat(category, name, cards, "beats"))
            elif key == mine:
                out.append(Threat(category, name, cards, "equals"))

        mine = point_key(best_point(hand))
        for key, s in sorted(((self.point(s), s) for s in SUITS), reverse=True):
            if key > (0, 0):
                add("point", _point_name(key, s), self.possible & SUIT_MASKS[s], key, mine)
        runs = best_sequences(hand)
        mine = sequence_key(runs[0]) if runs else (0, 0)
        for r in self.sequences():
            add("sequence", _run_name(r), r, sequence_key(r), mine)
        sets = best_sets(hand)
        mine = set_key(sets[0]) if sets else (0, 0)
        for m in self.sets():
            add("set", set_name(m), m, set_key(m), mine)
        return out


def against(hand: Mask, discard: Mask = 0, seen: Mask = 0) -> Against:
    """What is against a player who holds ``hand``, has put out ``discard`` and seen ``seen`` (p. 116)."""
    return Against.of(hand | discard | seen)


__all__ = [
    "POOL", "WORKED_CASES", "Against", "Composition", "Condition", "Drawing", "Estimate",
    "ExchangeChances", "Need", "OddsError", "TableRow", "Threat", "WorkedCase", "against",
    "carte_blanche_chance", "chance", "chance_of_any", "dealt_point_chances", "dealt_point_value_chances",
    "dealt_sequence_chances", "dealt_set_chances", "draw_chance", "drawing_tables", "exact_odds",
    "exchange_chances", "odds_against", "point_compositions", "point_holdings", "ratio_words", "treatise_odds",
    "wilson",
]
