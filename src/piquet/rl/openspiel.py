"""Piquet as an OpenSpiel python game, ``python_piquet``, and OpenSpiel's IS-MCTS as an arena level (docs/rl.md).

Importing this module registers the game with ``pyspiel.register_game`` and
the level ``openspiel-ismcts`` with ``piquet.players.levels``.  The game is
one deal of Rubicon Piquet between player 0, the elder, and player 1, the
younger (the dealer).  Chance deals the pack one card at a time, top first
(32 explicit chance nodes, each remaining card alike), and the cards go to the
hands by twos and to the stock as Law 9 says.  The players' actions are the
action numbers of ``piquet.rl.encoding``; the returns at the end are each
player's score less his adversary's.

Information state strings are perfect recall: the player's observation (his
cards as dealt, his discard, what he took in and saw, the public log of calls,
replies and cards played) and the cards he has picked towards a decision.
Tensors are the observation vector of ``piquet.rl.encoding``.  A state can be
resampled from a player's information state (``resample_from_infostate``) by
the engine's own consistent worlds (``piquet.players.worlds``), which is what
IS-MCTS needs.

>>> game = pyspiel.load_game("python_piquet")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel

from piquet.core.actions import Action
from piquet.core.cards import Card, Mask, card_name, cards_of
from piquet.core.deal import Deal, deal_from_pack
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import Observation, observe
from piquet.core.rules import RUBICON
from piquet.players.base import ElectsToDeal
from piquet.players.levels import Level, register_level
from piquet.players.worlds import rebuild, sample_worlds
from piquet.rl.encoding import N_ACTIONS, OBS_SIZE, deal_mask, deal_step, observation_vector, word_name

#: The bounds of one deal's score difference: far beyond any deal (a repique, capot and the rest are under 200).
MAX_UTILITY: Final = 250.0
#: A bound on the players' decisions in a deal: two discards, two looks, nine calls of at most thirteen steps, the
#: twenty-four cards played.
MAX_DECISIONS: Final = 6 + 1 + 9 + 1 + 9 * 13 + 24

_GAME_TYPE: Final = pyspiel.GameType(
    short_name="python_piquet",
    long_name="Python Rubicon Piquet (one deal)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={},
)
_GAME_INFO: Final = pyspiel.GameInfo(
    num_distinct_actions=N_ACTIONS,
    max_chance_outcomes=32,
    num_players=2,
    min_utility=-MAX_UTILITY,
    max_utility=MAX_UTILITY,
    utility_sum=0.0,
    max_game_length=MAX_DECISIONS,
)

#: To whom each position of the pack goes when dealt by twos (Law 9): elder, younger, then the stock.
_DEALT_TO: Final = tuple((i // 2) % 2 if i < 24 else 2 for i in range(32))


def pack_order(deal: Deal) -> list[Card]:
    """A pack that deals ``deal``'s cards by twos (Law 9), top first: the chance outcomes that lead to it."""
    hands = [iter(cards_of(deal.dealt[ELDER])), iter(cards_of(deal.dealt[YOUNGER])), iter(deal.stock)]
    return [next(hands[who]) for who in _DEALT_TO]


def replay(deal: Deal) -> Deal:
    """A copy of ``deal``, made by playing its actions again on its cards (the engine keeps no other copy)."""
    again = Deal(deal.dealt[ELDER], deal.dealt[YOUNGER], deal.stock, deal.rules, deal.game, limits=deal.limits)
    for action in deal.history:
        again.apply(action)
    return again


class PiquetGame(pyspiel.Game):
    """One deal of Rubicon Piquet (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})

    def new_initial_state(self) -> PiquetState:
        return PiquetState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PiquetObserver:
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return PiquetObserver(perfect_recall, params)


class _Held:
    """The engine's objects of a state: OpenSpiel's ``clone`` deep-copies a state's attributes, and the compiled
    engine's classes cannot be copied field by field.  The deal is copied by replaying its history
    (``replay``); the last action made is immutable, and shared."""

    __slots__ = ("deal", "made")

    def __init__(self, deal: Deal | None, made: Action | None = None) -> None:
        self.deal = deal
        self.made = made

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(None if self.deal is None else replay(self.deal), self.made)


class PiquetState(pyspiel.State):
    """A deal being dealt (chance) or played, and the cards picked so far towards the decision in progress."""

    def __init__(self, game: PiquetGame) -> None:
        super().__init__(game)
        self.order: list[Card] = []
        self.held = _Held(None)
        self.selection: Mask = 0

    @property
    def deal(self) -> Deal | None:
        return self.held.deal

    @deal.setter
    def deal(self, deal: Deal | None) -> None:
        self.held.deal = deal

    @property
    def made(self) -> Action | None:
        """The engine's action the last step completed, if it completed one (what an arena player reads)."""
        return self.held.made

    @made.setter
    def made(self, made: Action | None) -> None:
        self.held.made = made

    # ------------------------------------------------------------ the OpenSpiel contract

    def current_player(self) -> int:
        deal = self.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        to_move = deal.to_move
        assert to_move is not None
        return to_move

    def _legal_actions(self, player: int) -> list[int]:
        deal = self.deal
        assert deal is not None and player == deal.to_move
        mask = deal_mask(observe(deal, player), self.selection)
        return [a for a in range(N_ACTIONS) if mask[a]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(32)) - set(self.order))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        deal = self.deal
        if deal is None:
            if action in self.order or not 0 <= action < 32:
                raise ValueError(f"chance deals each card once: {action!r} is not a card left in the pack")
            self.order.append(action)
            if len(self.order) == 32:
                self.deal = Deal(*deal_from_pack(self.order, 2), rules=RUBICON)
            return
        to_move = deal.to_move
        assert to_move is not None
        self.selection, made = deal_step(observe(deal, to_move), self.selection, action)
        self.made = made
        if made is not None:
            deal.apply(made)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{card_name(action)}"
        return word_name(action)

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.is_over

    def returns(self) -> list[float]:
        deal = self.deal
        if deal is None or not deal.is_over:
            return [0.0, 0.0]
        diff = float(deal.total(ELDER) - deal.total(YOUNGER))
        return [diff, -diff]

    def __str__(self) -> str:
        deal = self.deal
        if deal is None:
            return "dealing: " + " ".join(card_name(c) for c in self.order)
        return f"{deal.phase.name.lower()} {deal.totals} history {deal.history}"

    def __deepcopy__(self, memo: dict[int, Any]) -> PiquetState:
        other = PiquetState(self.get_game())
        other.order = list(self.order)
        other.deal = None if self.deal is None else replay(self.deal)
        other.selection = self.selection
        other.made = self.made
        return other

    # ------------------------------------------------------------ what a player knows

    def observation_of(self, player: int) -> Observation | None:
        return None if self.deal is None else observe(self.deal, player)

    def picked(self, player: int) -> Mask:
        """The cards ``player`` has picked towards his decision: his to know alone."""
        return self.selection if self.deal is not None and self.deal.to_move == player else 0

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        return _information(self, player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        if player is None:
            player = self.current_player()
        return list(observation_vector(self.observation_of(player), self.picked(player)))

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.information_state_tensor(player)

    def resample_from_infostate(self, player: int, sampler: Any) -> PiquetState:
        """A state ``player`` cannot tell from this one: the adversary's cards and the stock drawn among those
        consistent with all he has seen (``piquet.players.worlds``); the adversary's picks towards a decision
        in progress, hidden from him, are none."""
        try:
            seed = int(sampler() * (1 << 31))
        except TypeError:
            seed = random.getrandbits(31)
        state = PiquetState(self.get_game())
        obs = self.observation_of(player)
        if obs is None:  # still dealing: any pack that has dealt him the same cards
            state.order = _redeal(self.order, player, random.Random(seed))
            return state
        (world,) = sample_worlds(obs, random.Random(seed), 1)
        state.deal = rebuild(obs, world)
        state.order = pack_order(state.deal)
        state.selection = self.picked(player)
        return state


def _information(state: PiquetState, player: int) -> str:
    """The perfect-recall information state of ``player``: every fact his observation holds, and his picks."""
    obs = state.observation_of(player)
    if obs is None:
        mine = [card_name(c) for i, c in enumerate(state.order) if _DEALT_TO[i] == player]
        return f"p{player} dealt so far: {' '.join(mine)}"
    return (f"p{player} {obs.phase.name.lower()} dealt {obs.dealt:x} discard {obs.discard:x} taken {obs.taken:x} "
            f"seen {obs.seen_left:x} picked {state.picked(player):x} log {obs.events!r}")


def _redeal(order: list[Card], player: int, rng: random.Random) -> list[Card]:
    """A pack order of the same length that has dealt ``player`` the same cards in the same places."""
    mine = {i: c for i, c in enumerate(order) if _DEALT_TO[i] == player}
    rest = [c for c in range(32) if c not in mine.values()]
    rng.shuffle(rest)
    return [mine[i] if i in mine else rest.pop() for i in range(len(order))]


class PiquetObserver:
    """OpenSpiel's python observer: the observation vector as ``tensor`` (and ``dict["observation"]``), the
    information state as the string."""

    def __init__(self, perfect_recall: bool, params: Any) -> None:
        if params:
            raise ValueError(f"python_piquet's observer takes no parameters; given {params}")
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PiquetState, player: int) -> None:
        self.tensor[:] = observation_vector(state.observation_of(player), state.picked(player))

    def string_from(self, state: PiquetState, player: int) -> str:
        return _information(state, player)


pyspiel.register_game(_GAME_TYPE, PiquetGame)


# ---------------------------------------------------------------- IS-MCTS in the arena

#: IS-MCTS's settings as an arena level: simulations per step, its exploration constant (the returns are in
#: points), random rollouts to evaluate a leaf.
SIMULATIONS: Final = 60
UCT_C: Final = 40.0


class ISMCTSPlayer(ElectsToDeal):
    """OpenSpiel's IS-MCTS bot (``open_spiel.python.algorithms.ismcts``) on ``python_piquet``, as a player of the
    house: it reads an observation, searches from the worlds consistent with it, and answers with the engine's
    action made by its steps.  It plays Rubicon Piquet's deals (it elects to deal and deals by twos, as every
    level does)."""

    def __init__(self, seed: int | None = None, simulations: int = SIMULATIONS, uct_c: float = UCT_C) -> None:
        from open_spiel.python.algorithms.ismcts import ISMCTSBot
        from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

        self.game = pyspiel.load_game("python_piquet")
        rs = np.random.RandomState(seed if seed is not None else random.getrandbits(31))
        self.rng = random.Random(seed)
        self.bot = ISMCTSBot(self.game, RandomRolloutEvaluator(1, rs), uct_c, simulations, random_state=rs)

    def choose(self, obs: Observation) -> Action:
        if obs.rules != RUBICON:  # the game is one deal of Rubicon Piquet, its rules exactly
            raise ValueError(f"openspiel-ismcts plays Rubicon Piquet's deals, not {obs.rules.title}")
        legal = list(obs.legal_actions())
        if len(legal) == 1:
            return legal[0]
        state = self.game.new_initial_state()
        (world,) = sample_worlds(obs, self.rng, 1)
        state.deal = rebuild(obs, world)
        state.order = pack_order(state.deal)
        while True:
            state.apply_action(int(self.bot.step(state)))
            if state.made is not None:
                made: Action = state.made
                return made


def ismcts_player(seed: int | None = None) -> ISMCTSPlayer:
    return ISMCTSPlayer(seed)


#: The arena level (``piquet arena search openspiel-ismcts``), registered as this module is imported.
LEVEL: Final = Level("openspiel-ismcts", ismcts_player,
                     f"OpenSpiel's IS-MCTS, {SIMULATIONS} simulations a step with random rollouts (outside baseline)")
register_level(LEVEL)

__all__ = ["ISMCTSPlayer", "LEVEL", "MAX_UTILITY", "PiquetGame", "PiquetObserver", "PiquetState", "ismcts_player",
           "pack_order", "replay"]
