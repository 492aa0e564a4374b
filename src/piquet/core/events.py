"""What happens at the table, as a log of public events.

Everything in this log is known to both players: announcements, the number of
cards each exchanged, every call and reply, the cards each is entitled to see
because they were scored as good, called as equal or shown (Laws 19, 36, 55),
the cards played, and every score in the order of Law 67.  What only one
player may know (his hand, his discard, cards he alone looked at) is never
put here; an observation adds it for its own player.
"""

from __future__ import annotations

from typing import NamedTuple

from piquet.core.cards import Mask

ELDER, YOUNGER = 0, 1
ROLES = ("elder", "younger")

# Event kinds.
CARTE_BLANCHE = "carte_blanche"  # announced at once (Law 20)
CARTE_BLANCHE_SHOWN = "carte_blanche_shown"  # cards = the twelve dealt (Law 19)
EXCHANGE = "exchange"  # value = cards taken in, detail = cards left in the stock
LOOK = "look"  # value = 1 looked, 0 declined; cards = what both now see
CALL_POINT = "call_point"  # value = number of cards
ASK_VALUE = "ask_value"  # "What do they make?" (Law 46)
CALL_VALUE = "call_value"  # value = what the point makes
CALL_SEQUENCE = "call_sequence"  # value = length, detail = rank of the head
CALL_SET = "call_set"  # value = 3 or 4, detail = rank
REPLY = "reply"  # value = 0 good, 1 equal, 2 not good
SHOW = "show"  # cards called good or equal; value = category, detail = the points it scores (0: equal)
PLAY = "play"  # cards = the card; value = trick number (1-12)
SCORE = "score"  # value = points; detail = index into SCORE_KINDS; cards = what counted (if shown)
NAME_SET = "name_set"  # a quatorze or trio named, not shown (au cent, p. 18): value = 3 or 4, detail = rank
GAME = "game"  # the goal reached (au cent, p. 20): value = the winner's score, detail = 2 for a double game

# Categories of declaration, in the order of calling.
POINT, SEQUENCES, SETS = 0, 1, 2
CATEGORIES = ("point", "sequences", "sets")

#: Score components, in the order of Law 67 (pique and repique are additions).
SCORE_KINDS = ("carte_blanche", "point", "sequences", "sets", "play", "cards", "pique", "repique")
(S_CARTE_BLANCHE, S_POINT, S_SEQUENCES, S_SETS, S_PLAY, S_CARDS, S_PIQUE, S_REPIQUE) = range(8)

REPLIES = ("Good", "Equal", "Not good")


class Event(NamedTuple):
    """One public happening: who, what kind, which cards it reveals, and a number or two."""

    kind: str
    role: int
    cards: Mask = 0
    value: int = 0
    detail: int = 0
