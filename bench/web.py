"""The web table under load: many games at once over websockets against one server process.

It starts one ``piquet serve`` (a subprocess, on loopback, a temporary SQLite file, ``--pace
0``), opens ``--games`` tables against a person (``POST /api/tables``, rubicon, seeded) and
connects both seats of each over the websocket, all from this one process with asyncio and
the ``websockets`` client.  When every seat is connected the clock starts: each seat, on its
turn, sends a random legal action from its view's ``options`` (a discard: that many random
cards of its hand) and times it, from sending it to receiving a state of a higher version.
It stops after ``--seconds`` or when every partie is over, and prints the games, the actions
applied, the throughput, the p50/p90/p99/max latency of an action and the errors received
(there must be none).

The baseline, measured in the same run once the server is stopped, is the same work for each
action in-process, with no network, no JSON and no database: ``Table.apply`` and the view of
both seats (``piquet.web.table``, ``piquet.web.protocol``), the same random choices from the
same options, round the same number of tables.  The ratio tells what serving costs.

    python bench/web.py [--games N] [--seconds S] [--port P]
"""

from __future__ import annotations

import argparse
import asyncio
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
from piquet.web.protocol import decode_message, state_message
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
        if kind != "state":
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


async def open_seat(ws_base: str, table: str, url: str, stats: Stats, rng: random.Random,
                    gate: asyncio.Semaphore) -> Client:
    token = url.split("token=", 1)[1]
    async with gate:
        ws = await connect(f"{ws_base}/ws/{table}?token={token}", open_timeout=120, ping_interval=None,
                           max_size=1 << 22)
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

    applied = sum(v - stats.first.get(t, 0) for t, v in stats.last.items())
    lat = stats.latencies
    print(f"games:                 {len(games):9,}  ({len(stats.finished)} finished)")
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
    if cpu_server is not None and cpu_server_end is not None:
        print(f"CPU busy:              server {100 * (cpu_server_end - cpu_server) / elapsed:.0f}%,"
              f" clients {100 * (cpu_self_end - cpu_self) / elapsed:.0f}% of one core"
              f" ({os.cpu_count()} cores)")
    return applied / elapsed


# ---------------------------------------------------------------- the baseline


def baseline(games: int, seconds: float, store: Store | None = None) -> float:
    """Actions a second in-process: choose from the options, apply, and the view of both seats.

    With a ``store``, also what the server does besides: the two state messages as JSON, the
    record as JSON and its ``UPDATE`` in the database (``Hub.commit``, ``Hub.broadcast``).
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
                store.save(t.id, t.version - 1, t.version, t.record_json(), t.status, t.scores)
                for s in ("A", "B"):
                    json.dumps(state_message(t.version, s, views[s]))
            n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


# ---------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games played at once (default 200)")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long to play (default 30)")
    ap.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the finally below stops the server
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="piquet-bench-") as tmp:
        log = Path(tmp) / "server.log"
        cmd = [piquet_command(), "serve", "--host", "127.0.0.1", "--port", str(port),
               "--db", str(Path(tmp) / "bench.db"), "--pace", "0", "--log-level", "warning",
               "--no-rate-limits"]  # every client here is one address: the rates per address would throttle it
        with open(log, "wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_ready(proc, base, log)
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
    print(f"+ JSON, record stored:  {stored:9,.0f} actions/s  (all the server's work but the sockets)")
    print(f"served / that:          {served / stored:9.3f}")


if __name__ == "__main__":
    main()
