"""``piquet serve``: the web server, to play in the browser against the computer or another person.

The database is an SQLite file in the user's data folder unless ``--db`` names another file or
an SQLAlchemy URL (``postgresql+psycopg://user@host/piquet`` for a deployment with several
server processes, with that driver installed: ``pip install 'piquet[postgres]'``).  Several
processes may serve one database: ``--workers N`` runs N behind the one port (or run several
``piquet serve`` behind a proxy).  On PostgreSQL each is told of the others' changes (LISTEN/NOTIFY);
on SQLite each looks for them every ``--poll`` seconds.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    from .store import default_database_path

    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default: 8000)")
    p.add_argument("--db", metavar="URL_OR_PATH", default=None,
                   help=f"an SQLite file or an SQLAlchemy URL (default: {default_database_path()})")
    p.add_argument("--pace", type=float, default=0.5, metavar="SECONDS",
                   help="the least time the computer takes over each action, so that its cards can be "
                        "followed (default: 0.5; 0 for none)")
    p.add_argument("--poll", type=float, default=None, metavar="SECONDS",
                   help="how often to look for tables changed by another server process on the same database "
                        "(default: 0.5 on SQLite; on PostgreSQL none, its notifications tell of them; 0 for never)")
    p.add_argument("--no-rate-limits", action="store_true",
                   help="no limit on the tables and the messages of one client address (a benchmark run from one "
                        "address); the limits of a seat's sockets and of a request's size stay")
    p.add_argument("--adjourn", type=float, default=None, metavar="SECONDS",
                   help="adjourn a partie in play this long after its last person has gone, until a player takes "
                        "it up (default: 120; 0 for never)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes sharing the port, on one database (default: 1; PostgreSQL for more)")
    p.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"),
                   help="how much the server logs (default: info)")


#: zlib's level for the websocket's per-message deflate: 1, the fastest, compresses a state about five times (6,
#: uvicorn's, about six and a half, at more than twice the time: the first cost of a state under load).
DEFLATE_LEVEL = 1


def websocket_protocol() -> Any:
    """uvicorn's websocket protocol (websockets, sans-I/O) with per-message deflate at ``DEFLATE_LEVEL``, the
    same window as uvicorn's; uvicorn's own (``"auto"``) where that implementation is not there to adapt."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
        from websockets.server import ServerProtocol
    except ImportError:
        return "auto"

    class FastDeflate(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                deflate = ServerPerMessageDeflateFactory(server_max_window_bits=12, client_max_window_bits=12,
                                                         compress_settings={"memLevel": 5, "level": DEFLATE_LEVEL})
                self.conn = ServerProtocol(extensions=[deflate], max_size=self.config.ws_max_size,
                                           logger=self.conn.logger)

    return FastDeflate


def run_serve(ns: argparse.Namespace) -> int:
    import uvicorn

    from .app import DEFAULT_ADJOURN, create_app
    from .collector import Collector
    from .guard import DEFAULT_LIMITS, NO_RATE_LIMITS, log_config
    from .store import database_url

    if not 0 < ns.port < 65536:
        print(f"piquet serve: the port is a number from 1 to 65535, not {ns.port}", file=sys.stderr)
        return 2
    if ns.pace < 0:
        print("piquet serve: --pace is a time in seconds, 0 or more", file=sys.stderr)
        return 2
    if ns.poll is not None and ns.poll < 0:
        print("piquet serve: --poll is a time in seconds, 0 or more", file=sys.stderr)
        return 2
    adjourn = DEFAULT_ADJOURN if ns.adjourn is None else ns.adjourn
    if adjourn < 0:
        print("piquet serve: --adjourn is a time in seconds, 0 or more", file=sys.stderr)
        return 2
    if ns.workers < 1:
        print("piquet serve: --workers is a number of processes, 1 or more", file=sys.stderr)
        return 2
    try:
        url = database_url(ns.db)
        limits = NO_RATE_LIMITS if ns.no_rate_limits else DEFAULT_LIMITS
        app = create_app(url, pace=ns.pace, poll=ns.poll, limits=limits, adjourn=adjourn, collector=Collector())
    except Exception as e:  # a bad URL, a driver not installed, a folder that cannot be made
        print(f"piquet serve: cannot open the database {ns.db or ''}: {e}", file=sys.stderr)
        return 2
    host = f"[{ns.host}]" if ":" in ns.host else ns.host
    print(f"piquet: playing at http://{host}:{ns.port}/  (the database: {url})", flush=True)
    options: dict[str, object] = {"host": ns.host, "port": ns.port, "log_level": ns.log_level, "ws_max_size": 1 << 20,
                                  "log_config": log_config()}
    if ns.workers == 1:
        uvicorn.run(app, ws=websocket_protocol(), **options)  # type: ignore[arg-type]
        return 0
    # Each worker makes its own app (its own hub, pool and listener) from what the environment says.
    app.state.store.close()
    os.environ.update({"PIQUET_DB": url, "PIQUET_PACE": str(ns.pace),
                       "PIQUET_POLL": "" if ns.poll is None else str(ns.poll), "PIQUET_ADJOURN": str(adjourn),
                       "PIQUET_RATE_LIMITS": "0" if ns.no_rate_limits else "1"})
    uvicorn.run("piquet.web.serve:app_from_environment", factory=True, workers=ns.workers,
                **options)  # type: ignore[arg-type]
    return 0


def app_from_environment() -> Starlette:
    """The app of one worker of ``piquet serve --workers N`` (or ``uvicorn --factory --workers N
    piquet.web.serve:app_from_environment``): ``PIQUET_DB`` (a URL or an SQLite path), ``PIQUET_PACE``
    (seconds, default 0.5), ``PIQUET_POLL`` (seconds; empty: the database's default), ``PIQUET_ADJOURN``
    (seconds; empty: the default) and ``PIQUET_RATE_LIMITS`` (0: none; otherwise ``guard.DEFAULT_LIMITS``)."""
    from .app import DEFAULT_ADJOURN, create_app
    from .collector import Collector
    from .guard import DEFAULT_LIMITS, NO_RATE_LIMITS

    poll = os.environ.get("PIQUET_POLL", "")
    adjourn = os.environ.get("PIQUET_ADJOURN", "")
    limits = NO_RATE_LIMITS if os.environ.get("PIQUET_RATE_LIMITS") == "0" else DEFAULT_LIMITS
    return create_app(os.environ.get("PIQUET_DB") or None, pace=float(os.environ.get("PIQUET_PACE") or 0.5),
                      poll=float(poll) if poll else None, limits=limits,
                      adjourn=float(adjourn) if adjourn else DEFAULT_ADJOURN, collector=Collector())
