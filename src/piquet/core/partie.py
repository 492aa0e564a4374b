"""A partie: deals in turn, the dealer alternating, scored to its settlement (Laws 4, 9, 16, 71-73).

At Piquet au cent the partie is of games of a hundred up (p. 20): each deal is
given the scores of the game in progress, stops when a player reaches a
hundred, and the next deal begins a new game; the players deal alternately
throughout (Law 16), whoever won the last game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from piquet.core.cards import Card, Mask
from piquet.core.deal import Deal, Limits, deal_from_pack
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import Observation, PartieContext, observe
from piquet.core.rules import RUBICON, SEATS, Game, Rules, Settlement


def other_seat(seat: str) -> str:
    return "B" if seat == "A" else "A"


def first_dealer_after_cut(rules: Rules, winner: str, winner_deals: bool = True) -> str:
    """Who deals first: the higher cut's choice (Law 4), or at Piquet au cent the lower cut (p. 16)."""
    if not rules.higher_cut_chooses:
        return other_seat(winner)
    return winner if winner_deals else other_seat(winner)


class Partie:
    """The deals of one partie and its score, under the given rules."""

    def __init__(self, rules: Rules = RUBICON, first_dealer: str = "B", deal_by: int = 2) -> None:
        if first_dealer not in SEATS:
            raise ValueError("the dealer is seat A or B")
        if deal_by not in rules.deal_modes:
            if rules.deal_modes == (2,):
                raise ValueError(f"the deal is by two cards at a time at {rules.title} (p. 16)")
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
        """The partie scores after each deal played so far (finished or not); au cent: the game's."""
        return self.rules.running_scores([self.deal_score(i) for i in range(len(self.deals))])

    def games(self) -> tuple[Game, ...]:
        """At Piquet au cent: the games won so far (p. 20)."""
        return self.rules.games(self._finished_scores())

    def _finished_scores(self) -> list[dict[str, int]]:
        return [s for s, d in zip(self.scores_after(), self.deals, strict=True) if d.is_over]

    @property
    def scores(self) -> dict[str, int]:
        after = self.scores_after()
        return after[-1] if after else {"A": 0, "B": 0}

    @property
    def deals_needed(self) -> int:
        """The deals this partie runs to; at a game of so many up, those played and one more until it is won."""
        return self.rules.deals_needed(self._finished_scores())

    @property
    def is_finished(self) -> bool:
        return self.current is None and len(self.deals) >= self.deals_needed

    def settlement(self) -> Settlement:
        return self.rules.settlement_of(self.scores_after(), self.is_finished)

    def game_scores(self) -> dict[str, int]:
        """The scores of the game the next deal belongs to (au cent: nothing after a game is won)."""
        after = self._finished_scores()
        game = self.rules.game_scores(after)
        if game is not None:
            return game
        return after[-1] if after else {"A": 0, "B": 0}

    # ------------------------------------------------------------ dealing

    def next_game(self) -> tuple[int, int] | None:
        """What the next deal is given at a game of so many up: the game's scores by role (elder, younger)."""
        scores = self.rules.game_scores(self._finished_scores())
        if scores is None:
            return None
        index = len(self.deals)
        return scores[self.seat(index, ELDER)], scores[self.seat(index, YOUNGER)]

    def deal_cards(self, elder: Mask, younger: Mask, stock: Sequence[Card], *, limits: Limits | None = None) -> Deal:
        """Start the next deal with these cards, under the partie's rules (and its game's scores); ``limits``: a
        deal of eleven or thirteen cards, or a stock of seven, that stands (Laws 40-43; ``referee.deal_limits``)."""
        return self.add_deal(Deal(elder, younger, stock, self.rules, self.next_game(), limits=limits))

    def add_deal(self, deal: Deal) -> Deal:
        """Start the next deal: a deal made under the partie's rules (``deal_cards`` makes one)."""
        if self.current is not None:
            raise ValueError("the deal in progress is not finished")
        if self.is_finished:
            raise ValueError("the partie is finished")
        if deal.rules.deal_terms != self.rules.deal_terms or deal.game != self.next_game():
            raise ValueError(f"the deal is not made under the partie's rules ({self.rules.spec}): use deal_cards")
        self.deals.append(deal)
        return deal

    def deal_from(self, order: Sequence[Card]) -> Deal:
        """Deal the next hand from a pack order (top first), by the partie's mode (Law 9)."""
        return self.deal_cards(*deal_from_pack(order, self.deal_by))

    def deal_shuffled(self, rng: random.Random) -> Deal:
        order = list(range(32))
        rng.shuffle(order)
        return self.deal_from(order)

    # ------------------------------------------------------------ what a player knows

    def context(self, seat: str) -> PartieContext:
        index = len(self.deals) - 1
        before = self.scores_after()[-2] if len(self.deals) > 1 else {"A": 0, "B": 0}
        games: dict[str, int] = {}
        number = 0
        if self.rules.partie_of_games:
            d = self.deals[index]
            by_role = dict(zip((self.seat(index, ELDER), self.seat(index, YOUNGER)), d.game or (0, 0), strict=True))
            before = {k: by_role[k] for k in SEATS}
            won = self.rules.games(self._finished_scores()[:index])
            games = {k: sum(g.counts for g in won if g.winner == k) for k in SEATS}
            number = len(won) + 1
        return PartieContext(
            seat=seat, dealer=self.dealer(index), deal_number=index + 1,
            deals_in_partie=self.deals_needed, rules=self.rules.spec, scores=dict(before),
            multiplier=self.rules.multiplier(index), games=games, game_number=number,
        )

    def observation(self, seat: str) -> Observation:
        """The observation of ``seat`` in the current (or last) deal."""
        if not self.deals:
            raise ValueError("no deal yet")
        index = len(self.deals) - 1
        return observe(self.deals[index], self.role(index, seat), self.context(seat))
