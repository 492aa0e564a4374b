"""``piquet stats``: the statistics of play, their intervals, determinism, saving and plots."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from piquet.cli.main import main
from piquet.core.events import ELDER, S_PIQUE, S_REPIQUE, YOUNGER
from piquet.odds.chances import wilson
from piquet.study.arena import rate_interval
from piquet.study.stats import (
    clustered_rate,
    load_stats,
    median_interval,
    quantile,
    ratio_interval,
    run_stats,
)


def _without_times(s: dict[str, Any]) -> dict[str, Any]:
    s = json.loads(json.dumps(s))
    s.pop("seconds")
    for key in ("player1", "player2"):
        s[key].pop("ms_per_decision")
    return s


@pytest.fixture(scope="module")
def report() -> Any:
    return run_stats("simple", "random", deals=60, seed=4, workers=1)


def test_whole_parties_until_the_deals_are_played(report: Any) -> None:
    assert len(report.results) == 10
    assert report.deals() >= 60
    assert all(len(r.deal_results) == r.deals for r in report.results)


@pytest.mark.slow
def test_same_seed_same_report_on_any_number_of_workers(report: Any) -> None:
    again = run_stats("simple", "random", deals=60, seed=4, workers=2)
    assert _without_times(again.summary()) == _without_times(report.summary())
    other = run_stats("simple", "random", deals=60, seed=5, workers=1)
    assert _without_times(other.summary()) != _without_times(report.summary())


def test_parties_instead_of_deals() -> None:
    r = run_stats("simple", "random", deals=1, parties=3, seed=4, workers=1)
    assert len(r.results) == 3
    same = run_stats("simple", "random", deals=18, seed=4, workers=1).results
    assert [(x.points, x.deal_results) for x in r.results] == [(x.points, x.deal_results) for x in same]


def test_each_partie_has_its_own_cards_and_the_seats_alternate(report: Any) -> None:
    assert [r.mirrored for r in report.results[:4]] == [False, True, False, True]
    first_deals = {r.deal_results[0].scores for r in report.results}
    assert len(first_deals) > 5  # no mirrored duplicates


def test_the_deals_add_up_to_the_partie(report: Any) -> None:
    for r in report.results:
        for who in (0, 1):
            total = 0
            for d in r.deal_results:
                total += sum(d.scores[ELDER] if d.elder == who else d.scores[YOUNGER])
            assert total == sum(r.components[who])  # rubicon rules: every deal counts once
        for d in r.deal_results:
            assert sum(d.tricks) == 12


def test_the_summary_is_consistent(report: Any) -> None:
    s = report.summary()
    cards = s["cards"]
    assert cards["elder"]["count"] + cards["younger"]["count"] + cards["divided"]["count"] == s["deals"]
    deals = [d for r in report.results for d in r.deal_results]
    elder_scores = sorted(d.total(ELDER) for d in deals)
    assert s["hands"]["elder"]["median"] == quantile(elder_scores, 0.5)
    assert s["hands"]["elder"]["mean"] == pytest.approx(sum(elder_scores) / len(deals), abs=1e-3)
    assert s["hands"]["younger"]["pique"]["count"] == sum(d.scores[YOUNGER][S_PIQUE] > 0 for d in deals) == 0
    assert s["hands"]["elder"]["repique"]["count"] == sum(d.scores[ELDER][S_REPIQUE] > 0 for d in deals)
    for name in ("elder", "younger"):
        h = s["hands"][name]
        assert h["ci95"][0] <= h["mean"] <= h["ci95"][1]
        assert h["median_ci95"][0] <= h["median"] <= h["median_ci95"][1]
        assert sum(h["distribution"].values()) == s["deals"]
        for k in ("pique", "repique", "capot", "carte_blanche", "nothing"):
            assert 0.0 <= h[k]["ci95"][0] <= h[k]["rate"] <= h[k]["ci95"][1] <= 1.0
        assert sum(h["components"].values()) == pytest.approx(h["mean"], abs=0.01)
    # simple beats random: a larger score as elder than random's, and most parties
    assert s["player1"]["score_as_elder"]["mean"] > s["player2"]["score_as_elder"]["mean"]
    assert s["player1"]["win_rate"]["rate"] > 0.5
    assert s["player1"]["points_per_partie"]["mean"] == -s["player2"]["points_per_partie"]["mean"]
    assert sum(s["partie"]["value"]["distribution"].values()) == s["parties"]


def test_ratio_interval_is_the_spread_between_parties() -> None:
    mean, lo, hi = ratio_interval([2, 4, 6, 8], [2, 2, 2, 2])
    assert mean == 2.5
    # per-partie means 1, 2, 3, 4: the usual interval for a mean of equal groups
    se = (4 / 3 * sum((s - 2.5 * 2) ** 2 for s in [2, 4, 6, 8]) / 64) ** 0.5
    assert (lo, hi) == pytest.approx((2.5 - 1.96 * se, 2.5 + 1.96 * se))


def test_clustered_rate_is_wilson_when_parties_do_not_cluster() -> None:
    # one deal a partie: the design effect is about one, and the interval Wilson's
    hits = [1] * 30 + [0] * 70
    r = clustered_rate(hits, [1] * 100)
    centre, half = rate_interval(30, 100)
    assert r["rate"] == 0.3
    # the design effect is m/(m-1), the sample-variance correction, and no more
    assert r["ci95"] == pytest.approx([centre - half, centre + half], abs=0.004)
    assert r["ci95"] == pytest.approx(list(wilson(0.3, 99)), abs=1e-5)


def test_clustered_rate_widens_when_parties_cluster() -> None:
    # the same 30% of deals, but all in whole parties: fewer independent units, a wider interval
    clustered = clustered_rate([6] * 5 + [0] * 12, [6] * 17)
    spread = clustered_rate([2] * 15 + [0] * 2, [6] * 17)
    assert clustered["ci95"][1] - clustered["ci95"][0] > 1.5 * (spread["ci95"][1] - spread["ci95"][0])


def test_median_interval_covers_the_median() -> None:
    rng = random.Random(9)
    groups = [[rng.randrange(0, 41) for _ in range(6)] for _ in range(300)]  # true median 20
    lo, hi = median_interval(groups, random.Random(1), resamples=200)
    assert lo <= 20 <= hi
    assert hi - lo <= 6


def test_quantile() -> None:
    assert quantile([1, 2, 3, 4], 0.5) == 2.5
    assert quantile([5], 0.9) == 5
    assert quantile([0, 10], 0.25) == 2.5


def test_save_and_load_give_the_same_report() -> None:
    out = io.StringIO()
    played = run_stats("simple", "simple", deals=12, seed=2, workers=1, save=out)
    loaded = load_stats(io.StringIO(out.getvalue()).readlines())
    assert loaded.results == played.results
    assert loaded.seconds == round(played.seconds, 1)  # the closing line keeps the run's time
    assert _without_times(loaded.summary()) == _without_times(played.summary())


@pytest.mark.parametrize("text, message", [
    ("", "does not start with a stats header"),
    ('{"players": ["simple"]}\n', "does not start with a stats header"),
    ('{"players": ["simple", "random"], "seed": 1, "rules": "rubicon"}\n', "holds no parties"),
    ('{"players": ["simple", "random"], "seed": 1, "rules": "rubicon"}\n{"pair": 0}\n', "line 2: not a saved partie"),
    ('{"players": ["simple", "random"], "seed": 1, "rules": "rubicon"}\nnot json\n', "line 2"),
])
def test_a_corrupt_save_is_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_stats(io.StringIO(text).readlines())


def test_the_command_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "simple", "random", "--deals", "12", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    for words in ("Score per deal", "treatise's show", "won by the elder", "divided", "pique", "repique", "capot",
                  "carte blanche", "rubicons", "value of a partie"):
        assert words in out


@pytest.mark.slow
def test_the_command_json_save_load_and_plots(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "run.jsonl"
    assert main(["stats", "simple", "random", "--deals", "12", "--workers", "1", "--json",
                 "--save", str(saved)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["deals"] >= 12 and played["players"] == ["simple", "random"]
    prefix = tmp_path / "p"
    assert main(["stats", "--load", str(saved), "--json", "--plot", str(prefix)]) == 0
    loaded = json.loads(capsys.readouterr().out)
    assert _without_times({k: v for k, v in loaded.items() if k != "plots"}) == _without_times(played)
    assert sorted(loaded["plots"]) == sorted(str(tmp_path / f) for f in
                                             ("p-scores.png", "p-scores.svg", "p-parties.png", "p-parties.svg"))
    assert (tmp_path / "p-scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "p-parties.svg").read_text()


@pytest.mark.parametrize("argv, message", [
    (["stats", "simple"], "name two players"),
    (["stats", "simple", "nobody"], "nobody"),
    (["stats", "simple", "random", "--deals", "0"], "at least 1"),
    (["stats", "simple", "random", "--parties", "-2"], "at least 1"),
    (["stats", "simple", "random", "--rules", "piquet-au-mille"], "piquet-au-mille"),
    (["stats", "--load", "/nonexistent/run.jsonl"], "cannot read"),
])
def test_the_command_refuses_bad_options(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.startswith("piquet stats: ")


@pytest.mark.slow
def test_carte_blanche_in_play_matches_its_exact_chance() -> None:
    # Each hand is carte blanche with chance C(20,12)/C(32,12); both at once is impossible (24 small cards needed).
    # Over the deals of a random-player run, the 99.9% interval of the frequency must contain the exact value.
    exact = Fraction(comb(20, 12), comb(32, 12))
    r = run_stats("random", "random", deals=3000, seed=11, workers=2)
    s = r.summary()
    n = s["deals"]
    k = s["hands"]["elder"]["carte_blanche"]["count"] + s["hands"]["younger"]["carte_blanche"]["count"]
    lo, hi = wilson(k / (2 * n), 2 * n, z=3.29)
    assert lo <= float(exact) <= hi


@pytest.mark.slow
def test_the_documented_run_is_the_saved_run() -> None:
    """docs/stats.md prints the report of the saved 20,000-deal run exactly as `--load` gives it."""
    import gzip
    from pathlib import Path

    from piquet.study.stats import format_stats

    root = Path(__file__).resolve().parent.parent
    with gzip.open(root / "docs/stats/search-v-search.jsonl.gz", "rt", encoding="utf-8") as f:
        report = load_stats(f)
    s = report.summary()
    assert s["players"] == ["search", "search"] and s["deals"] >= 20000
    assert format_stats(s) in (root / "docs/stats.md").read_text(encoding="utf-8")
