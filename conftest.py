"""The doctests of the modules mypyc compiled are run from their source (tests/test_native.py):
pytest's own collection would import the compiled build and refuse it as not the file it read."""

from piquet.core import native

collect_ignore = [f"src/piquet/core/{name}.py" for name in native.COMPILED_MODULES] if native.COMPILED else []
