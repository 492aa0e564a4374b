"""The ``piquet`` command: play in the terminal, replay, analyse, arena, ladder, stats, odds, settle, serve."""

from piquet.cli.main import main

__all__ = ["main"]
