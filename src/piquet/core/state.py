"""One partie as a state machine, chance included: the cut, the choices, the deals, the end (Laws 4, 9, 16, 71-73).

A ``PartieState`` answers who is to act (``to_act``: a seat, ``CHANCE`` or None
when the partie is over), what he may do (``legal_actions``), why not
(``verify``) and does it (``apply``), over the whole partie:

1. the cut (Law 4), a chance action: cards of equal rank cut again;
2. the winner's choice of deal (Law 4) -- at Piquet au cent the lower cut
   deals and nobody is asked (p. 16);
3. the dealer's choice of dealing by twos or by threes, for the partie
   (Law 9) -- at Piquet au cent by twos, nobody asked (p. 16);
4. each deal: chance shuffles the pack, then the players act in the deal in
   progress (``Deal``), the players dealing alternately (Law 16);
5. the end, when the rules say so, and the settlement (``settlement``).

Chance is the seed's (``SeedChance``): the cut from ``cut_rng(seed)``, deal
``i``'s shuffle from ``deal_rng(seed, i)``, so a seed deals the same cards
again.  Whatever drives the state (a terminal, the web table, a chouette)
applies ``chance_action()`` when chance is to act.

>>> state = PartieState(RUBICON, SeedChance(7))
>>> state.to_act, state.apply(state.chance_action())
('chance', None)
>>> state.cuts, state.to_act
([Cut(A 8S, B 9H)], 'B')
>>> state.legal_actions()
(ChooseDeal(deal), ChooseDeal(let the other deal))
>>> state.apply(ChooseDeal(True)); state.apply(DealBy(3)); state.apply(state.chance_action())
>>> state.partie.first_dealer, state.partie.deal_by, state.to_act
('B', 3, 'A')
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from piquet.core.actions import Action
from piquet.core.cards import Card, card_name, rank_of
from piquet.core.deal import Deal, IllegalAction
from piquet.core.observation import Observation
from piquet.core.partie import Partie, first_dealer_after_cut, other_seat
from piquet.core.rules import RUBICON, SEATS, Rules, Settlement

#: Who acts when the cards decide: the cut and the shuffle.
CHANCE = "chance"


class PartieError(IllegalAction):
    """An action the laws do not allow at this point of the partie; the message says why and cites the law."""


# ---------------------------------------------------------------- the actions


@dataclass(frozen=True, slots=True)
class Cut:
    """Chance: the cards cut by A and by B (Law 4: the ace highest; equal ranks cut again)."""

    a: Card
    b: Card

    @property
    def winner(self) -> str | None:
        """Who cut the higher card, or None when the ranks are equal."""
        ra, rb = rank_of(self.a), rank_of(self.b)
        return None if ra == rb else "A" if ra > rb else "B"

    def __str__(self) -> str:
        return f"Cut(A {card_name(self.a)}, B {card_name(self.b)})"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class ChooseDeal:
    """The winner of the cut deals first, or lets the other deal (Law 4)."""

    deal: bool

    def __str__(self) -> str:
        return "ChooseDeal(deal)" if self.deal else "ChooseDeal(let the other deal)"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class DealBy:
    """The first dealer deals by two or by three cards at a time, for the whole partie (Law 9)."""

    by: int

    def __str__(self) -> str:
        return f"DealBy({self.by})"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the pack as shuffled for the next deal, top card first; dealt by the partie's mode (Law 9)."""

    order: tuple[Card, ...]

    def __str__(self) -> str:
        return f"Shuffle({' '.join(card_name(c) for c in self.order)})"

    __repr__ = __str__


#: What is done in a partie outside its deals; inside a deal, an ``Action`` of ``piquet.core.actions``.
PartieAction = Cut | ChooseDeal | DealBy | Shuffle


# ---------------------------------------------------------------- chance


def cut_rng(seed: int) -> random.Random:
    """The generator of the cut for deal."""
    return random.Random(f"piquet:{seed}:cut")


def deal_rng(seed: int, index: int) -> random.Random:
    """The generator of the shuffle of deal ``index`` (from 0)."""
    return random.Random(f"piquet:{seed}:deal:{index}")


def shuffle_of(rng: random.Random) -> Shuffle:
    """The pack shuffled by ``rng`` (the order ``Partie.deal_shuffled`` deals)."""
    order = list(range(32))
    rng.shuffle(order)
    return Shuffle(tuple(order))


class Chance(Protocol):
    """Where the cards come from: the ``attempt``-th cut (from 0) and the shuffle of deal ``index``."""

    def cut(self, attempt: int) -> Cut: ...

    def shuffle(self, index: int) -> Shuffle: ...


class SeedChance:
    """The seed's chance: cut ``attempt`` is the ``attempt``-th draw of ``cut_rng(seed)``, deal ``index`` is
    shuffled by ``deal_rng(seed, index)`` -- the streams the cut and ``PartieRunner`` always used."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def cut(self, attempt: int) -> Cut:
        rng = cut_rng(self.seed)
        for _ in range(attempt):
            rng.sample(range(32), 2)
        a, b = rng.sample(range(32), 2)
        return Cut(a, b)

    def shuffle(self, index: int) -> Shuffle:
        return shuffle_of(deal_rng(self.seed, index))


# ---------------------------------------------------------------- the state


class Stage(enum.Enum):
    """Where a partie stands."""

    CUT = "cut"  # chance cuts (Law 4)
    CHOICE = "choice"  # the winner of the cut chooses whether to deal (Law 4)
    DEAL_BY = "deal_by"  # the first dealer chooses by twos or threes (Law 9)
    DEALS = "deals"  # the deals: chance shuffles, the players act (Law 16)
    OVER = "over"  # the partie is finished (Law 71; au cent, p. 20)


class PartieState:
    """A partie from the cut to its settlement, under ``rules``, its cards from ``chance``; see the module."""

    def __init__(self, rules: Rules = RUBICON, chance: Chance | None = None) -> None:
        self.rules = rules
        self.chance = chance
        #: Every cut made, the last deciding (Law 4).
        self.cuts: list[Cut] = []
        #: Who has the choice of deal: the higher cut (Law 4), or at chouette the single player (p. 106).
        self.chooser: str | None = None
        self.dealer: str | None = None
        self.partie: Partie | None = None

    @classmethod
    def from_seed(cls, seed: int, rules: Rules = RUBICON) -> PartieState:
        return cls(rules, SeedChance(seed))

    @classmethod
    def after_cut(cls, rules: Rules, chance: Chance | None, chooser: str) -> PartieState:
        """A partie whose choice of deal is ``chooser``'s, the cut made elsewhere (chouette: the single player
        "has choice of deal and cards throughout", p. 106)."""
        state = cls(rules, chance)
        state._decided(chooser)
        return state

    @classmethod
    def resume(cls, partie: Partie, chance: Chance | None = None) -> PartieState:
        """The state of a partie already begun (replayed from its record): its deals go on."""
        state = cls(partie.rules, chance)
        state.dealer = partie.first_dealer
        state.partie = partie
        return state

    # ------------------------------------------------------------ where it stands

    @property
    def stage(self) -> Stage:
        if self.partie is not None:
            return Stage.OVER if self.partie.is_finished else Stage.DEALS
        if self.dealer is not None:
            return Stage.DEAL_BY
        return Stage.CUT if self.chooser is None else Stage.CHOICE

    @property
    def cut(self) -> tuple[Card, Card, str] | None:
        """The deciding cut: the cards of A and B and who cut the higher (Law 4), once made."""
        if not self.cuts or self.cuts[-1].winner is None:
            return None
        last = self.cuts[-1]
        winner = last.winner
        assert winner is not None
        return last.a, last.b, winner

    @property
    def deal_by(self) -> int | None:
        return None if self.partie is None else self.partie.deal_by

    @property
    def current(self) -> Deal | None:
        """The deal in progress, if any."""
        return None if self.partie is None else self.partie.current

    @property
    def to_act(self) -> str | None:
        """The seat to act, ``CHANCE`` (the cut, the next shuffle), or None when the partie is over."""
        stage = self.stage
        if stage is Stage.CUT:
            return CHANCE
        if stage is Stage.CHOICE:
            return self.chooser
        if stage is Stage.DEAL_BY:
            return self.dealer
        if stage is Stage.OVER:
            return None
        partie = self.partie
        assert partie is not None
        deal = partie.current
        if deal is None:
            return CHANCE
        return partie.seat(len(partie.deals) - 1, deal.to_move or 0)

    @property
    def is_over(self) -> bool:
        return self.stage is Stage.OVER

    def chance_action(self) -> Cut | Shuffle:
        """What chance does now, from ``chance``: the next cut, or the shuffle of the next deal."""
        if self.to_act != CHANCE:
            raise PartieError("chance is not to act: the cut is made and no deal is to be dealt now")
        if self.chance is None:
            raise PartieError("this partie has no chance of its own: the cards are given (apply a Cut or Shuffle)")
        if self.partie is None:
            return self.chance.cut(len(self.cuts))
        return self.chance.shuffle(len(self.partie.deals))

    def legal_actions(self) -> Sequence[PartieAction | Action]:
        """What the one to act may do: chance's outcome (from ``chance``), a choice, or the deal's actions."""
        stage = self.stage
        if stage is Stage.OVER:
            return ()
        if self.to_act == CHANCE:
            return (self.chance_action(),) if self.chance is not None else ()
        if stage is Stage.CHOICE:
            return ChooseDeal(True), ChooseDeal(False)
        if stage is Stage.DEAL_BY:
            return tuple(DealBy(by) for by in self.rules.deal_modes)
        deal = self.current
        assert deal is not None
        return tuple(deal.legal_actions())

    # ------------------------------------------------------------ acting

    def verify(self, action: PartieAction | Action) -> None:
        """Raise ``PartieError`` (or the deal's ``IllegalAction``) saying why ``action`` is not allowed now."""
        stage = self.stage
        if stage is Stage.OVER:
            raise PartieError("the partie is over (Law 71)" if not self.rules.partie_of_games
                              else f"the partie is over ({self.rules.title}, p. 20)")
        if isinstance(action, Cut):
            if stage is not Stage.CUT:
                raise PartieError("the cut for deal is made: it holds good (Laws 4, 6)")
            if action.a == action.b or not (0 <= action.a < 32 and 0 <= action.b < 32):
                raise PartieError("each player cuts a card of the pack: two different cards (Law 4)")
            return
        if isinstance(action, ChooseDeal):
            if stage is not Stage.CHOICE:
                if not self.rules.higher_cut_chooses:
                    raise PartieError(f"there is no choice of deal at {self.rules.title}: the lower cut deals (p. 16)")
                raise PartieError("there is no choice of deal to make now: the higher cut chooses, once, "
                                  "after the cut (Law 4)")
            return
        if isinstance(action, DealBy):
            if stage is not Stage.DEAL_BY:
                if len(self.rules.deal_modes) == 1:
                    raise PartieError(f"the deal is by two cards at a time at {self.rules.title} (p. 16)")
                raise PartieError("the first dealer chooses how he deals once the dealer is known, and must not "
                                  "change it during the partie (Law 9)")
            if action.by not in self.rules.deal_modes:
                if len(self.rules.deal_modes) == 1:
                    raise PartieError(f"the deal is by two cards at a time at {self.rules.title} (p. 16)")
                raise PartieError(f"the deal is by two or by three cards at a time, not by {action.by} (Law 9)")
            return
        if isinstance(action, Shuffle):
            if stage is not Stage.DEALS or self.current is not None:
                raise PartieError("no deal is to be dealt now: the deal in progress is played out first (Law 16)"
                                  if stage is Stage.DEALS else
                                  "the cards are dealt once the dealer and his mode are known (Laws 4, 9)")
            if sorted(action.order) != list(range(32)):
                raise PartieError("the pack is of thirty-two cards, each once (Laws 9, 75)")
            return
        if stage is not Stage.DEALS:
            raise PartieError("the cards are not dealt yet: first the cut, the choice of deal and how the "
                              "dealer deals (Laws 4, 9)")
        deal = self.current
        if deal is None:
            raise PartieError("the next deal is not dealt yet (Law 16)")
        deal.verify(action)

    def can(self, action: PartieAction | Action) -> bool:
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: PartieAction | Action) -> None:
        """Carry out ``action`` for the one to act (chance included); ``PartieError`` or the deal's
        ``IllegalAction`` if the laws forbid it, nothing changed."""
        deal = self.current
        if deal is not None and not isinstance(action, Cut | ChooseDeal | DealBy | Shuffle):
            deal.apply(action)  # the deal checks it (the common case, kept fast)
            return
        self.verify(action)
        if isinstance(action, Cut):
            self.cuts.append(action)
            if action.winner is not None:
                self._decided(action.winner)
        elif isinstance(action, ChooseDeal):
            assert self.chooser is not None
            self._dealer_known(self.chooser if action.deal else other_seat(self.chooser))
        elif isinstance(action, DealBy):
            assert self.dealer is not None
            self.partie = Partie(self.rules, first_dealer=self.dealer, deal_by=action.by)
        elif isinstance(action, Shuffle):
            assert self.partie is not None
            self.partie.deal_from(action.order)

    def _decided(self, winner: str) -> None:
        """The cut is decided: the winner chooses, or at Piquet au cent the lower cut deals (p. 16)."""
        if winner not in SEATS:
            raise ValueError(f"a seat is A or B, not {winner!r}")
        self.chooser = winner
        if not self.rules.higher_cut_chooses:
            self._dealer_known(first_dealer_after_cut(self.rules, winner))

    def _dealer_known(self, dealer: str) -> None:
        self.dealer = dealer
        if len(self.rules.deal_modes) == 1:  # nobody chooses (au cent: by twos, p. 16)
            self.partie = Partie(self.rules, first_dealer=dealer, deal_by=self.rules.deal_modes[0])

    def run_chance(self) -> list[Cut | Shuffle]:
        """Let chance act while it is to: the cut (again while the ranks are equal) or the next deal's shuffle."""
        done: list[Cut | Shuffle] = []
        while self.to_act == CHANCE:
            action = self.chance_action()
            self.apply(action)
            done.append(action)
        return done

    # ------------------------------------------------------------ what is known

    def observation(self, seat: str) -> Observation:
        """What ``seat`` knows of the deal in progress (or the last); ``PartieError`` before the first deal."""
        if self.partie is None or not self.partie.deals:
            raise PartieError("no deal yet: before it only the cut and the choices are known (Laws 4, 9)")
        return self.partie.observation(seat)

    def settlement(self) -> Settlement:
        """How the partie ends, by the rules (Laws 72-73; au cent, three games out of five, p. 20)."""
        if self.partie is None:
            return self.rules.settlement_of([], False)
        return self.partie.settlement()


def seed_cut(seed: int) -> tuple[Card, Card, str]:
    """The deciding cut of the partie of ``seed`` (Law 4): the cards of A and B and who cut the higher, as
    ``PartieState.from_seed(seed)`` cuts them, equal ranks cutting again (a table rebuilt from its record
    tells the cut by this)."""
    state = PartieState.from_seed(seed)
    state.run_chance()
    cut = state.cut
    assert cut is not None
    return cut


__all__ = [
    "CHANCE", "Chance", "ChooseDeal", "Cut", "DealBy", "PartieAction", "PartieError", "PartieState", "SeedChance",
    "Shuffle", "Stage", "cut_rng", "deal_rng", "seed_cut", "shuffle_of",
]
