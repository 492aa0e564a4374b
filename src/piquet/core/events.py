"""What happens at the table, as a log of public events, each kind its own small immutable type.

Everything in this log is known to both players: announcements, the number of
cards each exchanged, every call and reply, the cards each is entitled to see
because they were scored as good, called as equal or shown (Laws 19, 36, 55),
the cards played and the tricks, and every score in the order of Law 67.  What
only one player may know (his hand, his discard, cards he alone looked at) is
never put here; an observation adds it for its own player.

Each event carries its facts as they happened, so that no reader works a rule
out again: a ``Reply`` names the category and its outcome, a ``Trick`` its
winner and what he scored for it, a ``Score`` its heading in Law 67's order.
The events are named tuples (fast to make, no dict each) whose equality also
compares their kind; every one has ``role`` (``ELDER`` or ``YOUNGER``) first,
``kind`` (its name in the records and on the wire), ``revealed`` (the cards it
shows both players) and ``to_json()``.

>>> e = Trick(YOUNGER, 3, lead=29, follow=31, points=1)
>>> e.kind, e.winner, e.leader, e.cards_named, e.to_json()["follow"]
('trick', 1, 0, 'QD AD', 'AD')
>>> Play(ELDER, 5, 1) == CallSequence(ELDER, 5, 1), Play(ELDER, 5, 1) == (0, 5, 1)
(False, False)
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, NamedTuple

from piquet.core.cards import SUIT_MASKS, Card, Mask, card_name, cards_of, format_cards

ELDER: Final = 0
YOUNGER: Final = 1
ROLES: Final = ("elder", "younger")

# Categories of declaration, in the order of calling.
POINT: Final = 0
SEQUENCES: Final = 1
SETS: Final = 2
CATEGORIES: Final = ("point", "sequences", "sets")

#: Score headings, in the order of Law 67 (pique and repique are additions).
SCORE_KINDS: Final = ("carte_blanche", "point", "sequences", "sets", "play", "cards", "pique", "repique")
S_CARTE_BLANCHE: Final = 0
S_POINT: Final = 1
S_SEQUENCES: Final = 2
S_SETS: Final = 3
S_PLAY: Final = 4
S_CARDS: Final = 5
S_PIQUE: Final = 6
S_REPIQUE: Final = 7

#: A reply's outcome for the elder's call (Laws 46-49), by index.
GOOD: Final = 0
EQUAL: Final = 1
NOT_GOOD: Final = 2
REPLIES: Final = ("Good", "Equal", "Not good")

# The kinds, by name (as records and the wire spell them).
CARTE_BLANCHE: Final = "carte_blanche"
CARTE_BLANCHE_SHOWN: Final = "carte_blanche_shown"
EXCHANGE: Final = "exchange"
LOOK: Final = "look"
CALL_POINT: Final = "call_point"
ASK_VALUE: Final = "ask_value"
CALL_VALUE: Final = "call_value"
CALL_SEQUENCE: Final = "call_sequence"
CALL_SET: Final = "call_set"
REPLY: Final = "reply"
SHOW: Final = "show"
NAME_SET: Final = "name_set"
PLAY: Final = "play"
TRICK: Final = "trick"
SCORE: Final = "score"
GAME: Final = "game"
ODD_EXCHANGE: Final = "odd_exchange"
PENALTY: Final = "penalty"
UNANSWERED: Final = "unanswered"
MISCALL: Final = "miscall"


_MASK_FIELDS: Final = frozenset({"cards"})
_CARD_FIELDS: Final = frozenset({"card", "lead", "follow"})


def _field_json(name: str, value: Any) -> Any:
    if name in _MASK_FIELDS:
        return [card_name(c) for c in cards_of(value)]
    if name in _CARD_FIELDS:
        return card_name(value)
    if name == "role":
        return ROLES[value]
    if name == "category":
        return CATEGORIES[value]
    if name == "component":
        return SCORE_KINDS[value]
    if name == "outcome":
        return REPLIES[value]
    return value


class _Event:
    """What every event has besides its fields: its kind, the cards it shows both players, equality that compares
    kinds too, a JSON form and a readable repr.  (Mixed into each event's named tuple; no dict per event.)"""

    __slots__ = ()
    kind: ClassVar[str]

    @property
    def revealed(self) -> Mask:
        """The cards this event shows both players (none, unless the event says otherwise)."""
        return 0

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)  # type: ignore[operator]

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((self.kind, *self))  # type: ignore[misc]

    def _names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = getattr(self, "_fields")  # noqa: B009 (the named tuple's, unknown to the mixin)
        return names

    def to_json(self) -> dict[str, Any]:
        """A plain, JSON-ready form: the kind and each named field, cards by name, roles and headings in words."""
        out: dict[str, Any] = {"kind": self.kind}
        for name, value in zip(self._names(), self, strict=True):  # type: ignore[call-overload]
            out[name] = _field_json(name, value)
        return out

    def __repr__(self) -> str:
        parts = []
        for name, value in zip(self._names(), self, strict=True):  # type: ignore[call-overload]
            if name in _MASK_FIELDS:
                parts.append(f"{name}={format_cards(cards_of(value)) or '-'}")
            elif name in _CARD_FIELDS:
                parts.append(f"{name}={card_name(value)}")
            elif name == "role":
                parts.append(ROLES[value])
            else:
                parts.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


class _CarteBlanche(NamedTuple):
    role: int


class CarteBlanche(_Event, _CarteBlanche):
    """A carte blanche announced, at once (Law 20; au cent, the younger's after the elder's discard, p. 16)."""

    __slots__ = ()
    kind: ClassVar[str] = CARTE_BLANCHE


class _CarteBlancheShown(NamedTuple):
    role: int
    cards: Mask


class CarteBlancheShown(_Event, _CarteBlancheShown):
    """The twelve cards dealt, shown as soon as the adversary has discarded (Law 19)."""

    __slots__ = ()
    kind: ClassVar[str] = CARTE_BLANCHE_SHOWN

    @property
    def revealed(self) -> Mask:
        return self.cards


class _Exchange(NamedTuple):
    role: int
    taken: int
    left: int


class Exchange(_Event, _Exchange):
    """A hand discards and takes in ``taken`` cards, leaving ``left`` in the stock (Laws 21-22)."""

    __slots__ = ()
    kind: ClassVar[str] = EXCHANGE


class _OddExchange(NamedTuple):
    role: int
    discarded: int
    taken: int
    left: int
    holds: int


class OddExchange(_Event, _OddExchange):
    """A hand discards ``discarded`` cards and takes in a different number, ``taken``: a deal stood with eleven or
    thirteen cards, or a stock of seven (Laws 40-43), or cards taken in error (Laws 30, 31, 35); ``holds``: the cards
    in his hand after it."""

    __slots__ = ()
    kind: ClassVar[str] = ODD_EXCHANGE


class _Look(NamedTuple):
    role: int
    looked: bool
    cards: Mask = 0


class Look(_Event, _Look):
    """Whether a hand looks at the cards left (Laws 33, 36); ``cards``: what both now see (the younger's look)."""

    __slots__ = ()
    kind: ClassVar[str] = LOOK

    @property
    def revealed(self) -> Mask:
        return self.cards


class _CallPoint(NamedTuple):
    role: int
    length: int


class CallPoint(_Event, _CallPoint):
    """The elder calls his point by the number of cards (Law 46)."""

    __slots__ = ()
    kind: ClassVar[str] = CALL_POINT


class _AskValue(NamedTuple):
    role: int
    length: int


class AskValue(_Event, _AskValue):
    """The younger, holding as many cards, asks "What do they make?" (Law 46)."""

    __slots__ = ()
    kind: ClassVar[str] = ASK_VALUE


class _CallValue(NamedTuple):
    role: int
    value: int


class CallValue(_Event, _CallValue):
    """What the elder's point makes (Law 46; at Piquet au cent he says it with his call, p. 18)."""

    __slots__ = ()
    kind: ClassVar[str] = CALL_VALUE


class _CallSequence(NamedTuple):
    role: int
    length: int
    head: int


class CallSequence(_Event, _CallSequence):
    """The elder calls his best sequence: its length and the rank of its head (Laws 48, 63)."""

    __slots__ = ()
    kind: ClassVar[str] = CALL_SEQUENCE


class _CallSet(NamedTuple):
    role: int
    size: int
    rank: int


class CallSet(_Event, _CallSet):
    """The elder calls his best quatorze or trio: three or four, and the rank (Laws 48, 64)."""

    __slots__ = ()
    kind: ClassVar[str] = CALL_SET


class _Reply(NamedTuple):
    role: int
    category: int
    outcome: int


class Reply(_Event, _Reply):
    """The younger's answer to the elder's call in a category: ``GOOD``, ``EQUAL`` or ``NOT_GOOD`` (Laws 46-49)."""

    __slots__ = ()
    kind: ClassVar[str] = REPLY

    @property
    def words(self) -> str:
        return REPLIES[self.outcome]


class _Show(NamedTuple):
    role: int
    category: int
    cards: Mask
    points: int


class Show(_Event, _Show):
    """Cards shown because they are good (``points`` they score) or equal (``points`` 0) (Law 55)."""

    __slots__ = ()
    kind: ClassVar[str] = SHOW

    @property
    def revealed(self) -> Mask:
        return self.cards

    @property
    def equal(self) -> bool:
        return self.points == 0


class _NameSet(NamedTuple):
    role: int
    size: int
    rank: int


class NameSet(_Event, _NameSet):
    """A quatorze or trio named, not shown (Piquet au cent, p. 18): three or four, and the rank."""

    __slots__ = ()
    kind: ClassVar[str] = NAME_SET


class _Play(NamedTuple):
    role: int
    card: Card
    trick: int


class Play(_Event, _Play):
    """A card played to trick ``trick`` (1-12) (Laws 57-59)."""

    __slots__ = ()
    kind: ClassVar[str] = PLAY

    @property
    def revealed(self) -> Mask:
        return 1 << self.card


class _Trick(NamedTuple):
    role: int
    number: int
    lead: Card
    follow: Card
    points: int


class Trick(_Event, _Trick):
    """Trick ``number`` is won by ``role``: the card led, the card played to it, and what the winner scored for
    taking it (Law 65: one for winning as second player with a counting card, one for the last trick)."""

    __slots__ = ()
    kind: ClassVar[str] = TRICK

    @property
    def winner(self) -> int:
        return self.role

    @property
    def leader(self) -> int:
        """Who led: the winner, unless the card played to it took it."""
        return self.role if self.lead >> 3 != self.follow >> 3 or self.follow < self.lead else 1 - self.role

    @property
    def void(self) -> int | None:
        """The suit led, when the second player did not follow it: he has none left (Law 59)."""
        return self.lead >> 3 if self.follow >> 3 != self.lead >> 3 else None

    @property
    def revealed(self) -> Mask:
        return 1 << self.lead | 1 << self.follow

    @property
    def cards_named(self) -> str:
        return f"{card_name(self.lead)} {card_name(self.follow)}"


class _Score(NamedTuple):
    role: int
    component: int
    points: int
    cards: Mask = 0


class Score(_Event, _Score):
    """Points scored under a heading of Law 67 (``component``, index into ``SCORE_KINDS``); ``cards``: what
    counted, when it was shown."""

    __slots__ = ()
    kind: ClassVar[str] = SCORE

    @property
    def revealed(self) -> Mask:
        return self.cards

    @property
    def heading(self) -> str:
        return SCORE_KINDS[self.component]


class _Penalty(NamedTuple):
    role: int
    law: str


class Penalty(_Event, _Penalty):
    """``role`` reckons nothing this deal (``law``: Laws 27-31, 33, 35, 54, 58); his cards, though not good to
    score, are good to bar his adversary (Law 58), and a carte blanche still scores (Case XXI)."""

    __slots__ = ()
    kind: ClassVar[str] = PENALTY


class _Unanswered(NamedTuple):
    role: int
    tricks: int
    points: int


class Unanswered(_Event, _Unanswered):
    """The adversary of a hand of fewer than twelve has no card left: ``role`` counts as ``tricks`` the cards
    that cannot be played to (Laws 30, 57), and ``points`` for the twelfth trick among them, the last (Case
    XIX)."""

    __slots__ = ()
    kind: ClassVar[str] = UNANSWERED


class _Miscall(NamedTuple):
    role: int
    category: int
    cards: Mask
    impossible: bool


class Miscall(_Event, _Miscall):
    """At a club table, where calls are taken at the player's word: ``role`` called in ``category`` what he does
    not hold (``cards``, as he called them), allowed good and not corrected before the younger played to the first
    trick (Law 54).  The call bars nothing; he reckons nothing that deal (a ``Penalty`` follows), unless he could
    not have held it in his hand and discard together (``impossible``), when he is liable to no penalty."""

    __slots__ = ()
    kind: ClassVar[str] = MISCALL


class _GameWon(NamedTuple):
    role: int
    score: int
    double: bool


class GameWon(_Event, _GameWon):
    """At a game of so many up, ``role`` reached the goal with ``score``; a double game if the other had not
    reached the line (p. 20)."""

    __slots__ = ()
    kind: ClassVar[str] = GAME


Event = (CarteBlanche | CarteBlancheShown | Exchange | Look | CallPoint | AskValue | CallValue | CallSequence
         | CallSet | Reply | Show | NameSet | Play | Trick | Score | GameWon | OddExchange | Penalty | Unanswered
         | Miscall)
EVENT_TYPES: Final[tuple[type[Event], ...]] = (
    CarteBlanche, CarteBlancheShown, Exchange, Look, CallPoint, AskValue, CallValue, CallSequence, CallSet, Reply,
    Show, NameSet, Play, Trick, Score, GameWon, OddExchange, Penalty, Unanswered, Miscall)
#: The event types by their ``kind``.
EVENT_KINDS: Final[dict[str, type[Event]]] = {t.kind: t for t in EVENT_TYPES}
#: The calls of the elder that open a category, and the category each opens.
CALLS: Final[dict[type[Event], int]] = {CallPoint: POINT, CallSequence: SEQUENCES, CallSet: SETS}


def played(events: tuple[Event, ...] | list[Event], role: int | None = None) -> Mask:
    """The cards played so far (by one role, or by both)."""
    m = 0
    for e in events:
        if type(e) is Play and (role is None or e.role == role):
            m |= 1 << e.card
    return m


def revealed(events: tuple[Event, ...] | list[Event]) -> Mask:
    """Every card the log shows both players."""
    m = 0
    for e in events:
        m |= e.revealed
    return m


def voids_shown(events: tuple[Event, ...] | list[Event], role: int) -> Mask:
    """The suits (as a mask of their cards) in which ``role`` has shown in play that he holds no card (Law 59)."""
    m = 0
    for e in events:
        if type(e) is Trick and e.void is not None and e.leader != role:
            m |= SUIT_MASKS[e.void]
    return m
