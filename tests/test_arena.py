"""The arena and the ladder: mirrored pairs, determinism, the figures reported, the commands."""

from __future__ import annotations

import json

import pytest

from piquet.cli.main import main
from piquet.core.events import SCORE_KINDS
from piquet.core.partie import Partie
from piquet.core.rules import RUBICON
from piquet.core.state import seed_cut
from piquet.players.levels import make_player
from piquet.players.runner import PartieRunner
from piquet.study.arena import (
    _SEATINGS,
    elo_ratings,
    mean_interval,
    pair_seed,
    play_partie,
    rate_interval,
    run_arena,
    run_ladder,
)


def test_a_pair_deals_the_same_cards_with_the_seats_swapped() -> None:
    seed, pair = 11, 3
    pseed = pair_seed(seed, pair)
    parties = []
    for mirrored in (False, True):
        seats = _SEATINGS[int(mirrored)]
        players = {seats[0]: make_player("simple", 1), seats[1]: make_player("random", 2)}
        _, _, dealer = seed_cut(pseed)
        partie = Partie(RUBICON, first_dealer=dealer, deal_by=2)
        PartieRunner(players, pseed, RUBICON, partie).run()
        parties.append(partie)
    first, second = parties
    for i in range(min(len(first.deals), len(second.deals))):
        # The same cards lie in the same seats; the players in those seats have changed places.
        assert first.deals[i].dealt == second.deals[i].dealt
        assert first.deals[i].stock == second.deals[i].stock
        assert first.dealer(i) == second.dealer(i)


def test_the_first_player_result_is_signed_from_his_side() -> None:
    r = play_partie(("simple", "random"), seed=5, pair=0, mirrored=False)
    m = play_partie(("simple", "random"), seed=5, pair=0, mirrored=True)
    for res in (r, m):
        assert res.winner in (0, 1, None)
        if res.winner == 0:
            assert res.points > 0
        elif res.winner == 1:
            assert res.points < 0
        assert len(res.components[0]) == len(SCORE_KINDS)
        assert res.deals >= 6
    # The simple player beats the random one from either seat.
    assert r.points > 0 and m.points > 0


def test_an_arena_run_is_the_same_on_any_number_of_workers() -> None:
    one = run_arena("simple", "random", parties=6, seed=4, workers=1)
    two = run_arena("simple", "random", parties=6, seed=4, workers=2)
    assert [(r.pair, r.mirrored, r.points, r.components) for r in one.results] == \
           [(r.pair, r.mirrored, r.points, r.components) for r in two.results]
    assert one.pairs == 3 and len(one.results) == 6
    other = run_arena("simple", "random", parties=6, seed=5, workers=1)
    assert [r.components for r in other.results] != [r.components for r in one.results]


def test_the_summary_reports_points_rates_and_components() -> None:
    report = run_arena("simple", "random", parties=10, seed=2, workers=1)
    s = report.summary()
    mean, half = report.points()
    assert s["points_per_partie"]["ci95"] == [round(mean - half, 2), round(mean + half, 2)]
    assert s["pairs"] == 5 and s["parties"] == 10
    assert mean > 100  # the simple player beats the random one by far (nearly always a rubicon)
    assert s["player1"]["win_rate"]["rate"] + s["player2"]["win_rate"]["rate"] + s["draw_rate"]["rate"] == \
        pytest.approx(1.0)
    assert set(s["player1"]["per_deal"]) == set(SCORE_KINDS)
    deals = s["deals"]
    play = sum(r.components[0][SCORE_KINDS.index("play")] for r in report.results)
    assert s["player1"]["per_deal"]["play"] == round(play / deals, 3)


def test_statistics() -> None:
    assert mean_interval([]) == (0.0, 0.0)
    assert mean_interval([5.0]) == (5.0, 0.0)
    m, h = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and h == pytest.approx(1.96 * (1.6667 / 4) ** 0.5, abs=1e-3)
    centre, half = rate_interval(50, 100)
    assert centre == pytest.approx(0.5) and 0.09 < half < 0.1
    r = elo_ratings(["a", "b", "c"], {("b", "a"): (30.0, 40), ("c", "b"): (30.0, 40)})
    assert r["a"] == 0 and 0 < r["b"] < r["c"]


def test_ladder_rates_levels_in_order() -> None:
    ladder = run_ladder(["random", "simple"], parties=4, seed=1, workers=1)
    s = ladder.summary()
    ratings = {row["level"]: row for row in s["levels"]}
    assert ratings["random"]["elo"] == 0 and ratings["simple"]["elo"] > 100
    assert ratings["simple"]["points"] > 0
    assert len(s["matches"]) == 1 and s["matches"][0]["players"] == ["simple", "random"]


def test_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "simple", "random", "--parties", "2", "--seed", "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "simple against random: 1 mirrored pairs, 2 parties" in out
    assert "points per partie to simple" in out and "per deal:" in out
    assert main(["arena", "simple", "0", "--parties", "2", "--workers", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["players"] == ["simple", "random"]  # a level by number is reported by name
    assert main(["arena", "simple", "grandmaster", "--parties", "2"]) == 2
    assert "unknown level 'grandmaster'" in capsys.readouterr().err
    assert main(["ladder", "--levels", "random,simple", "--parties", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Ratings" in out and "simple" in out
    assert main(["ladder", "--levels", "random,nobody", "--parties", "2"]) == 2
