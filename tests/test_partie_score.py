"""The partie's score weighed in every deal: what a partie of so many deals is worth with deals still to come."""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import Play
from piquet.core.cards import CardSet, cards_of
from piquet.core.deal import Deal, Phase
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import Observation, PartieContext, observe
from piquet.core.rules import FOUR_DEAL, RUBICON
from piquet.players import settlement
from piquet.players.base import SimplePlayer
from piquet.players.search import (
    DEEP,
    FULL,
    WITHOUT,
    Judge,
    SearchPlayer,
    after_card,
    fusion_regret,
    pique_need,
    settlement_value,
)
from piquet.players.settlement import RUBICON_DEAL_SCORES, partie_model
from piquet.players.solver import Position, card_values


def test_the_tables_are_distributions() -> None:
    elder, younger, diff = RUBICON_DEAL_SCORES
    assert len(elder) == len(younger) == 36 and len(diff) == 71
    for dist in (elder, younger, diff):
        assert sum(dist) == pytest.approx(1.0, abs=1e-3) and min(dist) >= 0
    # The elder scores more than the younger, on average (p. 117: the elder's advantage).
    assert sum(5 * i * p for i, p in enumerate(elder)) > sum(5 * i * p for i, p in enumerate(younger)) + 5


def test_with_no_deal_to_come_the_value_is_the_settlement() -> None:
    model = partie_model(())
    for mine in range(0, 260, 7):
        for his in range(0, 260, 11):
            assert model.value(mine, his) == settlement_value(mine, his, "rubicon")


@pytest.mark.parametrize("deals", [((True, 1),), ((False, 1), (True, 1), (False, 1)), ((True, 1), (False, 2))])
def test_the_value_is_the_same_seen_from_either_side(deals: tuple[tuple[bool, int], ...]) -> None:
    """The adversary's worth is the player's with the sign changed: roles exchanged, scores exchanged."""
    model = partie_model(deals)
    other = partie_model(tuple((not elder, times) for elder, times in deals))
    for mine, his in ((0, 0), (40, 95), (120, 80), (99, 101), (210, 30)):
        assert model.value(mine, his) == pytest.approx(-other.value(his, mine), abs=1e-6)


def test_more_points_are_worth_more_over_the_line() -> None:
    """Over the line more points are always worth more; far under it, a player who cannot catch up pays his own
    score too (Law 73: the sum of both scores), and the model keeps that."""
    model = partie_model(((False, 1), (True, 1)))
    for his in (0, 60, 100, 180):
        worth = [model.value(mine, his) for mine in range(100, 300, 5)]
        assert all(b > a for a, b in zip(worth, worth[1:], strict=False)), his
    last_but_one = partie_model(((False, 1),))
    assert last_but_one.value(20, 400) < last_but_one.value(10, 400)


def test_a_point_is_worth_most_near_the_line_and_in_a_close_partie() -> None:
    """One deal to come: ten points that lift the player over the rubicon line, or out of a close race, are worth
    more than ten points far ahead (Laws 72-73)."""
    model = partie_model(((True, 1),))

    def ten_more(mine: int, his: int) -> float:
        return model.value(mine + 10, his) - model.value(mine, his)

    far_ahead = ten_more(300, 100)
    assert far_ahead == pytest.approx(10, abs=1.0)  # the difference alone: nothing else in doubt
    assert ten_more(85, 250) > 2 * far_ahead  # under the line, far behind: getting over it saves his score twice
    assert ten_more(150, 150) > 1.5 * far_ahead  # a close partie: the hundred of Law 72 is in play


def test_a_sure_crossing_beats_a_gamble_of_more_points_under_the_line() -> None:
    """At 90 to 200 before the last deal but one, fifteen points for certain (over the line) are worth more than an
    even chance of forty or nothing (twenty on average); at love all the gamble's points are worth more."""
    model = partie_model(((False, 1),))

    def sure(mine: int, his: int) -> float:
        return model.value(mine + 15, his)

    def gamble(mine: int, his: int) -> float:
        return (model.value(mine + 40, his) + model.value(mine, his)) / 2

    assert sure(90, 200) > gamble(90, 200)
    assert gamble(0, 0) > sure(0, 0)


def test_the_four_deal_partie_counts_its_last_deal_double() -> None:
    """In the four-deal partie the last deal counts double (note to Law 71): the model of the third deal's future
    spreads twice as far as the fifth deal's of Rubicon Piquet."""
    single, double = partie_model(((True, 1),)), partie_model(((True, 2),))
    lead = 60  # the player's lead before the last deal
    assert double.value(200 + lead, 200) < single.value(200 + lead, 200)  # the adversary catches up more often


def _obs(deal_number: int, scores: dict[str, int], rules: str = "rubicon", role: int = ELDER) -> Observation:
    deal = Deal.shuffled(random.Random(5))
    multiplier = FOUR_DEAL.multiplier(deal_number - 1) if rules == "four-deal" else 1
    deals = FOUR_DEAL.deals if rules == "four-deal" else RUBICON.deals
    ctx = PartieContext(seat="A", dealer="B" if role == ELDER else "A", deal_number=deal_number,
                        deals_in_partie=deals, rules=rules, scores=scores, multiplier=multiplier)
    return observe(deal, role, ctx)


def test_the_judge_of_every_deal() -> None:
    """``search`` judges only the last deal by the settlement; the top level every deal of a partie, with the
    roles of the deals to come alternating (Law 16) and the four-deal partie's multipliers."""
    first = _obs(1, {"A": 0, "B": 0})
    assert Judge.of(first) is None and not FULL.partie_every_deal and DEEP.partie_every_deal
    judge = Judge.of(first, every_deal=True)
    assert isinstance(judge, Judge) and judge.model is not None
    assert judge.model.deals == ((False, 1), (True, 1), (False, 1), (True, 1), (False, 1))
    younger = Judge.of(_obs(5, {"A": 10, "B": 20}, role=YOUNGER), every_deal=True)
    assert isinstance(younger, Judge) and younger.model is not None and younger.model.deals == ((True, 1),)
    four = Judge.of(_obs(2, {"A": 0, "B": 0}, "four-deal"), every_deal=True)
    assert isinstance(four, Judge) and four.model is not None and four.model.deals == ((False, 1), (True, 2))
    last = Judge.of(_obs(6, {"A": 90, "B": 200}), every_deal=True)
    assert isinstance(last, Judge) and last.model is None
    assert last(20, 0) == settlement_value(110, 200, "rubicon")
    # Before the last deal, the same scores are worth their expected settlement.
    fifth = Judge.of(_obs(5, {"A": 90, "B": 200}), every_deal=True)
    assert isinstance(fifth, Judge)
    assert fifth(20, 0) == pytest.approx(partie_model(((False, 1),)).value(110, 200))


# ---------------------------------------------------------------- the information-set look-ahead in play


def _card(text: str) -> int:
    return CardSet.parse(text).mask.bit_length() - 1


def test_a_card_played_is_the_engines_position() -> None:
    """``after_card`` moves a position as the engine moves the deal: hands, lead, tricks, and the pique still
    live (Laws 65, 68)."""
    for seed in range(4):
        deal = Deal.shuffled(random.Random(seed))
        players = (SimplePlayer(), SimplePlayer())
        while not deal.is_over:
            role = deal.to_move
            assert role is not None
            action = players[role].choose(observe(deal, role))
            before = Position.of_deal(deal, pique=True) if deal.phase == Phase.PLAY else None
            deal.apply(action)
            if before is None or not isinstance(action, Play):
                continue
            moved = after_card(before, action.card)
            if deal.is_over:
                assert moved is None
            elif deal.phase == Phase.PLAY:  # not the younger's reckoning after the first lead (Law 67)
                assert moved == Position.of_deal(deal, pique=True)


def test_fusion_regret_counts_the_guess_the_player_cannot_make() -> None:
    """The elder leads the ace of spades from AS JH JD; the younger holds KH or KD with the other seven.  Open-
    handed, either world is worth a point more than the player can make in both: after the ace (the seven of spades
    follows in both) he must guess which knave to lead."""
    me = CardSet.parse("AS JH JD").mask
    worlds = [CardSet.parse("7S KH 7D").mask, CardSet.parse("7S 7H KD").mask]
    positions = [Position((me, w), ELDER, -1, (5, 4)) for w in worlds]
    ace = _card("AS")
    seen = [(pos, dict.fromkeys(cards_of(me), 1.0)) for pos in positions]
    assert fusion_regret(seen, ace) == 1.0
    assert fusion_regret(seen[:1] * 2, ace) == 0.0  # one world: no guess
    # The other leads tell the worlds apart (the king falls or not) or leave nothing to guess.
    assert fusion_regret(seen, _card("JH")) == 0.0


# ---------------------------------------------------------------- a choice that turns on the partie's score


def _fifth_deal(scores: dict[str, int]) -> Observation:
    """Seed 25 played by the simple player to the elder's lead to the third trick, as the fifth deal of six."""
    deal = Deal.shuffled(random.Random(25))
    simple = SimplePlayer()
    while not (deal.phase == Phase.PLAY and deal.trick == 3 and deal.to_move == ELDER):
        role = deal.to_move
        assert role is not None
        deal.apply(simple.choose(observe(deal, role)))
    ctx = PartieContext(seat="A", dealer="B", deal_number=5, deals_in_partie=6, rules="rubicon", scores=scores)
    return observe(deal, ELDER, ctx)


def test_under_the_line_and_far_behind_the_top_level_plays_for_its_own_points() -> None:
    """The fifth deal of six, 85 to 214 with its scores so far: the elder has some ninety to make in two deals to
    escape the rubicon (Law 73), and his own points count more than the difference.  The top level leads a card
    that makes him more points, at some cost in the difference, where the same level judging points alone (as
    ``search`` does before the last deal) leads the best card for the difference; at love all both lead the same
    card.  (Crossing the line in this deal is out of reach in nearly all its worlds: the points count
    for the last deal.)"""
    plain = WITHOUT["partie-score"]
    level = _fifth_deal({"A": 0, "B": 0})
    assert SearchPlayer(1, DEEP).choose(level) == SearchPlayer(1, plain).choose(level)
    obs = _fifth_deal({"A": 80, "B": 210})
    weighted, points = SearchPlayer(1, DEEP).choose(obs), SearchPlayer(1, plain).choose(obs)
    assert isinstance(weighted, Play) and isinstance(points, Play) and weighted != points
    # In the worlds the decision drew (the player's generator, fresh): the difference and the player's own points,
    # each card played out with both hands open.
    worlds = SearchPlayer(1, DEEP).worlds(obs, DEEP.play_worlds)
    diff = dict.fromkeys((weighted.card, points.card), 0.0)
    mine = diff.copy()
    for w in worlds:
        hand = w.hand(YOUNGER, obs)
        pos = Position((obs.hand, hand), ELDER, obs.lead, obs.tricks_won, pique_need(obs, hand))
        d, g = card_values(pos), card_values(pos, (1, 0))
        for c in diff:
            diff[c] += d[c] / len(worlds)
            mine[c] += g[c] / len(worlds)
    assert diff[weighted.card] < diff[points.card]
    assert mine[weighted.card] > mine[points.card]


@pytest.mark.slow
def test_the_formula_is_the_models_settlement_simulated(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the difference drawn from the two scores apart (as the rubicon terms take them), the formula gives
    what 20,000 parties simulated from the same tables settle at on average (within about three standard
    errors)."""
    elder, younger, _ = RUBICON_DEAL_SCORES
    diff = [0.0] * 71
    for i, p in enumerate(elder):
        for j, q in enumerate(younger):
            diff[max(-35, min(35, i - j)) + 35] += p * q
    monkeypatch.setattr(settlement, "RUBICON_DEAL_SCORES", (elder, younger, tuple(diff)))
    deals = ((True, 1), (False, 1), (True, 2))
    model = settlement.PartieModel(deals)
    rng = random.Random(1)

    def draw(dist: tuple[float, ...]) -> int:
        """A score in steps of five, spread evenly over the points of its step (none below nothing)."""
        step = rng.choices(range(len(dist)), dist)[0]
        return max(0, 5 * step + rng.randint(-2, 2))

    for mine, his in ((0, 0), (80, 200), (150, 150)):
        total = 0
        for _ in range(20_000):
            x = y = 0
            for is_elder, times in deals:
                e, yy = draw(elder), draw(younger)
                x, y = (x + times * e, y + times * yy) if is_elder else (x + times * yy, y + times * e)
            total += settlement_value(mine + x, his + y, "rubicon")
        assert model.value(mine, his) == pytest.approx(total / 20_000, abs=6.0), (mine, his)
