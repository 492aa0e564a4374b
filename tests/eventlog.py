"""The typed event log flattened to plain (kind, role, cards, value, detail) tuples, for the independent referees
of the tests, which keep their own simple model of the log and compare it event by event.

The flattening is the tests' own, written from the events' documented fields; it drops the ``Trick`` events (the
referees check the tricks through the plays and the scores) unless asked to keep them.
"""

from __future__ import annotations

from typing import Any

from piquet.core.events import (
    AskValue,
    CallPoint,
    CallSequence,
    CallSet,
    CallValue,
    CarteBlanche,
    CarteBlancheShown,
    Exchange,
    GameWon,
    Look,
    NameSet,
    Play,
    Reply,
    Score,
    Show,
    Trick,
)

Flat = tuple[str, int, int, int, int]


def flat(e: Any) -> Flat:
    """One event as (kind, role, cards it shows, value, detail)."""
    t = type(e)
    if t is CarteBlanche:
        return (e.kind, e.role, 0, 0, 0)
    if t is CarteBlancheShown:
        return (e.kind, e.role, e.cards, 0, 0)
    if t is Exchange:
        return (e.kind, e.role, 0, e.taken, e.left)
    if t is Look:
        return (e.kind, e.role, e.cards, int(e.looked), 0)
    if t in (CallPoint, AskValue):
        return (e.kind, e.role, 0, e.length, 0)
    if t is CallValue:
        return (e.kind, e.role, 0, e.value, 0)
    if t is CallSequence:
        return (e.kind, e.role, 0, e.length, e.head)
    if t in (CallSet, NameSet):
        return (e.kind, e.role, 0, e.size, e.rank)
    if t is Reply:
        return (e.kind, e.role, 0, e.outcome, 0)
    if t is Show:
        return (e.kind, e.role, e.cards, e.category, e.points)
    if t is Play:
        return (e.kind, e.role, 1 << e.card, e.trick, 0)
    if t is Trick:
        return (e.kind, e.role, 1 << e.lead | 1 << e.follow, e.number, e.points)
    if t is Score:
        return (e.kind, e.role, e.cards, e.points, e.component)
    if t is GameWon:
        return (e.kind, e.role, 0, e.score, 2 if e.double else 1)
    raise TypeError(f"not an event: {e!r}")


def flat_log(events: Any, tricks: bool = False) -> list[Flat]:
    """The log flattened, without the ``Trick`` events unless ``tricks``."""
    return [flat(e) for e in events if tricks or type(e) is not Trick]
