"""Computer players and the game loop: legal play, sensible choices, seeds and resuming."""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import PLAYS, Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft
from piquet.core.cards import HEARTS, SUIT_MASKS, CardSet, card, parse_card
from piquet.core.deal import Deal, IllegalAction, Phase
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import Observation, PartieContext, observe
from piquet.core.partie import Partie
from piquet.core.state import seed_cut
from piquet.players.base import Player, RandomPlayer, SimplePlayer, choose_discard
from piquet.players.levels import LEVEL_NAMES, make_player
from piquet.players.runner import GameListener, PartieRunner, deal_rng, play_deal
from piquet.records.record import record_of, replay


def mask(text: str) -> int:
    return CardSet.parse(text).mask


class Checked:
    """Wraps a player: every action it chooses must be among its observation's legal actions."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.actions = 0

    def choose(self, obs: Observation) -> Action:
        action = self.player.choose(obs)
        assert obs.my_turn
        assert action in set(obs.legal_actions()), (obs.phase, action)
        self.actions += 1
        return action

    def choose_deal(self, won_cut: bool) -> bool:
        return self.player.choose_deal(won_cut)

    def deal_by(self) -> int:
        return self.player.deal_by()


# ---------------------------------------------------------------- legality


@pytest.mark.parametrize("opponent", ["random", "simple"])
def test_simple_player_always_plays_legally(opponent: str) -> None:
    for i in range(40):
        deal = Deal.shuffled(random.Random(i), by=2 + i % 2)
        simple, other = Checked(SimplePlayer()), Checked(make_player(opponent, i))
        if i % 2:
            play_deal(deal, simple, other)
        else:
            play_deal(deal, other, simple)
        assert deal.is_over
        assert simple.actions >= 12


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_parties_are_played_to_their_settlement(seed: int) -> None:
    players = {"A": Checked(SimplePlayer()), "B": Checked(RandomPlayer(seed))}
    partie = PartieRunner(players, seed=seed).run()
    assert partie.is_finished
    assert len(partie.deals) >= 6
    settlement = partie.settlement()
    assert settlement.finished
    a, b = partie.scores["A"], partie.scores["B"]
    assert settlement.winner == ("A" if a > b else "B" if b > a else None)


@pytest.mark.slow
def test_simple_player_beats_random_player() -> None:
    """Over 200 deals, each player elder in half of them, by a wide margin."""
    margin = 0
    for i in range(200):
        deal = Deal.shuffled(random.Random(10_000 + i))
        if i % 2:
            play_deal(deal, SimplePlayer(), RandomPlayer(i))
            margin += deal.total(ELDER) - deal.total(YOUNGER)
        else:
            play_deal(deal, RandomPlayer(i), SimplePlayer())
            margin += deal.total(YOUNGER) - deal.total(ELDER)
    assert margin / 200 > 15


# ---------------------------------------------------------------- discarding


def test_elder_discards_five_and_keeps_his_point() -> None:
    hand = mask("AS 9S  AH KH QH 10H 8H 7H  KC 8C  8D 7D")
    out = choose_discard(hand, 5, elder=True)
    assert out.bit_count() == 5
    assert not out & SUIT_MASKS[HEARTS]  # the point, a sixieme of hearts with a tierce major
    assert not out & mask("AS")  # an ace is kept
    assert out == mask("9S KC 8C 8D 7D")


def test_younger_discards_three_and_keeps_his_point() -> None:
    hand = mask("AS KS QS JS 9S  AH 8H  KC 9C 7C  8D 7D")
    out = choose_discard(hand, 3, elder=False)
    assert out.bit_count() == 3
    assert not out & mask("AS KS QS JS 9S AH")


def test_play_deal_tells_each_role_his_own_place_in_the_partie() -> None:
    """``play_deal``'s ``parties``: the elder is shown his place in the partie at every decision, the younger,
    given none, is shown none."""
    seen: dict[int, list[PartieContext | None]] = {ELDER: [], YOUNGER: []}

    class Watching(SimplePlayer):
        def choose(self, obs: Observation) -> Action:
            seen[obs.role].append(obs.partie)
            return super().choose(obs)

    ctx = PartieContext(seat="A", dealer="B", deal_number=3, deals_in_partie=6, rules="rubicon",
                        scores={"A": 40, "B": 61})
    play_deal(Deal.shuffled(random.Random(7)), Watching(), Watching(), (ctx, None))
    assert seen[ELDER] and all(p == ctx for p in seen[ELDER])
    assert seen[YOUNGER] and all(p is None for p in seen[YOUNGER])


@pytest.mark.slow
def test_simple_player_takes_all_he_may_as_a_rule() -> None:
    """Elder exchanges five, younger all that is left to him, in most deals (p. 119)."""
    elder_five = younger_all = 0
    for i in range(60):
        deal = Deal.shuffled(random.Random(500 + i))
        play_deal(deal, SimplePlayer(), SimplePlayer())
        elder_five += deal.elder_takes == 5
        younger_all += deal.younger_takes == 8 - deal.elder_takes
    assert elder_five >= 45
    assert younger_all >= 54


# ---------------------------------------------------------------- play


def bring_to_play(elder: str, younger: str, takes: str, outs: tuple[str, str], lead: str | None) -> Observation:
    """A deal where each puts out one card and takes one (``takes``: the elder's, then the younger's),
    nobody calls anything, and the elder leads ``lead``: the observation of the player to move."""
    e, y = mask(elder), mask(younger)
    first = [parse_card(c) for c in takes.split()]
    rest = [c for c in range(32) if not (e | y) >> c & 1 and c not in first]
    deal = Deal(e, y, first + rest)
    deal.apply(Discard(mask(outs[0])))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(mask(outs[1])))
    for action in (DeclarePoint(), DeclareSequences(), DeclareSets()):
        deal.apply(action)
    if lead is not None:
        deal.apply(PLAYS[parse_card(lead)])
        for action in (DeclarePoint(), DeclareSequences(), DeclareSets(), LookAtLeft(False)):
            deal.apply(action)
    assert deal.phase == Phase.PLAY
    return observe(deal, deal.to_move or 0)


ELDER_HAND = "9S 8S  KH JH 10H  JC 10C 8C  KD QD JD 9D"
YOUNGER_HAND = "AS QS 10S 7S  QH 9H  AC KC QC  AD 10D 8D"


def test_follows_with_the_cheapest_card_that_wins() -> None:
    obs = bring_to_play(ELDER_HAND, YOUNGER_HAND, "KS JS", ("9D", "8D"), "9S")
    assert obs.hand & SUIT_MASKS[0] == mask("AS QS JS 10S 7S")
    assert SimplePlayer().choose(obs) == PLAYS[parse_card("10S")]


def test_plays_lowest_of_the_suit_when_it_cannot_win() -> None:
    obs = bring_to_play(ELDER_HAND, YOUNGER_HAND, "KS JS", ("9D", "8D"), "KH")
    assert SimplePlayer().choose(obs) == PLAYS[parse_card("9H")]


def test_throws_a_low_card_of_a_short_suit_when_void() -> None:
    younger = "AS QS 10S 7S  QH 9H 7H  AC KC QC 9C  10D"
    obs = bring_to_play("9S 8S  KH JH 10H 8H  JC 10C  AD KD QD JD", younger, "7C JS", ("8H", "10D"), "AD")
    assert obs.hand & SUIT_MASKS[3] == 0  # void in the suit led
    assert SimplePlayer().choose(obs) == PLAYS[card(0, HEARTS)]  # the seven of hearts


def test_leads_its_winning_cards_first() -> None:
    elder = "AH KH QH JH 9H  AS 8S  QC 9C  8D 7D 10D"
    obs = bring_to_play(elder, "KS QS JS 10S 9S  10H  AC KC JC 10C  AD KD", "7H 7S", ("10D", "9S"), None)
    assert obs.role == ELDER and obs.lead < 0
    # The ace of hearts is sure to win, and hearts are the longest suit: it comes before the ace of spades.
    assert SimplePlayer().choose(obs) == PLAYS[parse_card("AH")]


def test_leads_from_its_longest_suit_without_a_winner() -> None:
    elder = "KH QH JH 9H 8H  KS 8S  QC 9C  8D 7D 10D"
    obs = bring_to_play(elder, "AS QS JS 10S 9S  10H  AC KC JC 10C  AD KD", "7H 7S", ("10D", "9S"), None)
    # No card is sure to win; the top of the touching honours of the longest suit drives out the ace.
    assert SimplePlayer().choose(obs) == PLAYS[parse_card("KH")]


# ---------------------------------------------------------------- levels


def test_levels() -> None:
    assert {"random", "simple", "cavendish", "search-fast", "search"} <= set(LEVEL_NAMES)
    assert isinstance(make_player("random", 3), RandomPlayer)
    assert isinstance(make_player("simple"), SimplePlayer)
    with pytest.raises(ValueError, match="unknown level 'strong'"):
        make_player("strong")
    assert SimplePlayer().choose_deal(True) is True  # p. 108
    assert SimplePlayer().deal_by() == 2
    assert RandomPlayer(1).deal_by() in (2, 3)


# ---------------------------------------------------------------- the runner


def test_a_seed_deals_the_same_cards_again() -> None:
    def dealt(seed: int) -> list[tuple[int, int]]:
        partie = PartieRunner({"A": SimplePlayer(), "B": SimplePlayer()}, seed=seed).run()
        return [d.dealt for d in partie.deals]

    assert dealt(42) == dealt(42)
    assert dealt(42) != dealt(43)
    assert seed_cut(5) == seed_cut(5)
    # Each deal's shuffle depends on the seed and the deal's index only.
    assert Deal.shuffled(deal_rng(42, 3)).dealt == Deal.shuffled(deal_rng(42, 3)).dealt
    assert Deal.shuffled(deal_rng(42, 3)).dealt != Deal.shuffled(deal_rng(42, 4)).dealt


class Stop(Exception):
    pass


class StopAfter(GameListener):
    def __init__(self, n: int) -> None:
        self.n = n

    def action_applied(self, partie: Partie, seat: str, action: Action) -> None:
        self.n -= 1
        if self.n == 0:
            raise Stop


def test_a_partie_resumed_from_its_record_goes_on_as_before() -> None:
    def players() -> dict[str, Player]:
        return {"A": SimplePlayer(), "B": SimplePlayer()}

    whole = PartieRunner(players(), seed=9).run()
    runner = PartieRunner(players(), seed=9, listener=StopAfter(150))
    with pytest.raises(Stop):
        runner.run()
    assert runner.partie is not None
    record = record_of(runner.partie, seed=9)
    assert 1 < len(record.deals) < 6
    resumed = PartieRunner(players(), seed=9, partie=replay(record)).run()
    assert record_of(resumed, seed=9).to_json() == record_of(whole, seed=9).to_json()


class Clumsy:
    """Plays a card he does not hold at his first turn to play, then plays as the simple player."""

    def __init__(self) -> None:
        self.inner = SimplePlayer()
        self.refused: list[str] = []
        self.asked: list[Observation] = []

    def choose(self, obs: Observation) -> Action:
        self.asked.append(obs)
        if obs.phase == Phase.PLAY and not self.refused:
            return PLAYS[next(c for c in range(32) if not obs.hand >> c & 1)]
        return self.inner.choose(obs)

    def rejected(self, error: IllegalAction) -> None:
        self.refused.append(str(error))

    def choose_deal(self, won_cut: bool) -> bool:
        return True

    def deal_by(self) -> int:
        return 2


def test_a_refused_action_is_explained_and_asked_again() -> None:
    deal = Deal.shuffled(random.Random(3))
    clumsy = Clumsy()
    play_deal(deal, clumsy, SimplePlayer())
    assert deal.is_over
    assert len(clumsy.refused) == 1 and "is not in the elder hand" in clumsy.refused[0]
    # Asked again from the very same position: the refused card changed nothing.
    i = next(i for i, obs in enumerate(clumsy.asked) if obs.phase == Phase.PLAY)
    assert clumsy.asked[i + 1] == clumsy.asked[i]


class AlwaysWrong(SimplePlayer):
    def choose(self, obs: Observation) -> Action:
        return Discard(0)


def test_a_computer_player_breaking_the_laws_is_an_error() -> None:
    with pytest.raises(IllegalAction, match="at least one card"):
        play_deal(Deal.shuffled(random.Random(3)), AlwaysWrong(), SimplePlayer())
