"""Rubicon Piquet by the 1896 Laws of the Portland and Turf Clubs.

The packages, from the bottom up (docs/engine.md draws them): ``core`` (the
cards, the laws, one deal and one partie as state machines, the typed event
log), ``talk`` (the table's words), ``odds``, ``players``, ``records``,
``study``, ``stakes`` (and chouette), and the interfaces ``web`` and ``cli``.
A package imports only those below it (import-linter contracts, tested).
This module re-exports the core's public names; docs/api.md lists the rest.
"""

from piquet.core.actions import DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import Card, CardSet, card_name, parse_card
from piquet.core.deal import Deal, IllegalAction, Phase
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import Observation, observe
from piquet.core.partie import Partie
from piquet.core.rules import AU_CENT, FOUR_DEAL, RUBICON, Rules, rules_named
from piquet.core.state import PartieState

__all__ = [
    "AU_CENT", "Card", "CardSet", "Deal", "DeclarePoint", "DeclareSequences", "DeclareSets", "Discard",
    "ELDER", "FOUR_DEAL", "IllegalAction", "LookAtLeft", "Observation", "Partie", "PartieState", "Phase", "Play",
    "RUBICON", "Rules", "YOUNGER", "card_name", "observe", "parse_card", "rules_named",
]
__version__ = "0.1.0"
