"""The choices the laws give a player in a deal, as small frozen values.

Each reads like what the player does: ``Discard(KS 8C 7C)``, ``Play(AH)``,
``DeclarePoint(AH KH QH JH 8H)``.  A declaration lists the cards it counts;
an empty one declares nothing (the player sinks it, p. 93).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from piquet.core.cards import Card, CardError, Mask, card_name, cards_of, format_cards, parse_card, parse_cards
from piquet.core.combinations import sequence_key, set_key


def _fmt(mask: Mask) -> str:
    return format_cards(cards_of(mask)) if mask else "nothing"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put out these cards and take in as many from the top of the stock (Laws 21-23)."""

    cards: Mask

    def __str__(self) -> str:
        return f"Discard({_fmt(self.cards)})"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class LookAtLeft:
    """Look, or decline to look, at the cards one has left in the stock (Laws 33, 36)."""

    look: bool

    def __str__(self) -> str:
        return "LookAtLeft(yes)" if self.look else "LookAtLeft(no)"

    __repr__ = __str__


#: Looking and not looking, in the order of the legal actions: shared, as the plays are.
LOOK_CHOICES: tuple[LookAtLeft, LookAtLeft] = (LookAtLeft(True), LookAtLeft(False))


@dataclass(frozen=True, slots=True)
class DeclarePoint:
    """The cards of one suit called for point; empty to call no point (Law 46)."""

    cards: Mask = 0

    def __str__(self) -> str:
        return f"DeclarePoint({_fmt(self.cards)})"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class DeclareSequences:
    """The sequences declared, best first; empty to declare none (Laws 48-49)."""

    runs: tuple[Mask, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.runs) > 1:
            object.__setattr__(self, "runs", tuple(sorted(self.runs, key=lambda m: (sequence_key(m), m), reverse=True)))
        elif type(self.runs) is not tuple:
            object.__setattr__(self, "runs", tuple(self.runs))

    def __str__(self) -> str:
        return "DeclareSequences(" + (", ".join(_fmt(r) for r in self.runs) or "nothing") + ")"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class DeclareSets:
    """The quatorzes and trios declared, best first; empty to declare none (Law 64)."""

    sets: tuple[Mask, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.sets) > 1:
            object.__setattr__(self, "sets", tuple(sorted(self.sets, key=lambda m: (set_key(m), m), reverse=True)))
        elif type(self.sets) is not tuple:
            object.__setattr__(self, "sets", tuple(self.sets))

    def __str__(self) -> str:
        return "DeclareSets(" + (", ".join(_fmt(r) for r in self.sets) or "nothing") + ")"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class Play:
    """Lead or play this card (Laws 57-66)."""

    card: Card

    def __post_init__(self) -> None:
        if not 0 <= self.card < 32:
            raise CardError(f"{self.card!r} is not a card of the 32-card pack")

    def __str__(self) -> str:
        return f"Play({card_name(self.card)})"

    __repr__ = __str__

    @staticmethod
    def parse(text: str) -> Play:
        return PLAYS[parse_card(text)]


#: One Play value per card, shared: the play phase allocates nothing.
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(32))

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
