"""The OpenSpiel game ``python_piquet`` (piquet.rl.openspiel, the ``rl`` extra) and IS-MCTS as an arena level."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import piquet.rl.openspiel as ps  # noqa: E402  (registers python_piquet and openspiel-ismcts)
from piquet.core.cards import card_name, cards_of  # noqa: E402
from piquet.core.deal import Deal  # noqa: E402
from piquet.core.observation import observe  # noqa: E402
from piquet.players.levels import LEVELS, Level, level_named, register_level  # noqa: E402
from piquet.rl.encoding import OBS_SIZE  # noqa: E402


def play_random(game, rng: np.random.Generator, until: int | None = None):  # type: ignore[no-untyped-def]
    """A state played from the first chance node with random outcomes and actions (to the end, or ``until``
    player actions)."""
    state = game.new_initial_state()
    chance = decisions = 0
    while not state.is_terminal() and (until is None or decisions < until):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(int(rng.choice(outcomes)))
            chance += 1
        else:
            player = state.current_player()
            assert player in (0, 1)
            legal = state.legal_actions()
            assert legal and legal == state.legal_actions(player)
            assert len(state.information_state_tensor(player)) == OBS_SIZE
            state.apply_action(int(rng.choice(legal)))
            decisions += 1
    return state, chance, decisions


def test_load_game_plays_whole_games_from_chance_to_terminal() -> None:
    game = pyspiel.load_game("python_piquet")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    rng = np.random.default_rng(0)
    differences = set()
    for _ in range(15):
        state, chance, decisions = play_random(game, rng)
        assert state.is_terminal() and chance == 32 and 0 < decisions <= game.max_game_length()
        r = state.returns()
        assert r[0] == -r[1] and abs(r[0]) <= game.max_utility()
        deal = state.deal
        assert r[0] == deal.total(0) - deal.total(1) and deal.is_over
        differences.add(r[0])
    assert len(differences) > 3


def test_openspiel_random_simulation_test() -> None:
    pyspiel.random_sim_test(pyspiel.load_game("python_piquet"), num_sims=2, serialize=False, verbose=False)


def test_information_states_hold_only_what_the_player_may_see() -> None:
    game = pyspiel.load_game("python_piquet")
    rng = np.random.default_rng(1)
    for until in (1, 5, 20, 40):
        state, _, _ = play_random(game, rng, until)
        if state.is_terminal():
            continue
        deal = state.deal
        for player in (0, 1):
            text = state.information_state_string(player)
            assert text.startswith(f"p{player} ")
            obs = observe(deal, player)
            other = observe(deal, 1 - player)
            hidden = other.hand & ~obs.visible_cards()
            assert f"dealt {deal.dealt[1 - player]:x} " not in text
            for c in cards_of(hidden):
                assert f"{card_name(c)}" not in text.split(" log ", 1)[1]
        assert state.information_state_string(0) != state.information_state_string(1)


def test_resampled_states_share_the_information_state() -> None:
    game = pyspiel.load_game("python_piquet")
    rng = np.random.default_rng(2)
    different = 0
    for until in (0, 3, 8, 15, 30, 45):
        state, _, _ = play_random(game, rng, until)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        for _ in range(3):
            again = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert again.information_state_string(player) == state.information_state_string(player)
            assert again.legal_actions() == state.legal_actions()
            different += again.deal.dealt[1 - player] != state.deal.dealt[1 - player]
        copy = state.clone()
        assert copy.information_state_string(player) == state.information_state_string(player)
        assert copy.deal.history == state.deal.history and copy.deal is not state.deal
    assert different > 0  # the adversary's cards are drawn again, not copied


def test_pack_order_deals_the_deal() -> None:
    deal = Deal.shuffled(random.Random(4))
    again = Deal.from_pack(ps.pack_order(deal))
    assert again.dealt == deal.dealt and again.stock == deal.stock


def test_ismcts_is_a_level_and_chooses_lawful_actions() -> None:
    assert level_named("openspiel-ismcts") is ps.LEVEL
    assert "openspiel-ismcts" not in [lv.name for lv in LEVELS]
    with pytest.raises(ValueError, match="already"):
        register_level(Level("search", ps.ismcts_player, ""))
    with pytest.raises(ValueError, match="unknown level"):
        level_named("alphazero")
    player = ps.ISMCTSPlayer(seed=3, simulations=8)
    rng = random.Random(5)
    deal = Deal.shuffled(rng)
    choices = 0
    while not deal.is_over and choices < 12:
        obs = observe(deal, deal.to_move)
        action = player.choose(obs) if choices % 3 == 0 else obs.sample(rng)
        assert action in deal.legal_actions()
        deal.apply(action)
        choices += 1


@pytest.mark.slow
def test_the_arena_plays_openspiel_ismcts() -> None:
    from piquet.study.arena import run_arena

    report = run_arena("openspiel-ismcts", "random", parties=2, seed=3, workers=1)
    assert report.pairs == 1 and len(report.results) == 2
    assert all(r.deals >= 6 and r.decisions[0] > 50 for r in report.results)
    assert report.results[0].points != 0 or report.results[1].points != 0
