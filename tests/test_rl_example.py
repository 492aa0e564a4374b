"""The training example (examples/train_cma.py, issue 19.5) runs, shortened: it trains, evaluates and reports.

A few generations on few deals need not beat the random level; what is checked is the whole path (the
Gymnasium environment, pycma, the evaluation and its report), that the policy only ever chose actions the
mask allowed, and that the training did something: on the evaluation's deals the trained policy scores
more than the untrained one it started from (the run is seeded, so this is the same every time).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("cma")
pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_cma.py"
LINE = r"{}: +([+-][\d.]+) points a deal, 95% interval \[([+-][\d.]+), ([+-][\d.]+)\] \((\d+) deals\)"


def figures(out: str, name: str) -> tuple[float, float, float, int]:
    m = re.search(LINE.format(re.escape(name)), out)
    assert m, out
    return float(m.group(1)), float(m.group(2)), float(m.group(3)), int(m.group(4))


@pytest.mark.slow
def test_a_short_training_run_trains_evaluates_and_reports() -> None:
    done = subprocess.run([sys.executable, str(EXAMPLE), "--generations", "3", "--deals", "12", "--popsize", "8",
                           "--eval-deals", "80", "--seed", "3"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert len(re.findall(r"^generation +\d+: mean +[+-][\d.]+ +best +[+-][\d.]+ points a deal", out, re.M)) == 3, out
    trained, lo, hi, n = figures(out, "trained policy")
    assert n == 80 and lo <= trained <= hi
    untrained = figures(out, "untrained (uniform random)")[0]
    gain = figures(out, "trained less untrained")[0]
    assert gain == pytest.approx(trained - untrained, abs=0.02)
    assert gain > 0, out
    chosen = re.search(r"illegal actions chosen: (\d+) of (\d+)", out)
    assert chosen and chosen.group(1) == "0" and int(chosen.group(2)) > 80 * 2 * 12, out
    assert re.search(r"^beats the random level: (yes|no)", out, re.M), out


def test_bad_arguments_are_refused_plainly() -> None:
    done = subprocess.run([sys.executable, str(EXAMPLE), "--eval-deals", "1"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "--eval-deals 2-" in done.stderr, done.stderr
