"""Piquet au cent at the web table (p. 16-20): the server, the protocol, the store and the replay.

A whole partie through the websocket, every message checked for hidden cards; the lower cut deals
with no choice; the younger's empty discard taken at au cent and refused at rubicon with nothing
changed; a deal that stops at a hundred, and the next that begins a new game at nothing; the games
tally and the settlement in the views; a younger's carte blanche kept from the elder until he has
discarded; the API's rules and agreements; a computer level that fails; the replay.
"""

from __future__ import annotations

import logging
import random
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from piquet.core.actions import Action, Discard
from piquet.core.events import ELDER, GAME, PLAY, YOUNGER
from piquet.core.observation import Observation
from piquet.core.rules import RUBICON, rules_named
from piquet.core.state import seed_cut
from piquet.records.record import PartieRecord, replay
from piquet.talk.words import discard_labels, exchange_question, number_words, settlement_words
from piquet.web.rewind import replay_frames
from piquet.web.store import Store, database_url
from piquet.web.table import Seat, Table
from test_web import (
    Message,
    check_log,
    expect_error,
    listed,
    make_table,
    new_table,
    play_against_computer,
    play_two_persons,
    receive,
    stored,
    until_my_turn,
    ws_path,
)
from test_web_replay import NAMES, check_seat_replay, engine_frame, shown_frame, steps

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

SPEC = "au-cent+small-cards+fours"
#: A seed whose first deal gives the younger hand a carte blanche (found by search, checked in the test).
CARTE_BLANCHE_SEED = 8280


def seed_where(younger: str) -> int:
    """A seed whose cut makes ``younger`` the dealer of the first deal at Piquet au cent: the lower cut (p. 16)."""
    return next(s for s in range(100) if seed_cut(s)[2] != younger)


def states(log: list[Message]) -> list[dict[str, Any]]:
    return [m["view"] for m in log if m["type"] == "state"]


# ---------------------------------------------------------------- a whole partie through the websocket


def test_a_partie_of_au_cent_through_the_websocket(client: TestClient, db: str) -> None:
    """Against the computer, with both agreements: no choice of deal, games of a hundred up to three games won,
    the views' game and tally as the engine has them, the record stored with its agreements, every message
    checked for cards the seat may not see."""
    seed = 31
    t, log = play_against_computer(client, db, seed, level="simple", rules=SPEC)
    version, record_json = stored(db, t["table"])
    record = PartieRecord.from_json(record_json)
    assert record.rules == "au-cent" and record.agreements == ("small-cards", "fours")
    final = replay(record)
    assert final.rules == rules_named(SPEC) and final.is_finished and final.deal_by == 2
    # The lower cut deals, and nobody was asked (p. 16): the first state is the first deal's.
    a, b, winner = seed_cut(seed)
    views = states(log)
    first = views[0]
    assert first["phase"] != "cut" and final.first_dealer != winner and first["partie"]["dealer"] == final.first_dealer
    assert first["cut"]["winner"] == winner and first["cut"]["lower_deals"] is True
    assert version == sum(len(d.history) for d in final.deals)  # no version for a choice of deal
    assert all(v["partie"]["rules"] == SPEC and v["agreements"] == ["small-cards", "fours"] for v in views)
    assert all(v["title"] == final.rules.title for v in views)
    # Each state's game: its number, its score and the games won, as the engine reckons them.
    games = final.games()
    for v in views:
        g = v["game"]
        assert (g["goal"], g["double_below"], g["to_win"]) == (100, 50, 3)
        n = v["partie"]["deal_number"]
        won_before = [x for x in games if x.last_deal < n - 1]
        assert v["partie"]["game_number"] == len(won_before) + 1
        assert v["partie"]["games"] == {s: sum(x.counts for x in won_before if x.winner == s) for s in "AB"}
        assert g["scores"] == v["totals"]["partie"]
        assert max(v["partie"]["scores"].values()) < 100  # a game's score before a deal is under the goal
    # The end: the games won, the settlement by games (never rules.settle), its words the server's.
    end = views[-1]
    settlement = final.settlement()
    assert end["status"] == "finished" and settlement.finished and settlement.points_won is None
    assert end["settlement"]["winner"] == settlement.winner and end["settlement"]["points"] is None
    assert end["settlement"]["tally"] == settlement.tally == end["game"]["tally"]
    assert max(settlement.tally.values()) >= 3 and settlement.tally[settlement.winner] >= 3
    assert end["settlement"]["words"] == settlement_words(settlement, final.scores, final.rules,
                                                          {"A": "Ann", "B": "Computer (simple)"})
    assert [(x["number"], x["winner"], x["double"], x["last_deal"]) for x in end["game"]["games"]] == [
        (x.number, x.winner, x.double, x.last_deal + 1) for x in games]
    history = end["deal_history"]
    assert len(history) == len(final.deals)
    for entry, (i, deal) in zip(history, enumerate(final.deals), strict=True):
        won = next((x for x in games if x.last_deal == i), None)
        assert entry["game_won"] == (None if won is None else {"winner": won.winner, "double": won.double})
        assert entry["game"] == 1 + sum(1 for x in games if x.last_deal < i)
        assert entry["partie"] == final.scores_after()[i]
        assert (deal.game_won is not None) == (won is not None)
    assert check_log("A", log, seed, record_json) == len(log)
    # The games list: the rules with their agreements, and their title.
    row = next(g for g in listed(client, t) if g["table"] == t["table"])
    assert row["rules"] == SPEC and row["title"] == final.rules.title and row["status"] == "finished"


@pytest.mark.slow
def test_two_persons_play_au_cent(client: TestClient, db: str) -> None:
    """Two persons through their invite links, to the end: every message of both seats checked."""
    assert play_two_persons(client, db, 35, rules="au-cent+small-cards") > 1000


@pytest.mark.slow
def test_a_deal_stops_at_a_hundred_and_the_next_begins_a_new_game(client: TestClient, db: str) -> None:
    """When a player reaches a hundred the deal stops there (p. 20): the seat is told who won the game, and
    whether double, in the next deal's ``last_deal``; that deal begins the next game at nothing."""
    t, log = play_against_computer(client, db, 32, level="random", rules="au-cent")
    final = replay(PartieRecord.from_json(stored(db, t["table"])[1]))
    views = states(log)
    openings = [v for v in views if v["last_deal"] and v["last_deal"]["game_won"]]
    assert openings, "no game was won before the last deal"
    for v in openings:
        ld = v["last_deal"]
        deal = final.deals[ld["deal_number"] - 1]
        role, double = deal.game_won or (0, False)
        seats = (final.seat(ld["deal_number"] - 1, ELDER), final.seat(ld["deal_number"] - 1, YOUNGER))
        assert ld["game_won"] == {"seat": seats[role], "double": double,
                                  "score": (deal.game or (0, 0))[role] + deal.total(role)}
        assert ld["game_won"]["score"] >= 100
        assert [e["kind"] for e in ld["events"]][-1] == "game"  # nothing after the game was won
        assert v["partie"]["scores"] == {"A": 0, "B": 0}  # a new game, at nothing
        assert v["game"]["number"] == v["game"]["games"][-1]["number"] + 1
        # The band and the last deal's panel say it in the narrator's words, "you" for the seat (p. 20).
        winner = "You" if seats[role] == v["seat"] else v["players"][seats[role]]
        reach = "reach" if winner == "You" else "reaches"
        assert v["game_news"].startswith(f"Deal {ld['deal_number']} stopped at the goal: {winner} {reach} "), v
        assert v["game_news"].endswith(f"Game {v['game']['number']} begins at nothing."), v["game_news"]
        assert ld["game_words"].startswith(f"The deal stopped there: {winner} {reach} "), ld
        assert ("a double game" in ld["game_words"]) == double
        assert v["deal_words"] == f"Deal {ld['deal_number'] + 1} (game {v['game']['number']}, at nothing): " + (
            "You deal;" if v["partie"]["dealer"] == v["seat"] else f"{v['players'][v['partie']['dealer']]} deals;"
        ) + v["deal_words"].split(";", 1)[1]
    # A deal stopped in the play has fewer than twenty-four cards played, and no more tricks.
    stopped = [d for d in final.deals if d.game_won is not None]
    assert any(sum(1 for e in d.events if e.kind == PLAY) < 24 for d in stopped)
    for d in stopped:
        assert d.events[-1].kind == GAME and d.is_over
    # The seat's views of a deal in play never show a game's score of a hundred or more.
    for v in views:
        if v["phase"] != "done":
            assert max(v["totals"]["partie"].values()) < 100


# ---------------------------------------------------------------- the younger's discard of none (p. 17)


def test_the_younger_may_keep_all_at_au_cent(client: TestClient, db: str) -> None:
    """The younger's options allow none; an empty discard is taken, told, and stored; the elder's is refused."""
    t = new_table(client, opponent="computer", level="simple", rules="au-cent", name="Ann", seed=seed_where("A"))
    with client.websocket_connect(ws_path(t)) as ws:
        msg = until_my_turn(ws, [])
        v = msg["view"]
        assert v["role"] == "younger" and v["phase"] == "younger_discard"
        most = v["max_discard"]
        assert v["options"] == [{"kind": "discard", "min": 0, "max": most,
                                 "label": f"Discard up to {number_words(most)} cards, or keep all your cards",
                                 "labels": ["Discard", *(f"Discard {w}" for w in ("one", "two", "three")[:most])],
                                 "questions": [exchange_question(k, "{cards}") for k in range(most + 1)]}]
        assert v["prompt"].endswith("or keep all your cards (p. 17).")
        hand = v["hand"]
        ws.send_json({"type": "action", "version": msg["version"], "action": {"kind": "discard", "cards": []}})
        after = receive(ws)
        assert after["type"] == "state" and after["version"] == msg["version"] + 1
        assert after["view"]["hand"] == hand and after["view"]["discard"] == [] and after["view"]["taken"] == []
        exchange = [e for e in after["view"]["events"] if e["kind"] == "exchange" and e["role"] == "younger"]
        assert [(e["taken"], e["left"]) for e in exchange] == [(0, after["view"]["stock_left"])]
    record = PartieRecord.from_json(stored(db, t["table"])[1])
    assert record.deals[0].younger_discard == ()
    # The elder must discard at least one, at au cent too (Law 21).
    t2 = new_table(client, opponent="computer", level="simple", rules="au-cent", name="Ann", seed=seed_where("B"))
    with client.websocket_connect(ws_path(t2)) as ws:
        msg = until_my_turn(ws, [])
        assert msg["view"]["role"] == "elder" and msg["view"]["options"][0]["min"] == 1
        before = stored(db, t2["table"])
        ws.send_json({"type": "action", "version": msg["version"], "action": {"kind": "discard", "cards": []}})
        err = expect_error(ws, "illegal")
        assert "at least one" in err["message"] and "Law 21" in err["message"]
        assert stored(db, t2["table"]) == before


def test_the_younger_must_discard_at_rubicon(client: TestClient, db: str) -> None:
    """At rubicon an empty discard from the younger is refused (Laws 22, 34), and nothing changes."""
    seed = next(s for s in range(100) if seed_cut(s)[2] == "B")  # the computer wins the cut, deals
    t = new_table(client, opponent="computer", level="simple", rules="rubicon", name="Ann", seed=seed)
    with client.websocket_connect(ws_path(t)) as ws:
        msg = until_my_turn(ws, [])
        assert msg["view"]["role"] == "elder"
        ws.send_json({"type": "action", "version": msg["version"],
                      "action": {"kind": "discard", "cards": msg["view"]["hand"][:2]}})
        msg = until_my_turn(ws, [])
        while msg["view"]["phase"] != "younger_discard":  # the next deal: Ann is younger
            ws.send_json({"type": "action", "version": msg["version"], "action": next_action(msg["view"])})
            msg = until_my_turn(ws, [])
        most = msg["view"]["max_discard"]
        assert msg["view"]["options"] == [{"kind": "discard", "min": 1, "max": most,
                                           "label": f"Discard one to {number_words(most)} cards",
                                           "labels": discard_labels(most),
                                           "questions": [exchange_question(k, "{cards}") for k in range(most + 1)]}]
        before = stored(db, t["table"])
        ws.send_json({"type": "action", "version": msg["version"], "action": {"kind": "discard", "cards": []}})
        err = expect_error(ws, "illegal")
        assert "at least one" in err["message"] and "Laws 22, 34" in err["message"]
        assert stored(db, t["table"]) == before
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}


def next_action(v: dict[str, Any]) -> dict[str, Any]:
    """The first option, as a browser would send it (the smallest discard, the first declaration or card)."""
    o = v["options"][0]
    if o["kind"] == "discard":
        return {"kind": "discard", "cards": v["hand"][:max(1, o["min"])]}
    if o["kind"] == "look":
        return {"kind": "look", "look": False}
    if o["kind"] == "play":
        return {"kind": "play", "card": o["cards"][0]}
    return dict(o)


# ---------------------------------------------------------------- a younger's carte blanche (p. 16)


def test_a_younger_carte_blanche_waits_for_the_elders_discard(client: TestClient, db: str) -> None:
    """At au cent the elder is not told of the younger's carte blanche until he has discarded; at rubicon, with
    the same cards and seats, it is announced at once (Law 20)."""
    # Au cent: the lower cut (the computer) deals and is younger, with a carte blanche.
    t = new_table(client, opponent="computer", level="simple", rules="au-cent", name="Ann", seed=CARTE_BLANCHE_SEED)
    with client.websocket_connect(ws_path(t)) as ws:
        msg = until_my_turn(ws, [])
        v = msg["view"]
        assert v["role"] == "elder" and v["phase"] == "elder_discard"
        assert not [e for e in v["events"] if e["kind"].startswith("carte_blanche")]
        ws.send_json({"type": "action", "version": msg["version"],
                      "action": {"kind": "discard", "cards": v["hand"][:1]}})
        after = receive(ws)
        kinds = [(e["kind"], e["role"]) for e in after["view"]["events"]]
        assert kinds[:3] == [("exchange", "elder"), ("carte_blanche", "younger"), ("carte_blanche_shown", "younger")]
        shown = next(e for e in after["view"]["events"] if e["kind"] == "carte_blanche_shown")
        assert len(shown["cards"]) == 12 and after["view"]["scores"]["younger"]["carte_blanche"] == 10
    table = Table.from_record(t["table"], {"A": Seat("human", "Ann"), "B": Seat("computer", "C", "simple")},
                              stored(db, t["table"])[1], "computer")
    assert table.partie.deals[0].carte_blanche == (False, True)
    # Rubicon: Ann wins the cut and lets the computer deal: the same cards, the carte blanche told at once.
    r = new_table(client, opponent="computer", level="simple", rules="rubicon", name="Ann", seed=CARTE_BLANCHE_SEED)
    with client.websocket_connect(ws_path(r)) as ws:
        msg = receive(ws)
        assert msg["view"]["phase"] == "cut" and msg["view"]["my_turn"]
        ws.send_json({"type": "action", "version": 0, "action": {"kind": "deal", "deal": False}})
        v = receive(ws)["view"]
        assert v["role"] == "elder" and [(e["kind"], e["role"]) for e in v["events"]] == [("carte_blanche", "younger")]


# ---------------------------------------------------------------- the API


def test_the_api_takes_au_cent_and_its_agreements(client: TestClient, db: str) -> None:
    for body, spec in [
        ({"rules": "au-cent"}, "au-cent"),
        ({"rules": "au-cent+small-cards"}, "au-cent+small-cards"),
        ({"rules": "au-cent", "agreements": ["fours"]}, "au-cent+fours"),
        ({"rules": "au-cent+fours", "agreements": ["small-cards"]}, "au-cent+small-cards+fours"),
        ({"rules": "au-cent", "agreements": ["nines"]}, "au-cent+small-cards"),
    ]:
        t = new_table(client, opponent="person", name="Ann", seed=seed_where("B"), **body)  # Ann is elder
        store = Store(database_url(db))
        try:
            row = store.load(t["table"])
        finally:
            store.close()
        assert row is not None and row.rules == spec, (body, row)
        assert row.version == 0 and PartieRecord.from_json(row.record).deals, "au cent: dealt at once, no choice"
        with client.websocket_connect(ws_path(t)) as ws:
            v = receive(ws)["view"]
            assert v["partie"]["rules"] == spec and v["phase"] != "cut"
            ws.send_json({"type": "action", "version": 0, "action": {"kind": "deal", "deal": True}})
            err = expect_error(ws, "illegal")
            assert "lower cut deals" in err["message"] and "p. 16" in err["message"]
    for body, words in [
        ({"rules": "au-cent+jokers"}, "unknown agreement 'jokers'"),
        ({"rules": "au-cent", "agreements": ["doubles"]}, "unknown agreement 'doubles'"),
        ({"rules": "rubicon+fours"}, "options of Piquet au cent"),
        ({"rules": "four-deal", "agreements": ["small-cards"]}, "options of Piquet au cent"),
        ({"rules": "piquet-au-cent"}, "unknown rules"),
        ({"rules": "au-cent", "agreements": "fours"}, "is a list"),
        ({"rules": "au-cent", "agreements": [4]}, "is a list"),
        ({"rules": ["au-cent"]}, "is a string"),
    ]:
        r = client.post("/api/tables", json={"opponent": "computer", **body})
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    assert len(client.app.state.store.list()) == 5  # type: ignore[attr-defined]  # nothing stored for the refused ones


# ---------------------------------------------------------------- a computer level that fails


class Broken:
    """A computer player that cannot play: every choice raises, as a level that does not know the rules."""

    def choose(self, obs: Observation) -> Action:
        raise ValueError("this level cannot play Piquet au cent")


def test_a_failing_computer_level_is_stood_in_for(caplog: pytest.LogCaptureFixture) -> None:
    """A level that fails is logged and replaced for the move by another: the table plays on to the end."""
    table = make_table(5, rules_named("au-cent+fours"))
    table._players.update({"A": Broken(), "B": Broken()})  # type: ignore[dict-item]
    with caplog.at_level(logging.ERROR, logger="piquet.web"):
        while not table.finished and table.version < 60:
            seat = table.to_move()
            assert seat is not None
            table.apply(seat, table.choose(seat, table.observation(seat)), table.version)
    assert table.version == 60 or table.finished
    assert "cannot play Piquet au cent" in caplog.text and "cavendish level stands in" in caplog.text
    # The stand-in failing too: a legal choice at random.
    table._players.update({"A-fallback": Broken(), "B-fallback": Broken()})  # type: ignore[dict-item]
    seat = table.to_move()
    assert seat is not None
    action = table.choose(seat, table.observation(seat))
    table.apply(seat, action, table.version)
    assert "a legal choice at random" in caplog.text


# ---------------------------------------------------------------- the replay


@pytest.mark.slow
def test_the_replay_of_an_au_cent_partie(client: TestClient, db: str) -> None:
    """Public once finished (every step the engine's, the games told), and a seat's in progress hides what the
    laws hide, sets named at au cent included."""
    t, _ = play_against_computer(client, db, 33, level="random", rules="au-cent+small-cards")
    version, record = stored(db, t["table"])
    final = replay(PartieRecord.from_json(record))
    r = client.get(f"/api/tables/{t['table']}/replay")
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["rules"] == "au-cent+small-cards" and doc["title"] == final.rules.title and doc["cut"]["lower_deals"]
    assert doc["steps"] == version + 1 and len(doc["deals"]) == len(final.deals)
    frames = doc["frames"]
    for step, p in steps(record):
        assert shown_frame(frames[step]) == engine_frame(p), step
        g = frames[step]["game"]
        assert g["scores"] == p.scores and g["number"] == len(p.games()) + (0 if p.deals[-1].game_won else 1)
    assert [d["game"] for d in doc["deals"]] == [
        1 + sum(1 for x in final.games() if x.last_deal < i) for i in range(len(final.deals))]
    assert all(d["of"] is None for d in doc["deals"])
    words = [" ".join(ln["text"] for ln in f["lines"]) for f in frames]
    assert frames[0]["lines"][0]["text"].startswith("Deal 1 (game 1, at nothing): ")
    for x in final.games():
        ended = next(w for w, f in zip(words, frames, strict=True) if f"Deal {x.last_deal + 1} is over" in w)
        assert "reaches" in ended and f"wins the game, {x.scores[x.winner]} to" in ended
    assert doc["settlement"]["words"] in [ln["text"] for ln in frames[-1]["lines"]]
    assert doc["settlement"]["points"] is None
    # A seat's replay of a partie in progress: only what that seat saw (``check_seat_replay``).
    table = make_table(34, rules_named("au-cent+fours"))
    rng = random.Random(34)
    while table.version < 400:
        seat = table.to_move()
        assert seat is not None
        table.apply(seat, table.observation(seat).sample(rng), table.version)
    partial = table.record_json()
    cards = sum(check_seat_replay(replay_frames(replay(PartieRecord.from_json(partial)), NAMES, s), s, partial)
                for s in "AB")
    assert cards > 1000


def test_au_cent_is_not_rubicon() -> None:
    """The same seed under both rules: the rubicon table keeps its partie score and its choice of deal."""
    rubicon = make_table(40, RUBICON, persons=True)
    au_cent = make_table(40, rules_named("au-cent"), persons=True)
    assert rubicon.choosing == rubicon.cut[2] and rubicon.view("A")["game"] is None
    assert au_cent.choosing is None and au_cent.partie.first_dealer != au_cent.cut[2]
    assert au_cent.view("A")["game"]["number"] == 1 and au_cent.view("A")["game"]["tally"] == {"A": 0, "B": 0}
    elder = au_cent.to_move()
    assert elder is not None and au_cent.view(elder)["options"][0]["min"] == 1
    assert Discard(0) not in au_cent.partie.deals[0].legal_actions()  # the elder discards one at least
