"""Build the optional compiled parts; everything else is in pyproject.toml.

- ``piquet.players._csolver``: the solver's core, in C.  When the C compiler or the Python
  headers are missing, it is skipped with a warning and ``piquet.players.solver`` uses its
  pure-Python search, which gives the same values.
- ``piquet.core.cards``, ``combinations``, ``actions`` and ``deal``, compiled from their own Python source by
  mypyc (the engine's hot path, about twice as fast: bench/throughput.py).  Optional in the same
  way; ``piquet.core.native`` says which ran, and runs the source when it is newer than its build
  or ``PIQUET_PURE=1`` is set.  ``PIQUET_PURE=1`` at install time builds nothing with mypyc.
"""

import os
import sys

from setuptools import Extension, setup

ext_modules = [Extension("piquet.players._csolver", ["src/piquet/players/_solver.c"], optional=True)]
if not os.environ.get("PIQUET_PURE"):
    try:
        from mypyc.build import mypycify

        # The same names as piquet.core.native.COMPILED_MODULES; the group's shared library is
        # piquet_core__mypyc, which native looks for beside the package.
        compiled = mypycify([f"src/piquet/core/{name}.py" for name in ("cards", "combinations", "actions", "deal")],
                            opt_level="3", group_name="piquet_core")
    except (Exception, SystemExit) as error:  # mypyc missing, or its type check refused: run the source
        print(f"warning: the engine is not compiled ({error!r}); it runs as Python source", file=sys.stderr)
    else:
        for ext in compiled:
            ext.optional = True
        ext_modules += compiled

setup(ext_modules=ext_modules)
