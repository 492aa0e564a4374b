"""The top level with one part taken out, or one part tried, as levels the benches know by name.

``piquet.players.search.WITHOUT`` holds the top level less each of its parts
(``deep-without-every-count``, ``deep-without-halving``,
``deep-without-discard-prior``, ``deep-without-reckoning``,
``deep-without-partie-score``) and ``TRIED`` the parts tried and not kept
(``deep-own-next``); ``register()`` makes them levels for
``bench/arena_pairs.py`` and ``bench/decisions.py`` (docs/players.md).
"""

from __future__ import annotations

from functools import partial

from piquet.players.levels import Level, level_named, register_level
from piquet.players.search import TRIED, WITHOUT, SearchPlayer


def register() -> None:
    """Every variant of the top level as a level (once)."""
    for strength in (*WITHOUT.values(), *TRIED.values()):
        try:
            level_named(strength.name)
        except ValueError:
            register_level(Level(strength.name, partial(SearchPlayer, strength=strength),
                                 "a variant of search-deep (docs/players.md)"))
