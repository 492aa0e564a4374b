"""The settlement of stakes and the scoring cards (treatise, p. 100-102 and 106).

Outside the core: this module imports the partie's settlement (``rules.py``, Laws 71-73) and the
record replay, and nothing in the core imports it.  Everything here is plain immutable data and
pure functions; money is exact, in whole farthings.

"The game is played for so much a point, or for so much a hundred, odd money not being reckoned
in the final total" (p. 100).  A session of parties between two players is drawn on a scoring card
(p. 101); the winner's total is reckoned by a custom of rounding and paid at the stake:

>>> card = Session.of([(("A", "B"), CardPartie.from_scores(131, 113)),
...                    (("A", "B"), CardPartie.from_scores(81, 125))])
>>> card.balances()
{'A': -188, 'B': 188}
>>> s = card.settle(Stake.parse("10s a hundred"), FIFTY)
>>> [(r.player, r.reckoned, money_words(r.farthings)) for r in s.reckonings]
[('A', Fraction(-150, 1), '15s'), ('B', Fraction(150, 1), '15s')]

At chouette (p. 102, 106) each partie's points are reckoned in tens, and the single player plays
double stakes:

>>> chouette_tens(416), chouette_tens(141), chouette_tens(126)
(42, 14, 13)
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from piquet.core.partie import Partie
from piquet.core.rules import SEATS, Rules, rules_named
from piquet.records.jsontext import read_json
from piquet.records.record import PartieRecord, replay
from piquet.talk.words import number_words

#: The format name written in (and required of) the JSON export.
STAKES_FORMAT = "piquet-stakes/1"

FARTHINGS_A_PENNY = 4
FARTHINGS_A_SHILLING = 48
FARTHINGS_A_POUND = 960


# ---------------------------------------------------------------- money


def money_words(farthings: int) -> str:
    """An amount of money as it is written: ``£2 5s``, ``15s``, ``2s 6d``, ``1½d`` (the sign is dropped).

    >>> money_words(45 * 48), money_words(15 * 48), money_words(2 * 48 + 6 * 4), money_words(6), money_words(0)
    ('£2 5s', '15s', '2s 6d', '1½d', 'nothing')
    >>> money_words(960 + 6 * 4)
    '£1 0s 6d'
    """
    f = abs(farthings)
    if f == 0:
        return "nothing"
    pounds, rest = divmod(f, FARTHINGS_A_POUND)
    shillings, rest = divmod(rest, FARTHINGS_A_SHILLING)
    pence, quarter = divmod(rest, FARTHINGS_A_PENNY)
    parts = []
    if pounds:
        parts.append(f"£{pounds}")
    if shillings or (pounds and (pence or quarter)):
        parts.append(f"{shillings}s")
    if pence or quarter:
        parts.append(f"{pence if pence or not quarter else ''}{('', '¼', '½', '¾')[quarter]}d")
    return " ".join(parts)


_NUMBER_WORDS = {number_words(n): n for n in range(1, 101)} | {"a": 1, "an": 1}
_FRACTION_SIGNS = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}
_UNITS = {
    "l": FARTHINGS_A_POUND, "pound": FARTHINGS_A_POUND, "pounds": FARTHINGS_A_POUND,
    "sovereign": FARTHINGS_A_POUND, "sovereigns": FARTHINGS_A_POUND,
    "guinea": 21 * FARTHINGS_A_SHILLING, "guineas": 21 * FARTHINGS_A_SHILLING,
    "crown": 5 * FARTHINGS_A_SHILLING, "crowns": 5 * FARTHINGS_A_SHILLING,
    "half-crown": 30 * FARTHINGS_A_PENNY, "half-crowns": 30 * FARTHINGS_A_PENNY,
    "s": FARTHINGS_A_SHILLING, "shilling": FARTHINGS_A_SHILLING, "shillings": FARTHINGS_A_SHILLING,
    "d": FARTHINGS_A_PENNY, "penny": FARTHINGS_A_PENNY, "pence": FARTHINGS_A_PENNY,
    "farthing": 1, "farthings": 1,
}
_TOKEN = re.compile(r"£|\d+/\d+|\d+|[½¼¾]|[a-z]+(?:-[a-z]+)*|\S")


def parse_money(text: str) -> int:
    """An amount written as players write it, in farthings: ``£1``, ``10s``, ``2s 6d``, ``3d``, ``1½d``,
    ``ten shillings``, ``a pound``, ``half a crown``.

    >>> parse_money("10s"), parse_money("£1 10s"), parse_money("2s6d"), parse_money("half a crown")
    (480, 1440, 120, 120)
    """
    tokens = _TOKEN.findall(text.lower().replace(",", " ").replace(".", " "))
    if not tokens:
        raise ValueError("no amount of money given")
    total = Fraction(0)
    quantity: Fraction | None = None
    pound_sign = False

    def number(i: int) -> tuple[Fraction, int] | None:
        t = tokens[i]
        q: Fraction
        if t.isdigit():
            q = Fraction(int(t))
            i += 1
        elif "/" in t:
            num, den = t.split("/")
            if int(den) == 0:
                return None
            q = Fraction(int(num), int(den))
            i += 1
        elif t in _FRACTION_SIGNS:
            return _FRACTION_SIGNS[t], i + 1
        elif t in _NUMBER_WORDS:
            q = Fraction(_NUMBER_WORDS[t])
            i += 1
        elif t == "half":
            i += 1
            if i < len(tokens) and tokens[i] in ("a", "an"):
                i += 1
            return Fraction(1, 2), i
        else:
            return None
        if i < len(tokens) and (tokens[i] in _FRACTION_SIGNS or "/" in tokens[i]):
            more = number(i)
            if more is not None and more[0] < 1:
                return q + more[0], more[1]
        return q, i

    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t == "and":
            i += 1
            continue
        if t == "£":
            if pound_sign or quantity is not None:
                raise ValueError(f"cannot read the amount {text!r}")
            pound_sign = True
            i += 1
            continue
        got = number(i)
        if got is not None and quantity is None:
            quantity, i = got
            if pound_sign:
                total += quantity * FARTHINGS_A_POUND
                quantity, pound_sign = None, False
            continue
        if t in _UNITS and quantity is not None:
            total += quantity * _UNITS[t]
            quantity = None
            i += 1
            continue
        raise ValueError(f"cannot read the amount {text!r} at {t!r}: write it as £1, 10s, 2s 6d or 3d")
    if quantity is not None or pound_sign:
        raise ValueError(f"cannot read the amount {text!r}: say £, s or d after the number")
    if total.denominator != 1:
        raise ValueError(f"{text!r} is not a whole number of farthings")
    if total <= 0:
        raise ValueError(f"the amount {text!r} is nothing: the stake must be more than nothing")
    return int(total)


# ---------------------------------------------------------------- the stake


_PER = re.compile(r"^(?P<money>.+?)\s*(?:(?:\s(?:a|an|per|the|each)\s+)|/\s*)(?P<per>points?|pts?|hundred|100)\.?$")
_POINTS_WORDS = {
    "penny": 4, "twopenny": 8, "threepenny": 12, "fourpenny": 16, "fivepenny": 20, "sixpenny": 24,
    "shilling": 48, "half-crown": 120, "crown": 240, "pound": 960, "sovereign": 960, "guinea": 1008,
}


@dataclass(frozen=True)
class Stake:
    """So much a point, or so much a hundred (p. 100): ``farthings`` paid for every ``per`` points (1 or 100).

    >>> Stake.parse("10s a hundred"), Stake.parse("threepenny points")
    (Stake(farthings=480, per=100), Stake(farthings=12, per=1))
    >>> str(Stake.parse("10s/100")), str(Stake.parse("£1 a hundred")), str(Stake.parse("1s a point"))
    ('10s a hundred', '£1 a hundred', '1s a point')
    """

    farthings: int
    per: int = 1

    def __post_init__(self) -> None:
        if self.per not in (1, 100):
            raise ValueError("a stake is so much a point or so much a hundred")
        if self.farthings <= 0:
            raise ValueError("the stake must be more than nothing")

    @classmethod
    def parse(cls, text: str) -> Stake:
        """Read ``10s a hundred``, ``10s/100``, ``3d a point``, ``1s a point``, ``£1 a hundred``,
        ``ten shillings a hundred`` or ``threepenny points``; ``ValueError`` says what is wrong."""
        t = " ".join(text.lower().replace("-", " - ").split()).replace(" - ", "-")
        words = t.split(" ")
        if len(words) == 2 and words[1] in ("points", "point") and words[0] in _POINTS_WORDS:
            return cls(_POINTS_WORDS[words[0]], 1)
        m = _PER.match(t)
        if m is None:
            raise ValueError(f"cannot read the stake {text!r}: say so much a point or so much a hundred, "
                             "e.g. '10s a hundred', '3d a point', '£1 a hundred'")
        per = 100 if m["per"] in ("hundred", "100") else 1
        try:
            amount = parse_money(m["money"])
        except ValueError as e:
            raise ValueError(f"cannot read the stake {text!r}: {e}") from None
        return cls(amount, per)

    @property
    def pence_a_point(self) -> Fraction:
        return Fraction(self.farthings, FARTHINGS_A_PENNY * self.per)

    def value(self, points: int | Fraction) -> Fraction:
        """What ``points`` points come to, exactly, in farthings."""
        return Fraction(points) * self.farthings / self.per

    def __str__(self) -> str:
        return f"{money_words(self.farthings)} a {'point' if self.per == 1 else 'hundred'}"


# ---------------------------------------------------------------- the customs of rounding


@dataclass(frozen=True)
class Custom:
    """A custom of rounding the final total: fractions of ``points`` points (or, with ``farthings``, of that
    much money) are not reckoned (p. 100-101).  The fractions are dropped from what is receivable (p. 102)."""

    name: str
    points: int = 1
    farthings: int | None = None
    description: str = ""

    def reckon(self, points: int, stake: Stake) -> int:
        """What a player who wins ``points`` receives, in farthings: the fractions dropped, and any fraction
        of a farthing (no coin is smaller) with them.  Nothing for a loss or a square account.

        >>> FIFTY.reckon(75, Stake.parse("10s a hundred")) == 5 * FARTHINGS_A_SHILLING
        True
        """
        if points <= 0:
            return 0
        exact = stake.value(points)
        if self.farthings is not None:
            return int(exact // self.farthings) * self.farthings
        return int(stake.value(points // self.points * self.points))

    def reckoned_points(self, points: int, stake: Stake) -> Fraction:
        """The points as they score under the custom (p. 101: "75 points only score as 40")."""
        if points <= 0:
            return Fraction(0)
        if self.farthings is None:
            return Fraction(points // self.points * self.points)
        return self.reckon(points, stake) / stake.value(1)


#: "Fractions of fifty points are not reckoned" (p. 101): the ordinary custom, and the default.
FIFTY = Custom("fifty", 50, description="fractions of fifty points not reckoned (p. 101)")
#: "Some players only neglect fractions of twenty-five points; this should be agreed beforehand" (p. 101).
TWENTY_FIVE = Custom("twenty-five", 25, description="fractions of twenty-five points not reckoned (p. 101)")
#: "Threepenny points are ... reckoned ... by multiples of forty ...; hence 75 points only score as 40" (p. 101).
FORTY = Custom("forty", 40, description="fractions of forty points not reckoned, as at threepenny points (p. 101)")
#: "At sixpenny or shilling points, fractions of a pound are excluded in reckoning the finals; 75 points,
#: therefore, only score as 60" (p. 101).  Read as money: the amount receivable is rounded down to whole
#: pounds, which is multiples of twenty points at shilling points (75 scores as 60, as printed) and of forty
#: points at sixpenny points (75 scores as 40; the printed 60 holds for shilling points only).  ``TWENTY``
#: is the other reading: multiples of twenty points whatever the stake.
POUND = Custom("pound", farthings=FARTHINGS_A_POUND,
               description="fractions of a pound not reckoned, as at sixpenny or shilling points (p. 101)")
#: The other reading of p. 101 at sixpenny points: multiples of twenty points (a pound at shilling points).
TWENTY = Custom("twenty", 20, description="fractions of twenty points not reckoned (p. 101, read as points)")
#: Every point reckoned (only fractions of a farthing dropped).
NONE = Custom("none", 1, description="every point reckoned")

CUSTOMS: dict[str, Custom] = {c.name: c for c in (FIFTY, TWENTY_FIVE, FORTY, POUND, TWENTY, NONE)}
_CUSTOM_ALIASES = {"50": "fifty", "25": "twenty-five", "twentyfive": "twenty-five", "40": "forty",
                   "a pound": "pound", "pounds": "pound", "20": "twenty", "1": "none", "no": "none"}


def custom_named(name: str) -> Custom:
    """A custom by its name (``fifty``, ``twenty-five``, ``forty``, ``pound``, ``twenty``, ``none``) or number."""
    key = " ".join(name.lower().split())
    key = _CUSTOM_ALIASES.get(key, key)
    try:
        return CUSTOMS[key]
    except KeyError:
        raise ValueError(f"unknown custom {name!r}; known: {', '.join(CUSTOMS)} (or book: the custom the book "
                         "gives for the stake, p. 101)") from None


def book_reckoning(stake: Stake) -> tuple[Stake, Custom]:
    """The stake and custom the book gives for a stake (p. 101): by the hundred, fractions of fifty; twopenny
    points "are reckoned at a pound a hundred, fractions of fifty points not counting"; threepenny points by
    multiples of forty; sixpenny and shilling points, fractions of a pound.  Other stakes: fractions of fifty.

    >>> [(str(s), c.name) for s, c in map(book_reckoning, map(Stake.parse, ["2d a point", "3d a point", "1s a point"]))]
    [('£1 a hundred', 'fifty'), ('3d a point', 'forty'), ('1s a point', 'pound')]
    """
    if stake.per == 1 and stake.farthings == 2 * FARTHINGS_A_PENNY:
        return Stake(FARTHINGS_A_POUND, 100), FIFTY
    if stake.per == 1 and stake.farthings == 3 * FARTHINGS_A_PENNY:
        return stake, FORTY
    if stake.per == 1 and stake.farthings in (6 * FARTHINGS_A_PENNY, FARTHINGS_A_SHILLING):
        return stake, POUND
    return stake, FIFTY


# ---------------------------------------------------------------- settling the balances


@dataclass(frozen=True)
class Reckoning:
    """One player's settlement: his win (+) or loss (-) on the score in points, the points reckoned (for a
    loser, what he pays expressed in points) and the money (+ received, - paid), in farthings."""

    player: str
    points: int
    reckoned: Fraction
    farthings: int

    def words(self) -> str:
        """``A wins 15s.``, ``B pays £2 5s.``, ``C neither wins nor pays.``"""
        if self.farthings > 0:
            return f"{self.player} {_verb(self.player, 'wins')} {money_words(self.farthings)}."
        if self.farthings < 0:
            return f"{self.player} {_verb(self.player, 'pays')} {money_words(self.farthings)}."
        return f"{self.player} neither {_verb(self.player, 'wins')} nor {_verb(self.player, 'pays')}."


@dataclass(frozen=True)
class StakesSettlement:
    """What each player receives or pays at a stake and a custom (p. 100-102)."""

    stake: Stake
    custom: Custom
    reckonings: tuple[Reckoning, ...]

    def of(self, player: str) -> Reckoning:
        for r in self.reckonings:
            if r.player == player:
                return r
        raise KeyError(player)

    def lines(self) -> list[str]:
        """The settlement in words, winners first, in the order of the card."""
        head = f"At {self.stake}, {self.custom.description}:"
        winners = [r for r in self.reckonings if r.farthings > 0]
        losers = [r for r in self.reckonings if r.farthings < 0]
        if not winners:
            return [head, "No money changes hands."]
        out = [head]
        for r in winners:
            out.append(f"{r.words()[:-1]} ({_points(r.reckoned)} points reckoned of {r.points}).")
        for r in losers:
            out.append(f"{r.words()[:-1]} ({-r.points} lost on the score; the fractions are dropped from what "
                       f"{_and_names([w.player for w in winners])} "
                       f"{_verb(winners[0].player, 'receives') if len(winners) == 1 else 'receive'}, "
                       "p. 102).")
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "stake": str(self.stake), "custom": self.custom.name,
            "players": [{"player": r.player, "points": r.points,
                         "reckoned": int(r.reckoned) if r.reckoned.denominator == 1 else str(r.reckoned),
                         "farthings": r.farthings, "money": money_words(r.farthings),
                         "words": r.words()} for r in self.reckonings],
        }


def _points(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}"


def _verb(player: str, third_person: str) -> str:
    """``wins`` for a player, ``win`` for "You" (the person at a terminal)."""
    return third_person[:-1] if player == "You" else third_person


def _and_names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def settle_stakes(balances: Mapping[str, int], stake: Stake, custom: Custom = FIFTY) -> StakesSettlement:
    """Settle a session's balances in points (they sum to nothing) at a stake, by a custom (p. 100-102).

    The rule of p. 102: the fractions are dropped from the amounts *receivable*, and the losers pay what the
    winners receive ("B, on the score, actually loses 500 ...; but in consequence of fractional parts of fifty
    points not counting in the final total of amounts receivable, B gets off with a loss of forty-five").
    Where several lose (the book shows one), they share what the winners receive in proportion to their
    losses, to the farthing (largest remainders; a tie goes to the player named first).

    >>> s = settle_stakes({"A": 190, "B": -500, "C": 310}, Stake.parse("10s a hundred"))
    >>> [r.words() for r in s.reckonings]
    ['A wins 15s.', 'B pays £2 5s.', 'C wins £1 10s.']
    """
    if sum(balances.values()) != 0:
        raise ValueError(f"the balances do not sum to nothing: {dict(balances)}")
    received = {p: custom.reckon(v, stake) for p, v in balances.items() if v > 0}
    total = sum(received.values())
    losers = [p for p, v in balances.items() if v < 0]
    lost = sum(-balances[p] for p in losers)
    paid: dict[str, int] = {}
    if losers:
        shares = {p: Fraction(total * -balances[p], lost) for p in losers}
        paid = {p: int(shares[p]) for p in losers}
        short = total - sum(paid.values())
        for p in sorted(losers, key=lambda p: (-(shares[p] - paid[p]), losers.index(p)))[:short]:
            paid[p] += 1
    out = []
    unit = stake.value(1)
    for p, v in balances.items():
        money = received.get(p, 0) - paid.get(p, 0)
        reckoned = custom.reckoned_points(v, stake) if v > 0 else Fraction(money) / unit
        out.append(Reckoning(p, v, reckoned, money))
    return StakesSettlement(stake, custom, tuple(out))


# ---------------------------------------------------------------- the two-player scoring card (p. 101)


def card_ready(rules: Rules, finished: bool, so_far: str) -> None:
    """``ValueError`` unless a partie may go on the book's scoring card (p. 100-102): a finished partie of points
    (``so_far``: how far an unfinished one has gone, in words)."""
    if rules.partie_of_games:
        raise ValueError(f"a partie of {rules.title} is won in games, not points: the book's stakes and scoring "
                         "cards (p. 100-102) are those of the rubicon game")
    if not finished:
        raise ValueError(f"the partie is unfinished: {so_far}")


@dataclass(frozen=True)
class CardPartie:
    """One partie on the scoring card, from the side of the session's first and second player (p. 101):
    the deal scores as they count in the partie (may be empty when only the totals are known), the totals,
    and the settlement of the partie by ``rules.py`` (Laws 71-73): the winner (0, 1 or None for a draw),
    the points won (0 for a draw) and whether the loser was rubiconed."""

    deals: tuple[tuple[int, int], ...]
    scores: tuple[int, int]
    winner: int | None
    points: int
    rubicon: bool
    rules: str = "rubicon"

    @classmethod
    def from_scores(cls, first: int, second: int, rules: str = "rubicon") -> CardPartie:
        """A finished partie known by its totals: settled as Laws 72-73 settle it.

        >>> p = CardPartie.from_scores(125, 81)
        >>> p.winner, p.points, p.rubicon
        (0, 306, True)
        """
        for s in (first, second):
            if s < 0:
                raise ValueError(f"a partie score is never negative, found {s}")
        return cls._settled((), (first, second), rules)

    @classmethod
    def from_deals(cls, deals: Sequence[tuple[int, int]], rules: str = "rubicon") -> CardPartie:
        """A finished partie known deal by deal (the scores as they count, Law 71 note for the four-deal
        partie); the number of deals must be what the rules require (Law 71: extra deals after a tie)."""
        r = rules_named(rules)
        deals = tuple((int(a), int(b)) for a, b in deals)
        if any(a < 0 or b < 0 for a, b in deals):
            raise ValueError("a deal score is never negative")
        after: list[dict[str, int]] = []
        a = b = 0
        for x, y in deals:
            a, b = a + x, b + y
            after.append({"A": a, "B": b})
        needed = r.deals_needed(after)
        for n in range(1, len(deals)):
            if r.deals_needed(after[:n]) <= n:
                raise ValueError(f"the partie was over after {n} deals ({r.title}), yet {len(deals)} are given")
        if len(deals) != needed:
            raise ValueError(f"a finished partie has {needed} deals here ({r.title}), found {len(deals)}")
        return cls._settled(deals, (a, b), rules)

    @classmethod
    def from_partie(cls, partie: Partie, first_seat: str = "A") -> CardPartie:
        """A partie played by the engine, from the side of ``first_seat``; it must be finished."""
        if first_seat not in SEATS:
            raise ValueError("the first player sits at A or B")
        card_ready(partie.rules, partie.is_finished, f"{len(partie.deals)} of {partie.deals_needed} deals played")
        second = "B" if first_seat == "A" else "A"
        deals = tuple((s[first_seat], s[second]) for s in map(partie.deal_score, range(len(partie.deals))))
        card = cls.from_deals(deals, partie.rules.name)
        settled = partie.settlement()
        expected = None if settled.winner is None else (0 if settled.winner == first_seat else 1)
        assert (card.winner, card.points) == (expected, settled.points_won or 0)
        return card

    @classmethod
    def _settled(cls, deals: tuple[tuple[int, int], ...], scores: tuple[int, int], rules: str) -> CardPartie:
        s = rules_named(rules).settle({"A": scores[0], "B": scores[1]}, True)
        winner = None if s.winner is None else SEATS.index(s.winner)
        return cls(deals, scores, winner, s.points_won or 0, s.rubicon, rules)

    def swapped(self) -> CardPartie:
        """The same partie seen from the other side."""
        return CardPartie(tuple((b, a) for a, b in self.deals), (self.scores[1], self.scores[0]),
                          None if self.winner is None else 1 - self.winner, self.points, self.rubicon, self.rules)


@dataclass(frozen=True)
class Session:
    """A session of parties between two players, in order, as on the scoring card of p. 101."""

    players: tuple[str, str]
    parties: tuple[CardPartie, ...]

    def __post_init__(self) -> None:
        if len(self.players) != 2 or self.players[0] == self.players[1] or not all(self.players):
            raise ValueError(f"a session is between two players with different names, found {self.players}")

    @classmethod
    def of(cls, parties: Sequence[tuple[tuple[str, str], CardPartie]]) -> Session:
        """Parties each given with the names of its first and second player; the session's players are the
        first partie's, and every partie is turned to their side."""
        if not parties:
            raise ValueError("no parties to settle")
        players = parties[0][0]
        out = []
        for n, (names, p) in enumerate(parties, 1):
            if names == players:
                out.append(p)
            elif names == (players[1], players[0]):
                out.append(p.swapped())
            else:
                raise ValueError(f"partie {n} is between {names[0]} and {names[1]}, "
                                 f"not {players[0]} and {players[1]}")
        return cls(players, tuple(out))

    @classmethod
    def from_records(cls, records: Sequence[PartieRecord]) -> Session:
        """The parties of records, replayed by the engine; the players are known by the names in the records
        (``{"A": "Ann", "B": "Bob"}``), or by their seats where a record names none."""
        named = []
        for n, record in enumerate(records, 1):
            names = record.players or {"A": "A", "B": "B"}
            try:
                partie = CardPartie.from_partie(replay(record))
            except ValueError as e:
                raise ValueError(f"partie {n}: {e}") from None
            named.append(((names.get("A", "A"), names.get("B", "B")), partie))
        return cls.of(named)

    # ------------------------------------------------------------ the results

    def won(self) -> tuple[int, int]:
        """The points of the parties each player won (p. 101: A 692, B 617)."""
        return (sum(p.points for p in self.parties if p.winner == 0),
                sum(p.points for p in self.parties if p.winner == 1))

    def running(self) -> list[int]:
        """The first player's lead (negative: the second player's) after each partie."""
        out, lead = [], 0
        for p in self.parties:
            lead += 0 if p.winner is None else (p.points if p.winner == 0 else -p.points)
            out.append(lead)
        return out

    def balances(self) -> dict[str, int]:
        """Each player's win (+) or loss (-) in points over the session."""
        a, b = self.won()
        return {self.players[0]: a - b, self.players[1]: b - a}

    def settle(self, stake: Stake, custom: Custom = FIFTY) -> StakesSettlement:
        return settle_stakes(self.balances(), stake, custom)

    def result_words(self) -> str:
        """``A wins 75 points (692 - 617).``"""
        a, b = self.won()
        if a == b:
            return f"Neither wins: {self.players[0]} and {self.players[1]} are square ({a} - {b})."
        w, lose = (0, 1) if a > b else (1, 0)
        won = (a, b)
        return (f"{self.players[w]} {_verb(self.players[w], 'wins')} {won[w] - won[lose]} points "
                f"({won[w]} - {won[lose]}); {self.players[lose]} {_verb(self.players[lose], 'loses')} "
                f"{won[w] - won[lose]}.")


# ---------------------------------------------------------------- chouette (p. 102, 106)


def chouette_tens(points: int) -> int:
    """The tens a partie's points count at chouette: "adding one to the tens for units above five, and
    neglecting units from one to five.  Thus, 416 counts 420; 141 counts 140" (p. 102).  A drawn partie
    (nothing won) counts nothing.

    >>> [chouette_tens(p) for p in (416, 141, 126, 150, 145, 5, 6, 0)]
    [42, 14, 13, 15, 14, 0, 1, 0]
    """
    if points < 0:
        raise ValueError(f"the points of a partie are never negative, found {points}")
    tens, units = divmod(points, 10)
    return tens + (1 if units > 5 else 0)


@dataclass(frozen=True)
class ChouettePartie:
    """One partie at chouette: the single player, who won it (the single player; or for the other two the
    one of them who played it; None for a drawn partie) and the points won, as Laws 72-73 settle them."""

    single: str
    winner: str | None
    points: int

    @property
    def single_won(self) -> bool | None:
        return None if self.winner is None else self.winner == self.single

    @property
    def tens(self) -> int:
        return chouette_tens(self.points)


@dataclass(frozen=True)
class ChouetteSession:
    """A chouette of three players (p. 106), the totals of each partie on a separate card (p. 102)."""

    players: tuple[str, str, str]
    parties: tuple[ChouettePartie, ...]

    def __post_init__(self) -> None:
        if len(self.players) != 3 or len(set(self.players)) != 3 or not all(self.players):
            raise ValueError(f"a chouette is of three players with different names, found {self.players}")
        for n, p in enumerate(self.parties, 1):
            if p.single not in self.players:
                raise ValueError(f"partie {n}: the single player {p.single!r} is not one of "
                                 f"{_and_names(list(self.players))}")
            if p.winner is None:
                if p.points != 0:
                    raise ValueError(f"partie {n}: a drawn partie wins nothing, yet {p.points} points are given")
            else:
                if p.winner not in self.players:
                    raise ValueError(f"partie {n}: the winner {p.winner!r} is not one of "
                                     f"{_and_names(list(self.players))}")
                if p.points <= 100:
                    raise ValueError(f"partie {n}: a partie won wins more than a hundred (Laws 72-73), "
                                     f"found {p.points}")

    def entries(self) -> list[dict[str, int]]:
        """Each partie's entry for each player, in tens (the naughts omitted, p. 102): the single player,
        who plays double stakes (p. 106), wins or loses twice the tens; each of the others the tens."""
        out = []
        for p in self.parties:
            sign = 0 if p.single_won is None else (1 if p.single_won else -1)
            out.append({q: sign * p.tens * (2 if q == p.single else -1) for q in self.players})
        return out

    def running(self) -> list[dict[str, int]]:
        """The card as kept in practice: "add and subtract the totals after every partie" (p. 102)."""
        total = dict.fromkeys(self.players, 0)
        out = []
        for e in self.entries():
            total = {q: total[q] + e[q] for q in self.players}
            out.append(total)
        return out

    def balances(self) -> dict[str, int]:
        """Each player's win (+) or loss (-) in points: the tens with their naught restored."""
        last = self.running()[-1] if self.parties else dict.fromkeys(self.players, 0)
        return {q: 10 * last[q] for q in self.players}

    def settle(self, stake: Stake, custom: Custom = FIFTY) -> StakesSettlement:
        return settle_stakes(self.balances(), stake, custom)

    def result_words(self) -> str:
        """As the book says it: ``A wins 190; C, 310; B loses 500.``"""
        b = self.balances()
        winners = [q for q in self.players if b[q] > 0]
        losers = [q for q in self.players if b[q] < 0]
        if not winners:
            return "Nobody wins: the accounts are square."
        won = "; ".join(f"{q} {_verb(q, 'wins')} {b[q]}" if i == 0 else f"{q}, {b[q]}"
                        for i, q in enumerate(winners))
        lost = "; ".join(f"{q} {_verb(q, 'loses')} {-b[q]}" if i == 0 else f"{q}, {-b[q]}"
                         for i, q in enumerate(losers))
        return f"{won}; {lost}."

    def rotation_notes(self) -> list[str]:
        """Where the single players depart from the order of p. 106: the single player continues while he
        wins (or draws); when he loses, the player who played against him (the winner named) takes the
        single player's part."""
        notes = []
        for n, (p, q) in enumerate(zip(self.parties, self.parties[1:], strict=False), 2):
            expected = p.single if p.single_won is not False else p.winner
            if q.single != expected:
                notes.append(f"partie {n}: {q.single} plays alone, but by p. 106 it is {expected}'s turn")
        return notes


def chouette_seats_after(single: str, playing: str, advising: str,
                         single_won: bool | None) -> tuple[str, str, str]:
    """Who plays alone, who plays for the other two, and who advises, after a partie (p. 106).

    "If the single player (A) wins the partie, he continues to play against the other two.  C takes B's
    place, and B advises C ...  As soon as A loses a partie, the player who advised in that partie (say C)
    takes A's place.  B plays against the other two, and A advises C."  A drawn partie is not lost: the
    single player continues, as after a win.

    >>> chouette_seats_after("A", "B", "C", True), chouette_seats_after("A", "B", "C", False)
    (('A', 'C', 'B'), ('B', 'C', 'A'))
    """
    if single_won is False:
        return playing, advising, single
    return single, advising, playing


# ---------------------------------------------------------------- drawing the cards


_Grid = list[list[str]]


def _signed(n: int, digits: int = 0) -> str:
    """As the card of p. 102 writes a total: ``+ 30``, ``-  9``."""
    return f"{'+' if n >= 0 else '-'} {abs(n):>{digits}}"


def scoring_card_rows(session: Session) -> tuple[_Grid, list[int]]:
    """The card of p. 101 as a grid of cells (header rows first) and the sizes of the column groups: a label
    column, a pair of columns (first player, second player) per partie, and the totals pair, where each
    player's winnings are listed, summed, and the difference written under the winner."""
    first, second = session.players
    n = len(session.parties)
    ndeals = max((len(p.deals) for p in session.parties), default=0)
    won_a = [p.points for p in session.parties if p.winner == 0]
    won_b = [p.points for p in session.parties if p.winner == 1]
    sums = session.won()
    totals_col: list[tuple[str, str]] = [
        (str(won_a[i]) if i < len(won_a) else "", str(won_b[i]) if i < len(won_b) else "")
        for i in range(max(len(won_a), len(won_b)))]
    diff = sums[0] - sums[1]
    totals_col += [("----", "----"), (str(sums[0]), str(sums[1])),
                   (str(diff) if diff > 0 else "", str(-diff) if diff < 0 else "" if diff else "=")]
    body_rows = max(ndeals, len(totals_col))
    header = [["", *[x for i in range(n) for x in (f"Partie {i + 1}", "")], "Totals", ""],
              ["", *([first, second] * n), first, second]]
    rows: _Grid = []
    for r in range(body_rows + 4):
        label = f"deal {r + 1}" if r < ndeals else ""
        cells = [label]
        for p in session.parties:
            if r < body_rows:
                pair = (str(p.deals[r][0]), str(p.deals[r][1])) if r < len(p.deals) else ("", "")
            elif r == body_rows:
                pair = ("---", "---") if p.deals else ("", "")
            elif r == body_rows + 1:
                pair = (str(p.scores[0]), str(p.scores[1]))
            elif r == body_rows + 2:
                mark = "*" if p.rubicon else ""
                pair = ((f"{p.points}{mark}", "") if p.winner == 0 else ("", f"{p.points}{mark}")
                        if p.winner == 1 else ("drawn", ""))
            else:
                lead = session.running()[session.parties.index(p)]
                pair = (f"+{lead}", "") if lead > 0 else ("", f"+{-lead}") if lead < 0 else ("=", "=")
            cells += pair
        labels = {body_rows + 1: "total", body_rows + 2: "won", body_rows + 3: "running"}
        cells[0] = labels.get(r, cells[0])
        cells += totals_col[r] if r < len(totals_col) else ("", "")
        rows.append(cells)
    return header + rows, [1] + [2] * (n + 1)


def _render(grid: _Grid, groups: list[int], head_rows: int) -> str:
    ncols = len(grid[0])
    single = {c for c, g in _group_starts(groups) if g == 1}
    widths = [max(len(row[c]) for row in (grid if c in single else grid[1:])) for c in range(ncols)]
    # widen a group so that its spanning title fits
    c = 0
    for g in groups:
        title = grid[0][c]
        span = sum(widths[c:c + g]) + 2 * (g - 1)
        if len(title) > span:
            extra = len(title) - span
            for k in range(g):
                widths[c + k] += extra // g + (1 if k < extra % g else 0)
        c += g
    lines = []
    for i, row in enumerate(grid):
        parts, c = [], 0
        for g in groups:
            span = sum(widths[c:c + g]) + 2 * (g - 1)
            if i == 0 and g > 1:
                parts.append(row[c].center(span))
            elif c == 0:
                parts.append(row[c].ljust(widths[c]))
            else:
                parts.append("  ".join(row[c + k].rjust(widths[c + k]) for k in range(g)))
            c += g
        lines.append(" | ".join(parts).rstrip())
    rule = "-+-".join("-" * (sum(widths[c:c + g]) + 2 * (g - 1)) for c, g in _group_starts(groups))
    return "\n".join([*lines[:head_rows], rule, *lines[head_rows:]])


def _group_starts(groups: list[int]) -> Iterable[tuple[int, int]]:
    c = 0
    for g in groups:
        yield c, g
        c += g


def scoring_card_text(session: Session, settlement: StakesSettlement | None = None) -> str:
    """The scoring card drawn as the book draws it (p. 101): a pair of columns per partie, the deal scores
    in rows, each partie's totals and the points won (``*`` a rubicon) under the winner, the running result,
    and the totals: each player's winnings listed and summed, the difference under the winner.  Then the
    result, and the money when a settlement is given."""
    grid, groups = scoring_card_rows(session)
    out = [f"Scoring card: {session.players[0]} and {session.players[1]}, "
           f"{_count(len(session.parties), 'partie')} (p. 101)",
           _render(grid, groups, 2)]
    if any(p.rubicon for p in session.parties):
        out.append("* a rubicon: the loser under a hundred (Law 73)")
    out.append(session.result_words())
    if settlement is not None:
        out += settlement.lines()
    return "\n".join(out)


def _count(n: int, noun: str) -> str:
    return f"{number_words(n) if n < 1000 else n} {noun}{'' if n == 1 else 's'}"


def chouette_card_rows(session: ChouetteSession) -> tuple[_Grid, list[int]]:
    """The chouette card of p. 102 as a grid: a column per partie, its points and single player, then a row
    per player with his running total in tens (the naughts omitted)."""
    n = len(session.parties)
    header = [["", *[f"Partie {i + 1}" for i in range(n)]],
              ["points", *[str(p.points) for p in session.parties]],
              ["alone", *[f"{p.single} {'drew' if p.single_won is None else 'won' if p.single_won else 'lost'}"
                          for p in session.parties]]]
    running = session.running()
    digits = max((len(str(abs(r[q]))) for r in running for q in session.players), default=1)
    rows = [[q, *[_signed(r[q], digits) for r in running]] for q in session.players]
    return header + rows, [1] * (n + 1)


def chouette_card_text(session: ChouetteSession, settlement: StakesSettlement | None = None) -> str:
    """The chouette card as kept in practice (p. 102): after every partie each player's running total in tens
    (the naughts omitted), the single player winning or losing double (p. 106)."""
    grid, groups = chouette_card_rows(session)
    out = [f"Chouette: {_and_names(list(session.players))}, {_count(len(session.parties), 'partie')}; "
           "the totals in tens, the naughts omitted (p. 102)",
           _render(grid, groups, 3), session.result_words()]
    out += [f"Note: {note}." for note in session.rotation_notes()]
    if settlement is not None:
        out += settlement.lines()
    return "\n".join(out)


def scoring_card_html(card: Session | ChouetteSession) -> str:
    """The card as an HTML table (for the browser): the same cells as the text, escaped."""
    if isinstance(card, Session):
        grid, groups = scoring_card_rows(card)
        head = 2
    else:
        grid, groups = chouette_card_rows(card)
        head = 3
    out = ['<table class="scoring-card">']
    for i, row in enumerate(grid):
        tag = "th" if i < head else "td"
        if i == 0:
            cells, c = [], 0
            for g in groups:
                span = f' colspan="{g}"' if g > 1 else ""
                cells.append(f"<th{span}>{html.escape(row[c])}</th>")
                c += g
        else:
            cells = [f"<{tag}>{html.escape(x)}</{tag}>" for x in row]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


# ---------------------------------------------------------------- export


def to_csv(card: Session | ChouetteSession, settlement: StakesSettlement | None = None) -> str:
    """The card as CSV, cell for cell as drawn; then, when given, a row per player of the settlement."""
    grid = scoring_card_rows(card)[0] if isinstance(card, Session) else chouette_card_rows(card)[0]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows(grid)
    if settlement is not None:
        w.writerow([])
        w.writerow(["stake", str(settlement.stake), "custom", settlement.custom.name])
        w.writerow(["player", "points", "reckoned", "farthings", "money"])
        for r in settlement.reckonings:
            w.writerow([r.player, r.points, _points(r.reckoned), r.farthings,
                        ("" if r.farthings >= 0 else "-") + money_words(r.farthings)])
    return buf.getvalue()


def to_json(card: Session | ChouetteSession, settlement: StakesSettlement | None = None) -> str:
    """The card as JSON (``piquet-stakes/1``): the parties, and the results and settlement for the reader's
    convenience (``from_json`` reads the parties and checks the results against them)."""
    doc: dict[str, Any] = {"format": STAKES_FORMAT}
    if isinstance(card, Session):
        doc["kind"] = "scoring card"
        doc["players"] = list(card.players)
        doc["parties"] = [{
            "rules": p.rules, "deals": [list(d) for d in p.deals], "scores": list(p.scores),
            "winner": None if p.winner is None else card.players[p.winner], "points": p.points,
            "rubicon": p.rubicon} for p in card.parties]
        doc["won"] = dict(zip(card.players, card.won(), strict=True))
    else:
        doc["kind"] = "chouette"
        doc["players"] = list(card.players)
        doc["parties"] = [{"single": p.single, "winner": p.winner, "points": p.points, "tens": p.tens}
                          for p in card.parties]
        doc["running"] = card.running()
    doc["balances"] = card.balances()
    if settlement is not None:
        doc["settlement"] = settlement.as_json()
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    # a list of numbers on one line: a deal's pair of scores, a partie's totals
    # (a JSON string holds no raw newline, so only lists the writer spread over lines match)
    return re.sub(r"\[\n\s*(-?\d+(?:,\n\s*-?\d+)*)\n\s*\]",
                  lambda m: "[" + ", ".join(m[1].replace(",", " ").split()) + "]", text) + "\n"


def from_json(text: str) -> Session | ChouetteSession:
    """Read a card written by ``to_json`` (or by hand: ``format`` and ``kind`` may be left out, a scoring
    card's parties may give only ``scores``, or only ``deals``); ``ValueError`` says what is wrong."""
    try:
        doc = read_json(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e.msg} at line {e.lineno}") from None
    if not isinstance(doc, dict):
        raise ValueError("a card is a JSON object with \"players\" and \"parties\"")
    if doc.get("format", STAKES_FORMAT) != STAKES_FORMAT:
        raise ValueError(f"unknown format {doc.get('format')!r}, expected {STAKES_FORMAT!r}")
    players, parties = doc.get("players"), doc.get("parties")
    if not isinstance(players, list) or not all(isinstance(x, str) for x in players):
        raise ValueError("\"players\" is a list of names, e.g. [\"A\", \"B\"]")
    if not isinstance(parties, list) or not all(isinstance(x, dict) for x in parties):
        raise ValueError("\"parties\" is a list of objects")
    kind = doc.get("kind", "chouette" if len(players) == 3 else "scoring card")
    if kind == "chouette":
        return _chouette_from_doc(players, parties)
    if kind == "scoring card":
        return _session_from_doc(players, parties)
    raise ValueError(f"unknown kind {kind!r}: \"scoring card\" or \"chouette\"")


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is a whole number, found {value!r}")
    return value


def _session_from_doc(players: list[str], parties: list[dict[str, Any]]) -> Session:
    if len(players) != 2:
        raise ValueError(f"a scoring card is between two players, found {len(players)}")
    out = []
    for n, d in enumerate(parties, 1):
        unknown = set(d) - {"rules", "deals", "scores", "winner", "points", "rubicon"}
        if unknown:
            raise ValueError(f"partie {n}: unknown field {sorted(unknown)[0]!r}")
        rules = d.get("rules", "rubicon")
        if not isinstance(rules, str):
            raise ValueError(f"partie {n}: \"rules\" is a name")
        deals = d.get("deals") or []
        if not isinstance(deals, list) or not all(isinstance(x, list) and len(x) == 2 for x in deals):
            raise ValueError(f"partie {n}: \"deals\" is a list of [score, score] pairs")
        try:
            if deals:
                p = CardPartie.from_deals([(_int(a, "a deal score"), _int(b, "a deal score")) for a, b in deals],
                                          rules)
                if "scores" in d and list(p.scores) != d["scores"]:
                    raise ValueError(f"the deals add up to {list(p.scores)}, not {d['scores']}")
            else:
                scores = d.get("scores")
                if not isinstance(scores, list) or len(scores) != 2:
                    raise ValueError("give \"deals\" or \"scores\": [score, score]")
                p = CardPartie.from_scores(_int(scores[0], "a score"), _int(scores[1], "a score"), rules)
        except ValueError as e:
            raise ValueError(f"partie {n}: {e}") from None
        winner = None if p.winner is None else players[p.winner]
        for key, value in (("winner", winner), ("points", p.points), ("rubicon", p.rubicon)):
            if key in d and d[key] != value:
                raise ValueError(f"partie {n}: the {key} is {value!r} by Laws 71-73, not {d[key]!r}")
        out.append(p)
    return Session((players[0], players[1]), tuple(out))


def _chouette_from_doc(players: list[str], parties: list[dict[str, Any]]) -> ChouetteSession:
    if len(players) != 3:
        raise ValueError(f"a chouette is of three players, found {len(players)}")
    out = []
    for n, d in enumerate(parties, 1):
        unknown = set(d) - {"single", "winner", "points", "tens"}
        if unknown:
            raise ValueError(f"partie {n}: unknown field {sorted(unknown)[0]!r}")
        single, winner = d.get("single"), d.get("winner")
        if not isinstance(single, str):
            raise ValueError(f"partie {n}: \"single\" names the player who plays alone")
        if winner is not None and not isinstance(winner, str):
            raise ValueError(f"partie {n}: \"winner\" names a player (or is null for a drawn partie)")
        p = ChouettePartie(single, winner, _int(d.get("points", 0), f"partie {n}: the points"))
        if "tens" in d and d["tens"] != p.tens:
            raise ValueError(f"partie {n}: {p.points} counts {p.tens} tens (p. 102), not {d['tens']!r}")
        out.append(p)
    return ChouetteSession((players[0], players[1], players[2]), tuple(out))


__all__ = [
    "CUSTOMS", "FIFTY", "FORTY", "NONE", "POUND", "STAKES_FORMAT", "TWENTY", "TWENTY_FIVE", "CardPartie",
    "ChouettePartie", "ChouetteSession", "Custom", "Reckoning", "Session", "Stake", "StakesSettlement",
    "book_reckoning", "card_ready", "chouette_card_rows", "chouette_card_text", "chouette_seats_after", "chouette_tens",
    "custom_named", "from_json", "money_words", "parse_money", "scoring_card_html", "scoring_card_rows",
    "scoring_card_text", "settle_stakes", "to_csv", "to_json",
]
