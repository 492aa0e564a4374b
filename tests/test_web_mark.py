"""The marker in the browser (``piquet.web.mark``: ``/mark`` and ``POST /api/mark``).

Through the API: a whole partie entered deal by deal (as spoken, quick, by the cards, an annulled and a void
deal on the way) scores as ``piquet.marker`` scores its record; the settlement and the stakes are the marker's
and the book's; every refusal comes back 422 with its law and its field, and the record sent is the partie
still; a corrupt or hostile record is a 400 with a message, never a 500.  The page is served and linked from the
lobby; the browser test (a phone, by tapping) is at the end.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from piquet.marker.record import marked_from_json
from piquet.marker.telling import partie_text

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

#: The treatise's example deal (p. 103-105), as spoken: Ann elder 28, Bob younger 23.
SPOKEN: dict[str, Any] = {
    "declared": {"elder": {"point": {"cards": 5, "value": 49}, "sequences": [{"length": 4, "head": "A"}],
                           "sets": [{"size": 3, "rank": "J"}]},
                 "replies": {"point": "good", "sequences": "good", "sets": "not good"},
                 "younger": {"point": {"cards": 5, "value": 48},
                             "sets": [{"size": 4, "rank": "10"}, {"size": 3, "rank": "Q"}]}},
    "tricks": {"elder": 7}, "play_points": {"elder": 9, "younger": 6}}


def quick(elder: tuple[int, int, int], younger: tuple[int, int, int], tricks: int, pe: int, py: int,
          **more: Any) -> dict[str, Any]:
    names = ("point", "sequences", "sets")
    return {"scored": {"elder": dict(zip(names, elder, strict=True)),
                       "younger": dict(zip(names, younger, strict=True))},
            "tricks": {"elder": tricks}, "play_points": {"elder": pe, "younger": py}, **more}


def post(client: TestClient, body: Any, status: int = 200) -> dict[str, Any]:
    r = client.post("/api/mark", json=body)
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def begin(client: TestClient, rules: str = "rubicon", first: str = "B") -> dict[str, Any]:
    return post(client, {"action": "new", "players": ["Ann", "Bob"], "rules": rules, "first_dealer": first})


def add(client: TestClient, doc: dict[str, Any], deal: dict[str, Any], status: int = 200) -> dict[str, Any]:
    return post(client, {"action": "add", "record": doc["record"], "deal": deal}, status)


# ---------------------------------------------------------------- a partie through the API


def test_a_whole_partie_scores_as_the_marker_does(client: TestClient) -> None:
    doc = begin(client)
    assert doc["state"]["next"]["words"] == "Deal 1 of 6: Bob deals; Ann is elder hand."
    assert doc["record"]["marked"] is True and doc["record"]["deals"] == []
    doc = add(client, doc, SPOKEN)
    last = doc["state"]["deals"][-1]
    assert last["totals"] == {"A": 28, "B": 23} and last["tricks"] == {"A": 7, "B": 5}
    # Law 67's order: the point, the sequence, the quatorze and trio, the play, the cards.
    assert [(o["name"], o["heading"], o["points"]) for o in last["order"]] == [
        ("Ann", "the point", 5), ("Ann", "sequences", 4), ("Bob", "quatorzes and trios", 14),
        ("Bob", "quatorzes and trios", 3),
        ("Ann", "the play", 9), ("Bob", "the play", 6), ("Ann", "the cards", 10)]
    assert '  Ann: "Five cards."' in last["lines"] and '  Bob: "What do they make?"' in last["lines"]
    assert last["lines"][-1] == "  Deal 1: Ann 28, Bob 23."
    assert doc["state"]["next"]["words"] == "Deal 2 of 6: Ann deals; Bob is elder hand."
    # A misdeal: the same dealer deals again; a void deal: the deals before stand.
    doc = post(client, {"action": "annul", "record": doc["record"]})
    assert doc["record"]["deals"][-1] == {"dealer": "A", "status": "annulled"}
    assert doc["state"]["next"]["words"] == "Deal 2 of 6: Ann deals; Bob is elder hand."
    doc = post(client, {"action": "void", "record": doc["record"]})
    assert doc["state"]["deals"][-1]["lines"][0].endswith("the right dealer deals (Laws 16, 75).")
    # Bob elder: a repique (thirty in hand before the other counts), and a capot.
    doc = add(client, doc, quick((8, 16, 14), (0, 0, 0), 12, 13, 0))
    assert doc["state"]["deals"][-1]["totals"] == {"B": 8 + 16 + 14 + 60 + 13 + 40, "A": 0}
    order = [(o["heading"], o["points"]) for o in doc["state"]["deals"][-1]["order"]]
    assert ("repique", 60) in order and order[-1] == ("the cards", 40)
    assert "A capot, forty: one hundred and fifty-one." in doc["state"]["deals"][-1]["order"][-1]["words"]
    doc = add(client, doc, quick((0, 0, 3), (6, 4, 0), 5, 7, 8, carte_blanche="elder"))
    assert doc["state"]["deals"][-1]["order"][0] == {"seat": "A", "name": "Ann", "heading": "carte blanche",
                                                     "points": 10, "words": "Ten for carte blanche: ten."}
    doc = add(client, doc, quick((4, 3, 14), (0, 0, 0), 6, 7, 7))
    doc = add(client, doc, quick((5, 0, 0), (0, 3, 0), 6, 8, 7))
    doc = add(client, doc, quick((0, 0, 0), (6, 0, 14), 6, 8, 8))
    state, record = doc["state"], doc["record"]
    assert state["finished"] and state["next"] is None
    partie = marked_from_json(json.dumps(record))
    assert partie.is_finished and state["scores"] == partie.scores
    assert [d["counts_as"] for d in state["deals"] if d["counts"]] == partie.deal_points
    s = partie.settlement()
    assert state["settlement"]["winner"] == s.winner and state["settlement"]["points_won"] == s.points_won
    assert state["settlement"]["words"] == partie_text(partie).splitlines()[-1]
    # Every line the page shows is the marker's own telling of the record.
    told = [line for d in state["deals"] for line in d["lines"]]
    assert told == partie_text(partie).splitlines()[1:-2]
    # The stakes, by the book's customs (p. 101): the same as piquet settle.
    doc = post(client, {"action": "state", "record": record, "stake": "10s a hundred", "custom": "fifty"})
    assert doc["state"]["stakes"] and any("10s a hundred" in line for line in doc["state"]["stakes"])
    err = post(client, {"action": "state", "record": record, "stake": "10 a week"}, 422)
    assert err["field"] == "stake" and "cannot read the stake" in err["error"]
    # Nothing more can be added; undo takes back the last deal.
    err = add(client, doc, quick((0, 0, 0), (0, 0, 0), 6, 7, 7), 422)
    assert "the partie is over" in err["error"] and err["law"] == "Law 71"
    doc = post(client, {"action": "undo", "record": record})
    assert len(doc["record"]["deals"]) == len(record["deals"]) - 1 and not doc["state"]["finished"]


def test_four_deal_and_au_cent(client: TestClient) -> None:
    doc = begin(client, "four-deal", "A")
    assert doc["state"]["next"]["words"] == "Deal 1 of 4, counting double: Ann deals; Bob is elder hand."
    doc = add(client, doc, quick((5, 4, 0), (0, 0, 17), 7, 9, 6))
    assert doc["state"]["scores"] == {"B": 56, "A": 46}
    doc = post(client, {"action": "new", "players": ["Ann", "Bob"], "rules": "au-cent", "agreements": ["fours"],
                        "first_dealer": "B"})
    assert doc["record"]["agreements"] == ["fours"] and doc["state"]["of_games"] is True
    doc = add(client, doc, SPOKEN)
    assert doc["state"]["next"]["words"].startswith("Deal 2 (game 1, standing at ")


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(("deal", "field", "law", "words"), [
    (quick((5, 4, 0), (4, 0, 17), 7, 9, 6), "point", "Law 62", "both score for the point"),
    (quick((9, 0, 0), (0, 0, 0), 7, 9, 6), "point", "Law 62", "the elder's point cannot score 9"),
    (quick((5, 0, 0), (0, 0, 0), 13, 9, 6), "play", "Law 65", "not 13"),
    (quick((5, 0, 0), (0, 0, 0), 7, 9, 60), "play", "Law 65", "twelve tricks cannot give"),
    ({**SPOKEN, "declared": {**SPOKEN["declared"], "replies": {"point": "not good", "sequences": "good",
                                                                "sets": "not good"}}},
     "point", "Law 62", "the reply to the point is good, not not good"),
    ({**SPOKEN, "declared": {**SPOKEN["declared"], "replies": {"sequences": "good", "sets": "not good"}}},
     "point", "Law 46", "the younger answers good, equal or not good"),
    ({**SPOKEN, "declared": {**SPOKEN["declared"], "elder": {"point": {"cards": 5, "value": 52}}}},
     "point", "Law 62", "five cards of one suit make 44 to 51, not 52"),
    ({**SPOKEN, "declared": {**SPOKEN["declared"], "elder": {
        "point": {"cards": 5, "value": 49}, "sequences": [{"length": 5, "head": "7"}]}}},
     "sequences", "Law 63", "cannot be headed by the 7"),
    ({**SPOKEN, "declared": {**SPOKEN["declared"], "elder": {
        "point": {"cards": 5, "value": 49}, "sequences": [{"length": 3, "head": "A"}] * 5}}},
     "sequences", "Law 63", "at most four sequences"),
    ({**SPOKEN, "declared": {**SPOKEN["declared"], "elder": {
        "point": {"cards": 5, "value": 49}, "sequences": [{"length": 4, "head": "A"}],
        "sets": [{"size": 3, "rank": "Q"}]}}},
     "sets", "Law 64", "both hands cannot hold"),
    (quick((0, 0, 0), (0, 0, 0), 7, 9, "x"), "play", None, "a whole number, found \"x\""),
    ({"scored": {}}, "play", None, "enter the play"),
    ({"tricks": {"elder": 6}, "play_points": {"elder": 6, "younger": 6}}, "hands", None, "enter the hands"),
    (quick((6, 16, 0), (0, 0, 0), 8, 9, 5), "pique", "Law 69", "say whether the elder made a pique"),
    (quick((0, 0, 0), (0, 0, 0), 6, 7, 7, carte_blanche="the dealer"), "carte_blanche", "Law 18", "\"elder\" or"),
    ({**quick((0, 0, 0), (0, 0, 0), 6, 6, 6), "play": ["AH", "AH"]}, "play", "Law 75", "AH is played twice"),
    ({"scored": {}, "play": ["ZZ"]}, "play", "Law 75", ""),
    (quick((0, 0, 0), (0, 0, 0), 6, 7, 7, dealer="B"), "deal", "Law 16", "it is Ann's deal"),
    ("nonsense", "deal", None, "the deal is an object"),
])
def test_a_refusal_says_its_law_and_leaves_the_partie(client: TestClient, deal: Any, field: str, law: str | None,
                                                      words: str) -> None:
    doc = add(client, begin(client), quick((5, 4, 0), (0, 0, 17), 7, 9, 6))
    err = add(client, doc, deal, 422)
    assert set(err) == {"error", "law", "field"}
    assert (err["field"], err["law"]) == (field, law), err
    assert words in err["error"], err
    # The record sent is the partie still: asked again, it is as it was.
    again = post(client, {"action": "state", "record": doc["record"]})
    assert again == doc


def test_pique_and_the_answer_to_it(client: TestClient) -> None:
    doc = begin(client)
    err = add(client, doc, quick((6, 16, 0), (0, 0, 0), 8, 9, 5), 422)
    assert err["field"] == "pique"
    doc = add(client, doc, quick((6, 16, 0), (0, 0, 0), 8, 9, 5, pique=True))
    assert doc["state"]["deals"][-1]["totals"] == {"A": 6 + 16 + 9 + 30 + 10, "B": 5}
    assert ("pique", 30) in [(o["heading"], o["points"]) for o in doc["state"]["deals"][-1]["order"]]
    doc = add(client, begin(client), quick((6, 16, 0), (0, 0, 0), 8, 9, 5, pique=False))
    assert doc["state"]["deals"][-1]["totals"] == {"A": 6 + 16 + 9 + 10, "B": 5}


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"action": "new", "players": ["Ann"], "first_dealer": "A"}, "players", "the two players' names"),
    ({"action": "new", "players": ["Ann", " ann "], "first_dealer": "A"}, "players", "different names"),
    ({"action": "new", "players": ["Ann", ""], "first_dealer": "A"}, "players", "each player has a name"),
    ({"action": "new", "players": ["Ann", "B" * 41], "first_dealer": "A"}, "players", "at most 40"),
    ({"action": "new", "players": ["Ann", "Bob"], "rules": "bezique", "first_dealer": "A"}, "rules", "bezique"),
    ({"action": "new", "players": ["Ann", "Bob"]}, "first_dealer", "say who deals first"),
])
def test_a_new_partie_refused(client: TestClient, body: dict[str, Any], field: str, words: str) -> None:
    err = post(client, body, 422)
    assert err["field"] == field and words in err["error"], err


# ---------------------------------------------------------------- corrupt and hostile records


def _record(**changes: Any) -> dict[str, Any]:
    doc = {"format": "piquet-record/1", "rules": "rubicon", "players": {"A": "Ann", "B": "Bob"}, "marked": True,
           "first_dealer": "B", "deals": [quick((5, 4, 0), (0, 0, 17), 7, 9, 6, dealer="B")]}
    return doc | changes


@pytest.mark.parametrize(("record", "words"), [
    (None, "a marked partie's record is a JSON object"),
    ([1, 2], "a marked partie's record is a JSON object"),
    ("{not json", "not valid JSON"),
    ({"format": "piquet-record/1", "deals": []}, "not a marked partie"),
    (_record(format="piquet-record/9"), "unknown format"),
    (_record(rules="bezique"), "the record: "),
    (_record(players=["Ann", "Bob"]), "'players' is an object"),
    (_record(deals={"a": 1}), "'deals' is a list"),
    (_record(deals=[5]), "deal 1: a deal is an object"),
    (_record(deals=[{"dealer": "B", "declared": 5}]), "deal 1: not a deal as a marked record writes it"),
    (_record(deals=[{"dealer": "B", "declared": {"elder": {"point": 5}}}]), "deal 1: not a deal"),
    (_record(deals=[{"dealer": "B", "scored": {"elder": []}}]), "deal 1: not a deal"),
    (_record(deals=[{"dealer": "B", "reckons_nothing": 7}]), "deal 1: not a deal"),
    (_record(deals=[{"dealer": "A", **quick((5, 4, 0), (0, 0, 17), 7, 9, 6)}]), "it is Bob's deal"),
    (_record(deals=[{"dealer": "B", **quick((5, 4, 0), (0, 0, 17), 7, 9, 60)}]), "(Law 65)"),
    (_record(deals=[{"dealer": "B", "status": "abandoned"}]), "a deal is played, annulled, void or lost"),
    (_record(deals=[{"dealer": "B", "status": "lost"}]), "says who lost it, the elder or the younger"),
    (_record(deals=[{"dealer": "B", "status": "lost", "lost_by": "elder"}]),
     "a game is lost only at a game of so many up"),
    (_record(first_dealer="C"), "the first dealer is A or B"),
    (_record(deals=[{"dealer": "B", "status": "void"}] * 201), "at most 200 deals"),
    (_record(deals=[{"dealer": "B", "declared": {"elder": {"point": {"cards": 5}, "sequences": [
        {"length": 3, "head": "A"}] * 40}, "replies": {"point": "good", "sequences": "good"}}}]),
     "at most four sequences"),
])
def test_a_corrupt_record_is_a_400(client: TestClient, record: Any, words: str) -> None:
    for action in ("state", "add", "undo", "annul"):
        err = post(client, {"action": action, "record": record, "deal": quick((0, 0, 0), (0, 0, 0), 6, 6, 6)}, 400)
        assert list(err) == ["error"] and err["error"].startswith("the record") and words in err["error"], err


def test_a_body_that_is_not_right(client: TestClient) -> None:
    for raw in (b"{", b"\xff\xfe", b"", b"[" * 100_000):
        r = client.post("/api/mark", content=raw, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and "the body is a JSON object" in r.json()["error"]
    assert client.post("/api/mark", content=b" " * (300 * 1024)).status_code == 413
    assert "unknown action \"fly\"" in post(client, {"action": "fly"}, 400)["error"]
    assert "the body is a JSON object" in post(client, [1], 400)["error"]
    assert post(client, {"action": "undo", "record": begin(client)["record"]}, 422)["error"] == "nothing to take back"
    assert client.get("/api/mark").status_code == 405


# ---------------------------------------------------------------- the page


def test_the_page_is_served_and_linked(client: TestClient) -> None:
    r = client.get("/mark")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert '<script type="module" src="/static/mark.js"></script>' in page and "://" not in page
    for testid in ("setup", "name-a", "name-b", "rules-select", "first-dealer-A", "start", "scoreboard", "deal-form",
                   "cb-none", "mode-spoken", "mode-quick", "e-point-value", "r-point-good", "q-elder-point",
                   "e-tricks", "e-play", "y-play", "play-cards", "score-deal", "err-point", "err-play", "err-hands",
                   "something-wrong", "referee-slot", "annul-deal", "void-deal", "undo-deal", "download-record",
                   "partie-end", "settlement-words", "stake-input", "settle-stakes", "deal-history"):
        assert f'data-testid="{testid}"' in page, testid
    script = client.get("/static/mark.js")
    assert script.status_code == 200 and "/api/mark" in script.text and "://" not in script.text
    lobby = client.get("/").text
    assert '<a href="/mark"' in lobby and "Mark a partie played with cards" in lobby


def test_what_the_browser_keeps_is_what_piquet_reads(client: TestClient, tmp_path: Path) -> None:
    """The record the page downloads (the server's, as JSON) is read by piquet replay and piquet settle."""
    from piquet.cli.main import main

    doc = begin(client)
    for i in range(6):
        doc = add(client, doc, quick((5, 4, 0), (0, 0, 17), 7, 9, 6) if i % 2 else quick((6, 0, 0), (0, 4, 0), 8, 9, 5))
    assert doc["state"]["finished"]
    path = tmp_path / "marked.json"
    path.write_text(json.dumps(doc["record"], indent=2), encoding="utf-8")
    assert main(["settle", str(path), "--stake", "10s a hundred"]) == 0
    assert main(["replay", str(path)]) == 0


# ---------------------------------------------------------------- in a browser, on a phone

PHONE = {"width": 360, "height": 740}
#: Deals 2 to 6 of the browser's partie, quick: (elder's, younger's scores), elder's tricks, play points.
QUICK_DEALS = [((5, 4, 0), (0, 0, 17), 7, 9, 6), ((6, 0, 0), (0, 4, 0), 8, 9, 5), ((0, 0, 3), (6, 4, 0), 5, 7, 8),
               ((4, 3, 14), (0, 0, 0), 6, 7, 7), ((5, 0, 0), (0, 3, 0), 6, 8, 7)]


@pytest.mark.browser
def test_a_partie_marked_by_tapping_on_a_phone(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A rubicon partie marked on a 360 px touch screen: the first deal as spoken (the treatise's, p. 103-105)
    with a wrong reply refused by its field and put right, five deals quick, a reload in the middle and at the end
    losing nothing, the partie's scores, its settlement and the stakes, and the record downloaded."""
    e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")
    from piquet.marker.partie import card_partie
    from piquet.stakes.settlement import FIFTY, Session, Stake

    with e2e.touch_page(tmp_path_factory.mktemp("mark-server"), PHONE) as (srv, page, errors):
        t = page.get_by_test_id

        def no_overflow(where: str) -> None:
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{where}: the page scrolls sideways ({width} px)"

        def deals_marked(n: int) -> None:
            page.wait_for_function(f"() => document.body.dataset.deals === '{n}'")

        page.goto(srv.base + "/")
        t("mark-link").tap()
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        t("name-a").fill("Ann")
        t("name-b").fill("Bob")
        t("first-dealer-B").tap()
        no_overflow("the start")
        t("start").tap()
        t("next-deal").wait_for()
        page.wait_for_function("() => /Deal 1 of 6: Bob deals; Ann is elder hand/.test("
                               "document.querySelector('[data-testid=next-deal]').textContent)")
        # The first deal as spoken: Ann "Five." Bob "What do they make?" "Forty-nine." Bob: "Not good" (wrong).
        t("e-point-5").tap()
        t("e-point-value").fill("49")
        t("r-point-not-good").tap()
        t("eSeqs-add").tap()
        t("eSeqs-0-a").select_option("4")
        t("eSeqs-0-b").select_option("A")
        t("r-seqs-good").tap()
        t("eSets-add").tap()
        t("eSets-0-a").select_option("3")
        t("eSets-0-b").select_option("J")
        t("r-sets-not-good").tap()
        t("y-point-5").tap()
        t("y-point-value").fill("48")
        t("ySets-add").tap()
        t("ySets-0-a").select_option("4")
        t("ySets-0-b").select_option("10")
        t("ySets-add").tap()
        t("ySets-1-a").select_option("3")
        t("ySets-1-b").select_option("Q")
        t("e-tricks").fill("7")
        t("e-play").fill("9")
        t("y-play").fill("6")
        assert t("y-tricks").inner_text() == "5"
        no_overflow("the deal as spoken")
        t("score-deal").tap()
        err = t("err-point")
        err.wait_for(state="visible")
        assert "the reply to the point is good, not not good" in err.inner_text() and "Law 62" in err.inner_text()
        # Nothing entered is lost: the form is as it was, and is put right by one tap.
        assert t("e-point-value").input_value() == "49" and t("y-point-value").input_value() == "48"
        assert t("ySets-1-b").input_value() == "Q" and t("e-play").input_value() == "9"
        assert page.evaluate("() => document.body.dataset.deals") == "0"
        t("r-point-good").tap()
        t("score-deal").tap()
        deals_marked(1)
        assert err.is_hidden()
        assert (t("score-A").inner_text(), t("score-B").inner_text()) == ("28", "23")
        order = t("last-order").inner_text()
        assert "Ann: Five for the point: five." in order and "Bob: Fourteen for quatorzes and trios" in order
        no_overflow("the deal scored")
        # Five deals quick; a reload after the third loses nothing (nor the deal being typed).
        for n, (elder, younger, tricks, pe, py) in enumerate(QUICK_DEALS, 2):
            t("mode-quick").tap()
            for role, scores in (("elder", elder), ("younger", younger)):
                for cat, v in zip(("point", "sequences", "sets"), scores, strict=True):
                    if v:
                        t(f"q-{role}-{cat}").fill(str(v))
            t("e-tricks").fill(str(tricks))
            t("e-play").fill(str(pe))
            t("y-play").fill(str(py))
            if n == 4:
                before = (t("score-A").inner_text(), t("score-B").inner_text())
                page.reload()
                page.wait_for_function("() => document.body.dataset.ready === 'true'")
                assert (t("score-A").inner_text(), t("score-B").inner_text()) == before
                assert t("quick").is_visible() and t("e-play").input_value() == str(pe)
            no_overflow(f"deal {n}")
            t("score-deal").tap()
            deals_marked(n)
        # The partie as piquet.marker scores it, its settlement in the marker's words, and the stakes.
        with page.expect_download() as info:
            t("download-record").tap()
        partie = marked_from_json(Path(info.value.path()).read_text(encoding="utf-8"))
        assert partie.is_finished and len(partie.deals) == 6
        assert (t("score-A").inner_text(), t("score-B").inner_text()) == (str(partie.scores["A"]),
                                                                          str(partie.scores["B"]))
        end = t("partie-end")
        assert end.is_visible() and t("deal-form").is_hidden()
        assert t("settlement-words").inner_text() == partie_text(partie).splitlines()[-1]
        t("stake-input").fill("10s a hundred")
        t("settle-stakes").tap()
        expected = Session.of([(partie.players, card_partie(partie))]).settle(Stake.parse("10s a hundred"),
                                                                              FIFTY).lines()
        page.wait_for_function("() => document.querySelector('[data-testid=stakes-words]').children.length > 0")
        assert [x for x in t("stakes-words").inner_text().split("\n") if x.strip()] == expected
        no_overflow("the end")
        page.reload()
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        assert t("settlement-words").inner_text() == partie_text(partie).splitlines()[-1]
        # Undo takes back the last deal; the deal form is back.
        t("undo-deal").tap()
        deals_marked(5)
        assert t("deal-form").is_visible() and t("partie-end").is_hidden()
        assert errors == []
