"""What the server hears of its database: the other processes' changes, and the database going and coming back.

``Listener`` (PostgreSQL): one connection of its own, outside the pool, ``LISTEN piquet``.  Every change a
process stores is notified in the transaction that stores it (``Store._notify``: ``'<table id> <origin>'``);
the listener hands each one from another process to the hub, which reloads that table if it has sockets on it
and sends its new state.  When the listening connection is lost, the notifications sent meanwhile are lost
with it: on reconnecting the hub looks at every table it holds (``Hub.refresh``).

``Outage``: whether the database can be reached, as the server last found it.  The first
``StoreUnavailable`` makes one line in the log and tells every seat that its table waits for its
database; a probe then asks the database every ``every`` seconds, quietly, and when it answers there is
one more line and the tables are reloaded from what is stored and sent again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

from .lag import ended
from .store import NOTIFY_CHANNEL, Store, StoreUnavailable

log = logging.getLogger("piquet.web")

#: How often, in seconds, a database that has gone is asked again, and a lost listener reconnects.
RETRY = 1.0


class Outage:
    """The database's absence: ``reason`` (None while it answers), one log line as it goes and one as it comes
    back; ``on_lost`` is called as it goes, ``on_back`` (awaited) as it comes back."""

    def __init__(self, store: Store, on_lost: Callable[[str], None], on_back: Callable[[], Awaitable[None]],
                 every: float = RETRY) -> None:
        self.store = store
        self.on_lost = on_lost
        self.on_back = on_back
        self.every = every
        self.reason: str | None = None
        self.since = 0.0
        #: Set while the database answers: what a socket opened during an outage waits for.
        self.back = asyncio.Event()
        self.back.set()
        self._probe: asyncio.Task[None] | None = None

    @property
    def down(self) -> bool:
        return self.reason is not None

    def lost(self, reason: str) -> None:
        """The database did not answer (``StoreUnavailable``): said once, until it is back."""
        if self.reason is not None:
            return
        self.reason = reason
        self.since = time.monotonic()
        self.back.clear()
        log.warning("the database cannot be reached (%s): the tables wait for it", reason)
        self.on_lost(reason)
        self._probe = asyncio.create_task(self._wait_for_it(), name="piquet-database-probe")

    async def check(self) -> None:
        """Ask the database now (a listener that lost its connection asks this): ``lost`` if it does not answer."""
        if self.reason is not None:
            return
        try:
            await asyncio.to_thread(self.store.ping)
        except StoreUnavailable as e:
            self.lost(e.reason)

    async def _wait_for_it(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await asyncio.to_thread(self.store.ping)
            except StoreUnavailable:
                continue
            break
        log.warning("the database is back after %.0f s: play goes on", time.monotonic() - self.since)
        self.reason = None
        self._probe = None
        await self.on_back()
        self.back.set()

    async def close(self) -> None:
        await ended(self._probe)


def conninfo(url: str) -> str:
    """The libpq address of an SQLAlchemy PostgreSQL URL (``postgresql+psycopg://u@h/db`` -> ``postgresql://u@h/db``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """``LISTEN piquet`` on a connection of its own: ``on_change(table_id)`` for each change made by another
    process; ``on_lost()`` when the connection goes (it reconnects every ``RETRY`` s), ``on_again()`` (awaited)
    when it is listening again after a loss."""

    def __init__(self, url: str, origin: str, on_change: Callable[[str], None], on_lost: Callable[[], None],
                 on_again: Callable[[], Awaitable[object]], retry: float = RETRY) -> None:
        self.conninfo = conninfo(url)
        self.origin = origin
        self.on_change = on_change
        self.on_lost = on_lost
        self.on_again = on_again
        self.retry = retry
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="piquet-listen")

    async def _run(self) -> None:
        import psycopg

        lost = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True,
                                                                 connect_timeout=5) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.listening.set()
                    if lost:
                        lost = False
                        log.debug("listening again for the other server processes' changes")
                        await self.on_again()
                    async for note in conn.notifies():
                        table_id, _, origin = note.payload.partition(" ")
                        if origin != self.origin:
                            self.on_change(table_id)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # psycopg.OperationalError and the like: the connection is gone
                if not lost:
                    log.debug("the listening connection is lost (%s): reconnecting",
                             str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__)
                    self.listening.clear()
                    self.on_lost()
                lost = True
            await asyncio.sleep(self.retry)

    async def close(self) -> None:
        await ended(self._task)
        self._task = None


__all__ = ["RETRY", "Listener", "Outage", "conninfo"]
