"""Who sits at the table, and adjournment (issue 17, item 4).

Each seat's VIEW says whether each seat is connected (``"connected"``), and every seat is sent the news when a
person comes or goes.  A seat still there adjourns the partie when another person has gone; a partie nobody sits at
is adjourned by itself after ``adjourn`` seconds; an adjourned table refuses every move, its computer does not play,
its status is stored (the lobby's list and a restarted server read it), and either seat's link takes it up.  The
computer does not play into an empty table.  The chouette is told the same way.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from piquet.web.app import create_app
from piquet.web.store import Store, database_url
from test_web import choose_to_deal, listed, new_table, receive, seed_where, stored, ws_path
from test_web_chouette import ws_path as chouette_ws_path

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

Message = dict[str, Any]


def state(ws: Any, until: Callable[[Message], bool] = lambda m: True) -> Message:
    """The next state message that satisfies ``until`` (thinking messages and earlier states are passed)."""
    for _ in range(200):
        msg = receive(ws)
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and until(msg):
            return msg
    raise AssertionError("no such state in 200 messages")


def answer(ws: Any, message: Message) -> Message:
    """Send ``message`` and return the first state or error that comes back."""
    ws.send_json(message)
    while (msg := receive(ws))["type"] not in ("state", "error"):
        pass
    return msg


def status_of(db: str, table_id: str, chouette: bool = False) -> str:
    store = Store(database_url(db))
    try:
        row = store.load_chouette(table_id) if chouette else store.load(table_id)
        assert row is not None
        return row.status
    finally:
        store.close()


def wait_for(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.02)


def person_table(client: TestClient) -> dict[str, Any]:
    """A partie between Ann (A) and her guest (B), who won the cut and chose to deal: Ann, elder, is to discard."""
    t = new_table(client, opponent="person", name="Ann", seed=seed_where("A"))
    assert choose_to_deal(client, t) == 1
    return t


# ---------------------------------------------------------------- presence


def test_each_seat_sees_whether_the_other_is_connected(client: TestClient) -> None:
    t = person_table(client)
    with client.websocket_connect(ws_path(t)) as wa:
        first = state(wa)
        assert first["view"]["connected"] == {"A": True, "B": False}
        with client.websocket_connect(ws_path(t, "invite") + "&name=Bob") as wb:
            assert state(wb)["view"]["connected"] == {"A": True, "B": True}
            came = state(wa, lambda m: m["view"]["connected"]["B"])
            assert came["version"] == first["version"]  # news of the sitting, not a move
        gone = state(wa, lambda m: not m["view"]["connected"]["B"])
        assert gone["view"]["connected"] == {"A": True, "B": False} and gone["view"]["status"] == "playing"
        # A second page of the same seat does not make him come again; closing one of the two does not make
        # him go.
        with client.websocket_connect(ws_path(t)) as wa2:
            assert state(wa2)["view"]["connected"] == {"A": True, "B": False}
        wa.send_json({"type": "ping"})
        assert receive(wa) == {"type": "pong"}  # no state came: nothing changed for the other seat


def test_the_computer_is_always_at_the_table(client: TestClient) -> None:
    t = new_table(client, opponent="computer", level="random", name="Ann", seed=5)
    with client.websocket_connect(ws_path(t)) as ws:
        assert state(ws)["view"]["connected"] == {"A": True, "B": True}


# ---------------------------------------------------------------- adjourning by hand, taking up


def test_the_seat_still_there_adjourns_and_either_takes_it_up(db: str) -> None:
    with TestClient(create_app(db)) as client:
        t = person_table(client)
        with client.websocket_connect(ws_path(t)) as wa:
            state(wa)
            with client.websocket_connect(ws_path(t, "invite")) as wb:
                state(wb)
                refused = answer(wb, {"type": "adjourn"})
                assert refused["type"] == "error" and refused["code"] == "illegal"
                assert "every player is at the table" in refused["message"]
                assert answer(wb, {"type": "take_up"})["message"] == "the partie is not adjourned"
            state(wa, lambda m: not m["view"]["connected"]["B"])
            before = stored(db, t["table"])
            adjourned = answer(wa, {"type": "adjourn"})
            assert adjourned["type"] == "state", adjourned
            v = adjourned["view"]
            assert v["status"] == "adjourned" and not v["my_turn"] and v["options"] == [] and v["turn"] is None
            assert "adjourned" in v["prompt"]
            assert status_of(db, t["table"]) == "adjourned" and stored(db, t["table"]) == before
            own = {r["table"]: r["status"] for r in listed(client, t)}
            assert own[t["table"]] == "adjourned"
            # Nothing is played at an adjourned table; the record is as it was.
            move = answer(wa, {"type": "action", "version": before[0],
                               "action": {"kind": "discard", "cards": v["hand"][:3]}})
            assert move["type"] == "error" and move["code"] == "illegal" and "adjourned" in move["message"]
            assert answer(wa, {"type": "adjourn"})["message"] == "the partie is adjourned already"
        assert stored(db, t["table"]) == before
    # Another server on the same database: the table is still adjourned; Bob, from his own link, takes it up.
    with TestClient(create_app(db)) as client, client.websocket_connect(ws_path(t, "invite")) as wb:
        v = state(wb)["view"]
        assert v["status"] == "adjourned" and v["connected"] == {"A": False, "B": True}
        taken = answer(wb, {"type": "take_up"})
        assert taken["type"] == "state" and taken["view"]["status"] == "playing"
        assert status_of(db, t["table"]) == "playing"
        with client.websocket_connect(ws_path(t)) as wa:
            v = state(wa)["view"]
            assert v["status"] == "playing" and v["my_turn"] and v["options"]
            moved = answer(wa, {"type": "action", "version": before[0],
                                "action": {"kind": "discard", "cards": v["hand"][:3]}})
            assert moved["type"] == "state" and moved["version"] == before[0] + 1


# ---------------------------------------------------------------- adjourning by itself; the computer


def test_a_partie_nobody_sits_at_is_adjourned_after_a_time(db: str) -> None:
    with TestClient(create_app(db, adjourn=0.3)) as client:
        t = new_table(client, opponent="computer", level="random", name="Ann", seed=seed_where("A"))
        with client.websocket_connect(ws_path(t)) as ws:
            state(ws)
        wait_for(lambda: status_of(db, t["table"]) == "adjourned")
        version = stored(db, t["table"])[0]
        with client.websocket_connect(ws_path(t)) as ws:
            v = state(ws)["view"]
            assert v["status"] == "adjourned" and v["options"] == []
            taken = answer(ws, {"type": "take_up"})
            assert taken["view"]["status"] == "playing" and taken["version"] == version
        time.sleep(0.1)
        # Back within the time: nothing is adjourned, however long she stays.
        with client.websocket_connect(ws_path(t)) as ws:
            assert state(ws)["view"]["status"] == "playing"
            time.sleep(0.6)  # twice the time, with Ann at the table
            assert status_of(db, t["table"]) == "playing"
    # Adjourning by itself may be turned off.
    with TestClient(create_app(db, adjourn=0)) as client:
        with client.websocket_connect(ws_path(t)) as ws:
            state(ws)
        time.sleep(0.5)
        assert status_of(db, t["table"]) == "playing"


def test_a_table_still_waiting_for_its_guest_is_not_adjourned(db: str) -> None:
    with TestClient(create_app(db, adjourn=0.1)) as client:
        t = new_table(client, opponent="person", name="Ann", seed=3)
        with client.websocket_connect(ws_path(t)) as ws:
            assert state(ws)["view"]["status"] == "waiting"
        time.sleep(0.5)
        assert status_of(db, t["table"]) == "waiting"


def test_the_computer_does_not_play_into_an_empty_table(db: str) -> None:
    """Ann leaves while the computer thinks over his move: he does not make it; he makes it when she is back."""
    with TestClient(create_app(db, pace=0.4, adjourn=0)) as client:
        t = new_table(client, opponent="computer", level="random", name="Ann", seed=seed_where("B"))
        with client.websocket_connect(ws_path(t)) as ws:
            first = state(ws)
            assert first["view"]["phase"] == "cut" and first["view"]["my_turn"]
            ws.send_json({"type": "action", "version": 0, "action": {"kind": "deal", "deal": True}})
            assert receive(ws)["type"] == "state"  # she deals: the computer is elder, to discard
            assert receive(ws) == {"type": "thinking", "seat": "B"}
        time.sleep(1.2)  # three times his pace
        assert stored(db, t["table"])[0] == 1
        with client.websocket_connect(ws_path(t)) as ws:
            assert state(ws)["version"] == 1
            assert state(ws)["version"] == 2  # back at the table: he plays


def test_the_computer_waits_at_an_adjourned_table_until_it_is_taken_up(db: str) -> None:
    with TestClient(create_app(db, pace=0, adjourn=0.2)) as client:
        t = new_table(client, opponent="computer", level="random", name="Ann", seed=seed_where("B"))
        with client.websocket_connect(ws_path(t)) as ws:
            state(ws)
        wait_for(lambda: status_of(db, t["table"]) == "adjourned")
        with client.websocket_connect(ws_path(t)) as ws:
            v = state(ws)["view"]
            assert v["status"] == "adjourned" and v["phase"] == "cut"
            refused = answer(ws, {"type": "action", "version": 0, "action": {"kind": "deal", "deal": True}})
            assert refused["code"] == "illegal" and "adjourned" in refused["message"]
            assert answer(ws, {"type": "take_up"})["view"]["my_turn"]
            dealt = answer(ws, {"type": "action", "version": 0, "action": {"kind": "deal", "deal": True}})
            assert dealt["version"] == 1
            assert state(ws)["version"] == 2  # the computer, elder, discards at once
            assert stored(db, t["table"])[0] >= 2


# ---------------------------------------------------------------- several processes


def test_an_adjournment_reaches_the_other_process(db: str) -> None:
    """Ann on one process, Bob on another: each sees the other as not connected (presence is per process), and an
    adjournment made on one is sent by the other to its own seat."""
    with TestClient(create_app(db, poll=0.02)) as one, TestClient(create_app(db, poll=0.02)) as two:
        t = person_table(one)
        with one.websocket_connect(ws_path(t)) as wa, two.websocket_connect(ws_path(t, "invite")) as wb:
            va, vb = state(wa)["view"], state(wb)["view"]
            assert va["connected"] == {"A": True, "B": False} and vb["connected"] == {"A": False, "B": True}
            assert answer(wb, {"type": "adjourn"})["view"]["status"] == "adjourned"
            assert state(wa, lambda m: m["view"]["status"] == "adjourned")["view"]["options"] == []
            assert answer(wa, {"type": "take_up"})["view"]["status"] == "playing"
            assert state(wb, lambda m: m["view"]["status"] == "playing")["view"]["connected"]["B"]


# ---------------------------------------------------------------- the chouette


def test_a_chouette_tells_who_is_connected_and_adjourns(client: TestClient, db: str) -> None:
    r = client.post("/api/chouettes", json={"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}],
                                            "seed": 4})
    assert r.status_code == 201, r.text
    c = r.json()
    links = {s["name"]: chouette_ws_path(s["url"]) for s in c["seats"]}

    def present(msg: Message) -> dict[str, bool]:
        return {p["name"]: p["connected"] for p in msg["view"]["chouette"]["players"]}

    with client.websocket_connect(links["Ann"]) as wa:
        assert present(state(wa)) == {"Ann": True, "Bob": False, "Cy": False}
        with client.websocket_connect(links["Bob"]) as wb, client.websocket_connect(links["Cy"]) as wc:
            state(wb)
            state(wc)
            assert present(state(wa, lambda m: all(present(m).values()))) == {"Ann": True, "Bob": True, "Cy": True}
        state(wa, lambda m: not any(present(m)[n] for n in ("Bob", "Cy")))
        adjourned = answer(wa, {"type": "adjourn"})
        assert adjourned["view"]["status"] == "adjourned" and adjourned["view"]["chouette"]["status"] == "adjourned"
        assert status_of(db, c["table"], chouette=True) == "adjourned"
        own = {x["table"]: x["status"] for x in listed(client, c, api="/api/chouettes")}
        assert own[c["table"]] == "adjourned"
    with client.websocket_connect(links["Cy"]) as wc:
        assert state(wc)["view"]["status"] == "adjourned"
        assert answer(wc, {"type": "take_up"})["view"]["chouette"]["status"] == "playing"


def test_unknown_sitting_words_are_malformed(client: TestClient) -> None:
    t = new_table(client, opponent="computer", level="random", name="Ann", seed=1)
    with client.websocket_connect(ws_path(t)) as ws:
        v = state(ws)["view"]
        bad = answer(ws, {"type": "adjourn-now"})
        assert bad["type"] == "error" and bad["code"] == "malformed"
        # Against the computer nobody has gone: there is nothing to adjourn by hand.
        refused = answer(ws, {"type": "adjourn"})
        assert refused["code"] == "illegal" and "every player is at the table" in refused["message"]
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}
        assert v["status"] == "playing"


def test_an_arrival_while_the_database_is_away_waits_for_it(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is told that is not stored (issue 17.3): the invited seat connecting while the database cannot be
    reached is told the table waits for its database, the host is not told of his arrival, and nothing is changed;
    once the database is back he arrives, stored, and the host is told."""
    from piquet.web.store import StoreUnavailable

    away = {"now": False}

    def unless_away(method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if away["now"]:
                raise StoreUnavailable("stopped for the test")
            return method(*args, **kwargs)
        return call

    monkeypatch.setattr(Store, "join", unless_away(Store.join))
    monkeypatch.setattr(Store, "ping", unless_away(Store.ping))
    with TestClient(create_app(db, poll=0)) as client:
        client.app.state.hub.outage.every = 0.05  # type: ignore[attr-defined]
        t = new_table(client, opponent="person", name="Ann", seed=seed_where("A"))
        with client.websocket_connect(ws_path(t)) as wa:
            assert state(wa)["view"]["status"] == "waiting"
            away["now"] = True
            with client.websocket_connect(ws_path(t, "invite") + "&name=Bob") as wb:
                told = receive(wb)
                assert told["type"] == "database" and told["up"] is False
                assert status_of(db, t["table"]) == "waiting"
                wb.send_json({"type": "ping"})
                assert receive(wb)["type"] == "pong"  # the socket stays open
                away["now"] = False
                back = receive(wb)
                assert back["type"] == "database" and back["up"] is True
                arrived = state(wb)
                assert arrived["view"]["status"] != "waiting" and arrived["view"]["players"]["B"] == "Bob"
                # Ann was told the database went, then that it came back, and only then of Bob.
                seen = [receive(wa) for _ in range(2)]
                assert [m["type"] for m in seen] == ["database", "database"] and seen[1]["up"] is True
                first = receive(wa)
                while first["type"] == "state" and first["view"]["status"] == "waiting":  # the table as stored
                    first = receive(wa)
                assert first["type"] == "state" and first["view"]["players"]["B"] == "Bob"
                assert status_of(db, t["table"]) != "waiting"
            # Bob's arrival and name are stored: a server started afresh has them.
        with TestClient(create_app(db, poll=0)) as again, again.websocket_connect(ws_path(t)) as wa2:
            assert state(wa2)["view"]["players"]["B"] == "Bob"


def test_a_socket_that_leaves_while_the_database_is_away_leaves_no_table(db: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The arrival refused for want of a database, the table is not kept in memory, whether or not the socket
    waits for the database to come back."""
    from piquet.web.store import StoreUnavailable

    def away(*args: Any, **kwargs: Any) -> Any:
        raise StoreUnavailable("stopped for the test")

    with TestClient(create_app(db, poll=0)) as client:
        hub: Any = client.app.state.hub  # type: ignore[attr-defined]
        t = new_table(client, opponent="person", name="Ann", seed=seed_where("A"))
        monkeypatch.setattr(Store, "join", away)
        monkeypatch.setattr(Store, "ping", away)
        with client.websocket_connect(ws_path(t, "invite")) as wb:
            assert receive(wb)["type"] == "database"
            assert t["table"] not in hub.tables
        wait_for(lambda: t["table"] not in hub.tables and t["table"] not in hub.locks)
        monkeypatch.undo()


def test_tables_left_at_once_are_adjourned_one_by_one_unloaded(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables whose persons all left at once (a restart, a network gone) are adjourned one after the other, each by
    its stored status alone: none is rebuilt in memory for it (a thousand at once stopped every table in play)."""
    import piquet.web.app as web_app

    with TestClient(create_app(db, poll=0, adjourn=0.3)) as client:
        hub: Any = client.app.state.hub  # type: ignore[attr-defined]
        tables = [person_table(client) for _ in range(6)]
        socks = []
        for t in tables:
            socks += [client.websocket_connect(ws_path(t)), client.websocket_connect(ws_path(t, "invite"))]
        for ws in socks:
            ws.__enter__()
            state(ws)
        loads: list[str] = []
        load = web_app.TwoSeats.load
        monkeypatch.setattr(web_app.TwoSeats, "load", lambda self, store, i: loads.append(i) or load(self, store, i))
        held: list[bool] = []
        adjourn = Store.adjourn
        monkeypatch.setattr(Store, "adjourn",
                            lambda self, i, chouette=False: held.append(hub.adjourning.locked()) or adjourn(self, i))
        for ws in socks:
            ws.__exit__(None, None, None)
        wait_for(lambda: all(status_of(db, t["table"]) == "adjourned" for t in tables))
        assert loads == [] and len(held) == len(tables) and all(held)
        assert not any(t["table"] in hub.tables for t in tables)
