"""Two server processes on one PostgreSQL: how soon a seat on one process sees an action made through the other.

It starts a throwaway PostgreSQL server (``initdb`` in a temporary folder, on a Unix socket), and two
``piquet serve`` processes on it (``--pace 0``, each on its own port, as behind a proxy), opens ``--tables``
tables against a person (rubicon, seeded) through the first, and connects seat A of each to the first process
and seat B to the second.  Each seat, on its turn, waits ``--think LO,HI`` seconds (at random) and sends a
random legal action.  The latency timed is from sending an action (through one process) to the other seat's
receiving the state of that version (from the other process): the store, the notification
(``pg_notify`` in the saving transaction), the other process's listener, its reload of the table and its
message.  It prints the p50/p90/p99/max of that latency, the same for the seat who acted (its own process's
answer), and the errors received (there must be none).  The goal (issue 17.2): p99 at most 50 ms.

    python bench/processes.py [--tables N] [--seconds S] [--think LO,HI]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from throwaway_pg import ThrowawayPostgres, missing  # noqa: E402
from web import choose, free_port, http, quantile, wait_ready  # noqa: E402


@dataclass
class Timings:
    sent: dict[tuple[str, int], tuple[str, float]] = field(default_factory=dict)  # (table, version) -> seat, when
    across: list[float] = field(default_factory=list)  # the other seat, on the other process
    own: list[float] = field(default_factory=list)  # the seat who acted, on his own process
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0


class Seat:
    """One seat's socket: acts on its turn after thinking, and times the states it receives."""

    def __init__(self, table: str, seat: str, ws: ClientConnection, timings: Timings, rng: random.Random,
                 think: tuple[float, float]) -> None:
        self.table, self.seat, self.ws, self.timings, self.rng, self.think = table, seat, ws, timings, rng, think
        self.version = -1
        self.acting: asyncio.Task[None] | None = None

    def take(self, text: str | bytes, now: float) -> dict[str, Any] | None:
        msg = json.loads(text)
        if msg.get("type") == "error":
            self.timings.errors[msg.get("code", "?")] = self.timings.errors.get(msg.get("code", "?"), 0) + 1
            return None
        if msg.get("type") != "state" or msg["version"] <= self.version:
            return None
        self.version = msg["version"]
        sent = self.timings.sent.get((self.table, self.version - 1))
        if sent is not None:
            (self.timings.own if sent[0] == self.seat else self.timings.across).append(now - sent[1])
        view: dict[str, Any] = msg["view"]
        return view

    async def act(self, view: dict[str, Any], version: int) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        text = json.dumps({"type": "action", "version": version, "action": choose(view, self.rng)})
        self.timings.sent[(self.table, version)] = (self.seat, time.perf_counter())
        await self.ws.send(text)

    async def run(self, until: float) -> None:
        try:
            while time.perf_counter() < until:
                try:
                    text = await asyncio.wait_for(self.ws.recv(), max(0.01, until - time.perf_counter()))
                except TimeoutError:
                    return
                view = self.take(text, time.perf_counter())
                if view is None:
                    continue
                if view["status"] == "finished":
                    self.timings.finished += self.seat == "A"
                    return
                if view["my_turn"] and view["options"]:
                    self.acting = asyncio.create_task(self.act(view, self.version))
        except ConnectionClosed:
            self.timings.errors["closed"] = self.timings.errors.get("closed", 0) + 1


async def play(bases: tuple[str, str], tables: list[dict[str, Any]], seconds: float,
               think: tuple[float, float]) -> Timings:
    timings = Timings()
    seats = []
    for i, t in enumerate(tables):
        for j, (seat, link) in enumerate((("A", "url"), ("B", "invite"))):
            ws_base = "ws" + bases[j][len("http"):]
            token = t[link].split("token=", 1)[1]
            ws = await connect(f"{ws_base}/ws/{t['table']}?token={token}", open_timeout=60, ping_interval=None,
                               max_size=1 << 22)
            seats.append(Seat(t["table"], seat, ws, timings, random.Random(2 * i + j), think))
    print(f"{len(tables)} tables: seat A of each on process 1, seat B on process 2 ({2 * len(tables)} websockets)",
          flush=True)
    until = time.perf_counter() + seconds
    await asyncio.gather(*(s.run(until) for s in seats))
    for s in seats:
        if s.acting is not None:
            s.acting.cancel()
        await s.ws.close()
    return timings


def line(name: str, xs: list[float]) -> str:
    if not xs:
        return f"{name}: none timed"
    return (f"{name}, ms: p50 {1000 * quantile(xs, 0.5):.1f}   p90 {1000 * quantile(xs, 0.9):.1f}   "
            f"p99 {1000 * quantile(xs, 0.99):.1f}   max {1000 * max(xs):.1f}   ({len(xs):,} actions)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50, help="tables played at once (default 50)")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long to play (default 30)")
    ap.add_argument("--think", default="0.1,0.5", help="each seat acts LO-HI seconds after its turn comes "
                                                       "(default 0.1,0.5)")
    ap.add_argument("--pg", action="append", default=[], metavar="SETTING",
                    help="a setting of the throwaway PostgreSQL server, e.g. synchronous_commit=off (repeatable)")
    args = ap.parse_args()
    lo, hi = (float(x) for x in args.think.split(","))
    why = missing()
    if why is not None:
        raise SystemExit(f"bench/processes.py: {why}")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the finally below stops the servers
    with ThrowawayPostgres(*args.pg) as pg, tempfile.TemporaryDirectory(prefix="piquet-bench-") as tmp:
        procs: list[subprocess.Popen[bytes]] = []
        bases = []
        try:
            for i in (1, 2):
                port = free_port()
                log = Path(tmp) / f"server{i}.log"
                with open(log, "wb") as out:
                    procs.append(subprocess.Popen(
                        [sys.executable, "-m", "piquet", "serve", "--host", "127.0.0.1", "--port", str(port),
                         "--db", pg.url, "--pace", "0", "--no-rate-limits", "--log-level", "warning"], stdout=out,
                        stderr=subprocess.STDOUT))
                bases.append(f"http://127.0.0.1:{port}")
                wait_ready(procs[-1], bases[-1], log)
            tables = [http(bases[0], "POST", "/api/tables", {"opponent": "person", "rules": "rubicon", "name": "A",
                                                               "seed": i}) for i in range(args.tables)]
            timings = asyncio.run(play((bases[0], bases[1]), tables, args.seconds, (lo, hi)))
        finally:
            for proc in procs:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        for i in (1, 2):
            logged = [x for x in (Path(tmp) / f"server{i}.log").read_text(errors="replace").splitlines()
                      if x.strip() and not x.startswith("piquet: playing at")]
            if logged:
                print(f"process {i}'s log:\n" + "\n".join(logged[-20:]))
    print(f"think {lo:g}-{hi:g} s, {args.seconds:g} s of play, {timings.finished} parties finished"
          + (f"; PostgreSQL with {', '.join(args.pg)}" if args.pg else ""))
    print(line("seen on the other process", timings.across))
    print(line("answered on its own      ", timings.own))
    errors = sum(timings.errors.values())
    detail = "" if not errors else "  " + ", ".join(f"{k} {n}" for k, n in sorted(timings.errors.items()))
    print(f"errors received: {errors}{detail}")


if __name__ == "__main__":
    main()
