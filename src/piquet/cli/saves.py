"""Where ``piquet play`` keeps its parties: each saved as it goes, in the user's data directory.

The directory is platformdirs' ``user_data_dir("piquet")`` (``~/.local/share/piquet`` on Linux), or the one
``PIQUET_DATA_DIR`` names.  A partie played without ``--record`` is written to ``parties/`` there, one file
a partie, named by the time it began; the file ``last`` holds the path of the last partie played (with
``--record`` too), so that ``piquet play --resume`` with no file carries on the last unfinished one.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from platformdirs import user_data_dir

from piquet.records.record import RecordError, load_record, replay

#: The environment variable that puts the saved parties elsewhere (the tests use a temporary directory).
DATA_DIR_VARIABLE = "PIQUET_DATA_DIR"


def data_dir() -> Path:
    """The directory of the program's data: ``$PIQUET_DATA_DIR``, or the user's data directory."""
    chosen = os.environ.get(DATA_DIR_VARIABLE)
    return Path(chosen) if chosen else Path(user_data_dir("piquet", appauthor=False))


def parties_dir() -> Path:
    """Where the parties played without ``--record`` are saved."""
    return data_dir() / "parties"


def new_partie_path(now: datetime | None = None) -> Path:
    """A file for a new partie, named by the time it began: ``parties/partie-2026-11-27-143005.json``."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    folder = parties_dir()
    path = folder / f"partie-{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"partie-{stamp}-{n}.json"
        n += 1
    return path


def remember(path: str | Path) -> None:
    """Note ``path`` as the last partie played (``last`` in the data directory)."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "last").write_text(str(Path(path).resolve()) + "\n", encoding="utf-8")


def in_data_dir(path: str | Path) -> bool:
    """Whether ``path`` is one of the parties saved in the data directory."""
    return Path(path).resolve().parent == parties_dir().resolve()


def unfinished(path: Path) -> bool:
    """Whether the record in ``path`` is a partie begun and not finished (an unreadable record is not)."""
    try:
        record = load_record(path)
        return bool(record.deals) and not replay(record).is_finished
    except RecordError:
        return False


def last_unfinished() -> Path | None:
    """The partie ``piquet play --resume`` carries on: the last played if unfinished, else the newest unfinished
    partie of the data directory; None if there is none."""
    candidates: list[Path] = []
    try:
        last = (data_dir() / "last").read_text(encoding="utf-8").strip()
    except OSError:
        last = ""
    if last:
        candidates.append(Path(last))
    try:
        saved = sorted(parties_dir().glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        saved = []
    candidates.extend(saved)
    return next((p for p in candidates if p.is_file() and unfinished(p)), None)


__all__ = ["DATA_DIR_VARIABLE", "data_dir", "in_data_dir", "last_unfinished", "new_partie_path", "parties_dir",
           "remember", "unfinished"]
