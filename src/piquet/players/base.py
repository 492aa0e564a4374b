"""Computer players: they read an observation, never a deal, and answer with an action.

A ``Player`` is asked for its choice whenever it is to move (``choose``), and
at the start of a partie whether to deal (``choose_deal``, Law 4) and, as the
first dealer, whether to deal by twos or by threes (``deal_by``, Law 9).
The levels are listed in ``piquet.players.levels``.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Protocol, runtime_checkable

from piquet.core.actions import PLAYS, Action, Discard, LookAtLeft
from piquet.core.cards import (
    ACE,
    RANK_MASKS,
    SUIT_MASKS,
    SUITS,
    TEN,
    Card,
    Mask,
    cards_of,
)
from piquet.core.combinations import best_point, best_sequences, point_key
from piquet.core.deal import IllegalAction, Phase, full_declarations
from piquet.core.events import voids_shown
from piquet.core.observation import Observation, first_card


@runtime_checkable
class Player(Protocol):
    """Anyone who plays a partie: a computer level or a person at a terminal."""

    def choose(self, obs: Observation) -> Action:
        """The action to take, from what this player may know (``obs.legal_actions()``)."""
        ...

    def choose_deal(self, won_cut: bool) -> bool:
        """Asked of the player who cut the higher card: whether he deals first (Law 4)."""
        ...

    def deal_by(self) -> int:
        """Asked of the first dealer: deal by 2 or by 3 cards at a time, for the partie (Law 9)."""
        ...


@runtime_checkable
class Correctable(Protocol):
    """A player who can be told his action was refused, and then asked again (a person)."""

    def rejected(self, error: IllegalAction) -> None: ...


# ---------------------------------------------------------------- random


class RandomPlayer:
    """Every choice uniformly among the legal ones."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        return obs.sample(self.rng)

    def choose_deal(self, won_cut: bool) -> bool:
        return self.rng.random() < 0.5

    def deal_by(self) -> int:
        return self.rng.choice((2, 3))


# ---------------------------------------------------------------- simple

_DISCARDS = (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD)
_LOOKS = (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK)
#: The declaring phases, with their category: 0 point, 1 sequences, 2 quatorzes and trios.
DECLARING = {
    Phase.ELDER_POINT: 0, Phase.YOUNGER_POINT: 0, Phase.YOUNGER_RECKON_POINT: 0,
    Phase.ELDER_SEQUENCES: 1, Phase.YOUNGER_SEQUENCES: 1, Phase.YOUNGER_RECKON_SEQUENCES: 1,
    Phase.ELDER_SETS: 2, Phase.YOUNGER_SETS: 2, Phase.YOUNGER_RECKON_SETS: 2,
}

#: What a card is worth to keep, by rank (seven .. ace).
_WORTH = (0.0, 0.1, 0.3, 1.0, 1.6, 2.4, 4.0, 7.0)
#: Sequences by length: tierce, quart, quint and more.
_RUN_WORTH = (0.0, 0.0, 0.0, 4.0, 7.0, 18.0, 19.0, 20.0, 21.0)
#: Cards of one rank (ten or higher) by number held: two may become a trio, three are one.
_SET_WORTH = (0.0, 0.0, 0.5, 4.0, 16.0)
#: How much the elder and the younger value keeping long suits rather than many.
_SPREAD = (0.5, 0.25)
#: The expected worth of a card taken in from the stock.
_DRAW_WORTH = 7.0


def _high(mask: Mask) -> Card:
    return mask.bit_length() - 1


def _above(c: Card) -> Mask:
    """The cards of ``c``'s suit higher than ``c``."""
    return SUIT_MASKS[c >> 3] & ~((2 << c) - 1)


def keep_value(kept: Mask, elder: bool) -> float:
    """How good the cards kept after a discard are: point, high cards, sequences, sets, long suits.

    The elder plans an attack and concentrates on few suits; the younger keeps
    guards to his kings and queens (p. 117).
    """
    n, value = point_key(best_point(kept))
    v = 3.0 * n + value / 40.0
    spread = _SPREAD[0 if elder else 1]
    for s in SUITS:
        suit = kept & SUIT_MASKS[s]
        k = suit.bit_count()
        v += spread * k * k
        for c in cards_of(suit):
            w = _WORTH[c & 7]
            # An honour with fewer guards below it than higher cards out against it may be caught.
            missing = (_above(c) & ~suit).bit_count()
            guards = (suit & ((1 << c) - 1)).bit_count()
            if missing > guards:
                w *= 0.5
            v += w
    for run in best_sequences(kept):
        v += _RUN_WORTH[run.bit_count()] + ((run.bit_length() - 1) & 7) / 4.0
    for r in range(TEN, ACE + 1):
        v += _SET_WORTH[(kept & RANK_MASKS[r]).bit_count()] * (1.0 + (r - TEN) / 8.0)
    return v


def choose_discard(hand: Mask, most: int, elder: bool, least: int = 1) -> Mask:
    """The discard of a sensible player: all he may take, unless his best cards would go.

    For each number of cards, the best cards to keep; each card taken in is
    worth about ``_DRAW_WORTH``, so fewer are exchanged only when the last card
    out would be a good one (p. 119: taking fewer is seldom right).  ``least``
    is the fewest the laws allow: none for the younger at Piquet au cent
    (p. 17), who then keeps all when every card is worth keeping.
    """
    cards = cards_of(hand)
    best: tuple[float, Mask] | None = None
    for n in range(most, least - 1, -1):
        value, out = max(
            ((keep_value(hand & ~m, elder), m) for m in (sum(1 << c for c in combo)
                                                       for combo in combinations(cards, n))),
            key=lambda t: (t[0], -t[1]),
        )
        value += _DRAW_WORTH * n
        if best is None or value > best[0]:
            best = (value, out)
    assert best is not None
    return best[1]


def adversary_voids(obs: Observation) -> Mask:
    """The suits (as masks) in which the adversary has shown he holds no card."""
    return voids_shown(obs.events, 1 - obs.role)


class ElectsToDeal:
    """The treatise's choice at the cut, shared by the players that follow it: the winner deals, by twos."""

    def choose_deal(self, won_cut: bool) -> bool:
        """"The player who cuts the higher card should elect to deal" (p. 108)."""
        return True

    def deal_by(self) -> int:
        """By twos, the usual way (Law 9)."""
        return 2


class SimplePlayer(ElectsToDeal):
    """Legal, sensible piquet with no look-ahead.

    It discards to keep its point, aces, kings and sequences; declares all it
    holds; leads its winning cards and its point; follows with the cheapest
    card that wins, else its lowest; when void throws its least useful card.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, obs: Observation) -> Action:
        p = obs.phase
        if p in _DISCARDS:
            return Discard(choose_discard(obs.hand, obs.max_discard, p == Phase.ELDER_DISCARD, obs.min_discard))
        if p in _LOOKS:
            return LookAtLeft(True)
        if p in DECLARING:
            return obs.lawful(full_declarations(obs.hand)[DECLARING[p]])
        if p == Phase.PLAY:
            return PLAYS[self.card_to_play(obs)]
        raise IllegalAction("the deal is over")

    # ------------------------------------------------------------ play

    def card_to_play(self, obs: Observation) -> Card:
        hand = obs.hand
        # Cards the adversary cannot hold: played, in my discard, or seen left in the stock.
        out = obs.played() | obs.discard | obs.seen_left | hand
        voids = adversary_voids(obs)
        if obs.lead >= 0:
            mine = hand & SUIT_MASKS[obs.lead >> 3]
            if mine:
                winners = mine & _above(obs.lead)
                return first_card(winners) if winners else first_card(mine)
            return self._throw(hand, out)
        return self._lead(obs, hand, out, voids)

    @staticmethod
    def _wins(c: Card, out: Mask, voids: Mask) -> bool:
        """Sure to win if led: every higher card is out of the adversary's hand, or he is void."""
        return not _above(c) & ~out or bool(voids & (1 << c))

    def _lead(self, obs: Observation, hand: Mask, out: Mask, voids: Mask) -> Card:
        def length(c: Card) -> int:
            return (hand & SUIT_MASKS[c >> 3]).bit_count()

        cards = cards_of(hand)
        winners = [c for c in cards if self._wins(c, out, voids)]
        if winners:
            # Cash the winners of the longest suit first, highest first.
            return max(winners, key=lambda c: (length(c), c & 7))
        known = obs.adversary_known()

        def suit_score(s: int) -> tuple[int, int]:
            suit = hand & SUIT_MASKS[s]
            # A suit where the adversary is known to hold a card above all of mine is led last.
            beaten = bool(known & SUIT_MASKS[s] & _above(_high(suit)))
            return (0 if beaten else 1, suit.bit_count())

        s = max((s for s in SUITS if hand & SUIT_MASKS[s]), key=suit_score)
        suit = hand & SUIT_MASKS[s]
        top = _high(suit)
        # Lead the top of touching honours to drive out the card above; else the lowest.
        if top & 7 >= TEN and suit >> (top - 1) & 1 and top - 1 >= s * 8:
            return top
        return first_card(suit)

    def _throw(self, hand: Mask, out: Mask) -> Card:
        """When void: the least useful card, a low card of a short suit."""

        def use(c: Card) -> float:
            suit = hand & SUIT_MASKS[c >> 3]
            u = _WORTH[c & 7] + 1.2 * suit.bit_count()
            if not _above(c) & ~out:
                u += 20.0  # a winner
            if c == first_card(suit) and suit.bit_count() == 2 and _high(suit) & 7 >= TEN:
                u += 2.0  # the guard of an honour
            return u

        return min(cards_of(hand), key=lambda c: (use(c), c))


__all__ = [
    "DECLARING", "Correctable", "ElectsToDeal", "Player", "RandomPlayer", "SimplePlayer", "adversary_voids",
    "choose_discard",
    "keep_value",
]
