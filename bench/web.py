"""The web table under load: many games at once over websockets against one server process.

It starts one ``piquet serve`` (a subprocess, on loopback, a temporary SQLite file, ``--pace
0``), opens ``--games`` tables against a person (``POST /api/tables``, rubicon, seeded) and
connects both seats of each over the websocket, all from this one process with asyncio and
the ``websockets`` client, each socket taking its states as patches, as the page does (``--whole``: every
state whole, as a client that does not ask for patches).  When every seat is connected the clock
starts: each seat, on its turn, sends a random legal action from its view's ``options`` (a discard: that many random
cards of its hand) and times it, from sending it to receiving a state of a higher version.
It stops after ``--seconds`` or when every partie is over, and prints the games, the actions
applied, the throughput, the p50/p90/p99/max latency of an action and the errors received
(there must be none).

The baseline, measured in the same run once the server is stopped, is the same work for each
action in-process, with no network, no JSON and no database: ``Table.apply`` and the view of
both seats (``piquet.web.table``, ``piquet.web.protocol``), the same random choices from the
same options, round the same number of tables.  The ratio tells what serving costs.

    python bench/web.py [--games N] [--seconds S] [--port P]

The realistic mode, ``--tables N --think LO,HI``, is an evening at a club or a public site's peak:
``N`` tables between two persons (``2N`` websockets), each seat acting ``LO`` to ``HI`` seconds
(uniformly at random) after its turn comes, for ``--seconds``; a table whose partie ends is left
and a new one opened in its place.  It prints the latency of an action (sent to the state of a
higher version received), the errors received, and the server's memory (its resident set, from
``/proc``) before any table, once every seat is connected, at the end, and after every client
has gone, and the server's event-loop lag over the last minute (``GET /api/health``); no in-process
baseline.  ``--server COMMAND`` serves with another ``piquet`` (another commit's, to compare in one sitting),
``--server-args`` passes it more options.

    python bench/web.py --tables 1000 --think 1,3 [--seconds S] [--rounds R] [--profile FILE] [--port P]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from piquet.core.rules import rules_named
from piquet.web.app import TWO_SEATS
from piquet.web.collector import Collector
from piquet.web.protocol import apply_patch, decode_message, state_message, state_text
from piquet.web.store import SeatRow, Store, TableRow, database_url
from piquet.web.table import Seat, Table

RULES = "rubicon"


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal ACTION from the view's options (the client's whole decision)."""
    option = rng.choice(view["options"])
    kind = option["kind"]
    if kind == "discard":
        return {"kind": "discard", "cards": rng.sample(view["hand"], rng.randint(option["min"], option["max"]))}
    if kind == "look":
        return {"kind": "look", "look": rng.random() < 0.5}
    if kind == "play":
        return {"kind": "play", "card": rng.choice(option["cards"])}
    return dict(option)  # a declaration: the option is the action itself


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


# ---------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def piquet_command() -> str:
    """The ``piquet`` script beside this Python (the venv's), else the one on the PATH."""
    here = Path(sys.executable).parent / "piquet"
    found = str(here) if here.exists() else shutil.which("piquet")
    if found is None:
        raise SystemExit("bench/web.py: no piquet command (pip install -e . in this Python's environment)")
    return found


def http(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def wait_ready(proc: subprocess.Popen[bytes], base: str, log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"bench/web.py: the server stopped (exit {proc.returncode}):\n{log.read_text()}")
        try:
            http(base, "GET", "/api/tables")
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    raise SystemExit(f"bench/web.py: the server did not answer within {timeout:.0f} s:\n{log.read_text()}")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process, from /proc (None where there is no /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


# ---------------------------------------------------------------- the clients


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    first: dict[str, int] = field(default_factory=dict)  # table -> the version when the clock started
    last: dict[str, int] = field(default_factory=dict)  # table -> the highest version seen
    finished: set[str] = field(default_factory=set)
    closed: int = 0  # sockets closed by the server before the end


class Client:
    """One seat: it acts on its turn, one action at a time, and times each action."""

    def __init__(self, table: str, ws: ClientConnection, stats: Stats, rng: random.Random) -> None:
        self.table, self.ws, self.stats, self.rng = table, ws, stats, rng
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.pending: tuple[int, float] | None = None  # (the version answered, when it was sent)

    def take(self, text: str | bytes, now: float) -> None:
        msg = json.loads(text)
        kind = msg.get("type")
        if kind == "error":
            self.stats.errors[msg.get("code", "?")] = self.stats.errors.get(msg.get("code", "?"), 0) + 1
            self.pending = self.view = None  # refused: nothing was applied; act again on the next state
            return
        if kind == "patch":  # what changed since the state before it, as the page applies it (app.js)
            if self.view is None or msg["since"] != self.version:
                raise RuntimeError(f"a patch on version {msg['since']} came to a seat holding {self.version}")
            msg = {"version": msg["version"], "view": apply_patch(self.view, msg)}
        elif kind != "state":
            return  # "thinking", "pong": not in a game between persons
        v = msg["version"]
        if self.pending is not None and v > self.pending[0]:
            self.stats.latencies.append(now - self.pending[1])
            self.pending = None
        if v >= self.version:
            self.version, self.view = v, msg["view"]
            if v > self.stats.last.get(self.table, -1):
                self.stats.last[self.table] = v

    async def act(self) -> None:
        view = self.view
        if self.pending is not None or view is None or not view["my_turn"] or not view["options"]:
            return
        text = json.dumps({"type": "action", "version": self.version, "action": choose(view, self.rng)})
        self.pending = (self.version, time.perf_counter())
        await self.ws.send(text)

    def over(self) -> bool:
        return self.view is not None and self.view["status"] == "finished"

    async def run(self, go: asyncio.Event) -> None:
        await go.wait()
        try:
            while not self.over():
                await self.act()
                text = await self.ws.recv()
                self.take(text, time.perf_counter())
        except ConnectionClosed:
            self.stats.closed += 1
            return
        self.stats.finished.add(self.table)


#: Whether the clients take their states as patches, as the page does (``--whole``: every state whole).
PATCHES = True


def hello(token: str) -> str:
    """A socket's first message, as the page sends it: the seat's token, and states as patches."""
    return json.dumps({"type": "hello", "token": token, "patches": PATCHES})


async def open_seat(ws_base: str, table: str, url: str, stats: Stats, rng: random.Random,
                    gate: asyncio.Semaphore) -> Client:
    token = url.split("token=", 1)[1]
    async with gate:
        ws = await connect(f"{ws_base}/ws/{table}", open_timeout=120, ping_interval=None, max_size=1 << 22)
        await ws.send(hello(token))
        client = Client(table, ws, stats, rng)
        client.take(await ws.recv(), time.perf_counter())  # the state on connecting
    return client


async def drive(base: str, games: list[dict[str, Any]], seconds: float, server_pid: int) -> float:
    stats = Stats()
    ws_base = "ws" + base[len("http"):]
    gate = asyncio.Semaphore(50)  # connections being opened at once
    opening = []
    for i, g in enumerate(games):
        for j, url in enumerate((g["url"], g["invite"])):
            opening.append(open_seat(ws_base, g["table"], url, stats, random.Random(2 * i + j), gate))
    start_open = time.perf_counter()
    clients = await asyncio.gather(*opening)
    opened = time.perf_counter() - start_open
    stats.first = {t: v for t, v in stats.last.items()}
    print(f"{len(games)} tables against a person ({RULES}), {len(clients)} websockets opened in {opened:.1f} s",
          flush=True)

    go = asyncio.Event()
    tasks = [asyncio.create_task(c.run(go)) for c in clients]
    cpu_server, cpu_self = cpu_seconds(server_pid), time.process_time()
    start = time.perf_counter()
    go.set()
    _, not_done = await asyncio.wait(tasks, timeout=seconds)
    elapsed = time.perf_counter() - start
    cpu_server_end, cpu_self_end = cpu_seconds(server_pid), time.process_time()
    for t in not_done:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(c.ws.close() for c in clients), return_exceptions=True)

    print(f"games:                 {len(games):9,}  ({len(stats.finished)} finished)")
    return report(stats, elapsed, (cpu_server, cpu_server_end), cpu_self_end - cpu_self)


def report(stats: Stats, elapsed: float, cpu_server: tuple[float | None, float | None], cpu_self: float) -> float:
    """Print the time, the actions, the latency, the errors and the CPU of a run; the actions a second."""
    applied = sum(v - stats.first.get(t, 0) for t, v in stats.last.items())
    lat = stats.latencies
    print(f"time:                  {elapsed:9.1f} s")
    print(f"actions applied:       {applied:9,}  ({len(lat):,} timed)")
    print(f"throughput:            {applied / elapsed:9,.0f} actions/s")
    if lat:
        print(f"latency, ms:            p50 {1000 * quantile(lat, 0.5):.1f}   p90 {1000 * quantile(lat, 0.9):.1f}"
              f"   p99 {1000 * quantile(lat, 0.99):.1f}   max {1000 * max(lat):.1f}")
    errors = sum(stats.errors.values())
    detail = "" if not errors else "  " + ", ".join(f"{k} {n}" for k, n in sorted(stats.errors.items()))
    print(f"errors received:       {errors:9,}{detail}")
    if stats.closed:
        print(f"sockets closed by the server: {stats.closed}")
    start, end = cpu_server
    if start is not None and end is not None:
        print(f"CPU busy:              server {100 * (end - start) / elapsed:.0f}%,"
              f" clients {100 * cpu_self / elapsed:.0f}% of one core ({os.cpu_count()} cores)")
    return applied / elapsed


# ---------------------------------------------------------------- the realistic mode


def rss_mb(pid: int) -> float | None:
    """A process's resident set in MB, from /proc (None where there is none)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _mb(value: float | None) -> str:
    return "?" if value is None else f"{value:.0f} MB"


class Person(Client):
    """One seat played by a person: on its turn it thinks ``think`` seconds (uniformly), then acts."""

    def __init__(self, table: str, ws: ClientConnection, stats: Stats, rng: random.Random,
                 think: tuple[float, float]) -> None:
        super().__init__(table, ws, stats, rng)
        self.think = think
        self.timer: asyncio.TimerHandle | None = None
        self.sending: set[asyncio.Task[None]] = set()
        self.playing = False  # set when the clock starts: no action before

    def take(self, text: str | bytes, now: float) -> None:
        super().take(text, now)
        self.plan()

    def plan(self) -> None:
        """On its turn, with nothing in flight or planned, act after thinking."""
        view = self.view
        if not self.playing or self.pending is not None or self.timer is not None or view is None:
            return
        if view["my_turn"] and view["options"]:
            self.timer = asyncio.get_running_loop().call_later(self.rng.uniform(*self.think), self.fire)

    def fire(self) -> None:
        self.timer = None
        view = self.view
        if view is None or self.pending is not None or not view["my_turn"] or not view["options"]:
            return
        text = json.dumps({"type": "action", "version": self.version, "action": choose(view, self.rng)})
        self.pending = (self.version, time.perf_counter())
        task = asyncio.create_task(self.ws.send(text))
        self.sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self.sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.pending = None  # the socket closed under it: counted by run()

    def start(self) -> None:
        self.playing = True
        self.plan()

    async def read(self) -> None:
        """Read until the partie is over or the socket closes."""
        try:
            while not self.over():
                self.take(await self.ws.recv(), time.perf_counter())
        except ConnectionClosed:
            if self.playing:
                self.stats.closed += 1

    async def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.playing = False
        with contextlib.suppress(Exception):
            await self.ws.close()


class Evening:
    """``tables`` tables between persons, each kept full: a finished partie is left and another opened."""

    def __init__(self, base: str, tables: int, think: tuple[float, float], stats: Stats, seed: int = 0) -> None:
        self.base, self.ws_base = base, "ws" + base[len("http"):]
        self.tables, self.think, self.stats = tables, think, stats
        self.seed = seed
        self.gate = asyncio.Semaphore(50)  # tables being opened at once
        self.go = asyncio.Event()
        self.stop = asyncio.Event()
        self.seats: list[Person] = []
        self.opened = 0

    async def open_table(self) -> list[Person]:
        seed, self.seed = self.seed, self.seed + 1
        async with self.gate:
            g = await asyncio.to_thread(http, self.base, "POST", "/api/tables",
                                        {"opponent": "person", "rules": RULES, "name": "A", "seed": seed})
            people = []
            for j, url in enumerate((g["url"], g["invite"])):
                token = url.split("token=", 1)[1]
                ws = await connect(f"{self.ws_base}/ws/{g['table']}", open_timeout=120, ping_interval=None,
                                   max_size=1 << 22)
                await ws.send(hello(token))
                person = Person(g["table"], ws, self.stats, random.Random(2 * seed + j), self.think)
                person.take(await ws.recv(), time.perf_counter())
                people.append(person)
        self.opened += 1
        return people

    async def keep(self) -> None:
        """One table, kept full until the end: each partie played out, then another."""
        while not self.stop.is_set():
            people = await self.open_table()
            self.seats.extend(people)
            await self.go.wait()
            for p in people:
                p.start()
            runs = [asyncio.create_task(p.read()) for p in people]
            stopping = asyncio.create_task(self.stop.wait())
            await asyncio.wait([*runs, stopping], return_when=asyncio.FIRST_COMPLETED)
            if any(p.over() for p in people):
                self.stats.finished.add(people[0].table)
            stopping.cancel()
            for t in runs:
                t.cancel()
            await asyncio.gather(*runs, stopping, return_exceptions=True)
            for p in people:
                await p.close()
                self.seats.remove(p)


async def evening(base: str, tables: int, think: tuple[float, float], seconds: float, server_pid: int,
                  profile: str | None = None, seed: int = 0) -> None:
    """The realistic mode: see the module's docstring.  ``profile``: a file for py-spy's profile of the server
    while the clock runs (``py-spy`` beside this Python or on the PATH)."""
    stats = Stats()
    rss_start = rss_mb(server_pid)
    ev = Evening(base, tables, think, stats, seed)
    start_open = time.perf_counter()
    keepers = [asyncio.create_task(ev.keep()) for _ in range(tables)]
    while ev.opened < tables:
        await asyncio.sleep(0.2)
    opened = time.perf_counter() - start_open
    rss_open = rss_mb(server_pid)
    print(f"{tables} tables between persons ({RULES}), {2 * tables} websockets opened in {opened:.1f} s;"
          f" each seat acts {think[0]:g}-{think[1]:g} s after its turn comes", flush=True)
    stats.first = dict(stats.last)
    cpu_server, cpu_self = cpu_seconds(server_pid), time.process_time()
    spy = None
    if profile:
        found = Path(sys.executable).parent / "py-spy"
        exe = str(found) if found.exists() else shutil.which("py-spy")
        if exe is None:
            raise SystemExit("bench/web.py: --profile needs py-spy (pip install py-spy)")
        spy = subprocess.Popen([exe, "record", "-p", str(server_pid), "-o", profile, "-d", str(int(seconds)),
                                "-f", "raw", "-r", "50", "--nonblocking", "--gil"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pauses: list[float] = []
    began: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:  # the bench's own collector passes, while the clock runs
        if phase == "start":
            began[:] = [time.perf_counter()]
        elif began:
            pauses.append(time.perf_counter() - began[0])

    gc.callbacks.append(timed)
    # The clients hold 2000 views: Python's own passes over them stopped this process's loop for up to 0.4 s at
    # 1000 tables, which the latencies then counted.  They are made by the clock here, as the server's are.
    collector = Collector()
    collector.start()
    start = time.perf_counter()
    ev.go.set()
    samples = []
    while (elapsed := time.perf_counter() - start) < seconds:
        await asyncio.sleep(min(10.0, seconds - elapsed))
        samples.append((time.perf_counter() - start, rss_mb(server_pid)))
    elapsed = time.perf_counter() - start
    await collector.stop()
    gc.callbacks.remove(timed)
    cpu_server_end, cpu_self_end = cpu_seconds(server_pid), time.process_time()
    rss_end = rss_mb(server_pid)
    health = await asyncio.to_thread(http, base, "GET", "/api/health")
    lag, passes = health.get("loop_lag_ms", {}), health.get("collector")
    if spy is not None:
        spy.wait()
    ev.stop.set()
    await asyncio.gather(*keepers, return_exceptions=True)
    await asyncio.sleep(5.0)  # the server drops the tables its clients have left
    rss_gone = rss_mb(server_pid)

    print(f"tables:                {tables:9,}  ({len(stats.finished)} parties finished, {ev.opened} tables opened)")
    report(stats, elapsed, (cpu_server, cpu_server_end), cpu_self_end - cpu_self)
    print(f"server's loop lag, ms:  p50 {lag.get('p50', '?')}   p99 {lag.get('p99', '?')}   max {lag.get('max', '?')}"
          f"  (the last minute, GET /api/health)")
    if passes:
        print("collector's passes:    " + ", ".join(f"{k} {v['last_minute']} (longest {v['max_ms']} ms)"
                                                 for k, v in passes.items()) + "  (the last minute)")
    print(f"the clients' own:      {len(pauses)} collector passes, {1000 * sum(pauses):.0f} ms in all, the longest"
          f" {1000 * max(pauses, default=0):.1f} ms (a pause here delays the clients' reading)")
    print(f"server memory (RSS):   start {_mb(rss_start)}, all connected {_mb(rss_open)}, end {_mb(rss_end)},"
          f" clients gone {_mb(rss_gone)}")
    print("  every 10 s:          " + ", ".join(f"{t:.0f} s {_mb(m)}" for t, m in samples))


# ---------------------------------------------------------------- the baseline


def baseline(games: int, seconds: float, store: Store | None = None) -> float:
    """Actions a second in-process: choose from the options, apply, and the view of both seats.

    With a ``store``, also what the server does besides: the two state messages as JSON, and the action
    stored in the database, in the log or with the whole record when a snapshot is due (``Hub.commit``,
    ``Hub.broadcast``), one transaction an action.
    """
    rules = rules_named(RULES)
    rng = random.Random(0)
    next_seed = games

    def new(seed: int) -> tuple[Table, dict[str, dict[str, Any]]]:
        seats = {"A": Seat("human", "A", None, None, True), "B": Seat("human", "Guest", None, None, True)}
        t = Table.new(f"t{seed}", seats, seed, rules, "person")
        if store is not None:
            store.insert(TableRow(id=t.id, created=0.0, updated=0.0, rules=rules.name, opponent="person",
                                  seed=seed, status=t.status, version=0, scores=t.scores,
                                  seats={s: SeatRow(x.kind, x.name, x.level, x.token_hash, x.joined)
                                         for s, x in t.seats.items()},
                                  record=t.record_json()))
        return t, {s: t.view(s) for s in ("A", "B")}

    tables = [new(i) for i in range(games)]
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for k, (t, views) in enumerate(tables):
            seat = t.to_move()
            if seat is None:
                tables[k] = new(next_seed)
                next_seed += 1
                continue
            msg = decode_message({"type": "action", "version": t.version, "action": choose(views[seat], rng)})
            assert msg.action is not None
            t.apply(seat, msg.action, msg.version)
            views["A"], views["B"] = t.view("A"), t.view("B")
            if store is not None:
                write = TWO_SEATS.write(t, t.version - 1)
                assert write is not None
                store.save_all([write])
                for s in ("A", "B"):
                    state_text(state_message(t.version, s, views[s]))
            n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


# ---------------------------------------------------------------- main


def _think(ap: argparse.ArgumentParser, text: str) -> tuple[float, float]:
    """``--think LO,HI`` as two numbers of seconds, 0 <= LO <= HI."""
    try:
        lo, hi = (float(x) for x in text.split(","))
    except ValueError:
        ap.error(f"--think is LO,HI in seconds (e.g. 1,3), not {text!r}")
    if not 0 <= lo <= hi:
        ap.error(f"--think is LO,HI with 0 <= LO <= HI, not {text!r}")
    return lo, hi


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games played at once (default 200)")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long to play (default 30)")
    ap.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    ap.add_argument("--tables", type=int, default=0,
                    help="the realistic mode: so many tables between persons, kept full (2 websockets each)")
    ap.add_argument("--think", default="1,3", metavar="LO,HI",
                    help="the realistic mode: each seat acts LO to HI seconds after its turn comes (default 1,3)")
    ap.add_argument("--server-args", default="", metavar="ARGS",
                    help="more options for piquet serve, in one string (e.g. '--poll 0')")
    ap.add_argument("--server", metavar="COMMAND",
                    help="the piquet command to serve with (default: the venv's), e.g. another commit's, to compare")
    ap.add_argument("--whole", action="store_true",
                    help="clients take every state whole, not as patches on the one before (as before the page did)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="the realistic mode: play it so many times on the same server (memory flat after the first)")
    ap.add_argument("--profile", metavar="FILE", help="the realistic mode: py-spy's profile of the server, "
                                                       "folded stacks, written to FILE")
    args = ap.parse_args()
    global PATCHES
    PATCHES = not args.whole
    think = _think(ap, args.think)
    if args.tables < 0 or args.games < 1 or args.seconds <= 0 or args.rounds < 1:
        ap.error("--tables is 0 or more, --games and --rounds 1 or more, --seconds more than 0")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the finally below stops the server
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    served = 0.0
    with tempfile.TemporaryDirectory(prefix="piquet-bench-") as tmp:
        log = Path(tmp) / "server.log"
        server = args.server.split() if args.server else [piquet_command()]
        cmd = [*server, "serve", "--host", "127.0.0.1", "--port", str(port),
               "--db", str(Path(tmp) / "bench.db"), "--pace", "0", "--log-level", "warning",
               "--no-rate-limits",  # every client here is one address: the rates per address would throttle it
               *args.server_args.split()]
        with open(log, "wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_ready(proc, base, log)
            for r in range(args.rounds if args.tables else 0):
                if r:
                    print(f"round {r + 1}: the same again on the same server, new tables", flush=True)
                asyncio.run(evening(base, args.tables, think, args.seconds, proc.pid,
                                    args.profile if r == 0 else None, seed=r * 1_000_000))
            if not args.tables:
                games = [http(base, "POST", "/api/tables", {"opponent": "person", "rules": RULES, "name": "A",
                                                             "seed": i})
                         for i in range(args.games)]
                served = asyncio.run(drive(base, games, args.seconds, proc.pid))
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        logged = [line for line in log.read_text(errors="replace").splitlines()
                  if line.strip() and not line.startswith("piquet: playing at")]
        if logged:
            print("the server's log:\n" + "\n".join(logged[-40:]))
    if args.tables:
        return
    span = min(args.seconds, 5.0)
    inproc = baseline(args.games, span)
    print(f"in-process (baseline):  {inproc:9,.0f} actions/s  (apply + view of both seats, no network)")
    print(f"served / baseline:      {served / inproc:9.3f}")
    with tempfile.TemporaryDirectory(prefix="piquet-bench-") as tmp:
        store = Store(database_url(str(Path(tmp) / "baseline.db")))
        try:
            stored = baseline(args.games, span, store)
        finally:
            store.close()
    print(f"+ JSON, action stored:  {stored:9,.0f} actions/s  (all the server's work but the sockets)")
    print(f"served / that:          {served / stored:9.3f}")


if __name__ == "__main__":
    main()
