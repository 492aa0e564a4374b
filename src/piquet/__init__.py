"""Rubicon Piquet by the 1896 Laws of the Portland and Turf Clubs.

The core: ``cards`` (cards as ints, hands as masks), ``combinations`` (point,
sequences, quatorzes and trios), ``deal`` (one deal as a state machine),
``observation`` (what a player may know), ``partie`` and ``rules``.
Records, players and the terminal stand outside it and import it.
"""

from piquet.core.actions import DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import Card, CardSet, card_name, parse_card
from piquet.core.deal import Deal, IllegalAction, Phase
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import Observation, observe
from piquet.core.partie import Partie
from piquet.core.rules import FOUR_DEAL, RUBICON, Rules

__all__ = [
    "Card", "CardSet", "Deal", "DeclarePoint", "DeclareSequences", "DeclareSets", "Discard",
    "ELDER", "FOUR_DEAL", "IllegalAction", "LookAtLeft", "Observation", "Partie", "Phase", "Play",
    "RUBICON", "Rules", "YOUNGER", "card_name", "observe", "parse_card",
]
__version__ = "0.1.0"
