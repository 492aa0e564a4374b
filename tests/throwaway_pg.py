"""A throwaway PostgreSQL server on a Unix socket, for tests and benchmarks: made with ``initdb``, stopped and
started again with ``pg_ctl`` (to see what the server does when its database goes away), removed at the end."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def initdb() -> str | None:
    """PostgreSQL's ``initdb``, on the PATH or in Debian's ``/usr/lib/postgresql/*/bin``; None if not installed."""
    found = shutil.which("initdb")
    if found:
        return found
    for path in sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True):
        return str(path)
    return None


def missing() -> str | None:
    """Why no throwaway server can be started here (None: it can)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg driver is not installed (pip install -e '.[test]')"
    if initdb() is None:
        return "PostgreSQL's initdb is not installed (apt-get install postgresql)"
    return None


def require() -> None:
    """In a test: a skip saying why no throwaway server can be started here, or a failure under
    ``PIQUET_PG_REQUIRED=1`` (CI, which installs PostgreSQL); nothing when one can."""
    import pytest  # here, not at the top: bench/processes.py imports this module too

    why = missing()
    if why is not None:
        if os.environ.get("PIQUET_PG_REQUIRED") == "1":
            pytest.fail(why)
        pytest.skip(why)


class ThrowawayPostgres:
    """``with ThrowawayPostgres() as pg: pg.url``; ``pg.stop()`` and ``pg.start()`` in between."""

    def __init__(self, *settings: str) -> None:
        """``settings``: the server's own, ``"fsync=off"``, ``"synchronous_commit=off"``..."""
        self.settings = "".join(f" -c {x}" for x in settings)
        found = initdb()
        if found is None:
            raise RuntimeError(missing() or "no initdb")
        self.bindir = Path(found).resolve().parent
        self.as_user: list[str] = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []  # not as root
        self.root = tempfile.mkdtemp(prefix="piquet-pg-")
        os.chmod(self.root, 0o755)
        if self.as_user:
            shutil.chown(self.root, "postgres")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.data = f"{self.root}/data"
        self.url = f"postgresql+psycopg://piquet@/postgres?host={self.root}&port={self.port}"
        subprocess.run([*self.as_user, str(self.bindir / "initdb"), "-D", self.data, "-A", "trust", "-U", "piquet"],
                       check=True, capture_output=True)

    def _ctl(self, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bindir / "pg_ctl"), "-D", self.data, *args],
                       check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        self._ctl("-w", "-l", f"{self.root}/server.log", "-o",
                  f"-k {self.root} -p {self.port} -c listen_addresses= -c max_connections=200{self.settings}", "start")
        deadline = time.monotonic() + 30
        while subprocess.run([str(self.bindir / "pg_isready"), "-h", self.root, "-p", str(self.port)],
                             capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError("the throwaway PostgreSQL server did not start")
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop the server at once (``-m fast``: its connections are closed)."""
        self._ctl("-w", "-m", "fast", "stop")

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.stop()  # unless already stopped
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> ThrowawayPostgres:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["ThrowawayPostgres", "initdb", "missing"]
