"""The engine's hot modules compiled by mypyc (``piquet.core.native``): the same results as their source."""

from __future__ import annotations

import doctest
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

import pytest

from piquet.core import native
from piquet.core.deal import Deal, full_declarations
from piquet.core.rules import AU_CENT, RUBICON

CORE = Path(native.__file__).parent


def test_ci_runs_the_compiled_engine() -> None:
    """Where the engine must run compiled (CI sets PIQUET_COMPILED_REQUIRED), it does: a build that failed to
    compile would otherwise pass unseen, the benchmarks' figures with it."""
    if os.environ.get("PIQUET_COMPILED_REQUIRED"):
        assert native.COMPILED, native.engine()
    assert native.engine() == ("compiled by mypyc" if native.COMPILED else f"Python source ({native.WHY_SOURCE})")


def _digest(n: int) -> str:
    """A digest of ``n`` seeded random deals under both rules: every action sampled, every event and score."""
    h = hashlib.sha256()
    for seed in range(n):
        rng = random.Random(seed)
        deal = Deal.shuffled(rng, by=2 + seed % 2, rules=AU_CENT if seed % 3 == 0 else RUBICON,
                             game=(seed % 90, seed % 70) if seed % 3 == 0 else None)
        full = None
        while not deal.is_over:
            actions = deal.legal_actions()
            action = actions.sample(rng) if rng.random() < 0.7 or deal.phase < 3 or deal.phase > 11 else None
            if action is None:  # declare everything, or a random legal declaration
                role = deal.to_move
                assert role is not None
                category = (0, 0, 1, 1, 2, 2, 0, 1, 2)[deal.phase - 3]
                full = full or (full_declarations(deal.hands[0]), full_declarations(deal.hands[1]))
                action = full[role][category]
                if action not in actions:  # barred by the cards the elder has shown (Case IV)
                    action = actions.sample(rng)
            deal.apply(action)
            h.update(repr(action).encode())
        h.update(json.dumps([e.to_json() for e in deal.events]).encode())
        h.update(repr((deal.scores, deal.totals, deal.tricks_won)).encode())
        while deal.history:  # and everything taken back
            deal.undo()
        h.update(repr((deal.hands, deal.totals, deal.events)).encode())
    return h.hexdigest()


_DIGEST_SCRIPT = "import sys; sys.path[:0] = [{tests!r}]; from test_native import _digest; print(_digest({n}))"


def test_compiled_and_source_play_the_same_deals() -> None:
    """The same seeded deals, played in this process and in one that runs the source (``PIQUET_PURE=1``),
    give the same actions, events, scores and undo: whichever runs, the laws are the same."""
    n = 300
    here = _digest(n)
    env = {**os.environ, "PIQUET_PURE": "1"}
    script = _DIGEST_SCRIPT.format(tests=str(Path(__file__).parent), n=n)
    there = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert there.stdout.strip() == here


def test_pure_runs_the_source() -> None:
    script = "import piquet.core.deal as d, piquet.core.native as n; print(d.__file__, n.engine())"
    out = subprocess.run([sys.executable, "-c", script], env={**os.environ, "PIQUET_PURE": "1"},
                         capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == str(CORE / "deal.py")
    assert out.endswith("Python source (PIQUET_PURE is set)\n")


def test_an_edited_source_is_run_rather_than_its_old_build(tmp_path: Path) -> None:
    """A source newer than its compiled module sends every compiled module back to its source."""
    core = tmp_path / "piquet" / "core"
    core.mkdir(parents=True)
    assert native.why_source(core, pure=False) == "not compiled"
    (tmp_path / (native.GROUP_LIBRARY + native.EXTENSION_SUFFIXES[0])).touch()
    now = time.time()
    for name in native.COMPILED_MODULES:
        (core / f"{name}.py").touch()
        os.utime(core / f"{name}.py", (now - 100, now - 100))
        (core / (name + native.EXTENSION_SUFFIXES[0])).touch()
        os.utime(core / (name + native.EXTENSION_SUFFIXES[0]), (now - 50, now - 50))
    assert native.why_source(core, pure=False) is None
    assert native.why_source(core, pure=True) == "PIQUET_PURE is set"
    os.utime(core / "combinations.py", (now, now))
    assert native.why_source(core, pure=False) == "combinations.py has changed since it was compiled"


def test_an_installed_copy_is_trusted(tmp_path: Path) -> None:
    """In site-packages the sources are written with their builds, maybe a moment after: not an edit."""
    core = tmp_path / "site-packages" / "piquet" / "core"
    core.mkdir(parents=True)
    (core.parent.parent / (native.GROUP_LIBRARY + native.EXTENSION_SUFFIXES[0])).touch()
    now = time.time()
    for name in native.COMPILED_MODULES:
        (core / (name + native.EXTENSION_SUFFIXES[0])).touch()
        os.utime(core / (name + native.EXTENSION_SUFFIXES[0]), (now - 1, now - 1))
        (core / f"{name}.py").touch()
    assert native.why_source(core, pure=False) is None


@pytest.mark.parametrize("name", native.COMPILED_MODULES)
def test_the_doctests_of_the_compiled_modules(name: str) -> None:
    """pytest's doctest collection leaves out the compiled modules (conftest.py): their doctests run here, from
    the source, under a name of their own."""
    spec = spec_from_file_location(f"_source_of_{name}", CORE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would: dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        result = doctest.testmod(module, raise_on_error=False, verbose=False)
    finally:
        del sys.modules[spec.name]
    assert result.failed == 0
    if name in ("cards", "combinations", "actions"):
        assert result.attempted > 0
