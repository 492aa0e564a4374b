"""The research environments (piquet.rl, the ``rl`` extra): PettingZoo's and Gymnasium's own checks, the seed test,
the action encoding, and that no observation holds the other seat's hidden cards."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import piquet.rl as rl  # noqa: E402
from piquet.core.cards import card_name, cards_of  # noqa: E402
from piquet.core.deal import Deal  # noqa: E402
from piquet.core.observation import observe  # noqa: E402
from piquet.rl.encoding import (  # noqa: E402
    DONE,
    N_ACTIONS,
    N_CARDS,
    OBS_SIZE,
    PLANES,
    SINK,
    EncodingError,
    deal_mask,
    deal_step,
    encode,
)
from piquet.rl.table import Table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo's api_test warns that a dict observation "probably should be" a Box: it is one, with its mask.
    warnings.filterwarnings("ignore", message="Observation", category=UserWarning)


def random_run(e: rl.aec.PiquetEnv, seed: int, check=None) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Play the env out with random allowed actions, ``check(env)`` before each step; each agent's last reward."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if check:
            check(e)
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


# ---------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("partie", [False, True])
def test_pettingzoo_api_test(partie: bool) -> None:
    api_test(rl.env(partie=partie), num_cycles=2000, verbose_progress=False)


@pytest.mark.parametrize("partie", [False, True])
def test_pettingzoo_seed_test(partie: bool) -> None:
    seed_test(lambda: rl.env(partie=partie), num_cycles=300)


def test_the_same_seed_plays_the_same_deal_and_rewards_are_zero_sum() -> None:
    finals = []
    for _ in range(2):
        finals.append(random_run(rl.env(), 11))
    assert finals[0] == finals[1]
    assert finals[0]["player_0"] == -finals[0]["player_1"]
    e = rl.env(partie=True)
    final = random_run(e, 5)
    partie = e.table.state.partie
    assert partie is not None and partie.is_finished
    s = partie.settlement()
    assert final["player_0"] == (0 if s.winner is None else s.points_won if s.winner == "A" else -s.points_won)
    assert final["player_0"] == -final["player_1"] != 0


def test_a_deal_ends_with_its_score_difference() -> None:
    e = rl.env()
    final = random_run(e, 4)
    deal = e.table.state.partie.deals[0]
    partie = e.table.state.partie
    a = partie.role(0, "A")
    assert final["player_0"] == deal.total(a) - deal.total(1 - a) == -final["player_1"]
    assert deal.is_over and len(partie.deals) == 1


def test_no_observation_holds_the_other_seats_hidden_cards() -> None:
    """Every card named in an agent's vector or readable dict is one his observation lets him see; the cards the
    other seat has picked towards his discard never show; the other's hidden hand never appears in any plane."""
    seen_hidden = [0]

    def check(e: rl.aec.PiquetEnv) -> None:
        table = e.table
        for agent, seat in (("player_0", "A"), ("player_1", "B")):
            obs = table.observation(seat)
            vector = e.observe(agent)["observation"]
            assert vector.shape == (OBS_SIZE,)
            named = 0
            for p in range(len(PLANES)):
                for c in np.flatnonzero(vector[p * N_CARDS:(p + 1) * N_CARDS]):
                    named |= 1 << int(c)
            if obs is None:
                assert named == 0
                continue
            mine = table.selection if table.to_act == seat else 0
            visible = obs.visible_cards() | mine
            assert named & ~visible == 0, f"{seat} sees {cards_of(named & ~visible)}"
            other = table.state.partie.observation("B" if seat == "A" else "A")
            hidden = other.hand & ~visible
            seen_hidden[0] += hidden.bit_count()
            assert named & hidden == 0
            readable = e.readable(agent)
            readable.pop("cut")  # the cut for deal, public (Law 4): cards of the pack before it was shuffled
            text = json.dumps(readable)
            for c in cards_of(hidden):
                assert f'"{card_name(c)}"' not in text

    for seed in range(6):
        random_run(rl.env(), seed, check)
    random_run(rl.env(partie=True), 1, check)
    assert seen_hidden[0] > 1000  # the check had hidden cards to find


def test_an_action_the_mask_forbids_is_refused_and_changes_nothing() -> None:
    e = rl.env()
    e.reset(seed=2)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    before = e.observe(agent)["observation"].copy()
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not allowed now.*allowed: "):
        e.step(bad)
    assert e.agent_selection == agent
    assert (e.observe(agent)["observation"] == before).all()
    with pytest.raises(ValueError):
        e.step(N_ACTIONS)


# ---------------------------------------------------------------- the encoding


def test_every_engine_action_has_its_steps_and_they_make_it() -> None:
    """Random deals: at every decision, each of a sample of the legal engine actions is made by ``encode``'s steps,
    each step allowed by the mask, and the mask never allows a step that leads nowhere."""
    rng = random.Random(3)
    decisions = 0
    for _ in range(20):
        deal = Deal.shuffled(rng)
        while not deal.is_over:
            role = deal.to_move
            obs = observe(deal, role)
            legal = list(obs.legal_actions())
            for action in rng.sample(legal, min(len(legal), 8)):
                selection, made = 0, None
                for a in encode(obs, action):
                    assert made is None
                    assert deal_mask(obs, selection)[a], (action, a)
                    selection, made = deal_step(obs, selection, a)
                assert made == action
                decisions += 1
            # a random walk through the mask always ends in a lawful action
            selection, made = 0, None
            while made is None:
                allowed = [a for a, ok in enumerate(deal_mask(obs, selection)) if ok]
                selection, made = deal_step(obs, selection, rng.choice(allowed))
            assert made in deal.legal_actions()
            deal.apply(made)
    assert decisions > 500


def test_sink_and_done() -> None:
    rng = random.Random(8)
    deal = Deal.shuffled(rng)
    while deal.phase.name not in ("ELDER_POINT",):
        deal.apply(observe(deal, deal.to_move).sample(rng))
    obs = observe(deal, deal.to_move)
    mask = deal_mask(obs, 0)
    assert mask[SINK] and not mask[DONE]  # nothing picked: sink, not done
    _, action = deal_step(obs, 0, SINK)
    assert repr(action) == "DeclarePoint(nothing)"
    with pytest.raises(EncodingError, match="allowed"):
        deal_step(obs, 0, DONE)


# ---------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize("level,partie", [("cavendish", False), ("random", True), ("simple", False)])
def test_gymnasium_check_env(level: str, partie: bool) -> None:
    check_env(rl.single_agent_env(level, partie=partie), skip_render_check=True)


def test_gymnasium_episode_and_illegal_actions() -> None:
    e = rl.single_agent_env("cavendish")
    obs, info = e.reset(seed=9)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, term, trunc, info2 = e.step(bad)
    assert reward == -1.0 and not term and "allowed" in info2["illegal"] and (obs2 == obs).all()
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        obs, reward, done, _, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
    partie = e.table.state.partie
    role = partie.role(0, "A")
    assert total == partie.deals[0].total(role) - partie.deals[0].total(1 - role)
    with pytest.raises(ValueError):
        rl.single_agent_env("nobody")


def test_gymnasium_raises_when_asked() -> None:
    from piquet.rl.single import SingleAgentEnv

    e = SingleAgentEnv("random", illegal="raise")
    _, info = e.reset(seed=1)
    with pytest.raises(EncodingError):
        e.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="action number"):
        e.step(99)


def test_table_agrees_with_the_engine_for_a_whole_partie() -> None:
    t = Table(seed=21, whole_partie=True)
    rng = random.Random(0)
    while not t.is_over:
        seat = t.to_act
        allowed = [a for a, ok in enumerate(t.mask(seat)) if ok]
        t.act(seat, rng.choice(allowed))
    assert t.state.partie.is_finished
    assert t.result("A") == -t.result("B")


# ---------------------------------------------------------------- the core without the extra


def test_piquet_imports_without_the_extra() -> None:
    """The core, the players, the study, the terminal and the server import with the extra's libraries absent."""
    code = (
        "import sys\n"
        "for m in ('pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel', 'ray'): sys.modules[m] = None\n"
        "import piquet, piquet.cli.main, piquet.study.arena, piquet.study.stats, piquet.web.app, piquet.rl\n"
        "from piquet.players.levels import level_named\n"
        "try:\n    level_named('openspiel-ismcts')\nexcept ValueError as e:\n    print('refused:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={"PYTHONPATH": str(ROOT / "src"), "PIQUET_PURE": "1", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
