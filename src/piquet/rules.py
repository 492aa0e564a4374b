"""The partie and its settlement, as rules objects the engine is given.

``RUBICON`` is the six-deal partie of Laws 71-73; ``FOUR_DEAL`` the variant
by agreement (note to Law 71).  A variant is a subclass: Piquet au cent or
chouette can be added without touching the deal or the partie.
"""

from __future__ import annotations

from dataclasses import dataclass

SEATS = ("A", "B")


@dataclass(frozen=True)
class Settlement:
    """How a partie ended: the winner (None for a draw), whether rubiconed, what is won."""

    finished: bool
    winner: str | None
    rubicon: bool
    points_won: int | None


class Rules:
    """Rubicon Piquet: six deals, the rubicon at a hundred (Laws 71-73)."""

    name = "rubicon"
    title = "Rubicon Piquet, the six-deal partie"
    deals = 6
    extra_deals = 2  # on a tie each deals once more (Law 71)
    rubicon = 100
    bonus = 100

    def multiplier(self, index: int) -> int:
        """How the deal at ``index`` (from 0) counts in the partie."""
        return 1

    def deals_needed(self, scores_after: list[dict[str, int]]) -> int:
        """How many deals this partie runs to, given the partie scores after each deal."""
        n = self.deals
        if len(scores_after) >= n and scores_after[n - 1]["A"] == scores_after[n - 1]["B"]:
            return n + self.extra_deals
        return n

    def settle(self, scores: dict[str, int], finished: bool = True) -> Settlement:
        """Law 72: the difference and a hundred; Law 73: under a hundred, the sum and a hundred."""
        if not finished:
            return Settlement(False, None, False, None)
        a, b = scores["A"], scores["B"]
        if a == b:
            return Settlement(True, None, False, None)  # drawn after the extra deals (Law 71)
        winner, loser = ("A", "B") if a > b else ("B", "A")
        w, lose = scores[winner], scores[loser]
        if lose < self.rubicon:
            return Settlement(True, winner, True, w + lose + self.bonus)
        return Settlement(True, winner, False, w - lose + self.bonus)


class FourDealRules(Rules):
    """By agreement: four deals, the first and last counting double; extra deals single (Law 71, note)."""

    name = "four-deal"
    title = "Rubicon Piquet, the four-deal partie"
    deals = 4

    def multiplier(self, index: int) -> int:
        return 2 if index in (0, self.deals - 1) else 1


RUBICON = Rules()
FOUR_DEAL = FourDealRules()
RULES: dict[str, Rules] = {r.name: r for r in (RUBICON, FOUR_DEAL)}


def rules_named(name: str) -> Rules:
    try:
        return RULES[name]
    except KeyError:
        raise ValueError(f"unknown rules {name!r}; known: {', '.join(RULES)}") from None
