"""Where ``piquet play`` keeps its parties: each saved as it goes, in the user's data directory.

The directory is platformdirs' ``user_data_dir("piquet")`` (``~/.local/share/piquet`` on Linux), or the one
``PIQUET_DATA_DIR`` names.  A partie played without ``--record`` is written to ``parties/`` there, one file
a partie, named by the time it began; the file ``last`` holds the path of the last partie played (with
``--record`` too), so that ``piquet play --resume`` with no file carries on the last unfinished one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
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


# ---------------------------------------------------------------- writing a partie's file

#: The end of a temporary file's name: ``.NAME.json.XXXXXXXX.piquet.tmp`` beside ``NAME.json``.
_TEMPORARY = ".piquet.tmp"


def _beside(path: str | Path, suffix: str) -> tuple[Path, str]:
    """The folder of ``path`` and the hidden name of a file kept beside it: ``.NAME.json`` + suffix."""
    p = Path(os.path.abspath(path))
    return p.parent, f".{p.name}{suffix}"


def save_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, flushed to the disk (fsync) and
    renamed over it (``os.replace``): never half a file.  On any failure the temporary file is removed; if the
    process is killed while writing, ``PartieLock`` removes it the next time the file is taken."""
    folder, hidden = _beside(path, ".")
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=hidden, suffix=_TEMPORARY)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def leftovers(path: str | Path) -> list[Path]:
    """The temporary files of ``path`` left by a process killed while it wrote them."""
    folder, hidden = _beside(path, ".")
    try:
        return sorted(p for p in folder.iterdir() if p.name.startswith(hidden) and p.name.endswith(_TEMPORARY))
    except OSError:
        return []


class PartieBusy(Exception):
    """The partie's file is being played by another process: what to tell the person."""


class PartieLock:
    """Who plays the partie saved in a file: one process at a time, by an advisory lock (``fcntl.flock``) on a
    hidden file beside it, ``.NAME.json.lock``, which holds the process's id.  Taking it removes the temporary
    files a killed process left (``leftovers``); releasing it removes the lock file.  ``PartieBusy`` if another
    process holds it.  (Without ``fcntl``, not on Windows: the lock is taken without checking.)"""

    def __init__(self, path: str | Path) -> None:
        folder, name = _beside(path, ".lock")
        self.path = Path(path)
        self.lock_path = folder / name
        self.fd: int | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on Linux or macOS
            return
        while True:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                by = f"process {holder}" if holder.isdigit() else "another process"
                raise PartieBusy(f"{self.path} is being played by another piquet ({by}): finish or quit that "
                                 "game first, one partie is played by one program at a time") from None
            # Another process may have removed the lock file between our open and our lock: take the new one.
            try:
                same = os.fstat(fd).st_ino == os.stat(self.lock_path).st_ino
            except OSError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self.fd = fd
        for leftover in leftovers(self.path):
            with contextlib.suppress(OSError):
                leftover.unlink()

    def release(self) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.lock_path)
        os.close(self.fd)
        self.fd = None


@contextlib.contextmanager
def playing(path: str | Path) -> Iterator[PartieLock]:
    """Hold the partie's lock while the block runs (``PartieLock``)."""
    lock = PartieLock(path)
    lock.acquire()
    try:
        yield lock
    finally:
        lock.release()


__all__ = ["DATA_DIR_VARIABLE", "PartieBusy", "PartieLock", "data_dir", "in_data_dir", "last_unfinished", "leftovers",
           "new_partie_path", "parties_dir", "playing", "remember", "save_atomically", "unfinished"]
