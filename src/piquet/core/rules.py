"""The rules in force, as objects the engine is given.

``RUBICON`` is the six-deal partie of the 78 Laws (Laws 71-73); ``FOUR_DEAL``
the variant by agreement (note to Law 71); ``AU_CENT`` Piquet au cent, the
older game of a hundred up, by the "Laws of Piquet au cent" (p. 16-20), with
its two options by agreement.  A variant is a subclass: the deal and the
partie ask their rules object, and hold no flag of their own.

A rules object answers three kinds of question:

- of the deal: who deals after the cut, by how many cards, how few the younger
  may discard, when a younger's carte blanche is announced, whether the elder's
  call states what the point makes, whether quatorzes and trios are shown,
  which cards count in play, what a point scores;
- of the partie: how the deals' scores run on, when the partie is over, who
  wins it and what;
- its name and title, and ``spec``: the name with its agreements, which
  ``rules_named`` reads back.

>>> fours = rules_named("au-cent+fours")
>>> fours.point_score(0b00011111), RUBICON.point_score(0b00011111)   # J 10 9 8 7 make 44
(4, 5)
>>> fours.point_score(0b11110000)   # A K Q J make 41
4
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

SEATS = ("A", "B")

#: Every card of the pack: all count in play (Law 65).
_ALL_CARDS = (1 << 32) - 1
#: Tens and above: the counting cards when nines, eights and sevens do not count (p. 19).
_TENS_AND_ABOVE = sum(0x01010101 << r for r in range(3, 8))
#: What each rank makes in the point (ace 11, court cards and ten 10, others their pips; Law 62).
_POINT_VALUES = (7, 8, 9, 10, 10, 10, 10, 11)
#: No game lost by the law: the default of the partie's questions' ``lost``.
NO_LOSS: Final[Mapping[int, str]] = MappingProxyType({})


@dataclass(frozen=True)
class Game:
    """One game of Piquet au cent: the first to a hundred wins it; before the other has fifty, double (p. 20)."""

    number: int  # from 1
    first_deal: int  # index of its first deal in the partie (from 0)
    last_deal: int  # index of the deal in which it was won
    scores: dict[str, int]  # when the winner reached a hundred
    winner: str
    double: bool
    #: Lost by the other player's irregularity (p. 17 (3): "he loses the game"), not won at a hundred; the law
    #: makes it a single game, and ``scores`` are the game's when it was lost.
    forfeit: bool = False

    @property
    def counts(self) -> int:
        """A double counts as two games towards the partie (p. 20)."""
        return 2 if self.double else 1


@dataclass(frozen=True)
class Settlement:
    """How a partie ended: the winner (None for a draw), whether rubiconed, what is won.

    At Piquet au cent the partie is of games: ``games`` lists them, ``tally``
    counts each player's (a double as two), and ``points_won`` is None.
    """

    finished: bool
    winner: str | None
    rubicon: bool
    points_won: int | None
    games: tuple[Game, ...] = ()
    tally: dict[str, int] = field(default_factory=dict)


class Rules:
    """Rubicon Piquet: six deals, the rubicon at a hundred (Laws 71-73)."""

    name = "rubicon"
    title = "Rubicon Piquet, the six-deal partie"
    deals = 6
    extra_deals = 2  # on a tie each deals once more (Law 71)
    rubicon = 100
    bonus = 100
    #: The agreements in force, by name (Piquet au cent has two, p. 19).
    agreements: tuple[str, ...] = ()

    # ------------------------------------------------------------ the deal
    #: Law 4: the higher cut has the choice of deal (au cent: the lower cut deals).
    higher_cut_chooses = True
    #: Law 9: the dealer deals by two or by three, his choice for the partie (au cent: by two).
    deal_modes: tuple[int, ...] = (2, 3)
    #: Law 22: the younger must discard at least one card (au cent: he need not discard).
    younger_min_discard = 1
    #: Law 20: a carte blanche is announced at once (au cent: the younger's after the elder's discard).
    younger_announces_at_once = True
    #: Law 46: the number of cards is a sufficient call (au cent: the elder states what the point makes).
    calls_state_value = False
    #: Law 55: what is good or equal is shown (au cent: quatorzes and trios are named, not shown).
    sets_shown = True
    #: Case IV (Law 56): what the elder's cards shown make bars the younger's reckoning of as much or less in a
    #: category the elder did not call (au cent: not in its laws).
    implication_bars = True
    #: Law 65: every card counts in play (au cent, by agreement: nines, eights and sevens do not).
    counting_cards = _ALL_CARDS
    #: By agreement, at a club table: calls are taken at the player's word, and a call of cards not held is a
    #: miscall with its penalty when it comes to light (Laws 52-54).  Else the program refuses it.
    calls_at_word = False
    #: A game's goal: the first to reach it wins the game, and the deal stops (au cent: a hundred).
    goal: int | None = None
    #: At a game of so many up: the goal reached before the adversary has this many is a double game.
    double_below = 0

    @property
    def spec(self) -> str:
        """The name and the agreements, as ``rules_named`` reads them: ``au-cent+small-cards``."""
        return "+".join((self.name, *self.agreements))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def __repr__(self) -> str:
        return f"rules_named({self.spec!r})"

    @property
    def deal_terms(self) -> tuple[object, ...]:
        """Everything the rules say of one deal: two rules with the same terms play a deal alike."""
        return (self.younger_min_discard, self.younger_announces_at_once, self.calls_state_value, self.sets_shown,
                self.implication_bars, self.counting_cards, self.goal, self.double_below, self.agreements,
                self.calls_at_word)

    def min_discard(self, role: int) -> int:
        """The fewest cards the elder (role 0) or the younger (role 1) may discard (Laws 21-22)."""
        return 1 if role == 0 else self.younger_min_discard

    def point_score(self, point: int) -> int:
        """A good point scores one for each card (Law 62)."""
        return point.bit_count()

    # ------------------------------------------------------------ the partie

    def multiplier(self, index: int) -> int:
        """How the deal at ``index`` (from 0) counts in the partie."""
        return 1

    def running_scores(self, deal_scores: Sequence[dict[str, int]],
                       lost: Mapping[int, str] = NO_LOSS) -> list[dict[str, int]]:
        """The scores after each deal, from what each deal scored (as it counts): the partie's running total.

        ``lost``, at a game of so many up: the deals (by index) in which a game was lost by the law, and the seat
        that lost it (p. 17 (3)); a partie of deals has no game to lose."""
        if lost:
            raise ValueError("a game is lost only at a game of so many up (p. 17)")
        out: list[dict[str, int]] = []
        total = {"A": 0, "B": 0}
        for s in deal_scores:
            total = {k: total[k] + s[k] for k in SEATS}
            out.append(total)
        return out

    def deals_needed(self, scores_after: list[dict[str, int]], lost: Mapping[int, str] = NO_LOSS) -> int:
        """How many deals this partie runs to, given the partie scores after each finished deal."""
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

    def settlement_of(self, scores_after: list[dict[str, int]], finished: bool,
                      lost: Mapping[int, str] = NO_LOSS) -> Settlement:
        """The settlement from the running scores after each deal (``running_scores``)."""
        return self.settle(scores_after[-1] if scores_after else {"A": 0, "B": 0}, finished)

    def games(self, scores_after: list[dict[str, int]], lost: Mapping[int, str] = NO_LOSS) -> tuple[Game, ...]:
        """The games won so far: none, but at a game of so many up."""
        return ()

    # ------------------------------------------------------------ variants as objects
    # The questions the engine, the players, the records and the tables ask of the variant in force: each
    # variant answers them here, and nobody outside checks which variant it is (python-chess's variant.py).

    #: Is the partie won in games of so many up (p. 20), rather than settled in points (Laws 71-73)?
    partie_of_games = False
    #: The games that win the partie, a double counting two (p. 20): a partie of deals has none to win.
    games_to_win = 0
    #: Whether nines, eights and sevens count in play (Law 65; au cent, by agreement they do not, p. 19).
    small_cards_count = True
    #: Where the laws say the partie is over: after its deals (Law 71), or at its games (p. 20).
    partie_end_law = "Law 71"
    #: The most a player can score in one deal, as it is played (before a multiplier), by Laws 18 and 61-69:
    #: 174, a carte blanche (10) taking in five court cards for a point of five (5), a quint and a tierce (18),
    #: quatorzes of knaves and tens (28), the repique (60), and every trick led and won (13) for a capot (40);
    #: without a carte blanche at most 170.  The derivation is in docs/laws.md ("The most in one deal").  A lead
    #: greater than this times the deal's multiplier cannot be caught in the deal.
    most_in_a_deal = 174

    @property
    def line(self) -> int:
        """The hundred a player's hopes turn on: under it when the partie ends he is rubiconed (Law 73).

        >>> RUBICON.line, FOUR_DEAL.line, AU_CENT.line
        (100, 100, 100)
        """
        return self.rubicon

    def is_last_deal(self, deal_number: int, deals_in_partie: int) -> bool:
        """Whether the deal ``deal_number`` (from 1) is known to be the partie's last (Law 71).

        >>> RUBICON.is_last_deal(6, 6), RUBICON.is_last_deal(6, 8), FOUR_DEAL.is_last_deal(4, 4)
        (True, False, True)
        """
        return deal_number >= deals_in_partie

    def check_game(self, game: tuple[int, int] | None) -> None:
        """A deal at a game of so many up is given the game's scores before it, by role; any other deal none.

        >>> AU_CENT.check_game(None)
        Traceback (most recent call last):
        ...
        ValueError: the scores of the game are given when, and only when, the game has a goal
        """
        if (game is None) != (self.goal is None):
            raise ValueError("the scores of the game are given when, and only when, the game has a goal")

    def deals_to_come(self, deal_number: int, deals_in_partie: int) -> int:
        """How many deals are known to follow the deal ``deal_number`` (from 1) in the partie.

        >>> RUBICON.deals_to_come(2, 6), RUBICON.deals_to_come(6, 6), FOUR_DEAL.deals_to_come(3, 4)
        (4, 0, 1)
        """
        return max(0, deals_in_partie - deal_number)

    def game_scores(self, scores_after: list[dict[str, int]],
                    lost: Mapping[int, str] = NO_LOSS) -> dict[str, int] | None:
        """The scores the next deal is given, from the running scores after each finished deal: at a game
        of so many up, the game's (nothing after a game is won or lost, p. 20); None at a partie of so many
        deals."""
        return None


class FourDealRules(Rules):
    """By agreement: four deals, the first and last counting double; extra deals single (Law 71, note)."""

    name = "four-deal"
    title = "Rubicon Piquet, the four-deal partie"
    deals = 4

    def multiplier(self, index: int) -> int:
        return 2 if index in (0, self.deals - 1) else 1


#: The agreements of Piquet au cent (p. 19), by name, with their aliases and their words.
AGREEMENTS = {
    "small-cards": "nines, eights and sevens are not counting cards in play",
    "fours": "points ending in four count one less than the number of cards",
}
#: The agreement of any variant: a club table (Laws 52-54 bite).
CLUB: Final = "club"
CLUB_WORDS: Final = "calls are taken at the player's word: a call of cards not held is a miscall, with its penalty"
_AGREEMENT_ALIASES = {
    "club": CLUB, "at-word": CLUB, "calls-at-word": CLUB,
    "small-cards": "small-cards", "small-cards-do-not-count": "small-cards", "nines": "small-cards",
    "fours": "fours", "points-ending-in-four": "fours", "four": "fours",
}


class AuCentRules(Rules):
    """Piquet au cent (p. 16-20): a game of a hundred up, a partie of three games out of five.

    The deal differs from Rubicon Piquet in these particulars: the lower cut
    deals; the deal is by two cards at a time; a younger's carte blanche need
    not be declared until the elder has discarded and touched the stock; the
    younger is not obliged to discard; the elder must call what his point
    makes, the card his sequence is to and the rank of his quatorze or trio,
    and he abides by his call; quatorzes and trios called good are not shown.
    By agreement (p. 19): nines, eights and sevens are not counting cards in
    play (``small_cards_count=False``); points ending in four count one less
    (``fours_count_less=True``).
    """

    name = "au-cent"
    title = "Piquet au cent, a hundred up"
    deals = 0  # a game runs to as many deals as it takes
    extra_deals = 0
    higher_cut_chooses = False
    deal_modes = (2,)
    younger_min_discard = 0
    younger_announces_at_once = False
    calls_state_value = True
    sets_shown = False
    implication_bars = False
    goal = 100
    #: A hundred before the adversary has fifty: a double game (p. 20).
    double_below = 50
    #: Three games out of five, a double counting two (p. 20).
    games_to_win = 3

    def __init__(self, small_cards_count: bool = True, fours_count_less: bool = False) -> None:
        self.small_cards_count = small_cards_count
        self.fours_count_less = fours_count_less
        self.counting_cards = _ALL_CARDS if small_cards_count else _TENS_AND_ABOVE
        self.agreements = tuple(name for name, on in (("small-cards", not small_cards_count),
                                                      ("fours", fours_count_less)) if on)
        if self.agreements:
            self.title = f"Piquet au cent, a hundred up ({'; '.join(AGREEMENTS[a] for a in self.agreements)})"

    def point_score(self, point: int) -> int:
        """One a card; by agreement, a point that makes a number ending in four counts one less (p. 19)."""
        n = point.bit_count()
        if self.fours_count_less and n:
            b = point >> (8 * ((point.bit_length() - 1) >> 3)) & 0xFF
            if sum(_POINT_VALUES[r] for r in range(8) if b >> r & 1) % 10 == 4:
                return n - 1
        return n

    def running_scores(self, deal_scores: Sequence[dict[str, int]],
                       lost: Mapping[int, str] = NO_LOSS) -> list[dict[str, int]]:
        """The score of the game in progress after each deal: a new game starts at nothing (p. 20), after a
        game won or lost by the law (p. 17 (3))."""
        out: list[dict[str, int]] = []
        total = {"A": 0, "B": 0}
        for i, s in enumerate(deal_scores):
            if out and (max(total.values()) >= self.goal or i - 1 in lost):
                total = {"A": 0, "B": 0}
            total = {k: total[k] + s[k] for k in SEATS}
            out.append(total)
        return out

    def games(self, scores_after: list[dict[str, int]], lost: Mapping[int, str] = NO_LOSS) -> tuple[Game, ...]:
        """The games won: a deal ends a game when its running score reaches a hundred (p. 20), or when a player
        loses the game in it by the law (``lost``: a single game to his adversary, p. 17 (3))."""
        out: list[Game] = []
        first = 0
        for i, s in enumerate(scores_after):
            if i in lost:
                out.append(Game(len(out) + 1, first, i, dict(s), "B" if lost[i] == "A" else "A", False, True))
                first = i + 1
                continue
            winners = [k for k in SEATS if s[k] >= self.goal]
            if not winners:
                continue
            winner = winners[0]
            loser = "B" if winner == "A" else "A"
            out.append(Game(len(out) + 1, first, i, dict(s), winner, s[loser] < self.double_below))
            first = i + 1
        return tuple(out)

    def tally(self, games: Sequence[Game]) -> dict[str, int]:
        """Games won by each, a double counting two (p. 20)."""
        t = {"A": 0, "B": 0}
        for g in games:
            t[g.winner] += g.counts
        return t

    def deals_needed(self, scores_after: list[dict[str, int]], lost: Mapping[int, str] = NO_LOSS) -> int:
        """As many as have been played, and one more until a player has won three games."""
        done = max(self.tally(self.games(scores_after, lost)).values()) >= self.games_to_win
        return len(scores_after) + (0 if done else 1)

    def settlement_of(self, scores_after: list[dict[str, int]], finished: bool,
                      lost: Mapping[int, str] = NO_LOSS) -> Settlement:
        """Three games out of five, a double counting two (p. 20): the partie is won in games, not points."""
        games = self.games(scores_after, lost)
        tally = self.tally(games)
        if not finished:
            return Settlement(False, None, False, None, games, tally)
        winner = max(SEATS, key=lambda k: tally[k])
        return Settlement(True, winner, False, None, games, tally)

    def settle(self, scores: dict[str, int], finished: bool = True) -> Settlement:
        raise ValueError("a partie of Piquet au cent is settled by its games, not by two scores: use settlement_of")

    # ------------------------------------------------------------ variants as objects

    partie_of_games = True
    partie_end_law = "p. 20"

    @property
    def line(self) -> int:
        """The game's goal: the first to a hundred wins the game (p. 20).

        >>> AU_CENT.line, AU_CENT.partie_of_games, RUBICON.partie_of_games
        (100, True, False)
        """
        return self.goal if self.goal is not None else self.rubicon

    def is_last_deal(self, deal_number: int, deals_in_partie: int) -> bool:
        """No deal is known to be the last: a game runs to as many deals as it takes (p. 20).

        >>> AU_CENT.is_last_deal(9, 9)
        False
        """
        return False

    def deals_to_come(self, deal_number: int, deals_in_partie: int) -> int:
        """One at least: a game runs to as many deals as it takes (p. 20), and none is known to be the last.

        >>> AU_CENT.deals_to_come(9, 9)
        1
        """
        return 1

    def game_scores(self, scores_after: list[dict[str, int]],
                    lost: Mapping[int, str] = NO_LOSS) -> dict[str, int] | None:
        """The game in progress: nothing at the start and after a game is won (p. 20) or lost (p. 17 (3))."""
        last, goal = scores_after[-1] if scores_after else None, self.goal
        assert goal is not None
        if last is None or max(last.values()) >= goal or len(scores_after) - 1 in lost:
            return {"A": 0, "B": 0}
        return dict(last)


RUBICON = Rules()
FOUR_DEAL = FourDealRules()
AU_CENT = AuCentRules()
RULES: dict[str, Rules] = {r.name: r for r in (RUBICON, FOUR_DEAL, AU_CENT)}


def rules_named(name: str, agreements: Sequence[str] = ()) -> Rules:
    """The rules of that name (``rubicon``, ``four-deal``, ``au-cent``), with the agreements given.

    The agreements may also follow the name after ``+``: ``au-cent+small-cards+fours``.
    """
    base, *more = name.strip().split("+")
    wanted = [*more, *agreements]
    try:
        rules = RULES[base]
    except KeyError:
        raise ValueError(f"unknown rules {name!r}; known: {', '.join(RULES)}") from None
    if not wanted:
        return rules
    club = False
    known = set()
    for a in wanted:
        key = _AGREEMENT_ALIASES.get(a.strip().lower())
        if key is None:
            raise ValueError(f"unknown agreement {a!r}; known: "
                             + "; ".join(f"{k} ({v})" for k, v in {**AGREEMENTS, CLUB: CLUB_WORDS}.items()))
        if key == CLUB:
            club = True
        else:
            known.add(key)
    if known and not isinstance(rules, AuCentRules):
        raise ValueError(f"the agreements {', '.join(sorted(known))} are options of Piquet au cent (p. 19), "
                         f"not of {rules.name}")
    if known:
        assert isinstance(rules, AuCentRules)
        rules = AuCentRules(small_cards_count="small-cards" not in known, fours_count_less="fours" in known)
    return at_club(rules) if club else rules


def at_club(rules: Rules) -> Rules:
    """The same rules at a club table: calls taken at the player's word (the agreement ``club``)."""
    if rules.calls_at_word:
        return rules
    club = copy.copy(rules)
    club.calls_at_word = True
    club.agreements = (*rules.agreements, CLUB)
    club.title = f"{rules.title}, at a club table ({CLUB_WORDS})"
    return club
