"""What the person types at the terminal's prompts, read with care: cards named once each, a word that is
not a card taken for the command it may be, and a long line never echoed back whole.

>>> [card_name(c) for c in read_cards("qc 9d, 7h")]
['QC', '9D', '7H']
>>> read_cards("QC QC")
Traceback (most recent call last):
...
piquet.cli.answers.AnswerError: QC is named twice: name each card once
>>> read_cards("hello")
Traceback (most recent call last):
...
piquet.cli.answers.AnswerError: unknown command 'hello': type help
>>> read_card("AS AS")
Traceback (most recent call last):
...
piquet.cli.answers.AnswerError: AS is named twice: name one card
>>> shorten("x" * 50)
'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
"""

from __future__ import annotations

from piquet.core.cards import Card, CardError, card_name, parse_card
from piquet.talk.words import number_words

#: The longest answer echoed or quoted whole: a longer one is cut, with an ellipsis.
SHOWN = 40
_RANKS = {"A", "K", "Q", "J", "T", "10", "9", "8", "7"}
_SUITS = set("SHDC♠♥♦♣")


class AnswerError(ValueError):
    """An answer that names no cards the table can take: the message says what is wrong."""


def shorten(text: str, limit: int = SHOWN) -> str:
    """``text`` as it may be shown back: cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _card_like(word: str) -> bool:
    """Whether ``word`` was meant as a card, mistyped: a rank with a wrong suit, or a suit after a short head."""
    w = word.upper()
    if not 2 <= len(w) <= 3:
        return False
    head, tail = w[:-1], w[-1]
    return head in _RANKS or (tail in _SUITS and (len(head) == 1 or any(ch.isdigit() for ch in head)))


def _not_a_card(word: str, first: bool) -> AnswerError:
    if first and word.isalpha() and not _card_like(word):
        return AnswerError(f"unknown command {shorten(word)!r}: type help")
    return AnswerError(f"{shorten(word)!r} is not a card (rank A K Q J 10 9 8 7, then suit S H D C)")


def read_cards(text: str) -> list[Card]:
    """The cards an answer names, in its order, each once (a hand holds each card once, Law 1)."""
    words = text.replace(",", " ").split()
    if not words:
        raise AnswerError("Name the cards, e.g. KS 8C 7C.")
    cards: list[Card] = []
    for i, word in enumerate(words):
        c = _one(word, i == 0)
        if c in cards:
            raise AnswerError(f"{card_name(c)} is named twice: name each card once")
        cards.append(c)
    return cards


def read_card(text: str) -> Card:
    """The one card an answer names (a card played, Law 57)."""
    words = text.replace(",", " ").split()
    if not words:
        raise AnswerError("Name a card, e.g. AH.")
    cards = [_one(w, i == 0) for i, w in enumerate(words)]
    if len(set(cards)) == 1 and len(cards) > 1:
        raise AnswerError(f"{card_name(cards[0])} is named twice: name one card")
    if len(cards) > 1:
        raise AnswerError(f"{number_words(len(cards))} cards named: name one card")
    return cards[0]


def _one(word: str, first: bool) -> Card:
    try:
        return parse_card(word)
    except CardError:
        raise _not_a_card(word, first) from None


__all__ = ["SHOWN", "AnswerError", "read_card", "read_cards", "shorten"]
