"""The server's save path and memory under load (issue 17, item 1): the log of actions with its snapshots, old
databases opened, saves gathered into one transaction, the JSON of a state, and what a table leaves behind in
memory when its clients have gone."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Column, Float, Integer, MetaData, String, Text, create_engine, insert, update
from sqlalchemy import Table as SqlTable
from starlette.testclient import TestClient

from piquet.web import protocol
from piquet.web.app import create_app
from piquet.web.protocol import state_text
from piquet.web.store import Save, SaveQueue, SeatRow, Store, TableRow, database_url, piquet_actions
from piquet.web.table import SNAPSHOT_EVERY, Table
from test_web import make_table, new_table, play_out, random_action, receive, ws_path


def _seats() -> dict[str, SeatRow]:
    return {s: SeatRow("human", n, None, None, True) for s, n in (("A", "Ann"), ("B", "Bob"))}


def _row(table: Table) -> TableRow:
    return TableRow(id=table.id, created=0.0, updated=0.0, rules=table.rules.spec, opponent=table.opponent,
                    seed=table.seed, status=table.status, version=table.version, scores=table.scores,
                    seats=_seats(), record=table.record_json())


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    s = Store(database_url(db))
    try:
        yield s
    finally:
        s.close()


def _stored(store: Store, seed: int) -> Table:
    """A new table between persons, stored."""
    table = make_table(seed, persons=True)
    store.insert(_row(table))
    return table


def _play_through(socks: dict[str, Any], rng: random.Random, actions: int) -> dict[str, Any]:
    """Both seats connected (the second's arrival told to the first), then ``actions`` random actions through
    the sockets; the last state each seat was sent."""
    last = {"A": receive(socks["A"]), "B": receive(socks["B"])}
    last["A"] = receive(socks["A"])  # B's arrival
    for _ in range(actions):
        seat = "A" if last["A"]["view"]["my_turn"] else "B"
        socks[seat].send_json({"type": "action", "version": last[seat]["version"],
                               "action": random_action(last[seat]["view"], rng)})
        for s in "AB":
            while (m := receive(socks[s]))["type"] != "state":
                pass
            last[s] = m
    return last


def _act(table: Table, rng: random.Random) -> tuple[int, Save]:
    """One random action at ``table``, and its save for the log (no record)."""
    seat = table.to_move()
    assert seat is not None
    old = table.version
    msg = {"type": "action", "version": old, "action": random_action(table.view(seat), rng)}
    decoded = protocol.decode_message(msg)
    assert decoded.action is not None
    table.apply(seat, decoded.action, decoded.version)
    logged = table.logged()
    assert logged is not None and logged[0] == seat
    return old, Save(table.id, old, table.version, table.status, table.scores, *logged)


def test_the_log_and_its_snapshots_rebuild_the_table(store: Store) -> None:
    """Actions stored one by one in the log: ``load`` gives the whole record as it is now, ``load_logged`` the
    snapshot and the log, and the table rebuilt from them is the one played, at every step."""
    rng = random.Random(3)
    table = _stored(store, 21)
    for _ in range(60):
        _, save = _act(table, rng)
        assert store.save_all([save]) == [True]
        logged = store.load_logged(table.id)
        assert logged is not None and logged.version == table.version
        assert len(logged.log) == table.version - (logged.snapshot or 0)
        again = Table.from_log(table.id, table.seats, logged.record, "person", logged.snapshot or 0, logged.log)
        assert again.version == table.version and again.view("A") == table.view("A")
        current = store.load(table.id)
        assert current is not None and current.record == table.record_json() and current.log == ()


def test_a_snapshot_empties_the_log(store: Store) -> None:
    """A whole record stored (``save``) is the new snapshot: the log before it is deleted."""
    rng = random.Random(5)
    table = _stored(store, 8)
    for _ in range(10):
        _, save = _act(table, rng)
        assert store.save_all([save]) == [True]
    with store.engine.connect() as conn:
        assert len(conn.execute(piquet_actions.select()).all()) == 10
    old = table.version
    _act(table, rng)
    assert store.save(table.id, old, table.version, table.record_json(), table.status, table.scores)
    logged = store.load_logged(table.id)
    assert logged is not None and logged.snapshot == table.version and logged.log == ()
    with store.engine.connect() as conn:
        assert conn.execute(piquet_actions.select()).all() == []


def test_a_stale_save_stores_nothing(store: Store) -> None:
    """A save from a version the table no longer has is refused (False): no row changed, no log entry."""
    rng = random.Random(1)
    table = _stored(store, 4)
    _, first = _act(table, rng)
    assert store.save_all([first]) == [True]
    _, second = _act(table, rng)
    stale = Save(second.table_id, second.old_version - 1, second.version, second.status, second.scores,
                 second.seat, second.action)
    assert store.save_all([stale]) == [False]
    logged = store.load_logged(table.id)
    assert logged is not None and logged.version == first.version and len(logged.log) == 1


def test_one_bad_save_does_not_lose_the_others(store: Store) -> None:
    """A transaction of several saves that fails (here a log entry already there) is tried again save by
    save: the others are stored, the bad one reports its error and changes nothing."""
    rng = random.Random(2)
    good, bad = _stored(store, 1), _stored(store, 2)
    _, save_good = _act(good, rng)
    _, save_bad = _act(bad, rng)
    with store.engine.begin() as conn:  # a log entry in the way of the bad one's
        conn.execute(insert(piquet_actions).values(table_id=bad.id, version=save_bad.version, seat="A",
                                                   action="{}"))
    out = store.save_all([save_good, save_bad])
    assert out[0] is True and isinstance(out[1], Exception)
    row_good, row_bad = store.load_logged(good.id), store.load_logged(bad.id)
    assert row_good is not None and row_good.version == good.version
    assert row_bad is not None and row_bad.version == 0


def test_saves_of_several_tables_are_stored_together(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Actions of several tables, all still at their old versions, are stored by one statement for the tables and
    one for the log; when one has moved on, that one is refused (False) and the others stored, each alone."""
    rng = random.Random(6)
    tables = [_stored(store, 30 + i) for i in range(4)]
    saves = [_act(t, rng)[1] for t in tables]
    alone: list[str] = []
    one = store._save_one

    def counted(conn: Any, x: Save) -> bool:
        alone.append(x.table_id)
        return one(conn, x)

    monkeypatch.setattr(store, "_save_one", counted)
    assert store.save_all(saves) == [True] * 4
    assert alone == []  # together: none alone
    for t in tables:
        logged = store.load_logged(t.id)
        assert logged is not None and logged.version == t.version == 1 and len(logged.log) == 1
    # Again, the third table's save from a version it no longer has: refused; the others stored.
    saves = [_act(t, rng)[1] for t in tables]
    stale = saves[2]
    saves[2] = Save(stale.table_id, stale.old_version - 1, stale.version, stale.status, stale.scores, stale.seat,
                    stale.action)
    assert store.save_all(saves) == [True, True, False, True]
    assert alone == [t.id for t in tables]  # tried together, rolled back, then each alone
    for i, t in enumerate(tables):
        logged = store.load_logged(t.id)
        assert logged is not None and logged.version == (1 if i == 2 else 2) and len(logged.log) == logged.version
    # Two actions of one table in one batch: each alone, in order (the second follows the first).
    alone.clear()
    first = _act(tables[0], rng)[1]
    second = _act(tables[0], rng)[1]
    assert store.save_all([first, second]) == [True, True]
    assert alone == [tables[0].id] * 2


def test_the_server_copies_the_log_into_the_database_itself(db: str, tmp_path: Path) -> None:
    """With ``background_checkpoints`` (the server's store) no commit copies SQLite's write-ahead log into the
    database file (that waits for the disk); ``checkpoint`` does: before it the file alone (without its log) has
    none of the actions stored, after it every one."""
    import shutil
    import sqlite3

    store = Store(database_url(db), background_checkpoints=True)
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        rng = random.Random(8)
        tables = [_stored(store, 50 + i) for i in range(3)]
        for _ in range(40):  # more than SQLite's automatic checkpoint would let pile up (1000 pages: not here)
            assert store.save_all([_act(t, rng)[1] for t in tables]) == [True] * 3

        def in_file_alone() -> int:
            """The actions in a copy of the database file without its log."""
            copy = tmp_path / f"alone-{time.monotonic_ns()}.db"
            shutil.copy(db, copy)
            with contextlib.closing(sqlite3.connect(copy)) as c:
                found = c.execute("SELECT name FROM sqlite_master WHERE name = 'piquet_actions'").fetchall()
                return c.execute("SELECT count(*) FROM piquet_actions").fetchone()[0] if found else 0

        assert in_file_alone() < 120
        store.checkpoint()
        assert in_file_alone() == 120
    finally:
        store.close()
    plain = Store(database_url(db))  # any other store of the file: SQLite's automatic checkpoints, as ever
    try:
        assert not plain.checkpoints  # its commits may wait for the disk: the save queue writes from a thread
        with plain.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    finally:
        plain.close()


def test_the_server_checkpoints_its_sqlite_file(db: str) -> None:
    """The server's store leaves checkpoints to the server, which makes one every ``CHECKPOINT_EVERY`` s."""
    from piquet.web.app import CHECKPOINT_EVERY
    with TestClient(create_app(db)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.store.checkpoints and hub.checkpointer is not None
        calls = []
        checkpoint = hub.store.checkpoint
        hub.store.checkpoint = lambda: (calls.append(1), checkpoint())[1]
        deadline = time.monotonic() + 3 * CHECKPOINT_EVERY + 5
        while not calls and time.monotonic() < deadline:
            time.sleep(0.05)
        assert calls and not hub.checkpointer.done()


def test_the_poll_reads_only_what_another_process_wrote(db: str, store: Store) -> None:
    """``marks`` (the poll for tables changed by another server process) gives only the tables another store wrote
    last, or whose row has no ``origin`` (a database from before it): a process alone reads nothing back."""
    from piquet.web.store import piquet_tables
    rng = random.Random(9)
    mine, theirs, old = _stored(store, 60), _stored(store, 61), _stored(store, 62)
    other = Store(database_url(db))
    try:
        assert store.save_all([_act(mine, rng)[1]]) == [True]
        assert store.marks([mine.id, theirs.id, old.id]) == {}
        _, save = _act(theirs, rng)
        assert other.save_all([save]) == [True]  # another process's action
        with store.engine.begin() as conn:
            conn.execute(update(piquet_tables).where(piquet_tables.c.id == old.id).values(origin=None))
        marks = store.marks([mine.id, theirs.id, old.id])
        assert set(marks) == {theirs.id, old.id} and marks[theirs.id].version == 1
        assert set(other.marks([mine.id, theirs.id, old.id])) == {mine.id, old.id}
    finally:
        other.close()


def test_saves_that_come_together_share_a_transaction(store: Store) -> None:
    """The save queue writes what was waiting in one ``save_all``; each caller learns its own outcome."""
    rng = random.Random(4)
    calls: list[int] = []
    save_all = store.save_all

    def counted(saves: list[Save]) -> list[bool | Exception]:
        calls.append(len(saves))
        return save_all(saves)

    store.save_all = counted  # type: ignore[method-assign]
    tables = [_stored(store, 10 + i) for i in range(20)]
    saves = [_act(t, rng)[1] for t in tables]
    stale = Save(saves[0].table_id, 7, 8, "playing", {"A": 0, "B": 0}, "A", "{}")

    async def main() -> list[bool]:
        queue = SaveQueue(store)
        out = await asyncio.gather(*(queue.save(x) for x in [*saves, stale]))
        await queue.close()
        return list(out)

    assert asyncio.run(main()) == [True] * 20 + [False]
    assert sum(calls) == 21 and len(calls) <= 2, calls
    for t in tables:
        row = store.load_logged(t.id)
        assert row is not None and row.version == t.version


def test_an_old_database_is_given_the_log(db: str) -> None:
    """A database made before the log (no ``snapshot`` column, whole records) is opened, read and played on."""
    old = MetaData()
    columns = [Column("id", String(40), primary_key=True), Column("created", Float), Column("updated", Float),
               Column("rules", String(40)), Column("opponent", String(16)), Column("seed", Integer),
               Column("status", String(16)), Column("version", Integer), Column("score_a", Integer),
               Column("score_b", Integer)]
    for p in "ab":
        columns += [Column(f"{p}_kind", String(16)), Column(f"{p}_name", String(80)), Column(f"{p}_level", String(40)),
                    Column(f"{p}_token", String(64)), Column(f"{p}_joined", Integer)]
    tables = SqlTable("piquet_tables", old, *columns, Column("record", Text))
    rng = random.Random(6)
    table = make_table(12, persons=True)
    for _ in range(7):
        _act(table, rng)
    engine = create_engine(database_url(db))
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(insert(tables).values(
            id=table.id, created=0.0, updated=0.0, rules="rubicon", opponent="person", seed=table.seed,
            status="playing", version=table.version, score_a=0, score_b=0, a_kind="human", a_name="Ann",
            a_level=None, a_token=None, a_joined=1, b_kind="human", b_name="Bob", b_level=None, b_token=None,
            b_joined=1, record=table.record_json()))
    engine.dispose()
    store = Store(database_url(db))
    try:
        row = store.load_logged(table.id)
        assert row is not None and row.snapshot is None and row.version == table.version
        _, save = _act(table, rng)
        assert store.save_all([save]) == [True]
        current = store.load(table.id)
        assert current is not None and current.record == table.record_json()
    finally:
        store.close()


def test_a_snapshot_is_due_at_each_deal_and_every_so_many_actions() -> None:
    table = make_table(9, persons=True)
    rng = random.Random(9)
    deals, since = len(table.partie.deals), 0
    while table.to_move() is not None:
        _act(table, rng)
        due = table.snapshot_due()
        assert due == (table.finished or len(table.partie.deals) != deals or since + 1 >= SNAPSHOT_EVERY)
        since += 1
        if due:
            table.snapshot, table.snapshot_deals = table.version, len(table.partie.deals)
            deals, since = len(table.partie.deals), 0


def test_state_text_is_the_message() -> None:
    """The JSON of a state, its shared parts encoded once, reads back as the message, at every step of a partie
    (and of a state before the deal, and of a message that is no state)."""
    table = make_table(14, persons=True)
    rng = random.Random(14)
    n = 0
    while table.to_move() is not None:
        for seat in "AB":
            message = table.message(seat)
            assert json.loads(state_text(message)) == json.loads(json.dumps(message))
            # As a server sends it: the shared parts as the texts kept for them, the same JSON.
            assert json.loads(state_text(table.message(seat, told=True))) == json.loads(json.dumps(message))
        _act(table, rng)
        n += 1
    final = table.message("A")
    assert json.loads(state_text(final)) == json.loads(json.dumps(final)) and n > 100
    assert json.loads(state_text({"type": "pong"})) == {"type": "pong"}


def test_the_deal_caches_are_bounded_in_bytes() -> None:
    """Past its budget a cache drops the least recently used deals, weighed by their events."""
    cache: protocol._DealCache[int] = protocol._DealCache(100, 50_000)
    parties = []
    for seed in range(6):
        table = make_table(seed)
        play_out(table, random.Random(seed))
        parties.append(table.partie)
        for deal in table.partie.deals:
            assert cache.kept_for(deal, lambda s=seed: s) == seed
            assert cache.bytes <= 50_000
    assert 0 < len(cache) < sum(len(p.deals) for p in parties)
    last = parties[-1].deals[-1]
    assert cache.value(last) == 5
    cache.forget(last)
    assert cache.value(last) is None


def test_a_table_left_leaves_nothing_behind(db: str) -> None:
    """Once its clients have gone, a table's state, its lock and what the views kept of its deals are let go."""
    with TestClient(create_app(db, poll=0)) as client:
        hub: Any = client.app.state.hub  # type: ignore[attr-defined]
        t = new_table(client, opponent="person", seed=3)
        rng = random.Random(3)
        with client.websocket_connect(ws_path(t)) as wa, client.websocket_connect(ws_path(t, "invite")) as wb:
            _play_through({"A": wa, "B": wb}, rng, 12)
            table = hub.tables[t["table"]]
            deals = list(table.partie.deals)
            assert deals and any(protocol._TOLD.value(d) is not None for d in deals)
        for _ in range(50):  # the server sees the sockets close
            if t["table"] not in hub.tables:
                break
            client.get("/api/tables")
        assert t["table"] not in hub.tables and t["table"] not in hub.locks and t["table"] not in hub.conns
        assert all(c.value(d) is None for d in deals for c in (protocol._EVENTS, protocol._TOLD,
                                                              protocol._LAST_TOLD))


@pytest.mark.parametrize("spec", ["rubicon", "au-cent"])
def test_a_table_played_on_a_new_server_from_its_log(db: str, spec: str) -> None:
    """Mid-deal, a second server on the same database rebuilds the table from its snapshot and log: the same
    state, and play goes on."""
    rng = random.Random(7)
    with TestClient(create_app(db, poll=0)) as c1:
        t = new_table(c1, opponent="person", seed=17, rules=spec)
        with c1.websocket_connect(ws_path(t)) as wa, c1.websocket_connect(ws_path(t, "invite")) as wb:
            last = _play_through({"A": wa, "B": wb}, rng, 25)
        row = c1.app.state.store.load_logged(t["table"])  # type: ignore[attr-defined]
        assert row is not None and row.log, "mid-deal, the last actions are in the log"
    with TestClient(create_app(db, poll=0)) as c2, c2.websocket_connect(ws_path(t)) as wa:
        again = receive(wa)
        assert again["version"] == last["A"]["version"]
        assert {**again["view"], "connected": None} == {**last["A"]["view"], "connected": None}  # B is not here


def test_what_a_table_keeps_between_actions_is_text() -> None:
    """The server keeps, from one action to the next, what it sends as text (each event and line told, the last
    deal, what each socket was sent): few objects for the collector to follow.  Kept as dicts and lists they were
    about 50 an action (docs/web.md, *Performance*); here, as the hub does it, fewer than 20."""
    import gc

    tables = [make_table(seed, persons=True) for seed in range(100)]
    sent: dict[tuple[int, str], protocol.Sent | None] = {}
    rng = random.Random(5)

    def act(k: int) -> bool:
        table = tables[k]
        if table.to_move() is None:
            return False
        _act(table, rng)
        for seat in "AB":
            _, sent[k, seat] = protocol.encode_state(table.message(seat, told=True), sent.get((k, seat)))
        return True

    for _ in range(1500):
        act(rng.randrange(len(tables)))
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        before = len(gc.get_objects(0))
        acted = sum(act(rng.randrange(len(tables))) for _ in range(1000))
        kept = len(gc.get_objects(0)) - before
    finally:
        if was:
            gc.enable()
    assert acted > 900
    assert kept / acted < 20, f"{kept / acted:.1f} objects kept an action"
