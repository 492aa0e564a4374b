"""Computer players: they read an observation, never a deal, and answer with an action.

``base`` (the ``Player`` protocol, random and simple), ``cavendish`` (the
treatise's principles), ``worlds`` (deals consistent with what a player knows),
``solver`` (the exact double-dummy solver, with its C core), ``search``, the
``levels`` by name and number, and ``runner`` (a partie between two players).
"""

from piquet.players.base import Correctable, Player, RandomPlayer, SimplePlayer
from piquet.players.cavendish import CavendishPlayer
from piquet.players.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS, Level, level_named, make_player
from piquet.players.runner import GameListener, PartieRunner, play_deal
from piquet.players.search import SearchPlayer

__all__ = [
    "DEFAULT_LEVEL", "LEVELS", "LEVEL_NAMES", "CavendishPlayer", "Correctable", "GameListener", "Level",
    "PartieRunner", "Player", "RandomPlayer", "SearchPlayer", "SimplePlayer", "level_named", "make_player",
    "play_deal",
]
