"""The benchmarks still run: the web server's (issue 17), each shortened against a real ``piquet serve``, and Ray's
(issue 19).

Their figures are not tested here (speed lives in bench/, and this machine is shared); what is tested is that
they play, measure and report, with no error received: the rate limits that came with issue 17.5 once
refused every table of ``bench/processes.py`` past the twentieth (all its clients are one address), unnoticed
until it was run: so each makes more tables than one address may make at once.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from throwaway_pg import require

BENCH = Path(__file__).resolve().parent.parent / "bench"
LATENCY = re.compile(r"p50 [\d.]+ +p90 [\d.]+ +p99 [\d.]+ +max [\d.]+")


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_realistic_web_benchmark_plays_and_reports() -> None:
    out = run("web.py", "--tables", "25", "--think", "0.05,0.1", "--seconds", "4")
    assert re.search(r"latency, ms: +" + LATENCY.pattern, out), out
    assert re.search(r"errors received: +0$", out, re.M), out
    applied = re.search(r"actions applied: +([\d,]+)", out)
    assert applied and int(applied.group(1).replace(",", "")) > 0, out
    assert "server memory (RSS):" in out and "clients gone" in out, out


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.xdist_group("postgres")
def test_the_two_process_benchmark_plays_and_reports() -> None:
    require()
    out = run("processes.py", "--tables", "25", "--think", "0.05,0.1", "--seconds", "4")
    assert re.search(r"seen on the other process, ms: +" + LATENCY.pattern + r" +\((\d[\d,]*) actions\)", out), out
    assert re.search(r"errors received: 0$", out, re.M), out


@pytest.mark.slow
def test_the_ray_benchmark_runs_one_worker_then_two_and_reports_the_speed_up() -> None:
    """bench/ray_workers.py (issue 19.4), shortened: the three runs agree, and each time and the ratio are printed."""
    pytest.importorskip("ray")
    out = run("ray_workers.py", "--deals", "60", "--levels", "simple,random", "--seed", "3")
    for name in ("serial \\(no Ray\\)", "Ray, 1 worker", "Ray, 2 workers"):
        assert re.search(rf"^{name} +wall +[\d.]+ s +CPU +[\d.]+ s +\(10 parties; cores busy [\d.]+\)$", out, re.M), out
    assert re.search(r"^speed-up, 1 worker to 2: \d+\.\d\dx wall", out, re.M), out
    assert re.search(r"^results identical \(serial, 1 worker, 2 workers\): yes$", out, re.M), out
