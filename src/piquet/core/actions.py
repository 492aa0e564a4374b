"""The choices the laws give a player in a deal, as small immutable values.

Each reads like what the player does: ``Discard(KS 8C 7C)``, ``Play(AH)``,
``DeclarePoint(AH KH QH JH 8H)``.  A declaration lists the cards it counts;
an empty one declares nothing (the player sinks it, p. 93).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from piquet.core.cards import Card, CardError, Mask, card_name, cards_of, format_cards, parse_card, parse_cards
from piquet.core.combinations import sequence_key, set_key


def _fmt(mask: Mask) -> str:
    return format_cards(cards_of(mask)) if mask else "nothing"


class _Choice:
    """What every action shares: one value, named by each kind (``cards``, ``look``, ``runs``, ``sets``,
    ``card``), set once by ``__init__`` (``Final``: read-only where the module runs compiled); equal to an
    action of the same kind with the same value, and hashed as such."""

    __slots__ = ()

    def _value(self) -> object:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _Choice) and other._value() == self._value()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._value()))


class Discard(_Choice):
    """Put out these cards and take in as many from the top of the stock (Laws 21-23)."""

    __slots__ = ("cards",)

    def __init__(self, cards: Mask) -> None:
        self.cards: Final = cards

    def _value(self) -> object:
        return self.cards

    def __repr__(self) -> str:
        return f"Discard({_fmt(self.cards)})"


class LookAtLeft(_Choice):
    """Look, or decline to look, at the cards one has left in the stock (Laws 33, 36)."""

    __slots__ = ("look",)

    def __init__(self, look: bool) -> None:
        self.look: Final = look

    def _value(self) -> object:
        return self.look

    def __repr__(self) -> str:
        return "LookAtLeft(yes)" if self.look else "LookAtLeft(no)"


#: Looking and not looking, in the order of the legal actions: shared, as the plays are.
LOOK_CHOICES: Final[tuple[LookAtLeft, LookAtLeft]] = (LookAtLeft(True), LookAtLeft(False))


class DeclarePoint(_Choice):
    """The cards of one suit called for point; empty to call no point (Law 46)."""

    __slots__ = ("cards",)

    def __init__(self, cards: Mask = 0) -> None:
        self.cards: Final = cards

    def _value(self) -> object:
        return self.cards

    def __repr__(self) -> str:
        return f"DeclarePoint({_fmt(self.cards)})"


def _sequence_order(m: Mask) -> tuple[tuple[int, int], Mask]:
    return sequence_key(m), m


def _set_order(m: Mask) -> tuple[tuple[int, int], Mask]:
    return set_key(m), m


class DeclareSequences(_Choice):
    """The sequences declared, best first; empty to declare none (Laws 48-49)."""

    __slots__ = ("runs",)

    def __init__(self, runs: Iterable[Mask] = ()) -> None:
        runs = tuple(runs)
        self.runs: Final = tuple(sorted(runs, key=_sequence_order, reverse=True)) if len(runs) > 1 else runs

    def _value(self) -> object:
        return self.runs

    def __repr__(self) -> str:
        return "DeclareSequences(" + (", ".join(_fmt(r) for r in self.runs) or "nothing") + ")"


class DeclareSets(_Choice):
    """The quatorzes and trios declared, best first; empty to declare none (Law 64)."""

    __slots__ = ("sets",)

    def __init__(self, sets: Iterable[Mask] = ()) -> None:
        sets = tuple(sets)
        self.sets: Final = tuple(sorted(sets, key=_set_order, reverse=True)) if len(sets) > 1 else sets

    def _value(self) -> object:
        return self.sets

    def __repr__(self) -> str:
        return "DeclareSets(" + (", ".join(_fmt(r) for r in self.sets) or "nothing") + ")"


class Play(_Choice):
    """Lead or play this card (Laws 57-66)."""

    __slots__ = ("card",)

    def __init__(self, card: Card) -> None:
        if not 0 <= card < 32:
            raise CardError(f"{card!r} is not a card of the 32-card pack")
        self.card: Final = card

    def _value(self) -> object:
        return self.card

    def __repr__(self) -> str:
        return f"Play({card_name(self.card)})"

    @staticmethod
    def parse(text: str) -> Play:
        return PLAYS[parse_card(text)]


#: One Play value per card, shared: the play phase allocates nothing.
PLAYS: Final[tuple[Play, ...]] = tuple(Play(c) for c in range(32))

Action = Discard | LookAtLeft | DeclarePoint | DeclareSequences | DeclareSets | Play


def parse_action(text: str) -> Action:
    """Read an action back from its repr: ``Discard(KS 8C)``, ``Discard(nothing)``, ``LookAtLeft(yes)``,
    ``DeclarePoint(AH KH QH)``, ``DeclareSequences(AH KH QH, 9S 8S 7S)``, ``DeclareSets(AS AH AC)``,
    ``Play(10H)``.  ``CardError`` (a ``ValueError``) says what cannot be read.

    >>> parse_action("DeclareSequences(AH KH QH, 9S 8S 7S)")
    DeclareSequences(AH KH QH, 9S 8S 7S)
    >>> parse_action(str(Discard(0)))
    Discard(nothing)
    """
    t = text.strip()
    name, _, rest = t.partition("(")
    if not rest.endswith(")"):
        raise CardError(f"{text!r} is not an action such as Play(AH) or Discard(KS 8C)")
    body = rest[:-1].strip()

    def mask(part: str) -> Mask:
        if part.strip() == "nothing":
            return 0
        m = 0
        for c in parse_cards(part):
            if m >> c & 1:
                raise CardError(f"{card_name(c)} is named twice in {text!r}")
            m |= 1 << c
        return m

    def masks() -> tuple[Mask, ...]:
        return () if body == "nothing" else tuple(mask(part) for part in body.split(","))

    if name == "Play":
        return PLAYS[parse_card(body)]
    if name == "Discard":
        return Discard(mask(body))
    if name == "LookAtLeft" and body in ("yes", "no"):
        return LOOK_CHOICES[body == "no"]
    if name == "DeclarePoint":
        return DeclarePoint(mask(body))
    if name == "DeclareSequences":
        return DeclareSequences(masks())
    if name == "DeclareSets":
        return DeclareSets(masks())
    raise CardError(f"{text!r} is not an action such as Play(AH) or Discard(KS 8C)")


def discard_of(text: str) -> Discard:
    """``Discard`` from ``"KS 8C 7C"``."""
    m = 0
    for c in parse_cards(text):
        m |= 1 << c
    return Discard(m)
