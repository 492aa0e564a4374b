"""Where tables are kept: SQLAlchemy Core, SQLite by default, PostgreSQL by URL.

One row per table holds its seats (the persons' tokens hashed), its seed, its status, its
version and its record (``piquet.records.record``); one row per chouette (p. 106) its three seats, its
version and its document (``piquet.stakes.chouette``).  An action is saved by one ``UPDATE`` that also
checks the version the table had when it was loaded (``WHERE version = :old``): a table changed
meanwhile by another server process is not overwritten.  ``marks`` tells a process which of its
tables another process has changed.  On PostgreSQL each change is also told to the other processes:
``pg_notify('piquet', '<table id> <origin>')`` in the transaction that makes it (``NOTIFY_CHANNEL``;
``piquet.web.notify`` listens).  Nothing here is SQLite-only SQL; a ``postgresql+psycopg://...`` URL
works through the same code (with that driver installed).  A database that cannot be reached (the
server stopped, the connection lost) is ``StoreUnavailable``, whatever the driver says.
"""

from __future__ import annotations

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
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.pool import StaticPool

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


def _row_values(t: TableRow) -> dict[str, Any]:
    values: dict[str, Any] = {
        "id": t.id, "created": t.created, "updated": t.updated, "rules": t.rules, "opponent": t.opponent,
        "seed": t.seed, "status": t.status, "version": t.version, "score_a": t.scores.get("A", 0),
        "score_b": t.scores.get("B", 0), "record": t.record,
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
                    record=m["record"] if with_record else "")


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


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
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

    def __init__(self, url: str) -> None:
        self.url = url
        u = make_url(url)
        self.notifies = u.get_backend_name() == "postgresql"
        #: Who made a change, in its notification: a process ignores its own.
        self.origin = secrets.token_hex(4)
        kwargs: dict[str, Any] = {}
        if u.get_backend_name() == "sqlite" and u.database in (None, "", ":memory:"):
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        self.engine: Engine = create_engine(url, **kwargs)
        if u.get_backend_name() == "sqlite" and u.database not in (None, "", ":memory:"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with self._unavailable():
            metadata.create_all(self.engine)

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

    def ping(self) -> None:
        """Ask the database for nothing: ``StoreUnavailable`` if it cannot be reached."""
        with self._begin() as conn:
            conn.execute(select(1))

    def insert(self, row: TableRow) -> None:
        with self._begin() as conn:
            conn.execute(insert(piquet_tables).values(**_row_values(row)))

    def load(self, table_id: str) -> TableRow | None:
        with self._begin() as conn:
            r = conn.execute(select(piquet_tables).where(piquet_tables.c.id == table_id)).first()
        return None if r is None else _table_row(r)

    def save(self, table_id: str, old_version: int, version: int, record: str, status: str,
             scores: dict[str, int]) -> bool:
        """Store a table's new record and version, if it is still at ``old_version``; whether it was."""
        with self._begin() as conn:
            result = conn.execute(
                update(piquet_tables)
                .where(piquet_tables.c.id == table_id, piquet_tables.c.version == old_version)
                .values(version=version, record=record, status=status, score_a=scores.get("A", 0),
                        score_b=scores.get("B", 0), updated=time.time()))
            if result.rowcount != 1:
                return False
            self._notify(conn, table_id)
            return True

    def join(self, table_id: str, seat: str, name: str | None, status: str) -> None:
        """Mark a person's seat as joined (and name it), and the table's status."""
        p = seat.lower()
        values: dict[str, Any] = {f"{p}_joined": True, "status": status, "updated": time.time()}
        if name is not None:
            values[f"{p}_name"] = name
        with self._begin() as conn:
            conn.execute(update(piquet_tables).where(piquet_tables.c.id == table_id).values(**values))
            self._notify(conn, table_id)

    def marks(self, table_ids: Iterable[str]) -> dict[str, Mark]:
        """What tells whether a table changed: its version and its seats' arrival and names."""
        c = piquet_tables.c
        ids = list(table_ids)
        if not ids:
            return {}
        with self._begin() as conn:
            rows = conn.execute(select(c.id, c.version, c.a_joined, c.b_joined, c.a_name, c.b_name, c.a_token,
                                       c.b_token, c.status).where(c.id.in_(ids))).all()
        return {r.id: Mark(r.version, (bool(r.a_joined), bool(r.b_joined)), (r.a_name, r.b_name),
                           (r.a_token, r.b_token), r.status == ADJOURNED) for r in rows}

    def set_token(self, table_id: str, seat: str, old_hash: str, new_hash: str) -> bool:
        """A new link for a seat: its token hash replaced, if it is still ``old_hash``; whether it was."""
        p = seat.lower()
        column = piquet_tables.c[f"{p}_token"]
        with self._begin() as conn:
            result = conn.execute(update(piquet_tables).where(piquet_tables.c.id == table_id, column == old_hash)
                                  .values({column: new_hash, "updated": time.time()}))
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
        cols = [c for c in piquet_tables.c if c.name != "record"]
        query = select(*cols).order_by(piquet_tables.c.updated.desc()).limit(limit)
        if status is not None:
            query = query.where(piquet_tables.c.status == status)
        if ids is not None:
            query = query.where(piquet_tables.c.id.in_(list(ids)))
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [_table_row(r, with_record=False) for r in rows]


__all__ = ["ADJOURNED", "NOTIFY_CHANNEL", "ChouetteRow", "Mark", "SeatRow", "Store", "StoreUnavailable", "TableRow",
           "database_url", "default_database_path", "piquet_chouettes", "piquet_tables"]
