"""Where tables are kept: SQLAlchemy Core, SQLite by default, PostgreSQL by URL.

One row per table holds its seats (the persons' tokens hashed), its seed, its status, its
version and a snapshot of its record (``piquet.records.record``) at version ``snapshot``; the actions
since the snapshot are a log, one row each in ``piquet_actions`` (the seat and its ACTION JSON), so an
action costs a short ``UPDATE`` and an ``INSERT``, not the whole record again.  The record is written
whole at each new deal, every ``table.SNAPSHOT_EVERY`` actions and when the partie ends (and the log before it
deleted).  One row per chouette (p. 106) holds its three seats, its version and its document
(``piquet.stakes.chouette``).  An action is saved by one ``UPDATE`` that also checks the version the table
had when it was loaded (``WHERE version = :old``): a table changed meanwhile by another server process is
not overwritten.  The saves of a process are gathered into one transaction (``SaveQueue``: one commit for
all the actions that came while the last was being written).  A database made before the log (no
``snapshot`` column) is given it when opened: its records are whole, each at its row's version.
``marks`` tells a process which of its tables another process has changed.  On PostgreSQL each change is
also told to the other processes: ``pg_notify('piquet', '<table id> <origin>')`` in the transaction that
makes it (``NOTIFY_CHANNEL``; ``piquet.web.notify`` listens).  Nothing here is SQLite-only SQL; a
``postgresql+psycopg://...`` URL works through the same code (with that driver installed).  A database
that cannot be reached (the server stopped, the connection lost) is ``StoreUnavailable``, whatever the
driver says.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import secrets
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.pool import StaticPool

from . import table as tables

metadata = MetaData()

#: The status of a table, or a chouette, whose players have gone and which waits to be taken up.
ADJOURNED = "adjourned"

#: The tables of the web server.  Seat columns: kind ("human"/"computer"), name, level, token hash, joined.
piquet_tables = Table(
    "piquet_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False, index=True),
    Column("rules", String(40), nullable=False),
    Column("opponent", String(16), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("score_a", Integer, nullable=False, default=0),
    Column("score_b", Integer, nullable=False, default=0),
    Column("a_kind", String(16), nullable=False),
    Column("a_name", String(80), nullable=False),
    Column("a_level", String(40)),
    Column("a_token", String(64)),
    Column("a_joined", Boolean, nullable=False, default=False),
    Column("b_kind", String(16), nullable=False),
    Column("b_name", String(80), nullable=False),
    Column("b_level", String(40)),
    Column("b_token", String(64)),
    Column("b_joined", Boolean, nullable=False, default=False),
    Column("record", Text, nullable=False),
    Column("snapshot", Integer),  # the version ``record`` is at (NULL: ``version``, as before the log)
    Column("origin", String(16)),  # the process that last wrote the row (``Store.origin``; NULL: from before)
)

#: The log of a table's actions since its snapshot: the version each made, its seat and its ACTION JSON.
piquet_actions = Table(
    "piquet_actions",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("seat", String(8), nullable=False),
    Column("action", Text, nullable=False),
)



#: The chouettes of the web server (p. 106): three seats, kept as JSON (``name``, ``kind``, ``level``, ``token``,
#: ``joined``), the chouette's document (``ChouetteMatch.to_json``: its cut, and each partie's places, record and
#: suggestions), and a summary for the games list (its places, the parties played, the card's balances).
piquet_chouettes = Table(
    "piquet_chouettes",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False, index=True),
    Column("rules", String(40), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("seats", Text, nullable=False),
    Column("summary", Text, nullable=False),
    Column("document", Text, nullable=False),
)


def default_database_path() -> Path:
    """``$XDG_DATA_HOME/piquet/piquet.db``, or ``~/.local/share/piquet/piquet.db``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "piquet" / "piquet.db"


def database_url(value: str | os.PathLike[str] | None = None) -> str:
    """An SQLAlchemy URL from ``--db``: a URL as it is, a path as an SQLite file (its folder made)."""
    if value is None:
        path = default_database_path()
    else:
        text = os.fspath(value)
        if "://" in text:
            return text
        path = Path(text).expanduser()
    path = path.absolute()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


@dataclass
class SeatRow:
    kind: str
    name: str
    level: str | None
    token_hash: str | None
    joined: bool


@dataclass
class TableRow:
    """A stored table."""

    id: str
    created: float
    updated: float
    rules: str
    opponent: str
    seed: int
    status: str
    version: int
    scores: dict[str, int]
    seats: dict[str, SeatRow]
    record: str
    #: The version ``record`` is at (None: ``version``); the actions after it, each (version, seat, ACTION JSON).
    snapshot: int | None = None
    log: tuple[tuple[int, str, str], ...] = ()


@dataclass(frozen=True)
class Save:
    """One table's action to store (``Store.save_all``): the version it made from ``old_version``, with its
    seat and ACTION JSON for the log (None: no log entry), and the whole record when one is due (None: none)."""

    table_id: str
    old_version: int
    version: int
    status: str
    scores: dict[str, int]
    seat: str | None = None
    action: str | None = None
    record: str | None = None


def _row_values(t: TableRow) -> dict[str, Any]:
    values: dict[str, Any] = {
        "id": t.id, "created": t.created, "updated": t.updated, "rules": t.rules, "opponent": t.opponent,
        "seed": t.seed, "status": t.status, "version": t.version, "score_a": t.scores.get("A", 0),
        "score_b": t.scores.get("B", 0), "record": t.record, "snapshot": t.version,
    }
    for s, seat in t.seats.items():
        p = s.lower()
        values.update({f"{p}_kind": seat.kind, f"{p}_name": seat.name, f"{p}_level": seat.level,
                       f"{p}_token": seat.token_hash, f"{p}_joined": seat.joined})
    return values


def _table_row(r: Any, with_record: bool = True) -> TableRow:
    m = r._mapping
    seats = {s: SeatRow(m[f"{p}_kind"], m[f"{p}_name"], m[f"{p}_level"], m[f"{p}_token"], bool(m[f"{p}_joined"]))
             for s, p in (("A", "a"), ("B", "b"))}
    return TableRow(id=m["id"], created=m["created"], updated=m["updated"], rules=m["rules"],
                    opponent=m["opponent"], seed=m["seed"], status=m["status"], version=m["version"],
                    scores={"A": m["score_a"], "B": m["score_b"]}, seats=seats,
                    record=m["record"] if with_record else "", snapshot=m.get("snapshot"))


class Mark(NamedTuple):
    """A table's version, its seats' arrival, names and token hashes, A then B (a chouette's three seats in
    their order), and whether it is adjourned: compared to see a change (a link revoked elsewhere is one)."""

    version: int
    joined: tuple[bool, ...]
    names: tuple[str, ...]
    tokens: tuple[str | None, ...] = ()
    adjourned: bool = False


@dataclass
class ChouetteRow:
    """A stored chouette: its seats in order (named; the persons' tokens hashed), its document and summary."""

    id: str
    created: float
    updated: float
    rules: str
    seed: int
    status: str
    version: int
    seats: list[SeatRow]
    summary: dict[str, Any]
    document: str

    def mark(self) -> Mark:
        return Mark(self.version, tuple(s.joined for s in self.seats), tuple(s.name for s in self.seats),
                    tuple(s.token_hash for s in self.seats), self.status == ADJOURNED)


def _seats_json(seats: list[SeatRow]) -> str:
    return json.dumps([{"name": s.name, "kind": s.kind, "level": s.level, "token": s.token_hash,
                        "joined": s.joined} for s in seats], ensure_ascii=False)


def _seats_of_json(text: str) -> list[SeatRow]:
    return [SeatRow(d["kind"], d["name"], d.get("level"), d.get("token"), bool(d.get("joined")))
            for d in json.loads(text)]


def _chouette_row(r: Any, with_document: bool = True) -> ChouetteRow:
    m = r._mapping
    return ChouetteRow(id=m["id"], created=m["created"], updated=m["updated"], rules=m["rules"], seed=m["seed"],
                       status=m["status"], version=m["version"], seats=_seats_of_json(m["seats"]),
                       summary=json.loads(m["summary"]), document=m["document"] if with_document else "")


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any, background_checkpoints: bool = False) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    if background_checkpoints:  # no commit copies the log into the database (and waits for the disk): see checkpoint
        cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


#: The channel on which a PostgreSQL store tells every server process of a table changed.
NOTIFY_CHANNEL = "piquet"


class StoreUnavailable(Exception):
    """The database cannot be reached now (stopped, restarting, the connection lost): nothing was stored.

    ``reason`` is the driver's first line, for the log and for the player ("connection refused").
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _reason(e: DBAPIError) -> str:
    """The driver's words, short: its first line's last clause ("the database system is shutting down",
    "Connection refused"), without the server's address."""
    lines = str(e.orig if e.orig is not None else e).strip().splitlines()
    if not lines:
        return type(e).__name__
    last = lines[0].rsplit("failed:", 1)[-1].replace("FATAL:", "")
    return " ".join(last.split())[:200] or type(e).__name__


class Store:
    """The tables in a database; every method is one transaction (call them off the event loop)."""

    def __init__(self, url: str, *, background_checkpoints: bool = False) -> None:
        """``background_checkpoints``: on an SQLite file, the commits never copy the write-ahead log into the
        database themselves (SQLite's automatic checkpoint, which waits for the disk: tens of milliseconds that
        the action being stored, and every action queued behind it, would wait); whoever asks for it calls
        ``checkpoint`` every second or so instead (the server does, ``Hub``)."""
        self.url = url
        u = make_url(url)
        self.notifies = u.get_backend_name() == "postgresql"
        #: Who made a change, in its notification: a process ignores its own.
        self.origin = secrets.token_hex(4)
        kwargs: dict[str, Any] = {}
        if u.get_backend_name() == "sqlite" and u.database in (None, "", ":memory:"):
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        self.engine: Engine = create_engine(url, **kwargs)
        sqlite_file = u.get_backend_name() == "sqlite" and u.database not in (None, "", ":memory:")
        #: An SQLite file whose commits leave the checkpoints to ``checkpoint``: each commit is short, and may be
        #: made on the event loop (``SaveQueue``).
        self.checkpoints = sqlite_file and background_checkpoints
        if sqlite_file:
            event.listen(self.engine, "connect", functools.partial(
                _sqlite_pragmas, background_checkpoints=background_checkpoints))
        with self._unavailable():
            metadata.create_all(self.engine)
            self._migrate()

    def _migrate(self) -> None:
        """A database made before the log: its tables are given the ``snapshot`` column (NULL: each record is
        whole, at its row's version)."""
        columns = {c["name"] for c in inspect(self.engine).get_columns("piquet_tables")}
        for name, kind in (("snapshot", "INTEGER"), ("origin", "VARCHAR(16)")):
            if name not in columns:
                with self._begin() as conn:
                    conn.execute(text(f"ALTER TABLE piquet_tables ADD COLUMN {name} {kind}"))

    def close(self) -> None:
        self.engine.dispose()

    @staticmethod
    @contextmanager
    def _unavailable() -> Iterator[None]:
        """A lost or refused connection as ``StoreUnavailable``; other errors (a bad query) as they are."""
        try:
            yield
        except (OperationalError, InterfaceError) as e:
            raise StoreUnavailable(_reason(e)) from e
        except DBAPIError as e:
            if not e.connection_invalidated:
                raise
            raise StoreUnavailable(_reason(e)) from e

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        with self._unavailable(), self.engine.begin() as conn:
            yield conn

    def _notify(self, conn: Connection, table_id: str) -> None:
        """On PostgreSQL, tell the other server processes that the table changed, when this transaction
        commits (and only then)."""
        if self.notifies:
            conn.execute(select(func.pg_notify(NOTIFY_CHANNEL, f"{table_id} {self.origin}")))

    def checkpoint(self) -> None:
        """With ``checkpoints``, copy what the SQLite file's write-ahead log holds into the database, as far as can
        be done without waiting for anyone (``PRAGMA wal_checkpoint(PASSIVE)``); else nothing (SQLite does it)."""
        if self.checkpoints:
            with self._unavailable(), self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def ping(self) -> None:
        """Ask the database for nothing: ``StoreUnavailable`` if it cannot be reached."""
        with self._begin() as conn:
            conn.execute(select(1))

    def insert(self, row: TableRow) -> None:
        with self._begin() as conn:
            conn.execute(insert(piquet_tables).values(**_row_values(row), origin=self.origin))

    def load(self, table_id: str) -> TableRow | None:
        """A stored table with its whole record as it is now (the snapshot with the log applied)."""
        row = self.load_logged(table_id)
        if row is None or not row.log:
            return row
        seats = {s: tables.Seat(r.kind, r.name, r.level, r.token_hash, r.joined) for s, r in row.seats.items()}
        table = tables.Table.from_log(row.id, seats, row.record, row.opponent, row.snapshot or 0, row.log)
        row.record = table.record_json()
        row.snapshot, row.log = row.version, ()
        return row

    def load_logged(self, table_id: str) -> TableRow | None:
        """A stored table as it is kept: its record's snapshot and the log of the actions since."""
        a = piquet_actions.c
        with self._begin() as conn:
            r = conn.execute(select(piquet_tables).where(piquet_tables.c.id == table_id)).first()
            if r is None:
                return None
            row = _table_row(r)
            since = row.version if row.snapshot is None else row.snapshot
            if since < row.version:
                row.log = tuple((x.version, x.seat, x.action) for x in conn.execute(
                    select(a.version, a.seat, a.action).where(a.table_id == table_id, a.version > since,
                                                              a.version <= row.version).order_by(a.version)))
        return row

    def save(self, table_id: str, old_version: int, version: int, record: str, status: str,
             scores: dict[str, int]) -> bool:
        """Store a table's new record and version, if it is still at ``old_version``; whether it was."""
        return self.save_all([Save(table_id, old_version, version, status, scores, record=record)])[0] is True

    def save_all(self, saves: list[Save]) -> list[bool | Exception]:
        """Store each table's action in one transaction; for each, whether it was stored (False: the table
        was no longer at its ``old_version``) or why not.  Should the transaction fail, each is tried again
        alone, so that one bad save does not lose the others."""
        try:
            with self._begin() as conn:
                stored = self._save_together(conn, saves)
            if stored is not None:
                return stored
        except StoreUnavailable:
            raise  # the database away: none was stored
        except Exception:
            pass  # tried below as before: each alone, in one transaction
        try:
            with self._begin() as conn:
                return [self._save_one(conn, x) for x in saves]
        except StoreUnavailable:
            raise
        except Exception:
            if len(saves) == 1:
                raise
        out: list[bool | Exception] = []
        for x in saves:
            try:
                with self._begin() as conn:
                    out.append(self._save_one(conn, x))
            except Exception as e:
                out.append(e)
        return out

    def _save_together(self, conn: Connection, saves: list[Save]) -> list[bool | Exception] | None:
        """The actions of several tables stored by two statements, each run for them all (one update of the tables,
        one insert into the log), which costs far less than two a table; None, with nothing stored, unless there
        are two or more, all actions for the log, of tables all different and each still at its old version."""
        if len(saves) < 2 or any(x.record is not None for x in saves) or len({x.table_id for x in saves}) < len(saves):
            return None
        now = time.time()
        if conn.execute(_SAVES.step, [self._row(x, now) for x in saves]).rowcount != len(saves):
            raise _NotTogether  # one of them had moved on: rolled back, and each is stored (or not) alone
        logs = [{"k_id": x.table_id, "k_version": x.version, "k_seat": x.seat, "k_action": x.action}
                for x in saves if x.action is not None and x.seat is not None]
        if logs:
            conn.execute(_SAVES.log, logs)
        for x in saves:
            self._notify(conn, x.table_id)
        return [True] * len(saves)

    def _row(self, x: Save, now: float) -> dict[str, Any]:
        """The parameters of a save's update of its table's row (``_SAVES``)."""
        return {"k_id": x.table_id, "k_old": x.old_version, "k_version": x.version, "k_status": x.status,
                "k_a": x.scores.get("A", 0), "k_b": x.scores.get("B", 0), "k_updated": now, "k_origin": self.origin}

    def _save_one(self, conn: Connection, x: Save) -> bool:
        """One save, by statements made once (``_SAVES``): building a statement costs more than running it."""
        values = self._row(x, time.time())
        if x.record is not None:
            values["k_record"] = x.record
            if conn.execute(_SAVES.snapshot, values).rowcount != 1:
                return False
            conn.execute(_SAVES.drop_log, values)
            self._notify(conn, x.table_id)
            return True
        if conn.execute(_SAVES.step, values).rowcount != 1:
            return False
        if x.action is not None and x.seat is not None:
            conn.execute(_SAVES.log, {"k_id": x.table_id, "k_version": x.version, "k_seat": x.seat,
                                      "k_action": x.action})
        self._notify(conn, x.table_id)
        return True

    def adjourn(self, table_id: str, chouette: bool = False) -> bool:
        """Adjourn a partie (or a chouette) in play that no process holds in memory: its status alone changes, from
        ``playing`` to ``adjourned`` (what a table rebuilt from its record reads); whether it was in play."""
        rows = piquet_chouettes if chouette else piquet_tables
        values: dict[str, Any] = {"status": ADJOURNED, "updated": time.time()}
        if not chouette:
            values["origin"] = self.origin
        with self._begin() as conn:
            done = conn.execute(update(rows).where(rows.c.id == table_id, rows.c.status == "playing")
                                .values(**values)).rowcount == 1
            if done:
                self._notify(conn, table_id)
        return done

    def join(self, table_id: str, seat: str, name: str | None, status: str) -> None:
        """Mark a person's seat as joined (and name it), and the table's status."""
        p = seat.lower()
        values: dict[str, Any] = {f"{p}_joined": True, "status": status, "updated": time.time(), "origin": self.origin}
        if name is not None:
            values[f"{p}_name"] = name
        with self._begin() as conn:
            conn.execute(update(piquet_tables).where(piquet_tables.c.id == table_id).values(**values))
            self._notify(conn, table_id)

    def marks(self, table_ids: Iterable[str]) -> dict[str, Mark]:
        """What tells whether a table changed: its version and its seats' arrival and names; only of the tables
        another process (another ``Store``) wrote last, or a store from before ``origin`` was kept: the others are
        as this one left them."""
        c = piquet_tables.c
        ids = list(table_ids)
        if not ids:
            return {}
        with self._begin() as conn:
            rows = conn.execute(select(c.id, c.version, c.a_joined, c.b_joined, c.a_name, c.b_name, c.a_token,
                                       c.b_token, c.status).where(c.id.in_(ids), or_(c.origin.is_(None),
                                                                                    c.origin != self.origin))).all()
        return {r.id: Mark(r.version, (bool(r.a_joined), bool(r.b_joined)), (r.a_name, r.b_name),
                           (r.a_token, r.b_token), r.status == ADJOURNED) for r in rows}

    def set_token(self, table_id: str, seat: str, old_hash: str, new_hash: str) -> bool:
        """A new link for a seat: its token hash replaced, if it is still ``old_hash``; whether it was."""
        p = seat.lower()
        column = piquet_tables.c[f"{p}_token"]
        with self._begin() as conn:
            result = conn.execute(update(piquet_tables).where(piquet_tables.c.id == table_id, column == old_hash)
                                  .values({column: new_hash, "updated": time.time(), "origin": self.origin}))
            if result.rowcount != 1:
                return False
            self._notify(conn, table_id)  # the other processes close the old link's sockets
            return True

    # ------------------------------------------------------------ chouettes (p. 106)

    def insert_chouette(self, row: ChouetteRow) -> None:
        with self._begin() as conn:
            conn.execute(insert(piquet_chouettes).values(
                id=row.id, created=row.created, updated=row.updated, rules=row.rules, seed=row.seed,
                status=row.status, version=row.version, seats=_seats_json(row.seats),
                summary=json.dumps(row.summary, ensure_ascii=False), document=row.document))

    def load_chouette(self, chouette_id: str) -> ChouetteRow | None:
        with self._begin() as conn:
            r = conn.execute(select(piquet_chouettes).where(piquet_chouettes.c.id == chouette_id)).first()
        return None if r is None else _chouette_row(r)

    def save_chouette(self, chouette_id: str, old_version: int, version: int, document: str, status: str,
                      summary: dict[str, Any]) -> bool:
        """Store a chouette's new document and version, if it is still at ``old_version``; whether it was."""
        c = piquet_chouettes.c
        with self._begin() as conn:
            result = conn.execute(
                update(piquet_chouettes).where(c.id == chouette_id, c.version == old_version)
                .values(version=version, document=document, status=status,
                        summary=json.dumps(summary, ensure_ascii=False), updated=time.time()))
            if result.rowcount != 1:
                return False
            self._notify(conn, chouette_id)
            return True

    def join_chouette(self, chouette_id: str, name: str, status: str) -> None:
        """Mark a person's seat at a chouette as joined, and the chouette's status."""
        c = piquet_chouettes.c
        with self._begin() as conn:
            r = conn.execute(select(c.seats).where(c.id == chouette_id)).first()
            if r is None:
                return
            seats = _seats_of_json(r.seats)
            for seat in seats:
                if seat.name == name:
                    seat.joined = True
            conn.execute(update(piquet_chouettes).where(c.id == chouette_id)
                         .values(seats=_seats_json(seats), status=status, updated=time.time()))
            self._notify(conn, chouette_id)

    def chouette_marks(self, chouette_ids: Iterable[str]) -> dict[str, Mark]:
        """What tells whether a chouette changed: its version and its seats' arrival and names."""
        c = piquet_chouettes.c
        ids = list(chouette_ids)
        if not ids:
            return {}
        with self._begin() as conn:
            rows = conn.execute(select(c.id, c.version, c.seats, c.status).where(c.id.in_(ids))).all()
        out = {}
        for r in rows:
            seats = _seats_of_json(r.seats)
            out[r.id] = Mark(r.version, tuple(s.joined for s in seats), tuple(s.name for s in seats),
                             tuple(s.token_hash for s in seats), r.status == ADJOURNED)
        return out

    def set_chouette_token(self, chouette_id: str, name: str, old_hash: str, new_hash: str) -> bool:
        """A new link for a chouette's seat (by its player's name), if its token hash is still ``old_hash``."""
        c = piquet_chouettes.c
        with self._begin() as conn:
            r = conn.execute(select(c.seats).where(c.id == chouette_id)).first()
            if r is None:
                return False
            seats = _seats_of_json(r.seats)
            found = [s for s in seats if s.name == name and s.token_hash == old_hash]
            if not found:
                return False
            found[0].token_hash = new_hash
            result = conn.execute(update(piquet_chouettes).where(c.id == chouette_id, c.seats == r.seats)
                                  .values(seats=_seats_json(seats), updated=time.time()))
            if result.rowcount != 1:
                return False
            self._notify(conn, chouette_id)
            return True

    def list_chouettes(self, limit: int = 200, *, status: str | None = None,
                       ids: Iterable[str] | None = None) -> list[ChouetteRow]:
        """The most recently updated chouettes (of that ``status``, of those ``ids``), without their documents."""
        cols = [c for c in piquet_chouettes.c if c.name != "document"]
        query = select(*cols).order_by(piquet_chouettes.c.updated.desc()).limit(limit)
        if status is not None:
            query = query.where(piquet_chouettes.c.status == status)
        if ids is not None:
            query = query.where(piquet_chouettes.c.id.in_(list(ids)))
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [_chouette_row(r, with_document=False) for r in rows]

    def list(self, limit: int = 200, *, status: str | None = None, ids: Iterable[str] | None = None) -> list[TableRow]:
        """The most recently updated tables (of that ``status``, of those ``ids``), without their records."""
        cols = [c for c in piquet_tables.c if c.name not in ("record", "snapshot")]
        query = select(*cols).order_by(piquet_tables.c.updated.desc()).limit(limit)
        if status is not None:
            query = query.where(piquet_tables.c.status == status)
        if ids is not None:
            query = query.where(piquet_tables.c.id.in_(list(ids)))
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [_table_row(r, with_record=False) for r in rows]


class _NotTogether(Exception):
    """Saves that cannot be stored together (``Store._save_together``): their transaction is rolled back."""


class _Statements:
    """The statements of a save, made once with their parameters bound by name."""

    def __init__(self) -> None:
        c, a = piquet_tables.c, piquet_actions.c
        where = (c.id == bindparam("k_id"), c.version == bindparam("k_old"))
        values: dict[str, Any] = {"version": bindparam("k_version"), "status": bindparam("k_status"),
                                  "score_a": bindparam("k_a"), "score_b": bindparam("k_b"),
                                  "updated": bindparam("k_updated"), "origin": bindparam("k_origin")}
        #: A new record, whole: the snapshot at this version.
        self.snapshot = update(piquet_tables).where(*where).values(
            **values, record=bindparam("k_record"), snapshot=bindparam("k_version"))
        #: An action for the log (a row from before the log: its record is at the old version).
        self.step = update(piquet_tables).where(*where).values(
            **values, snapshot=func.coalesce(c.snapshot, bindparam("k_old")))
        self.log = insert(piquet_actions).values(table_id=bindparam("k_id"), version=bindparam("k_version"),
                                                 seat=bindparam("k_seat"), action=bindparam("k_action"))
        self.drop_log = delete(piquet_actions).where(a.table_id == bindparam("k_id"),
                                                     a.version <= bindparam("k_version"))


_SAVES = _Statements()


class SaveQueue:
    """The saves of one server process, written together: each waits for the transaction that holds it, and
    what comes while one is being written goes into the next.  One writer means no two transactions of this
    process wait on each other for the database's lock (SQLite's busy waits), and one commit serves many
    actions; each action is still stored before anyone is told of it.

    On an SQLite file the transaction is written on the event loop itself: with the checkpoints made elsewhere
    (``Store(background_checkpoints=True)``) a commit waits for no disk and takes a millisecond or two, while a
    worker thread would wait for the interpreter's lock behind the loop at every call into SQLite (measured at
    1000 tables: an action's p99 154-198 ms on the loop against 247-277 ms from a thread).  Elsewhere (PostgreSQL,
    over a connection) it is written from a worker thread."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiting: list[tuple[Save, asyncio.Future[bool]]] = []
        self._task: asyncio.Task[None] | None = None

    async def save(self, x: Save) -> bool:
        """Whether ``x`` was stored (False: the table had moved on); the database's error if it failed."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((x, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._write(), name="piquet-saves")
        return await future

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                saves = [x for x, _ in batch]
                results: list[bool | Exception]
                if self.store.checkpoints:  # an SQLite file checkpointed elsewhere: a commit waits for no disk
                    results = self.store.save_all(saves)
                else:
                    results = await asyncio.to_thread(self.store.save_all, saves)
            except Exception as e:
                results = [e] * len(batch)
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, Exception):
                    future.set_exception(result)
                else:
                    future.set_result(result)

    async def close(self) -> None:
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await self._task


__all__ = ["ADJOURNED", "NOTIFY_CHANNEL", "ChouetteRow", "Mark", "Save", "SaveQueue", "SeatRow", "Store",
           "StoreUnavailable", "TableRow", "database_url", "default_database_path", "piquet_actions",
           "piquet_chouettes", "piquet_tables"]
