"""Tests that kill the mutants of the scoring core the other tests let live (issue 20; ``bench/mutate.py``).

Each test states what the laws say, with figures worked from the laws and written here, never taken from the
engine's own functions: a revoke to the seven of spades led (Law 59 IV); two sequences of one suit that touch,
the lower declared first (Law 63, p. 88); a younger who reaches thirty in play at Piquet au cent when nines,
eights and sevens do not count (Law 69, p. 98, p. 19); which suit is named of two equal points (Law 62); the
sizes of a random discard (Laws 21-22, p. 17); a partie au cent of exactly three games (p. 20); and which
cards count in play under the small-cards agreement (p. 19).
"""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError
from itertools import accumulate, combinations
from math import comb, sqrt

import pytest

from piquet.core.actions import Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import CardError, card_name, cards_of, parse_card
from piquet.core.combinations import best_point, compare, sequences_ok, set_key
from piquet.core.deal import (
    Deal,
    IllegalAction,
    Phase,
    deal_from_pack,
    declaration_of,
    full_declarations,
    item_score,
    legal_iter,
    legal_sample,
    point_options,
    sequence_options,
    set_options,
    shuffled_pack,
    surplus_words,
)
from piquet.core.events import (
    ELDER,
    POINT,
    S_CARDS,
    S_CARTE_BLANCHE,
    S_PIQUE,
    S_PLAY,
    S_POINT,
    S_SEQUENCES,
    S_SETS,
    SEQUENCES,
    SETS,
    YOUNGER,
    CallSequence,
    CallSet,
    CarteBlanche,
    CarteBlancheShown,
    Exchange,
    GameWon,
    Look,
    Miscall,
    Penalty,
    Reply,
    Score,
    Show,
    Unanswered,
)
from piquet.core.events import Play as PlayEvent
from piquet.core.observation import observe
from piquet.core.partie import Partie
from piquet.core.referee import Remedy
from piquet.core.rules import (
    AU_CENT,
    CLUB_WORDS,
    FOUR_DEAL,
    RUBICON,
    AuCentRules,
    Rules,
    at_club,
    rules_named,
)
from piquet.records.record import deal_record
from test_au_cent import play_out, reckon_play
from test_club import ELDER_DEALT as CLUB_ELDER
from test_club import STOCK as CLUB_STOCK
from test_club import YOUNGER_DEALT as CLUB_YOUNGER
from test_illegal import ELDER_DEALT as EXAMPLE_ELDER
from test_illegal import STOCK as EXAMPLE_STOCK
from test_illegal import TO_PHASE, at, example_deal, refused, state
from test_illegal import YOUNGER_DEALT as EXAMPLE_YOUNGER
from test_irregular_deals import B_DISCARDED, cards, case_xxii, declare_nothing, lowest, m, standing


def P(card: str) -> Play:
    return Play(parse_card(card))


def cards_played(actions: object) -> set[str]:
    """The cards of a list of plays, by name."""
    return {card_name(a.card) for a in actions}  # type: ignore[attr-defined]


# ---------------------------------------------------------------- one deal, built card by card

# The elder holds the two small spades and the small hearts; the younger a sixieme major in spades and three
# aces: point 6 (sixty), sixieme 16, three aces 3, twenty-five in hand; the elder has nothing as good.
ELDER_DEALT = "8S 7S KH QH JH 10H 9H 7H KC QC JC 7C"
YOUNGER_DEALT = "AS KS QS JS 10S 9S AH AC KD 8H 8C 8D"
STOCK = "10C 9C AD QD JD 10D 9D 7D"


def to_first_lead(rules: Rules) -> Deal:
    """The deal above to the elder's first lead, the seven of spades: the elder discards the seven of clubs and
    takes the ten; the younger keeps his hand (au cent, p. 17) or, at Rubicon Piquet, gives the eight of diamonds
    for the nine of clubs; the elder calls nothing; the younger reckons all he holds and does not look."""
    return to_first_lead_with(P("7S"), rules)


def to_first_lead_with(lead: Play, rules: Rules = RUBICON) -> Deal:
    """The deal above to the elder's first lead, ``lead`` led (``to_first_lead``: the seven of spades)."""
    deal = Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), cards(STOCK), rules, (0, 0) if rules.goal is not None else None)
    for action in (Discard(m("7C")), LookAtLeft(False), Discard(m("8D") if rules.min_discard(YOUNGER) else 0),
                   DeclarePoint(0), DeclareSequences(()), DeclareSets(()), lead):
        deal.apply(action)
    declarations = full_declarations(deal.hands[YOUNGER])
    while deal.phase != Phase.PLAY:
        if deal.phase == Phase.YOUNGER_LOOK:
            deal.apply(LookAtLeft(False))
        else:
            deal.apply(declarations[deal.phase - Phase.YOUNGER_RECKON_POINT])
    return deal


# ---------------------------------------------------------------- Law 59 IV: following suit to card 0


@pytest.mark.parametrize("spec", ["rubicon", "au-cent+small-cards"])
def test_a_revoke_to_the_seven_of_spades_led_is_refused(spec: str) -> None:
    """Law 59 IV: "If a player do not follow suit when able" the card is taken back: the engine refuses it.  The
    seven of spades is card 0, the lowest of the pack: the lead that tests whether "no card led" and "card 0
    led" are told apart."""
    deal = to_first_lead(rules_named(spec))
    assert deal.lead == parse_card("7S") == 0 and deal.to_move == YOUNGER
    for card in ("AH", "8H", "AC", "KD"):
        refused(deal, P(card), card, "revokes", "spades", "Law 59")
    spades = {"AS", "KS", "QS", "JS", "10S", "9S"}
    assert cards_played(deal.legal_actions()) == spades and len(deal.legal_actions()) == 6
    rng = random.Random(20)
    assert cards_played(deal.legal_actions().sample(rng) for _ in range(300)) == spades
    hand, lead = deal.hands[YOUNGER], deal.lead
    assert cards_played(legal_iter(Phase.PLAY, hand, lead, 0)) == spades
    assert cards_played(legal_sample(Phase.PLAY, hand, lead, 0, rng) for _ in range(300)) == spades
    # A lead of another suit: the hearts are followed.
    for holding in (hand, m("AH 8H AC KD 8C")):  # with spades, and with none
        assert cards_played(legal_iter(Phase.PLAY, holding, parse_card("10H"), 0)) == {"AH", "8H"}
        assert cards_played(legal_sample(Phase.PLAY, holding, parse_card("10H"), 0, rng)
                            for _ in range(100)) == {"AH", "8H"}
    deal.apply(P("9S"))  # following with the nine is lawful, and wins: 9S is higher than 7S
    assert deal.leader == YOUNGER and deal.tricks_won == [0, 1]


def test_with_no_card_led_the_leader_may_lead_any_card() -> None:
    """Law 59 is about following: the leader may lead what he likes (here the younger, who won trick 1)."""
    deal = to_first_lead(RUBICON)
    deal.apply(P("AS"))
    assert deal.lead == -1 and deal.to_move == YOUNGER
    assert len(deal.legal_actions()) == 11 and {"AH", "8C", "KS"} <= cards_played(deal.legal_actions())


# ---------------------------------------------------------------- Law 63: runs that touch are one sequence


@pytest.mark.parametrize(("first", "second"), [("AH KH QH", "JH 10H 9H"), ("JH 10H 9H", "AH KH QH"),
                                               ("9D 8D 7D", "QD JD 10D"), ("QD JD 10D", "9D 8D 7D")])
def test_two_runs_of_one_suit_that_touch_are_refused_in_either_order(first: str, second: str) -> None:
    """p. 88: "Any three or more cards of the same suit held in hand in the order given ... constitute a
    sequence": ace to nine of hearts is one sixieme (16), not two tierces (6).  p. 91: "The younger hand is not
    bound to call his best sequence first", so the lower may come first, and must be refused as well."""
    why = sequences_ok((m(first), m(second)))
    assert why is not None and "joins" in why


@pytest.mark.parametrize(("first", "second"), [("10H 9H 8H", "AH KH QH"), ("AH KH QH", "10H 9H 8H"),
                                               ("9H 8H 7H", "AS KS QS"), ("AS KS QS", "9H 8H 7H"),
                                               ("AH KH QH", "9C 8C 7C"), ("9C 8C 7C", "AH KH QH")])
def test_runs_with_a_gap_or_in_other_suits_are_two_sequences(first: str, second: str) -> None:
    """A card missing between them (the knave), or another suit (the ace of spades and the seven of hearts are
    next to each other only in the engine's numbering): two sequences, in either order."""
    assert sequences_ok((m(first), m(second))) is None


def test_a_card_in_two_runs_is_refused_as_used_twice() -> None:
    """A card reckons in one sequence only: the same tierce twice, or a tierce within a quart, uses it twice."""
    for runs in (("AH KH QH", "AH KH QH"), ("AH KH QH JH", "KH QH JH"), ("KH QH JH", "AH KH QH JH")):
        assert sequences_ok(tuple(m(r) for r in runs)) == "uses a card twice"


def test_the_lower_of_two_touching_runs_declared_first_is_refused_by_the_deal() -> None:
    deal = Deal(m("AH KH QH JH 10H 9H 7S 8S 7C 8C 7D 8D"), m("AS KS QS JS 10S 9S AC KC QC JC AD KD"),
                cards("9C 10C QD JD 10D 9D 8H 7H"))
    deal.apply(Discard(m("7S")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("9S")))
    deal.apply(DeclarePoint(m("AH KH QH JH 10H 9H")))
    deal.apply(DeclarePoint(m("AS KS QS JS 10S")))
    assert deal.phase == Phase.ELDER_SEQUENCES
    refused(deal, DeclareSequences((m("JH 10H 9H"), m("AH KH QH"))), "joins", "Law 63")
    refused(deal, DeclareSequences((m("AH KH QH"), m("JH 10H 9H"))), "joins", "Law 63")
    deal.apply(DeclareSequences((m("AH KH QH JH 10H 9H"),)))  # the sixieme, as it is


def test_the_sequences_a_sixieme_may_be_declared_as() -> None:
    """A sixieme from the ace to the nine may be declared whole, or sunk to any one run within it (four
    tierces, three quarts, two quints, the sixieme: ten), or not at all; never as two runs, for any two runs
    within six cards either overlap or touch.  Eleven choices."""
    runs = {"AH KH QH", "KH QH JH", "QH JH 10H", "JH 10H 9H", "AH KH QH JH", "KH QH JH 10H", "QH JH 10H 9H",
            "AH KH QH JH 10H", "KH QH JH 10H 9H", "AH KH QH JH 10H 9H"}
    expected = {()} | {(m(r),) for r in runs}
    hand = m("AH KH QH JH 10H 9H 7S 8S 7C 8C 7D 8D")
    assert set(sequence_options(hand)) == expected and len(list(sequence_options(hand))) == 11


def test_a_tierce_and_a_quart_apart_may_be_declared_together() -> None:
    """Ace, king, queen and ten, nine, eight, seven of hearts: the knave missing, a tierce major and a quart
    minor, declared together (or either alone, or the tierce to a king or any run within the quart)."""
    hand = m("AH KH QH 10H 9H 8H 7H 7S 8S 7C 8C 7D")
    options = set(sequence_options(hand))
    assert (m("AH KH QH"), m("10H 9H 8H 7H")) in options
    assert not any(len(o) == 2 and (o[0] | o[1]) & m("JH") for o in options)
    tierces_and_quarts = {"10H 9H 8H", "9H 8H 7H", "10H 9H 8H 7H"}
    assert options == {()} | {(m("AH KH QH"),)} | {(m(r),) for r in tierces_and_quarts} \
        | {(m("AH KH QH"), m(r)) for r in tierces_and_quarts}


# ---------------------------------------------------------------- Law 69 at au cent, small cards not counting


def test_the_younger_reaching_thirty_in_play_when_small_cards_do_not_count_is_no_pique() -> None:
    """Law 69: "A pique is obtained on the score of thirty being made by the elder hand, in hand and play".

    At Rubicon Piquet the younger cannot come to it: "the card he [the elder] leads counts one in play before the
    younger hand plays; hence it stops a pique" (p. 98).  At Piquet au cent with the agreement that nines, eights
    and sevens are not counting cards (p. 19), the elder who leads only those has reckoned nothing, and the
    younger may reach thirty in hand and play first.  The laws of au cent change only which cards count in play;
    Law 69 gives the pique to the elder hand alone, so the younger scores his thirty and nothing more
    (docs/au-cent.md).

    Here the younger reckons twenty-five in hand (point six, sixieme sixteen, three aces three), wins the seven
    of spades led with the ace (26), leads the king, queen and knave (27, 28, 29) and makes thirty with the ten,
    the elder having reckoned nothing: no pique."""
    deal = to_first_lead(rules_named("au-cent+small-cards"))
    assert deal.totals == [0, 25]
    assert deal.scores[YOUNGER][S_POINT] == 6 and deal.scores[YOUNGER][S_SEQUENCES] == 16
    assert deal.scores[YOUNGER][S_SETS] == 3
    for younger, elder in (("AS", None), ("KS", "8S"), ("QS", "7H"), ("JS", "9H"), ("10S", "10H")):
        deal.apply(P(younger))
        if elder is not None:
            deal.apply(P(elder))
    assert deal.totals == [0, 30] and deal.scores[YOUNGER][S_PLAY] == 5
    assert deal.scores[YOUNGER][S_PIQUE] == 0 and not any(type(e) is Score and e.component == S_PIQUE
                                                          for e in deal.events)
    assert not deal.is_over


def test_the_elders_first_lead_of_a_small_card_reckons_nothing_and_of_a_ten_one() -> None:
    """p. 19 and Law 65: under the agreement the seven led reckons nothing; without it, one.  At Rubicon Piquet
    the same lead stops any pique of the younger's (p. 98)."""
    assert to_first_lead(rules_named("au-cent+small-cards")).totals[ELDER] == 0
    assert to_first_lead(AU_CENT).totals[ELDER] == 1
    assert to_first_lead(RUBICON).totals[ELDER] == 1


def test_case_ii_the_adversary_reckons_trios_below_the_false_call() -> None:
    """Case II with Law 54 at a club table: A calls three kings, B allows them good, and A has not three kings.
    The call bars nothing: B reckons what he has good, here three knaves and three tens (six), though the call
    said more than either."""
    d = Deal(m(CLUB_ELDER), m(CLUB_YOUNGER), cards(CLUB_STOCK), club=True)
    d.apply(Discard(m("KC 8C 7C")))  # takes in 7S KH 8H: two kings in hand, the third in his discard
    d.apply(LookAtLeft(False))
    d.apply(Discard(m("TS 9S 8S")))  # takes in 7H QC 8D: three tens, three knaves
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences(()))
    d.apply(DeclareSets((m("KS KH KC"),)))  # taken at his word
    d.apply(DeclareSets(()))  # "Good"
    d.apply(P("AS"))
    declare_nothing(d)
    assert d.scores[YOUNGER][S_SETS] == 6 and d.totals[ELDER] == 0


# ---------------------------------------------------------------- Law 62: two suits that make the same point


@pytest.mark.parametrize(("hand", "named"), [
    ("AS KS QS JS AH KH QH JH 7C 8C 7D 8D", "AS KS QS JS"),
    ("AH KH QH JH AD KD QD JD 7S 8S 7C 8C", "AH KH QH JH"),
    ("AC KC 9C 8C AD KD 9D 8D 7S 8S 7H 8H", "AC KC 9C 8C"),
    ("10S 9S 8S 7S AD 8D 7D 10H 9H 8H 7H QC", "10S 9S 8S 7S"),  # spades, hearts (34) and diamonds (26)
])
def test_of_two_equal_points_the_first_suit_in_the_treatises_order_is_named(hand: str, named: str) -> None:
    """Law 62: "The largest point is good"; of two suits with as many cards making as much, the laws do not say
    which the holder calls: it scores the same.  What he shows differs, and the engine names the first in the
    order of the treatise's hands, spades, hearts, clubs, diamonds (``piquet.core.cards``; docs/laws.md)."""
    assert best_point(m(hand)) == m(named)
    assert full_declarations(m(hand))[0] == DeclarePoint(m(named))


@pytest.mark.parametrize(("hand", "named"), [
    ("AD KD QD JD 10D AS KS QS JS 9S 7H 8H", "AD KD QD JD 10D"),  # fifty-one in diamonds against fifty
    ("AD KD QD JD 7D AS KS QS JS 8S 7H 8H", "AS KS QS JS 8S"),  # forty-eight against forty-nine
    ("9D 8D 7D 10D JD 8S 9S AS 7H 8H 7C 8C", "JD 10D 9D 8D 7D"),  # five cards in the last suit against three
])
def test_the_point_in_each_suit_is_counted_to_its_seven(hand: str, named: str) -> None:
    """Law 62 with p. 86: the point is the suit of most cards, then of most value (ace eleven, court cards and
    ten ten, the others their pips), diamonds as any other suit, the seven counting seven."""
    assert best_point(m(hand)) == m(named)


def test_what_each_declaration_declares() -> None:
    """A point is its cards; sequences, and quatorzes and trios, the tuple of them; a discard declares nothing."""
    assert declaration_of(DeclarePoint(m("AH KH QH"))) == m("AH KH QH")
    assert declaration_of(DeclareSequences((m("AH KH QH"), m("9S 8S 7S")))) == (m("AH KH QH"), m("9S 8S 7S"))
    # The best first: any quatorze is good against a trio (Law 64).
    assert declaration_of(DeclareSets((m("AS AH AC"), m("10S 10H 10C 10D")))) == (m("10S 10H 10C 10D"),
                                                                                 m("AS AH AC"))
    assert declaration_of(DeclareSets(())) == ()
    with pytest.raises(TypeError):
        declaration_of(Discard(m("7S")))


def test_what_a_good_item_scores_in_each_category() -> None:
    """Law 62: a point one a card; Law 63: a tierce three, a quint fifteen; Law 64: a trio three, a quatorze
    fourteen."""
    assert item_score(POINT, m("AH KH QH JH 9H")) == 5
    assert item_score(SEQUENCES, m("AH KH QH")) == 3 and item_score(SEQUENCES, m("AH KH QH JH 10H")) == 15
    assert item_score(SETS, m("AS AH AC")) == 3 and item_score(SETS, m("10S 10H 10C 10D")) == 14


def test_an_elder_who_takes_in_none_has_left_all_his_five() -> None:
    """Law 32: the cards the elder leaves are those of his five he does not take, from the top of the stock down.
    An elder who put out a card and took none in (an exchange against Law 21, entered as it was made: he plays
    with eleven, Law 29) left all five; one who takes two left the next three."""
    deal = Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), cards(STOCK))
    deal.take_in(ELDER, m("7C"), 0, "Law 29")
    assert deal.left_by_elder() == tuple(cards("10C 9C AD QD JD")) and deal.taken(ELDER) == ()
    deal = Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), cards(STOCK))
    deal.apply(Discard(m("7C 8S")))
    assert deal.left_by_elder() == tuple(cards("AD QD JD")) and deal.taken(ELDER) == tuple(cards("10C 9C"))
    assert deal.taken(YOUNGER) == () and deal.left_by_younger() == ()
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("8H 8C 8D 9S")))  # the younger takes the three the elder left, and a fourth (Law 34)
    assert deal.taken(YOUNGER) == tuple(cards("AD QD JD 10D")) and deal.left_by_younger() == tuple(cards("9D 7D"))


@pytest.mark.parametrize(("discard", "law"), [("7C", "Law 33"), (None, "Law 36")])
def test_at_a_look_only_looking_or_not_is_lawful(discard: str | None, law: str) -> None:
    """Laws 33 and 36: the hand that left cards says whether he looks at them, and nothing else is done then."""
    deal = Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), cards(STOCK))
    deal.apply(Discard(m("7C 8S 7S")))
    if discard is None:
        deal.apply(LookAtLeft(True))
        deal.apply(Discard(m("8D")))
        declare_nothing(deal)  # to the younger's look, after the first lead: the elder leads the seven of hearts
        deal.apply(P("7H"))
        while deal.phase != Phase.YOUNGER_LOOK:
            deal.apply(type(next(iter(deal.legal_actions())))())  # type: ignore[call-arg]
    assert deal.phase in (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK)
    for action in (Discard(m(discard or "8H")), DeclarePoint(0), DeclareSets(()), P("KH"), P("AS")):
        refused(deal, action, law)
    assert set(deal.legal_actions()) == {LookAtLeft(False), LookAtLeft(True)}
    before = state(deal)
    deal.apply(LookAtLeft(True))
    if discard is None:  # the younger sees the cards he left: the four of the stock's eight nobody took
        assert Look(YOUNGER, True, m("JD 10D 9D 7D")) in deal.events
    assert deal.undo() == LookAtLeft(True) and state(deal) == before


def test_every_action_of_the_example_deal_is_taken_back_exactly() -> None:
    """``undo`` restores the deal as it was before each action: hands, scores, tricks, the card led, the leader,
    the phase, the log (every field compared), from the first discard to the last trick of p. 103-105."""
    deal = example_deal()
    for action in TO_PHASE["over"]:
        before = state(deal)
        deal.apply(action)
        assert deal.undo() == action and state(deal) == before, action
        deal.apply(action)
    assert deal.is_over and deal.totals == [28, 23]  # "A then writes on his scoring card, 28, 23" (p. 105)


def test_refusals_in_the_play_say_why() -> None:
    """A card already played cannot be taken up (Law 59); a declaration in the play is too late (Law 56); a
    discard is too late (Laws 24, 59)."""
    refused(at("second trick"), P("AH"), "has been played", "Law 59")
    refused(at("first lead"), P("KS"), "in his discard", "Laws 24-25")  # the elder put out the king of spades
    refused(at("second trick"), DeclarePoint(0), "Law 56")
    refused(at("second trick"), Discard(m("AS")), "Laws 24, 59")


def test_the_points_of_play_in_random_rubicon_deals_by_an_independent_count() -> None:
    """Law 65 on the engine's quick path (Rubicon Piquet, no goal): one for each card led, one for each trick
    won as second player, and the winner of the last trick two instead of one; counted from the cards played."""
    last_won_second = 0
    for seed in range(200):
        deal = Deal.shuffled(random.Random(seed))
        play_out(deal, random.Random(seed))
        assert (deal.scores[ELDER][S_PLAY], deal.scores[YOUNGER][S_PLAY]) == reckon_play(deal, (1 << 32) - 1)
        plays = [e for e in deal.events if type(e) is PlayEvent]
        last_won_second += plays[-1].card >> 3 == plays[-2].card >> 3 and plays[-1].card > plays[-2].card
    assert last_won_second > 5


def test_the_elders_call_of_a_trio_names_three_and_the_rank() -> None:
    """Law 48, p. 91: the elder calls "Three knaves" (as many, and the rank: knaves are rank 4, seven 0)."""
    deal = at("elder sets")
    deal.apply(DeclareSets((m("JS JH JC"),)))
    assert deal.events[-1] == CallSet(ELDER, 3, 4)


# ---------------------------------------------------------------- Laws 21-22, p. 17: the size of a random discard


def _sizes(deal: Deal, draws: int) -> dict[int, int]:
    rng = random.Random(21)
    counts: dict[int, int] = {}
    for _ in range(draws):
        action = deal.legal_actions().sample(rng)
        assert isinstance(action, Discard) and not action.cards & ~deal.hands[deal.to_move or 0]
        n = action.cards.bit_count()
        counts[n] = counts.get(n, 0) + 1
    return counts


@pytest.mark.parametrize(("spec", "elder_discard", "least", "most"), [
    ("rubicon", None, 1, 5),  # the elder: one to five (Law 21)
    ("rubicon", "7C 8C 7D 8D 9D", 1, 3),  # the younger: one to the three left him (Law 22)
    ("rubicon", "7C 8C 7D", 1, 5),  # ... and the two the elder left (Law 34)
    ("au-cent", "7C 8C 7D 8D 9D", 0, 3),  # at au cent, none to three (p. 17)
])
def test_a_random_discard_takes_each_size_as_often_as_it_has_discards(spec: str, elder_discard: str | None,
                                                                      least: int, most: int) -> None:
    """Chosen uniformly among the lawful discards, a discard of k of twelve cards comes up in proportion to
    C(12, k): for the elder 12, 66, 220, 495 and 792 of 1585.  Each size is drawn, none outside the law, each
    within five standard deviations of its share of 30,000 draws."""
    hands = ("AS KS QS JS 10S AH KH 7C 8C 7D 8D 9D", "9S 8S 7S QH JH 10H 9H 8H 7H AC KC QC")
    deal = Deal(m(hands[0]), m(hands[1]), cards("JC 10C 9C AD KD QD JD 10D"),
                rules_named(spec), (0, 0) if spec == "au-cent" else None)
    if elder_discard is not None:
        deal.apply(Discard(m(elder_discard)))
        if deal.phase == Phase.ELDER_LOOK:
            deal.apply(LookAtLeft(False))
    total = sum(comb(12, k) for k in range(least, most + 1))
    assert len(deal.legal_actions()) == total
    draws = 30_000
    counts = _sizes(deal, draws)
    assert set(counts) == set(range(least, most + 1))
    for k, n in counts.items():
        p = comb(12, k) / total
        assert abs(n - draws * p) <= 5 * sqrt(draws * p * (1 - p)) + 1, (k, n, draws * p)


# ---------------------------------------------------------------- p. 20: three games out of five


def _games(*scores: tuple[int, int]) -> list[dict[str, int]]:
    """Running scores of the game in progress after each deal, one game a deal."""
    return [{"A": a, "B": b} for a, b in scores]


@pytest.mark.parametrize(("scores", "tally", "over"), [
    ([(100, 60), (100, 60)], {"A": 2, "B": 0}, False),  # two single games
    ([(100, 60), (100, 60), (100, 60)], {"A": 3, "B": 0}, True),  # three: the partie
    ([(100, 60), (60, 100), (100, 60), (60, 100)], {"A": 2, "B": 2}, False),
    ([(100, 60), (60, 100), (100, 60), (60, 100), (100, 50)], {"A": 3, "B": 2}, True),  # three of five
    ([(100, 49)], {"A": 2, "B": 0}, False),  # a double: a hundred before the other has fifty
    ([(100, 49), (100, 50)], {"A": 3, "B": 0}, True),  # a double and a single: three
    ([(99, 49)], {"A": 0, "B": 0}, False),  # ninety-nine is no game
])
def test_a_partie_au_cent_is_over_at_exactly_three_games(scores: list[tuple[int, int]], tally: dict[str, int],
                                                         over: bool) -> None:
    """p. 20: "A game is one hundred up.  A player scoring a hundred before his adversary has scored fifty wins a
    double game.  A partie is won by a player who wins three games out of five, a double counting as two"."""
    after = _games(*scores)
    assert AU_CENT.tally(AU_CENT.games(after)) == tally
    assert AU_CENT.deals_needed(after) == len(after) + (0 if over else 1)
    settled = AU_CENT.settlement_of(after, over)
    assert settled.tally == tally and settled.winner == ("A" if over else None)
    assert settled.finished == over and not settled.rubicon and settled.points_won is None  # won in games


def test_a_rubicon_partie_of_no_deals_is_nothing_to_nothing() -> None:
    """Law 71: the higher score wins the partie; before any deal both have nothing: equal, no winner, nothing won
    (Laws 72-73 apply only to a winner)."""
    for rules in (RUBICON, rules_named("four-deal")):
        settled = rules.settlement_of([], True)
        assert (settled.finished, settled.winner, settled.points_won, settled.rubicon) == (True, None, None, False)
        assert rules.settlement_of([{"A": 0, "B": 1}], True).winner == "B"


def test_games_and_settlements_are_immutable_values() -> None:
    """A game won and a settlement are facts: frozen, as the house style has its data."""
    settled = AU_CENT.settlement_of(_games((100, 49), (100, 50)), True)
    with pytest.raises(FrozenInstanceError):
        settled.winner = "B"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        settled.games[0].double = False  # type: ignore[misc]


# ---------------------------------------------------------------- p. 19: which cards count in play


def test_under_the_small_cards_agreement_the_tens_and_above_count() -> None:
    """p. 19: "By agreement, in playing the cards, nines, eights, and sevens are not counting cards": the aces,
    kings, queens, knaves and tens of the four suits count, twenty cards; without it, all thirty-two (Law 65)."""
    counting = m(" ".join(f"{r}{s}" for s in "SHCD" for r in ("A", "K", "Q", "J", "10")))
    assert counting.bit_count() == 20
    small = AuCentRules(small_cards_count=False)
    assert small.counting_cards == counting and rules_named("au-cent+small-cards").counting_cards == counting
    for rules in (RUBICON, AU_CENT, AuCentRules(fours_count_less=True)):
        assert rules.counting_cards == (1 << 32) - 1


# ---------------------------------------------------------------- Laws 18, 61-69: the most in one deal


def test_the_most_a_player_can_score_in_one_deal_is_made() -> None:
    """Laws 18 and 61-69 (docs/laws.md, "The most in one deal"): the elder dealt a carte blanche (10) discards
    his four aces and the seven of diamonds and takes in the queen and knave of spades and three knaves.  His
    point of five (forty-seven against the younger's forty-four) scores 5; his quint to the queen and tierce to
    the knave 18 (against a tierce); his quatorzes of knaves and tens 28: 61 in hand, and 33 before the younger
    counts anything, a repique (60).  He leads all twelve tricks and wins them, the younger following with his
    small cards and throwing away the rest: twelve for the cards led and one more for the last trick (Law 65),
    forty for the capot (Law 66).  174, the bound ``Rules.most_in_a_deal`` gives a lead that cannot be caught."""
    deal = Deal(m("10S 9S 8S 10H 9H 10C 10D AS AH AC AD 7D"), m("7S 8H 7H KC QC 9C 8C 7C KD QD 9D KS"),
                cards("QS JS JH JC JD 8D KH QH"))
    assert deal.carte_blanche == (True, False)
    deal.apply(Discard(m("AS AH AC AD 7D")))
    deal.apply(Discard(m("KS")))  # the younger takes the eight of diamonds
    for action in (DeclarePoint(m("QS JS 10S 9S 8S")), DeclarePoint(m("KC QC 9C 8C 7C")),
                   DeclareSequences((m("QS JS 10S 9S 8S"), m("JH 10H 9H"))), DeclareSequences((m("9C 8C 7C"),)),
                   DeclareSets((m("JS JH JC JD"), m("10S 10H 10C 10D"))), DeclareSets(())):
        deal.apply(action)
    tricks = ("QS 7S", "JS KC", "10S QC", "9S 9C", "8S KD", "JH 7H", "10H 8H", "9H QD", "JC 7C", "10C 8C",
              "JD 8D", "10D 9D")
    for trick in tricks:
        led, followed = trick.split()
        deal.apply(P(led))
        if deal.phase == Phase.YOUNGER_LOOK:
            deal.apply(LookAtLeft(False))
        deal.apply(P(followed))
    assert deal.is_over and deal.tricks_won == [12, 0]
    assert deal.scores[ELDER] == [10, 5, 18, 28, 13, 40, 0, 60] and deal.totals == [174, 0]
    assert RUBICON.most_in_a_deal == rules_named("four-deal").most_in_a_deal == 174 == deal.totals[ELDER]


def test_without_a_carte_blanche_the_most_is_one_hundred_and_seventy() -> None:
    """The best hand of all (docs/laws.md): four aces, kings and queens, point three (3), four tierces major (12),
    three quatorzes (42), the repique (60), and all the tricks led and won (13) with the capot (40): 170.  The
    younger holds the knaves, tens and nines: three of a suit make twenty-nine, less than thirty-one, his tierces
    are lower, his quatorzes lower; he has nothing good."""
    elder = "AS KS QS AH KH QH AC KC QC AD KD QD"
    deal = Deal(m("AS KS QS AH KH QH AC KC QC AD 8S 8H"), m("JS 10S 9S JH 10H 9H JC 10C 9C JD 10D 8C"),
                cards("KD QD 9D 7S 7H 8D 7C 7D"))
    deal.apply(Discard(m("8S 8H")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("8C")))  # for the nine of diamonds
    assert deal.hands[ELDER] == m(elder)
    deal.apply(DeclarePoint(m("AS KS QS")))
    deal.apply(DeclarePoint(m("JS 10S 9S")))
    deal.apply(DeclareSequences(tuple(m(f"A{s} K{s} Q{s}") for s in "SHCD")))
    deal.apply(DeclareSequences((m("JS 10S 9S"),)))
    deal.apply(DeclareSets(tuple(m(f"{r}S {r}H {r}C {r}D") for r in "AKQ")))
    deal.apply(DeclareSets(()))
    followers = ("9S", "10S", "JS", "9H", "10H", "JH", "9C", "10C", "JC", "9D", "10D", "JD")
    for led, followed in zip(elder.split(), followers, strict=True):
        deal.apply(P(led))
        if deal.phase == Phase.YOUNGER_LOOK:
            deal.apply(LookAtLeft(False))
        deal.apply(P(followed))
    assert deal.scores[ELDER] == [0, 3, 12, 42, 13, 40, 0, 60] and deal.totals == [170, 0]


# ---------------------------------------------------------------- Laws 30, 57 and Case XIX: hands of unequal size


def _play_with(elder_keeps: int, younger_discards: int, younger_takes: int, law: str) -> Deal:
    """The pack in order; the elder discards five and takes four (eleven, Law 30); the younger's exchange as
    given (``law``); then every call nothing and cards played at random to the end."""
    deal = Deal.from_pack(list(range(32)))
    deal.take_in(ELDER, lowest(deal.hands[ELDER], 5), elder_keeps, "Law 30")
    deal.apply(LookAtLeft(False))
    deal.take_in(YOUNGER, lowest(deal.hands[YOUNGER], younger_discards), younger_takes, law)
    rng = random.Random(57)
    while not deal.is_over:
        declare_nothing(deal)
        deal.apply(deal.legal_actions().sample(rng))
    return deal


def test_a_hand_of_eleven_against_twelve_the_last_card_counts_one_as_the_twelfth_trick() -> None:
    """Law 57: "His adversary counts as tricks all cards that cannot be played to"; the twelfth trick is the last
    (Case XIX) and scores one: the younger's play is his count of the eleven tricks played (Law 65) and one."""
    deal = _play_with(4, 4, 4, "Law 30")
    assert deal.hands[YOUNGER].bit_count() == 1 and deal.hands[ELDER] == 0
    assert [e for e in deal.events if type(e) is Unanswered] == [Unanswered(YOUNGER, 1, 1)]
    elder, younger = reckon_play(deal, (1 << 32) - 1)
    assert (deal.scores[ELDER][S_PLAY], deal.scores[YOUNGER][S_PLAY]) == (elder, younger + 1)
    assert sum(deal.tricks_won) == 12 and deal.trick == 13  # as after twelve tricks played


def test_a_hand_of_thirteen_against_eleven_counts_one_trick_not_two() -> None:
    """Laws 30-31, 57 and Case XIX: after eleven tricks the younger holds two cards the elder cannot play to; the
    twelfth trick is the last, so one of them counts as a trick and scores one, his thirteenth card never."""
    deal = _play_with(4, 2, 3, "Law 31")
    assert deal.hands[YOUNGER].bit_count() == 2 and deal.hands[ELDER] == 0
    assert [e for e in deal.events if type(e) is Unanswered] == [Unanswered(YOUNGER, 1, 1)]
    assert sum(deal.tricks_won) == 12 and deal.trick == 13
    elder, younger = reckon_play(deal, (1 << 32) - 1)
    assert (deal.scores[ELDER][S_PLAY], deal.scores[YOUNGER][S_PLAY]) == (elder, younger + 1)


def test_two_hands_of_eleven_leave_no_card_unanswered_and_no_twelfth_trick() -> None:
    """Law 30 for both: eleven tricks are played and nothing is left that cannot be played to (Law 57); the
    eleventh trick is not the last of Law 65, which "presupposes that each player has twelve cards" (Case XIX):
    nobody scores a twelfth."""
    deal = _play_with(4, 4, 3, "Law 30")
    assert deal.hands == [0, 0] and sum(deal.tricks_won) == 11
    assert not any(type(e) is Unanswered for e in deal.events)
    assert (deal.scores[ELDER][S_PLAY], deal.scores[YOUNGER][S_PLAY]) == reckon_play(deal, (1 << 32) - 1)


# ---------------------------------------------------------------- p. 156-157: what may be called, and sunk


def _subsets(cards_named: str) -> set[int]:
    """Every choice of one or more of these cards, as masks."""
    names = cards_named.split()
    return {m(" ".join(c)) for n in range(1, len(names) + 1) for c in combinations(names, n)}


def test_a_point_may_be_called_as_any_cards_of_one_suit_or_as_nothing() -> None:
    """Sinking (p. 156-157): a player may "conceal some of his cards, and not call them, although they may be
    good", so any of his cards of one suit may be called for point (Law 62), or none.  Three spades, four
    hearts, one club and four diamonds: nothing, or 7 + 15 + 1 + 15 choices, each once."""
    hand = m("AS 10S 7S KH QH 9H 8H JC AD KD 8D 7D")
    options = list(point_options(hand))
    expected = {0} | _subsets("AS 10S 7S") | _subsets("KH QH 9H 8H") | {m("JC")} | _subsets("AD KD 8D 7D")
    assert set(options) == expected and len(options) == len(expected) == 39


def test_quatorzes_and_trios_may_be_called_as_any_of_each_rank_held() -> None:
    """Quatorzes and trios are of tens and above (Law 64), and a player may sink cards (p. 156-157): he may call
    three of a quatorze he holds, or none at all.  Four aces (none, the quatorze or any of four trios),
    three kings (none or the trio), two queens and three nines (nothing): 6 x 2 = 12 choices."""
    hand = m("AS AH AC AD KS KH KD QS QC 9S 9H 9C")
    aces = [0, m("AS AH AC AD")] + [m(" ".join(t)) for t in combinations(("AS", "AH", "AC", "AD"), 3)]
    expected = {frozenset(x for x in (a, k) if x) for a in aces for k in (0, m("KS KH KD"))}
    options = list(set_options(hand))
    assert {frozenset(o) for o in options} == expected and len(options) == 12
    assert all(len(o) == len(set(o)) for o in options)


def test_a_random_discard_with_the_default_least_is_never_empty() -> None:
    """Law 21: the elder "must discard at least one card": drawn with no least given, a discard of at most one
    card is always one card (with none allowed it would be empty one time in thirteen)."""
    hand = m(ELDER_DEALT)
    rng = random.Random(21)
    drawn = [legal_sample(Phase.ELDER_DISCARD, hand, -1, 1, rng) for _ in range(300)]
    assert {a.cards.bit_count() for a in drawn} == {1}  # type: ignore[attr-defined]
    assert {a.cards for a in drawn} == {1 << c for c in cards_of(hand)}  # type: ignore[attr-defined]


def test_an_equal_sequence_is_shown_for_nothing_and_neither_scores() -> None:
    """Law 63: of sequences of equal length the highest is good; two tierces major are equal, and neither
    scores (p. 89-90).  The elder shows his when the younger answers "equal" (Law 55), and the younger his
    before he plays: each for nothing."""
    deal = Deal(m("AH KH QH 8H 10S 8S JC 9C 7C JD 9D 7D"), m("AS KS QS 9S 7S JH 9H 7H KC 10C 8C KD"),
                cards("JS 8D 10H AC QC AD QD 10D"))
    deal.apply(Discard(m("7C")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("KD")))
    deal.apply(DeclarePoint(0))
    deal.apply(DeclareSequences((m("AH KH QH"),)))
    deal.apply(DeclareSequences((m("AS KS QS"),)))
    assert deal.events[-2:] == [Reply(YOUNGER, SEQUENCES, 1), Show(ELDER, SEQUENCES, m("AH KH QH"), 0)]
    deal.apply(DeclareSets(()))
    deal.apply(P("AH"))
    declare_nothing(deal)
    assert Show(YOUNGER, SEQUENCES, m("AS KS QS"), 0) in deal.events
    assert deal.scores[ELDER][S_SEQUENCES] == deal.scores[YOUNGER][S_SEQUENCES] == 0


# ---------------------------------------------------------------- Law 54 and Case II at a club table: point, sequences

# The elder holds a quart major and a point of five in spades, and three small hearts, having put out the ten of
# hearts; the younger a quint major in diamonds (fifty-one), and trios of aces, kings and knaves.
CLUB_II_ELDER = "AS KS QS JS 10H 9H 8H 7H 9C 8C 9D 8D"
CLUB_II_YOUNGER = "AD KD QD JD 10D AH KH JH AC KC JC 10S"
CLUB_II_STOCK = "9S 8S 7S QH QC 10C 7C 7D"


def _club_ii(calls: tuple[Action, ...]) -> Deal:
    deal = Deal(m(CLUB_II_ELDER), m(CLUB_II_YOUNGER), cards(CLUB_II_STOCK), club=True)
    deal.apply(Discard(m("10H")))  # takes in the nine of spades
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("10S")))  # takes in the eight of spades
    for action in calls:
        deal.apply(action)
    deal.apply(P("AS"))
    declare_nothing(deal)
    return deal


def test_a_point_miscalled_and_allowed_good_bars_nothing_and_its_caller_reckons_nothing() -> None:
    """Law 54 and Case II, for the point: the elder calls four hearts making thirty-four, which he could have held
    with his discard (the ten), and the younger, sinking his diamonds, says "good".  On discovery the elder can
    reckon nothing that deal (not his quart, not his lead), and the younger reckons his point of five (5): the
    false call bars nothing, the elder having made no correct call of a point.  With his quint (15): 20."""
    deal = _club_ii((DeclarePoint(m("10H 9H 8H 7H")), DeclarePoint(0),
                     DeclareSequences((m("AS KS QS JS"),)), DeclareSequences((m("AD KD QD JD 10D"),)),
                     DeclareSets(())))
    assert Miscall(ELDER, POINT, m("10H 9H 8H 7H"), False) in deal.events
    assert Penalty(ELDER, "Law 54") in deal.events
    assert deal.scores[YOUNGER][S_POINT] == 5 and deal.scores[YOUNGER][S_SEQUENCES] == 15
    assert deal.totals == [0, 20]
    assert deal.decl[ELDER][POINT] == 0 and deal.keys[ELDER][POINT] == (0, 0)  # his point is nothing
    # Nor does he reckon his leads (Law 65): he wins with the ace and leads the king and queen of spades.
    for card in ("8S", "KS", "JC", "QS", "JH"):
        deal.apply(P(card))
    assert deal.tricks_won == [3, 0] and deal.totals == [0, 20]


def test_a_sequence_miscalled_bars_nothing_and_the_adversary_reckons_the_quint_he_sank() -> None:
    """Law 54 and Case II, for sequences: the elder calls a quint to the knave of hearts, which the younger allows
    good, sinking his quint major.  The elder could not have held it (the younger holds the knave): no penalty,
    but the call bars nothing, and the younger reckons his quint (15) and his point, good against the elder's
    fifty (5).  The elder reckons one, for his lead."""
    deal = _club_ii((DeclarePoint(m("AS KS QS JS 9S")), DeclarePoint(m("AD KD QD JD 10D")),
                     DeclareSequences((m("JH 10H 9H 8H 7H"),)), DeclareSequences(()), DeclareSets(())))
    assert Miscall(ELDER, SEQUENCES, m("JH 10H 9H 8H 7H"), True) in deal.events
    assert not any(type(e) is Penalty for e in deal.events)
    assert deal.scores[YOUNGER][S_SEQUENCES] == 15 and deal.scores[YOUNGER][S_POINT] == 5
    assert deal.totals == [1, 20]


def test_a_miscall_coming_to_light_makes_good_a_call_that_is_looked_at_in_turn() -> None:
    """Law 54 in turn: the elder calls six hearts, the younger seven diamonds, neither held (nor possible: no
    penalty).  The younger's call, good, comes to light and is nothing; the elder's six, which his real five
    spades do not reach, is then good, and comes to light in its turn; the younger reckons his real point of five
    diamonds (5), the elder nothing for point, one for his lead."""
    deal = _club_ii((DeclarePoint(m("AH KH QH JH 10H 9H")), DeclarePoint(m("AD KD QD JD 10D 9D 8D")),
                     DeclareSequences(()), DeclareSets(())))
    miscalls = [e for e in deal.events if type(e) is Miscall]
    assert miscalls == [Miscall(YOUNGER, POINT, m("AD KD QD JD 10D 9D 8D"), True),
                        Miscall(ELDER, POINT, m("AH KH QH JH 10H 9H"), True)]
    assert not any(type(e) is Penalty for e in deal.events)
    assert deal.scores[YOUNGER][S_POINT] == 5 and deal.scores[ELDER][S_POINT] == 0 and deal.totals == [1, 5]


def test_a_random_card_is_any_card_for_the_leader_and_for_a_hand_void_in_the_suit_led() -> None:
    """Law 59 binds only the follower who holds the suit led: with no card led (the leader), or holding no card
    of the suit led, any card of the hand may be drawn, diamonds (the last suit) and the others alike."""
    hand = m("AS 7S KH 9C 8D 7D")
    rng = random.Random(59)
    everything = {"AS", "7S", "KH", "9C", "8D", "7D"}
    assert cards_played(legal_sample(Phase.PLAY, hand, -1, 0, rng) for _ in range(300)) == everything
    void_in_clubs = m("AS 7S KH 8D 7D")
    assert cards_played(legal_sample(Phase.PLAY, void_in_clubs, parse_card("10C"), 0, rng)
                        for _ in range(300)) == everything - {"9C"}


def test_a_random_discard_is_drawn_as_the_standard_library_draws_it() -> None:
    """``_sample_discard`` promises the draws of ``rng.choices`` (a size weighted by its number of discards) and
    ``rng.sample`` (the cards): a seeded game gives the same discards as ever.  Checked against the standard
    library itself, for the elder's one to five of twelve (Law 21)."""
    hand = m(ELDER_DEALT)
    held = cards_of(hand)
    for seed in range(40):
        drawn = legal_sample(Phase.ELDER_DISCARD, hand, -1, 5, random.Random(seed))
        ref = random.Random(seed)
        size = ref.choices(range(1, 6), cum_weights=list(accumulate(comb(12, k) for k in range(1, 6))))[0]
        assert drawn == Discard(sum(1 << c for c in ref.sample(held, size))), seed


def test_no_random_action_when_the_deal_is_over() -> None:
    """After the last trick nobody is to move: asked for a random action, the engine says so (an IllegalAction,
    not an error of its own)."""
    with pytest.raises(IllegalAction, match="the deal is over"):
        legal_sample(Phase.DONE, 0, -1, 0, random.Random(1))


def test_after_a_miscall_the_adversary_reckons_only_what_is_good_against_its_correct_part() -> None:
    """Law 54: the adversary "may reckon anything he has good, which is not barred by a correct call of the player
    in error, made in addition to his miscall".  The elder calls a tierce, sinking his quart major; the younger
    answers with a sixieme in clubs he has not (nor could have) and the quint in diamonds he has.  The sixieme
    comes to light; the quint is a correct call and bars the elder's quart: the elder shows and scores no
    sequence, the younger scores his quint (15)."""
    deal = _club_ii((DeclarePoint(0), DeclareSequences((m("9H 8H 7H"),)),
                     DeclareSequences((m("AC KC QC JC 10C 9C"), m("AD KD QD JD 10D"))), DeclareSets(())))
    assert Miscall(YOUNGER, SEQUENCES, m("AC KC QC JC 10C 9C"), True) in deal.events
    assert not any(type(e) is Show and e.role == ELDER for e in deal.events)
    assert deal.scores[ELDER][S_SEQUENCES] == 0 and deal.scores[YOUNGER][S_SEQUENCES] == 15


# ---------------------------------------------------------------- Law 54 with calls only equal (docs/laws.md)

# The elder holds a quart major in spades, the seven, and a tierce to the nine in diamonds; he puts out the ten of
# clubs and takes in the seven of hearts.  The younger holds quarts major in hearts and clubs, and aces, kings and
# the ten of diamonds; he puts out the queen of clubs and takes in the nine of spades: a quart major in hearts,
# the ace, king and knave of clubs, three aces and three kings.  The queen and knave of diamonds stay in the stock.
EQUAL_ELDER = "AS KS QS JS 7S 10H 9H 10C 9C 9D 8D 7D"
EQUAL_YOUNGER = "AH KH QH JH AC KC QC JC AD KD 10D 8S"
EQUAL_STOCK = "7H 9S 8H 10S 8C 7C QD JD"


def _equal_calls(calls: tuple[Action, ...], reckons: tuple[Action, ...] = ()) -> Deal:
    """The deal above at a club table, the calls made, the ace of spades led, then the younger's reckoning."""
    deal = Deal(m(EQUAL_ELDER), m(EQUAL_YOUNGER), cards(EQUAL_STOCK), club=True)
    deal.apply(Discard(m("10C")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("QC")))
    for action in calls:
        deal.apply(action)
    deal.apply(P("AS"))
    for action in reckons:
        deal.apply(action)
    declare_nothing(deal)
    return deal


def test_a_false_call_allowed_equal_comes_to_light_and_its_caller_reckons_nothing() -> None:
    """Laws 54-55 and Case XVIII: the elder calls his quart major, the younger answers "equal" with a quart major
    in clubs he has not (he put out the queen: he could have held it).  A call allowed equal must be shown (Law
    55), and showing with a card not held "anything that is allowed to be equal" is an unfounded claim: he
    "can reckon nothing that deal" (Case XVIII), not his point of four hearts.  The equal call bars nothing: the
    elder's quart is good, and with it his tierce to the nine (Law 63): 4 + 3, and one for his lead."""
    deal = _equal_calls((DeclarePoint(0), DeclareSequences((m("AS KS QS JS"),)),
                         DeclareSequences((m("AC KC QC JC"),)), DeclareSets(())),
                        (DeclarePoint(m("AH KH QH JH")),))
    assert Reply(YOUNGER, SEQUENCES, 1) in deal.events  # "equal"
    assert Miscall(YOUNGER, SEQUENCES, m("AC KC QC JC"), False) in deal.events
    assert Penalty(YOUNGER, "Law 54") in deal.events
    shows = [(e.cards, e.points) for e in deal.events if type(e) is Show and e.role == ELDER]
    assert shows == [(m("AS KS QS JS"), 0), (m("AS KS QS JS"), 4), (m("9D 8D 7D"), 3)]  # equal, then good
    assert deal.scores[ELDER][S_SEQUENCES] == 7 and deal.totals == [8, 0]


def test_a_false_call_allowed_equal_he_could_not_have_held_bars_nothing_and_carries_no_penalty() -> None:
    """The same with a quart major in diamonds: the queen and knave are in the stock, so he could not have held it
    (Law 54: no penalty).  It still bars nothing: the elder reckons his quart and tierce (7) and his lead; the
    younger reckons his point of four hearts, forty-one, the elder having called none (4)."""
    deal = _equal_calls((DeclarePoint(0), DeclareSequences((m("AS KS QS JS"),)),
                         DeclareSequences((m("AD KD QD JD"),)), DeclareSets(())),
                        (DeclarePoint(m("AH KH QH JH")),))
    assert Miscall(YOUNGER, SEQUENCES, m("AD KD QD JD"), True) in deal.events
    assert not any(type(e) is Penalty for e in deal.events)
    assert deal.scores[ELDER][S_SEQUENCES] == 7 and deal.scores[YOUNGER][S_POINT] == 4
    assert deal.totals == [8, 4]


def test_after_a_miscall_the_elder_shows_what_is_then_only_equal_and_neither_scores() -> None:
    """The elder calls his tierce to the nine, sinking his quart major; the younger answers with a quint major in
    diamonds he has not, and his quart major in hearts.  The quint comes to light (no penalty: the queen and
    knave are in the stock); the quart is a correct call, and the elder's quart major, which he sank, is only
    equal to it: he shows it as equal (Law 55), the younger shows his, and neither scores a sequence (Law 63).
    The elder reckons one, for his lead."""
    deal = _equal_calls((DeclarePoint(0), DeclareSequences((m("9D 8D 7D"),)),
                         DeclareSequences((m("AD KD QD JD 10D"), m("AH KH QH JH"))), DeclareSets(())))
    assert Miscall(YOUNGER, SEQUENCES, m("AD KD QD JD 10D"), True) in deal.events
    shows = [(e.role, e.cards, e.points) for e in deal.events if type(e) is Show and e.category == SEQUENCES]
    assert shows == [(ELDER, m("AS KS QS JS"), 0), (YOUNGER, m("AH KH QH JH"), 0)]
    assert deal.scores[ELDER][S_SEQUENCES] == deal.scores[YOUNGER][S_SEQUENCES] == 0
    assert deal.totals == [1, 0]


def test_after_a_miscall_the_adversary_reckons_the_trios_he_sank_beside_the_one_he_called() -> None:
    """Law 54, "the adversary may reckon anything he has good", and Law 64, the best trio reckoning every other:
    the elder calls four queens, which he could not hold (the younger has the queen of diamonds); the younger,
    answering with his three aces, sinks his kings and knaves.  When the quatorze comes to light his aces are
    good, and his kings and knaves with them: 3 + 3 + 3.  With his point of fifty-one (5) and quint major (15): 29,
    no repique; the elder one, for his lead."""
    deal = _club_ii((DeclarePoint(m("AS KS QS JS 9S")), DeclarePoint(m("AD KD QD JD 10D")),
                     DeclareSequences((m("AS KS QS JS"),)), DeclareSequences((m("AD KD QD JD 10D"),)),
                     DeclareSets((m("QS QH QC QD"),)), DeclareSets((m("AD AH AC"),))))
    assert Miscall(ELDER, SETS, m("QS QH QC QD"), True) in deal.events
    assert not any(type(e) is Penalty for e in deal.events)
    assert deal.scores[YOUNGER][S_SETS] == 9
    assert deal.scores[YOUNGER][S_POINT] == 5 and deal.scores[YOUNGER][S_SEQUENCES] == 15
    assert deal.totals == [1, 29]


# The younger has two points of three making thirty-one, in hearts and in clubs; the elder a quart major in spades.
TIED_ELDER = "AS KS QS JS JH 10H 9H JC 10C AD KD QD"
TIED_YOUNGER = "AH KH QH AC KC QC 7S 8S 10S 7D 8D 9D"
TIED_STOCK = "7C 9S 8H 7H 9C 8C JD 10D"


def test_after_a_miscall_of_two_equal_points_the_one_called_is_reckoned() -> None:
    """The elder calls five spades to the ten (the younger holds the ten: no penalty); the younger answers with
    three clubs, thirty-one, "not good".  When the call comes to light his point is good, and he reckons the
    point he called, the clubs, not the hearts that make as much: 3.  The elder reckons his quart major (4) and
    his lead (1)."""
    deal = Deal(m(TIED_ELDER), m(TIED_YOUNGER), cards(TIED_STOCK), club=True)
    deal.apply(Discard(m("JC")))  # takes in the seven of clubs
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("7S")))  # takes in the nine of spades
    for action in (DeclarePoint(m("AS KS QS JS 10S")), DeclarePoint(m("AC KC QC")),
                   DeclareSequences((m("AS KS QS JS"),)), DeclareSequences(()), DeclareSets(())):
        deal.apply(action)
    deal.apply(P("AS"))
    declare_nothing(deal)
    assert Miscall(ELDER, POINT, m("AS KS QS JS 10S"), True) in deal.events
    assert Score(YOUNGER, S_POINT, 3, m("AC KC QC")) in deal.events
    assert deal.totals == [5, 3]


def test_a_false_call_not_good_as_called_carries_no_penalty_when_it_comes_to_light_later() -> None:
    """Law 54 punishes a call "allowed to be good": the elder calls a quint major in spades, which he could not hold
    (the younger has the ten); the younger answers with a quart to the ten in spades he has not (he put out the
    seven: he could have held it), "not good".  The quint comes to light; the younger's quart is then good, and
    comes to light in its turn, but was never allowed good or equal: no penalty for either.  The elder, whose
    quint bars nothing, reckons his quart major and his two tierces, to the knave of hearts and the ace of
    diamonds: 4 + 3 + 3, and one for his lead."""
    deal = Deal(m(TIED_ELDER), m(TIED_YOUNGER), cards(TIED_STOCK), club=True)
    deal.apply(Discard(m("JC")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("7S")))
    for action in (DeclarePoint(0), DeclareSequences((m("AS KS QS JS 10S"),)),
                   DeclareSequences((m("10S 9S 8S 7S"),)), DeclareSets(())):
        deal.apply(action)
    deal.apply(P("AS"))
    declare_nothing(deal)
    assert [e for e in deal.events if type(e) is Miscall] == [
        Miscall(ELDER, SEQUENCES, m("AS KS QS JS 10S"), True), Miscall(YOUNGER, SEQUENCES, m("10S 9S 8S 7S"), False)]
    assert not any(type(e) is Penalty for e in deal.events)
    assert deal.scores[ELDER][S_SEQUENCES] == 10 and deal.totals == [11, 0]


# ---------------------------------------------------------------- found alive by the sample of the full run


def test_what_the_younger_reckons_in_a_category_the_elder_did_not_call_is_shown_once() -> None:
    """The younger's reckoning of a point the elder did not call is good as he makes it, and shown then (Law 55):
    four hearts, forty-one, scoring four, shown once, not again when the hands are scored (Law 67)."""
    deal = _equal_calls((DeclarePoint(0), DeclareSequences((m("AS KS QS JS"),)),
                         DeclareSequences((m("AD KD QD JD"),)), DeclareSets(())),
                        (DeclarePoint(m("AH KH QH JH")),))
    assert [(e.role, e.cards, e.points) for e in deal.events if type(e) is Show and e.category == POINT] == [
        (YOUNGER, m("AH KH QH JH"), 4)]


def test_an_exchange_against_the_laws_stands_in_the_deal_and_its_record() -> None:
    """Case XXII: the younger "has taken up together the three cards left" (Law 35) after discarding two.  The
    step stands: it is not taken back like a move, and the record of the deal keeps his discard."""
    deal = case_xxii()
    with pytest.raises(IllegalAction, match="an irregularity entered stands"):
        deal.undo()
    assert deal_record(deal, "B").younger_discard == tuple(cards(B_DISCARDED))


def test_a_discard_against_a_take_in_is_said_as_laws_40_to_43_say_it() -> None:
    """Law 43: the elder "must discard the same number of cards as he takes in"; Laws 40-42, one more or one less.
    """
    assert surplus_words(0) == "as many as"
    assert surplus_words(1) == "one more than" and surplus_words(-1) == "one less than"


@pytest.mark.parametrize("run", [0b111 << 32, 0b111 << 6], ids=["beyond-the-pack", "two-suits"])
def test_at_a_club_table_a_run_beyond_the_pack_is_refused_and_changes_nothing(run: int) -> None:
    """A club table takes a call at the player's word, not cards that are not in the pack, nor cards of two suits:
    three "cards" above the ace of diamonds, or the king and ace of spades with the seven of hearts, are no
    sequence (Law 63), refused with the law, and the deal is as it was."""
    deal = Deal(m(EQUAL_ELDER), m(EQUAL_YOUNGER), cards(EQUAL_STOCK), club=True)
    deal.apply(Discard(m("10C")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("QC")))
    deal.apply(DeclarePoint(0))
    phase, events = deal.phase, list(deal.events)
    with pytest.raises(IllegalAction, match=r"is not a sequence.*Law 63"):
        deal.apply(DeclareSequences((run,)))
    assert deal.phase == phase and deal.events == events


@pytest.mark.parametrize("court", ["KH", "QH", "JH", "10H"])
def test_a_point_of_a_court_card_or_ten_and_three_small_ones_makes_thirty_four(court: str) -> None:
    """Law 62: king, queen, knave and ten make ten each in the point: with the nine, eight and seven, thirty-four,
    which under the agreement of p. 19 (a point making a number ending in four counts one less) scores three;
    without it four."""
    point = m(f"{court} 9H 8H 7H")
    assert rules_named("au-cent+fours").point_score(point) == 3
    assert AU_CENT.point_score(point) == 4


@pytest.mark.parametrize("pack", [[0] * 32, list(range(31)) + [0], list(range(31)) + [32]],
                         ids=["one-card-32-times", "a-card-twice", "a-card-not-in-the-pack"])
def test_a_pack_of_thirty_two_that_is_not_the_thirty_two_cards_is_refused(pack: list[int]) -> None:
    """Law 9 deals the pack: thirty-two cards, each once (Law 75: an incorrect pack).  Thirty-two with a card twice,
    or a card not of the pack, is refused, as a pack of another length is."""
    with pytest.raises(CardError, match="32 cards, each once"):
        deal_from_pack(pack)


# ---------------------------------------------------------------- the survivors of the full run (issue 20, 2026-12)


def test_a_declaration_of_three_nines_with_three_knaves_is_refused_with_the_law() -> None:
    """Law 64 and p. 91: nines count nothing as a trio.  Declared together with a real trio (three knaves, which the
    elder of the example deal holds), the declaration is refused with the law, as the nines alone are: it is not
    a crash of the engine while it puts the two in order."""
    deal = at("elder sets")
    for nines in ("9S 9H 9C", "9S 9H 9C 9D"):
        refused(deal, DeclareSets((m(nines), m("JS JH JC"))), "is not a quatorze or trio", "Law 64")
        refused(deal, DeclareSets((m("JS JH JC"), m(nines))), "is not a quatorze or trio", "Law 64")


def test_no_quatorze_or_trio_has_the_key_of_nothing() -> None:
    """``set_key`` is public (docs/api.md); ``compare`` reads (0, 0) as nothing.  No cards make nothing: against
    a player who declares nothing it is equal, and neither scores (p. 89-90)."""
    assert set_key(0) == (0, 0)
    assert compare(set_key(0), (0, 0)) == 0


@pytest.mark.parametrize("looks", [False, True])
def test_the_elder_looking_at_the_cards_he_left_shows_them_to_nobody(looks: bool) -> None:
    """Law 33: the elder who leaves cards may look at them; p. 84: "He returns the cards thus looked at to the top
    of the stock without showing them to his adversary."  What both players learn (the ``Look`` event) is
    whether he looked, and no card."""
    deal = at("elder discard")
    deal.apply(Discard(m("KS 8C 7C")))  # three discarded: the elder takes three and leaves two (Law 21)
    assert deal.phase == Phase.ELDER_LOOK
    deal.apply(LookAtLeft(looks))
    last = deal.events[-1]
    assert type(last) is Look
    assert (last.role, last.looked, last.cards, last.revealed) == (ELDER, looks, 0, 0)
    # He took the nine and eight of spades and the king of hearts, and left the nine of clubs and king of diamonds:
    # he has seen them if he looked; the younger has not.
    assert deal.elder_looked is looks
    assert observe(deal, ELDER).seen_left == (m("9C KD") if looks else 0)
    assert observe(deal, YOUNGER).seen_left == 0


def test_a_pack_without_a_mode_is_dealt_by_twos() -> None:
    """Law 9: "The dealer must deal the cards by two at a time or by three at a time, giving the top cards to his
    adversary, the next to himself, and so on".  ``deal_from_pack`` (public, docs/api.md) deals by twos when no
    mode is given, as ``Deal.from_pack`` and ``Deal.shuffled`` do (and au cent always does, p. 16).  The pack in
    the order of the cards' numbers, seven of spades first (spades, hearts, clubs, diamonds; seven up to ace), by
    twos: the elder two, the dealer two, and so on to twenty-four; by threes, three and three; the stock is the
    eight diamonds."""
    by_twos = (m("7S 8S JS QS 7H 8H JH QH 7C 8C JC QC"), m("9S 10S KS AS 9H 10H KH AH 9C 10C KC AC"),
               tuple(cards("7D 8D 9D 10D JD QD KD AD")))
    by_threes = (m("7S 8S 9S KS AS 7H JH QH KH 9C 10C JC"), m("10S JS QS 8H 9H 10H AH 7C 8C QC KC AC"),
                 by_twos[2])
    pack = list(range(32))
    assert deal_from_pack(pack) == by_twos == deal_from_pack(pack, 2)
    assert deal_from_pack(pack, 3) == by_threes


@pytest.mark.parametrize("pack", [[32, *range(1, 32)], [-1, *range(1, 32)], list(range(31)), list(range(33))],
                         ids=["a-33rd-card-for-the-seven", "card-minus-one-for-the-seven", "31-cards", "33-cards"])
def test_a_pack_short_of_the_seven_of_spades_or_of_other_length_is_refused(pack: list[int]) -> None:
    """Law 75: "If a pack be discovered to be incorrect, redundant, or imperfect, the deal ... is void": online the
    pack is checked before it is dealt.  A pack whose seven of spades is replaced by something not a card of the
    pack, or a pack of thirty-one or thirty-three, is refused; none is dealt."""
    with pytest.raises(CardError, match="32 cards, each once"):
        deal_from_pack(pack)


# A deal for Case IV in sequences: the elder calls a point of four spades, the ace, ten, nine and eight (thirty-
# eight; Law 62), good against the younger's four hearts or four clubs (thirty-seven each), and shown (Law 55): the
# cards shown make a tierce to a ten, which he does not call.  The younger holds the seven of spades (so the
# elder's cards shown are the four spades and no more) and a quart to a knave in hearts.
CASE_IV_ELDER = "AS 10S 9S 8S AH KH AC QC 9C QD 9D 7D"
CASE_IV_YOUNGER = "KS 7S JH 10H 9H 8H KC JC 10C KD JD 10D"
CASE_IV_STOCK = "8C 7C 8D AD QS JS QH 7H"


def _younger_reckons_sequences() -> Deal:
    """The deal above to the younger's reckoning of sequences: the elder gives the nine of clubs for the eight,
    leaves four and does not look; the younger gives the king of spades for the seven of clubs; the elder calls
    his four spades (good), and no sequence and no quatorze or trio, and leads the ace of spades."""
    deal = Deal(m(CASE_IV_ELDER), m(CASE_IV_YOUNGER), cards(CASE_IV_STOCK))
    for action in (Discard(m("9C")), LookAtLeft(False), Discard(m("KS")), DeclarePoint(m("AS 10S 9S 8S")),
                   DeclarePoint(m("JH 10H 9H 8H")), DeclareSequences(()), DeclareSets(()), P("AS")):
        deal.apply(action)
    return deal


def test_case_iv_in_sequences_what_the_shown_point_makes_bars_as_much_and_no_more() -> None:
    """Case IV: the elder's cards shown declare by implication what they make, here a tierce to a ten (the ten,
    nine and eight of spades of his point; the seven is the younger's).  The younger cannot reckon a tierce to a
    ten: it is only equal, and of equal sequences "neither scores anything for sequence" (p. 89).  A tierce to a
    knave is higher, and good (Law 63): it scores three; his quart to a knave, longer, scores four."""
    deal = _younger_reckons_sequences()
    assert deal.phase == Phase.YOUNGER_RECKON_SEQUENCES
    assert [(e.role, e.cards, e.points) for e in deal.events if type(e) is Show] == [(ELDER, m("AS 10S 9S 8S"), 4)]
    refused(deal, DeclareSequences((m("10H 9H 8H"),)), "Law 56, Case IV")
    for run, points in (("JH 10H 9H", 3), ("JH 10H 9H 8H", 4)):
        deal = _younger_reckons_sequences()
        assert DeclareSequences((m(run),)) in deal.legal_actions()
        assert DeclareSequences((m(run),)) in set(deal.legal_actions())
        deal.apply(DeclareSequences((m(run),)))
        assert [(e.role, e.cards, e.points) for e in deal.events if type(e) is Show][-1] == (YOUNGER, m(run), points)


@pytest.mark.parametrize("spec", ["rubicon", "au-cent+small-cards"])
def test_to_the_seven_of_spades_led_the_younger_is_asked_and_his_spades_are_lawful(spec: str) -> None:
    """Law 59 IV again, through ``verify`` and ``in legal_actions()`` (``apply`` takes a quicker path): to the
    seven of spades led (card 0) it is the younger who plays, each spade he holds is lawful, and anything but a
    card is refused as his turn to play (Law 56: nothing omitted can be reckoned now)."""
    deal = to_first_lead(rules_named(spec))
    assert deal.lead == 0 and deal.to_move == YOUNGER
    for card in ("AS", "KS", "QS", "JS", "10S", "9S"):
        assert P(card) in deal.legal_actions()
        deal.verify(P(card))
    with pytest.raises(IllegalAction, match=r"the younger hand must play a card now \(Law 56"):
        deal.verify(DeclarePoint(0))


def test_a_deal_from_a_pack_or_a_generator_is_dealt_by_twos_unless_told() -> None:
    """Law 9, by two at a time (au cent: always, p. 16): ``Deal.from_pack`` and ``Deal.shuffled`` deal by twos when
    no mode is given (``study/exchange.py`` and ``rl/encoding.py`` rely on it).  The elder's cards are the pack's
    places 0, 1, 4, 5, 8, 9 ... 20, 21; the younger's 2, 3, 6, 7 ... 22, 23; the stock 24 to 31."""
    elder_places = [i for i in range(24) if i % 4 < 2]
    younger_places = [i for i in range(24) if i % 4 >= 2]
    assert Deal.from_pack(list(range(32))).dealt == (m("7S 8S JS QS 7H 8H JH QH 7C 8C JC QC"),
                                                     m("9S 10S KS AS 9H 10H KH AH 9C 10C KC AC"))
    for seed in range(5):
        pack = shuffled_pack(random.Random(seed))
        deal = Deal.shuffled(random.Random(seed))
        assert deal.dealt == (sum(1 << pack[i] for i in elder_places), sum(1 << pack[i] for i in younger_places))
        assert deal.stock == tuple(pack[24:])


@pytest.mark.parametrize(("sizes", "words"), [
    ((13, 11, 8), "at least 2 and at most 6, one more than he takes in"),  # Law 40
    ((13, 12, 7), "at least 2 and at most 6, one more than he takes in"),  # Law 41
    ((11, 13, 8), "at least 0 and at most 4, one less than he takes in"),  # Law 42
    ((12, 13, 7), "at least 1 and at most 5, as many as he takes in"),  # Law 43
])
def test_a_discard_out_of_laws_40_to_43_is_refused_in_their_words(sizes: tuple[int, int, int], words: str) -> None:
    """Laws 40-43: the elder with thirteen discards "one card more than he takes in" (two at least, six if he takes
    his five); with eleven "one less" (none if he takes one, four if five); with twelve and a stock of seven "the
    same number".  A discard of seven is past each, and the refusal says his limits in those words."""
    deal = standing(*sizes)
    refused(deal, Discard(lowest(deal.hands[ELDER], 7)), f"the elder hand must discard {words} (Laws 40-43)")


def test_at_au_cent_the_younger_discarding_more_than_is_left_is_told_he_may_discard_none() -> None:
    """p. 17: at Piquet au cent the younger "is not obliged to discard"; Laws 22, 34: he may take all that is left.
    The elder having taken his five, three are left: a discard of four is refused, saying both."""
    deal = Deal(m(EXAMPLE_ELDER), m(EXAMPLE_YOUNGER), cards(EXAMPLE_STOCK), AU_CENT, (0, 0))
    deal.apply(Discard(m("KS 8C 7C 9D 8D")))
    assert deal.phase == Phase.YOUNGER_DISCARD
    refused(deal, Discard(m("10S 7S 9H 7H")), "the younger hand may discard at most 3 cards, or none (p. 17)")


def _short_younger(rules: Rules, game: tuple[int, int] | None, seed: int) -> Deal:
    """The pack in order, dealt by twos; the elder takes his five (twelve); the younger discards three and takes in
    two (eleven, Law 30); every call nothing and cards played at random (``seed``) until the deal ends."""
    deal = Deal(*deal_from_pack(list(range(32)), 2), rules=rules, game=game)
    deal.apply(Discard(lowest(deal.hands[ELDER], 5)))
    deal.take_in(YOUNGER, lowest(deal.hands[YOUNGER], 3), 2, "Law 30")
    rng = random.Random(seed)
    while not deal.is_over:
        declare_nothing(deal)
        deal.apply(deal.legal_actions().sample(rng))
    return deal


def test_a_younger_of_eleven_leaves_the_elders_last_card_unanswered_a_trick_and_the_last() -> None:
    """Law 30: the younger who discards three and takes two "must play with less than twelve cards, and his
    adversary counts as tricks all cards that cannot be played to"; the elder's twelfth card is the twelfth trick,
    the last, and scores one (Case XIX).  The play ends after the eleventh trick played."""
    deal = _short_younger(RUBICON, None, 30)
    assert deal.hands[YOUNGER] == 0 and deal.hands[ELDER].bit_count() == 1
    assert [e for e in deal.events if type(e) is Unanswered] == [Unanswered(ELDER, 1, 1)]
    assert sum(deal.tricks_won) == 12 and len([e for e in deal.events if type(e) is PlayEvent]) == 22
    elder, younger = reckon_play(deal, (1 << 32) - 1)
    assert (deal.scores[ELDER][S_PLAY], deal.scores[YOUNGER][S_PLAY]) == (elder + 1, younger)


@pytest.mark.parametrize("seed", range(4))
def test_at_au_cent_the_game_won_by_the_card_unanswered_stops_the_deal_before_the_cards(seed: int) -> None:
    """p. 20: the first to reach a hundred, in the order of scoring (Law 67: the play, then the cards), wins the
    game, and the deal stops there.  The elder's last card, unanswered, counts a trick and scores one (Law 30,
    Case XIX): with ninety-nine before it, he reaches a hundred on it, and nobody scores the cards after."""
    first = _short_younger(AU_CENT, (0, 0), seed)
    unanswered = next(i for i, e in enumerate(first.events) if type(e) is Unanswered)
    before = sum(e.points for e in first.events[:unanswered] if type(e) is Score and e.role == ELDER)
    deal = _short_younger(AU_CENT, (99 - before, 0), seed)
    assert deal.game_won is not None and deal.game_won[0] == ELDER
    last = deal.events[-1]
    assert type(last) is GameWon and (last.role, last.score) == (ELDER, 100)
    assert deal.events[-2] == Score(ELDER, S_PLAY, 1, 0)
    assert type(deal.events[-3]) is Unanswered
    assert deal.scores[ELDER][S_CARDS] == deal.scores[YOUNGER][S_CARDS] == 0


def test_the_last_of_two_exchanges_against_the_laws_stands_as_the_first_did() -> None:
    """Case XXII: an exchange against the laws, entered as it was made, stands and is not taken back like a move.
    The elder discards five and takes four (Law 30) and does not look; the younger then discards four and takes
    three (Law 30): that last step stands too, so the elder's look before it cannot be taken back either."""
    deal = Deal.from_pack(list(range(32)))
    deal.take_in(ELDER, lowest(deal.hands[ELDER], 5), 4, "Law 30")
    deal.apply(LookAtLeft(False))
    deal.take_in(YOUNGER, lowest(deal.hands[YOUNGER], 4), 3, "Law 30")
    before = state(deal)
    with pytest.raises(IllegalAction, match="an irregularity entered stands"):
        deal.undo()
    assert state(deal) == before
    assert deal.hands[ELDER].bit_count() == deal.hands[YOUNGER].bit_count() == 11


def test_the_seven_of_spades_led_at_the_second_trick_is_taken_back_as_a_lead() -> None:
    """``undo`` takes back a card led as a lead: the seven of spades (card 0) led by the elder at the second trick
    goes back to his hand, the lead and its point (Law 65) are undone, and the deal is as it was."""
    deal = to_first_lead_with(P("KH"))
    deal.apply(P("8H"))  # the younger follows with the eight of hearts: the elder's king wins
    assert deal.leader == ELDER and deal.trick == 2
    before = state(deal)
    deal.apply(P("7S"))
    assert deal.lead == 0 and deal.scores[ELDER][S_PLAY] == before["scores"][ELDER][S_PLAY] + 1
    assert deal.undo() == P("7S")
    assert state(deal) == before


def test_the_card_that_leaves_a_card_unanswered_is_taken_back_with_its_trick() -> None:
    """Law 57 (Laws 30, Case XIX): the younger's last card of eleven leaves the elder's twelfth unanswered, a trick
    and the last.  Taking that card back takes back the trick unanswered and its point: the deal is as it was."""
    deal = Deal(*deal_from_pack(list(range(32)), 2))
    deal.apply(Discard(lowest(deal.hands[ELDER], 5)))
    deal.take_in(YOUNGER, lowest(deal.hands[YOUNGER], 3), 2, "Law 30")
    rng = random.Random(30)
    before = state(deal)
    while not deal.is_over:
        declare_nothing(deal)
        before = state(deal)
        deal.apply(deal.legal_actions().sample(rng))
    assert any(type(e) is Unanswered for e in deal.events) and sum(deal.tricks_won) == 12
    deal.undo()
    assert state(deal) == before and sum(deal.tricks_won) == 10


# A carte blanche (Law 18: twelve cards without king, queen or knave), and the other hand and the stock.
BLANCHE = "AS 10S 9S 8S 7S AH 10H 9H AC 10C AD 10D"
BLANCHE_OTHER = "KS QS JS KH QH JH 8H KC QC JC 9C KD"
BLANCHE_STOCK = "7H 8C 7C QD JD 9D 8D 7D"


def test_the_younger_announces_his_carte_blanche_once_and_shows_it_when_the_elder_has_discarded() -> None:
    """Law 20: a carte blanche is announced at once, shown as soon as the adversary has discarded, and scores ten
    (Law 18) before anything else (Law 67 I).  The younger announces it once: showing it is no second announcing."""
    deal = Deal(m(BLANCHE_OTHER), m(BLANCHE), cards(BLANCHE_STOCK))
    assert deal.events == [CarteBlanche(YOUNGER)]
    deal.apply(Discard(m("9C")))
    assert deal.events[1:] == [Exchange(ELDER, 1, 4), CarteBlancheShown(YOUNGER, m(BLANCHE)),
                               Score(YOUNGER, S_CARTE_BLANCHE, 10, m(BLANCHE))]


def test_at_au_cent_the_elders_carte_blanche_wins_the_game_when_the_younger_has_discarded() -> None:
    """At Piquet au cent the elder announces his carte blanche at once (p. 16 defers only the younger's), shows it
    when the younger has discarded (Law 20) and scores ten first (Law 67 I): from ninety-five that is a hundred
    and five, the game, a double as the younger has not fifty (p. 20), and the deal stops.  Nobody announces a
    carte blanche for the younger, who has none; and no penalty can be entered in a deal that is over."""
    deal = Deal(m(BLANCHE), m(BLANCHE_OTHER), cards(BLANCHE_STOCK), AU_CENT, (95, 0))
    assert deal.events == [CarteBlanche(ELDER)]
    deal.apply(Discard(m("7S")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("9C")))
    # The elder took one and left four, and did not look; the younger took one and left six.
    assert deal.events == [CarteBlanche(ELDER), Exchange(ELDER, 1, 4), Look(ELDER, False, 0), Exchange(YOUNGER, 1, 6),
                           CarteBlancheShown(ELDER, m(BLANCHE)), Score(ELDER, S_CARTE_BLANCHE, 10, m(BLANCHE)),
                           GameWon(ELDER, 105, True)]
    assert deal.is_over and deal.game_won == (ELDER, True)
    before = state(deal)
    with pytest.raises(IllegalAction, match="before the calling begins"):
        deal.reckons_nothing(YOUNGER, "Law 27")
    assert state(deal) == before


def test_an_elder_who_takes_in_the_whole_stock_is_entered_as_he_took_it() -> None:
    """Law 28: the elder who mixes with his hand the bottom three cards of the stock reckons nothing (or the younger
    may have a fresh deal): an exchange against the laws, entered as it was made (``take_in``).  He may have taken
    all eight; not nine, which the stock has not; and nothing discarded and nothing taken is no exchange."""
    deal = example_deal()
    before = state(deal)
    with pytest.raises(IllegalAction, match="the stock holds 8 cards: 9 cannot be taken in"):
        deal.take_in(ELDER, m("KS 8C 7C 9D 8D"), 9, "Law 28")
    with pytest.raises(IllegalAction, match="nothing discarded and nothing taken in is no exchange"):
        deal.take_in(ELDER, 0, 0, "Law 28")
    assert state(deal) == before
    deal.take_in(ELDER, m("KS 8C 7C 9D 8D"), 8, "Law 28")
    # He kept the ace and knave of spades, the ace, queen, knave and eight of hearts and the knave of clubs.
    assert deal.hands[ELDER] == m("AS JS AH QH JH 8H JC") | m(EXAMPLE_STOCK) and deal.hands[ELDER].bit_count() == 15


def test_a_penalty_entered_after_the_exchange_stands_and_is_recorded() -> None:
    """Law 27: the younger reckons nothing that deal, entered after his exchange (before the calling).  It is not
    taken back like a move, nor are the moves before it; the record of the deal keeps it, with its law."""
    deal = example_deal()
    deal.apply(Discard(m("KS 8C 7C 9D 8D")))
    deal.apply(Discard(m("7S 9H 7H")))
    deal.reckons_nothing(YOUNGER, "Law 27")
    before = state(deal)
    with pytest.raises(IllegalAction, match="an irregularity entered stands"):
        deal.undo()
    assert state(deal) == before
    (ruled,) = deal_record(deal, "B").irregularities
    assert (ruled.remedy, ruled.after, ruled.law) == (Remedy.RECKONS_NOTHING, "younger_discard", "Law 27")


def test_the_elders_calls_of_sequence_and_trio_are_heard_as_made() -> None:
    """Laws 48-49: the elder calls his sequence by its length and the card it is to, his quatorze or trio by its
    size and rank.  In the example deal (p. 103-105) he calls "a quart major" and "three knaves"."""
    deal = at("elder sets")
    calls = [e for e in deal.events if type(e) is CallSequence]
    assert calls == [CallSequence(ELDER, 4, parse_card("AH") & 7)]
    deal.apply(DeclareSets((m("JS JH JC"),)))
    assert deal.events[-1] == CallSet(ELDER, 3, parse_card("JS") & 7)


def test_the_sequences_a_quart_minor_in_spades_may_be_declared_as() -> None:
    """The ten, nine, eight and seven of spades, the lowest cards of the pack (the seven of spades is card 0): a
    quart minor (Law 63), declared whole, or sunk to the tierce to a ten or the tierce minor within it, or not at
    all; no other hand of these cards makes a run.  Four choices."""
    hand = m("10S 9S 8S 7S AH QH 10H 8H AC QC AD QD")
    assert set(sequence_options(hand)) == {(), (m("10S 9S 8S 7S"),), (m("10S 9S 8S"),), (m("9S 8S 7S"),)}
    assert len(list(sequence_options(hand))) == 4


def test_a_game_won_at_a_hundred_is_no_forfeit() -> None:
    """p. 20: the first to a hundred wins the game.  Only a game lost by the law is a forfeit (p. 17 (3): "he
    loses the game"), told as such ("lost by ..."): A reaching a hundred and four (sixty, then forty-four) with B at
    thirty wins a double game, not a forfeit; B losing the next game by the law in its first deal is one."""
    after = AU_CENT.running_scores([{"A": 60, "B": 30}, {"A": 44, "B": 0}, {"A": 12, "B": 20}], {2: "B"})
    assert after == [{"A": 60, "B": 30}, {"A": 104, "B": 30}, {"A": 12, "B": 20}]
    (won, lost) = AU_CENT.games(after, {2: "B"})
    assert (won.number, won.first_deal, won.last_deal, won.scores, won.winner, won.double, won.forfeit) == (
        1, 0, 1, {"A": 104, "B": 30}, "A", True, False)
    assert (lost.number, lost.winner, lost.double, lost.forfeit) == (2, "A", False, True)


def test_the_cards_drawn_in_play_follow_the_generator_given() -> None:
    """``LegalActions.sample``: "the same card for the same generator" (the arena's and the benches' seeds repeat on
    it), whatever ``LegalActions`` view draws it and whatever generator it drew with before; and over many
    generators every card the player may play is drawn (Law 59: any card of the suit led, here spades)."""
    deal = to_first_lead(RUBICON)
    drawn = [deal.legal_actions().sample(random.Random(seed)) for seed in range(40)]
    view = deal.legal_actions()
    again = [view.sample(random.Random(seed)) for seed in range(40)]
    assert drawn == again
    assert cards_played(drawn) == {"AS", "KS", "QS", "JS", "10S", "9S"}
    one, two = random.Random(8), random.Random(8)
    assert [view.sample(one) for _ in range(10)] == [deal.legal_actions().sample(two) for _ in range(10)]


@pytest.mark.parametrize("spec", ["rubicon", "four-deal", "au-cent", "au-cent+small-cards+fours", "rubicon+club"])
def test_the_rules_are_written_as_the_call_that_names_them(spec: str) -> None:
    """``repr`` of the rules in force is the call that names them with their agreements (p. 19; a club table),
    and reads back to rules that play alike."""
    rules = rules_named(spec)
    assert repr(rules) == f"rules_named({spec!r})"
    assert rules_named(spec) == rules and rules.deal_terms == rules_named(spec).deal_terms


def test_a_partie_takes_only_deals_made_under_its_own_rules() -> None:
    """A deal belongs to its partie's rules: the six-deal and the four-deal partie play their deals alike (Law 71
    and its note change only the number of deals and what each counts), but a deal at a club table (calls at the
    player's word, Laws 52-54), or au cent without the small cards (p. 19), is another game's deal."""
    cards_dealt = deal_from_pack(list(range(32)), 2)
    assert Partie(FOUR_DEAL).add_deal(Deal(*cards_dealt, rules=RUBICON)).rules == RUBICON
    with pytest.raises(ValueError, match="not made under the partie's rules"):
        Partie(RUBICON).add_deal(Deal(*cards_dealt, rules=rules_named("rubicon+club")))
    with pytest.raises(ValueError, match="not made under the partie's rules"):
        Partie(AU_CENT).add_deal(Deal(*cards_dealt, rules=rules_named("au-cent+small-cards"), game=(0, 0)))


def test_a_partie_of_deals_has_no_game_to_lose() -> None:
    """p. 17 (3): a player "loses the game" by the law only at Piquet au cent, a game of so many up; a partie of
    Rubicon Piquet is of deals (Law 71), and a game lost in it is refused."""
    with pytest.raises(ValueError, match=r"a game is lost only at a game of so many up \(p. 17\)"):
        RUBICON.running_scores([{"A": 30, "B": 12}], {0: "A"})
    assert RUBICON.running_scores([{"A": 30, "B": 12}, {"A": 5, "B": 40}]) == [{"A": 30, "B": 12}, {"A": 35, "B": 52}]


def test_after_a_game_lost_by_the_law_the_next_game_starts_at_love() -> None:
    """p. 17 (3): the younger who takes up one of the top five cards of the stock "loses the game"; p. 20: the game
    over, the next begins at nothing.  B loses the first game so in its second deal (sixty to thirty, then ten to
    twenty: seventy to fifty); the third deal, five and five, is the first of the second game, and so on: A makes
    a hundred and four in the second game at its third deal, winning it, B having eighty-five (no double)."""
    deal_scores = [{"A": 60, "B": 30}, {"A": 10, "B": 20}, {"A": 5, "B": 5}, {"A": 40, "B": 50},
                   {"A": 59, "B": 30}, {"A": 0, "B": 12}]
    lost = {1: "B"}
    after = AU_CENT.running_scores(deal_scores, lost)
    assert after == [{"A": 60, "B": 30}, {"A": 70, "B": 50}, {"A": 5, "B": 5}, {"A": 45, "B": 55},
                     {"A": 104, "B": 85}, {"A": 0, "B": 12}]
    first, second = AU_CENT.games(after, lost)
    assert (first.number, first.first_deal, first.last_deal, first.winner, first.double, first.forfeit) == (
        1, 0, 1, "A", False, True)
    assert (second.number, second.first_deal, second.last_deal, second.scores, second.winner, second.double,
            second.forfeit) == (2, 2, 4, {"A": 104, "B": 85}, "A", False, False)
    # What the next deal is given as its game's scores (p. 20): nothing after a game won or lost, else the game's.
    assert AU_CENT.game_scores(after[:1], lost) == {"A": 60, "B": 30}
    assert AU_CENT.game_scores(after[:2], lost) == {"A": 0, "B": 0}
    assert AU_CENT.game_scores(after[:4], lost) == {"A": 45, "B": 55}
    assert AU_CENT.game_scores(after[:5], lost) == {"A": 0, "B": 0}
    assert AU_CENT.game_scores(after, lost) == {"A": 0, "B": 12}


def test_a_game_won_at_exactly_a_hundred_is_over() -> None:
    """p. 20: "A game is one hundred up": a hundred exactly wins it (before the adversary has fifty, a double game),
    and the next deal starts the next game at nothing."""
    after = AU_CENT.running_scores([{"A": 70, "B": 20}, {"A": 30, "B": 0}, {"A": 4, "B": 9}])
    assert after == [{"A": 70, "B": 20}, {"A": 100, "B": 20}, {"A": 4, "B": 9}]
    assert AU_CENT.game_scores(after[:2]) == {"A": 0, "B": 0}
    (game,) = AU_CENT.games(after)
    assert (game.last_deal, game.winner, game.double) == (1, "A", True)


def test_a_deal_ends_one_game_at_most() -> None:
    """A game lost by the law in a deal (p. 17 (3)) is that deal's game, a single one, however its scores stand:
    the deal does not end a second game as well."""
    after = AU_CENT.running_scores([{"A": 60, "B": 30}, {"A": 50, "B": 0}], {1: "B"})
    assert after[-1] == {"A": 110, "B": 30}
    (game,) = AU_CENT.games(after, {1: "B"})
    assert (game.winner, game.double, game.forfeit) == ("A", False, True)


@pytest.mark.parametrize("spec", ["rubicon", "au-cent+small-cards"])
def test_a_club_table_is_one_agreement_said_once(spec: str) -> None:
    """The club table (calls at the player's word, Laws 52-54) is an agreement added to the rules in force and
    named in their title; the rules of a club table at a club table are the same rules, not the agreement twice."""
    plain = rules_named(spec)
    club = at_club(plain)
    assert club.title == f"{plain.title}, at a club table ({CLUB_WORDS})"
    assert club.spec == f"{spec}+club" and club.calls_at_word
    assert at_club(club) is club
    assert at_club(club).spec == f"{spec}+club" and at_club(club).title == club.title
