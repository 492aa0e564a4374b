"""The core: the cards, the laws and one deal and one partie as state machines.

Read from the bottom up: ``cards`` (a card an int 0-31, a hand a 32-bit mask),
``combinations`` (point, sequences, quatorzes and trios), ``rules`` (each
variant an object the engine asks), ``actions`` (what a player does),
``events`` (what the table sees happen), ``deal`` (one deal: ``legal_actions()``
and ``apply()``), ``observation`` (what one player may know) and ``partie``.
The core imports nothing above it (an import-linter contract, tested).
"""

from piquet.core import native as native  # first: it decides whether the hot modules run compiled
