"""Every level: legal choices, decided from the observation alone, the same again for a seed."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from piquet.core.actions import Action
from piquet.core.deal import Deal
from piquet.core.observation import Observation, observe
from piquet.players.base import Player
from piquet.players.levels import LEVEL_NAMES, LEVELS, level_named
from repeatable import repeatable_player


def _decide_alone(player: Player, frozen: bytes) -> Action:
    """Ask ``player`` with nothing else in reach: an observation rebuilt from bytes, no deal on the stack."""
    obs: Observation = pickle.loads(frozen)
    return player.choose(obs)


@pytest.mark.parametrize("level", LEVEL_NAMES)
@pytest.mark.slow
def test_a_level_decides_from_its_observation_alone(level: str) -> None:
    """At every decision a copy of the player, given only a copy of the observation, chooses the same.

    The copy is asked from a frame where no deal exists, with an observation
    unpickled afresh: a player that looked past its observation (at the deal,
    the other hand, the stock) could not choose the same every time.
    """
    deals = 2 if level.startswith("search") else 6
    for i in range(deals):
        deal = Deal.shuffled(random.Random(1000 + i))
        players = (repeatable_player(level, i), repeatable_player(level, 100 + i))
        while not deal.is_over:
            role = deal.to_move
            assert role is not None
            obs = observe(deal, role)
            twin = copy.deepcopy(players[role])
            action = players[role].choose(obs)
            assert action in set(obs.legal_actions()), (level, obs.phase, action)
            assert _decide_alone(twin, pickle.dumps(obs)) == action
            deal.apply(action)


def test_levels_by_name_and_number() -> None:
    assert [lv.name for lv in LEVELS] == list(LEVEL_NAMES)
    for i, name in enumerate(LEVEL_NAMES):
        assert level_named(str(i)).name == name
        assert level_named(name.upper()).name == name
    with pytest.raises(ValueError, match="known: 0 random, 1 simple"):
        level_named("9")
