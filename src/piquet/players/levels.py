"""The computer's levels, weakest first, by name or by number (``piquet play --level 3``).

=====  ===============  ======================================================
 No.   Name             Player
=====  ===============  ======================================================
 0     ``random``       every choice at random among the legal ones
 1     ``simple``       sensible discards, declares all, no look-ahead
 2     ``cavendish``    the treatise's principles (p. 116-202) as heuristics
 3     ``search-fast``  Monte Carlo over consistent deals, few worlds
 4     ``search``       the same with more worlds and discards tried
 5     ``search-deep``  every discard raced by successive halving, worlds read
                        from the adversary's discard
=====  ===============  ======================================================

>>> [level.name for level in LEVELS]
['random', 'simple', 'cavendish', 'search-fast', 'search', 'search-deep']
>>> type(make_player("3")).__name__, type(make_player("simple")).__name__
('SearchPlayer', 'SimplePlayer')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from piquet.players.base import Player, RandomPlayer, SimplePlayer
from piquet.players.cavendish import CavendishPlayer
from piquet.players.search import deep_player, fast_player, full_player

PlayerFactory = Callable[[int | None], Player]


@dataclass(frozen=True)
class Level:
    name: str
    factory: PlayerFactory
    description: str


LEVELS: tuple[Level, ...] = (
    Level("random", RandomPlayer, "every choice at random among the legal ones"),
    Level("simple", SimplePlayer, "sensible discards, declares all, no look-ahead"),
    Level("cavendish", CavendishPlayer, "the treatise's principles as heuristics"),
    Level("search-fast", fast_player, "Monte Carlo over consistent deals with the exact solver, few worlds"),
    Level("search", full_player, "Monte Carlo over consistent deals with the exact solver"),
    Level("search-deep", deep_player, "the same over every discard, worlds weighed by the adversary's discard"),
)
LEVEL_NAMES: tuple[str, ...] = tuple(level.name for level in LEVELS)
#: The level ``piquet play`` uses when none is asked for.
DEFAULT_LEVEL = "search"


#: Levels from outside the house, by name: registered by the module that makes them (``piquet.rl.openspiel``
#: registers ``openspiel-ismcts`` when imported), or found among the ``piquet.levels`` entry points.
_REGISTERED: dict[str, Level] = {}


def register_level(level: Level) -> None:
    """Make ``level`` known by its name to ``level_named`` (and so to the arena, the ladder and stats)."""
    if level.name in LEVEL_NAMES:
        raise ValueError(f"{level.name!r} is a level of the house already")
    _REGISTERED[level.name] = level


def _entry_point(key: str) -> Level | None:
    """The level an installed package offers under ``key`` (entry point group ``piquet.levels``), if any."""
    from importlib.metadata import entry_points

    for ep in entry_points(group="piquet.levels"):
        if ep.name == key:
            try:
                ep.load()  # the module registers its level as it is imported
            except ImportError as e:
                raise ValueError(f"level {key!r} needs what is not installed ({e}): pip install -e '.[rl]'") from e
            return _REGISTERED.get(key)
    return None


def level_named(name: str) -> Level:
    """A level by its name or its number; ``ValueError`` naming the known levels otherwise."""
    key = name.strip().lower()
    if key.isdigit() and int(key) < len(LEVELS):
        return LEVELS[int(key)]
    for level in LEVELS:
        if level.name == key:
            return level
    found = _REGISTERED.get(key) or _entry_point(key)
    if found is not None:
        return found
    known = ", ".join([f"{i} {lv.name}" for i, lv in enumerate(LEVELS)] + list(_REGISTERED))
    raise ValueError(f"unknown level {name!r}; known: {known}")


def make_player(level: str, seed: int | None = None) -> Player:
    """A computer player of the named (or numbered) level."""
    return level_named(level).factory(seed)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "LEVEL_NAMES", "Level", "PlayerFactory", "level_named", "make_player",
           "register_level"]
