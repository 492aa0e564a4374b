"""A partie: deals in turn, the dealer alternating, scored to its settlement (Laws 4, 9, 16, 71-73)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card, rank_of
from .deal import Deal
from .events import ELDER, YOUNGER
from .observation import Observation, PartieContext, observe
from .rules import RUBICON, SEATS, Rules, Settlement


def other_seat(seat: str) -> str:
    return "B" if seat == "A" else "A"


def cut_for_deal(rng: random.Random) -> tuple[Card, Card, str]:
    """Each player cuts a card; the higher (ace high) has the choice of deal (Law 4).

    Cards of equal rank cut again.  Returns the cards cut by A and B and the winner.
    """
    while True:
        a, b = rng.sample(range(32), 2)
        if rank_of(a) != rank_of(b):
            return a, b, "A" if rank_of(a) > rank_of(b) else "B"


class Partie:
    """The deals of one partie and its score, under the given rules."""

    def __init__(self, rules: Rules = RUBICON, first_dealer: str = "B", deal_by: int = 2) -> None:
        if first_dealer not in SEATS:
            raise ValueError("the dealer is seat A or B")
        if deal_by not in (2, 3):
            raise ValueError("the deal is by two or by three cards at a time (Law 9)")
        self.rules = rules
        self.first_dealer = first_dealer
        self.deal_by = deal_by
        self.deals: list[Deal] = []

    # ------------------------------------------------------------ seats and roles

    def dealer(self, index: int) -> str:
        """The players deal alternately (Law 16)."""
        return self.first_dealer if index % 2 == 0 else other_seat(self.first_dealer)

    def seat(self, index: int, role: int) -> str:
        """The seat playing ``role`` in deal ``index``: the dealer is the younger hand."""
        d = self.dealer(index)
        return d if role == YOUNGER else other_seat(d)

    def role(self, index: int, seat: str) -> int:
        return YOUNGER if self.dealer(index) == seat else ELDER

    @property
    def current(self) -> Deal | None:
        """The deal in progress, if any."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1]
        return None

    # ------------------------------------------------------------ scores

    def deal_score(self, index: int) -> dict[str, int]:
        """What each seat scored in a deal, as it counts in the partie."""
        d = self.deals[index]
        m = self.rules.multiplier(index)
        return {self.seat(index, r): d.total(r) * m for r in (ELDER, YOUNGER)}

    def scores_after(self) -> list[dict[str, int]]:
        """The partie scores after each deal played so far (finished or not)."""
        out: list[dict[str, int]] = []
        total = {"A": 0, "B": 0}
        for i in range(len(self.deals)):
            s = self.deal_score(i)
            total = {k: total[k] + s[k] for k in SEATS}
            out.append(total)
        return out

    @property
    def scores(self) -> dict[str, int]:
        after = self.scores_after()
        return after[-1] if after else {"A": 0, "B": 0}

    @property
    def deals_needed(self) -> int:
        finished = [s for s, d in zip(self.scores_after(), self.deals, strict=True) if d.is_over]
        return self.rules.deals_needed(finished)

    @property
    def is_finished(self) -> bool:
        return self.current is None and len(self.deals) >= self.deals_needed

    def settlement(self) -> Settlement:
        return self.rules.settle(self.scores, self.is_finished)

    # ------------------------------------------------------------ dealing

    def add_deal(self, deal: Deal) -> Deal:
        """Start the next deal with these cards."""
        if self.current is not None:
            raise ValueError("the deal in progress is not finished")
        if self.is_finished:
            raise ValueError("the partie is finished")
        self.deals.append(deal)
        return deal

    def deal_from(self, order: Sequence[Card]) -> Deal:
        """Deal the next hand from a pack order (top first), by the partie's mode (Law 9)."""
        return self.add_deal(Deal.from_pack(order, self.deal_by))

    def deal_shuffled(self, rng: random.Random) -> Deal:
        order = list(range(32))
        rng.shuffle(order)
        return self.deal_from(order)

    # ------------------------------------------------------------ what a player knows

    def context(self, seat: str) -> PartieContext:
        index = len(self.deals) - 1
        before = self.scores_after()[-2] if len(self.deals) > 1 else {"A": 0, "B": 0}
        return PartieContext(
            seat=seat, dealer=self.dealer(index), deal_number=index + 1,
            deals_in_partie=self.deals_needed, rules=self.rules.name, scores=dict(before),
            multiplier=self.rules.multiplier(index),
        )

    def observation(self, seat: str) -> Observation:
        """The observation of ``seat`` in the current (or last) deal."""
        if not self.deals:
            raise ValueError("no deal yet")
        index = len(self.deals) - 1
        return observe(self.deals[index], self.role(index, seat), self.context(seat))
