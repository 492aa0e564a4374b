"""Whether the engine's hot modules run compiled (mypyc) or as their Python source.

``pip install`` compiles ``cards``, ``combinations``, ``actions`` and ``deal`` from their own source with
mypyc when it can (``setup.py``): the same code, about twice as fast (``bench/throughput.py``).
They run as Python source instead when

- they were not compiled (no C compiler, or ``PIQUET_PURE=1`` at install time);
- ``PIQUET_PURE=1`` is set now (coverage, mutation testing, a debugger);
- a source is newer than its compiled module: it was edited since the install, and a change to
  the source is never hidden behind an old build (``pip install -e .`` compiles it again).

All or none: compiled modules call each other directly, so one edited module sends them all back
to their source.  ``piquet.core`` imports this module first, before any of them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

#: The modules of ``piquet.core`` that setup.py compiles (the same names there).
COMPILED_MODULES = ("cards", "combinations", "actions", "deal")
#: The shared library of mypyc's group, installed beside the ``piquet`` package.
GROUP_LIBRARY = "piquet_core__mypyc"

_HERE = Path(__file__).resolve().parent
_NAMES = {f"piquet.core.{name}": _HERE / f"{name}.py" for name in COMPILED_MODULES}


def _built(directory: Path, name: str) -> Path | None:
    for suffix in EXTENSION_SUFFIXES:
        path = directory / (name + suffix)
        if path.exists():
            return path
    return None


def why_source(core: Path = _HERE, pure: bool = bool(os.environ.get("PIQUET_PURE"))) -> str | None:
    """Why the modules of the package directory ``core`` (``piquet/core``) run as source, or None when they
    run compiled."""
    if pure:
        return "PIQUET_PURE is set"
    if _built(core.parent.parent, GROUP_LIBRARY) is None:
        return "not compiled"
    # A source can be edited after its build only in a working tree (``pip install -e .``): an installed copy
    # is written all at once, its sources maybe a moment after their builds.
    installed = any(part in ("site-packages", "dist-packages") for part in core.parts)
    for name in COMPILED_MODULES:
        built = _built(core, name)
        if built is None:
            return "not compiled"
        if not installed and (core / f"{name}.py").stat().st_mtime > built.stat().st_mtime:
            return f"{name}.py has changed since it was compiled"
    return None


class _SourceFinder:
    """Finds the compiled modules' Python source ahead of their compiled build."""

    @staticmethod
    def find_spec(fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        source = _NAMES.get(fullname)
        return None if source is None else spec_from_file_location(fullname, source)


#: Why the engine runs as Python source, or None when it runs compiled.
WHY_SOURCE = why_source()
COMPILED = WHY_SOURCE is None
if not COMPILED and _SourceFinder not in sys.meta_path:
    sys.meta_path.insert(0, _SourceFinder)


def engine() -> str:
    """How the engine runs, in a few words: for the benchmarks and ``piquet --version``."""
    return "compiled by mypyc" if COMPILED else f"Python source ({WHY_SOURCE})"
