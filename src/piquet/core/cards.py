"""Cards, suits and ranks; hands as 32-bit masks.

A card is an ``int`` from 0 to 31: ``suit * 8 + rank``.  Ranks run from 0
(seven) to 7 (ace), so within a suit a higher bit is a higher card, in
cutting, calling and play alike (p. 83).  Suits are numbered spades, hearts,
clubs, diamonds: the order of the treatise's hands, which alternates the
colours.  A hand is a mask with bit ``card`` set for each card held.

>>> card_name(parse_card("10h"))
'10H'
>>> str(CardSet.parse("AS KS 10H"))
'AS KS 10H'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, TypeAlias

Card: TypeAlias = int
Mask: TypeAlias = int
Suit: TypeAlias = int
Rank: TypeAlias = int

SPADES: Final = 0
HEARTS: Final = 1
CLUBS: Final = 2
DIAMONDS: Final = 3
SUITS: Final[tuple[Suit, ...]] = (SPADES, HEARTS, CLUBS, DIAMONDS)
SUIT_LETTERS: Final = "SHCD"
SUIT_SYMBOLS: Final = "♠♥♣♦"
SUIT_NAMES: Final = ("spades", "hearts", "clubs", "diamonds")
SUIT_SINGULAR: Final = ("spade", "heart", "club", "diamond")

SEVEN: Final = 0
EIGHT: Final = 1
NINE: Final = 2
TEN: Final = 3
KNAVE: Final = 4
QUEEN: Final = 5
KING: Final = 6
ACE: Final = 7
RANKS: Final[tuple[Rank, ...]] = tuple(range(8))
RANK_LETTERS: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES: Final = ("seven", "eight", "nine", "ten", "knave", "queen", "king", "ace")
RANK_PLURALS: Final = ("sevens", "eights", "nines", "tens", "knaves", "queens", "kings", "aces")
#: Value of each rank in the point: ace 11, court cards and ten 10, others their pips.
POINT_VALUES: Final = (7, 8, 9, 10, 10, 10, 10, 11)

FULL_PACK: Final[Mask] = (1 << 32) - 1
SUIT_MASKS: Final[tuple[Mask, ...]] = tuple(0xFF << (8 * s) for s in SUITS)
#: The four cards of each rank.
RANK_MASKS: Final[tuple[Mask, ...]] = tuple(0x01010101 << r for r in RANKS)
#: Kings, queens and knaves: a hand with none of them is a carte blanche (Law 18).
COURT_CARDS: Final[Mask] = RANK_MASKS[KING] | RANK_MASKS[QUEEN] | RANK_MASKS[KNAVE]

_RANK_INPUT: Final = {"A": ACE, "K": KING, "Q": QUEEN, "J": KNAVE, "10": TEN, "T": TEN,
                      "9": NINE, "8": EIGHT, "7": SEVEN}
_SUIT_INPUT: Final = {"S": SPADES, "H": HEARTS, "C": CLUBS, "D": DIAMONDS,
                      "♠": SPADES, "♥": HEARTS, "♣": CLUBS, "♦": DIAMONDS,
                      "♤": SPADES, "♡": HEARTS, "♧": CLUBS, "♢": DIAMONDS}


class CardError(ValueError):
    """A card or a list of cards that cannot be read."""


def card(rank: Rank, suit: Suit) -> Card:
    return suit * 8 + rank


def suit_of(c: Card) -> Suit:
    return c >> 3


def rank_of(c: Card) -> Rank:
    return c & 7


def bit(c: Card) -> Mask:
    return 1 << c


def parse_rank(text: str) -> Rank:
    """Read a rank such as ``A``, ``q``, ``10`` or ``T``.

    >>> parse_rank("10"), parse_rank("t"), parse_rank("A")
    (3, 3, 7)
    """
    t = text.strip().upper()
    if t not in _RANK_INPUT:
        raise CardError(f"{text!r} is not a rank (A K Q J 10 9 8 7)")
    return _RANK_INPUT[t]


def parse_card(text: str) -> Card:
    """Read a card such as ``10H``, ``qs``, ``TD`` or ``A♠`` (record format)."""
    t = text.strip().upper()
    if len(t) < 2 or t[-1] not in _SUIT_INPUT or t[:-1] not in _RANK_INPUT:
        raise CardError(f"{text!r} is not a card (rank A K Q J 10 9 8 7, then suit S H D C)")
    return card(_RANK_INPUT[t[:-1]], _SUIT_INPUT[t[-1]])


def card_name(c: Card) -> str:
    """The record form of a card: ``10H``, ``QS``."""
    return RANK_LETTERS[c & 7] + SUIT_LETTERS[c >> 3]


def card_symbol(c: Card) -> str:
    """The card with its suit symbol: ``10♥``."""
    return RANK_LETTERS[c & 7] + SUIT_SYMBOLS[c >> 3]


def card_words(c: Card) -> str:
    """``ace of spades``."""
    return f"{RANK_NAMES[c & 7]} of {SUIT_NAMES[c >> 3]}"


def display_key(c: Card) -> int:
    """Sort key for showing a hand: by suit (S H C D), high cards first."""
    return (c >> 3) * 8 + (7 - (c & 7))


def _byte_cards(s: Suit, b: int) -> tuple[Card, ...]:
    return tuple(s * 8 + r for r in range(7, -1, -1) if b >> r & 1)


#: For each suit and each byte of that suit, its cards high first.
SUIT_BYTE_CARDS: Final = tuple(tuple(_byte_cards(s, b) for b in range(256)) for s in SUITS)


def cards_of(mask: Mask) -> list[Card]:
    """The cards of a mask in display order (by suit, high first)."""
    t0, t1, t2, t3 = SUIT_BYTE_CARDS
    return [*t0[mask & 0xFF], *t1[mask >> 8 & 0xFF], *t2[mask >> 16 & 0xFF], *t3[mask >> 24 & 0xFF]]


def mask_of(cards: Iterable[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read a list of cards from ``"AS KS 10H"`` or ``["AS", "KS"]``."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in items]


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    f = card_symbol if symbols else card_name
    return " ".join(f(c) for c in cards)


class CardSet:
    """A friendly, immutable face for a mask of cards.

    >>> hand = CardSet.parse("AH KH 7C")
    >>> parse_card("KH") in hand, len(hand)
    (True, 3)
    >>> str(hand | CardSet.parse("10S"))
    '10S AH KH 7C'
    """

    __slots__ = ("mask",)
    mask: Mask

    def __init__(self, cards: Mask | Iterable[Card] = 0) -> None:
        m = cards if isinstance(cards, int) else mask_of(cards)
        if m < 0 or m > FULL_PACK:
            raise CardError(f"not a mask of the 32-card pack: {m:#x}")
        object.__setattr__(self, "mask", m)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        cards = parse_cards(text)
        m = mask_of(cards)
        if m.bit_count() != len(cards):
            raise CardError("a card is named twice")
        return cls(m)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < 32 and bool(self.mask >> c & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def suit(self, s: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[s])

    def names(self) -> list[str]:
        return [card_name(c) for c in self]
