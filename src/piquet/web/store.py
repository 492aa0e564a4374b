"""Where tables are kept: SQLAlchemy Core, SQLite by default, PostgreSQL by URL.

One row per table holds its seats (the persons' tokens hashed), its seed, its status, its
version and its record (``piquet.record``).  An action is saved by one ``UPDATE`` that also
checks the version the table had when it was loaded (``WHERE version = :old``): a table changed
meanwhile by another server process is not overwritten.  ``marks`` tells a process which of its
tables another process has changed.  Nothing here is SQLite-only SQL; a
``postgresql+psycopg://...`` URL works through the same code (with that driver installed).
"""

from __future__ import annotations

import os
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
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

metadata = MetaData()

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
    """A table's version and its seats' arrival and names, A then B: compared to see a change."""

    version: int
    joined: tuple[bool, bool]
    names: tuple[str, str]


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Store:
    """The tables in a database; every method is one transaction (call them off the event loop)."""

    def __init__(self, url: str) -> None:
        self.url = url
        u = make_url(url)
        kwargs: dict[str, Any] = {}
        if u.get_backend_name() == "sqlite" and u.database in (None, "", ":memory:"):
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        self.engine: Engine = create_engine(url, **kwargs)
        if u.get_backend_name() == "sqlite" and u.database not in (None, "", ":memory:"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

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
            return result.rowcount == 1

    def join(self, table_id: str, seat: str, name: str | None, status: str) -> None:
        """Mark a person's seat as joined (and name it), and the table's status."""
        p = seat.lower()
        values: dict[str, Any] = {f"{p}_joined": True, "status": status, "updated": time.time()}
        if name is not None:
            values[f"{p}_name"] = name
        with self._begin() as conn:
            conn.execute(update(piquet_tables).where(piquet_tables.c.id == table_id).values(**values))

    def marks(self, table_ids: Iterable[str]) -> dict[str, Mark]:
        """What tells whether a table changed: its version and its seats' arrival and names."""
        c = piquet_tables.c
        ids = list(table_ids)
        if not ids:
            return {}
        with self._begin() as conn:
            rows = conn.execute(select(c.id, c.version, c.a_joined, c.b_joined, c.a_name, c.b_name)
                                .where(c.id.in_(ids))).all()
        return {r.id: Mark(r.version, (bool(r.a_joined), bool(r.b_joined)), (r.a_name, r.b_name)) for r in rows}

    def list(self, limit: int = 200) -> list[TableRow]:
        """The most recently updated tables, without their records."""
        cols = [c for c in piquet_tables.c if c.name != "record"]
        with self._begin() as conn:
            rows = conn.execute(select(*cols).order_by(piquet_tables.c.updated.desc()).limit(limit)).all()
        return [_table_row(r, with_record=False) for r in rows]


__all__ = ["Mark", "SeatRow", "Store", "TableRow", "database_url", "default_database_path", "piquet_tables"]
