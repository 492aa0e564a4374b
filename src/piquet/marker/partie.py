"""A partie marked with real cards: deals in turn, scored and settled by the same rules as the card game.

``MarkedPartie`` is immutable: each entry returns a new partie, checked whole,
so a refused entry loses nothing already entered.  The partie's running
scores, deals needed and settlement are the rules object's own
(``Rules.running_scores``, ``deals_needed``, ``settlement_of``: Laws 71-73, the
four-deal partie, Piquet au cent's games, p. 20).

>>> from piquet.marker.deal import QuickScores, PlayTotals
>>> p = MarkedPartie(players=("Ann", "Bob"))
>>> p = p.add(MarkedDeal("B", declarations=QuickScores((5, 4, 0), (0, 0, 17)), play=PlayTotals(7, 9, 6)))
>>> p.scores, p.next_dealer
({'A': 28, 'B': 23}, 'A')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from piquet.core.rules import RUBICON, SEATS, Game, Rules, Settlement
from piquet.marker.calls import ELDER, YOUNGER, MarkError
from piquet.marker.deal import DealScore, MarkedDeal
from piquet.stakes.settlement import CardPartie, card_ready


def other_seat(seat: str) -> str:
    return "B" if seat == "A" else "A"


class _Scored(NamedTuple):
    """The partie checked and scored: each entry's score, the next dealer, the running scores after each
    counted deal, and the games lost by the law (by the index of their deal in those scores, the seat)."""

    deals: list[DealScore | None]
    next_dealer: str
    after: list[dict[str, int]]
    lost: dict[int, str]


@dataclass(frozen=True)
class MarkedPartie:
    """The rules, the two players' names (seat A, seat B), who dealt first, and the deals as entered."""

    rules: Rules = RUBICON
    players: tuple[str, str] = ("A", "B")
    first_dealer: str = "B"
    deals: tuple[MarkedDeal, ...] = ()

    def __post_init__(self) -> None:
        if self.first_dealer not in SEATS:
            raise MarkError("the first dealer is A or B", "Law 4")
        _ = self._scored  # the whole partie is checked

    # ------------------------------------------------------------ seats and roles

    @staticmethod
    def seat(deal: MarkedDeal, role: int) -> str:
        """The dealer is the younger hand (Law 9)."""
        return deal.dealer if role == YOUNGER else other_seat(deal.dealer)

    def name(self, seat: str) -> str:
        return self.players[SEATS.index(seat)]

    # ------------------------------------------------------------ the deals, checked and scored

    @property
    def _scored(self) -> _Scored:
        """Each entry's score (None if it does not count), the next dealer, and the partie scores after each
        counted deal: Law 16 (alternate dealing; a void deal dealt again by the right dealer; the elder of a
        deal dealt out of turn and found too late deals twice running, unless that or the next is the last;
        at Piquet au cent, no remedy, p. 16 (5)),
        Laws 11-15 (an annulled deal dealt again by the same dealer); at Piquet au cent a game lost by the law
        in a deal that scores nothing, its adversary winning a single game (p. 17 (3))."""
        rules = self.rules
        expected, twice = self.first_dealer, False
        out: list[DealScore | None] = []
        counted: list[dict[str, int]] = []
        lost: dict[int, str] = {}
        for n, d in enumerate(self.deals, 1):
            try:
                if self.finished_after(counted, lost) and d.counts:
                    raise MarkError(f"the partie is over ({rules.title})", rules.partie_end_law)
                if not d.counts:
                    if d.status == "annulled" and d.dealer != expected:
                        raise MarkError(f"a deal annulled is dealt again by the same dealer, {self.name(expected)}",
                                        "Laws 11-15")
                    d.check(rules)
                    out.append(None)
                    continue
                if d.dealer != expected and not d.out_of_turn:
                    raise MarkError(f"it is {self.name(expected)}'s deal: the players deal alternately", "Law 16")
                if d.dealer == expected and d.out_of_turn:
                    raise MarkError(f"{self.name(d.dealer)} dealt in turn", "Law 16")
                game = rules.game_scores(counted, lost)
                by_role = None if game is None else (game[self.seat(d, ELDER)], game[self.seat(d, YOUNGER)])
                s = d.score(rules, by_role)
                if d.lost_by is not None:
                    if game is None:
                        raise MarkError(f"a game is lost only at a game of so many up, not at {rules.title}",
                                        "p. 17")
                    s = replace(s, game_won=(1 - d.lost_by, False))
                    lost[len(counted)] = self.seat(d, d.lost_by)
            except MarkError as e:
                raise MarkError(f"deal {n}: {e.message}", e.law) from None
            out.append(s)
            counted = rules.running_scores(self._deal_points(out), lost)
            number = len(counted)
            if d.out_of_turn:
                needed = rules.deals_needed(counted, lost)
                last = rules.is_last_deal(number, needed) or rules.is_last_deal(number + 1, needed)
                # At Piquet au cent a deal out of turn found too late has no remedy (p. 16 (5)): the deals
                # simply alternate from it.
                expected, twice = other_seat(d.dealer), not last and not rules.partie_of_games
            elif twice:
                expected, twice = d.dealer, False
            else:
                expected = other_seat(d.dealer)
        return _Scored(out, expected, counted, lost)

    def _deal_points(self, scored: list[DealScore | None]) -> list[dict[str, int]]:
        pts: list[dict[str, int]] = []
        for d, s in zip(self.deals, scored, strict=False):
            if s is None:
                continue
            m = self.rules.multiplier(len(pts))
            pts.append({self.seat(d, r): s.total(r) * m for r in (ELDER, YOUNGER)})
        return pts

    def finished_after(self, scores_after: list[dict[str, int]], lost: dict[int, str] | None = None) -> bool:
        return len(scores_after) >= self.rules.deals_needed(scores_after, lost or {})

    @property
    def deal_scores(self) -> list[DealScore | None]:
        """Each entry's score, None for a deal annulled or void."""
        return self._scored.deals

    @property
    def deal_points(self) -> list[dict[str, int]]:
        """What each counted deal scored, by seat, as it counts in the partie (four-deal: first and last double)."""
        return self._deal_points(self._scored.deals)

    @property
    def scores_after(self) -> list[dict[str, int]]:
        """The partie's running scores after each counted deal (au cent: the game's, p. 20)."""
        return self._scored.after

    @property
    def lost_games(self) -> dict[int, str]:
        """The games lost by the law (p. 17 (3)): the index of the deal among the counted ones, and the seat that
        lost it."""
        return self._scored.lost

    @property
    def games(self) -> tuple[Game, ...]:
        """The games won and lost so far (au cent, p. 17 (3), p. 20; none at a partie of deals)."""
        s = self._scored
        return self.rules.games(s.after, s.lost)

    @property
    def game_scores(self) -> dict[str, int] | None:
        """The game in progress, as the next deal begins it (au cent, p. 20); None at a partie of deals."""
        s = self._scored
        return self.rules.game_scores(s.after, s.lost)

    @property
    def scores(self) -> dict[str, int]:
        after = self.scores_after
        return after[-1] if after else {"A": 0, "B": 0}

    @property
    def next_dealer(self) -> str:
        return self._scored.next_dealer

    @property
    def deals_needed(self) -> int:
        s = self._scored
        return self.rules.deals_needed(s.after, s.lost)

    @property
    def is_finished(self) -> bool:
        s = self._scored
        return self.finished_after(s.after, s.lost)

    def settlement(self) -> Settlement:
        """Laws 71-73 (au cent: the games, p. 20, a game lost by the law among them, p. 17 (3)), by the rules'
        own ``settlement_of``."""
        s = self._scored
        return self.rules.settlement_of(s.after, self.finished_after(s.after, s.lost), s.lost)

    # ------------------------------------------------------------ entering

    def add(self, deal: MarkedDeal) -> MarkedPartie:
        """The partie with the next deal; ``MarkError`` (and this partie unchanged) if it cannot be."""
        return replace(self, deals=(*self.deals, deal))

    def undo(self) -> MarkedPartie:
        """The partie without its last entry."""
        return replace(self, deals=self.deals[:-1])

    def annul(self) -> MarkedPartie:
        """A deal annulled: the same dealer deals afresh (Laws 11-15)."""
        return self.add(MarkedDeal(self.next_dealer, status="annulled"))

    def void(self, dealer: str | None = None) -> MarkedPartie:
        """A deal void (dealt out of turn and found before a card is taken up, Law 16; an incorrect pack,
        Law 75): the deals before stand, and the right dealer deals."""
        return self.add(MarkedDeal(dealer or self.next_dealer, status="void"))

    def lose_game(self, seat: str, dealer: str | None = None) -> MarkedPartie:
        """At Piquet au cent, ``seat`` loses the game in the deal being entered (dealt by ``dealer``, out of turn
        if not the next dealer): the elder mixing with his hand a bottom card of the stock or a card he ought to
        have left, the younger taking up any of the top five (p. 17 (3)).  The deal scores nothing; his
        adversary wins the game, a single one, and the next game begins at nothing with the next deal."""
        if seat not in SEATS:
            raise MarkError("the player who loses the game is A or B", "p. 17")
        dealer = dealer or self.next_dealer
        return self.add(MarkedDeal(dealer, status="lost", lost_by=YOUNGER if seat == dealer else ELDER,
                                   out_of_turn=dealer != self.next_dealer))

    def _change(self, index: int, deal: MarkedDeal) -> MarkedPartie:
        if not 0 <= index < len(self.deals):
            raise MarkError(f"there is no deal {index + 1}")
        return replace(self, deals=(*self.deals[:index], deal, *self.deals[index + 1:]))

    def _role(self, index: int, seat: str) -> int:
        return YOUNGER if self.deals[index].dealer == seat else ELDER

    def reckons_nothing(self, index: int, seat: str) -> MarkedPartie:
        """The player reckons nothing in deal ``index`` (from 0), his calls still barring the adversary's; a
        carte blanche still scores (Laws 25, 27-29, 31, 35, 54, 58; Case XXI)."""
        d = self._at(index)
        return self._change(index, replace(d, reckons_nothing=d.reckons_nothing | {self._role(index, seat)}))

    def waive(self, index: int, seat: str) -> MarkedPartie:
        """The adversary of ``seat`` does not enforce his penalty of reckoning nothing (Law 44)."""
        d = self._at(index)
        role = self._role(index, seat)
        if role not in d.reckons_nothing:
            raise MarkError(f"{self.name(seat)} has incurred no penalty in deal {index + 1} to waive", "Law 44")
        return self._change(index, replace(d, waived=d.waived | {role}))

    def correct(self, index: int, deal: MarkedDeal, seen_next_hand: bool | None = None) -> MarkedPartie:
        """A score put right (Law 70): before the player in error has seen his next hand, which he has once a
        later deal is entered unless it is said that he has not."""
        self._at(index)
        seen = index < len(self.deals) - 1 if seen_next_hand is None else seen_next_hand
        if seen:
            raise MarkError(f"deal {index + 1} can no longer be put right: the player in error has seen his next "
                            "hand", "Law 70")
        return self._change(index, replace(deal, corrected=True))

    def _at(self, index: int) -> MarkedDeal:
        if not 0 <= index < len(self.deals):
            raise MarkError(f"there is no deal {index + 1}")
        return self.deals[index]


def card_partie(partie: MarkedPartie) -> CardPartie:
    """A marked partie on the scoring card (p. 101): its deals as they count; ``ValueError`` unless it is a
    finished partie of points (a partie of games is not put on the book's card)."""
    card_ready(partie.rules, partie.is_finished, f"{len(partie.scores_after)} of {partie.deals_needed} deals marked")
    return CardPartie.from_deals([(d["A"], d["B"]) for d in partie.deal_points], partie.rules.name)


__all__ = ["MarkedPartie", "card_partie", "other_seat"]
