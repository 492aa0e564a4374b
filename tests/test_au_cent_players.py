"""The computer players, the solver, the worlds and the arena at Piquet au cent (p. 16-20).

* every level plays whole parties of three games out of five, with and
  without the agreements, each choice legal and made from the observation
  alone (a copy given a copy of the observation chooses the same);
* the younger's keeping all his cards (p. 17) is weighed by the players;
* the solver with nines, eights and sevens not counting (p. 19): against
  ``minimax`` on random endings, card by card, against the engine playing the
  solver's best cards, and the compiled core against the pure-Python search;
  equivalent cards are not merged across the line between ten and nine;
* the worlds: the true deal is always admitted and every sampled world is
  rebuilt into the same observation, over random deals at every decision;
  the calls that state the value, the sets named, the younger's carte blanche
  announced late, the younger keeping all his cards;
* the search player's objective: reaching a hundred first, a double game, the
  partie of three games out of five; its exact search of the last tricks
  against the engine;
* the arena, the ladder and the stats report games at Piquet au cent.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from dataclasses import replace

import pytest

from piquet.cli.main import main
from piquet.core.actions import PLAYS, Action, DeclarePoint, Discard, LookAtLeft
from piquet.core.cards import COURT_CARDS, KING, RANK_MASKS, SUIT_MASKS, CardSet, Mask, cards_of, parse_cards
from piquet.core.deal import Deal, Phase, full_declarations
from piquet.core.events import ELDER, GOOD, POINT, YOUNGER, CallValue, NameSet, Reply
from piquet.core.observation import Observation, PartieContext, observe
from piquet.core.partie import Partie
from piquet.core.rules import rules_named
from piquet.core.state import seed_cut
from piquet.players import solver
from piquet.players.base import Player, RandomPlayer, SimplePlayer
from piquet.players.cavendish import CavendishPlayer
from piquet.players.levels import LEVEL_NAMES
from piquet.players.runner import PartieRunner, play_deal
from piquet.players.search import (
    FAST,
    GameJudge,
    Judge,
    SearchPlayer,
    game_model,
    greedy_discard,
    hand_scores_and_play,
    last_deal,
    race_values,
    settlement_value,
    simulate_exchange,
)
from piquet.players.solver import TENS_AND_ABOVE, Position, card_values, card_values_and_nodes, minimax, value
from piquet.players.worlds import Knowledge, World, consistent, game_of, rebuild, sample_worlds
from piquet.study.arena import format_arena, pair_seed, play_partie, run_arena, run_ladder
from piquet.study.stats import run_stats
from repeatable import repeatable_player
from test_solver import legal
from test_solver import random_position as solver_position
from test_worlds import true_world, walk

E, Y = ELDER, YOUNGER
SPECS = ["au-cent", "au-cent+small-cards", "au-cent+fours", "au-cent+small-cards+fours"]


def cs(text: str) -> Mask:
    return CardSet.parse(text).mask


def context(seat: str, game: dict[str, int], games: dict[str, int] | None = None, spec: str = "au-cent",
            dealer: str = "B") -> PartieContext:
    """A partie au cent as it stands before a deal: the game's scores and the games won, by seat."""
    return PartieContext(seat=seat, dealer=dealer, deal_number=1, deals_in_partie=1, rules=spec, scores=game,
                         games=games or {"A": 0, "B": 0}, game_number=1)


def with_context(deal: Deal, obs: Observation, games: dict[str, int] | None = None) -> Observation:
    """The observation with a partie around it: the elder sits at A, the game's scores are the deal's."""
    assert deal.game is not None
    seat = "A" if obs.role == E else "B"
    return replace(obs, partie=context(seat, {"A": deal.game[0], "B": deal.game[1]}, games, deal.rules.spec))


# ---------------------------------------------------------------- every level plays whole parties


class Checked:
    """A player whose every choice is checked: legal from its observation, and the same from a copy of it."""

    def __init__(self, player: Player, twin_every: int) -> None:
        self.player = player
        self.twin_every = twin_every
        self.decisions = 0
        self.kept_all = 0

    def choose(self, obs: Observation) -> Action:
        twin = copy.deepcopy(self.player) if self.decisions % self.twin_every == 0 else None
        action = self.player.choose(obs)
        if isinstance(action, Discard):
            assert action.cards & ~obs.hand == 0
            assert obs.min_discard <= action.cards.bit_count() <= obs.max_discard
            self.kept_all += action.cards == 0
        else:
            assert action in set(obs.legal_actions()), (obs.phase, action)
        if twin is not None:
            assert twin.choose(pickle.loads(pickle.dumps(obs))) == action
        self.decisions += 1
        return action

    def choose_deal(self, won_cut: bool) -> bool:
        return self.player.choose_deal(won_cut)

    def deal_by(self) -> int:
        return self.player.deal_by()


def play_checked(levels: tuple[str, str], spec: str, seed: int, twin_every: int) -> tuple[Partie, list[Checked]]:
    players = [Checked(repeatable_player(level, seed + i), twin_every) for i, level in enumerate(levels)]
    partie = PartieRunner({"A": players[0], "B": players[1]}, seed, rules_named(spec)).run()
    return partie, players


def assert_finished_au_cent(partie: Partie) -> None:
    s = partie.settlement()
    assert partie.is_finished and s.finished and s.points_won is None
    assert s.winner is not None and s.tally[s.winner] >= 3
    assert sum(g.counts for g in s.games if g.winner != s.winner) < 3
    # The deals alternate throughout the partie, whoever won the last game (Law 16).
    assert all(partie.dealer(i) != partie.dealer(i + 1) for i in range(len(partie.deals) - 1))


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("level", ["random", "simple", "cavendish"])
def test_quick_levels_play_whole_parties(level: str, spec: str) -> None:
    for seed in range(2):
        partie, _ = play_checked((level, level), spec, seed, twin_every=1)
        assert_finished_au_cent(partie)
        assert all(d.rules == rules_named(spec) for d in partie.deals)


@pytest.mark.parametrize(("level", "spec"), [("search-fast", "au-cent+small-cards+fours"), ("search", "au-cent"),
                                             ("search-deep", "au-cent+small-cards")])
@pytest.mark.slow
def test_search_levels_play_whole_parties(level: str, spec: str) -> None:
    assert level in LEVEL_NAMES
    partie, _ = play_checked((level, "simple"), spec, 3, twin_every=7)
    assert_finished_au_cent(partie)


def test_the_younger_weighs_keeping_all_his_cards() -> None:
    """Two quatorzes and two quarts major, or a sixieme and a quint with a quart: every card is worth keeping
    (p. 17: he need not discard); a hand of small cards and broken suits is not."""
    rules = rules_named("au-cent")
    quatorzes = cs("AS KS QS JS AH KH QH JH AC KC AD KD")
    sixieme = cs("AS KS QS JS 10S 9S AH KH QH JH 10H AD")
    weak = cs("AS KH QC JD 10S 9H 8C 7D 7S 8H 9C 10D")
    cases: list[tuple[Mask, bool, list[Player]]] = [
        (quatorzes, True, [CavendishPlayer(), SearchPlayer(1, FAST), SearchPlayer(1)]),
        (sixieme, True, [SimplePlayer(), CavendishPlayer(), SearchPlayer(1)]),
        (weak, False, [SimplePlayer(), CavendishPlayer(), SearchPlayer(1, FAST), SearchPlayer(1)]),
    ]
    for younger, keeps, players in cases:
        rest = [c for c in range(32) if not younger >> c & 1]
        random.Random(1).shuffle(rest)
        elder = sum(1 << c for c in rest[:12])
        deal = Deal(elder, younger, rest[12:], rules, (0, 0))
        deal.apply(Discard(sum(1 << c for c in cards_of(elder)[:5])))
        obs = observe(deal, Y, context("B", {"A": 0, "B": 0}))
        assert obs.min_discard == 0 and Discard(0) in set(obs.legal_actions())
        for player in players:
            action = player.choose(obs)
            assert isinstance(action, Discard)
            assert (action.cards == 0) == keeps, (type(player).__name__, action)
        # At Rubicon Piquet he must discard one at least (Law 22): the same hand discards.
        rubicon = Deal(elder, younger, rest[12:])
        rubicon.apply(Discard(sum(1 << c for c in cards_of(elder)[:5])))
        robs = observe(rubicon, Y)
        assert robs.min_discard == 1 and SearchPlayer(1, FAST).choose(robs) != Discard(0)


# ---------------------------------------------------------------- the solver when small cards do not count


def random_counting(rng: random.Random) -> Mask:
    """Tens and above, or in each suit the cards from some rank up."""
    if rng.random() < 0.6:
        return TENS_AND_ABOVE
    return sum((0xFF << rng.randrange(9) & 0xFF) << (8 * s) for s in range(4))


def random_position(rng: random.Random, tricks: int, counting: Mask) -> Position:
    """``test_solver``'s random ending, with these counting cards."""
    return replace(solver_position(rng, tricks), counting=counting)


def child_by_minimax(pos: Position, c: int, weights: tuple[int, int]) -> int:
    """Playing ``c``: its own points (Law 65 with the counting cards; 68-69) and minimax of what follows."""
    me = pos.to_play
    counts = pos.counting >> c & 1
    pts = [0, 0]
    h = list(pos.hands)
    h[me] &= ~(1 << c)
    won = list(pos.tricks_won)
    nxt: Position | None
    if pos.lead < 0:
        pts[me] += counts
        nxt = Position((h[0], h[1]), pos.leader, c, pos.tricks_won, 0, pos.counting)
    else:
        last = h[0] == 0 and h[1] == 0
        winner = me if c >> 3 == pos.lead >> 3 and c > pos.lead else pos.leader
        pts[winner] += (counts if winner == me else 0) + last
        won[winner] += 1
        nxt = None if last else Position((h[0], h[1]), winner, -1, (won[0], won[1]), 0, pos.counting)
    need, pique = pos.pique_need, 0
    if need and pts[Y]:
        need = 0
    elif need and pts[E] >= need:
        pique, need = 30, 0
    elif need:
        need -= pts[E]
    w = {me: weights[0], 1 - me: weights[1]}
    v = w[E] * (pts[E] + pique) - w[Y] * pts[Y]
    if nxt is None:
        for r, sign in ((E, 1), (Y, -1)):
            if won[r] == 12:
                v += sign * 40 * w[r]
            elif won[r] > 6:
                v += sign * 10 * w[r]
        return v if me == E else -v
    nxt = replace(nxt, pique_need=need)
    rest = minimax(nxt, (w[nxt.to_play], w[1 - nxt.to_play]))
    return (v if me == E else -v) + (rest if nxt.to_play == me else -rest)


@pytest.mark.slow
def test_small_cards_solver_equals_minimax() -> None:
    rng = random.Random(19)
    for i in range(900):
        tricks = [1, 2, 3, 4, 4, 5][i % 6]
        pos = random_position(rng, tricks, random_counting(rng))
        weights = rng.choice([(1, 1), (1, 1), (1, 0), (0, 1), (2, 3)])
        expected = minimax(pos, weights)
        for pure in (False, True) if solver.COMPILED else (True,):
            assert solver.value_and_nodes(pos, weights, pure=pure)[0] == expected, (pos, weights, pure)
            values, _ = card_values_and_nodes(pos, weights, pure=pure)
            assert sorted(values) == sorted(legal(pos)) and max(values.values()) == expected
        if tricks <= 3:
            for c in legal(pos):
                assert values[c] == child_by_minimax(pos, c, weights), (pos, c)


def test_a_nine_is_not_the_equal_of_the_ten_above_it() -> None:
    """10S and 9S in one hand are equivalent when every card counts, not when small cards do not (p. 19)."""
    hands = (cs("10S 9S"), cs("JS 7H"))
    ten, nine = CardSet.parse("10S").mask.bit_length() - 1, CardSet.parse("9S").mask.bit_length() - 1
    for pure in (False, True):
        every, _ = card_values_and_nodes(Position(hands, E, tricks_won=(5, 5)), pure=pure)
        assert every[ten] == every[nine] == -12
        small, _ = card_values_and_nodes(Position(hands, E, tricks_won=(5, 5), counting=TENS_AND_ABOVE), pure=pure)
        assert small == {ten: -11, nine: -12}


def test_the_counting_cards_are_checked() -> None:
    with pytest.raises(ValueError, match="from some rank up"):
        Position((cs("AS"), cs("KS")), E, tricks_won=(6, 5), counting=cs("AS 9S"))
    assert Position((cs("AS"), cs("KS")), E, tricks_won=(6, 5), counting=0).counting == 0


def to_first_lead(rng: random.Random, spec: str) -> Deal:
    """A random deal au cent at love all up to the elder's first lead: random exchanges, full calls."""
    deal = Deal.shuffled(rng, rules=rules_named(spec), game=(0, 0))
    actions = deal.legal_actions()
    while deal.phase != Phase.PLAY:
        if deal.phase in (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD, Phase.ELDER_LOOK):
            deal.apply(actions.sample(rng))
        else:
            role = deal.to_move
            assert role is not None
            deal.apply(full_declarations(deal.hands[role])[(deal.phase - Phase.ELDER_POINT) // 2])
    return deal


def test_best_play_through_the_engine_scores_the_value_when_small_cards_do_not_count() -> None:
    rng = random.Random(23)
    played = 0
    while played < 6:
        deal = to_first_lead(rng, "au-cent+small-cards")
        pos = Position.of_deal(deal, pique=True)
        assert pos.counting == TENS_AND_ABOVE
        me = pos.to_play
        start = deal.total(me) - deal.total(1 - me)
        expected = value(pos)
        while deal.phase == Phase.PLAY:
            pos = Position.of_deal(deal, pique=True)
            values = card_values(pos)
            best = max(values, key=lambda c: values[c])
            assert values[best] == value(pos)
            deal.apply(PLAYS[best])
            while deal.phase not in (Phase.PLAY, Phase.DONE):  # the younger reckons in full, and looks
                if deal.phase == Phase.YOUNGER_LOOK:
                    deal.apply(LookAtLeft(False))
                else:
                    deal.apply(full_declarations(deal.hands[Y])[deal.phase - Phase.YOUNGER_RECKON_POINT])
        if deal.game_won is not None:
            continue  # a hundred reached in one deal: the deal stopped, which the solver does not see
        # The hands are reckoned after the first lead is named (Law 67): their points are not the play's.
        hands = sum(deal.scores[r][k] * (1 if r == me else -1) for r in (E, Y) for k in (1, 2, 3, 7))
        assert deal.total(me) - deal.total(1 - me) - start - hands == expected
        played += 1


@pytest.mark.slow
def test_compiled_and_pure_agree_when_small_cards_do_not_count(monkeypatch: pytest.MonkeyPatch) -> None:
    if not solver.COMPILED:  # a skip would hide a core that no longer builds
        pytest.fail("the compiled core piquet.players._csolver is not built: `pip install -e .` builds it (it needs "
                    "a C compiler and the Python headers)", pytrace=False)
    rng = random.Random(29)
    for i in range(120):
        tricks = 12 if i % 20 == 0 else rng.randint(3, 8)
        pos = random_position(rng, tricks, random_counting(rng))
        weights = rng.choice([(1, 1), (1, 0), (3, 2)])
        v = solver.value_and_nodes(pos, weights)[0]
        assert v == solver.value_and_nodes(pos, weights, pure=True)[0]
        if tricks < 12:
            assert card_values_and_nodes(pos, weights)[0] == card_values_and_nodes(pos, weights, pure=True)[0]
    # A core built before the counting cards is given only positions where every card counts.
    monkeypatch.setattr(solver, "_C_COUNTING", False)
    pos = random_position(random.Random(1), 5, TENS_AND_ABOVE)
    assert not solver._use_c(pos, (1, 1), False)
    assert value(pos) == minimax(pos)


# ---------------------------------------------------------------- the worlds


def check_observation(deal: Deal, obs: Observation, rng: random.Random, honest_truth: bool) -> None:
    truth = true_world(deal)
    assert consistent(obs, truth), "the true deal was excluded"
    assert Knowledge.of(obs).admits(truth)
    if honest_truth:
        assert consistent(obs, truth, honest=True)
    adv = 1 - obs.role
    for honest in (True, False):
        for w in sample_worlds(obs, rng, 2, honest=honest):
            again = rebuild(obs, w)
            assert again.rules == obs.rules and again.game == game_of(obs)
            assert replace(observe(again, obs.role), partie=None) == replace(obs, partie=None)
            hand = w.hand(adv, obs)
            assert hand & (obs.hand | obs.discard | obs.played()) == 0
            assert hand.bit_count() == 12 - obs.played(adv).bit_count()
            if honest and honest_truth:
                assert consistent(obs, w, honest=True)


class KeepsAll(SimplePlayer):
    """The simple player who, younger, keeps all his cards (p. 17)."""

    def choose(self, obs: Observation) -> Action:
        return Discard(0) if obs.phase == Phase.YOUNGER_DISCARD else super().choose(obs)


@pytest.mark.parametrize("spec", SPECS)
def test_sampled_worlds_agree_with_every_observation_au_cent(spec: str) -> None:
    rules = rules_named(spec)
    for seed in range(10):
        rng = random.Random(seed)
        game = rng.choice([(0, 0), (80, 90), (45, 95), (96, 30), (60, 20)])
        deal = Deal.shuffled(rng, rules=rules, game=game)
        kind = seed % 4
        players: tuple[Player, Player] = [
            (SimplePlayer(), SimplePlayer()), (RandomPlayer(seed), RandomPlayer(seed + 1)),
            (SimplePlayer(), KeepsAll()), (RandomPlayer(seed), KeepsAll())][kind]
        games = {"A": rng.randrange(3), "B": rng.randrange(3)}

        def visit(d: Deal, obs: Observation, rng: random.Random = rng, kind: int = kind,
                  games: dict[str, int] = games) -> None:
            check_observation(d, with_context(d, obs, games), rng, honest_truth=kind in (0, 2))

        walk(deal, players, visit)
        if kind >= 2:
            assert deal.discards[Y] == 0 or deal.history[0] == Discard(0)


def test_the_younger_who_keeps_all_took_nothing() -> None:
    deal = Deal.shuffled(random.Random(5), rules=rules_named("au-cent"), game=(0, 0))
    players = (SimplePlayer(), KeepsAll())
    while deal.phase != Phase.ELDER_POINT:
        role = deal.to_move
        assert role is not None
        deal.apply(players[role].choose(observe(deal, role)))
    obs = with_context(deal, observe(deal, E))
    assert obs.exchanged(Y) == 0
    for w in sample_worlds(obs, random.Random(1), 30):
        assert w.discards[Y] == 0 and w.taken(Y, obs) == 0 and w.held(Y, obs) == w.dealt[Y]
        assert consistent(obs, w)


def test_before_the_elders_discard_no_carte_blanche_is_announced_by_the_younger() -> None:
    """The elder holds every court card, so the younger has a carte blanche: at Piquet au cent he need not
    announce it until the elder has discarded (p. 16), so nothing is said, and every world agrees."""
    elder = COURT_CARDS
    rest = [c for c in range(32) if not elder >> c & 1]
    random.Random(2).shuffle(rest)
    younger = sum(1 << c for c in rest[:12])
    deal = Deal(elder, younger, rest[12:], rules_named("au-cent"), (0, 0))
    assert deal.events == []
    obs = with_context(deal, observe(deal, E))
    assert consistent(obs, true_world(deal)) and Knowledge.of(obs).admits(true_world(deal))
    worlds = sample_worlds(obs, random.Random(3), 20)
    assert worlds and all(not w.dealt[Y] & COURT_CARDS and consistent(obs, w) for w in worlds)
    # After his discard it is announced and shown: the worlds hold the younger's twelve exactly.
    deal.apply(Discard(cs("KS QS JS KH QH")))
    obs = with_context(deal, observe(deal, E))
    assert [e.kind for e in deal.events][:3] == ["exchange", "carte_blanche", "carte_blanche_shown"]
    assert all(w.dealt[Y] == younger for w in sample_worlds(obs, random.Random(4), 5))
    # At Rubicon Piquet the same cards announce it at once (Law 20).
    assert [e.kind for e in Deal(elder, younger, rest[12:]).events] == ["carte_blanche"]


def trio_of_kings_deal() -> Deal:
    """The elder puts out the king of diamonds and calls three kings, good against three knaves: he names
    them, and does not show them (p. 18)."""
    elder = cs("KS KH KC KD AS QS JS 9H 8H 7H 9C 8C")
    younger = cs("AH QH JH 10H AC QC JC 10C 7S 8S 9D 8D")
    stock = parse_cards("10S 9S 7C AD QD JD 10D 7D")
    deal = Deal(elder, younger, stock, rules_named("au-cent"), (0, 0))
    deal.apply(Discard(cs("KD 9H 8H 7H 9C")))
    deal.apply(Discard(cs("7S 8S 9D")))
    while deal.phase != Phase.PLAY:
        role = deal.to_move
        assert role is not None
        deal.apply(full_declarations(deal.hands[role])[(deal.phase - Phase.ELDER_POINT) // 2])
    return deal


def test_a_trio_named_tells_the_rank_not_the_cards() -> None:
    deal = trio_of_kings_deal()
    named = [e for e in deal.events if type(e) is NameSet]
    assert named == [NameSet(E, 3, KING)]
    obs = with_context(deal, observe(deal, Y))
    kings = RANK_MASKS[KING]
    assert obs.hand & kings == 0 and obs.visible_cards() & kings == cs("KS")  # shown in his point, not the others
    assert consistent(obs, true_world(deal), honest=True)
    honest = sample_worlds(obs, random.Random(5), 200, honest=True)
    lawful = sample_worlds(obs, random.Random(5), 200, honest=False)
    assert all((w.held(E, obs) & kings).bit_count() == 3 for w in honest)
    assert len({w.held(E, obs) & kings for w in honest}) > 1, "which three kings is not told"
    assert all((w.held(E, obs) & kings).bit_count() >= 3 for w in lawful)
    assert any((w.held(E, obs) & kings).bit_count() == 4 for w in lawful), "a trio may be named out of a quatorze"
    assert all(consistent(obs, w) for w in honest[:20] + lawful[:20])


def test_a_point_good_at_au_cent_may_be_of_as_many_cards() -> None:
    """The elder's call states what the point makes (p. 18); "Good" says the younger's was lower, in cards or
    in value: five cards making less than fifty, or fewer cards."""
    elder = cs("AH KH QH JH 9H AC KC QC 7D 8D 9D 7C")
    younger = cs("KS QS JS 10S 9S AD KD QD 10H 8C 9C 10C")
    stock = parse_cards("8H 7H 8S 7S JC JD 10D AS")
    deal = Deal(elder, younger, stock, rules_named("au-cent"), (0, 0))
    for action in (Discard(cs("7D 8D")), LookAtLeft(False), Discard(cs("8C")),
                   DeclarePoint(cs("AH KH QH JH 9H")), DeclarePoint(cs("KS QS JS 10S 9S"))):
        deal.apply(action)
    kinds = [e.kind for e in deal.events]
    call = kinds.index("call_point")
    assert kinds[call:call + 3] == ["call_point", "call_value", "reply"] and "ask_value" not in kinds
    reply = deal.events[call + 2]
    assert deal.events[call + 1] == CallValue(E, 50) and reply == Reply(YOUNGER, POINT, GOOD)  # 49 against 50: "Good"
    obs = with_context(deal, observe(deal, E))
    worlds = sample_worlds(obs, random.Random(6), 300, honest=True)
    fives = 0
    for w in worlds:
        held = w.held(Y, obs)
        for s in range(4):
            suit = held & SUIT_MASKS[s]
            assert suit.bit_count() <= 5
            if suit.bit_count() == 5:
                fives += 1
                assert sum((7, 8, 9, 10, 10, 10, 10, 11)[c & 7] for c in cards_of(suit)) < 50
    assert fives, "as many cards, making less, is a good reply"
    assert all(consistent(obs, w) for w in worlds[:20])


def test_rebuilding_a_deal_that_reached_the_goal() -> None:
    rules = rules_named("au-cent+small-cards")
    for seed in range(40):
        deal = Deal.shuffled(random.Random(seed), rules=rules, game=(92, 44))
        play_deal(deal, SimplePlayer(), SimplePlayer())
        if deal.game_won is not None and len(deal.history) < 30:
            break
    else:
        pytest.fail("no deal reached the goal in its play")
    for role in (E, Y):
        obs = with_context(deal, observe(deal, role))
        assert game_of(obs) == (92, 44)
        again = rebuild(obs, true_world(deal))
        assert again.game_won == deal.game_won and again.is_over
        without = replace(obs, partie=None)
        assert game_of(without) == (0, 0) and not consistent(without, true_world(deal))


# ---------------------------------------------------------------- the search player's objective


def judge_at(mine: int, his: int, games: tuple[int, int] = (0, 0), role: int = E) -> GameJudge:
    deal = Deal.shuffled(random.Random(1), rules=rules_named("au-cent"), game=(mine, his) if role == E else (his, mine))
    seat, other = ("A", "B")
    obs = observe(deal, role, context(seat, {seat: mine, other: his}, {seat: games[0], other: games[1]}))
    return GameJudge(obs)


def test_the_judge_weighs_the_game_and_the_partie() -> None:
    judge = judge_at(95, 95)
    m = game_model()
    # Five in the hand reaches a hundred before the adversary's thirty in play: the game, whatever the points.
    assert judge(5, 30, (5, 0)) == pytest.approx(m.won(1, 0)) == judge(50, 30, (5, 0))
    assert judge(30, 5, (0, 5)) == pytest.approx(m.won(0, 1))
    assert m.won(1, 0) > judge.goes_on(0, 0) > m.won(0, 1)
    # A hundred before the adversary has fifty is a double game, worth more (p. 20).
    near = judge_at(90, 45)
    assert near(12, 3) > near(12, 6)  # he has 47.5 or 50 when the tenth point comes
    assert near(12, 3) == pytest.approx(near.model.won(2, 0))
    assert near(12, 6) == pytest.approx(near.model.won(1, 0))
    # Points are worth more, and the adversary's less, when nobody reaches the goal.
    far = judge_at(20, 20)
    assert far(30, 10) > far(20, 10) > far(20, 20)
    # The partie: three games out of five, a double counting two.
    assert m.won(0, 0) == pytest.approx(0.5) and m.won(3, 0) == 1.0 and m.won(0, 3) == 0.0
    assert m.won(1, 0) < m.won(2, 0) < 1.0 and m.won(2, 1) < m.won(2, 0) and m.won(1, 2) < m.won(2, 1)
    assert judge_at(20, 20, (2, 0))(10, 10) > judge_at(20, 20, (0, 2))(10, 10)
    for e in (0, 1):
        for row in m.outcomes[e]:
            for o in row:
                assert sum(o) == pytest.approx(1.0)


def test_not_settled_in_points() -> None:
    deal = Deal.shuffled(random.Random(2), rules=rules_named("au-cent"), game=(0, 0))
    obs = observe(deal, E, context("A", {"A": 0, "B": 0}))
    assert not last_deal(obs) and isinstance(Judge.of(obs), GameJudge)
    with pytest.raises(ValueError, match="won in games"):
        settlement_value(120, 80, "au-cent")
    rubicon_last = PartieContext(seat="A", dealer="B", deal_number=6, deals_in_partie=6, rules="rubicon")
    assert last_deal(observe(Deal.shuffled(random.Random(2)), E, rubicon_last))


def test_the_last_tricks_race_to_the_hundred() -> None:
    """Both at ninety-eight: leading the ace first reaches a hundred with the seven led next; the seven first
    makes one point more in the deal, but the adversary reaches a hundred first (p. 20)."""
    judge = judge_at(98, 98)
    pos = Position((cs("AS 7H"), cs("KS 8H")), E, tricks_won=(5, 5))
    ace, seven = cs("AS").bit_length() - 1, cs("7H").bit_length() - 1
    points = card_values(pos)
    assert points[seven] > points[ace]  # the solver, blind to the goal, leads the seven
    race = race_values(pos, E, (0, 0), judge)
    assert race[ace] == pytest.approx(judge.game_over(True, False))
    assert race[seven] == pytest.approx(judge.game_over(False, False))
    # Far from the goal the race is the points: the seven, and the deal goes on.
    far = judge_at(20, 20)
    race = race_values(pos, E, (0, 0), far)
    assert race[seven] > race[ace] and race[seven] == pytest.approx(far.goes_on(3, 2))


def engine_worth(deal: Deal, me: int, judge: GameJudge) -> float:
    """Minimax through the engine: the worth of its GAME event, or of the deal's totals."""
    if deal.is_over:
        won = deal.game_won
        if won is not None:
            return judge.game_over(won[0] == me, won[1])
        return judge.goes_on(deal.total(me), deal.total(1 - me))
    role = deal.to_move
    worths = []
    for action in list(deal.legal_actions()):
        deal.apply(action)
        worths.append(engine_worth(deal, me, judge))
        deal.undo()
    return max(worths) if role == me else min(worths)


@pytest.mark.parametrize("spec", ["au-cent", "au-cent+small-cards"])
def test_the_race_scores_as_the_engine(spec: str) -> None:
    rules = rules_named(spec)
    checked = 0
    for seed in range(90):
        rng = random.Random(seed)
        game = (rng.randrange(60, 100), rng.randrange(30, 100))
        deal = Deal.shuffled(rng, rules=rules, game=game)
        players = (SimplePlayer(), RandomPlayer(seed))
        stop = rng.choice([9, 10, 11])
        while not deal.is_over and not (deal.phase == Phase.PLAY and deal.trick > stop):
            role = deal.to_move
            assert role is not None
            deal.apply(players[role].choose(observe(deal, role)))
        if deal.is_over:
            continue
        me = deal.to_move
        assert me is not None
        seat, other = ("A", "B") if me == E else ("B", "A")
        obs = observe(deal, me, context(seat, {"A": game[0], "B": game[1]}, {seat: rng.randrange(3), other: 1},
                                        spec))
        judge = GameJudge(obs)
        worths = race_values(Position.of_deal(deal, pique=True), me, (deal.total(E), deal.total(Y)), judge)
        for c, worth in worths.items():
            deal.apply(PLAYS[c])
            assert worth == pytest.approx(engine_worth(deal, me, judge), abs=1e-12)
            deal.undo()
            checked += 1
    assert checked > 40


def test_simulating_the_true_world_au_cent_scores_what_the_engine_scores() -> None:
    rules = rules_named("au-cent+small-cards+fours")
    for seed in range(8):
        deal = Deal.shuffled(random.Random(seed), rules=rules, game=(0, 0))
        world = World(deal.dealt, deal.stock, (0, 0))
        out = sum(1 << c for c in cards_of(deal.hands[E])[:5])
        net = simulate_exchange(world, E, out, rules=rules, game=(0, 0))
        deal.apply(Discard(out))
        deal.apply(Discard(greedy_discard(deal.hands[Y], deal.max_discard(Y), False)))
        while deal.phase not in (Phase.PLAY, Phase.DONE):
            role = deal.to_move
            assert role is not None
            deal.apply(full_declarations(deal.hands[role])[(deal.phase - Phase.ELDER_POINT) // 2])
        elder, younger, pos = hand_scores_and_play(deal)
        assert pos.counting == TENS_AND_ABOVE
        assert net == elder - younger + value(pos)


# ---------------------------------------------------------------- the arena, the ladder and the stats


@pytest.mark.slow
def test_the_arena_reports_games_at_au_cent(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_arena("cavendish", "simple", parties=4, seed=3, workers=1, rules="au-cent+small-cards")
    s = report.summary()
    assert s["in_games"] and s["rules"] == "au-cent+small-cards" and s["parties"] == 4
    assert s["player1"]["win_rate"]["rate"] + s["player2"]["win_rate"]["rate"] == pytest.approx(1.0)
    for r in report.results:
        assert r.winner is not None and r.games[r.winner] >= 3 > r.games[1 - r.winner]
        assert r.points == 0 and not r.rubicon and r.games_played >= 2
        assert sum(r.doubles) <= r.games_played
    margin, half = report.games()
    assert s["games_per_partie"]["mean"] == round(margin, 3)
    assert s["deals_per_partie"]["mean"] == round(s["deals"] / 4, 3)
    assert s["player1"]["doubles"] == sum(r.doubles[0] for r in report.results)
    text = format_arena(s)
    assert "games per partie to cavendish" in text and "deals per partie" in text and "rubicon" not in text
    assert main(["arena", "simple", "random", "--parties", "2", "--workers", "1", "--rules", "au-cent",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["in_games"] and doc["player1"]["games_per_partie"]["mean"] >= 3
    # Rubicon reports are as they were.
    rub = run_arena("simple", "random", parties=2, seed=3, workers=1).summary()
    assert "in_games" not in rub and "points_per_partie" in rub and "draw_rate" in rub


def test_at_au_cent_the_lower_cut_deals_first() -> None:
    seed, pair = 7, 0
    _, _, higher = seed_cut(pair_seed(seed, pair))
    for mirrored in (False, True):
        r = play_partie(("simple", "random"), seed, pair, mirrored, rules_named("au-cent"))
        seat_of = ("A", "B") if not mirrored else ("B", "A")
        assert r.deal_results[0].elder == seat_of.index(higher)  # the higher cut is elder: the lower deals
        rub = play_partie(("simple", "random"), seed, pair, mirrored)
        assert rub.deal_results[0].elder != seat_of.index(higher)  # at rubicon the higher cut elects to deal


def test_the_ladder_and_the_stats_at_au_cent(capsys: pytest.CaptureFixture[str]) -> None:
    ladder = run_ladder(["random", "simple"], parties=2, seed=1, workers=1, rules="au-cent")
    rows = {row["level"]: row for row in ladder.summary()["levels"]}
    assert rows["random"]["games"] == 0 and rows["simple"]["games"] > 0
    assert main(["ladder", "--levels", "random,simple", "--parties", "2", "--workers", "1", "--rules",
                 "au-cent+fours"]) == 0
    assert "games fitted" in capsys.readouterr().out
    stats = run_stats("simple", "random", deals=13, seed=1, workers=1, rules="au-cent+small-cards").summary()
    assert stats["partie"]["in_games"] and stats["rules"] == "au-cent+small-cards"
    assert stats["player1"]["games_per_partie"]["mean"] >= 3
    assert stats["partie"]["deals_per_partie"]["mean"] == round(stats["deals"] / stats["parties"], 3)
