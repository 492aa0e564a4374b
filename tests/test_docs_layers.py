"""docs/engine.md draws the layers that pyproject.toml's import-linter contract enforces: the same, in order."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def contract_layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return list(layers)


def test_the_picture_is_the_contract() -> None:
    text = (ROOT / "docs/engine.md").read_text(encoding="utf-8")
    picture = text.split("## The layers", 1)[1].split("```", 2)[1]
    drawn = re.findall(r"│ (piquet\.\w+)", picture)
    assert drawn == contract_layers(), f"docs/engine.md draws {drawn}, the contract has {contract_layers()}"


def test_every_package_is_a_layer() -> None:
    """Each subpackage of piquet stands in the contract, so none escapes the layering."""
    packages = sorted(f"piquet.{p.parent.name}" for p in (ROOT / "src/piquet").glob("*/__init__.py"))
    assert packages == sorted(contract_layers())


def test_the_api_page_runs_and_names_what_exists() -> None:
    """docs/api.md's examples run, and every name its tables give for a module is in that module."""
    import doctest
    import importlib

    result = doctest.testfile(str(ROOT / "docs/api.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0
    text = (ROOT / "docs/api.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(piquet\.[\w.]+)` \| (.+) \|$", text, re.M)
    assert len(rows) >= 8
    for module, names in rows:
        mod = importlib.import_module(module)
        for name in re.findall(r"`([A-Za-z_]\w*)(?:\*)?`", names):
            if name.endswith("_"):
                continue
            assert hasattr(mod, name), f"docs/api.md lists {module}.{name}, which does not exist"
    for package in ("piquet", "piquet.players", "piquet.records", "piquet.study", "piquet.stakes", "piquet.odds"):
        mod = importlib.import_module(package)
        for name in mod.__all__:
            assert hasattr(mod, name), f"{package}.__all__ names {name}, which it does not have"


def test_the_examples_of_the_docs_run() -> None:
    """The ``>>>`` examples of the docs run as written (their module paths follow the packages)."""
    import doctest

    for page in ("docs/odds.md", "docs/stakes.md"):
        result = doctest.testfile(str(ROOT / page), module_relative=False,
                                  optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.attempted >= 3 and result.failed == 0, page
