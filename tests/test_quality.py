"""The code is lint-clean (ruff), type-clean (mypy --strict) and keeps its layers (import-linter), as part of
the test run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: install the test extras (pip install -e '.[test]')")
    return found


def test_ruff_clean() -> None:
    result = subprocess.run([_tool("ruff"), "check", "src", "tests", "bench", "examples"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_clean() -> None:
    result = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_layers_kept() -> None:
    """The import-linter contracts of pyproject.toml: each layer imports only those below it; no cycle."""
    result = subprocess.run([_tool("lint-imports")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout and "2 kept" in result.stdout, result.stdout
