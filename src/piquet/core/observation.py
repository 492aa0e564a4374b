"""What one player may know of a deal, and nothing more.

An observation holds the player's own cards (as dealt, taken in, discarded,
in hand), the cards left in the stock that he has seen (Laws 33, 36), and the
public log: counts of cards exchanged, every call and reply, the cards shown
because they were scored as good or called as equal (Law 55) or as a carte
blanche (Law 19), the cards played, and the scores.  It is built from the
deal by copying exactly those things; computer players read only this.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from piquet.core.actions import Action, DeclareSequences, DeclareSets
from piquet.core.cards import Card, Mask, card_name, cards_of
from piquet.core.deal import Deal, Phase, barred, implied_bar, legal_count, legal_iter, legal_sample
from piquet.core.events import (
    CATEGORIES,
    ELDER,
    ROLES,
    SCORE_KINDS,
    SEQUENCES,
    SETS,
    YOUNGER,
    CarteBlancheShown,
    Event,
    Exchange,
    OddExchange,
    Show,
    revealed,
)
from piquet.core.events import played as played_in
from piquet.core.rules import RUBICON, Rules


@dataclass(frozen=True)
class PartieContext:
    """Where this deal stands in the partie (public)."""

    seat: str  # "A" or "B"
    dealer: str
    deal_number: int  # counted from 1
    deals_in_partie: int  # at a game of so many up: as many as are known (those played, and this one)
    rules: str  # the rules' spec: name and agreements (``piquet.rules.rules_named`` reads it)
    scores: dict[str, int] = field(default_factory=dict)  # partie scores before this deal (au cent: the game's)
    multiplier: int = 1  # how this deal counts in the partie (four-deal partie: 2)
    games: dict[str, int] = field(default_factory=dict)  # au cent: games won before this deal, a double as two
    game_number: int = 0  # au cent: the game this deal belongs to, from 1


def lawful(action: Action, bar: tuple[int, int]) -> Action:
    """A declaration meant, or nothing in its category where the cards the elder has shown bar it (``bar``,
    ``implied_bar``: the younger may not reckon what they make as much, Law 56, Case IV)."""
    if isinstance(action, DeclareSequences) and barred(SEQUENCES, action.runs, bar):
        return DeclareSequences()
    if isinstance(action, DeclareSets) and barred(SETS, action.sets, bar):
        return DeclareSets()
    return action


@dataclass(frozen=True)
class Observation:
    role: int
    phase: Phase
    to_move: int | None
    dealt: Mask
    hand: Mask
    discard: Mask
    taken: Mask
    seen_left: Mask
    stock_left: int  # cards still untaken in the stock
    max_discard: int  # when discarding: how many may be put out
    lead: int  # the card led to the current trick, or -1
    trick: int
    tricks_won: tuple[int, int]
    scores: tuple[tuple[int, ...], tuple[int, ...]]
    events: tuple[Event, ...]
    partie: PartieContext | None = None
    min_discard: int = 1  # when discarding: how few may be put out (au cent: the younger none, p. 17)
    rules: Rules = RUBICON

    # ------------------------------------------------------------ derived knowledge

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.role

    @property
    def bar(self) -> tuple[int, int]:
        """In the younger's reckoning: what the elder's cards shown make, which he must beat (Case IV)."""
        return implied_bar(self.events, self.phase, self.rules)

    def lawful(self, action: Action) -> Action:
        """A declaration the player means to make, or nothing where the cards shown bar it (Case IV)."""
        return lawful(action, self.bar)

    def legal_actions(self) -> Iterator[Action]:
        if not self.my_turn:
            return iter(())
        return legal_iter(self.phase, self.hand, self.lead, self.max_discard, self.min_discard, self.bar)

    def legal_count(self) -> int:
        if not self.my_turn:
            return 0
        return legal_count(self.phase, self.hand, self.lead, self.max_discard, self.min_discard, self.bar)

    def sample(self, rng: random.Random) -> Action:
        return legal_sample(self.phase, self.hand, self.lead, self.max_discard, rng, self.min_discard, self.bar)

    def played(self, role: int | None = None) -> Mask:
        """Cards played so far (by one role, or by both)."""
        return played_in(self.events, role)

    def shown(self, role: int) -> Mask:
        """Cards the adversary (or he) showed by calling or by a carte blanche."""
        m = 0
        for e in self.events:
            if e.role == role and type(e) in (Show, CarteBlancheShown):
                m |= e.revealed
        return m

    def adversary_known(self) -> Mask:
        """Cards known to be in the adversary's hand now (shown and not yet played)."""
        other = 1 - self.role
        known = 0
        for e in self.events:
            if e.role == other and type(e) is Show:
                known |= e.cards
        return known & ~self.played()

    def exchanged(self, role: int) -> int | None:
        for e in self.events:
            if isinstance(e, Exchange | OddExchange) and e.role == role:
                return e.taken
        return None

    def visible_cards(self) -> Mask:
        """Every card this observation names: the cards its player is entitled to see."""
        m = self.dealt | self.hand | self.discard | self.taken | self.seen_left
        if self.lead >= 0:
            m |= 1 << self.lead
        return m | revealed(self.events)

    def to_json(self, events: bool = True) -> dict[str, Any]:
        """A plain, JSON-ready form with cards by name: what an interface sends its player (``events``: with
        the events' JSON; False, ``[]``, for a caller that has them already)."""

        def names(mask: Mask) -> list[str]:
            return [card_name(c) for c in cards_of(mask)]

        return {
            "role": ROLES[self.role],
            "phase": self.phase.name.lower(),
            "to_move": None if self.to_move is None else ROLES[self.to_move],
            "dealt": names(self.dealt),
            "hand": names(self.hand),
            "discard": names(self.discard),
            "taken": names(self.taken),
            "seen_left": names(self.seen_left),
            "stock_left": self.stock_left,
            "max_discard": self.max_discard,
            "min_discard": self.min_discard,
            "lead": None if self.lead < 0 else card_name(self.lead),
            "trick": self.trick,
            "tricks_won": {ROLES[r]: self.tricks_won[r] for r in (ELDER, YOUNGER)},
            "scores": {ROLES[r]: dict(zip(SCORE_KINDS, self.scores[r], strict=True)) for r in (ELDER, YOUNGER)},
            "events": [e.to_json() for e in self.events] if events else [],
            "partie": None if self.partie is None else {
                "seat": self.partie.seat, "dealer": self.partie.dealer,
                "deal_number": self.partie.deal_number, "deals": self.partie.deals_in_partie,
                "rules": self.partie.rules, "scores": dict(self.partie.scores),
                "multiplier": self.partie.multiplier, "games": dict(self.partie.games),
                "game_number": self.partie.game_number,
            },
        }


def observe(deal: Deal, role: int, partie: PartieContext | None = None) -> Observation:
    """The observation of ``role`` (``ELDER`` or ``YOUNGER``): exactly what the laws let him know."""
    seen = 0
    if role == ELDER and deal.elder_looked:
        for c in deal.left_by_elder():
            seen |= 1 << c
    if deal.younger_looked:
        for c in deal.left_by_younger():
            seen |= 1 << c
    taken = 0
    for c in deal.taken(role):
        taken |= 1 << c
    stock_left = len(deal.stock)
    if deal.younger_takes >= 0:
        stock_left -= deal.elder_takes + deal.younger_takes
    elif deal.elder_takes >= 0:
        stock_left -= deal.elder_takes
    to_move = deal.to_move
    return Observation(
        role=role,
        phase=deal.phase,
        to_move=to_move,
        dealt=deal.dealt[role],
        hand=deal.hands[role],
        discard=deal.discards[role],
        taken=taken,
        seen_left=seen,
        stock_left=stock_left,
        max_discard=deal.max_discard(role) if to_move == role else 0,
        lead=deal.lead,
        trick=deal.trick,
        tricks_won=(deal.tricks_won[0], deal.tricks_won[1]),
        scores=(tuple(deal.scores[0]), tuple(deal.scores[1])),
        events=tuple(deal.events),
        partie=partie,
        min_discard=deal.min_discard(role) if to_move == role else 0,
        rules=deal.rules,
    )


def first_card(mask: Mask) -> Card:
    return (mask & -mask).bit_length() - 1


__all__ = ["Observation", "PartieContext", "observe", "CATEGORIES", "lawful"]
