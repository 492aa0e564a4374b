"""The review of a whole partie (``piquet.study.review``, ``piquet analyse``): the exchange against the best discards
over sampled worlds, a sinking against declaring in full, the play; the legend and the costliest decisions; one
player's mistakes only; deals numbered from 1 in the text and the JSON alike; the browser's replay shows it."""

from __future__ import annotations

import io
import json
import re
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from piquet.cli.main import main
from piquet.core.actions import Action, DeclareSequences, Discard
from piquet.core.cards import Mask, parse_cards
from piquet.core.deal import Phase
from piquet.core.partie import Partie
from piquet.players.base import SimplePlayer
from piquet.players.runner import PartieRunner
from piquet.records.record import record_of
from piquet.study.review import Review, ReviewOptions, review_partie, write_text

QUICK = ReviewOptions(worlds=4, discards_per_count=2)
NAMES = {"A": "Ann", "B": "Bob"}

#: The elder (Ann) holds a quint major in spades, the younger a quint to a king in hearts.
ELDER = "AS KS QS JS 10S AH 8H 7H 8D 7D 8C 7C"
YOUNGER = "9S 8S 7S KH QH JH 10H 9H AD KD QD JD"
STOCK = "10D 9D AC KC QC JC 10C 9C"


def mask(text: str) -> Mask:
    m = 0
    for c in parse_cards(text):
        m |= 1 << c
    return m


def one_deal(instead: dict[Phase, Action]) -> Partie:
    """The deal above played by the simple player, but for the actions ``instead`` in their phases."""
    partie = Partie()
    deal = partie.deal_cards(mask(ELDER), mask(YOUNGER), parse_cards(STOCK))
    player = SimplePlayer()
    while not deal.is_over:
        role = deal.to_move
        assert role is not None
        action = instead.get(deal.phase) or player.choose(partie.observation(partie.seat(0, role)))
        deal.apply(action)
    return partie


def test_throwing_the_ace_of_the_long_suit_shows_a_loss_at_the_exchange() -> None:
    partie = one_deal({Phase.ELDER_DISCARD: Discard(mask("AS 8H 7H 8D 7D"))})
    review = review_partie(partie, NAMES, QUICK)
    exchange = next(d for d in review.decisions if d.kind == "exchange" and d.seat == "A")
    assert exchange.chosen == "AS 8H 7H 8D 7D"
    assert exchange.loss >= 5 and exchange.is_mistake
    best, value = exchange.options[0]
    assert "AS" not in best and value - exchange.loss == pytest.approx(dict(exchange.options)[exchange.chosen])
    assert exchange in review.costliest("A")
    # The same again: the worlds are drawn from the review's seed.
    assert review_partie(partie, NAMES, QUICK).decisions == review.decisions


def test_a_sinking_that_cost_points_shows() -> None:
    partie = one_deal({Phase.ELDER_SEQUENCES: DeclareSequences(())})
    review = review_partie(partie, NAMES, QUICK)
    calls = [d for d in review.decisions if d.kind == "call"]
    assert [(d.seat, d.chosen) for d in calls] == [("A", "No sequence"), ("B", "No sequence")]
    sunk, barred = calls
    # Declared in full, the quint major is good (15, and a repique with the point and the trio) and the
    # younger's quint to a king scores nothing.
    assert sunk.loss >= 15 and "sinking is lawful (p. 93)" in sunk.note and "quint major" in sunk.note.lower()
    assert sunk.is_mistake and sunk == review.costliest("A")[0]
    # The younger reckons no sequence: the elder's point of five spades shown implies a quint major, which bars
    # his quint to a king (Case IV).  Less was all he might declare: no loss.
    assert barred.loss == 0 and "Case IV" in barred.note and not barred.is_mistake
    assert sunk.options[0][0].lower().startswith("quint major")
    out = io.StringIO()
    write_text(review, out)
    assert f"calls     Ann        declares No sequence (cost {sunk.loss})" in out.getvalue()
    # Declaring everything: no call is listed.
    assert not [d for d in review_partie(one_deal({}), NAMES, QUICK).decisions if d.kind == "call"]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first two deals of a partie of the simple player against itself (a partie in progress)."""
    played = PartieRunner({"A": SimplePlayer(), "B": SimplePlayer()}, seed=21).run()
    partie = Partie(played.rules, played.first_dealer, played.deal_by)
    for d in played.deals[:2]:
        again = partie.deal_cards(d.dealt[0], d.dealt[1], d.stock)
        for a in d.history:
            again.apply(a)
    path = tmp_path_factory.mktemp("review") / "partie.json"
    path.write_text(record_of(partie, players=NAMES, seed=21).to_json())
    return path


ARGS = ["--worlds", "1", "--discards", "1"]


def test_the_text_and_the_json_number_deals_alike(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(record), *ARGS]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Legend\n") and "\nCostliest decisions\n  Ann:" in text and "\n  Bob:" in text
    assert main(["analyse", str(record), "--json", *ARGS]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["legend"] and doc["worlds"] == 1 and doc["names"] == NAMES
    numbers = [int(n) for n in re.findall(r"^Deal (\d+):", text, re.M)]
    assert numbers == [d["number"] for d in doc["deals"]] == [1, 2]
    assert sorted({d["deal"] for d in doc["decisions"]}) == numbers
    kinds = {d["kind"] for d in doc["decisions"]}
    assert kinds >= {"exchange", "play"}
    # Every exchange is listed: two a deal.
    assert sum(d["kind"] == "exchange" for d in doc["decisions"]) == 4
    for seat in "AB":
        worst = doc["costliest"][seat]
        assert len(worst) <= 3 and all(d["seat"] == seat and d["mistake"] for d in worst)
        assert [d["loss"] for d in worst] == sorted((d["loss"] for d in worst), reverse=True)
        assert f"deal {worst[0]['deal']}, " in text


def test_player_shows_one_players_mistakes(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(record), "--json", "--player", "B", *ARGS]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["player"] == "B" and list(doc["costliest"]) == ["B"]
    assert doc["decisions"] and all(d["seat"] == "B" and d["mistake"] and d["loss"] >= 1 for d in doc["decisions"])
    assert main(["analyse", str(record), "--player", "bob", *ARGS]) == 0  # by name, in any case
    text = capsys.readouterr().out
    assert "Bob's mistakes" in text and "  Ann" not in text.split("Bob's mistakes")[1]


def test_an_unknown_player_is_refused(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(record), "--player", "Zed", *ARGS]) == 2
    assert "not a player of this partie" in capsys.readouterr().err
    assert main(["analyse", str(record), "--worlds", "0"]) == 2


def test_the_review_json_is_what_the_page_reads() -> None:
    review: Review = review_partie(one_deal({}), NAMES, QUICK)
    doc = review.to_json()
    assert set(doc) >= {"legend", "costliest", "decisions", "deals", "names", "worlds"}
    assert json.loads(json.dumps(doc)) == doc
    assert [d["deal"] for d in doc["decisions"]] == [1] * len(doc["decisions"])


@pytest.mark.browser
def test_the_replay_shows_the_review(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A finished partie's replay in a browser: the review's legend, each player's costliest decisions, the
    decisions deal by deal, one player's mistakes only; a decision's button goes to its step."""
    e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")
    from test_web_replay import insert, random_partie

    folder = tmp_path_factory.mktemp("review-server")
    table = random_partie(31)
    with e2e.touch_page(folder, e2e.DESKTOP) as (srv, page, errors):
        table_id = insert(str(folder / "tables.db"), table, "finished")
        page.goto(f"{srv.base}/t/{table_id}/replay?worlds=1")
        page.wait_for_function("() => document.getElementById('rp-review').dataset.ready === 'true'",
                               timeout=120_000)
        legend = page.get_by_test_id("review-legend").inner_text()
        assert "Legend" in legend and "1 deal sampled" in legend and "open-card solver" in legend
        costliest = page.get_by_test_id("review-costliest").inner_text()
        assert "Costliest decisions" in costliest and "Ann:" in costliest and "Bob:" in costliest
        decisions = page.get_by_test_id("review-decision")
        assert decisions.count() > 24 * 6
        assert "Deal 1: " in page.get_by_test_id("review-list").inner_text()
        page.get_by_test_id("review-filter").select_option("A")
        shown = page.locator("[data-testid=review-list] [data-testid=review-decision]")
        seats = shown.evaluate_all("els => els.map(e => e.dataset.seat)")
        assert seats and set(seats) == {"A"}
        # A decision goes to its step: the frame before it, in its deal.
        first = shown.first
        deal = first.get_attribute("data-deal")
        first.locator("button").click()
        page.wait_for_function(f"() => document.getElementById('replay').dataset.deal === '{deal}'")
        assert errors == []


def test_the_review_over_http(client: TestClient, db: str) -> None:
    """``GET /api/tables/{id}/review``: a finished partie's review, deals from 1; none for a partie in progress,
    nor for no table; a bad number of worlds refused."""
    from test_web_replay import insert, random_partie

    done = insert(db, random_partie(41), "finished")
    r = client.get(f"/api/tables/{done}/review?worlds=1")
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["table"] == done and doc["worlds"] == 1 and doc["legend"]
    assert [d["number"] for d in doc["deals"]] == list(range(1, len(doc["deals"]) + 1))
    assert set(doc["costliest"]) == {"A", "B"} and doc["names"] == NAMES
    going = insert(db, random_partie(42, stop=40), "playing", table_id="going")
    assert client.get(f"/api/tables/{going}/review").status_code == 403
    assert client.get("/api/tables/nothing/review").status_code == 404
    assert client.get(f"/api/tables/{done}/review?worlds=1000").status_code == 400
