"""The web server: a Starlette app, its HTTP routes and its websocket (see ``protocol``).

The server is authoritative: a browser sends a seat's choice, the table checks it (turn,
version, the laws), the new record is stored in one transaction, and only then is each seat
sent its own new view.  Every table has an ``asyncio.Lock``: its actions are applied one at a
time, whoever sends them.  A computer seat decides from its observation only, in a worker
thread, after a ``thinking`` message.  Nothing is kept in memory at startup: a table is loaded
from its stored record when a client connects (and dropped from memory when its last client
leaves), so a partie survives a dropped connection and a restart of the server.  Several server
processes may share one database: on PostgreSQL each hears of the others' changes at once (LISTEN/NOTIFY,
``piquet.web.notify``), on SQLite it looks every ``poll`` seconds for its tables changed by another
(``Hub.refresh``); either way it reloads them and sends their new state to its own sockets.  When the
database cannot be reached (``StoreUnavailable``) a move is refused as not saved, the seats are told that
their table waits for its database, HTTP answers 503, and play goes on when it is back (``Outage``).

Two kinds of table are served the same way: a partie of two (``Table``, ``/t/{id}``, ``/ws/{id}``) and a
chouette for three (``ChouetteTable``, p. 106, ``/c/{id}``, ``/ws/c/{id}``).  The hub, the websocket loop,
the computer's driving and the polling are written once, over a ``Room`` (what the hub asks of a table)
and its ``Kind`` (how it is stored and reloaded, how its clients' messages are read and applied).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from piquet.core.rules import Rules, rules_named
from piquet.players.levels import level_named
from piquet.players.runner import new_seed
from piquet.records.jsontext import read_json
from piquet.stakes.chouette import ChouetteError
from piquet.talk.guide import page_html, talk_terms
from piquet.talk.laws import with_law

from . import pages
from .advice import routes as hint_routes
from .chouette import ChouetteMessage, ChouetteTable, cut_words, decode_chouette_message
from .collector import Collector
from .guard import NO_RATE_LIMITS, Buckets, Guard, Limits, client_address, redact_logs, token_of
from .lag import LoopLag
from .mark import routes as mark_routes
from .notify import Listener, Outage
from .pages import BadBody, json_body, static_page
from .protocol import (
    ClientMessage,
    ProtocolError,
    Sent,
    database_message,
    decode_message,
    encode_state,
    error_message,
    forget_partie,
    read_message,
    state_text,
    unsaved_message,
)
from .rewind import MAX_TOKEN, seat_opened
from .rewind import routes as rewind_routes
from .settle import routes as settle_routes
from .store import (
    ADJOURNED,
    ChouetteRow,
    Mark,
    Save,
    SaveQueue,
    SeatRow,
    Store,
    StoreUnavailable,
    TableRow,
    database_url,
)
from .table import Job, Seat, Table, TableError, hash_token, new_token

log = logging.getLogger("piquet.web")

#: The level of the computer when the lobby names none.
DEFAULT_WEB_LEVEL = "search-fast"
MAX_NAME = 40
MAX_MESSAGE = 64 * 1024
#: How long a new socket has to send its first message, the seat's token (``{"type": "hello", "token": T}``).
HELLO_WAIT = 10.0
#: The most seats a lobby may ask after at once (``POST /api/tables/mine``).
MAX_MINE = 200
#: The longest path of a static file, and of each of its names.
MAX_STATIC_PATH, MAX_FILE_NAME = 1024, 255
#: What a socket whose seat's link was revoked is told before it is closed (4401).
REVOKED = ("this seat's link was replaced by a new one: the old link no longer opens the seat. Use the new link "
           "(whoever holds the seat was given it)")
#: How often, in seconds, a server on SQLite looks for its tables changed by another server process (on
#: PostgreSQL it is told of them: no polling unless asked).
DEFAULT_POLL = 0.5
#: How often, in seconds, the server copies its SQLite file's write-ahead log into the database
#: (``Store.checkpoint``), in a worker thread: no commit waits for the disk while actions are being stored.
CHECKPOINT_EVERY = 1.0
#: How long, in seconds, a partie in play waits after its last person has gone before it is adjourned.
DEFAULT_ADJOURN = 120.0
#: The messages about the sitting, not the partie, which the hub answers for every kind of table.
SITTING = ("adjourn", "take_up")


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def _seats_of(row: TableRow) -> dict[str, Seat]:
    return {s: Seat(r.kind, r.name, r.level, r.token_hash, r.joined) for s, r in row.seats.items()}


def _seat_rows(seats: dict[str, Seat]) -> dict[str, SeatRow]:
    return {s: SeatRow(x.kind, x.name, x.level, x.token_hash, x.joined) for s, x in seats.items()}


class Room(Protocol):
    """What the hub asks of a table, whatever its kind: a partie of two (``Table``) or a chouette
    (``ChouetteTable``).  Its seats are keyed as its messages name them ("A"/"B", or the players' names)."""

    id: str
    version: int
    seats: dict[str, Seat]
    adjourned: bool
    present: frozenset[str]

    @property
    def status(self) -> str: ...

    def seat_of_token(self, token: str) -> str | None: ...

    def message(self, seat: str, told: bool = False) -> dict[str, Any]: ...

    def computer_job(self) -> Job | None: ...

    def thinking(self, job: Job) -> tuple[dict[str, Any], frozenset[str] | None]: ...

    def decider(self, job: Job) -> Callable[[], Any]: ...

    def fallback(self, job: Job) -> Any: ...

    def perform(self, job: Job, decision: Any) -> bool: ...


class Kind(Protocol):
    """How the hub keeps one kind of table: stores and reloads it, reads its clients' messages and applies
    them.  ``load``, ``save``, ``join`` and ``marks`` are run off the event loop."""

    def holds(self, room: Room) -> bool: ...

    def load(self, store: Store, room_id: str) -> Room | None: ...

    def save(self, store: Store, room: Room, old_version: int) -> bool: ...

    def write(self, room: Room, old_version: int) -> Save | None: ...

    def renamed(self, room: Room, seat: str, name: str | None) -> str | None: ...

    def join(self, store: Store, room_id: str, seat: str, name: str | None, status: str) -> None: ...

    def adjourn(self, store: Store, room_id: str) -> bool: ...

    def relink(self, store: Store, room: Room, seat: str, old_hash: str, new_hash: str) -> bool: ...

    def marks(self, store: Store, ids: list[str]) -> dict[str, Mark]: ...

    def mark_of(self, room: Room) -> Mark: ...

    def decode(self, data: object) -> Any: ...

    def act(self, room: Room, seat: str, msg: Any) -> bool: ...


class TwoSeats:
    """A partie of two (``Table``), stored in ``piquet_tables`` with its record."""

    def holds(self, room: Room) -> bool:
        return isinstance(room, Table)

    def load(self, store: Store, room_id: str) -> Table | None:
        row = store.load_logged(room_id)
        if row is None:
            return None
        try:
            table = Table.from_log(row.id, _seats_of(row), row.record, row.opponent,
                                   row.version if row.snapshot is None else row.snapshot, row.log)
        except ValueError as e:  # RecordError, ProtocolError, a log that does not follow
            log.error("table %s cannot be rebuilt from its record: %s", room_id, e)
            return None
        table.adjourned = row.status == ADJOURNED
        return table

    def save(self, store: Store, room: Room, old_version: int) -> bool:
        assert isinstance(room, Table)
        return store.save(room.id, old_version, room.version, room.record_json(), room.status, room.scores)

    def write(self, room: Room, old_version: int) -> Save | None:
        """The change as the save queue stores it: the action for the log, or the whole record when a snapshot
        is due (``Table.snapshot_due``)."""
        assert isinstance(room, Table)
        logged = room.logged() if room.version == old_version + 1 else None
        if logged is None or room.snapshot_due():
            room.snapshot, room.snapshot_deals = room.version, len(room.partie.deals)
            return Save(room.id, old_version, room.version, room.status, room.scores, record=room.record_json())
        return Save(room.id, old_version, room.version, room.status, room.scores, *logged)

    def renamed(self, room: Room, seat: str, name: str | None) -> str | None:
        """The name the invited seat takes from his first connection (``&name=``), or None to keep his own."""
        return _name(name, room.seats[seat].name) if name else None

    def join(self, store: Store, room_id: str, seat: str, name: str | None, status: str) -> None:
        store.join(room_id, seat, name, status)

    def adjourn(self, store: Store, room_id: str) -> bool:
        return store.adjourn(room_id)

    def relink(self, store: Store, room: Room, seat: str, old_hash: str, new_hash: str) -> bool:
        return store.set_token(room.id, seat, old_hash, new_hash)

    def marks(self, store: Store, ids: list[str]) -> dict[str, Mark]:
        return store.marks(ids)

    def mark_of(self, room: Room) -> Mark:
        a, b = room.seats["A"], room.seats["B"]
        return Mark(room.version, (a.joined, b.joined), (a.name, b.name), (a.token_hash, b.token_hash),
                    room.adjourned)

    def decode(self, data: object) -> ClientMessage:
        return decode_message(data)

    def act(self, room: Room, seat: str, msg: Any) -> bool:
        assert isinstance(room, Table)
        room.apply(seat, msg.action, msg.version)
        return True


class Chouettes:
    """A chouette (``ChouetteTable``, p. 106), stored in ``piquet_chouettes`` with its document."""

    def holds(self, room: Room) -> bool:
        return isinstance(room, ChouetteTable)

    def load(self, store: Store, room_id: str) -> ChouetteTable | None:
        row = store.load_chouette(room_id)
        if row is None:
            return None
        seats = [Seat(r.kind, r.name, r.level, r.token_hash, r.joined) for r in row.seats]
        try:
            table = ChouetteTable.from_document(row.id, seats, row.document, row.status == "finished")
        except ChouetteError as e:
            log.error("chouette %s cannot be rebuilt from its document: %s", room_id, e)
            return None
        if table.version != row.version:
            log.warning("chouette %s: the document is at version %d, the row says %d", room_id, table.version,
                        row.version)
            table.version = row.version
        table.adjourned = row.status == ADJOURNED
        return table

    def save(self, store: Store, room: Room, old_version: int) -> bool:
        assert isinstance(room, ChouetteTable)
        return store.save_chouette(room.id, old_version, room.version, room.document(), room.status, room.summary())

    def write(self, room: Room, old_version: int) -> Save | None:
        return None  # a chouette's document is stored whole (``save``)

    def renamed(self, room: Room, seat: str, name: str | None) -> str | None:
        return None  # the players are named when the chouette is made: the cut and the card name them

    def join(self, store: Store, room_id: str, seat: str, name: str | None, status: str) -> None:
        store.join_chouette(room_id, seat, status)

    def adjourn(self, store: Store, room_id: str) -> bool:
        return store.adjourn(room_id, chouette=True)

    def relink(self, store: Store, room: Room, seat: str, old_hash: str, new_hash: str) -> bool:
        return store.set_chouette_token(room.id, seat, old_hash, new_hash)

    def marks(self, store: Store, ids: list[str]) -> dict[str, Mark]:
        return store.chouette_marks(ids)

    def mark_of(self, room: Room) -> Mark:
        seats = list(room.seats.values())
        return Mark(room.version, tuple(s.joined for s in seats), tuple(s.name for s in seats),
                    tuple(s.token_hash for s in seats), room.adjourned)

    def decode(self, data: object) -> ChouetteMessage:
        return decode_chouette_message(data)

    def act(self, room: Room, seat: str, msg: Any) -> bool:
        assert isinstance(room, ChouetteTable)
        return room.act(seat, msg)


TWO_SEATS = TwoSeats()
CHOUETTES = Chouettes()
KINDS: tuple[Kind, ...] = (TWO_SEATS, CHOUETTES)


#: How many messages may wait for a client that does not read before his connection is closed.
MAX_OUTBOX = 32


@dataclass(eq=False)
class Connection:
    """One open websocket and its outbox, emptied by its own task.

    Messages are posted, not awaited: a client that reads slowly (or not at all) never holds up
    the table or the other seat.  A state replaces any older state still waiting (each state is
    the whole view), so a slow client gets the newest; a client that lets ``MAX_OUTBOX``
    messages pile up is closed, and finds the table where it is when he reconnects.

    A client that asked for ``patches`` in its hello is sent its first state whole and each state
    after it as a patch on the one sent before it on this socket (``protocol.encode_state``), made
    when it is sent: a state that replaced another still waiting is patched on what the client has.
    """

    ws: WebSocket
    seat: str
    #: The hash of the token it was opened with: when the seat's link is revoked, it no longer matches.
    token_hash: str | None = None
    #: States are sent as patches on the one sent before (the hello's ``"patches": true``).
    patches: bool = False
    #: What this socket was last sent of the state, as text (with ``patches``): the next patch's base.
    _sent: Sent | None = None
    _outbox: collections.deque[tuple[bool, str | dict[str, Any]]] = field(default_factory=collections.deque)
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None
    closed: bool = False
    #: The code the socket is closed with: 1013 (try again later) unless ``end`` says otherwise.
    close_code: int = 1013
    _ending: bool = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._send_all(), name=f"piquet-send-{self.seat}")

    def end(self, text: str, code: int) -> None:
        """Send ``text`` after what is queued, then close the socket with ``code``; nothing more is sent."""
        if self.closed or self._ending:
            return
        self._outbox.append((False, text))
        self.close_code = code
        self._ending = True
        self._ready.set()

    def post(self, text: str | dict[str, Any], *, state: bool = False) -> None:
        """Queue a message; ``state``: a state message (its text, or with ``patches`` the message itself), which
        replaces an older one still queued."""
        if self.closed or self._ending:
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
                    _, payload = self._outbox.popleft()
                    if self.ws.application_state != WebSocketState.CONNECTED:
                        self.closed = True
                        break
                    if isinstance(payload, dict):
                        text, self._sent = encode_state(payload, self._sent)
                    else:
                        text = payload
                    # Not kept while this task waits for the next: only ``_sent``'s text outlives the sending.
                    del payload
                    await self.ws.send_text(text)
                    del text
                if self._ending:
                    self.closed = True
        except Exception:  # a dropped connection: the client reconnects and is sent the state
            self.closed = True
        if self.closed:
            with contextlib.suppress(Exception):
                await self.ws.close(self.close_code)  # 1013, try again later: the client reconnects

    async def stop(self) -> None:
        """Stop sending (the socket has gone); what was queued is dropped."""
        self.closed = True
        self._ready.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


class Hub:
    """The tables in memory (of every kind), their locks, their open sockets and their computer players' tasks,
    and the tasks that adjourn a partie whose persons have gone (``adjourn`` seconds after; 0: never)."""

    def __init__(self, store: Store, pace: float = 0.0, poll: float = DEFAULT_POLL,
                 limits: Limits = NO_RATE_LIMITS, adjourn: float = DEFAULT_ADJOURN) -> None:
        self.store = store
        self.pace = pace
        self.poll = poll
        self.limits = limits
        self.adjourn = adjourn
        #: Per client address, in this process: the tables it may create, the websocket messages it may send.
        self.creating = Buckets(limits.tables, limits.tables_per_minute / 60)
        self.messages = Buckets(limits.messages, limits.messages_per_second)
        self.watcher: asyncio.Task[None] | None = None
        self.checkpointer: asyncio.Task[None] | None = None
        self.tables: dict[str, Room] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.conns: dict[str, set[Connection]] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.adjourners: dict[str, asyncio.Task[None]] = {}
        #: Held while a table is being adjourned by itself (``_adjourn_later``): one at a time.
        self.adjourning = asyncio.Lock()
        self.saves = SaveQueue(store)
        self.outage = Outage(store, self._database_lost, self._database_back)
        self.listener: Listener | None = None
        #: Tables dropped from memory with a move the database did not take: reloaded when it is back.
        self.adrift: dict[str, Kind] = {}
        #: The tables being reloaded on another process's notice; True: noticed again meanwhile.
        self.noticed: dict[str, bool] = {}
        self.chores: set[asyncio.Task[None]] = set()
        #: How late this process's event loop runs what is ready (``GET /api/health``).
        self.lag = LoopLag()
        #: The collector's passes by the clock, when the app was given one (``create_app``).
        self.collector: Collector | None = None

    def lock(self, table_id: str) -> asyncio.Lock:
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------ loading and saving (hold the lock)

    async def room(self, table_id: str, kind: Kind) -> Room | None:
        """The table, from memory or rebuilt from what is stored; None if there is none of that kind."""
        room = self.tables.get(table_id)
        if room is not None:
            return room if kind.holds(room) else None
        room = await asyncio.to_thread(kind.load, self.store, table_id)
        if room is None:
            return None
        room.present = self.present(table_id)
        self.tables[table_id] = room
        return room

    async def commit(self, room: Room, kind: Kind, change: Callable[[], bool]) -> None:
        """Make the change, store it, then broadcast; ``TableError`` (nothing changed, nothing stored) if
        refused.  A change that returns False is told to the seats and not stored."""
        old = room.version
        if not change():
            await self.broadcast(room)
            return
        try:
            saved = await self.save(kind, room, old)
        except StoreUnavailable:
            # Not stored: the change made in memory is forgotten, the seats keep the state they have.
            self.tables.pop(room.id, None)
            self.adrift[room.id] = kind
            raise
        except Exception:
            log.exception("table %s: the action could not be saved", room.id)
            saved = False
        if not saved:
            # Changed elsewhere (another process) or not stored: forget it, reload what is stored.
            self.tables.pop(room.id, None)
            fresh = await self.room(room.id, kind)
            if fresh is not None:
                await self.broadcast(fresh)
            raise TableError("stale", "the table could not be saved as it was (changed elsewhere?): "
                                      "look again and choose")
        await self.broadcast(room)

    async def save(self, kind: Kind, room: Room, old: int) -> bool:
        """Store the change from version ``old``: through the save queue (one transaction for the actions
        that come together), or whole in a worker thread."""
        write = kind.write(room, old)
        if write is None:
            return await asyncio.to_thread(kind.save, self.store, room, old)
        return await self.saves.save(write)

    # ------------------------------------------------------------ other server processes

    def watch(self) -> None:
        """Start hearing of tables changed by another process: on PostgreSQL by its notifications, and every
        ``poll`` s by looking (0: never)."""
        if self.store.notifies and self.listener is None:
            self.listener = Listener(self.store.url, self.store.origin, self.changed,
                                     lambda: self._spawn(self.outage.check(), "piquet-database-check"),
                                     self._listening_again)
            self.listener.start()
        if self.poll > 0 and self.watcher is None:
            self.watcher = asyncio.create_task(self._watch(), name="piquet-watch")
        if self.store.checkpoints and self.checkpointer is None:
            self.checkpointer = asyncio.create_task(self._checkpoints(), name="piquet-checkpoints")

    async def _checkpoints(self) -> None:
        """Every ``CHECKPOINT_EVERY`` s, the SQLite file's log copied into the database (``Store.checkpoint``);
        one line in the log the first time it fails, one when it works again."""
        failing = False
        while True:
            await asyncio.sleep(CHECKPOINT_EVERY)
            try:
                await asyncio.to_thread(self.store.checkpoint)
            except StoreUnavailable as e:
                self.outage.lost(e.reason)
                continue
            except Exception as e:
                if not failing:
                    log.warning("the database's write-ahead log could not be copied into it: %s", e)
                failing = True
                continue
            if failing:
                log.info("the database's write-ahead log is copied into it again")
            failing = False

    def _spawn(self, work: Any, name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            if self.outage.down:
                continue  # the probe reloads every table when the database is back
            try:
                await self.refresh()
            except asyncio.CancelledError:
                raise
            except StoreUnavailable as e:
                self.outage.lost(e.reason)
            except Exception:
                log.exception("the tables could not be checked for changes made elsewhere")

    async def _listening_again(self) -> None:
        """The listener lost its connection a while: what it was not told of is looked for."""
        try:
            await self.refresh()
        except StoreUnavailable as e:
            self.outage.lost(e.reason)

    def changed(self, table_id: str) -> None:
        """Another process changed this table (its notification): reload it, if this one has sockets on it."""
        if not self.conns.get(table_id) or table_id not in self.tables:
            return
        if table_id in self.noticed:
            self.noticed[table_id] = True  # reloaded again once the reload under way is done
            return
        self.noticed[table_id] = False
        self._spawn(self._reload_noticed(table_id), f"piquet-notice-{table_id}")

    async def _reload_noticed(self, table_id: str) -> None:
        try:
            while True:
                room = self.tables.get(table_id)
                kind = next((k for k in KINDS if room is not None and k.holds(room)), None)
                if kind is not None:
                    await self._reload_if_changed(table_id, kind)
                if not self.noticed.get(table_id):
                    return
                self.noticed[table_id] = False
        except StoreUnavailable as e:
            self.outage.lost(e.reason)
        except Exception:
            log.exception("table %s could not be reloaded after a change made elsewhere", table_id)
        finally:
            self.noticed.pop(table_id, None)

    def _database_lost(self, reason: str) -> None:
        """Every seat is told that its table waits for its database (its state kept as it is)."""
        text = json.dumps(database_message(reason))
        for conns in self.conns.values():
            for conn in list(conns):
                conn.post(text)

    async def _database_back(self) -> None:
        """The database answers again: every table with sockets (and every table whose move it missed) is reloaded
        from what is stored and sent to its seats, who are told so; the computers go on."""
        text = json.dumps(database_message(None))
        ids = {i for i, conns in self.conns.items() if conns} | set(self.adrift)
        for table_id in ids:
            room = self.tables.get(table_id)
            kind = self.adrift.get(table_id) or next((k for k in KINDS if room is not None and k.holds(room)), None)
            if kind is None:
                continue
            try:
                async with self.lock(table_id):
                    self.tables.pop(table_id, None)
                    fresh = await self.room(table_id, kind)
                    self.adrift.pop(table_id, None)
                    for conn in list(self.conns.get(table_id, ())):
                        conn.post(text)
                    if fresh is not None:
                        await self.broadcast(fresh)
            except StoreUnavailable as e:
                self.outage.lost(e.reason)
                return
            self.drive(table_id, kind)
            self.forget_if_idle(table_id)

    async def refresh(self) -> list[str]:
        """Reload and send again every table with open sockets that another process has changed.

        Several server processes on one database each keep their own sockets: a seat's action is
        stored by the process he is connected to, and the other processes see it here.  Returns
        the ids of the tables reloaded.
        """
        reloaded = []
        for kind in KINDS:
            ids = [i for i, conns in self.conns.items() if conns and i in self.tables and kind.holds(self.tables[i])]
            if not ids:
                continue
            marks = await asyncio.to_thread(kind.marks, self.store, ids)
            for table_id in ids:
                room = self.tables.get(table_id)
                mark = marks.get(table_id)
                # A stored version behind the one held is this process's own save still under way, not news.
                if room is None or mark is None or mark == kind.mark_of(room) or mark.version < room.version:
                    continue
                if await self._reload_if_changed(table_id, kind):
                    reloaded.append(table_id)
        return reloaded

    # ------------------------------------------------------------ who sits at the table, and adjourning

    def present(self, table_id: str) -> frozenset[str]:
        """The seats with a connection open to this process (only this one's: see docs/web.md)."""
        return frozenset(conn.seat for conn in self.conns.get(table_id, ()))

    def seat_news(self, room: Room) -> bool:
        """Note who sits at the table now; when it changed, every seat is sent the new state (whether it did)."""
        present = self.present(room.id)
        if present == room.present:
            return False
        room.present = present
        self.post_states(room)
        return True

    def left(self, table_id: str, kind: Kind) -> None:
        """A connection has closed: the others are told if its seat is empty now; a partie in play that no person
        sits at any more is adjourned ``adjourn`` seconds later if nobody comes back; the table leaves memory when
        it is idle.  No ``await``: it runs to its end in a task being cancelled."""
        room = self.tables.get(table_id)
        if room is not None:
            self.seat_news(room)
            if (self.adjourn > 0 and not self.conns.get(table_id) and room.status == "playing"
                    and table_id not in self.adjourners):
                self.adjourners[table_id] = asyncio.create_task(self._adjourn_later(table_id, kind),
                                                                name=f"piquet-adjourn-{table_id}")
        self.forget_if_idle(table_id)

    def came_back(self, table_id: str) -> None:
        """A person has connected: the table is not adjourned for his absence."""
        task = self.adjourners.pop(table_id, None)
        if task is not None:
            task.cancel()

    async def _adjourn_later(self, table_id: str, kind: Kind) -> None:
        try:
            await asyncio.sleep(self.adjourn)
            # One at a time: a thousand tables left at once (a restart, a network gone) are adjourned one after
            # the other, not in a storm that would stop every table in play meanwhile.
            async with self.adjourning, self.lock(table_id):
                if self.conns.get(table_id):
                    return
                room = self.tables.get(table_id)
                if room is None:  # not held (the usual case): its stored status alone changes, nothing rebuilt
                    adjourned = await asyncio.to_thread(kind.adjourn, self.store, table_id)
                else:
                    adjourned = room.status == "playing"
                    if adjourned:
                        await self.set_adjourned(room, kind, True)
                if adjourned:
                    log.info("table %s: nobody has sat at it for %g s: the partie is adjourned", table_id,
                             self.adjourn)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database away: the table stays as it was, and is adjourned by hand or not at all
            log.exception("table %s could not be adjourned", table_id)
        finally:
            if self.adjourners.get(table_id) is asyncio.current_task():
                del self.adjourners[table_id]
            self.forget_if_idle(table_id)

    async def set_adjourned(self, room: Room, kind: Kind, adjourned: bool) -> None:
        """Adjourn the partie, or take it up, stored as the table's status (hold its lock)."""
        def change() -> bool:
            room.adjourned = adjourned
            return True
        await self.commit(room, kind, change)

    async def sitting(self, room: Room, kind: Kind, seat: str, what: str) -> None:
        """A seat adjourns the partie (``adjourn``: while another person's seat is empty) or takes it up
        (``take_up``); ``TableError`` if he may not (hold the table's lock)."""
        name = "chouette" if isinstance(room, ChouetteTable) else "partie"
        if what == "take_up":
            if not room.adjourned:
                raise TableError("illegal", f"the {name} is not adjourned")
            await self.set_adjourned(room, kind, False)
            return
        status = room.status
        if status != "playing":
            raise TableError("illegal", {"finished": f"the {name} is over", "adjourned": f"the {name} is adjourned "
                                         "already", "waiting": "the invited player has not come yet: there is no "
                                         f"{name} to adjourn"}.get(status, f"the {name} is {status}"))
        gone = [s for s, x in room.seats.items() if not x.is_computer and s != seat and s not in room.present]
        if not gone:
            raise TableError("illegal", f"every player is at the table: the {name} is adjourned when one has gone")
        await self.set_adjourned(room, kind, True)

    async def _reload_if_changed(self, table_id: str, kind: Kind) -> bool:
        """Under the table's lock, reload it and send it to its seats if what is stored differs from what is held."""
        async with self.lock(table_id):
            room = self.tables.get(table_id)
            if room is None:
                return False
            fresh = await asyncio.to_thread(kind.load, self.store, table_id)
            if fresh is None or kind.mark_of(fresh) == kind.mark_of(room):
                return False
            fresh.present = self.present(table_id)
            self.tables[table_id] = fresh
            await self.broadcast(fresh)
        self.drive(table_id, kind)
        return True

    # ------------------------------------------------------------ sending

    async def broadcast(self, room: Room) -> None:
        """Each open socket of the table is sent the state as its seat sees it."""
        self.post_states(room)

    def post_states(self, room: Room) -> None:
        """``broadcast``, from code that may not ``await``."""
        messages: dict[str, dict[str, Any]] = {}
        texts: dict[str, str] = {}
        for conn in list(self.conns.get(room.id, ())):
            if conn.token_hash != room.seats[conn.seat].token_hash:  # its link revoked, here or elsewhere
                conn.end(json.dumps(error_message("token", REVOKED)), 4401)
                continue
            if conn.seat not in messages:
                messages[conn.seat] = room.message(conn.seat, told=True)
            if conn.patches:
                conn.post(messages[conn.seat], state=True)
                continue
            if conn.seat not in texts:
                texts[conn.seat] = state_text(messages[conn.seat])
            conn.post(texts[conn.seat], state=True)

    async def send_all(self, table_id: str, message: dict[str, Any], only: frozenset[str] | None = None) -> None:
        """Send a message to every socket of the table (``only``: of those seats)."""
        text = json.dumps(message)
        for conn in list(self.conns.get(table_id, ())):
            if only is None or conn.seat in only:
                conn.post(text)

    def open_on(self, table_id: str, seat: str) -> int:
        """How many sockets are open on a seat, in this process."""
        return sum(1 for c in self.conns.get(table_id, ()) if c.seat == seat and not c.closed)

    async def new_link(self, table_id: str, kind: Kind, token: str) -> tuple[str, str] | None:
        """A new token for the seat ``token`` opens, and the seat: stored, the old token refused from now on, and
        the sockets opened with it closed (4401, saying why).  None if the token opens no seat of the table;
        ``TableError`` (stale) if the seat's link was changed meanwhile by another process."""
        async with self.lock(table_id):
            room = await self.room(table_id, kind)
            seat = None if room is None or not token or len(token) > MAX_TOKEN else room.seat_of_token(token)
            if room is None or seat is None:
                self.forget_if_idle(table_id)
                return None
            old, fresh = room.seats[seat].token_hash, new_token()
            assert old is not None
            saved = await asyncio.to_thread(kind.relink, self.store, room, seat, old, hash_token(fresh))
            if not saved:
                self.tables.pop(table_id, None)
                self.forget_if_idle(table_id)
                raise TableError("stale", "the seat's link was changed meanwhile: use the newest link")
            room.seats[seat].token_hash = hash_token(fresh)
            await self.broadcast(room)
            self.forget_if_idle(table_id)
            return fresh, seat

    # ------------------------------------------------------------ the computer

    def drive(self, table_id: str, kind: Kind = TWO_SEATS) -> None:
        """Start the table's computer player if one is to act and not already deciding."""
        task = self.drivers.get(table_id)
        if task is None or task.done():
            self.drivers[table_id] = asyncio.create_task(self._drive(table_id, kind),
                                                         name=f"piquet-computer-{table_id}")

    async def _drive(self, table_id: str, kind: Kind) -> None:
        lock = self.lock(table_id)
        try:
            while True:
                async with lock:
                    if not self.conns.get(table_id):  # nobody at the table (in this process): he plays to nobody
                        return
                    room = await self.room(table_id, kind)
                    job = None if room is None else room.computer_job()
                    if room is None or job is None:
                        return
                    decide, version = room.decider(job), room.version
                    message, only = room.thinking(job)
                    await self.send_all(table_id, message, only)
                start = time.monotonic()
                decision = await asyncio.to_thread(decide)
                wait = self.pace - (time.monotonic() - start)
                if wait > 0:
                    await asyncio.sleep(wait)
                async with lock:
                    if not self.conns.get(table_id):
                        return
                    room = await self.room(table_id, kind)
                    if room is None or room.version != version or room.computer_job() != job:
                        continue
                    try:
                        await self.commit(room, kind, functools.partial(room.perform, job, decision))
                    except TableError as e:
                        if e.code != "illegal":
                            continue
                        log.error("table %s: the computer (%s) chose %s: %s; a legal choice at random", table_id,
                                  room.seats[job.seat].level, decision, e.message)
                        await self.commit(room, kind, functools.partial(room.perform, job, room.fallback(job)))
        except asyncio.CancelledError:
            raise
        except StoreUnavailable as e:  # driven again when the database is back
            self.outage.lost(e.reason)
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
            room = self.tables.pop(table_id, None)
            self.adrift.pop(table_id, None)
            if isinstance(room, Table):
                forget_partie(room.partie)  # what the views kept of its deals
            if room is not None and self.collector is not None:
                self.collector.left()
            lock = self.locks.get(table_id)
            if lock is not None and not lock.locked() and not getattr(lock, "_waiters", None):
                del self.locks[table_id]

    async def close(self) -> None:
        await self.lag.stop()
        if self.listener is not None:
            await self.listener.close()
        await self.outage.close()
        tasks = [*self.drivers.values(), *self.adjourners.values(), *self.chores,
                 *(t for t in (self.watcher, self.checkpointer) if t is not None)]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.saves.close()


# ---------------------------------------------------------------- HTTP


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def lobby(request: Request) -> Response:
    return static_page("index.html")


async def rules_page(request: Request) -> Response:
    """The "How to play" page: docs/rules.md as HTML, escaped, an anchor for each topic and glossary term."""
    return HTMLResponse(page_html(), headers={"Cache-Control": "no-cache"})


async def glossary_terms(request: Request) -> Response:
    """The phrases of the talk that lead to the glossary, and their anchors on ``/rules``."""
    return JSONResponse({"page": "/rules", "terms": talk_terms()})


async def static_file(request: Request) -> Response:
    rel = request.path_params["path"]
    if "\x00" in rel or len(rel) > MAX_STATIC_PATH or any(len(name) > MAX_FILE_NAME for name in rel.split("/")):
        return _error(404, f"no such file: a file's name here has no NUL byte and at most {MAX_FILE_NAME} characters")
    root = pages.STATIC.resolve()
    try:
        path = (root / rel).resolve()
        found = root in path.parents and path.is_file()
    except (OSError, ValueError):  # a name the system refuses
        found = False
    if not found:
        return _error(404, "no such file")
    return FileResponse(path, headers={"Cache-Control": "no-cache"})


def _rules_of(name: object, agreements: object) -> Rules:
    """The rules a new table is played under: ``"rules"`` is a name or a spec (``"au-cent+small-cards"``,
    ``"rubicon+club"``), ``"agreements"`` an optional list of agreements: Piquet au cent's options (p. 19), and
    ``club`` with any rules (calls taken at the player's word); ``ValueError`` names what is known."""
    if not isinstance(name, str):
        raise ValueError("\"rules\" is a string: rubicon, four-deal or au-cent (with +small-cards, +fours), "
                         "any of them with +club")
    if not isinstance(agreements, list) or not all(isinstance(a, str) for a in agreements):
        raise ValueError("\"agreements\" is a list of names: small-cards, fours (Piquet au cent, p. 19); club "
                         "(a club table)")
    return rules_named(name, agreements)


#: Why a table with the computer is not a club table: its players' samplers take the cards called as held.
CLUB_WITH_COMPUTER = ("a club table, where calls are taken at the player's word (Laws 52-54), is for two persons: "
                      "the computer takes the cards called as held, so it does not sit at one. Open a table for a "
                      "person, or play the computer at the strict table (without \"club\")")
CLUB_AT_CHOUETTE = ("a chouette at a club table, where calls are taken at the player's word (Laws 52-54), is for "
                    "three persons: the computer takes the cards called as held, so it does not sit at one. Make "
                    "every seat a person's, or open the chouette without \"club\"")


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


def _seed(value: object) -> int:
    """The seed a request gives (tests pass one), or a new one."""
    if value is None:
        return new_seed()
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2 ** 62:
        raise ValueError("\"seed\" is a whole number from 0")
    return value


def _level(value: object) -> str:
    """A computer level by name or number (``ValueError`` names the known ones)."""
    if not isinstance(value, str):
        raise ValueError("\"level\" is a string")
    return level_named(value).name


async def _body(request: Request) -> dict[str, Any] | None:
    """A request's JSON object, or None."""
    try:
        body = read_json(await request.body())
    except json.JSONDecodeError:
        return None
    return body if isinstance(body, dict) else None


def _too_many(request: Request) -> Response | None:
    """429 when the client's address has opened tables (or asked new links) faster than its rate (per process)."""
    hub: Hub = request.app.state.hub
    wait = hub.creating.take(client_address(request.scope))
    if not wait:
        return None
    after = str(max(1, round(wait + 0.5)))
    return JSONResponse({"error": f"too many tables opened from your address: try again in {after} s"},
                        status_code=429, headers={"Retry-After": after})


def _link(prefix: str, table_id: str, token: str) -> str:
    """A seat's link: its token in the fragment, which a browser never sends to a server (nor to a log)."""
    return f"/{prefix}/{table_id}#token={token}"


async def create_table(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    if (refused := _too_many(request)) is not None:
        return refused
    body = await _body(request)
    if body is None:
        return _error(400, "the body is a JSON object")
    try:
        opponent = body.get("opponent", "computer")
        if opponent not in ("computer", "person"):
            raise ValueError("\"opponent\" is \"computer\" or \"person\"")
        rules = _rules_of(body.get("rules", "rubicon"), body.get("agreements", []))
        if rules.calls_at_word and opponent == "computer":
            raise ValueError(CLUB_WITH_COMPUTER)
        name = _name(body.get("name"), "Player")
        seed = _seed(body.get("seed"))
        level = _level(body.get("level", DEFAULT_WEB_LEVEL)) if opponent == "computer" else None
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
    out: dict[str, Any] = {"table": table_id, "seat": "A", "token": token_a, "url": _link("t", table_id, token_a)}
    if token_b is not None:
        out["invite"] = _link("t", table_id, token_b)
    return JSONResponse(out, status_code=201)


def _table_json(r: TableRow) -> dict[str, Any]:
    """A table in a games list (no cards, no tokens)."""
    return {"table": r.id, "status": r.status, "rules": r.rules, "title": _rules_title(r.rules),
            "opponent": r.opponent, "players": {s: seat.name for s, seat in r.seats.items()}, "scores": r.scores,
            "created": _iso(r.created), "updated": _iso(r.updated)}


async def list_tables(request: Request) -> Response:
    """``GET /api/tables``: the open invitations only (tables waiting for their invited person), to anyone."""
    hub: Hub = request.app.state.hub
    rows = await asyncio.to_thread(hub.store.list, status="waiting")
    return JSONResponse([_table_json(r) for r in rows])


async def _held_seats(request: Request) -> list[tuple[str, str]] | Response:
    """The ``(table, token)`` pairs a lobby sends (``{"seats": [{"table": ID, "token": T}, ...]}``), or the 4xx
    refusing them."""
    try:
        body = await json_body(request, '{"seats": [{"table": ID, "token": T}, ...]}')
    except BadBody as e:
        return _error(e.status, str(e))
    seats = body.get("seats") if isinstance(body, dict) else None
    if (not isinstance(seats, list) or len(seats) > MAX_MINE
            or not all(isinstance(x, dict) and isinstance(x.get("table"), str) and isinstance(x.get("token"), str)
                       for x in seats)):
        return _error(400, f"the body is {{\"seats\": [{{\"table\": ID, \"token\": T}}, ...]}}: at most {MAX_MINE} "
                           "seats, each a table's id and the token of its link")
    return [(x["table"], x["token"]) for x in seats]


async def _mine(request: Request, listing: Callable[[set[str]], list[Any]],
                seats_of: Callable[[Any], list[tuple[str, SeatRow]]], to_json: Callable[[Any], dict[str, Any]]
                ) -> Response:
    """The games whose seats the tokens a lobby sends open, each with the ``"seat"`` it opens (``listing``: the
    stored rows of those ids); a token that opens nothing is left out."""
    held = await _held_seats(request)
    if isinstance(held, Response):
        return held
    rows = {r.id: r for r in await asyncio.to_thread(listing, {t for t, _ in held})}
    out = []
    for table_id, token in held:
        row = rows.get(table_id)
        seat = None if row is None else seat_opened(seats_of(row), token)
        if seat is not None:
            out.append({**to_json(row), "seat": seat})
    return JSONResponse(out, headers={"Cache-Control": "private, no-store"})


async def my_tables(request: Request) -> Response:
    """``POST /api/tables/mine``: the tables whose seats the tokens sent open (the lobby sends those it keeps in
    localStorage), each with the seat it opens ("A" or "B")."""
    store: Store = request.app.state.hub.store
    return await _mine(request, lambda ids: store.list(MAX_MINE, ids=ids), lambda r: list(r.seats.items()),
                       _table_json)


async def _new_link(request: Request, kind: Kind, prefix: str) -> Response:
    """A new link for the seat that ``Authorization: Bearer T`` opens; the old one stops working at once."""
    hub: Hub = request.app.state.hub
    table_id = request.path_params["table_id"]
    token = token_of(request.headers)
    if not token:
        return _error(401, "a seat's new link is given to its holder: send the seat's token as "
                           "\"Authorization: Bearer T\"")
    if (refused := _too_many(request)) is not None:
        return refused
    try:
        got = await hub.new_link(table_id, kind, token)
    except TableError as e:
        return _error(409, e.message)
    if got is None:
        return _error(403, "that token does not open a seat at this table: a seat's link is renewed by its holder")
    fresh, seat = got
    return JSONResponse({"table": table_id, "seat": seat, "token": fresh, "url": _link(prefix, table_id, fresh)},
                        headers={"Cache-Control": "private, no-store"})


async def table_new_link(request: Request) -> Response:
    """``POST /api/tables/{id}/new-link``: revoke a seat's link and issue another."""
    return await _new_link(request, TWO_SEATS, "t")


async def chouette_new_link(request: Request) -> Response:
    """``POST /api/chouettes/{id}/new-link``: revoke a chouette seat's link and issue another."""
    return await _new_link(request, CHOUETTES, "c")


async def table_page(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    row = await asyncio.to_thread(hub.store.load, request.path_params["table_id"])
    if row is None:
        return _error(404, "no such table")
    return static_page("table.html")


async def table_record(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    table_id = request.path_params["table_id"]
    row = await asyncio.to_thread(hub.store.load, table_id)
    if row is None:
        return _error(404, "no such table")
    return _download(row.status, row.record, "the partie is finished", f"piquet-{table_id}.json")


def _download(status: str, document: str, when: str, filename: str) -> Response:
    """A finished game's document as a file to save; refused (403) before it is finished."""
    if status != "finished":
        return _error(403, f"the record is given when {when}")
    return Response(document, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


# ---------------------------------------------------------------- chouette (p. 106)


def _chouette_seats(value: object) -> list[tuple[Seat, str | None]]:
    """The three seats a request names, in order, each with its token (a person's) or None (the computer's):
    ``[{"name": "Ann"}, {"name": "Bob", "kind": "computer", "level": "cavendish"}, {"name": "Cy"}]``.  The first
    is the person who opens the table (his seat is taken); the names are made different if they are not."""
    if not isinstance(value, list) or len(value) != 3 or not all(isinstance(x, dict) for x in value):
        raise ValueError("\"players\" is a list of three seats: {\"name\": ..., \"kind\": \"person\"} or "
                         "{\"name\": ..., \"kind\": \"computer\", \"level\": ...}")
    out: list[tuple[Seat, str | None]] = []
    used: set[str] = set()
    for i, d in enumerate(value, 1):
        kind = d.get("kind", "person")
        if kind not in ("person", "computer"):
            raise ValueError(f"seat {i}: \"kind\" is \"person\" or \"computer\"")
        if i == 1 and kind != "person":
            raise ValueError("seat 1 is the person who opens the table: his \"kind\" is \"person\"")
        level = _level(d.get("level", DEFAULT_WEB_LEVEL)) if kind == "computer" else None
        name = _name(d.get("name"), f"Computer ({level})" if level else f"Player {i}")
        while name.casefold() in used:
            name = f"{name[:MAX_NAME - 3]} {i}"
        used.add(name.casefold())
        if kind == "computer":
            out.append((Seat("computer", name, level, None, True), None))
        else:
            token = new_token()
            out.append((Seat("human", name, None, hash_token(token), i == 1), token))
    return out


def _chouette_url(table_id: str, token: str) -> str:
    return _link("c", table_id, token)


async def create_chouette(request: Request) -> Response:
    """``POST /api/chouettes``: a chouette table for three (p. 106); 201 with each person's link."""
    hub: Hub = request.app.state.hub
    if (refused := _too_many(request)) is not None:
        return refused
    body = await _body(request)
    if body is None:
        return _error(400, "the body is a JSON object")
    table_id = "c" + secrets.token_hex(6)
    try:
        seats = _chouette_seats(body.get("players"))
        rules = _rules_of(body.get("rules", "rubicon"), body.get("agreements", []))
        if rules.calls_at_word and any(seat.is_computer for seat, _ in seats):
            raise ValueError(CLUB_AT_CHOUETTE)
        table = ChouetteTable.new(table_id, [seat for seat, _ in seats], _seed(body.get("seed")), rules)
    except (ValueError, ChouetteError) as e:
        return _error(400, str(e))
    now = time.time()
    row = ChouetteRow(id=table_id, created=now, updated=now, rules=rules.spec, seed=table.match.seed,
                      status=table.status, version=table.version,
                      seats=[SeatRow(s.kind, s.name, s.level, s.token_hash, s.joined) for s, _ in seats],
                      summary=table.summary(), document=table.document())
    await asyncio.to_thread(hub.store.insert_chouette, row)
    out_seats = [{"name": s.name, "kind": "computer" if s.is_computer else "person", "level": s.level,
                  "url": None if token is None else _chouette_url(table_id, token)} for s, token in seats]
    token = seats[0][1]
    assert token is not None
    return JSONResponse({"table": table_id, "kind": "chouette", "seat": seats[0][0].name, "token": token,
                         "url": _chouette_url(table_id, token), "seats": out_seats,
                         "places": table.summary()["places"], "cut": cut_words(table.match)}, status_code=201)


def _chouette_json(r: ChouetteRow) -> dict[str, Any]:
    """A chouette in a games list (no cards, no tokens)."""
    return {"table": r.id, "kind": "chouette", "status": r.status, "rules": r.rules, "title": _rules_title(r.rules),
            "players": [s.name for s in r.seats],
            "seats": [{"name": s.name, "kind": "computer" if s.kind == "computer" else "person", "level": s.level,
                       "joined": s.joined} for s in r.seats],
            **r.summary, "created": _iso(r.created), "updated": _iso(r.updated)}


async def list_chouettes(request: Request) -> Response:
    """``GET /api/chouettes``: the chouettes waiting for an invited person, to anyone (no cards, no tokens)."""
    hub: Hub = request.app.state.hub
    rows = await asyncio.to_thread(hub.store.list_chouettes, status="waiting")
    return JSONResponse([_chouette_json(r) for r in rows])


async def my_chouettes(request: Request) -> Response:
    """``POST /api/chouettes/mine``: the chouettes whose seats the tokens sent open, each with its ``"seat"`` (the
    player's name)."""
    store: Store = request.app.state.hub.store
    return await _mine(request, lambda ids: store.list_chouettes(MAX_MINE, ids=ids),
                       lambda r: [(s.name, s) for s in r.seats], _chouette_json)


async def chouette_record(request: Request) -> Response:
    """``GET /api/chouettes/{id}/record``: the chouette's document (every card), once the players have risen."""
    hub: Hub = request.app.state.hub
    table_id = request.path_params["table_id"]
    row = await asyncio.to_thread(hub.store.load_chouette, table_id)
    if row is None:
        return _error(404, "no such chouette")
    return _download(row.status, row.document, "the chouette is over", f"chouette-{table_id}.json")


async def chouette_page(request: Request) -> Response:
    """``/c/{id}?token=T``: the table's page, which knows a chouette by its address."""
    hub: Hub = request.app.state.hub
    row = await asyncio.to_thread(hub.store.load_chouette, request.path_params["table_id"])
    if row is None:
        return _error(404, "no such chouette")
    return static_page("table.html")


# ---------------------------------------------------------------- the websocket


async def _refuse(ws: WebSocket, message: str, close_code: int, code: str = "token") -> None:
    """A wrong token or table, or a seat open too often: one error, then the socket is closed."""
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps(error_message(code, message)))
        await ws.close(close_code)


async def table_socket(ws: WebSocket) -> None:
    """``/ws/{table_id}``, then ``{"type": "hello", "token": T}``: a seat of a partie of two."""
    await _socket(ws, ws.path_params["table_id"], TWO_SEATS)


async def chouette_socket(ws: WebSocket) -> None:
    """``/ws/c/{table_id}``, then ``{"type": "hello", "token": T}``: a seat of a chouette."""
    await _socket(ws, ws.path_params["table_id"], CHOUETTES)


HELLO = 'the first message names the seat: {"type": "hello", "token": "the token of your link"}'


@dataclass(frozen=True)
class Hello:
    """What a new socket's first message says: the seat's token, the name a new guest takes, and whether the
    client takes its states as patches (``Connection``)."""

    token: str
    name: str | None = None
    patches: bool = False


async def _hello(ws: WebSocket) -> Hello | None:
    """The seat's token and the name a new socket gives: its first message, ``{"type": "hello", "token": T,
    "name"?: N, "patches"?: true}``; or, from a script written before, ``?token=T&name=N`` (deprecated: addresses
    are logged, by proxies if not here; states whole).  None once the socket is refused or gone."""
    legacy = ws.query_params.get("token")
    if legacy:
        return Hello(legacy, ws.query_params.get("name"))
    try:
        message = await asyncio.wait_for(ws.receive(), HELLO_WAIT)
    except TimeoutError:
        await _refuse(ws, f"no token came within {HELLO_WAIT:.0f} s: {HELLO}", 4403)
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    data: object = None
    if isinstance(text, str) and len(text) <= MAX_MESSAGE:
        with contextlib.suppress(ProtocolError):  # not JSON, or hostile JSON (records.jsontext)
            data = read_message(text)
    token = data.get("token") if isinstance(data, dict) and data.get("type") == "hello" else None
    if not isinstance(token, str):
        await _refuse(ws, HELLO, 4403)
        return None
    assert isinstance(data, dict)
    name = data.get("name")
    return Hello(token, name if isinstance(name, str) else ws.query_params.get("name"), data.get("patches") is True)


async def _wait_for_database(hub: Hub, ws: WebSocket) -> bool:
    """A socket opened while the database cannot be reached is told so, and kept open (no reconnecting in a
    loop) until it is back (True) or the client leaves (False); a move meanwhile is refused as unsaved."""
    reason = hub.outage.reason or "it does not answer"
    await ws.send_text(json.dumps(database_message(reason)))
    back = asyncio.create_task(hub.outage.back.wait())
    try:
        while not back.done():
            received = asyncio.create_task(ws.receive())
            await asyncio.wait({back, received}, return_when=asyncio.FIRST_COMPLETED)
            if not received.done():
                received.cancel()
                with contextlib.suppress(BaseException):
                    await received
                break
            message = received.result()
            if message["type"] == "websocket.disconnect":
                return False
            text = message.get("text") or ""
            reply = '{"type": "pong"}' if '"ping"' in text else json.dumps(unsaved_message(reason))
            await ws.send_text(reply)
    except (WebSocketDisconnect, RuntimeError):
        return False
    finally:
        back.cancel()
    await ws.send_text(json.dumps(database_message(None)))
    return True


async def _socket(ws: WebSocket, table_id: str, kind: Kind) -> None:
    hub: Hub = ws.app.state.hub
    await ws.accept()
    hello = await _hello(ws)
    if hello is None:
        return
    while True:
        try:
            async with hub.lock(table_id):
                conn = await _take_seat(hub, ws, table_id, kind, hello)
            break
        except StoreUnavailable as e:
            hub.outage.lost(e.reason)
            if not await _wait_for_database(hub, ws):
                hub.forget_if_idle(table_id)
                return
    if conn is None:
        return
    hub.drive(table_id, kind)
    try:
        await _serve_socket(hub, conn, table_id, kind)
    finally:
        conns = hub.conns.get(table_id)
        if conns is not None:
            conns.discard(conn)
        hub.left(table_id, kind)
        await conn.stop()


async def _take_seat(hub: Hub, ws: WebSocket, table_id: str, kind: Kind, hello: Hello) -> Connection | None:
    """Under the table's lock: the seat's connection, sent the state (None: refused, the socket closed);
    ``StoreUnavailable`` if the table cannot be loaded."""
    token, name = hello.token, hello.name
    room = await hub.room(table_id, kind)
    if room is None:
        await _refuse(ws, "there is no such table", 4404)
        return None
    seat = None if len(token) > MAX_TOKEN else room.seat_of_token(token)
    if seat is None:
        hub.forget_if_idle(table_id)
        await _refuse(ws, "that is not a seat's token at this table", 4403)
        return None
    most = hub.limits.seat_connections
    if hub.open_on(table_id, seat) >= most:
        hub.forget_if_idle(table_id)
        await _refuse(ws, f"this seat is open in {most} windows already, the most a seat may be: close one of "
                          "them, then reload this page", 4429, "busy")
        return None
    arriving = room.seats[seat]
    arrives = not arriving.joined
    if arrives:
        # The arrival is stored before the table is changed and anyone told of it.  While the database cannot be
        # reached the table leaves memory (it is loaded afresh) and this socket waits for it (``_socket``).
        renamed = kind.renamed(room, seat, name)
        arriving.joined = True
        status = room.status  # the status his arrival makes: worked out and undone with no wait between
        arriving.joined = False
        try:
            await asyncio.to_thread(kind.join, hub.store, table_id, seat, renamed, status)
        except StoreUnavailable:
            hub.tables.pop(table_id, None)
            hub.adrift[table_id] = kind  # reloaded and sent to its seats when the database is back
            raise
        except Exception:  # not the database away: the status is saved again with the next action
            log.exception("table %s: the arrival of seat %s could not be saved", table_id, seat)
        arriving.joined = True
        if renamed is not None:
            arriving.name = renamed
    conn = Connection(ws, seat, room.seats[seat].token_hash, hello.patches)
    conn.start()
    hub.conns.setdefault(table_id, set()).add(conn)
    hub.came_back(table_id)
    if arrives:
        room.present = hub.present(table_id)
        await hub.broadcast(room)
    elif not hub.seat_news(room):
        message = room.message(seat, told=True)
        conn.post(message if conn.patches else state_text(message), state=True)
    if hub.outage.reason is not None:
        conn.post(json.dumps(database_message(hub.outage.reason)))
    return conn


async def _serve_socket(hub: Hub, conn: Connection, table_id: str, kind: Kind) -> None:
    ws = conn.ws
    address = client_address(ws.scope)
    while True:
        try:
            message = await ws.receive()
        except WebSocketDisconnect:
            return
        if message["type"] == "websocket.disconnect":
            return
        if wait := hub.messages.take(address):
            conn.post(json.dumps(error_message("rate", f"too many messages from your address: this one was not read; "
                                                       f"wait {wait:.1f} s")))
            continue
        text = message.get("text")
        if text is None or len(text) > MAX_MESSAGE:
            conn.post(json.dumps(error_message("malformed", "a message is a JSON text of at most 64 KiB")))
            continue
        try:
            data = read_message(text)
            # Adjourning and taking up are answered by the hub alike for every kind of table (``Hub.sitting``).
            sitting = data["type"] if isinstance(data, dict) and data.get("type") in SITTING else None
            msg = None if sitting else kind.decode(data)
        except ProtocolError as e:
            conn.post(json.dumps(error_message("malformed", str(e))))
            continue
        if sitting is not None or msg is None:
            await _answer(hub, conn, table_id, kind,
                          functools.partial(hub.sitting, kind=kind, seat=conn.seat, what=str(sitting)))
            continue
        if msg.type == "ping":
            conn.post('{"type": "pong"}')
            continue
        await _answer(hub, conn, table_id, kind, functools.partial(_act, hub, kind, conn.seat, msg))


async def _act(hub: Hub, kind: Kind, seat: str, msg: Any, room: Room) -> None:
    """A seat's message about the partie, applied and stored (``Hub.commit``)."""
    await hub.commit(room, kind, functools.partial(kind.act, room, seat, msg))


async def _answer(hub: Hub, conn: Connection, table_id: str, kind: Kind,
                  change: Callable[[Room], Awaitable[None]]) -> None:
    """Make a client's change to the table under its lock, or tell him why not (``TableError``); then the computer
    plays if he is to."""
    async with hub.lock(table_id):
        try:
            room = await hub.room(table_id, kind)
            if room is None:
                conn.post(json.dumps(error_message("stale", "the table cannot be loaded now")))
                return
            await change(room)
        except TableError as e:
            # A refusal citing a law says what the law says, too (talk.laws).
            said = with_law(e.message) if e.code == "illegal" else e.message
            conn.post(json.dumps(error_message(e.code, said)))
            return
        except StoreUnavailable as e:
            hub.outage.lost(e.reason)
            conn.post(json.dumps(unsaved_message(e.reason)))
            return
    hub.drive(table_id, kind)


# ---------------------------------------------------------------- the app


#: The page a browser is shown while the database cannot be reached (503).
WAITING_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Piquet: the table waits for its database</title></head>
<body><main><h1>The table waits for its database</h1>
<p>The server cannot reach its database just now, so no table can be opened or played. Nothing saved is lost:
every partie is kept as it was at its last move.</p>
<p>Try again in a moment (reload this page).</p></main></body></html>
"""


async def database_away(request: Request, exc: Exception) -> Response:
    """A request that needed the database when it could not be reached: 503, a page (JSON under ``/api``)."""
    reason = exc.reason if isinstance(exc, StoreUnavailable) else str(exc)
    hub: Hub = request.app.state.hub
    hub.outage.lost(reason)
    headers = {"Retry-After": "5", "Cache-Control": "no-store"}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": f"the database cannot be reached now ({reason}): try again in a moment"},
                            status_code=503, headers=headers)
    return HTMLResponse(WAITING_PAGE, status_code=503, headers=headers)


async def health(request: Request) -> Response:
    """``GET /api/health``: whether this process reaches its database (200, or 503), which process answered (a
    label made at its start: behind one port, several processes answer in turn), and how late its event loop has
    run what was ready over the last minute (``loop_lag_ms``: p50, p99, max; ``piquet.web.lag``) and, under
    ``piquet serve``, the collector's passes of each generation and the longest (``collector``)."""
    hub: Hub = request.app.state.hub
    await asyncio.to_thread(hub.store.ping)
    answer: dict[str, Any] = {"database": "up", "process": hub.store.origin, "loop_lag_ms": hub.lag.summary()}
    if hub.collector is not None:
        answer["collector"] = hub.collector.summary()
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


def create_app(db_url: str | None = None, *, pace: float = 0.0, poll: float | None = None,
               limits: Limits = NO_RATE_LIMITS, adjourn: float = DEFAULT_ADJOURN,
               collector: Collector | None = None) -> Starlette:
    """The web app on the database ``db_url`` (a URL or an SQLite path; None: the user's data folder).

    ``pace``: the least time, in seconds, between the computer's "thinking" and his action, so
    that a person sees each card played (0 in tests).  ``poll``: how often, in seconds, to look
    for tables changed by another server process on the same database (0: never; None: ``DEFAULT_POLL``
    on SQLite, never on PostgreSQL, whose notifications tell each process of the others' changes).  ``limits``:
    what one client address may ask of this process, a seat's sockets and the largest body
    (``guard.Limits``; by default no rates, which ``piquet serve`` sets: ``guard.DEFAULT_LIMITS``).
    ``adjourn``: how long, in seconds, a partie in play waits after its last person has gone before
    it is adjourned (0: never by itself).  ``collector``: the cyclic garbage collector's passes made by the clock
    while the app serves (``piquet.web.collector``; ``piquet serve`` gives one), not by Python's own thresholds.
    """
    store = Store(database_url(db_url), background_checkpoints=True)
    if poll is None:
        poll = 0.0 if store.notifies else DEFAULT_POLL
    hub = Hub(store, pace, poll, limits, adjourn)
    hub.collector = collector
    redact_logs()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            if collector is not None:
                collector.start()
            hub.lag.start()
            hub.watch()
            if hub.listener is not None:  # serve once this process hears the others (or the database is away)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(hub.listener.listening.wait(), 10)
            yield
        finally:
            try:
                if collector is not None:
                    await collector.stop()
            finally:
                await hub.close()
                store.close()

    app = Starlette(
        routes=[
            Route("/", lobby),
            Route("/rules", rules_page),
            Route("/api/glossary", glossary_terms),
            Route("/api/health", health),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables/mine", my_tables, methods=["POST"]),
            Route("/api/tables/{table_id}/new-link", table_new_link, methods=["POST"]),
            Route("/api/tables/{table_id}/record", table_record),
            *rewind_routes,
            *hint_routes,
            *settle_routes,
            *mark_routes,
            Route("/api/chouettes", create_chouette, methods=["POST"]),
            Route("/api/chouettes", list_chouettes, methods=["GET"]),
            Route("/api/chouettes/mine", my_chouettes, methods=["POST"]),
            Route("/api/chouettes/{table_id}/new-link", chouette_new_link, methods=["POST"]),
            Route("/api/chouettes/{table_id}/record", chouette_record),
            Route("/t/{table_id}", table_page),
            Route("/c/{table_id}", chouette_page),
            Route("/static/{path:path}", static_file),
            WebSocketRoute("/ws/{table_id}", table_socket),
            WebSocketRoute("/ws/c/{table_id}", chouette_socket),
        ],
        lifespan=lifespan,
        middleware=[Middleware(Guard, limits=limits)],
        exception_handlers={StoreUnavailable: database_away},
    )
    app.state.hub = hub
    app.state.store = store
    return app


__all__ = ["CHOUETTES", "DEFAULT_ADJOURN", "DEFAULT_WEB_LEVEL", "KINDS", "TWO_SEATS", "Chouettes", "Connection", "Hub",
           "Kind", "Room", "TwoSeats", "create_app"]
