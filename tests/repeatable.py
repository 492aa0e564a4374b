"""Players for the tests that ask a copy of a player to decide the same as the player itself.

The top level's safety cut (``Strength.seconds``, CPU time) stops its search early on a slow or crowded machine,
and then a decision no longer repeats (docs/players.md, "A count, not a clock").  Under ``pytest -n auto`` on
two cores it fired in one of the two and not the other (an exchange of ``search-deep`` at Piquet au cent), so
these tests play the levels without it: what they check is that a player decides from its observation alone.
"""

from __future__ import annotations

from dataclasses import replace

from piquet.players.base import Player
from piquet.players.levels import make_player
from piquet.players.search import SearchPlayer


def repeatable_player(level: str, seed: int) -> Player:
    """The player of ``level`` (``make_player``), without the safety cut of a search level."""
    player = make_player(level, seed)
    if isinstance(player, SearchPlayer):
        player.strength = replace(player.strength, seconds=0.0)
    return player
