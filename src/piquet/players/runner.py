"""Running a partie between two players, whoever they are: the loop, free of any interface.

``PartieRunner`` drives the partie's state machine (``piquet.core.state.PartieState``): chance cuts
for deal (Law 4), the winner is asked whether he deals and the first dealer how he deals (Law 9)
-- at Piquet au cent the lower cut deals, by twos, and nobody is asked (p. 16) --, chance deals
each hand, the player to move is asked for his action from his observation only, and a
``GameListener`` is told what happened (a terminal shows it, a record is saved).

Chance comes from the seed alone: the cut from ``cut_rng(seed)`` and deal
``i``'s shuffle from ``deal_rng(seed, i)``, so a seed deals the same cards
again, and a partie resumed from its record goes on with the deals it would
have had.

>>> from piquet.players.base import SimplePlayer
>>> partie = PartieRunner({"A": SimplePlayer(), "B": SimplePlayer()}, seed=7).run()
>>> partie.is_finished, len(partie.deals)
(True, 6)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial

from piquet.core.actions import Action
from piquet.core.cards import Card
from piquet.core.deal import Deal, IllegalAction
from piquet.core.observation import Observation, PartieContext, observe
from piquet.core.partie import Partie
from piquet.core.rules import RUBICON, Rules
from piquet.core.state import CHANCE, ChooseDeal, DealBy, PartieState, SeedChance, Stage, cut_rng, deal_rng
from piquet.players.base import Correctable, Player


def new_seed() -> int:
    """A fresh seed, for a partie started without one."""
    return random.SystemRandom().randrange(1 << 31)


class GameListener:
    """What a runner tells as the partie goes; every method does nothing unless overridden."""

    def cut(self, cut_a: Card, cut_b: Card, winner: str) -> None:
        """The cards cut by A and B, and who cut the higher (who has the choice of deal, Law 4; at Piquet
        au cent the other deals, p. 16)."""

    def dealer_chosen(self, partie: Partie) -> None:
        """The first dealer and the mode of dealing are settled (``partie.first_dealer``, ``deal_by``)."""

    def deal_started(self, partie: Partie) -> None:
        """A deal is dealt, or a partie is resumed in the middle of one (its events so far are public)."""

    def action_applied(self, partie: Partie, seat: str, action: Action) -> None:
        """``seat`` did ``action``: called after every action (save the record here)."""

    def deal_finished(self, partie: Partie) -> None:
        """The twelfth trick and the cards are scored."""

    def partie_finished(self, partie: Partie) -> None:
        """The partie is over: ``partie.settlement()`` says how it ends."""


def play_action(player: Player, observation: Callable[[], Observation], deal: Deal) -> Action:
    """Ask ``player`` until the deal accepts his action; a person is told why one was refused."""
    while True:
        action = player.choose(observation())
        try:
            deal.apply(action)
        except IllegalAction as e:
            if isinstance(player, Correctable):
                player.rejected(e)
                continue
            raise
        return action


def choice_of(player: Player, state: PartieState) -> ChooseDeal | DealBy:
    """What a player answers to the choice the state asks of him: whether he deals (Law 4), or how (Law 9)."""
    if state.stage is Stage.CHOICE:
        return ChooseDeal(player.choose_deal(True))
    return DealBy(player.deal_by())


class PartieRunner:
    """Plays a partie between ``players["A"]`` and ``players["B"]``; resumes one given ``partie``."""

    def __init__(self, players: Mapping[str, Player], seed: int, rules: Rules = RUBICON,
                 partie: Partie | None = None, listener: GameListener | None = None) -> None:
        self.players = dict(players)
        self.seed = seed
        self.rules = rules if partie is None else partie.rules
        self.state = (PartieState(self.rules, SeedChance(seed)) if partie is None
                      else PartieState.resume(partie, SeedChance(seed)))
        self.listener = listener or GameListener()

    @property
    def partie(self) -> Partie | None:
        """The partie, once the dealer and his mode are known."""
        return self.state.partie

    def begin(self) -> Partie:
        """The cut, the choice of deal and the mode of dealing (Laws 4, 9): the players are asked only
        what the rules leave to them (at Piquet au cent nothing: the lower cut deals, by twos, p. 16)."""
        state = self.state
        while state.partie is None:
            if state.to_act == CHANCE:
                state.run_chance()
                cut = state.cut
                assert cut is not None
                self.listener.cut(*cut)
                continue
            seat = state.to_act
            assert seat is not None
            state.apply(choice_of(self.players[seat], state))
        self.listener.dealer_chosen(state.partie)
        return state.partie

    def run(self) -> Partie:
        """Play to the end of the partie (or until a player raises, as a person quitting does)."""
        state = self.state
        partie = state.partie or self.begin()
        listener = self.listener
        if partie.current is not None:
            listener.deal_started(partie)
        while not state.is_over:
            if state.to_act == CHANCE:
                state.run_chance()
                listener.deal_started(partie)
            deal = partie.current
            assert deal is not None
            index = len(partie.deals) - 1
            while not deal.is_over:
                seat = partie.seat(index, deal.to_move or 0)
                action = play_action(self.players[seat], partial(partie.observation, seat), deal)
                listener.action_applied(partie, seat, action)
            listener.deal_finished(partie)
        listener.partie_finished(partie)
        return partie


def play_deal(deal: Deal, elder: Player, younger: Player,
              parties: tuple[PartieContext | None, PartieContext | None] = (None, None)) -> Deal:
    """Play one deal to its end between two players, each seeing only his observation (and, if given, his place
    in a partie: ``parties`` by role)."""
    players = (elder, younger)
    while not deal.is_over:
        role = deal.to_move or 0
        play_action(players[role], partial(observe, deal, role, parties[role]), deal)
    return deal


__all__ = ["GameListener", "PartieRunner", "choice_of", "cut_rng", "deal_rng", "new_seed", "play_deal"]
