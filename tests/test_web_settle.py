"""The settlement of stakes in the browser (``piquet.web.settle``: ``/settle`` and ``POST /api/settle``).

Through the API: the scoring card of p. 101 given deal by deal (A wins 75 points, 5s at ten shillings a
hundred), the chouette of p. 102 (A wins 15s, C 30s, B pays 45s), a table played over the websocket and
settled by its id (its totals those of its stored record), a table in progress refused without a word
of its cards, and every bad input answered 400 with the message of ``piquet.stakes.settlement``.  The page is
served and loads its script; with Playwright and Debian's chromium, one test fills the form in a browser.
"""

from __future__ import annotations

import csv
import io
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from piquet.records.record import PartieRecord, replay
from piquet.stakes.settlement import FARTHINGS_A_SHILLING, CardPartie, from_json
from test_web import cards_named, listed, new_table, play_against_computer, stored, until_my_turn, ws_path

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

DATA = Path(__file__).resolve().parent / "data"
P101 = DATA / "scoring-card-p101.json"
P102 = DATA / "chouette-p102.json"


def settle(client: TestClient, body: Any, status: int = 200) -> dict[str, Any]:
    r = client.post("/api/settle", json=body)
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def by_player(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["player"]: p for p in doc["settlement"]["players"]}


def p101_parties() -> list[dict[str, Any]]:
    """The five parties of the card of p. 101, deal by deal, as the page would send them."""
    return [p["deals"] for p in json.loads(P101.read_text())["parties"]]


# ---------------------------------------------------------------- the book's cards through the API


def test_the_card_of_p101(client: TestClient) -> None:
    doc = settle(client, {"parties": p101_parties(), "stake": "10s a hundred", "custom": "fifty"})
    assert doc["kind"] == "scoring card" and doc["players"] == ["A", "B"] and doc["parties"] == 5
    a, b = by_player(doc)["A"], by_player(doc)["B"]
    assert (a["points"], a["farthings"], a["money"]) == (75, 5 * FARTHINGS_A_SHILLING, "5s")
    assert (b["points"], b["farthings"], b["money"]) == (-75, -5 * FARTHINGS_A_SHILLING, "-5s")
    assert a["words"] == "A wins 75 points and receives 5s." and b["words"] == "B loses 75 points and pays 5s."
    assert doc["words"][0] == "A wins 75 points (692 - 617); B loses 75."
    assert "A wins 5s (50 points reckoned of 75)." in doc["words"]
    assert doc["settlement"]["stake"] == "10s a hundred" and doc["settlement"]["custom"] == "fifty"
    html = doc["card_html"]
    assert html.startswith('<table class="scoring-card">') and html.count('colspan="2">Partie') == 5
    for figure in ("692", "617", "416*", "476*", "+75"):
        assert f"<td>{figure}</td>" in html
    # The exports: the CSV is the card cell for cell, then the settlement; the JSON reads back to the card.
    rows = list(csv.reader(io.StringIO(doc["csv"])))
    assert rows[1] == ["", *["A", "B"] * 6] and ["A", "75", "50", "240", "5s"] in rows
    card = from_json(doc["json"])
    assert card.balances() == {"A": 75, "B": -75}
    assert json.loads(doc["json"])["settlement"]["stake"] == "10s a hundred"


def test_the_same_figures_by_their_totals_and_names(client: TestClient) -> None:
    parties = [{"Ann": sum(p["A"]), "Bob": sum(p["B"])} for p in p101_parties()]
    parties[1] = {"Bob": "92", "Ann": "224"}  # turned to Ann's side; figures typed as text
    parties[2] = {"Ann": "20, 4, 10, 33, 3, 5", "Bob": [18, 115, 42, 11, 74, 41]}
    doc = settle(client, {"parties": parties, "stake": "10s a hundred"})
    assert doc["players"] == ["Ann", "Bob"]
    assert by_player(doc)["Ann"]["farthings"] == 240 and by_player(doc)["Bob"]["points"] == -75
    assert "<td>20</td>" in doc["card_html"]  # the third partie deal by deal
    # No stake: the points only.
    doc = settle(client, {"parties": parties})
    assert by_player(doc)["Ann"] == {"player": "Ann", "points": 75, "farthings": None, "money": None,
                                     "words": "Ann wins 75 points."}
    assert doc["settlement"]["stake"] is None and doc["words"] == ["Ann wins 75 points (692 - 617); Bob loses 75."]


def test_the_customs_and_the_book(client: TestClient) -> None:
    partie = [{"A": 125, "B": 81}]  # 306 points, a rubicon
    assert by_player(settle(client, {"parties": partie, "stake": "twopenny points", "custom": "book"}))["A"][
        "money"] == "£3"
    doc = settle(client, {"parties": partie, "stake": "2d a point", "custom": "book"})
    assert doc["settlement"]["stake"] == "£1 a hundred"
    assert doc["words"][-1] == "2d a point is reckoned at £1 a hundred (p. 101)."
    assert by_player(settle(client, {"parties": partie, "stake": "3d a point", "custom": "forty"}))["B"][
        "money"] == "-£3 10s"  # 280 points at 3d
    assert by_player(settle(client, {"parties": partie, "stake": "1s a point", "custom": "none"}))["A"][
        "money"] == "£15 6s"


def test_the_chouette_of_p102(client: TestClient) -> None:
    chouette = json.loads(P102.read_text())
    for body in ({"chouette": chouette, "stake": "10s a hundred", "custom": "fifty"},
                 {"chouette": P102.read_text(), "stake": "10s a hundred"},
                 {"parties": [{"chouette": chouette}], "stake": "10s a hundred"}):
        doc = settle(client, body)
        assert doc["kind"] == "chouette" and doc["players"] == ["A", "B", "C"]
        money = {p: r["farthings"] // FARTHINGS_A_SHILLING for p, r in by_player(doc).items()}
        assert money == {"A": 15, "B": -45, "C": 30}
        assert {p: r["points"] for p, r in by_player(doc).items()} == {"A": 190, "B": -500, "C": 310}
        assert doc["words"][0] == "A wins 190; C, 310; B loses 500."
        assert "<td>+ 114</td>" in doc["card_html"] and "<th>B lost</th>" in doc["card_html"]
        assert from_json(doc["json"]).balances() == {"A": 190, "B": -500, "C": 310}


# ---------------------------------------------------------------- the tables of this server


def test_a_finished_table_settled_by_its_id(client: TestClient, db: str) -> None:
    t, log = play_against_computer(client, db, seed=11)
    assert log[-1]["view"]["status"] == "finished"
    _, record = stored(db, t["table"])
    partie = replay(PartieRecord.from_json(record))
    expected = CardPartie.from_partie(partie)
    computer = listed(client, t)[0]["players"]["B"]
    doc = settle(client, {"parties": [{"table": t["table"]}], "stake": "1s a point", "custom": "none"})
    assert doc["players"] == ["Ann", computer]
    rows = list(csv.reader(io.StringIO(doc["csv"])))
    total = next(r for r in rows if r and r[0] == "total")
    assert (int(total[1]), int(total[2])) == (partie.scores["A"], partie.scores["B"]) == expected.scores
    deals = [r for r in rows if r and r[0].startswith("deal ")]
    assert [(int(r[1]), int(r[2])) for r in deals] == list(expected.deals)
    winner = "Ann" if expected.winner == 0 else computer
    assert by_player(doc)[winner]["points"] == expected.points
    assert by_player(doc)[winner]["farthings"] == expected.points * FARTHINGS_A_SHILLING
    # With figures between the same players (turned to their side), and twice the same table.
    doc = settle(client, {"parties": [{"table": t["table"]}, {computer: 131, "Ann": 113}, {"table": t["table"]}]})
    assert doc["parties"] == 3 and doc["players"] == ["Ann", computer]
    # Figures between other players cannot go on the same card.
    err = settle(client, {"parties": [{"table": t["table"]}, {"A": 131, "B": 113}]}, 400)
    assert err == {"error": f"partie 2 is between A and B, not Ann and {computer}"}


def test_a_table_in_progress_is_not_settled(client: TestClient, db: str) -> None:
    t = new_table(client, opponent="computer", level="random", name="Ann", seed=5)
    with client.websocket_connect(ws_path(t)) as ws:
        msg = until_my_turn(ws, [])
        assert msg["view"]["status"] != "finished"
    r = client.post("/api/settle", json={"parties": [{"table": t["table"]}], "stake": "10s a hundred"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert t["table"] in error and "not finished" in error and "in progress" in error
    assert cards_named(r.json()) == set() and set(r.json()) == {"error"}
    waiting = new_table(client, opponent="person", name="Ann", seed=6)
    err = settle(client, {"parties": [{"A": 131, "B": 113}, {"table": waiting["table"]}]}, 400)
    assert err["error"].startswith(f"partie 2: table {waiting['table']} is not finished (waiting)")
    err = settle(client, {"parties": [{"table": "nosuch"}]}, 404)
    assert err == {"error": "partie 1: there is no table 'nosuch' on this server"}


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("body", "message"), [
    ({"parties": [{"A": 131, "B": 113}], "stake": "10 a hundred"},
     "cannot read the stake '10 a hundred': cannot read the amount '10': say £, s or d after the number"),
    ({"parties": [{"A": 131, "B": 113}], "stake": "10s a week"}, "cannot read the stake '10s a week'"),
    ({"parties": [{"A": 131, "B": 113}], "stake": "10s a hundred", "custom": "sixty"},
     "unknown custom 'sixty'; known: fifty, twenty-five, forty, pound, twenty, none"),
    ({"parties": [{"A": 131, "B": 113}], "custom": "fifty"}, "give a stake with it"),
    ({"parties": [{"A": 131, "B": 113}], "stake": 10}, "\"stake\" is words"),
    ({"parties": [{"A": 131, "B": 113}], "stake": "10s a hundred", "custom": 50}, "\"custom\" is a name"),
    ({"parties": [{"A": "x", "B": 113}]}, "partie 1: A's score is a whole number or deal scores"),
    ({"parties": [{"A": True, "B": 113}]}, "partie 1: A's score is a whole number"),
    ({"parties": [{"A": [1, "2"], "B": [3, 4]}]}, "partie 1: A's deal scores are a list of whole numbers"),
    ({"parties": [{"A": 131, "B": [1, 2]}]}, "give both players' totals, or both players' deal scores"),
    ({"parties": [{"A": [27, 15, 44], "B": [13, 31]}]}, "partie 1: A has 3 deal scores and B 2"),
    ({"parties": [{"A": [27, 15, 44], "B": [13, 31, 6]}]}, "partie 1: a finished partie has 6 deals here"),
    ({"parties": [{"A": -1, "B": 113}]}, "partie 1: a partie score is never negative, found -1"),
    ({"parties": [{"A": 131}]}, "partie 1: a partie is given as the two players' figures"),
    ({"parties": [{"A": 131, "B": 113, "C": 1}]}, "found 3 players"),
    ({"parties": [{"A": 131, "B": 113, "rules": "bezique"}]}, "partie 1: "),
    ({"parties": [{"A": 131, "B": 113}, {"C": 131, "D": 113}]}, "partie 2 is between C and D, not A and B"),
    ({"parties": [{"A": 131, "B": 113}, {"A": 131, "C": 113}]}, "partie 2 is between A and C, not A and B"),
    ({"parties": [{"A": 131, "B": 113}, 7]}, "partie 2: a partie is {\"table\": id}"),
    ({"parties": [{"table": "x", "A": 1}]}, "partie 1: a table is given by its id alone"),
    ({"parties": [{"table": 5}]}, "partie 1: \"table\" is a table's id"),
    ({"parties": []}, "nothing to settle"),
    ({}, "nothing to settle"),
    ({"parties": {"A": 131, "B": 113}}, "\"parties\" is a list"),
    ({"parties": [{"A": 131, "B": 113}], "stakes": "10s a hundred"}, "unknown field 'stakes'"),
    ([{"A": 131, "B": 113}], "the body is a JSON object"),
    ({"chouette": {"players": ["A", "B"], "parties": []}}, "the chouette: "),
    ({"chouette": {"players": ["A", "B", "C"], "parties": [{"single": "D", "winner": "A", "points": 150}]}},
     "the chouette: partie 1: the single player 'D' is not one of A, B and C"),
    ({"chouette": "{not json"}, "the chouette: not JSON"),
    ({"chouette": {"players": ["A", "B", "C"], "parties": []}}, "the chouette: no parties to settle"),
    ({"chouette": {"kind": "scoring card", "players": ["A", "B"], "parties": [{"scores": [131, 113]}]}},
     "the chouette: not a chouette"),
    ({"chouette": json.loads(P102.read_text()), "parties": [{"A": 131, "B": 113}]}, "a chouette is settled alone"),
    ({"parties": [{"A": 131, "B": 113}, {"chouette": {}}]}, "partie 2: a chouette is settled alone"),
])
def test_bad_input_is_refused_with_a_message(client: TestClient, body: Any, message: str) -> None:
    r = client.post("/api/settle", json=body)
    assert r.status_code == 400, r.text
    assert list(r.json()) == ["error"] and message in r.json()["error"], r.json()


def test_a_body_that_is_not_json(client: TestClient) -> None:
    for raw in (b"{", b"\xff\xfe", b"", b"[" * 100_000):
        r = client.post("/api/settle", content=raw, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and "the body is a JSON object" in r.json()["error"]
    r = client.post("/api/settle", content=b" " * (300 * 1024))
    assert r.status_code == 413
    many = {"parties": [{"A": 131, "B": 113}] * 201}
    assert "at most 200 parties" in settle(client, many, 400)["error"]
    assert client.get("/api/settle").status_code == 405


# ---------------------------------------------------------------- the page


def test_the_page_is_served_and_loads_its_script(client: TestClient) -> None:
    r = client.get("/settle")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert '<script type="module" src="/static/settle.js"></script>' in page
    for testid in ("settle-form", "stake-input", "custom-select", "add-partie", "settle-button", "scoring-card",
                   "settlement-words", "download-csv", "download-json", "settle-error"):
        assert f'data-testid="{testid}"' in page, testid
    assert 'role="alert"' in page and "://" not in page  # nothing fetched from elsewhere
    for custom in ("fifty", "twenty-five", "forty", "pound", "twenty", "none", "book"):
        assert f'<option value="{custom}"' in page
    script = client.get("/static/settle.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "/api/settle" in script.text and "myGames" in script.text and "://" not in script.text
    assert "/api/tables/mine" in client.get("/static/seat.js").text
    lobby = client.get("/").text
    assert '<a href="/settle"' in lobby and "Settle the stakes" in lobby


# ---------------------------------------------------------------- in a browser


@pytest.mark.browser
def test_the_page_in_a_browser(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Two parties typed into the form, one row added; settled; the card and the words shown; the CSV downloaded.
    On a phone-sized page (390 px), so that the card's box must scroll and not the page."""
    e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")
    with e2e.touch_page(tmp_path_factory.mktemp("settle-server"), e2e.PHONE) as (srv, page, errors):
        page.goto(srv.base + "/settle")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        page.get_by_test_id("stake-input").fill("10s a hundred")
        page.get_by_test_id("custom-select").select_option("fifty")
        page.get_by_test_id("partie-a-0").fill("131")
        page.get_by_test_id("partie-b-0").fill("113")
        page.get_by_test_id("partie-a-1").fill("nonsense")
        page.get_by_test_id("partie-b-1").fill("125")
        page.get_by_test_id("settle-button").click()
        alert = page.get_by_test_id("settle-error")
        alert.wait_for(state="visible")
        assert "partie 2: A's score is a whole number" in alert.inner_text()
        assert page.get_by_test_id("partie-a-1").input_value() == "nonsense"  # what was typed is kept
        page.get_by_test_id("partie-a-1").fill("81")
        page.get_by_test_id("add-partie").click()
        page.get_by_test_id("partie-a-2").fill("20, 4, 10, 33, 3, 5")
        page.get_by_test_id("partie-b-2").fill("18, 115, 42, 11, 74, 41")
        page.get_by_test_id("partie-b-2").press("Enter")  # Enter submits
        page.locator("[data-testid=scoring-card] table.scoring-card").wait_for()
        assert alert.is_hidden()
        words = page.get_by_test_id("settlement-words").inner_text()
        assert "B wins 664 points and receives £3 5s." in words, words  # 306 + 476 - 118: 650 reckoned
        assert "A loses 664 points and pays £3 5s." in words
        assert page.locator("[data-testid=scoring-card] td", has_text="476*").count() == 1
        box = page.get_by_test_id("scoring-card")
        widths = box.evaluate("b => [b.scrollWidth, b.clientWidth, document.documentElement.scrollWidth]")
        assert widths[2] <= e2e.PHONE["width"], f"the page scrolls sideways on a phone: {widths}"
        with page.expect_download() as info:
            page.get_by_test_id("download-csv").click()
        download = info.value
        assert download.suggested_filename == "piquet-scoring-card.csv"
        text = Path(download.path()).read_text(encoding="utf-8")
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[1] == ["", *["A", "B"] * 4] and ["B", "664", "650", "3120", "£3 5s"] in rows
        with page.expect_download() as info:
            page.get_by_test_id("download-json").click()
        assert from_json(Path(info.value.path()).read_text(encoding="utf-8")).balances() == {"A": -664, "B": 664}
        assert errors == []
