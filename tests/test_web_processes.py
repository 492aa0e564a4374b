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
import os
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
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
from piquet.web.store import Mark, SeatRow, Store, TableRow
from test_web import check_log, choose_to_deal, new_table, random_action, receive, seed_where, ws_path

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


def play_across_two_servers(db_url: str, seed: int) -> tuple[int, int]:
    """Seat A on one app, seat B on another, one database: a whole partie; (actions, messages checked)."""
    with TestClient(create_app(db_url, poll=POLL)) as one, TestClient(create_app(db_url, poll=POLL)) as two:
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
                # Bob arrived through the other server: Ann's is told so by its next look at the store.
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


def _initdb() -> str | None:
    found = shutil.which("initdb")
    if found:
        return found
    for path in sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True):
        return str(path)
    return None


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL server on a Unix socket, for this module; its URL."""
    required = os.environ.get("PIQUET_PG_REQUIRED") == "1"
    why = None
    initdb = _initdb()
    try:
        import psycopg  # noqa: F401
    except ImportError:
        why = "the psycopg driver is not installed (pip install -e '.[test]')"
    if initdb is None:
        why = "PostgreSQL's initdb is not installed (apt-get install postgresql)"
    if why is not None:
        if required:
            pytest.fail(why)
        pytest.skip(why)
    assert initdb is not None
    bindir = Path(initdb).resolve().parent
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        as_user = ["runuser", "-u", "postgres", "--"]
    root = tempfile.mkdtemp(prefix="piquet-pg-")
    os.chmod(root, 0o755)
    if as_user:
        shutil.chown(root, "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", f"{root}/data", "-A", "trust", "-U", "piquet"],
                   check=True, capture_output=True)
    server = subprocess.Popen([*as_user, str(bindir / "postgres"), "-D", f"{root}/data", "-k", root,
                               "-p", str(port), "-c", "listen_addresses="],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while subprocess.run([str(bindir / "pg_isready"), "-h", root, "-p", str(port)],
                             capture_output=True).returncode != 0:
            if time.monotonic() > deadline or server.poll() is not None:
                pytest.fail("the throwaway PostgreSQL server did not start")
            time.sleep(0.2)
        yield f"postgresql+psycopg://piquet@/postgres?host={root}&port={port}"
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_the_store_on_postgresql(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        seats = {"A": SeatRow("human", "Ann", None, "h" * 64, False), "B": SeatRow("computer", "Bot", "random", None,
                                                                                    True)}
        row = TableRow(id="pg1", created=1.0, updated=1.0, rules="rubicon", opponent="computer", seed=2**40,
                       status="playing", version=0, scores={"A": 0, "B": 0}, seats=seats, record="{}")
        store.insert(row)
        loaded = store.load("pg1")
        assert loaded is not None and loaded.seed == 2**40 and loaded.seats == seats
        assert store.marks(["pg1", "nothing"]) == {"pg1": Mark(0, (False, True), ("Ann", "Bot"), ("h" * 64, None))}
        assert store.save("pg1", 0, 1, '{"x": 1}', "playing", {"A": 3, "B": 0})
        assert not store.save("pg1", 0, 1, '{"x": 2}', "playing", {"A": 9, "B": 0})  # stale: not overwritten
        store.join("pg1", "A", "Ann Lee", "playing")
        assert store.marks(["pg1"])["pg1"] == Mark(1, (True, True), ("Ann Lee", "Bot"), ("h" * 64, None))
        assert store.set_token("pg1", "A", "h" * 64, "k" * 64) and not store.set_token("pg1", "A", "h" * 64, "j" * 64)
        assert store.marks(["pg1"])["pg1"].tokens == ("k" * 64, None)
        again = store.load("pg1")
        assert again is not None and again.record == '{"x": 1}' and again.scores == {"A": 3, "B": 0}
        assert [r.id for r in store.list()] == ["pg1"]
    finally:
        store.close()


@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_two_servers_on_postgresql(postgres_url: str) -> None:
    actions, checked = within(180, lambda: play_across_two_servers(postgres_url, 23))
    assert actions > 100 and checked > 2 * actions
