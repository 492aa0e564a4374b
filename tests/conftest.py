"""Fixtures shared by the tests: a data directory for the saved parties; for the web tests, a database file and
a test client of the app on it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")  # Starlette now prefers httpx2 to httpx
    from starlette.testclient import TestClient

from piquet.web.app import create_app


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves its parties (``piquet play`` without ``--record``) in a directory of its own, never in
    the user's data directory."""
    path = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("PIQUET_DATA_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint in the play samples two deals, not twelve, at the terminal: the tests that ask a ``hint`` at every
    card run the solver as pure Python."""
    monkeypatch.setattr("piquet.cli.terminal.PLAY_WORLDS", 2)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A fresh SQLite file for the server."""
    return str(tmp_path / "piquet.db")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    """The web app on ``db``, started (its lifespan run) and stopped around the test."""
    with TestClient(create_app(db)) as c:
        yield c
