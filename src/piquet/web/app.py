"""The web server: a Starlette app, its HTTP routes and its websocket (see ``protocol``).

The server is authoritative: a browser sends a seat's choice, the table checks it (turn,
version, the laws), the new record is stored in one transaction, and only then is each seat
sent its own new view.  Every table has an ``asyncio.Lock``: its actions are applied one at a
time, whoever sends them.  A computer seat decides from its observation only, in a worker
thread, after a ``thinking`` message.  Nothing is kept in memory at startup: a table is loaded
from its stored record when a client connects (and dropped from memory when its last client
leaves), so a partie survives a dropped connection and a restart of the server.  Several server
processes may share one database: each looks every ``poll`` seconds for its tables changed by
another (``Hub.refresh``) and sends their new state to its own sockets.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..game import new_seed
from ..levels import level_named
from ..record import RecordError
from ..rules import Rules, rules_named
from .protocol import ProtocolError, decode_message, error_message, state_message
from .rewind import routes as rewind_routes
from .settle import routes as settle_routes
from .store import Mark, SeatRow, Store, TableRow, database_url
from .table import Seat, Table, TableError, hash_token, new_token

log = logging.getLogger("piquet.web")

STATIC = Path(__file__).resolve().parent / "static"
#: The level of the computer when the lobby names none.
DEFAULT_WEB_LEVEL = "search-fast"
MAX_NAME = 40
MAX_MESSAGE = 64 * 1024
#: How often, in seconds, a server looks for its tables changed by another server process.
DEFAULT_POLL = 0.5


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def _mark_of(table: Table) -> Mark:
    a, b = table.seats["A"], table.seats["B"]
    return Mark(table.version, (a.joined, b.joined), (a.name, b.name))


def _seats_of(row: TableRow) -> dict[str, Seat]:
    return {s: Seat(r.kind, r.name, r.level, r.token_hash, r.joined) for s, r in row.seats.items()}


def _seat_rows(seats: dict[str, Seat]) -> dict[str, SeatRow]:
    return {s: SeatRow(x.kind, x.name, x.level, x.token_hash, x.joined) for s, x in seats.items()}


#: How many messages may wait for a client that does not read before his connection is closed.
MAX_OUTBOX = 32


@dataclass(eq=False)
class Connection:
    """One open websocket and its outbox, emptied by its own task.

    Messages are posted, not awaited: a client that reads slowly (or not at all) never holds up
    the table or the other seat.  A state replaces any older state still waiting (each state is
    the whole view), so a slow client gets the newest; a client that lets ``MAX_OUTBOX``
    messages pile up is closed, and finds the table where it is when he reconnects.
    """

    ws: WebSocket
    seat: str
    _outbox: collections.deque[tuple[bool, str]] = field(default_factory=collections.deque)
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None
    closed: bool = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._send_all(), name=f"piquet-send-{self.seat}")

    def post(self, text: str, *, state: bool = False) -> None:
        """Queue a message; ``state``: a state message, which replaces an older one still queued."""
        if self.closed:
            return
        if state:
            self._outbox = collections.deque(m for m in self._outbox if not m[0])
        self._outbox.append((state, text))
        if len(self._outbox) > MAX_OUTBOX:
            log.warning("a client of seat %s does not read its messages: closing it", self.seat)
            self.closed = True
            self._outbox.clear()
            self._ready.set()
            return
        self._ready.set()

    async def _send_all(self) -> None:
        try:
            while not self.closed:
                await self._ready.wait()
                self._ready.clear()
                while self._outbox and not self.closed:
                    _, text = self._outbox.popleft()
                    if self.ws.application_state != WebSocketState.CONNECTED:
                        self.closed = True
                        break
                    await self.ws.send_text(text)
        except Exception:  # a dropped connection: the client reconnects and is sent the state
            self.closed = True
        if self.closed:
            with contextlib.suppress(Exception):
                await self.ws.close(1013)  # try again later: the client reconnects

    async def stop(self) -> None:
        """Stop sending (the socket has gone); what was queued is dropped."""
        self.closed = True
        self._ready.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


class Hub:
    """The tables in memory, their locks, their open sockets and their computer players' tasks."""

    def __init__(self, store: Store, pace: float = 0.0, poll: float = DEFAULT_POLL) -> None:
        self.store = store
        self.pace = pace
        self.poll = poll
        self.watcher: asyncio.Task[None] | None = None
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.conns: dict[str, set[Connection]] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}

    def lock(self, table_id: str) -> asyncio.Lock:
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------ loading and saving (hold the lock)

    async def table(self, table_id: str) -> Table | None:
        """The table, from memory or rebuilt from its stored record."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = await asyncio.to_thread(self.store.load, table_id)
        if row is None:
            return None
        try:
            table = Table.from_record(row.id, _seats_of(row), row.record, row.opponent)
        except (RecordError, ValueError) as e:
            log.error("table %s cannot be rebuilt from its record: %s", table_id, e)
            return None
        if table.version != row.version:
            log.warning("table %s: the record has %d actions, the row says version %d", table_id,
                        table.version, row.version)
            table.version = row.version
        self.tables[table_id] = table
        return table

    async def commit(self, table: Table, seat: str, action: Any, version: int | None) -> None:
        """Apply, store, then broadcast; ``TableError`` (nothing changed, nothing stored) if refused."""
        old = table.version
        table.apply(seat, action, version)
        try:
            saved = await asyncio.to_thread(self.store.save, table.id, old, table.version, table.record_json(),
                                            table.status, table.scores)
        except Exception:
            log.exception("table %s: the action could not be saved", table.id)
            saved = False
        if not saved:
            # Changed elsewhere (another process) or not stored: forget it, reload what is stored.
            self.tables.pop(table.id, None)
            fresh = await self.table(table.id)
            if fresh is not None:
                await self.broadcast(fresh)
            raise TableError("stale", "the table could not be saved as it was (changed elsewhere?): "
                                      "look again and choose")
        await self.broadcast(table)

    # ------------------------------------------------------------ other server processes

    def watch(self) -> None:
        """Start watching the store for tables changed by another process (every ``poll`` s; 0: never)."""
        if self.poll > 0 and self.watcher is None:
            self.watcher = asyncio.create_task(self._watch(), name="piquet-watch")

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                await self.refresh()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away for a moment: try again at the next poll
                log.exception("the tables could not be checked for changes made elsewhere")

    async def refresh(self) -> list[str]:
        """Reload and send again every table with open sockets that another process has changed.

        Several server processes on one database each keep their own sockets: a seat's action is
        stored by the process he is connected to, and the other processes see it here.  Returns
        the ids of the tables reloaded.
        """
        ids = [i for i, conns in self.conns.items() if conns and i in self.tables]
        marks = await asyncio.to_thread(self.store.marks, ids)
        reloaded = []
        for table_id in ids:
            table = self.tables.get(table_id)
            mark = marks.get(table_id)
            if table is None or mark is None or mark == _mark_of(table):
                continue
            async with self.lock(table_id):
                table = self.tables.get(table_id)
                fresh_mark = (await asyncio.to_thread(self.store.marks, [table_id])).get(table_id)
                if table is None or fresh_mark is None or fresh_mark == _mark_of(table):
                    continue
                self.tables.pop(table_id, None)
                fresh = await self.table(table_id)
                if fresh is None:
                    continue
                await self.broadcast(fresh)
                reloaded.append(table_id)
            self.drive(table_id)
        return reloaded

    # ------------------------------------------------------------ sending

    async def broadcast(self, table: Table) -> None:
        """Each open socket of the table is sent the state as its seat sees it."""
        texts: dict[str, str] = {}
        for conn in list(self.conns.get(table.id, ())):
            if conn.seat not in texts:
                texts[conn.seat] = json.dumps(state_message(table.version, conn.seat, table.view(conn.seat)))
            conn.post(texts[conn.seat], state=True)

    async def send_all(self, table_id: str, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        for conn in list(self.conns.get(table_id, ())):
            conn.post(text)

    # ------------------------------------------------------------ the computer

    def drive(self, table_id: str) -> None:
        """Start the table's computer player if he is to move and not already deciding."""
        task = self.drivers.get(table_id)
        if task is None or task.done():
            self.drivers[table_id] = asyncio.create_task(self._drive(table_id), name=f"piquet-computer-{table_id}")

    async def _drive(self, table_id: str) -> None:
        lock = self.lock(table_id)
        try:
            while True:
                async with lock:
                    table = await self.table(table_id)
                    seat = None if table is None else table.computer_to_move()
                    if table is None or seat is None:
                        return
                    obs, version = table.observation(seat), table.version
                    await self.send_all(table_id, {"type": "thinking", "seat": seat})
                start = time.monotonic()
                action = await asyncio.to_thread(table.choose, seat, obs)
                wait = self.pace - (time.monotonic() - start)
                if wait > 0:
                    await asyncio.sleep(wait)
                async with lock:
                    table = await self.table(table_id)
                    if table is None or table.version != version or table.computer_to_move() != seat:
                        continue
                    try:
                        await self.commit(table, seat, action, version)
                    except TableError as e:
                        if e.code != "illegal":
                            continue
                        log.error("table %s: the computer (%s) chose %s: %s; playing at random", table_id,
                                  table.seats[seat].level, action, e.message)
                        await self.commit(table, seat, obs.sample(random.Random()), version)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the computer player failed", table_id)
        finally:
            if self.drivers.get(table_id) is asyncio.current_task():
                del self.drivers[table_id]
            self.forget_if_idle(table_id)

    def forget_if_idle(self, table_id: str) -> None:
        """Drop a table from memory when no socket is open on it and its computer is not deciding.

        No ``await`` here: it runs to its end even in a task being cancelled.
        """
        if not self.conns.get(table_id) and table_id not in self.drivers:
            self.conns.pop(table_id, None)
            self.tables.pop(table_id, None)

    async def close(self) -> None:
        tasks = list(self.drivers.values()) + ([self.watcher] if self.watcher is not None else [])
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


# ---------------------------------------------------------------- HTTP


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _page(name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        return _error(404, f"{name} is not installed")
    return FileResponse(path, headers={"Cache-Control": "no-cache"})


async def lobby(request: Request) -> Response:
    return _page("index.html")


async def static_file(request: Request) -> Response:
    rel = request.path_params["path"]
    root = STATIC.resolve()
    path = (root / rel).resolve()
    if root not in path.parents or not path.is_file():
        return _error(404, "no such file")
    return FileResponse(path, headers={"Cache-Control": "no-cache"})


def _rules_of(name: object, agreements: object) -> Rules:
    """The rules a new table is played under: ``"rules"`` is a name or a spec (``"au-cent+small-cards"``),
    ``"agreements"`` an optional list of Piquet au cent's options (p. 19); ``ValueError`` names what is known."""
    if not isinstance(name, str):
        raise ValueError("\"rules\" is a string: rubicon, four-deal or au-cent (with +small-cards, +fours)")
    if not isinstance(agreements, list) or not all(isinstance(a, str) for a in agreements):
        raise ValueError("\"agreements\" is a list of names: small-cards, fours (Piquet au cent, p. 19)")
    return rules_named(name, agreements)


def _rules_title(spec: str) -> str:
    """The title of a stored table's rules (its spec as stored), or the spec itself if it is not known here."""
    try:
        return rules_named(spec).title
    except ValueError:
        return spec


def _name(value: object, default: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise ValueError("\"name\" is a string")
    name = " ".join(value.split())[:MAX_NAME]
    return name or default


async def create_table(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _error(400, "the body is a JSON object")
    if not isinstance(body, dict):
        return _error(400, "the body is a JSON object")
    try:
        opponent = body.get("opponent", "computer")
        if opponent not in ("computer", "person"):
            raise ValueError("\"opponent\" is \"computer\" or \"person\"")
        rules = _rules_of(body.get("rules", "rubicon"), body.get("agreements", []))
        name = _name(body.get("name"), "Player")
        seed = body.get("seed")
        if seed is None:
            seed = new_seed()
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 62:
            raise ValueError("\"seed\" is a whole number from 0")
        level = None
        if opponent == "computer":
            level_value = body.get("level", DEFAULT_WEB_LEVEL)
            if not isinstance(level_value, str):
                raise ValueError("\"level\" is a string")
            level = level_named(level_value).name
    except ValueError as e:
        return _error(400, str(e))
    token_a = new_token()
    seats = {"A": Seat("human", name, None, hash_token(token_a), True)}
    token_b = None
    if opponent == "computer":
        seats["B"] = Seat("computer", f"Computer ({level})", level, None, True)
    else:
        token_b = new_token()
        seats["B"] = Seat("human", "Guest", None, hash_token(token_b), False)
    table_id = secrets.token_hex(6)
    table = Table.new(table_id, seats, seed, rules, opponent)
    now = time.time()
    row = TableRow(id=table_id, created=now, updated=now, rules=rules.spec, opponent=opponent, seed=seed,
                   status=table.status, version=table.version, scores=table.scores, seats=_seat_rows(seats),
                   record=table.record_json())
    await asyncio.to_thread(hub.store.insert, row)
    out: dict[str, Any] = {"table": table_id, "seat": "A", "token": token_a, "url": f"/t/{table_id}?token={token_a}"}
    if token_b is not None:
        out["invite"] = f"/t/{table_id}?token={token_b}"
    return JSONResponse(out, status_code=201)


async def list_tables(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    rows = await asyncio.to_thread(hub.store.list)
    return JSONResponse([
        {"table": r.id, "status": r.status, "rules": r.rules, "title": _rules_title(r.rules), "opponent": r.opponent,
         "players": {s: seat.name for s, seat in r.seats.items()}, "scores": r.scores,
         "created": _iso(r.created), "updated": _iso(r.updated)}
        for r in rows
    ])


async def table_page(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    row = await asyncio.to_thread(hub.store.load, request.path_params["table_id"])
    if row is None:
        return _error(404, "no such table")
    return _page("table.html")


async def table_record(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    table_id = request.path_params["table_id"]
    row = await asyncio.to_thread(hub.store.load, table_id)
    if row is None:
        return _error(404, "no such table")
    if row.status != "finished":
        return _error(403, "the record is given when the partie is finished")
    return Response(row.record, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="piquet-{table_id}.json"'})


# ---------------------------------------------------------------- the websocket


async def _refuse(ws: WebSocket, message: str, close_code: int) -> None:
    """A wrong token or table: one error, then the socket is closed."""
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps(error_message("token", message)))
        await ws.close(close_code)


async def table_socket(ws: WebSocket) -> None:
    hub: Hub = ws.app.state.hub
    table_id = ws.path_params["table_id"]
    token = ws.query_params.get("token", "")
    await ws.accept()
    lock = hub.lock(table_id)
    async with lock:
        table = await hub.table(table_id)
        if table is None:
            await _refuse(ws, "there is no such table", 4404)
            return
        seat = table.seat_of_token(token)
        if seat is None:
            hub.forget_if_idle(table_id)
            await _refuse(ws, "that is not a seat's token at this table", 4403)
            return
        conn = Connection(ws, seat)
        conn.start()
        hub.conns.setdefault(table_id, set()).add(conn)
        joined = table.seats[seat]
        if not joined.joined:
            joined.joined = True
            name = ws.query_params.get("name")
            if name:
                joined.name = _name(name, joined.name)
            try:
                await asyncio.to_thread(hub.store.join, table_id, seat, joined.name if name else None, table.status)
            except Exception:  # the status is saved again with the next action
                log.exception("table %s: the arrival of seat %s could not be saved", table_id, seat)
            await hub.broadcast(table)
        else:
            conn.post(json.dumps(state_message(table.version, seat, table.view(seat))), state=True)
    hub.drive(table_id)
    try:
        await _serve_socket(hub, conn, table_id)
    finally:
        conns = hub.conns.get(table_id)
        if conns is not None:
            conns.discard(conn)
        hub.forget_if_idle(table_id)
        await conn.stop()


async def _serve_socket(hub: Hub, conn: Connection, table_id: str) -> None:
    ws = conn.ws
    while True:
        try:
            message = await ws.receive()
        except WebSocketDisconnect:
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None or len(text) > MAX_MESSAGE:
            conn.post(json.dumps(error_message("malformed", "a message is a JSON text of at most 64 KiB")))
            continue
        try:
            try:
                data = json.loads(text)
            except (json.JSONDecodeError, RecursionError):
                raise ProtocolError("a message is JSON") from None
            msg = decode_message(data)
        except ProtocolError as e:
            conn.post(json.dumps(error_message("malformed", str(e))))
            continue
        if msg.type == "ping":
            conn.post('{"type": "pong"}')
            continue
        async with hub.lock(table_id):
            table = await hub.table(table_id)
            if table is None:
                conn.post(json.dumps(error_message("stale", "the table cannot be loaded now")))
                continue
            try:
                await hub.commit(table, conn.seat, msg.action, msg.version)
            except TableError as e:
                conn.post(json.dumps(error_message(e.code, e.message)))
                continue
        hub.drive(table_id)


# ---------------------------------------------------------------- the app


def create_app(db_url: str | None = None, *, pace: float = 0.0, poll: float = DEFAULT_POLL) -> Starlette:
    """The web app on the database ``db_url`` (a URL or an SQLite path; None: the user's data folder).

    ``pace``: the least time, in seconds, between the computer's "thinking" and his action, so
    that a person sees each card played (0 in tests).  ``poll``: how often, in seconds, to look
    for tables changed by another server process on the same database (0: never).
    """
    store = Store(database_url(db_url))
    hub = Hub(store, pace, poll)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.watch()
        try:
            yield
        finally:
            await hub.close()
            store.close()

    app = Starlette(
        routes=[
            Route("/", lobby),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables/{table_id}/record", table_record),
            *rewind_routes,
            *settle_routes,
            Route("/t/{table_id}", table_page),
            Route("/static/{path:path}", static_file),
            WebSocketRoute("/ws/{table_id}", table_socket),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.store = store
    return app


__all__ = ["DEFAULT_WEB_LEVEL", "Connection", "Hub", "create_app"]
