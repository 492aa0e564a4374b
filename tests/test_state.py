"""The partie as one state machine (``piquet.core.state``): the cut, the choices, the deals, the end.

The machine is checked against the laws (Law 4: the cut, equal ranks cutting again, the higher choosing;
Law 9: the dealer's mode for the partie; Law 16: dealing alternately; Laws 71-73; Piquet au cent, p. 16-20,
where nobody chooses), and against the loop the terminal ran before it (written out here as it was), for the
same seed and players: the same cards, the same choices, the same record and settlement.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

from piquet.core.actions import PLAYS, Discard
from piquet.core.cards import parse_card, rank_of
from piquet.core.deal import IllegalAction
from piquet.core.partie import Partie, first_dealer_after_cut
from piquet.core.rules import AU_CENT, FOUR_DEAL, RUBICON, Rules, rules_named
from piquet.core.state import (
    CHANCE,
    ChooseDeal,
    Cut,
    DealBy,
    PartieError,
    PartieState,
    SeedChance,
    Shuffle,
    Stage,
    cut_rng,
    deal_rng,
    seed_cut,
)
from piquet.players.base import Player, RandomPlayer, SimplePlayer
from piquet.players.runner import PartieRunner, choice_of, play_action
from piquet.records.record import record_of, replay

AS, AH, KS, SEVEN_H = (parse_card(c) for c in ("AS", "AH", "KS", "7H"))


def cut_state(rules: Rules = RUBICON, a: int = KS, b: int = SEVEN_H) -> PartieState:
    """A partie cut with the cards given, no chance of its own."""
    state = PartieState(rules)
    state.apply(Cut(a, b))
    return state


# ---------------------------------------------------------------- the cut (Law 4)


def test_equal_ranks_cut_again() -> None:
    state = PartieState(RUBICON)
    assert state.stage is Stage.CUT and state.to_act == CHANCE and state.cut is None
    state.apply(Cut(AS, AH))  # two aces: cut again (Law 4)
    assert state.stage is Stage.CUT and state.to_act == CHANCE and state.cut is None and state.chooser is None
    state.apply(Cut(SEVEN_H, KS))
    assert state.cut == (SEVEN_H, KS, "B") and state.stage is Stage.CHOICE and state.to_act == "B"
    assert state.cuts == [Cut(AS, AH), Cut(SEVEN_H, KS)]


def old_cut(seed: int) -> tuple[int, int, str]:
    """The cut for deal as it was made before the state machine (the reference): two cards from
    ``cut_rng(seed)``, again while their ranks are equal; the higher wins (Law 4)."""
    rng = cut_rng(seed)
    while True:
        a, b = rng.sample(range(32), 2)
        if rank_of(a) != rank_of(b):
            return a, b, "A" if rank_of(a) > rank_of(b) else "B"


def test_the_seed_cuts_as_it_always_did() -> None:
    """``SeedChance`` draws the cut from ``cut_rng(seed)`` as the cut for deal always was (two cards sampled,
    equal ranks again), and ``seed_cut`` is its deciding cut: records and tables rebuilt from them depend on it."""
    again = 0
    for seed in range(300):
        state = PartieState(RUBICON, SeedChance(seed))
        done = state.run_chance()
        assert state.cut == seed_cut(seed) == old_cut(seed) and done == state.cuts
        assert all(rank_of(c.a) == rank_of(c.b) for c in done[:-1])
        again += len(done) > 1
    assert again > 0  # some seeds cut equal ranks first


def test_the_seed_shuffles_as_it_always_did() -> None:
    """Deal ``i`` is the pack shuffled by ``deal_rng(seed, i)``, dealt by the partie's mode (Law 9)."""
    for seed in range(20):
        for by in (2, 3):
            state = cut_state()
            state.chance = SeedChance(seed)
            state.apply(ChooseDeal(seed % 2 == 0))
            state.apply(DealBy(by))
            assert state.to_act == CHANCE
            shuffle = state.chance_action()
            assert isinstance(shuffle, Shuffle)
            state.apply(shuffle)
            old = Partie(RUBICON, state.dealer or "A", by)
            old.deal_shuffled(deal_rng(seed, 0))
            assert state.current is not None and old.current is not None
            assert (state.current.dealt, state.current.stock) == (old.current.dealt, old.current.stock)


# ---------------------------------------------------------------- the choices (Laws 4, 9)


@pytest.mark.parametrize(("deals", "by"), [(True, 2), (True, 3), (False, 2), (False, 3)])
def test_the_winner_chooses_the_deal_and_the_dealer_how(deals: bool, by: int) -> None:
    state = cut_state()  # A cut the king: A chooses
    assert state.to_act == "A" and list(state.legal_actions()) == [ChooseDeal(True), ChooseDeal(False)]
    state.apply(ChooseDeal(deals))
    dealer = "A" if deals else "B"
    assert state.stage is Stage.DEAL_BY and state.to_act == dealer and state.dealer == dealer
    assert list(state.legal_actions()) == [DealBy(2), DealBy(3)] and state.partie is None
    state.apply(DealBy(by))
    assert state.partie is not None and (state.partie.first_dealer, state.partie.deal_by) == (dealer, by)
    assert state.stage is Stage.DEALS and state.to_act == CHANCE
    state.chance = SeedChance(5)
    state.run_chance()
    assert len(state.partie.deals) == 1 and state.to_act == ("B" if deals else "A")  # the elder, not the dealer


def test_au_cent_asks_nobody() -> None:
    """p. 16: the lower cut deals, by twos: after the cut chance deals at once."""
    for rules in (AU_CENT, rules_named("au-cent+small-cards+fours")):
        state = cut_state(rules)  # A cut the king, B the seven
        assert state.stage is Stage.DEALS and state.to_act == CHANCE and state.dealer == "B"
        assert state.partie is not None and state.partie.deal_by == 2
        for action in (ChooseDeal(True), ChooseDeal(False), DealBy(2), DealBy(3)):
            with pytest.raises(PartieError, match=r"p\. 16"):
                state.verify(action)


def test_the_seed_and_the_players_answer_the_choices() -> None:
    """``choice_of`` asks the player what the state asks: whether he deals, then how."""
    state = cut_state()
    assert choice_of(SimplePlayer(), state) == ChooseDeal(True)
    state.apply(ChooseDeal(True))
    assert choice_of(SimplePlayer(), state) == DealBy(2)


# ---------------------------------------------------------------- refusals, with the law


def test_illegal_actions_are_refused_with_the_law_and_nothing_changes() -> None:
    state = PartieState(RUBICON)
    refusals = [
        (ChooseDeal(True), "Law 4"), (DealBy(2), "Law 9"), (PLAYS[0], "Laws 4, 9"),
        (Shuffle(tuple(range(32))), "Laws 4, 9"), (Cut(AS, AS), "Law 4"),
    ]
    for action, law in refusals:
        with pytest.raises(PartieError, match=law) as e:
            state.apply(action)
        assert isinstance(e.value, ValueError) and isinstance(e.value, IllegalAction)
        assert state.stage is Stage.CUT and not state.cuts and not state.can(action)
    with pytest.raises(PartieError, match="no chance of its own"):
        state.chance_action()
    state.apply(Cut(KS, SEVEN_H))
    with pytest.raises(PartieError, match="Laws 4, 6"):
        state.apply(Cut(AS, KS))
    with pytest.raises(PartieError, match="chance is not to act"):
        state.chance_action()
    state.apply(ChooseDeal(False))
    with pytest.raises(PartieError, match="Law 4"):
        state.apply(ChooseDeal(True))
    with pytest.raises(PartieError, match="not by 4 .Law 9."):
        state.apply(DealBy(4))
    state.apply(DealBy(3))
    with pytest.raises(PartieError, match="Law 9"):
        state.apply(DealBy(2))
    with pytest.raises(PartieError, match="Law 16"):
        state.apply(Discard(1))
    with pytest.raises(PartieError, match="Laws 9, 75"):
        state.apply(Shuffle((0,) * 32))
    state.apply(Shuffle(tuple(range(32))))
    with pytest.raises(PartieError, match="Law 16"):
        state.apply(Shuffle(tuple(range(32))))
    with pytest.raises(IllegalAction, match="Law"):  # the deal's own refusal: not the elder's to play yet
        state.apply(PLAYS[0])
    assert state.partie is not None and state.partie.deal_by == 3 and len(state.partie.deals) == 1


def test_the_actions_read_like_the_calls() -> None:
    assert repr(Cut(AS, parse_card("10H"))) == "Cut(A AS, B 10H)"
    assert repr(ChooseDeal(True)) == "ChooseDeal(deal)" and str(ChooseDeal(False)) == "ChooseDeal(let the other deal)"
    assert repr(DealBy(3)) == "DealBy(3)"
    assert str(Shuffle(tuple(range(32)))).startswith("Shuffle(7S 8S 9S")
    assert Cut(AS, AH).winner is None and Cut(SEVEN_H, KS).winner == "B"


# ---------------------------------------------------------------- whole parties


def old_runner(players: dict[str, Player], seed: int, rules: Rules) -> Partie:
    """The loop ``PartieRunner`` ran before the state machine, as it was (the reference)."""
    a, b, winner = old_cut(seed)
    deals = players[winner].choose_deal(True) if rules.higher_cut_chooses else True
    dealer = first_dealer_after_cut(rules, winner, deals)
    modes = rules.deal_modes
    by = players[dealer].deal_by() if len(modes) > 1 else modes[0]
    partie = Partie(rules, first_dealer=dealer, deal_by=by)
    while True:
        deal = partie.current
        if deal is None:
            if partie.is_finished:
                break
            deal = partie.deal_shuffled(deal_rng(seed, len(partie.deals)))
        index = len(partie.deals) - 1
        while not deal.is_over:
            seat = partie.seat(index, deal.to_move or 0)
            play_action(players[seat], partial(partie.observation, seat), deal)
    return partie


def drive(state: PartieState, players: dict[str, Player]) -> None:
    """Play a partie through the machine's public face only: who acts, chance's action, the player's."""
    while (actor := state.to_act) is not None:
        if actor == CHANCE:
            state.apply(state.chance_action())
        elif state.stage in (Stage.CHOICE, Stage.DEAL_BY):
            state.apply(choice_of(players[actor], state))
        else:
            state.apply(players[actor].choose(state.observation(actor)))


@pytest.mark.parametrize("rules", [RUBICON, FOUR_DEAL, AU_CENT], ids=lambda r: r.spec)
def test_a_whole_partie_is_the_one_the_old_loop_played(rules: Rules) -> None:
    """For the same seed and players: the same cut, choices, cards and actions, record and settlement."""
    threes = 0
    for seed in range(12):
        def players() -> dict[str, Player]:
            return {"A": RandomPlayer(seed), "B": RandomPlayer(seed + 1000)}  # noqa: B023
        old = old_runner(players(), seed, rules)
        state = PartieState.from_seed(seed, rules)
        drive(state, players())
        runner = PartieRunner(players(), seed, rules).run()
        assert state.is_over and state.partie is not None
        for new in (state.partie, runner):
            assert record_of(new, seed=seed).to_json() == record_of(old, seed=seed).to_json()
            assert new.settlement() == old.settlement() == state.settlement()
        assert state.settlement().finished
        threes += old.deal_by == 3
    assert rules.deal_modes == (2,) or threes > 0


def test_a_resumed_partie_goes_on_with_the_deals_it_would_have_had() -> None:
    seed = 9
    whole = PartieState.from_seed(seed)
    drive(whole, {"A": SimplePlayer(), "B": SimplePlayer()})
    assert whole.partie is not None
    record = record_of(whole.partie, seed=seed)
    record.deals = record.deals[:2]
    resumed = PartieState.resume(replay(record), SeedChance(seed))
    assert resumed.stage is Stage.DEALS and resumed.to_act == CHANCE
    drive(resumed, {"A": SimplePlayer(), "B": SimplePlayer()})
    assert resumed.partie is not None
    assert record_of(resumed.partie, seed=seed).to_json() == record_of(whole.partie, seed=seed).to_json()


def test_random_parties_through_the_public_interface() -> None:
    """Random legal actions from ``legal_actions`` at every step, chance included: each is accepted, the one
    to act is consistent, and every partie ends settled."""
    rng = random.Random(4)
    for n in range(30):
        rules = (RUBICON, FOUR_DEAL, AU_CENT)[n % 3]
        state = PartieState.from_seed(n, rules)
        steps = 0
        while (actor := state.to_act) is not None:
            legal = list(state.legal_actions())
            assert legal, (actor, state.stage)
            if actor == CHANCE:
                assert legal == [state.chance_action()]
            elif state.stage is Stage.DEALS:
                obs = state.observation(actor)
                assert obs.role == state.partie.role(len(state.partie.deals) - 1, actor)  # type: ignore[union-attr]
            action = rng.choice(legal)
            assert state.can(action)
            state.apply(action)
            steps += 1
        assert state.is_over and state.legal_actions() == () and state.settlement().finished
        with pytest.raises(PartieError, match="over"):
            state.verify(PLAYS[0])
        assert steps > 100
