"""The search player: legal, deterministic for a seed, reading only its observation, scoring as the engine does."""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import Action, Discard
from piquet.core.cards import CardSet
from piquet.core.deal import Deal, Phase, full_declarations
from piquet.core.events import ELDER, S_CARTE_BLANCHE, S_POINT, S_REPIQUE, S_SEQUENCES, S_SETS, YOUNGER
from piquet.core.observation import Observation, PartieContext, observe
from piquet.players.base import SimplePlayer
from piquet.players.runner import play_deal
from piquet.players.search import (
    FAST,
    SearchPlayer,
    Strength,
    discard_candidates,
    greedy_discard,
    hand_scores_and_play,
    pique_need,
    settlement_value,
    simulate_exchange,
)
from piquet.players.solver import value
from piquet.players.worlds import World

_CATEGORY = {Phase.ELDER_POINT: 0, Phase.YOUNGER_POINT: 0, Phase.ELDER_SEQUENCES: 1, Phase.YOUNGER_SEQUENCES: 1,
             Phase.ELDER_SETS: 2, Phase.YOUNGER_SETS: 2}


def mask(text: str) -> int:
    return CardSet.parse(text).mask


class Recorder:
    """Wraps a player: checks every choice is legal and keeps them, to compare runs."""

    def __init__(self, player: SearchPlayer) -> None:
        self.player = player
        self.actions: list[Action] = []

    def choose(self, obs: Observation) -> Action:
        action = self.player.choose(obs)
        assert action in set(obs.legal_actions()), (obs.phase, action)
        self.actions.append(action)
        return action

    def choose_deal(self, won_cut: bool) -> bool:
        return True

    def deal_by(self) -> int:
        return 2


def _play(seed: int, elder: bool, strength: Strength = FAST) -> tuple[Deal, Recorder]:
    deal = Deal.shuffled(random.Random(seed))
    me = Recorder(SearchPlayer(seed, strength))
    if elder:
        play_deal(deal, me, SimplePlayer())
    else:
        play_deal(deal, SimplePlayer(), me)
    return deal, me


@pytest.mark.parametrize("seed", range(6))
def test_plays_legally_in_both_seats_and_again_the_same_for_a_seed(seed: int) -> None:
    deal, me = _play(seed, elder=seed % 2 == 0)
    assert deal.is_over and len(me.actions) >= 13
    _, again = _play(seed, elder=seed % 2 == 0)
    assert again.actions == me.actions


def _after_calls(seed: int) -> Deal:
    """A deal after both exchanges and full declarations, at the elder's first lead."""
    deal = Deal.shuffled(random.Random(seed))
    deal.apply(Discard(greedy_discard(deal.hands[ELDER], 5, True)))
    deal.apply(Discard(greedy_discard(deal.hands[YOUNGER], 3, False)))
    while deal.phase != Phase.PLAY:
        role = deal.to_move
        assert role is not None
        deal.apply(full_declarations(deal.hands[role])[_CATEGORY[deal.phase]])
    return deal


@pytest.mark.parametrize("seed", range(30))
def test_hand_scores_are_the_engines(seed: int) -> None:
    deal = _after_calls(seed)
    mark = len(deal.history)
    elder, younger, pos = hand_scores_and_play(deal)
    assert len(deal.history) == mark and deal.phase == Phase.PLAY  # the deal is left as it was
    assert pos.hands == (deal.hands[ELDER], deal.hands[YOUNGER]) and pos.leader == ELDER and pos.lead == -1
    play_deal(deal, SimplePlayer(), SimplePlayer())
    hand_kinds = (S_CARTE_BLANCHE, S_POINT, S_SEQUENCES, S_SETS, S_REPIQUE)
    assert elder == sum(deal.scores[ELDER][k] for k in hand_kinds)
    assert younger == sum(deal.scores[YOUNGER][k] for k in hand_kinds)
    assert pos.pique_need == (30 - elder if younger == 0 and elder < 30 else 0)


def test_simulating_the_true_world_scores_what_the_engine_scores() -> None:
    for seed in range(10):
        deal = Deal.shuffled(random.Random(seed))
        world = World(deal.dealt, deal.stock, (0, 0))
        out = greedy_discard(deal.hands[ELDER], 5, True)
        net = simulate_exchange(world, ELDER, out)
        # The same deal through the engine: the younger's quick discard, full declarations, the play solved.
        deal.apply(Discard(out))
        deal.apply(Discard(greedy_discard(deal.hands[YOUNGER], 3, False)))
        while deal.phase != Phase.PLAY:
            role = deal.to_move
            assert role is not None
            deal.apply(full_declarations(deal.hands[role])[_CATEGORY[deal.phase]])
        elder, younger, pos = hand_scores_and_play(deal)
        assert net == elder - younger + value(pos)


def test_discard_candidates() -> None:
    hand = mask("AS KS QS JS 10S AH KH 7H 8C 7C 8D 7D")
    elder = discard_candidates(hand, 5, True, 3)
    assert len(elder) == 9 and {m.bit_count() for m in elder} == {5, 4, 3}
    assert all(m & ~hand == 0 for m in elder)
    assert mask("8C 7C 8D 7D") & elder[0]  # the low cards of short suits go first
    assert not elder[0] & mask("AS KS QS JS 10S")  # never the quint major
    younger = discard_candidates(hand, 3, False, 2)
    assert {m.bit_count() for m in younger} == {3, 2}


def test_settlement_value() -> None:
    assert settlement_value(150, 110, "rubicon") == 150 - 110 + 100  # Law 72
    assert settlement_value(120, 90, "rubicon") == 120 + 90 + 100  # Law 73: rubiconed
    assert settlement_value(90, 120, "rubicon") == -(120 + 90 + 100)
    assert settlement_value(100, 100, "rubicon") == 0


def test_pique_need_from_the_scores() -> None:
    deal = _after_calls(3)
    obs = observe(deal, ELDER)
    need = pique_need(obs, deal.hands[YOUNGER])
    elder, younger, pos = hand_scores_and_play(deal)
    assert need == pos.pique_need


def test_the_last_deal_is_played_to_the_settlement() -> None:
    """Far ahead in the last deal, the search player plays on; it still chooses a legal card."""
    deal = _after_calls(5)
    ctx = PartieContext(seat="A", dealer="B", deal_number=6, deals_in_partie=6, rules="rubicon",
                        scores={"A": 95, "B": 60})
    obs = observe(deal, ELDER, ctx)
    card = SearchPlayer(1, FAST).choose(obs)
    assert card in set(obs.legal_actions())
