"""What guards the server against hostile clients (issue 17, item 5): one place for the headers every page carries,
the Origin a POST or a websocket must come from, the size of a request's body, the rates a client address may
create tables and send messages at, and the seats' tokens kept out of every log line.

* **Headers.** Every HTTP answer carries a Content-Security-Policy (scripts, styles and sockets from this server
  only, no inline script, ``frame-ancestors 'none'``), ``Referrer-Policy: no-referrer``,
  ``X-Content-Type-Options: nosniff`` and ``X-Frame-Options: DENY``.
* **Origin.** A request that changes something (any method but GET, HEAD and OPTIONS) and a websocket upgrade are
  refused (403) when they carry an ``Origin`` that is not this server's own host (the ``Host`` header, its default
  port aside).  A request with no ``Origin`` (curl, a script, the test client) is let through: browsers always send
  one on a cross-site POST or websocket.
* **Bodies.** A body over ``Limits.max_body`` is refused with 413: by its ``Content-Length`` before a byte of it
  is read, or, sent in chunks, as soon as it passes the limit.
* **Rates.** A token bucket per client address (``Buckets``): creating tables and chouettes, and the messages of
  a websocket.  The buckets live in the process: with several server processes each counts on its own.
* **Logs.** ``RedactTokens`` rewrites ``token=...`` in a log record's message and arguments, so that an old link
  (``/t/ID?token=T``), or a script's websocket (``/ws/ID?token=T``), never writes its token in uvicorn's log.

A seat's token travels in the link's fragment (``/t/ID#token=T``, never sent to a server), in the websocket's first
message (``{"type": "hello", "token": T}``) and in an ``Authorization: Bearer T`` header (``token_of``).
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlsplit

from .pages import MAX_BODY

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: What a page may load: its own scripts, styles and sockets; images of its own or ``data:`` (the empty icon).
CSP: Final = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
              "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS: Final = ((b"content-security-policy", CSP.encode()), (b"referrer-policy", b"no-referrer"),
                  (b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"))
#: The methods that change nothing, whose Origin is not checked.
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
#: How many client addresses' buckets are kept; past it, the full ones (idle long enough) are dropped.
MAX_ADDRESSES: Final = 10_000


@dataclass(frozen=True)
class Limits:
    """How much one client address may ask of one server process.

    ``tables``: tables and chouettes it may create at once, then ``tables_per_minute``; ``messages``: websocket
    messages at once, then ``messages_per_second`` (all its sockets together); ``seat_connections``: open sockets
    on one seat (of any address); ``max_body``: the largest request body, in bytes.
    """

    tables: int = 20
    tables_per_minute: float = 20.0
    messages: int = 120
    messages_per_second: float = 30.0
    seat_connections: int = 4
    max_body: int = MAX_BODY


#: The limits of ``piquet serve`` unless told otherwise (``--no-rate-limits``).
DEFAULT_LIMITS: Final = Limits()
#: No limit on the rates (an app made in a test, a benchmark from one address): the sockets of a seat and the size
#: of a body are still limited.  ``create_app``'s default: the rates are the deployment's, which ``piquet serve`` sets.
NO_RATE_LIMITS: Final = Limits(tables=10**9, tables_per_minute=1e12, messages=10**9, messages_per_second=1e12)


@dataclass
class Buckets:
    """A token bucket per client address: ``size`` at once, refilled at ``rate`` a second."""

    size: float
    rate: float
    clock: Callable[[], float] = time.monotonic
    _held: dict[str, tuple[float, float]] = field(default_factory=dict)  # address -> (tokens, when)

    def take(self, address: str) -> float:
        """Take one token for ``address``: 0.0 if it was there, else the seconds until one will be."""
        now = self.clock()
        tokens, when = self._held.get(address, (self.size, now))
        tokens = min(self.size, tokens + (now - when) * self.rate)
        if tokens < 1.0:
            self._held[address] = (tokens, now)
            return (1.0 - tokens) / self.rate if self.rate > 0 else float("inf")
        if address not in self._held and len(self._held) >= MAX_ADDRESSES:
            self._prune(now)
        self._held[address] = (tokens - 1.0, now)
        return 0.0

    def _prune(self, now: float) -> None:
        """Forget the addresses whose buckets have filled again (they would start full anyway); if none has, the
        oldest half."""
        full = [a for a, (t, w) in self._held.items() if t + (now - w) * self.rate >= self.size]
        for a in full or sorted(self._held, key=lambda a: self._held[a][1])[:len(self._held) // 2]:
            del self._held[a]


def client_address(scope: Scope) -> str:
    """The client's address as the server sees it (behind a proxy, uvicorn's ``--forwarded-allow-ips`` makes it the
    player's own, from ``X-Forwarded-For``)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _host_port(netloc: str, scheme: str) -> str:
    """``host:port`` lower-cased, the scheme's default port dropped."""
    host = netloc.strip().lower()
    for default in ((":80",) if scheme in ("http", "ws") else (":443",) if scheme in ("https", "wss") else ()):
        if host.endswith(default):
            host = host[: -len(default)]
    return host


def same_origin(scope: Scope) -> bool:
    """Whether the request's ``Origin``, if it has one, is this server's own host (``Host``)."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    host = _header(scope, b"host")
    if not parts.netloc or host is None:
        return False
    return _host_port(parts.netloc, parts.scheme) == _host_port(host, parts.scheme)


def token_of(headers: MutableMapping[str, str] | Any) -> str:
    """The seat's token an HTTP request carries: ``Authorization: Bearer T``; "" when there is none."""
    value = str(headers.get("authorization", ""))
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _json_answer(status: int, message: str) -> tuple[Message, Message]:
    body = json.dumps({"error": message}).encode()
    start = {"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                         *HEADERS]}
    return start, {"type": "http.response.body", "body": body}


class Guard:
    """ASGI middleware: the headers, the Origin check and the body limit of every request (see the module)."""

    def __init__(self, app: ASGIApp, limits: Limits = DEFAULT_LIMITS) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not same_origin(scope):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008, "reason": "cross-site websocket refused"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS and not same_origin(scope):
            await self._answer(send, 403, "this request comes from another site (its Origin is not this server's): "
                                          "refused")
            return
        limit = self.limits.max_body
        length = _header(scope, b"content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > limit):
            await self._answer(send, 413, f"the request's body is larger than {limit // 1024} KiB: refused")
            return
        if length is None and scope["method"] not in SAFE_METHODS:
            body = await self._read_upto(receive, limit)
            if body is None:
                await self._answer(send, 413, f"the request's body is larger than {limit // 1024} KiB: refused")
                return
            receive = _replay(body, receive)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @staticmethod
    async def _read_upto(receive: Receive, limit: int) -> bytes | None:
        """A chunked body, whole, or None as soon as it passes ``limit``."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    @staticmethod
    async def _answer(send: Send, status: int, message: str) -> None:
        start, body = _json_answer(status, message)
        await send(start)
        await send(body)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then waits on the real one (for a disconnect)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


_TOKEN = re.compile(r"((?:\b|%3F|%26)token(?:=|%3D))[^&\s\"'#]+", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every ``token=...`` value replaced (``/t/x?token=abc`` -> ``/t/x?token=[redacted]``)."""
    return _TOKEN.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """Keeps seats' tokens out of a log: rewrites ``token=...`` in the message and in its string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token" in record.msg.lower():
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


#: The loggers uvicorn writes requests to: the access log, and websockets' ``"WebSocket /ws/..." [accepted]``.
UVICORN_LOGGERS: Final = ("uvicorn.access", "uvicorn.error", "uvicorn")


def redact_logs() -> None:
    """Put ``RedactTokens`` on uvicorn's loggers and their handlers (once)."""
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, RedactTokens) for f in target.filters):
                target.addFilter(RedactTokens())


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with ``RedactTokens`` on its handlers, for ``uvicorn.run(log_config=...)``."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": RedactTokens}
    for handler in config.get("handlers", {}).values():
        handler.setdefault("filters", []).append("redact_tokens")
    return config


__all__ = ["CSP", "DEFAULT_LIMITS", "HEADERS", "NO_RATE_LIMITS", "Buckets", "Guard", "Limits", "RedactTokens",
           "client_address", "log_config", "redact", "redact_logs", "same_origin", "token_of"]
