"""Piquet au cent in the core (p. 16-20): the deal's particulars, the game of a hundred up, the partie of games.

Deals are built card by card to exercise each law; random deals check the rest against independent reckonings.
"""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import TEN, CardSet, Mask, parse_card, rank_of
from piquet.core.deal import Deal, IllegalAction, Phase, full_declarations
from piquet.core.events import (
    ASK_VALUE,
    CALL_VALUE,
    CARTE_BLANCHE,
    CARTE_BLANCHE_SHOWN,
    ELDER,
    EXCHANGE,
    GAME,
    GOOD,
    NOT_GOOD,
    POINT,
    REPLY,
    S_CARTE_BLANCHE,
    S_PLAY,
    S_SETS,
    SCORE,
    SETS,
    SHOW,
    YOUNGER,
    CallPoint,
    CallValue,
    Exchange,
    GameWon,
    NameSet,
    Reply,
    Score,
    Show,
)
from piquet.core.events import Play as PlayEvent
from piquet.core.observation import observe
from piquet.core.partie import Partie, first_dealer_after_cut
from piquet.core.rules import AU_CENT, FOUR_DEAL, RUBICON, AuCentRules, Game, rules_named


def m(text: str) -> Mask:
    return CardSet.parse(text).mask


def stock(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def exchange(deal: Deal, elder: str, younger: str) -> None:
    """The elder discards (and does not look at what he leaves), then the younger."""
    deal.apply(Discard(m(elder)))
    if deal.phase == Phase.ELDER_LOOK:
        deal.apply(LookAtLeft(False))
    deal.apply(Discard(m(younger)))


def kinds(deal: Deal) -> list[str]:
    return [e.kind for e in deal.events]


# ---------------------------------------------------------------- the rules object


def test_rules_named_reads_the_agreements_and_refuses_what_it_cannot() -> None:
    assert rules_named("au-cent") == AU_CENT and AU_CENT.agreements == ()
    both = rules_named("au-cent+small-cards+fours")
    assert both == rules_named("au-cent", ["points-ending-in-four", "nines"]) == AuCentRules(False, True)
    assert both.agreements == ("small-cards", "fours") and rules_named(both.spec) == both
    assert "nines, eights and sevens" in both.title and "ending in four" in both.title
    assert both != AU_CENT and hash(both) == hash(AuCentRules(False, True))
    with pytest.raises(ValueError, match="unknown agreement 'trumps'"):
        rules_named("au-cent+trumps")
    with pytest.raises(ValueError, match="options of Piquet au cent"):
        rules_named("rubicon", ["fours"])
    with pytest.raises(ValueError, match="unknown rules"):
        rules_named("au-mille")
    with pytest.raises(ValueError, match="settled by its games"):
        AU_CENT.settle({"A": 100, "B": 20})


def test_the_lower_cut_deals_and_by_twos_only() -> None:
    """p. 16: "The player who cuts the lower card has to deal"; "The deal is by two cards at a time"."""
    assert first_dealer_after_cut(AU_CENT, "A", winner_deals=True) == "B"
    assert first_dealer_after_cut(AU_CENT, "B", winner_deals=True) == "A"
    assert first_dealer_after_cut(RUBICON, "A", winner_deals=True) == "A"  # Law 4: the higher cut's choice
    assert first_dealer_after_cut(RUBICON, "A", winner_deals=False) == "B"
    with pytest.raises(ValueError, match="by two cards"):
        Partie(AU_CENT, deal_by=3)
    Partie(RUBICON, deal_by=3)


# ---------------------------------------------------------------- the exchange


def random_deal(seed: int, rules: AuCentRules = AU_CENT) -> Deal:
    return Deal.shuffled(random.Random(seed), rules=rules, game=(0, 0))


def test_the_younger_need_not_discard() -> None:
    """p. 17: "The younger hand is not obliged to discard any card"; the elder still must (Law 21)."""
    deal = random_deal(1)
    with pytest.raises(IllegalAction, match="at least one"):
        deal.apply(Discard(0))
    n = deal.hands[ELDER].bit_count()
    deal.apply(Discard(deal.hands[ELDER] & -deal.hands[ELDER]))
    if deal.phase == Phase.ELDER_LOOK:
        deal.apply(LookAtLeft(False))
    younger = deal.hands[YOUNGER]
    options = list(deal.legal_actions())
    assert Discard(0) in options and Discard(0) in deal.legal_actions()
    assert len(deal.legal_actions()) == len(options) == sum(1 for _ in options)
    assert observe(deal, YOUNGER).min_discard == 0 and Discard(0) in list(observe(deal, YOUNGER).legal_actions())
    deal.apply(Discard(0))
    assert deal.hands[YOUNGER] == younger and deal.phase == Phase.ELDER_POINT
    assert deal.events[-1] == Exchange(YOUNGER, 0, 8 - 1)
    assert n == 12
    # The rubicon game refuses it (Law 22).
    rubicon = Deal.shuffled(random.Random(1))
    rubicon.apply(Discard(rubicon.hands[ELDER] & -rubicon.hands[ELDER]))
    if rubicon.phase == Phase.ELDER_LOOK:
        rubicon.apply(LookAtLeft(False))
    with pytest.raises(IllegalAction, match="at least one card"):
        rubicon.apply(Discard(0))
    assert Discard(0) not in list(rubicon.legal_actions())


def test_a_younger_who_keeps_his_cards_may_look_at_all_that_are_left() -> None:
    deal = random_deal(2)
    deal.apply(Discard(deal.hands[ELDER] & -deal.hands[ELDER]))
    deal.apply(LookAtLeft(True))
    deal.apply(Discard(0))
    for action in full_declarations(deal.hands[ELDER]):
        if deal.phase in (Phase.ELDER_POINT, Phase.ELDER_SEQUENCES, Phase.ELDER_SETS):
            deal.apply(action)
        while deal.phase in (Phase.YOUNGER_POINT, Phase.YOUNGER_SEQUENCES, Phase.YOUNGER_SETS):
            deal.apply(full_declarations(deal.hands[YOUNGER])[(deal.phase - Phase.YOUNGER_POINT) // 2])
    assert deal.phase == Phase.PLAY
    deal.apply(Play(deal.hands[ELDER].bit_length() - 1))
    while deal.phase in (Phase.YOUNGER_RECKON_POINT, Phase.YOUNGER_RECKON_SEQUENCES, Phase.YOUNGER_RECKON_SETS):
        deal.apply(full_declarations(deal.hands[YOUNGER])[deal.phase - Phase.YOUNGER_RECKON_POINT])
    assert deal.phase == Phase.YOUNGER_LOOK
    deal.apply(LookAtLeft(True))
    left = deal.left_by_younger()
    assert len(left) == 7 and observe(deal, ELDER).seen_left == sum(1 << c for c in left)


# A younger's carte blanche: twelve cards without king, queen or knave.
CB_YOUNGER = "AS 10S 9S 8S 7S AH 10H 9H 8H 7H AC 10C"
CB_ELDER = "9C 8C 7C AD 10D 9D 8D 7D KS QS JS KH"
CB_STOCK = "QH JH KC QC JC KD QD JD"


def test_the_younger_announces_his_carte_blanche_after_the_elder_has_discarded() -> None:
    """p. 16: he "need not declare it until his adversary has discarded and touched the stock"; Law 20 at
    Rubicon Piquet: at once."""
    rubicon = Deal(m(CB_ELDER), m(CB_YOUNGER), stock(CB_STOCK))
    assert kinds(rubicon) == [CARTE_BLANCHE]
    deal = Deal(m(CB_ELDER), m(CB_YOUNGER), stock(CB_STOCK), AU_CENT, (0, 0))
    assert deal.events == [] and observe(deal, ELDER).visible_cards() == m(CB_ELDER)
    deal.apply(Discard(m("9C 8C 7C")))
    assert kinds(deal) == [EXCHANGE, CARTE_BLANCHE, CARTE_BLANCHE_SHOWN, SCORE]
    assert deal.events[1].role == YOUNGER and deal.events[2].cards == m(CB_YOUNGER)
    assert deal.scores[YOUNGER][S_CARTE_BLANCHE] == 10
    # An elder's carte blanche is announced at once, as at Rubicon Piquet.
    elder_cb = Deal(m(CB_YOUNGER), m(CB_ELDER), stock(CB_STOCK), AU_CENT, (0, 0))
    assert kinds(elder_cb) == [CARTE_BLANCHE] and elder_cb.events[0].role == ELDER


def test_a_carte_blanche_can_win_the_game() -> None:
    deal = Deal(m(CB_ELDER), m(CB_YOUNGER), stock(CB_STOCK), AU_CENT, (60, 95))
    deal.apply(Discard(m("9C 8C 7C")))
    assert deal.is_over and deal.game_won == (YOUNGER, False) and deal.to_move is None
    assert deal.events[-1] == GameWon(YOUNGER, 105, False)
    with pytest.raises(IllegalAction, match="over"):
        deal.apply(Discard(0))
    deal.undo()
    assert deal.phase == Phase.ELDER_DISCARD and deal.game_won is None and deal.totals == [0, 0]


# ---------------------------------------------------------------- the calls


# Elder: a quint in spades (and a five-card point), younger: six diamonds for point, a quart in diamonds.
QUINT_ELDER = "AS KS QS JS 10S 9H 8H 7C 8C 9C AH JD"
SIX_YOUNGER = "KD QD 10D 9D 8D 7D 7S 8S 9S KH QH JH"
QS_STOCK = "7H 10H AC KC QC JC 10C AD"


def called_deal(rules: AuCentRules = AU_CENT, game: tuple[int, int] = (0, 0)) -> Deal:
    """The deal above: each discards one, both declare all they hold."""
    deal = Deal(m(QUINT_ELDER), m(SIX_YOUNGER), stock(QS_STOCK), rules, game)
    exchange(deal, "JD", "7S")
    return deal


def declare_all(deal: Deal) -> None:
    while deal.phase in (Phase.ELDER_POINT, Phase.YOUNGER_POINT, Phase.ELDER_SEQUENCES,
                         Phase.YOUNGER_SEQUENCES, Phase.ELDER_SETS, Phase.YOUNGER_SETS):
        role = deal.to_move or 0
        deal.apply(full_declarations(deal.hands[role])[(deal.phase - Phase.ELDER_POINT) // 2])


def test_the_elder_states_what_his_point_makes() -> None:
    """p. 18: "The elder hand must call the number his point makes"; Law 46: the number of cards suffices."""
    deal = called_deal()
    deal.apply(DeclarePoint(m("AS KS QS JS 10S")))
    assert deal.events[-2:] == [CallPoint(ELDER, 5), CallValue(ELDER, 51)]
    # The younger, with six cards, learns what the five make: at Rubicon Piquet he would not.
    assert any(e.kind == CALL_VALUE and e.value == 51 for e in observe(deal, YOUNGER).events)
    deal.apply(DeclarePoint(m("KD QD 10D 9D 8D 7D")))
    assert deal.events[-1] == Reply(YOUNGER, POINT, NOT_GOOD)
    assert ASK_VALUE not in kinds(deal)
    rubicon = Deal(m(QUINT_ELDER), m(SIX_YOUNGER), stock(QS_STOCK))
    exchange(rubicon, "JD", "7S")
    rubicon.apply(DeclarePoint(m("AS KS QS JS 10S")))
    rubicon.apply(DeclarePoint(m("KD QD 10D 9D 8D 7D")))
    assert CALL_VALUE not in kinds(rubicon) and ASK_VALUE not in kinds(rubicon)


def test_equal_points_are_compared_without_asking() -> None:
    """With the value called, the younger answers at once: equal, good or not good by (cards, value)."""
    deal = called_deal()
    deal.apply(DeclarePoint(m("AS KS QS JS")))  # four cards making 41
    deal.apply(DeclarePoint(m("KD QD 10D 9D")))  # four cards making 39
    assert [e.kind for e in deal.events[-3:]] == [CALL_VALUE, REPLY, SHOW]
    assert deal.events[-2] == Reply(YOUNGER, POINT, GOOD)
    assert ASK_VALUE not in kinds(deal)


def test_an_elder_who_calls_less_abides_by_his_call() -> None:
    """p. 18: "If the elder hand call a smaller ... sequence ... than he holds, he must abide by his call, and
    he cannot reckon anything superior, even though his call is good against the cards"."""
    deal = called_deal()
    deal.apply(DeclarePoint(0))
    deal.apply(DeclareSequences((m("AS KS QS JS"),)))  # a quart major out of his quint
    deal.apply(DeclareSequences((m("KH QH JH 10H"),)))  # the younger's quart to the king
    assert deal.events[-1].kind == SHOW and deal.events[-1].cards == m("AS KS QS JS")
    deal.apply(DeclareSets(()))
    deal.apply(Play(parse_card("AS")))
    reckon(deal)
    assert deal.scores[ELDER][2] == 4  # the quart, not the quint's fifteen
    assert deal.declared(ELDER, 1) == (m("AS KS QS JS"),)


# Elder: three kings and three tens; younger: nothing of a rank above nines but pairs.
SETS_ELDER = "KS KH KC 10S 10H 10D AS QS JS 9S 8S 7S"
SETS_YOUNGER = "AH QH JH 9H 8H 7H AC QC JC 9C 8C 7C"
SETS_STOCK = "KD AD QD JD 10C 9D 8D 7D"


def test_quatorzes_and_trios_are_named_not_shown() -> None:
    """p. 18: the elder "must show the cards called, except in the case of quatorzes and trios"."""
    deal = Deal(m(SETS_ELDER), m(SETS_YOUNGER), stock(SETS_STOCK), AU_CENT, (0, 0))
    deal.apply(Discard(m("9S")))  # takes the king of diamonds: a quatorze of kings
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("9H")))
    declare_all(deal)
    names = [e for e in deal.events if type(e) is NameSet]
    assert names == [NameSet(ELDER, 4, rank_of(parse_card("KS"))), NameSet(ELDER, 3, TEN)]
    assert not any(type(e) is Show and e.category == SETS for e in deal.events)
    deal.apply(Play(parse_card("AS")))
    reckon(deal)
    assert deal.scores[ELDER][S_SETS] == 17
    assert all(e.cards == 0 for e in deal.events if type(e) is Score and e.component == S_SETS)
    # The younger sees the ten of spades in the quint major shown, never the other two tens reckoned.
    seen = observe(deal, YOUNGER).visible_cards()
    assert seen & m("10S") and not seen & m("10H 10D")
    # At Rubicon Piquet the same trio is shown (p. 92).
    rubicon = Deal(m(SETS_ELDER), m(SETS_YOUNGER), stock(SETS_STOCK))
    exchange(rubicon, "9S", "9H")
    declare_all(rubicon)
    assert any(e.kind == SHOW and e.cards == m("10S 10H 10D") for e in rubicon.events)


def test_a_younger_reckoning_a_trio_names_it() -> None:
    """The younger's quatorzes and trios, reckoned when the elder called none, are named too."""
    deal = Deal(m(SETS_YOUNGER), m(SETS_ELDER), stock(SETS_STOCK), AU_CENT, (0, 0))
    exchange(deal, "9H", "9S")
    declare_all(deal)
    deal.apply(Play(parse_card("AH")))
    reckon(deal)
    named = [(e.role, e.size) for e in deal.events if type(e) is NameSet]
    assert (YOUNGER, 3) in named and not any(type(e) is Show and e.category == SETS for e in deal.events)
    seen = observe(deal, ELDER).visible_cards()  # the ten of spades is in the younger's quint, shown
    assert seen & m("10S") and not seen & m("10H 10D")


# ---------------------------------------------------------------- the agreements


def test_points_ending_in_four_count_one_less() -> None:
    """p. 19, by agreement: five cards making forty-four score four."""
    fours = rules_named("au-cent+fours")
    deal = Deal(m("JH 10H 9H 8H 7H AS KS 7C 8C 9C 7S 8S"), m("AH KH QH AC KC QC JC AD KD QD JD 10D"),
                stock("10C 10S QS JS 9S 9D 8D 7D"), fours, (0, 0))
    exchange(deal, "7S", "AH")
    deal.apply(DeclarePoint(m("JH 10H 9H 8H 7H")))
    assert deal.events[-1].value == 44
    deal.apply(DeclarePoint(m("AC KC QC JC")))  # four cards: fewer
    show = deal.events[-1]
    assert show == Show(ELDER, POINT, m("JH 10H 9H 8H 7H"), 4)  # scores four, not five
    assert fours.point_score(m("JH 10H 9H 8H 7H")) == 4 and AU_CENT.point_score(m("JH 10H 9H 8H 7H")) == 5


def play_out(deal: Deal, rng: random.Random) -> None:
    while not deal.is_over:
        deal.apply(deal.legal_actions().sample(rng))


def reckon_play(deal: Deal, counting: Mask) -> tuple[int, int]:
    """An independent count of the points made in play (Law 65, and p. 19 for the small cards)."""
    points = [0, 0]
    plays = [(e.role, e.card) for e in deal.events if type(e) is PlayEvent]
    for t in range(0, len(plays), 2):
        (leader, lead), (second, card) = plays[t], plays[t + 1]
        points[leader] += counting >> lead & 1
        wins = card >> 3 == lead >> 3 and card > lead
        winner = second if wins else leader
        if wins:
            points[second] += counting >> card & 1
        if t == 22:
            points[winner] += 1
    return points[0], points[1]


@pytest.mark.parametrize("spec", ["au-cent", "au-cent+small-cards"])
def test_nines_eights_and_sevens_do_not_count_in_play_by_agreement(spec: str) -> None:
    """p. 19: "By agreement, in playing the cards, nines, eights, and sevens are not counting cards"."""
    rules = rules_named(spec)
    assert isinstance(rules, AuCentRules)
    small = 0
    for seed in range(150):
        deal = Deal.shuffled(random.Random(seed), rules=rules, game=(0, 0))
        play_out(deal, random.Random(seed))
        if deal.game_won:
            continue
        made = (deal.scores[ELDER][S_PLAY], deal.scores[YOUNGER][S_PLAY])
        assert made == reckon_play(deal, rules.counting_cards)
        small += made != reckon_play(deal, (1 << 32) - 1)
    assert (small > 100) == (spec != "au-cent")  # the agreement changes nearly every deal, and only it


# ---------------------------------------------------------------- the game of a hundred up


def reckon(deal: Deal) -> None:
    """After the first lead: the younger reckons all he holds in what the elder did not call, and does not
    look at the cards left."""
    while deal.phase in (Phase.YOUNGER_RECKON_POINT, Phase.YOUNGER_RECKON_SEQUENCES, Phase.YOUNGER_RECKON_SETS,
                         Phase.YOUNGER_LOOK):
        if deal.phase == Phase.YOUNGER_LOOK:
            deal.apply(LookAtLeft(False))
        else:
            deal.apply(full_declarations(deal.hands[YOUNGER])[deal.phase - Phase.YOUNGER_RECKON_POINT])


def hands_scored(deal: Deal) -> None:
    """Declare all, lead the ace of spades, and reckon: the hands are scored in Law 67's order."""
    declare_all(deal)
    deal.apply(Play(parse_card("AS")))
    reckon(deal)


def test_the_first_to_a_hundred_in_the_order_of_scoring_wins_the_game() -> None:
    """p. 20 and Law 67: the younger's point reckons before the elder's quint, so at 97 it wins the game
    although the quint would take the elder (at 85) to a hundred too."""
    deal = called_deal(game=(85, 97))
    hands_scored(deal)
    assert deal.is_over and deal.game_won == (YOUNGER, False)
    assert deal.totals == [0, 6] and deal.scores[ELDER][2] == 0  # the quint never reckons
    assert [e.kind for e in deal.events[-2:]] == [SCORE, GAME] and deal.events[-1] == GameWon(YOUNGER, 103, False)
    assert sum(1 for e in deal.events if type(e) is PlayEvent) == 1  # the first lead only: the rest is not played
    # With the younger further off, the elder's quint comes first to a hundred.
    deal = called_deal(game=(85, 90))
    hands_scored(deal)
    assert deal.game_won == (ELDER, False) and deal.totals == [15, 6]


def test_a_hundred_before_the_adversary_has_fifty_is_a_double_game() -> None:
    deal = called_deal(game=(85, 40))
    hands_scored(deal)
    assert deal.game_won == (ELDER, True) and deal.events[-1].double  # the younger has 46
    deal = called_deal(game=(85, 44))
    hands_scored(deal)
    assert deal.game_won == (ELDER, False)  # the younger has fifty: a single game


class _NoGoal(AuCentRules):
    goal = None


@pytest.mark.parametrize("spec", ["au-cent", "au-cent+small-cards+fours"])
def test_a_deal_stops_exactly_where_a_player_first_reaches_a_hundred(spec: str) -> None:
    """Random deals from random game scores, against the same actions in a deal without a goal: the stop
    comes at the first score that takes a player to a hundred, and nothing is scored after it."""
    rules = rules_named(spec)
    assert isinstance(rules, AuCentRules)
    free_rules = _NoGoal(rules.small_cards_count, rules.fours_count_less)
    stopped = in_play = 0
    for seed in range(300):
        rng = random.Random(seed)
        game = (rng.randrange(40, 100), rng.randrange(40, 100))
        order = list(range(32))
        rng.shuffle(order)
        deal = Deal.from_pack(order, 2, rules, game)
        play_out(deal, rng)
        free = Deal.from_pack(order, 2, free_rules)
        for action in deal.history:
            free.apply(action)
        running = list(game)
        first = None
        for i, e in enumerate(free.events):
            if type(e) is Score:
                running[e.role] += e.points
                if first is None and max(running) >= 100:
                    first = (i, e.role)
        if deal.game_won is None:
            assert first is None and deal.events == free.events
            continue
        stopped += 1
        in_play += type(deal.events[-2]) is Score and deal.events[-2].component == S_PLAY
        role, double = deal.game_won
        assert first is not None and first[1] == role
        # The stopped deal's log is the free deal's up to that score (and a repique that goes with it).
        n = len(deal.events) - 1
        assert deal.events[:n] == free.events[:n] and n >= first[0] + 1
        total = [game[r] + deal.totals[r] for r in (ELDER, YOUNGER)]
        assert total[role] >= 100 > total[1 - role]
        assert double == (total[1 - role] < 50)
    assert stopped > 100 and in_play > 10


def test_pique_and_repique_count_at_au_cent() -> None:
    """The laws of Rubicon Piquet hold where au cent says nothing different: a repique adds sixty."""
    deal = Deal(m("AS KS QS JS 10S 9S AH AC AD 7H 8H 7C"), m("KH QH JH 10H 9H KC QC JC 10C 9C KD QD"),
                stock("8S 7S JD 10D 9D 8D 7D 8C"), AU_CENT, (0, 0))
    exchange(deal, "7C", "9H")
    declare_all(deal)
    deal.apply(Play(parse_card("AS")))
    reckon(deal)
    assert deal.scores[ELDER][7] == 60  # repique: point 7, sixieme... thirty in hand before the younger


# ---------------------------------------------------------------- the partie of three games out of five


def test_games_and_the_partie_from_the_running_scores() -> None:
    """p. 20: a game is a hundred up; three games out of five, a double counting two."""
    r = AU_CENT
    deal_scores = [{"A": 40, "B": 10}, {"A": 62, "B": 3}, {"A": 5, "B": 30}, {"A": 0, "B": 71},
                   {"A": 30, "B": 12}, {"A": 80, "B": 0}]
    after = r.running_scores(deal_scores)
    assert after == [{"A": 40, "B": 10}, {"A": 102, "B": 13}, {"A": 5, "B": 30}, {"A": 5, "B": 101},
                     {"A": 30, "B": 12}, {"A": 110, "B": 12}]
    games = r.games(after)
    assert games == (Game(1, 0, 1, {"A": 102, "B": 13}, "A", True), Game(2, 2, 3, {"A": 5, "B": 101}, "B", True),
                     Game(3, 4, 5, {"A": 110, "B": 12}, "A", True))
    assert r.tally(games) == {"A": 4, "B": 2}
    assert r.deals_needed(after[:4]) == 5 and r.deals_needed(after) == 6  # A has won: no more deals
    s = r.settlement_of(after, True)
    assert s.finished and s.winner == "A" and s.points_won is None and s.tally == {"A": 4, "B": 2}
    assert not r.settlement_of(after[:4], False).finished
    single = r.running_scores([{"A": 100, "B": 50}, {"A": 0, "B": 100}])
    assert [g.double for g in r.games(single)] == [False, True]


def test_a_partie_au_cent_deals_alternately_across_games_to_three_games() -> None:
    rng = random.Random(7)
    partie = Partie(AU_CENT, first_dealer="B")
    while not partie.is_finished:
        deal = partie.deal_shuffled(rng)
        index = len(partie.deals) - 1
        assert partie.dealer(index) == ("B" if index % 2 == 0 else "A")
        ctx = partie.context("A")
        assert deal.game == (ctx.scores[partie.seat(index, ELDER)], ctx.scores[partie.seat(index, YOUNGER)])
        assert ctx.game_number == len(partie.games()) + 1 and ctx.rules == "au-cent"
        play_out(deal, rng)
    s = partie.settlement()
    tally = {k: sum(g.counts for g in s.games if g.winner == k) for k in "AB"}
    assert s.tally == tally and max(tally.values()) >= 3 > min(tally.values())
    assert tally[s.winner or "A"] >= 3 and len(s.games) <= 5
    for g in s.games:  # each game starts at nothing and ends at its winner's hundred
        assert g.scores[g.winner] >= 100 and g.double == (min(g.scores.values()) < 50)
    with pytest.raises(ValueError, match="finished"):
        partie.deal_shuffled(rng)


def test_a_partie_refuses_a_deal_made_under_other_rules() -> None:
    partie = Partie(AU_CENT)
    order = list(range(32))
    with pytest.raises(ValueError, match="partie's rules"):
        partie.add_deal(Deal.from_pack(order))
    with pytest.raises(ValueError, match="partie's rules"):
        partie.add_deal(Deal.from_pack(order, rules=AU_CENT, game=(10, 0)))
    partie.add_deal(Deal.from_pack(order, rules=AU_CENT, game=(0, 0)))
    four = Partie(FOUR_DEAL)
    four.add_deal(Deal.from_pack(order))  # the four-deal partie plays its deals as Rubicon Piquet does
    with pytest.raises(ValueError, match="goal"):
        Deal.from_pack(order, rules=AU_CENT)


def test_the_stakes_of_the_rubicon_game_are_not_reckoned_on_a_partie_au_cent() -> None:
    from piquet.stakes.settlement import CardPartie

    rng = random.Random(3)
    partie = Partie(AU_CENT)
    while not partie.is_finished:
        play_out(partie.deal_shuffled(rng), rng)
    with pytest.raises(ValueError, match="won in games, not points"):
        CardPartie.from_partie(partie)
