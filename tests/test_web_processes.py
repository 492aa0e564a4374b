"""Several server processes on one database, a client that does not read, and PostgreSQL.

Issue 5 asks for a store "that can also run on PostgreSQL for a deployment with several server
processes".  Two apps (two hubs, as two processes would have) share one database: a seat on each
plays a whole partie, each seeing the other's actions through ``Hub.refresh``, and no message
names a card hidden from its seat.  The same runs on a throwaway PostgreSQL server when one can
be started here (``initdb`` and ``psycopg``; CI installs both and sets ``PIQUET_PG_REQUIRED=1``,
which turns a missing server into a failure instead of a skip).

A connection's outbox: a client that reads nothing never holds up the table or the other seat;
a state replaces an older one still waiting; too many messages waiting close the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketState

from piquet.records.record import PartieRecord, replay
from piquet.web.app import MAX_OUTBOX, Connection, create_app
from piquet.web.notify import Listener
from piquet.web.store import Mark, SeatRow, Store, TableRow
from test_web import check_log, choose_to_deal, new_table, random_action, receive, seed_where, stored, ws_path
from throwaway_pg import ThrowawayPostgres, require

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

Message = dict[str, Any]
T = TypeVar("T")
POLL = 0.02


def within(seconds: float, fn: Callable[[], T]) -> T:
    """Run ``fn`` in a thread; fail (not hang) if it has not returned in ``seconds``."""
    out: list[T] = []
    err: list[BaseException] = []

    def run() -> None:
        try:
            out.append(fn())
        except BaseException as e:  # handed to the test's thread
            err.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        pytest.fail(f"no answer in {seconds} s: a change made through one server was not seen by the other")
    if err:
        raise err[0]
    return out[0]


def until_version(ws: Any, version: int, log: list[Message]) -> Message:
    """Read until the state of ``version`` (or later) arrives."""
    while True:
        msg = receive(ws)
        log.append(msg)
        assert msg["type"] == "state", msg
        if msg["version"] >= version:
            return msg


def play_across_two_servers(db_url: str, seed: int, poll: float = POLL) -> tuple[int, int]:
    """Seat A on one app, seat B on another, one database: a whole partie; (actions, messages checked)."""
    with TestClient(create_app(db_url, poll=poll)) as one, TestClient(create_app(db_url, poll=poll)) as two:
        t = new_table(one, opponent="person", rules="rubicon", name="Ann", seed=seed)
        rng = random.Random(seed)
        logs: dict[str, list[Message]] = {"A": [], "B": []}
        with one.websocket_connect(ws_path(t)) as wa:
            first = receive(wa)
            logs["A"].append(first)
            assert first["view"]["status"] == "waiting"
            with two.websocket_connect(ws_path(t, "invite") + "&name=Bob") as wb:
                last = {"B": receive(wb)}
                logs["B"].append(last["B"])
                # Bob arrived through the other server: Ann's is told so (notified, or at its next look).
                last["A"] = until_version(wa, 0, logs["A"])
                assert last["A"]["view"]["players"] == {"A": "Ann", "B": "Bob"}
                assert last["A"]["view"]["status"] == last["B"]["view"]["status"] == "playing"
                socks = {"A": wa, "B": wb}
                actions = 0
                while last["A"]["view"]["status"] != "finished":
                    seat = "A" if last["A"]["view"]["my_turn"] else "B"
                    assert last[seat]["view"]["my_turn"]
                    version = last[seat]["version"]
                    socks[seat].send_json({"type": "action", "version": version,
                                           "action": random_action(last[seat]["view"], rng)})
                    actions += 1
                    for s in "AB":
                        last[s] = until_version(socks[s], version + 1, logs[s])
                    assert last["A"]["version"] == last["B"]["version"] == version + 1
        store = Store(db_url)
        try:
            row = store.load(t["table"])
            assert row is not None
            record = row.record
        finally:
            store.close()
    assert replay(PartieRecord.from_json(record)).is_finished
    return actions, check_log("A", logs["A"], seed, record, "AB") + check_log("B", logs["B"], seed, record, "AB")


@pytest.mark.slow
def test_two_servers_on_one_sqlite_file(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    actions, checked = within(120, lambda: play_across_two_servers(db, 17))
    assert actions > 100 and checked > 2 * actions


def test_a_server_that_does_not_look_sees_nothing(tmp_path: Path) -> None:
    """With ``poll=0`` the second server never learns of Bob: the test above depends on ``refresh``."""
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    with TestClient(create_app(db, poll=0)) as one, TestClient(create_app(db, poll=0)) as two:
        t = new_table(one, opponent="person", name="Ann", seed=3)
        with one.websocket_connect(ws_path(t)) as wa, two.websocket_connect(ws_path(t, "invite") + "&name=Bob") as wb:
            assert receive(wa)["view"]["status"] == "waiting"
            assert receive(wb)["view"]["status"] == "playing"
            hub = one.app.state.hub  # type: ignore[attr-defined]
            assert hub.tables[t["table"]].seats["B"].joined is False
            reloaded = one.portal.call(hub.refresh)  # type: ignore[union-attr]
            assert reloaded == [t["table"]]
            msg = receive(wa)
            assert msg["view"]["players"]["B"] == "Bob" and msg["view"]["status"] == "playing"
            assert one.portal.call(hub.refresh) == []  # type: ignore[union-attr]


def test_a_stale_server_refuses_and_sends_the_fresh_state(tmp_path: Path) -> None:
    """An action sent through a server that has not yet seen a move made through another is refused as
    stale, the fresh state is sent instead, and the store keeps the one action made."""
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    with TestClient(create_app(db, poll=0)) as one, TestClient(create_app(db, poll=0)) as two:
        t = new_table(one, opponent="person", name="Ann", seed=seed_where("A"))
        assert choose_to_deal(one, t) == 1
        with two.websocket_connect(ws_path(t, "invite")) as wb:
            receive(wb)
            with two.websocket_connect(ws_path(t)) as wa_two:  # Ann's seat, a second tab, on server two
                at_two = receive(wa_two)
                assert at_two["version"] == 1 and at_two["view"]["my_turn"]
                with one.websocket_connect(ws_path(t)) as wa_one:
                    at_one = receive(wa_one)
                    action = random_action(at_one["view"], random.Random(1))
                    wa_one.send_json({"type": "action", "version": 1, "action": action})
                    assert receive(wa_one)["version"] == 2
                # Server two still holds version 1: the same move sent through it cannot be stored.
                wa_two.send_json({"type": "action", "version": 1, "action": action})
                fresh = receive(wa_two)
                assert fresh["type"] == "state" and fresh["version"] == 2
                error = receive(wa_two)
                assert error["type"] == "error" and error["code"] == "stale", error
        store = Store(db)
        try:
            row = store.load(t["table"])
            assert row is not None and row.version == 2
            assert len(replay(PartieRecord.from_json(row.record)).deals[0].history) == 1
        finally:
            store.close()


# ---------------------------------------------------------------- the outbox


class StuckSocket:
    """A websocket whose client reads nothing: every send waits forever."""

    def __init__(self) -> None:
        self.application_state = WebSocketState.CONNECTED
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.release = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.release.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


def test_a_client_that_does_not_read_holds_nothing_up() -> None:
    async def run() -> None:
        ws = StuckSocket()
        conn = Connection(ws, "A")  # type: ignore[arg-type]
        conn.start()
        t0 = time.monotonic()
        conn.post("first", state=True)  # taken by the sender, which then waits on the client
        await asyncio.sleep(0.01)
        for i in range(5):
            conn.post(f"state {i}", state=True)  # returns at once; the newest state replaces the older ones
        conn.post("an error")
        assert time.monotonic() - t0 < 0.5
        assert [m for _, m in conn._outbox] == ["state 4", "an error"]
        conn.post("state 5", state=True)
        assert [m for _, m in conn._outbox] == ["an error", "state 5"]
        ws.release.set()
        await asyncio.sleep(0.05)
        assert ws.sent == ["first", "an error", "state 5"] and not conn.closed
        await conn.stop()

    asyncio.run(run())


def test_a_client_too_far_behind_is_closed() -> None:
    async def run() -> None:
        ws = StuckSocket()
        conn = Connection(ws, "B")  # type: ignore[arg-type]
        conn.start()
        conn.post("first")
        await asyncio.sleep(0.01)
        for i in range(MAX_OUTBOX):
            conn.post(f"pong {i}")
        assert not conn.closed
        conn.post("one too many")
        assert conn.closed and not conn._outbox
        conn.post("after")  # nothing more is queued
        assert not conn._outbox
        ws.release.set()
        await asyncio.sleep(0.05)
        assert ws.closed_with == 1013  # "try again later": the page reconnects and is sent the state
        assert ws.sent == ["first"]
        await conn.stop()

    asyncio.run(run())


# ---------------------------------------------------------------- PostgreSQL


def _postgres() -> ThrowawayPostgres:
    """A throwaway server, or a skip (a failure under ``PIQUET_PG_REQUIRED=1``) saying why there is none."""
    require()
    return ThrowawayPostgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL server on a Unix socket, for this module; its URL."""
    with _postgres() as pg:
        yield pg.url


@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_the_store_on_postgresql(postgres_url: str) -> None:
    store = Store(postgres_url)
    other = Store(postgres_url)  # another process's: ``marks`` gives only the tables another store wrote last
    try:
        seats = {"A": SeatRow("human", "Ann", None, "h" * 64, False), "B": SeatRow("computer", "Bot", "random", None,
                                                                                    True)}
        row = TableRow(id="pg1", created=1.0, updated=1.0, rules="rubicon", opponent="computer", seed=2**40,
                       status="playing", version=0, scores={"A": 0, "B": 0}, seats=seats, record="{}")
        store.insert(row)
        loaded = store.load("pg1")
        assert loaded is not None and loaded.seed == 2**40 and loaded.seats == seats
        assert other.marks(["pg1", "nothing"]) == {"pg1": Mark(0, (False, True), ("Ann", "Bot"), ("h" * 64, None))}
        assert store.marks(["pg1"]) == {}  # its own
        assert store.save("pg1", 0, 1, '{"x": 1}', "playing", {"A": 3, "B": 0})
        assert not store.save("pg1", 0, 1, '{"x": 2}', "playing", {"A": 9, "B": 0})  # stale: not overwritten
        store.join("pg1", "A", "Ann Lee", "playing")
        assert other.marks(["pg1"])["pg1"] == Mark(1, (True, True), ("Ann Lee", "Bot"), ("h" * 64, None))
        assert store.set_token("pg1", "A", "h" * 64, "k" * 64) and not store.set_token("pg1", "A", "h" * 64, "j" * 64)
        assert other.marks(["pg1"])["pg1"].tokens == ("k" * 64, None)
        again = store.load("pg1")
        assert again is not None and again.record == '{"x": 1}' and again.scores == {"A": 3, "B": 0}
        assert [r.id for r in store.list()] == ["pg1"]
    finally:
        store.close()
        other.close()


@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_two_servers_on_postgresql(postgres_url: str) -> None:
    """No polling (``poll=0``): each server hears of the other's every action by its notification alone."""
    actions, checked = within(180, lambda: play_across_two_servers(postgres_url, 23, poll=0))
    assert actions > 100 and checked > 2 * actions


@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_a_link_revoked_on_postgresql(postgres_url: str) -> None:
    """No polling: a seat's link revoked through one server closes its socket on the other, by the notification of
    the new token alone (issue 17, items 2 and 5)."""
    from test_web import new_table
    from test_web_security import hello, refused

    with TestClient(create_app(postgres_url, poll=0)) as one, TestClient(create_app(postgres_url, poll=0)) as two:
        t = new_table(one, opponent="person", name="Ann", seed=8)
        with two.websocket_connect(f"/ws/{t['table']}") as ws:
            assert hello(ws, t["token"])["seat"] == "A"
            r = one.post(f"/api/tables/{t['table']}/new-link", headers={"Authorization": f"Bearer {t['token']}"})
            assert r.status_code == 200, r.text
            err, code = refused(ws)
            assert code == 4401 and err["code"] == "token", err


@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_a_server_hears_only_the_others(postgres_url: str) -> None:
    """Each change is notified once, in its transaction, with who made it: the maker's own listener ignores it,
    another's hands it on; a stale save (nothing stored) notifies nothing."""
    async def run() -> tuple[list[str], list[str]]:
        heard: dict[str, list[str]] = {"one": [], "two": []}
        one, two = Store(postgres_url), Store(postgres_url)
        listeners = [Listener(postgres_url, store.origin, heard[name].append, lambda: None, asyncio.sleep)
                     for name, store in (("one", one), ("two", two))]
        try:
            for listener in listeners:
                listener.start()
                await asyncio.wait_for(listener.listening.wait(), 10)
            seats = {"A": SeatRow("human", "Ann", None, "h" * 64, True), "B": SeatRow("human", "Bob", None,
                                                                                      "g" * 64, False)}
            row = TableRow(id="heard", created=1.0, updated=1.0, rules="rubicon", opponent="person", seed=1,
                           status="waiting", version=0, scores={"A": 0, "B": 0}, seats=seats, record="{}")
            await asyncio.to_thread(one.insert, row)
            assert await asyncio.to_thread(one.save, "heard", 0, 1, "{}", "playing", {"A": 0, "B": 0})
            assert not await asyncio.to_thread(one.save, "heard", 0, 1, "{}", "playing", {"A": 0, "B": 0})
            await asyncio.to_thread(two.join, "heard", "B", "Bob", "playing")
            await asyncio.sleep(0.3)
        finally:
            for listener in listeners:
                await listener.close()
            one.close()
            two.close()
        return heard["one"], heard["two"]

    by_one, by_two = asyncio.run(run())
    assert by_two == ["heard"]  # one's save (not its stale one, nor the insert)
    assert by_one == ["heard"]  # two's join


def _first(ws: Any, kind: str, log: list[Message]) -> Message:
    """Read until a message of this type comes (the others kept in ``log``)."""
    while True:
        msg = receive(ws)
        log.append(msg)
        if msg["type"] == kind:
            return msg


@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_the_database_goes_away_and_comes_back(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 17.3: PostgreSQL stopped during play, then started.  Meanwhile the seats are told their table waits
    for its database and their sockets stay open; a move is refused as not saved (and why) and changes nothing;
    a socket opened meanwhile waits, open; HTTP answers 503, a page or (under /api) JSON; the log says once that
    the database went and once that it is back, with no traceback.  Back, the state is sent again as stored
    (every acknowledged move in it), and the move refused before is made."""
    with _postgres() as pg, caplog.at_level(logging.INFO, logger="piquet.web"), \
            TestClient(create_app(pg.url, poll=0)) as client:
        t = new_table(client, opponent="person", name="Ann", seed=seed_where("A"))
        assert choose_to_deal(client, t) == 1
        log: dict[str, list[Message]] = {"A": [], "B": []}
        rng = random.Random(5)
        with client.websocket_connect(ws_path(t)) as wa, client.websocket_connect(ws_path(t, "invite")) as wb:
            socks = {"A": wa, "B": wb}
            last = {"A": until_version(wa, 1, log["A"]), "B": until_version(wb, 1, log["B"])}
            for _ in range(3):  # three moves acknowledged: each seat has the state after it
                seat = "A" if last["A"]["view"]["my_turn"] else "B"
                version = last[seat]["version"]
                socks[seat].send_json({"type": "action", "version": version,
                                       "action": random_action(last[seat]["view"], rng)})
                for s in "AB":
                    last[s] = until_version(socks[s], version + 1, log[s])
            acknowledged = last["A"]["version"]
            assert acknowledged == 4

            pg.stop()
            for s in "AB":
                away = _first(socks[s], "database", log[s])
                assert away["up"] is False and "waits for its database" in away["message"], away
            seat = "A" if last["A"]["view"]["my_turn"] else "B"
            move = random_action(last[seat]["view"], rng)
            socks[seat].send_json({"type": "action", "version": acknowledged, "action": move})
            refused = _first(socks[seat], "error", log[seat])
            assert refused["code"] == "unsaved", refused
            assert "not saved" in refused["message"] and "cannot be reached" in refused["message"]

            page = client.get(f"/t/{t['table']}")
            assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
            assert "waits for its database" in page.text and "Traceback" not in page.text
            api = client.get("/api/tables")
            assert api.status_code == 503 and "cannot be reached" in api.json()["error"]
            assert client.get("/api/health").status_code == 503
            assert client.post("/api/tables", json={"opponent": "person"}).status_code == 503

            with client.websocket_connect(ws_path(t)) as late:  # a tab opened meanwhile: told, and kept open
                assert receive(late)["type"] == "database"
                late.send_json({"type": "ping"})
                assert receive(late) == {"type": "pong"}
                time.sleep(1.5)  # longer than the probe's wait: nobody reconnects, nothing is logged again
                pg.start()
                states = [m for m in (receive(late), receive(late)) if m["type"] == "state"]
                assert states and states[0]["version"] == acknowledged

            for s in "AB":
                back = _first(socks[s], "database", log[s])
                assert back["up"] is True
                fresh = _first(socks[s], "state", log[s])
                assert fresh["version"] == acknowledged  # the refused move was not made; nothing is lost
                last[s] = fresh
            socks[seat].send_json({"type": "action", "version": acknowledged, "action": move})
            for s in "AB":
                last[s] = until_version(socks[s], acknowledged + 1, log[s])
            assert [m for m in log[seat] if m["type"] == "error"] == [refused]
        assert client.get("/api/health").json()["database"] == "up"
        version, record = stored(pg.url, t["table"])
        assert version == acknowledged + 1
        for s in "AB":
            check_log(s, [m for m in log[s] if m["type"] == "state"], seed_where("A"), record, "AB")
    said = [r for r in caplog.records if r.name == "piquet.web" and r.levelno >= logging.WARNING]
    assert [r.getMessage().split(" (")[0].split(" after")[0] for r in said] == [
        "the database cannot be reached", "the database is back"], [r.getMessage() for r in said]
    assert not any(r.exc_info for r in caplog.records)



@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_several_processes_behind_one_port(postgres_url: str, tmp_path: Path) -> None:
    """``piquet serve --workers 2`` on PostgreSQL: two processes answer on the one port (each names itself in
    ``/api/health``), and the seats of a partie, however their sockets fall on them, see each move at once
    (three sockets a seat, so that both processes hold some)."""
    from websockets.sync.client import connect

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "piquet", "serve", "--port", str(port), "--db", postgres_url,
                                   "--pace", "0", "--workers", "2", "--log-level", "warning"],
                                  stdout=out, stderr=subprocess.STDOUT)
    try:
        processes: set[str] = set()
        deadline = time.monotonic() + 60
        while len(processes) < 2:
            assert time.monotonic() < deadline and server.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=5) as r:  # a new connection each time
                    processes.add(json.loads(r.read())["process"])
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        body = json.dumps({"opponent": "person", "name": "Ann", "seed": 11}).encode()
        request = urllib.request.Request(base + "/api/tables", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            t = json.loads(r.read())
        with contextlib.ExitStack() as opened:
            socks = {seat: [opened.enter_context(connect(f"ws://127.0.0.1:{port}{ws_path(t, link)}", open_timeout=10))
                            for _ in range(3)] for seat, link in (("A", "url"), ("B", "invite"))}
            rng = random.Random(11)
            for version in range(12):  # the choice of deal, the exchange, the calls, the first tricks
                last: dict[str, Message] = {}
                for seat, conns in socks.items():
                    for ws in conns:  # every socket of each seat reaches the newest state, whichever process holds it
                        while (msg := json.loads(ws.recv(timeout=10)))["type"] != "state" or msg["version"] < version:
                            pass
                        assert msg["version"] == version
                        last[seat] = msg
                seat = "A" if last["A"]["view"]["my_turn"] else "B"
                assert last[seat]["view"]["my_turn"]
                socks[seat][rng.randrange(3)].send(json.dumps({"type": "action", "version": version,
                                                               "action": random_action(last[seat]["view"], rng)}))
    finally:
        server.terminate()
        server.wait(20)
    assert "Traceback" not in log.read_text()
