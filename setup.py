"""Build the optional compiled core of the solver; everything else is in pyproject.toml.

``optional=True``: when the C compiler or the Python headers are missing, the
extension is skipped with a warning and ``piquet.players.solver`` uses its pure-Python
search, which gives the same values.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("piquet.players._csolver", ["src/piquet/players/_solver.c"], optional=True)])
