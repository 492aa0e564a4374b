"""The marker: piquet played with real cards, the program keeping the score, the talk and the laws."""

from piquet.marker.calls import Declared, MarkError, PointCall, SequenceCall, SetCall, hand_fits
from piquet.marker.deal import CardPlay, DealScore, FullCalls, MarkedDeal, PlayTotals, QuickScores
from piquet.marker.partie import MarkedPartie

__all__ = ["CardPlay", "DealScore", "Declared", "FullCalls", "MarkError", "MarkedDeal", "MarkedPartie",
           "PlayTotals", "PointCall", "QuickScores", "SequenceCall", "SetCall", "hand_fits"]
