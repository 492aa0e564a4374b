"""The marker in the browser (``piquet.web.mark``: ``/mark`` and ``POST /api/mark``).

Through the API: a whole partie entered deal by deal (as spoken, quick, by the cards, an annulled and a void
deal on the way) scores as ``piquet.marker`` scores its record; the settlement and the stakes are the marker's
and the book's; every refusal comes back 422 with its law and its field, and the record sent is the partie
still; a corrupt or hostile record is a 400 with a message, never a 500.  Something went wrong: the referee's
ruling (``rule``) and its choice applied (``wrong``) in each group of the laws, the outcomes written from the
laws, and the refusals.  The page is served and linked from the lobby; the browser tests (a phone, by tapping: a
partie, and a partie with an irregularity of each group) are at the end.
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
from piquet.talk.laws import law_notes

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
    assert set(err) == {"error", "law", "field", "explained"}
    assert (err["field"], err["law"]) == (field, law), err
    assert words in err["error"], err
    # As the terminal says it: the refusal, its law, and what the law says (talk.laws).
    assert err["explained"].startswith(err["error"]), err
    for note in law_notes(f"({law})" if law else ""):
        assert note in err["explained"], err
    if law == "Law 62":
        assert err["explained"].endswith("(Law 62). Law 62: The largest point is good and scores one a card."), err
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
    for action in ("state", "add", "undo", "annul", "rule", "wrong"):
        err = post(client, {"action": action, "record": record, "deal": quick((0, 0, 0), (0, 0, 0), 6, 6, 6),
                            "kind": "revoke", "facts": {"offender": "elder"}, "remedy": "take-back"}, 400)
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


# ---------------------------------------------------------------- something went wrong: the referee
#
# Each group of the catalogue, the rulings and their effects as the laws (1896) give them: who chooses, what
# is done to the deal being entered (its dealer, its penalties) or to the partie (annulled, void, a game lost,
# a score put right), and what concerns only the cards on the table (told; nothing changes).


def rule_of(client: TestClient, doc: dict[str, Any], kind: str, facts: dict[str, Any] | None = None,
            pending: dict[str, Any] | None = None, status: int = 200) -> dict[str, Any]:
    body = {"action": "rule", "record": doc["record"], "kind": kind, "facts": facts or {}}
    return post(client, body | ({"pending": pending} if pending is not None else {}), status)


def wrong(client: TestClient, doc: dict[str, Any], kind: str, facts: dict[str, Any] | None, remedy: str,
          pending: dict[str, Any] | None = None, status: int = 200, **more: Any) -> dict[str, Any]:
    body = {"action": "wrong", "record": doc["record"], "kind": kind, "facts": facts or {}, "remedy": remedy}
    return post(client, body | ({"pending": pending} if pending is not None else {}) | more, status)


def remedies(ruling: dict[str, Any]) -> list[str]:
    return [o["remedy"] for o in ruling["options"]]


def first_deal(client: TestClient, rules: str = "rubicon") -> dict[str, Any]:
    """Deal 1 (Bob deals, Ann elder): Ann 28, Bob 23; deal 2 is Ann's to deal, Bob elder."""
    doc = add(client, begin(client, rules), quick((5, 4, 0), (0, 0, 17), 7, 9, 6))
    assert doc["state"]["scores"] == {"A": 28, "B": 23} and doc["state"]["next"]["dealer"] == "A"
    return doc


def test_the_catalogue_by_group(client: TestClient) -> None:
    """``GET /api/mark/referee``: every irregularity, by group as piquet mark lists them, with its laws and
    facts, and each fact's question and the value it has unless said."""
    cat = client.get("/api/mark/referee").json()
    assert [g["name"] for g in cat["groups"]] == ["the cut", "the deal", "the exchange", "eleven or thirteen cards",
                                                  "calling", "the play", "scoring", "the pack"]
    entries = {e["kind"]: e for g in cat["groups"] for e in g["entries"]}
    assert len(entries) == 36
    assert entries["revoke"] == {"kind": "revoke", "label": "He revoked (did not follow suit when he could)",
                                 "facts": ["offender"], "laws": "Law 59 IV"}
    assert cat["facts"]["elder_cards"] == {"question": "How many cards has the elder?", "number": True, "default": 12}
    assert cat["facts"]["allowed"]["default"] is True and cat["facts"]["offender"]["default"] is None


def test_the_cut(client: TestClient) -> None:
    """Law 7: a card exposed in cutting to the dealer: a fresh cut; nothing in the score changes.  Law 5 (a
    card too many exposed in cutting for deal: cut again); at au cent (p. 16) the lowest may be taken as cut."""
    doc = first_deal(client)
    r = rule_of(client, doc, "cut-to-dealer-exposed")
    assert r["record"] == doc["record"]
    ruling = r["ruling"]
    assert (ruling["law"], ruling["chooser"], ruling["who"]) == ("Law 7", None, "The law decides; nobody chooses.")
    assert remedies(ruling) == ["cut-again"] and ruling["options"][0]["effect"].endswith("nothing changes in the score")
    w = wrong(client, doc, "cut-to-dealer-exposed", {}, "cut-again")
    assert w["record"] == doc["record"] and w["state"] == doc["state"]
    assert w["applied"]["says"] == "Cut again (Law 7). Nothing changes in the score."
    assert not w["applied"]["deal_over"] and w["applied"]["note"] is None
    assert rule_of(client, doc, "cut-for-deal-exposed")["ruling"]["law"] == "Law 5"
    au = rule_of(client, first_deal(client, "au-cent"), "cut-for-deal-exposed")["ruling"]
    assert au["law"] == "p. 16 (1)" and remedies(au) == ["lowest-cut", "cut-again"]


def test_the_deal(client: TestClient) -> None:
    """Law 16: a deal out of turn found before a card is taken up is void, and the right dealer deals; found too
    late, the elder of it deals twice running (unless it or the next is the last: the deal stands, and the deals
    alternate).  Law 12: more than one card dealt wrongly, found after a hand is taken up: a fresh deal by the
    same dealer.  Law 14: a faced card: a fresh deal."""
    doc = first_deal(client)  # Ann's deal is next
    # Bob deals out of turn, found at once: void; Ann, the right dealer, deals.
    w = wrong(client, doc, "out-of-turn", {"hand_taken_up": False, "last_deal": False}, "void",
              pending={"dealer": "B", "out_of_turn": True})
    assert w["record"]["deals"][-1] == {"dealer": "B", "status": "void"} and w["applied"]["deal_over"]
    assert w["state"]["next"]["dealer"] == "A" and w["state"]["scores"] == {"A": 28, "B": 23}
    assert w["applied"]["says"] == "The deal is void; the deals before stand. Ann deals (Law 16)."
    assert w["applied"]["pending"]["dealer"] == "A" and not w["applied"]["pending"]["out_of_turn"]
    # Bob deals out of turn again, found too late: the deal stands; Ann, its elder, deals twice running after it.
    r = rule_of(client, w, "out-of-turn", {"hand_taken_up": True, "last_deal": False})["ruling"]
    assert r["law"] == "Law 16" and remedies(r) == ["deal-twice"]
    w = wrong(client, w, "out-of-turn", {"hand_taken_up": True, "last_deal": False}, "deal-twice")
    pending = w["applied"]["pending"]
    assert {k: pending[k] for k in ("dealer", "elder", "out_of_turn")} == {"dealer": "B", "elder": "A",
                                                                         "out_of_turn": True}
    assert pending["words"] == "Deal 2 of 6: Bob deals; Ann is elder hand."
    assert w["applied"]["note"] == "Bob dealt out of turn, found too late (Law 16)."
    assert w["record"] == doc["record"] | {"deals": w["record"]["deals"]} and len(w["record"]["deals"]) == 2
    # The page sends the deal as pending says; Ann then deals deals 3 and 4, Bob 5, Ann 6.
    doc = add(client, w, quick((5, 0, 0), (0, 0, 0), 6, 7, 7, dealer="B", out_of_turn=True))
    assert doc["state"]["deals"][-1]["lines"][0] == ("Deal 2: Bob deals; Ann is elder hand. Dealt out of turn, "
                                                     "found too late (Law 16).")
    assert doc["state"]["next"]["dealer"] == "A"
    doc = add(client, doc, quick((0, 0, 0), (0, 0, 0), 6, 7, 7))
    assert doc["state"]["next"]["dealer"] == "A"
    # Law 12: more than one card dealt wrongly, a hand taken up: a fresh deal; Ann (the same dealer) deals again.
    r = rule_of(client, doc, "misdealt", {"hand_taken_up": True, "more_than_one": True})["ruling"]
    assert (r["law"], remedies(r)) == ("Law 12", ["fresh-deal"])
    w = wrong(client, doc, "misdealt", {"hand_taken_up": True, "more_than_one": True}, "fresh-deal")
    assert w["record"]["deals"][-1] == {"dealer": "A", "status": "annulled"} and w["applied"]["deal_over"]
    assert w["state"]["next"]["dealer"] == "A" and w["state"]["scores"] == doc["state"]["scores"]
    # Law 10: found before a hand is taken up, the dealer may put it right, with the elder's leave.
    r = rule_of(client, doc, "misdealt", {"hand_taken_up": False, "more_than_one": True})["ruling"]
    assert (r["chooser"], r["chooser_name"], remedies(r)) == ("elder", "Bob", ["rectify", "fresh-deal"])
    assert r["who"] == "Bob chooses:"
    assert rule_of(client, doc, "faced-card")["ruling"]["law"] == "Law 14"
    # Found too late at the last deal: the deal stands, and the deals alternate (Law 16).
    r = rule_of(client, doc, "out-of-turn", {"hand_taken_up": True, "last_deal": True})["ruling"]
    assert remedies(r) == ["stands"] and r["options"][0]["effect"] == "the deal stands, out of turn"


def test_the_exchange(client: TestClient) -> None:
    """Law 35: the younger taking more than he discarded, having left cards, reckons nothing that deal, unless
    the elder waives it (Law 44); his cards still bar (Law 58).  Case XIII: a card left apart, not announced,
    may be taken in (at the table; nothing in the score)."""
    doc = first_deal(client)  # deal 2: Ann deals, so Bob is elder, Ann younger
    r = rule_of(client, doc, "took-more", {"offender": "younger"})["ruling"]
    assert (r["law"], r["chooser"], r["chooser_name"]) == ("Law 35", "elder", "Bob")
    assert remedies(r) == ["more-than-twelve", "waive"]
    assert r["options"][0]["says"].startswith("Ann (the younger) plays with more than twelve cards")
    w = wrong(client, doc, "took-more", {"offender": "younger"}, "more-than-twelve")
    assert w["record"] == doc["record"] and not w["applied"]["deal_over"]
    assert w["applied"]["pending"]["reckons_nothing"] == ["younger"] and w["applied"]["pending"]["waived"] == []
    assert w["applied"]["note"] == "Ann reckons nothing this deal; his calls still bar (Law 35)."
    # The deal as played: Bob's point 5 and 7 in play; Ann's quart good (it bars Bob's), her play: nothing scores.
    played = quick((5, 0, 0), (0, 4, 0), 6, 7, 7)
    done = add(client, w, {**played, "reckons_nothing": ["younger"]})
    assert done["state"]["deals"][-1]["totals"] == {"B": 12, "A": 0}
    assert "  Ann reckons nothing this deal; his calls still bar." in done["state"]["deals"][-1]["lines"]
    # Waived, she reckons what she holds.
    w = wrong(client, doc, "took-more", {"offender": "younger"}, "waive")
    p = w["applied"]["pending"]
    assert (p["reckons_nothing"], p["waived"]) == (["younger"], ["younger"])
    assert w["applied"]["says"] == "The penalty is not enforced: Ann reckons what he holds (Law 44)."
    done = add(client, w, {**played, "reckons_nothing": ["younger"], "waived": ["younger"]})
    assert done["state"]["deals"][-1]["totals"] == {"B": 12, "A": 11}
    # Case XIII: told, nothing changes.
    w = wrong(client, doc, "discarded-more", {"offender": "elder", "card_apart": True, "announced": False},
              "take-in-left")
    assert w["record"] == doc["record"] and "Case XIII" in w["applied"]["says"]


def test_eleven_or_thirteen_cards(client: TestClient) -> None:
    """Law 11: the elder with thirteen may have a fresh deal before taking up a card of the stock, or stand it
    (Law 40: he discards one more than he takes in); Law 39: having taken up a card unannounced, the deal stands;
    Law 58: playing with thirteen, he reckons nothing (the younger may waive it); Law 75: not thirty-two cards,
    the pack is incorrect and the deal void."""
    doc = first_deal(client)
    facts = {"hand_taken_up": True, "elder_cards": 13, "younger_cards": 11, "stock_cards": 8,
             "elder_took_stock": False, "announced": False}
    r = rule_of(client, doc, "wrong-count", facts)["ruling"]
    assert (r["law"], r["chooser_name"], remedies(r)) == ("Law 11", "Bob", ["fresh-deal", "stand-odd"])
    assert "Law 40" in r["options"][1]["says"]
    w = wrong(client, doc, "wrong-count", facts, "fresh-deal")
    assert w["record"]["deals"][-1] == {"dealer": "A", "status": "annulled"}
    w = wrong(client, doc, "wrong-count", facts | {"elder_took_stock": True}, "stand-odd")
    assert w["record"] == doc["record"] and w["applied"]["says"].startswith("The deal stands (Law 40)")
    assert w["applied"]["says"].endswith("(Law 39). Nothing changes in the score.")
    r = rule_of(client, doc, "played-wrong-number", {"offender": "elder", "cards_held": 13})["ruling"]
    assert (r["law"], r["chooser"]) == ("Law 58", "younger")
    w = wrong(client, doc, "played-wrong-number", {"offender": "elder", "cards_held": 13}, "more-than-twelve")
    assert w["applied"]["pending"]["reckons_nothing"] == ["elder"]
    w = wrong(client, doc, "wrong-count", facts | {"stock_cards": 9}, "void")
    assert w["record"]["deals"][-1] == {"dealer": "A", "status": "void"} and "Law 75" in w["applied"]["says"]
    assert w["state"]["next"]["dealer"] == "A"


def test_calling(client: TestClient) -> None:
    """Law 54: calling what he does not hold, allowed good and uncorrected when the younger played to the first
    trick, he reckons nothing (the younger may waive it, Law 44); Law 50: a smaller call than held, replied to,
    stands."""
    doc = first_deal(client)
    facts = {"offender": "elder", "allowed": True, "played_since": True, "misnomer": False, "impossible": False}
    r = rule_of(client, doc, "overcall", facts)["ruling"]
    assert (r["law"], r["chooser"], r["chooser_name"]) == ("Law 54", "younger", "Ann")
    assert remedies(r) == ["reckons-nothing", "waive"]
    w = wrong(client, doc, "overcall", facts, "reckons-nothing")
    assert w["applied"]["note"] == "Bob reckons nothing this deal; his calls still bar (Law 54)."
    done = add(client, w, {**quick((5, 0, 0), (0, 4, 0), 6, 7, 7), "reckons_nothing": ["elder"]})
    assert done["state"]["deals"][-1]["totals"] == {"B": 0, "A": 11}
    # The penalty carried and a second one on the other: both reckon nothing but what bars.
    w2 = wrong(client, w, "took-more", {"offender": "younger"}, "more-than-twelve", pending=w["applied"]["pending"])
    assert w2["applied"]["pending"]["reckons_nothing"] == ["elder", "younger"]
    r = rule_of(client, doc, "undercall", {"replied": True})["ruling"]
    assert (r["law"], remedies(r)) == ("Law 50", ["stands"])


def test_the_play(client: TestClient) -> None:
    """Law 59 IV: a revoke is taken back and played again; Law 59 III: a lead out of turn the adversary has played
    to stands.  Nothing in the score changes."""
    doc = first_deal(client)
    r = rule_of(client, doc, "revoke", {"offender": "younger"})["ruling"]
    assert (r["law"], remedies(r)) == ("Law 59 IV", ["take-back"])
    w = wrong(client, doc, "revoke", {"offender": "younger"}, "take-back")
    assert w["record"] == doc["record"] and w["applied"]["says"] == ("The cards taken back and played again "
                                                                     "(Law 59 IV). Nothing changes in the score.")
    w = wrong(client, doc, "lead-out-of-turn", {"offender": "elder", "adversary_played": True}, "stands")
    assert w["record"] == doc["record"] and w["applied"]["says"].startswith("The trick stands (Law 59 III)")


def test_scoring(client: TestClient) -> None:
    """Law 70: errors in counting, proved before the player in error has seen his next hand, are put right: the
    deal's scores entered again; after, the score stands.  Law 74: where the written scores differ, each
    player's score of his own hand is taken."""
    doc = first_deal(client)
    r = rule_of(client, doc, "miscounted", {"offender": "younger", "seen_next_hand": False})["ruling"]
    assert (r["law"], remedies(r)) == ("Law 70", ["score-corrected"]) and r["options"][0]["corrects"]
    assert r["deals"] == [{"index": 0, "number": 1, "dealer": "B", "elder": "A", "words": "Deal 1: Ann 28, Bob 23"}]
    # Ann's point was six, not five: 29.
    again = {"deal": 0, **quick((6, 4, 0), (0, 0, 17), 7, 9, 6)}
    w = wrong(client, doc, "miscounted", {"offender": "younger", "seen_next_hand": False}, "score-corrected",
              correct=again)
    assert w["applied"]["says"] == "Deal 1 is corrected (Law 70)." and not w["applied"]["deal_over"]
    assert w["state"]["scores"] == {"A": 29, "B": 23} and w["record"]["deals"][0]["corrected"] is True
    assert w["record"]["deals"][0]["scored"]["elder"]["point"] == 6
    assert "  The score was put right (Law 70)." in w["state"]["deals"][0]["lines"]
    w = wrong(client, doc, "miscounted", {"offender": "younger", "seen_next_hand": True}, "stands")
    assert w["record"] == doc["record"] and w["applied"]["says"].startswith("The score stands (Law 70)")
    w = wrong(client, doc, "scores-differ", {}, "own-hand-score", correct=again)
    assert w["state"]["scores"] == {"A": 29, "B": 23} and w["applied"]["says"] == "Deal 1 is corrected (Law 74)."
    # A correction the laws refuse is shown by the correction, and nothing is lost.
    for more, words, law in (({}, "say which deal is put right", None),
                             ({"correct": {"deal": 3}}, "there is no deal 3 scored to put right", "Law 70"),
                             ({"correct": {**again, "tricks": {"elder": 13}}}, "not 13", "Law 65"),
                             ({"correct": {"deal": 0}}, "enter the hands", None)):
        err = wrong(client, doc, "miscounted", {"offender": "younger", "seen_next_hand": False}, "score-corrected",
                    status=422, **more)
        assert (err["field"], err["law"]) == ("correct", law) and words in err["error"], err


def test_the_pack(client: TestClient) -> None:
    """Law 75: an incorrect pack voids the deal in which it is found; the deals before stand, and the same
    dealer deals.  Case XVII: a surplus card found in his discard: he played with thirteen and reckons nothing."""
    doc = first_deal(client)
    w = wrong(client, doc, "incorrect-pack", {}, "void")
    assert w["record"]["deals"][-1] == {"dealer": "A", "status": "void"}
    assert w["state"]["next"]["dealer"] == "A" and w["state"]["scores"] == {"A": 28, "B": 23}
    assert w["applied"]["says"] == "The deal is void; the deals before stand. Ann deals (Law 75)."
    facts = {"offender": "younger", "in_discard": True, "surplus_played": False, "used_in_claim": False}
    r = rule_of(client, doc, "surplus-card", facts)["ruling"]
    assert (r["law"], r["chooser_name"], remedies(r)) == ("Case XVII", "Bob", ["more-than-twelve", "waive"])
    w = wrong(client, doc, "surplus-card", facts, "more-than-twelve")
    assert w["applied"]["pending"]["reckons_nothing"] == ["younger"]


def test_a_game_lost_at_au_cent_through_the_page(client: TestClient) -> None:
    """Au cent p. 17 (3): the elder mixing a bottom card of the stock with his hand loses the game: the deal
    scores nothing, the adversary wins a single game, and game 2 begins at nothing, the deals alternating."""
    doc = first_deal(client, "au-cent")  # Ann 28, Bob 23; Ann deals deal 2, Bob elder
    r = rule_of(client, doc, "elder-took-youngers", {"mixed": True})["ruling"]
    assert (r["law"], remedies(r)) == ("p. 17 (3)", ["game-lost"])
    assert r["options"][0]["says"] == "Bob (the elder) loses the game"
    w = wrong(client, doc, "elder-took-youngers", {"mixed": True}, "game-lost")
    assert w["record"]["deals"][-1] == {"dealer": "A", "status": "lost", "lost_by": "elder"}
    assert w["applied"]["deal_over"] and w["applied"]["says"].startswith("Bob loses the game (p. 17 (3)): Ann wins")
    state = w["state"]
    assert state["settlement"]["tally"] == {"A": 1, "B": 0} and not state["finished"]
    assert state["next"]["words"] == "Deal 3 (game 2, at nothing): Bob deals; Ann is elder hand."
    last = state["deals"][-1]
    assert (last["lost_by"], last["game_won"], last["counts_as"]) == ("B", {"seat": "A", "double": False},
                                                                      {"A": 0, "B": 0})
    # Rubicon has no game to lose: the same facts are Law 28's penalty.
    r = rule_of(client, first_deal(client), "elder-took-youngers", {"mixed": True})["ruling"]
    assert r["law"] == "Law 28" and remedies(r) == ["reckons-nothing", "fresh-deal", "waive"]


@pytest.mark.parametrize(("more", "words"), [
    ({"kind": "fly"}, "unknown irregularity \"fly\": one of cut-for-deal-exposed"),
    ({"kind": None}, "unknown irregularity null"),
    ({"facts": []}, "the facts are an object"),
    ({"facts": {"offender": "elder", "mixed": True}}, "asks no fact \"mixed\"; it asks offender"),
    ({"facts": {}}, "say the fact offender: Who is in error"),
    ({"facts": {"offender": "dealer"}}, "the \"elder\" or the \"younger\", not \"dealer\""),
    ({"kind": "played-wrong-number", "facts": {"offender": "elder", "cards_held": "13"}},
     "cards_held is a number of cards, 0 to 32, not \"13\""),
    ({"kind": "played-wrong-number", "facts": {"offender": "elder", "cards_held": True}}, "not true"),
    ({"kind": "out-of-turn", "facts": {"hand_taken_up": 1, "last_deal": False}}, "hand_taken_up is true or false"),
    ({"remedy": "fresh-deal"}, "the ruling (Law 59 IV) gives the choice of take-back, not \"fresh-deal\""),
    ({"remedy": None}, "gives the choice of take-back, not null"),
    ({"pending": {"dealer": "C"}}, "the dealer of the deal being entered is A or B"),
    ({"pending": {"dealer": "A", "out_of_turn": True}}, "Ann dealing is not out of turn"),
    ({"pending": {"dealer": "B"}, "remedy": "take-back"}, None),
    ({"pending": {"reckons_nothing": ["dealer"]}}, "lists roles"),
    ({"pending": {"reckons_nothing": [], "waived": ["elder"]}}, "only a penalty incurred can be waived"),
    ({"pending": "A"}, "is an object"),
])
def test_an_irregularity_refused(client: TestClient, more: dict[str, Any], words: str | None) -> None:
    """A kind, a fact, a remedy or a deal in hand that cannot be: 422 on the panel, saying what is wrong; the record
    sent is the partie still."""
    doc = first_deal(client)
    body = {"action": "wrong", "record": doc["record"], "kind": "revoke", "facts": {"offender": "younger"},
            "remedy": "take-back"} | more
    if words is None:  # Bob dealing deal 2 is out of turn: said so, it is fine
        assert post(client, body)["applied"]["pending"]["out_of_turn"] is True
        return
    for action in ("wrong",) if "choice" in words else ("rule", "wrong"):  # "rule" asks no remedy
        err = post(client, body | {"action": action}, 422)
        assert err["field"] == "wrong" and words in err["error"], err
    assert post(client, {"action": "state", "record": doc["record"]}) == doc


def test_an_irregularity_after_the_partie(client: TestClient) -> None:
    """The partie over, nothing more is marked (Law 71); the cards on the table may still be told."""
    doc = begin(client)
    for n in range(6):
        doc = add(client, doc, quick((6 if n == 0 else 0, 0, 0), (0, 0, 0), 7, 9, 6))
    assert doc["state"]["finished"]
    err = wrong(client, doc, "incorrect-pack", {}, "void", status=422)
    assert "the partie is over" in err["error"] and err["law"] == "Law 71"
    assert wrong(client, doc, "revoke", {"offender": "elder"}, "take-back")["record"] == doc["record"]


# ---------------------------------------------------------------- the calls' suits and a call not held
#
# Case IV (p. 22): "A calls a point headed by ace, and two tierce majors in other suits ... B cannot reckon three
# knaves"; Case II (p. 21): "A calls three kings, which B allows to be good.  It is presently discovered that A
# has not three kings.  B then claims to reckon four tens. ... Yes."

#: Ann (elder) calls five to the ace of spades, good, and tierce majors in hearts and clubs, good; Bob would
#: reckon three knaves; six tricks each.
CASE_IV: dict[str, Any] = {
    "declared": {"elder": {"point": {"cards": 5, "suit": "S", "head": "A"},
                           "sequences": [{"length": 3, "head": "A", "suit": "H"},
                                         {"length": 3, "head": "A", "suit": "C"}]},
                 "replies": {"point": "good", "sequences": "good"},
                 "younger": {"sets": [{"size": 3, "rank": "J"}]}},
    "tricks": {"elder": 6}, "play_points": {"elder": 7, "younger": 7}}


def test_case_iv_through_the_api(client: TestClient) -> None:
    """With the suits entered the cards shown make three aces: the knaves are refused by the field of the
    quatorzes and trios, citing Case IV, and the partie is unchanged; without them, nothing is barred."""
    doc = begin(client)
    err = add(client, doc, CASE_IV, 422)
    assert (err["field"], err["law"]) == ("sets", "Law 56, Case IV")
    assert err["error"].startswith("the younger cannot reckon three knaves: the cards the elder has shown make "
                                   "three aces")
    assert post(client, {"action": "state", "record": doc["record"]}) == doc
    # B's course is to play a card, saying nothing about knaves: Ann 5 + 6 + 7, Bob 7.
    silent = {**CASE_IV, "declared": {**CASE_IV["declared"], "younger": {}}}
    done = add(client, doc, silent)
    assert done["state"]["deals"][-1]["totals"] == {"A": 18, "B": 7}
    assert done["record"]["deals"][0]["declared"]["elder"] == CASE_IV["declared"]["elder"]
    # A sequence a point shown makes is barred by the field of the sequences: fifty-one is a quint major.
    quint = {"declared": {"elder": {"point": {"cards": 5, "value": 51}}, "replies": {"point": "good"},
                          "younger": {"sequences": [{"length": 5, "head": "K"}]}},
             "tricks": {"elder": 6}, "play_points": {"elder": 7, "younger": 7}}
    err = add(client, doc, quint, 422)
    assert (err["field"], err["law"]) == ("sequences", "Law 56, Case IV") and "a quint major" in err["error"]
    # Without the suits, the tierces may lie in the point's suit: two aces are sure, and the knaves are good.
    bare = json.loads(json.dumps(CASE_IV))
    del bare["declared"]["elder"]["point"]["suit"]
    for s in bare["declared"]["elder"]["sequences"]:
        del s["suit"]
    assert add(client, doc, bare)["state"]["deals"][-1]["totals"] == {"A": 18, "B": 10}


def test_case_ii_through_the_api(client: TestClient) -> None:
    """``wrong`` on a call of what is not held (Law 54), the penalty or its waiver, answers whose call the page
    marks "not held" and what to do, for the hands as spoken and as quick scores; the deal then sent with
    ``"held": false`` scores the adversary's good (Case II).  Another penalty asks no such thing."""
    doc = begin(client)
    facts = {"offender": "elder", "allowed": True, "played_since": True, "misnomer": False, "impossible": False}
    w = wrong(client, doc, "overcall", facts, "reckons-nothing")
    assert w["record"] == doc["record"]
    assert w["applied"]["not_held"] == {
        "role": "elder", "name": "Ann",
        "calls": "Mark which of Ann's calls he does not hold: that call is void, and Bob reckons what he has good "
                 "against Ann's correct calls (Law 54, Case II).",
        "scores": "Entered as quick scores, the hands' scores are entered as reckoned: Bob's with what he has good "
                  "against Ann's correct calls (Law 54, Case II)."}
    kings = {"declared": {"elder": {"sets": [{"size": 3, "rank": "K", "held": False}]}, "replies": {"sets": "good"},
                          "younger": {"sets": [{"size": 4, "rank": "10"}]}},
             "tricks": {"elder": 6}, "play_points": {"elder": 7, "younger": 7}}
    done = add(client, w, {**kings, "reckons_nothing": w["applied"]["pending"]["reckons_nothing"]})
    last = done["state"]["deals"][-1]
    assert last["totals"] == {"A": 0, "B": 21}
    assert any("Ann called three kings, which he does not hold" in line for line in last["lines"])
    deal = done["record"]["deals"][0]
    assert deal["declared"]["elder"]["sets"] == [{"size": 3, "rank": "K", "held": False}]
    assert deal["reckons_nothing"] == ["elder"]
    partie = marked_from_json(json.dumps(done["record"]))
    assert partie.scores == {"A": 0, "B": 21}
    # The kings held, Bob's four tens contradict his "good": refused by the field of the quatorzes and trios.
    held = json.loads(json.dumps(kings))
    del held["declared"]["elder"]["sets"][0]["held"]
    err = add(client, w, held, 422)
    assert (err["field"], err["law"]) == ("sets", "Law 64") and "the reply to the sets is not good" in err["error"]
    # The waiver asks the same; the elder then reckons what he holds (his play), the younger his tens.
    w = wrong(client, doc, "overcall", facts, "waive")
    assert w["applied"]["not_held"]["role"] == "elder"
    pending = w["applied"]["pending"]
    done = add(client, w, {**kings, "reckons_nothing": pending["reckons_nothing"], "waived": pending["waived"]})
    assert done["state"]["deals"][-1]["totals"] == {"A": 7, "B": 21}
    # The younger in error: his call is the one to mark.
    w = wrong(client, doc, "overcall", facts | {"offender": "younger"}, "reckons-nothing")
    assert (w["applied"]["not_held"]["role"], w["applied"]["not_held"]["name"]) == ("younger", "Bob")
    # No call not held: nothing to mark.
    for kind, f, remedy in (("took-more", {"offender": "younger"}, "more-than-twelve"),
                            ("overcall", facts | {"played_since": False}, "call-corrected")):
        assert wrong(client, doc, kind, f, remedy)["applied"]["not_held"] is None


# ---------------------------------------------------------------- the page


def test_the_page_is_served_and_linked(client: TestClient) -> None:
    r = client.get("/mark")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert '<script type="module" src="/static/mark.js"></script>' in page and "://" not in page
    for testid in ("setup", "name-a", "name-b", "rules-select", "first-dealer-A", "start", "scoreboard", "deal-form",
                   "cb-none", "mode-spoken", "mode-quick", "e-point-value", "r-point-good", "q-elder-point",
                   "e-tricks", "e-play", "y-play", "play-cards", "score-deal", "err-point", "err-play", "err-hands",
                   "something-wrong", "referee-slot", "wrong-list", "wrong-groups", "wrong-case", "wrong-rule",
                   "wrong-ruling", "wrong-back", "err-wrong", "err-correct", "wrong-told", "deal-notes",
                   "annul-deal", "void-deal", "undo-deal", "download-record",
                   "partie-end", "settlement-words", "stake-input", "settle-stakes", "deal-history"):
        assert f'data-testid="{testid}"' in page, testid
    script = client.get("/static/mark.js")
    assert script.status_code == 200 and "/api/mark" in script.text and "://" not in script.text
    assert "/api/mark/referee" in script.text and client.get("/api/mark/referee").status_code == 200
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


@pytest.mark.browser
def test_a_partie_with_an_irregularity_of_each_group_marked_on_a_phone(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A rubicon partie marked on a 360 px touch screen through "Something went wrong": a card exposed in the cut
    (Law 7), a deal out of turn found too late (Law 16: the elder of it deals twice running) with the younger
    taking in too many (Law 35: he reckons nothing), thirteen cards and a fresh deal (Law 11), an overcall
    waived (Laws 54, 44), a revoke (Law 59 IV), an incorrect pack (Law 75: void) and a score put right (Law 70).
    The scores shown are those the laws give: Ann 112, Bob 84, Bob rubiconed (Law 73)."""
    e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")

    with e2e.touch_page(tmp_path_factory.mktemp("mark-wrong-server"), PHONE) as (srv, page, errors):
        t = page.get_by_test_id

        def no_overflow(where: str) -> None:
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{where}: the page scrolls sideways ({width} px)"

        def deals_marked(n: int) -> None:
            page.wait_for_function(f"() => document.body.dataset.deals === '{n}'")

        def scores(a: int, b: int) -> None:
            page.wait_for_function("([a, b]) => document.querySelector('[data-testid=score-A]').textContent === a "
                                   "&& document.querySelector('[data-testid=score-B]').textContent === b",
                                   arg=[str(a), str(b)])

        def heading(words: str) -> None:
            page.wait_for_function("(w) => document.querySelector('[data-testid=next-deal]').textContent === w",
                                   arg=words)

        def irregularity(kind: str, taps: tuple[str, ...] = (), fills: dict[str, str] | None = None,
                         law: str = "") -> None:
            """Open the panel, pick the irregularity, give its facts, ask the laws."""
            if not t("wrong-list").is_visible():
                t("something-wrong").locator("summary").tap()
            t(f"wrong-{kind}").tap()
            for testid in taps:
                t(testid).tap()
            for testid, value in (fills or {}).items():
                t(testid).fill(value)
            no_overflow(f"the facts of {kind}")
            t("wrong-rule").tap()
            t("ruling-law").wait_for()
            assert t("ruling-law").inner_text().startswith(f"{law}:"), t("ruling-law").inner_text()

        def choose(remedy: str, told: str) -> None:
            no_overflow(f"the ruling, {remedy}")
            t(f"wrong-option-{remedy}").tap()
            page.wait_for_function("(w) => document.querySelector('[data-testid=wrong-told]').textContent === w",
                                   arg=told)
            assert t("something-wrong").get_attribute("open") is None

        def quick_deal(elder: tuple[int, int, int], younger: tuple[int, int, int], tricks: int, pe: int,
                       py: int) -> None:
            t("mode-quick").tap()
            for role, values in (("elder", elder), ("younger", younger)):
                for cat, v in zip(("point", "sequences", "sets"), values, strict=True):
                    t(f"q-{role}-{cat}").fill(str(v) if v else "")
            t("e-tricks").fill(str(tricks))
            t("e-play").fill(str(pe))
            t("y-play").fill(str(py))
            t("score-deal").tap()

        page.goto(srv.base + "/mark")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        t("name-a").fill("Ann")
        t("name-b").fill("Bob")
        t("first-dealer-B").tap()
        t("start").tap()
        heading("Deal 1 of 6: Bob deals; Ann is elder hand.")
        # The panel lists every group of the laws, in plain words, each entry with its laws.
        t("something-wrong").locator("summary").tap()
        for group in ("the-cut", "the-deal", "the-exchange", "eleven-or-thirteen-cards", "calling", "the-play",
                      "scoring", "the-pack"):
            t(f"wrong-group-{group}").wait_for()
        assert "Law 59 IV" in t("wrong-revoke").inner_text()
        box = t("wrong-revoke").bounding_box()
        assert box is not None and box["height"] >= 44  # a tap target
        no_overflow("the list of irregularities")

        # The cut (Law 7): a fresh cut; nothing changes.
        irregularity("cut-to-dealer-exposed", law="Law 7")
        assert t("ruling-who").inner_text() == "The law decides; nobody chooses."
        choose("cut-again", "Cut again (Law 7). Nothing changes in the score.")
        quick_deal((5, 4, 0), (0, 0, 17), 7, 9, 6)
        deals_marked(1)
        scores(28, 23)

        # The deal (Law 16): Bob dealt deal 2, Ann's deal, found too late: it stands, and Ann deals twice after.
        heading("Deal 2 of 6: Ann deals; Bob is elder hand.")
        irregularity("out-of-turn", ("fact-hand_taken_up-yes", "fact-last_deal-no"), law="Law 16")
        choose("deal-twice", "Bob dealt out of turn; the deal stands (Law 16). The elder of it deals twice running.")
        heading("Deal 2 of 6: Bob deals; Ann is elder hand.")
        # The exchange (Law 35): Bob, the younger, took in more than he discarded; Ann enforces the penalty.
        irregularity("took-more", ("fact-offender-younger",), law="Law 35")
        assert t("ruling-who").inner_text() == "Ann chooses:"
        assert t("fact-offender-younger").inner_text() == "Bob"
        choose("more-than-twelve", "Bob reckons nothing this deal; his calls still bar (Law 35). Enter the deal as "
               "played: what he calls, and what the adversary reckons.")
        assert t("deal-notes").inner_text().split("\n") == [
            "Bob dealt out of turn, found too late (Law 16).",
            "Bob reckons nothing this deal; his calls still bar (Law 35)."]
        no_overflow("the deal with its notes")
        quick_deal((6, 0, 0), (0, 4, 0), 8, 9, 5)  # Bob's quart bars Ann's sequences, and scores nothing
        deals_marked(2)
        scores(53, 23)
        assert t("deal-notes").is_hidden()

        # Eleven or thirteen (Law 11): Bob, elder, finds thirteen before taking up the stock: a fresh deal.
        heading("Deal 3 of 6: Ann deals; Bob is elder hand.")
        irregularity("wrong-count", ("fact-hand_taken_up-yes",),
                     {"fact-elder_cards": "13", "fact-younger_cards": "11"}, law="Law 11")
        assert t("ruling-who").inner_text() == "Bob chooses:"
        choose("fresh-deal", "A fresh deal: Ann deals again (Law 11).")
        heading("Deal 3 of 6: Ann deals; Bob is elder hand.")
        quick_deal((0, 0, 3), (6, 4, 0), 5, 7, 8)
        deals_marked(3)
        scores(81, 33)

        # Calling (Law 54): Bob called what he did not hold; Ann waives the penalty (Law 44).  The play (Law 59 IV):
        # a revoke taken back.
        heading("Deal 4 of 6: Ann deals; Bob is elder hand.")
        irregularity("overcall", ("fact-offender-elder", "fact-allowed-yes", "fact-played_since-yes",
                                  "fact-misnomer-no", "fact-impossible-no"), law="Law 54")
        choose("waive", "The penalty is not enforced: Bob reckons what he holds (Law 44).")
        irregularity("revoke", ("fact-offender-younger",), law="Law 59 IV")
        choose("take-back", "The cards taken back and played again (Law 59 IV). Nothing changes in the score.")
        quick_deal((4, 3, 14), (0, 0, 0), 6, 7, 7)
        deals_marked(4)
        scores(88, 61)

        # The pack (Law 75): incorrect; the deal is void, Bob deals again.
        heading("Deal 5 of 6: Bob deals; Ann is elder hand.")
        irregularity("incorrect-pack", law="Law 75")
        choose("void", "The deal is void; the deals before stand. Bob deals (Law 75).")
        quick_deal((5, 0, 0), (0, 3, 0), 6, 8, 7)
        deals_marked(5)
        scores(101, 71)

        # Scoring (Law 70): Ann's point in deal 5 was six; put right before she has seen her next hand.
        irregularity("miscounted", ("fact-offender-elder", "fact-seen_next_hand-no"), law="Law 70")
        t("correct-deal-6").tap()
        for testid, value in (("correct-elder-point", "6"), ("correct-younger-sequences", "3"),
                              ("correct-e-tricks", "6"), ("correct-e-play", "8"), ("correct-y-play", "7")):
            t(testid).fill(value)
        no_overflow("the deal put right")
        choose("score-corrected", "Deal 5 is corrected (Law 70).")
        scores(102, 71)

        heading("Deal 6 of 6: Ann deals; Bob is elder hand.")
        quick_deal((5, 0, 0), (0, 3, 0), 6, 8, 7)
        deals_marked(6)
        scores(112, 84)
        assert t("settlement-words").inner_text() == ("Ann wins the partie, and Bob is rubiconed (under 100): "
                                                      "112 + 84 + 100 = 296 points (Law 73).")
        history = t("deal-history").inner_text()
        assert "Annulled" in history and "Void" in history
        with page.expect_download() as info:
            t("download-record").tap()
        partie = marked_from_json(Path(info.value.path()).read_text(encoding="utf-8"))
        assert partie.scores == {"A": 112, "B": 84}
        assert [d.status for d in partie.deals].count("annulled") == 1 and partie.deals[1].out_of_turn
        assert partie.deals[1].reckons_nothing == {1} and partie.deals[4].waived == {0}
        assert partie.deals[6].corrected
        assert errors == []


@pytest.mark.browser
def test_suits_and_a_call_not_held_marked_on_a_phone(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The calls' suits and a call not held on a 360 px touch screen.  Deal 1 (Case IV): Ann's point to the ace of
    spades and her tierce majors in hearts and clubs, entered with their suits by the selects beside them, bar
    Bob's three knaves, refused by the quatorzes and trios; he says nothing about knaves: Ann 18, Bob 7.  Deal 2
    (Case II): Bob calls three kings, Ann allows them; the kings not held come to light ("Something went wrong",
    Law 54, Ann enforces the penalty); a "Not held" toggle appears beside each of Bob's calls, and none beside
    Ann's; tapped, Ann's four tens are good: fourteen, and Bob reckons nothing."""
    e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")

    with e2e.touch_page(tmp_path_factory.mktemp("mark-calls-server"), PHONE) as (srv, page, errors):
        t = page.get_by_test_id

        def no_overflow(where: str) -> None:
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{where}: the page scrolls sideways ({width} px)"

        def deals_marked(n: int) -> None:
            page.wait_for_function(f"() => document.body.dataset.deals === '{n}'")

        def play(tricks: int, pe: int, py: int) -> None:
            t("e-tricks").fill(str(tricks))
            t("e-play").fill(str(pe))
            t("y-play").fill(str(py))

        page.goto(srv.base + "/mark")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        t("name-a").fill("Ann")
        t("name-b").fill("Bob")
        t("first-dealer-B").tap()
        t("start").tap()
        t("next-deal").wait_for()

        # Deal 1, Case IV: the suits entered beside the calls.
        t("e-point-5").tap()
        t("e-point-suit").select_option("S")
        t("e-point-head").select_option("A")
        t("r-point-good").tap()
        for i, suit in enumerate(("H", "C")):
            t("eSeqs-add").tap()
            t(f"eSeqs-{i}-a").select_option("3")
            t(f"eSeqs-{i}-b").select_option("A")
            t(f"eSeqs-{i}-suit").select_option(suit)
        t("r-seqs-good").tap()
        t("ySets-add").tap()
        t("ySets-0-a").select_option("3")
        t("ySets-0-b").select_option("J")
        play(6, 7, 7)
        assert t("not-held-hint").is_hidden() and t("e-point-not-held").is_hidden()
        assert t("eSeqs-0-not-held").count() == 0
        no_overflow("the calls with their suits")
        t("score-deal").tap()
        err = t("err-sets")
        err.wait_for(state="visible")
        assert "the younger cannot reckon three knaves" in err.inner_text() and "Law 56, Case IV" in err.inner_text()
        assert t("eSeqs-1-suit").input_value() == "C" and t("e-point-head").input_value() == "A"
        t("ySets-0-remove").tap()  # he plays a card, saying nothing about knaves
        t("score-deal").tap()
        deals_marked(1)
        assert (t("score-A").inner_text(), t("score-B").inner_text()) == ("18", "7")
        # The form is cleared for the next deal, the suits too.
        assert t("e-point-suit").input_value() == "" and t("eSeqs-0-a").count() == 0

        # Deal 2, Case II: Bob (elder) calls three kings, Ann allows them; Ann reckons nothing of her own yet.
        t("eSets-add").tap()
        t("eSets-0-a").select_option("3")
        t("eSets-0-b").select_option("K")
        t("r-sets-good").tap()
        t("ySets-add").tap()
        t("ySets-0-a").select_option("4")
        t("ySets-0-b").select_option("10")
        play(6, 7, 7)
        t("score-deal").tap()  # the kings held, her four tens contradict her "good"
        t("err-sets").wait_for(state="visible")
        assert "the reply to the sets is not good" in t("err-sets").inner_text()
        # It comes to light that Bob has not three kings.
        t("something-wrong").locator("summary").tap()
        t("wrong-overcall").tap()
        for testid in ("fact-offender-elder", "fact-allowed-yes", "fact-played_since-yes", "fact-misnomer-no",
                       "fact-impossible-no"):
            t(testid).tap()
        t("wrong-rule").tap()
        t("ruling-law").wait_for()
        assert t("ruling-law").inner_text().startswith("Law 54:") and t("ruling-who").inner_text() == "Ann chooses:"
        t("wrong-option-reckons-nothing").tap()
        hint = t("not-held-hint")
        hint.wait_for(state="visible")
        assert hint.inner_text() == ("Mark which of Bob's calls he does not hold: that call is void, and Ann reckons "
                                     "what he has good against Bob's correct calls (Law 54, Case II).")
        assert "Bob reckons nothing this deal; his calls still bar (Law 54)." in t("deal-notes").inner_text()
        # A toggle beside each of Bob's calls, none beside Ann's.
        toggle = t("eSets-0-not-held")
        assert toggle.is_visible() and toggle.get_attribute("aria-pressed") == "false"
        assert t("ySets-0-not-held").count() == 0 and t("e-point-not-held").is_hidden()
        box = toggle.bounding_box()
        assert box is not None and box["height"] >= 44  # a tap target
        no_overflow("the calls with their toggles")
        # Quick scores would be entered as reckoned: the hint says so.
        t("mode-quick").tap()
        assert hint.inner_text().startswith("Entered as quick scores, the hands' scores are entered as reckoned: "
                                            "Ann's with what he has good")
        t("mode-spoken").tap()
        toggle.tap()
        page.wait_for_function("() => document.querySelector('[data-testid=eSets-0-not-held]')"
                               ".getAttribute('aria-pressed') === 'true'")
        # A reload keeps the ruling and the toggle.
        page.reload()
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        assert t("eSets-0-not-held").get_attribute("aria-pressed") == "true" and t("not-held-hint").is_visible()
        t("score-deal").tap()
        deals_marked(2)
        assert (t("score-A").inner_text(), t("score-B").inner_text()) == ("39", "7")
        assert "Ann: Fourteen for quatorzes and trios: fourteen." in t("last-order").inner_text()
        assert t("not-held-hint").is_hidden() and t("deal-notes").is_hidden()
        with page.expect_download() as info:
            t("download-record").tap()
        text = Path(info.value.path()).read_text(encoding="utf-8")
        assert marked_from_json(text).scores == {"A": 39, "B": 7}
        record = json.loads(text)
        assert record["deals"][0]["declared"]["elder"]["point"] == {"cards": 5, "head": "A", "suit": "S"}
        assert record["deals"][1]["declared"]["elder"]["sets"] == [{"size": 3, "rank": "K", "held": False}]
        assert record["deals"][1]["reckons_nothing"] == ["elder"]
        assert errors == []
