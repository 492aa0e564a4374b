"""The deal's state machine in the irregular states the laws provide for: a deal of eleven or thirteen cards, or a
stock of seven, that stands (Laws 40-43); an exchange made against the laws (Laws 30, 31, 35); a player who
reckons nothing while his cards still bar (Law 58; Case XXI); play with unequal hands (Law 57; Case XIX); and
Case XXII end to end.  The expected figures are the book's."""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import cards_of, mask_of, parse_cards
from piquet.core.deal import Deal, IllegalAction, Phase
from piquet.core.events import (
    ELDER,
    S_CARTE_BLANCHE,
    S_PLAY,
    S_POINT,
    YOUNGER,
    OddExchange,
    Penalty,
    Show,
    Trick,
    Unanswered,
)
from piquet.core.referee import Irregularity, Kind, Remedy, deal_limits, rule
from piquet.core.rules import RUBICON
from piquet.talk.words import narrate


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def cards(text: str) -> list[int]:
    return parse_cards(text.split())


# ---------------------------------------------------------------- Case XXII, end to end

# Case XXII (p. 33-35): A (elder) after his exchange, and what he discarded; B (younger) with thirteen after
# discarding two and taking up the three cards left.  Which of their cards came from the stock the book does not
# say: any of them may have, and these did.
A_HOLDS = "AS KS QS JS 9S KH JH JC AD QD JD TD"
A_DISCARDED = "8H 7H 8C 7C 7D"
A_TOOK = "KH JH JC TD 9S"
B_HOLDS = "TS AH QH TH 9H AC KC QC TC 9C KD 9D 8D"
B_DISCARDED = "8S 7S"
B_TOOK = "KD 9D 8D"
#: "A leads five spades ... the younger hand plays ten of spades; nine, ten, queen of hearts, and eight of
#: diamonds ... he scores most by leading king of hearts.  B wins with the ace, and plays five clubs and divides
#: the cards."
CASE_XXII_PLAY = "AS TS KS 9H QS TH JS QH 9S 8D KH AH AC JC KC JH QC QD TC JD 9C TD KD AD"


def case_xxii() -> Deal:
    elder = (m(A_HOLDS) & ~m(A_TOOK)) | m(A_DISCARDED)
    younger = (m(B_HOLDS) & ~m(B_TOOK)) | m(B_DISCARDED)
    deal = Deal(elder, younger, cards(A_TOOK) + cards(B_TOOK))
    deal.apply(Discard(m(A_DISCARDED)))
    deal.take_in(YOUNGER, m(B_DISCARDED), 3, "Law 35")  # "he has taken up together the three cards left"
    return deal


def test_case_xxii_the_younger_with_thirteen_reckons_nothing_and_wins_a_rubicon_of_283() -> None:
    deal = case_xxii()
    assert deal.hands[YOUNGER] == m(B_HOLDS) and deal.hands[YOUNGER].bit_count() == 13
    assert OddExchange(YOUNGER, 2, 3, 0, 13) in deal.events
    deal.reckons_nothing(YOUNGER, "Law 35")  # "he ... can reckon nothing that deal (Law 35)"
    # "The elder hand calls five cards, making fifty.  The point is equal.  The elder then calls a quart major, a
    # tierce to a queen, and four knaves, good for twenty-one."
    for action in (DeclarePoint(m("AS KS QS JS 9S")), DeclarePoint(m("AC KC QC TC 9C")),
                   DeclareSequences((m("AS KS QS JS"), m("QD JD TD"))), DeclareSequences((m("AC KC QC"),)),
                   DeclareSets((m("JS JH JC JD"),)), DeclareSets((m("TS TH TC"),))):
        deal.apply(action)
    first, *rest = CASE_XXII_PLAY.split()
    deal.apply(Play(cards(first)[0]))  # the hands reckon at the first lead, then the lead (Law 67)
    assert deal.totals == [22, 0] and deal.scores[ELDER][S_POINT] == 0  # the point equal: neither scores it
    for card in rest:
        deal.apply(Play(cards(card)[0]))
    assert deal.phase == Phase.DONE
    # "The scores are, A, 91; B (who reckons nothing), 92": A was 62 and B 92 before the deal.
    assert deal.totals == [29, 0] and deal.tricks_won == [6, 6]
    assert deal.hands[YOUNGER] == m("9D")  # his thirteenth card is never played (Case XIX)
    scores = [{"A": 62 + deal.totals[ELDER], "B": 92 + deal.totals[YOUNGER]}]
    s = RUBICON.settlement_of(scores, True)
    assert (s.winner, s.rubicon, s.points_won) == ("B", True, 283)  # "B wins a rubicon (Law 73) of 283 points"


def test_case_xxii_the_younger_shows_his_equal_point_and_reckons_nothing() -> None:
    deal = case_xxii()
    deal.reckons_nothing(YOUNGER, "Law 35")
    deal.apply(DeclarePoint(m("AS KS QS JS 9S")))
    deal.apply(DeclarePoint(m("AC KC QC TC 9C")))
    deal.apply(DeclareSequences(()))
    deal.apply(DeclareSets(()))
    deal.apply(Play(cards("AS")[0]))
    while deal.phase != Phase.PLAY:  # the younger reckons nothing more, and has left no cards
        deal.apply(next(iter(deal.legal_actions())))
    younger_shows = [e for e in deal.events if type(e) is Show and e.role == YOUNGER]
    assert younger_shows and all(e.points == 0 for e in younger_shows)
    said = " ".join(str(seg) for line in narrate(deal.events, ("A", "B")) for seg in line.segments)
    assert "B reckons nothing this deal (Law 35)" in said and "holds thirteen" in said


# ---------------------------------------------------------------- Case XIX and Law 57: unequal hands


def test_case_xix_the_twelfth_trick_is_the_last_against_a_hand_of_thirteen() -> None:
    """Case XIX: "A plays with thirteen cards; B with twelve.  B wins the twelfth trick, and scores two for it ...
    B is entitled to score two for the twelfth trick."  Here the younger holds thirteen and the elder twelve."""
    deal = case_xxii()
    deal.reckons_nothing(YOUNGER, "Law 35")
    for card in CASE_XXII_PLAY.split():
        declare_nothing(deal)
        deal.apply(Play(cards(card)[0]))
    twelfth = [e for e in deal.events if type(e) is Trick and e.number == 12]
    assert len(twelfth) == 1 and twelfth[0].winner == ELDER and twelfth[0].points == 2
    assert deal.phase == Phase.DONE and deal.hands[YOUNGER].bit_count() == 1


def test_law_57_a_hand_of_eleven_the_cards_that_cannot_be_played_to_count_as_tricks() -> None:
    """Law 30: discarding five and taking in four, the elder plays with eleven, with no penalty (Law 57); after
    the eleventh trick the younger's last card cannot be played to and counts as a trick, the twelfth and last."""
    deal = Deal.from_pack(list(range(32)))  # any deal: the pack in order
    deal.take_in(ELDER, lowest(deal.hands[ELDER], 5), 4, "Law 30")
    assert deal.hands[ELDER].bit_count() == 11
    assert not any(type(e) is Penalty for e in deal.events)  # "he is liable to no penalty"
    assert deal.phase == Phase.ELDER_LOOK  # he left one card of his five
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(lowest(deal.hands[YOUNGER], 4)))
    rng = random.Random(3)
    while not deal.is_over:
        declare_nothing(deal)
        deal.apply(deal.legal_actions().sample(rng))
    unanswered = [e for e in deal.events if type(e) is Unanswered]
    assert unanswered == [Unanswered(YOUNGER, 1, 1)]
    assert sum(deal.tricks_won) == 12 and deal.hands[ELDER] == 0 and deal.hands[YOUNGER].bit_count() == 1


def declare_nothing(deal: Deal) -> None:
    """Every call and reckoning made as nothing, up to the next card to play."""
    nothing: dict[type, Action] = {DeclarePoint: DeclarePoint(0), DeclareSequences: DeclareSequences(()),
                                   DeclareSets: DeclareSets(()), LookAtLeft: LookAtLeft(False)}
    while deal.phase not in (Phase.PLAY, Phase.DONE):
        deal.apply(nothing[type(next(iter(deal.legal_actions())))])


def lowest(mask: int, n: int) -> int:
    """The ``n`` lowest cards of ``mask`` (by card number)."""
    return mask_of(sorted(cards_of(mask))[:n])


# ---------------------------------------------------------------- Laws 40-43: a deal of eleven or thirteen stands


def standing(elder_n: int, younger_n: int, stock_n: int) -> Deal:
    """A deal of these sizes, its cards in order, stood by the elder's choice as the referee rules it."""
    ruling = rule(Irregularity(Kind.WRONG_COUNT, elder_cards=elder_n, younger_cards=younger_n, stock_cards=stock_n,
                               hand_taken_up=True))
    # The elder with twelve finds the stock of seven after discarding, and alters his discard (Law 11).
    option = ruling.option(Remedy.STAND_ODD if elder_n != 12 else Remedy.ALTER_DISCARD)
    elder = (1 << elder_n) - 1
    younger = ((1 << younger_n) - 1) << elder_n
    stock = list(range(elder_n + younger_n, 32))
    return Deal(elder, younger, stock, limits=deal_limits(option.limits))


@pytest.mark.parametrize(("sizes", "law", "elder_range", "elder_surplus"), [
    ((13, 11, 8), "Law 40", (2, 6), 1),   # "discard one card more than he takes in ... at least two cards"
    ((13, 12, 7), "Law 41", (2, 6), 1),   # "if he take all his cards, he discards six"
    ((11, 13, 8), "Law 42", (0, 4), -1),  # "one less than he takes in; if he only take one card ... need not discard"
    ((12, 13, 7), "Law 43", (1, 5), 0),   # "the same number of cards as he takes in"
])
def test_laws_40_to_43_each_ends_the_exchange_with_twelve(sizes: tuple[int, int, int], law: str,
                                                         elder_range: tuple[int, int], elder_surplus: int) -> None:
    deal = standing(*sizes)
    assert (deal.min_discard(ELDER), deal.max_discard(ELDER)) == elder_range
    with pytest.raises(IllegalAction, match="Laws 40-43"):
        deal.apply(Discard(lowest(deal.hands[ELDER], elder_range[1] + 1)))
    most = elder_range[1]
    deal.apply(Discard(lowest(deal.hands[ELDER], most)))  # he takes all his five
    assert deal.hands[ELDER].bit_count() == 12 and deal.elder_takes == most - elder_surplus == 5
    younger_most = deal.max_discard(YOUNGER)
    younger_takes = sizes[2] - 5  # what is left of the stock
    assert younger_most - (sizes[1] - 12) == younger_takes
    if sizes[2] == 7:
        assert younger_takes == 2  # "the younger hand can only take two cards" (Laws 41, 43)
    deal.apply(Discard(lowest(deal.hands[YOUNGER], younger_most)))
    assert deal.hands[YOUNGER].bit_count() == 12
    assert deal.phase == Phase.ELDER_POINT
    exchanges = [e for e in deal.events if type(e) is OddExchange]
    assert [(e.role, e.discarded - e.taken) for e in exchanges] == [
        (r, s) for r, s in ((ELDER, sizes[0] - 12), (YOUNGER, sizes[1] - 12)) if s]


def test_law_42_the_elder_with_eleven_taking_one_need_discard_none() -> None:
    deal = standing(11, 13, 8)
    deal.apply(Discard(0))  # "if he only take one card, he need not discard any"
    assert deal.elder_takes == 1 and deal.hands[ELDER].bit_count() == 12
    assert deal.min_discard(YOUNGER) == 2  # "The younger hand must discard ... at least two cards"


def test_a_deal_that_cannot_stand_is_refused() -> None:
    with pytest.raises(ValueError, match="twelve cards to each"):
        Deal((1 << 13) - 1, ((1 << 11) - 1) << 13, list(range(24, 32)))
    with pytest.raises(ValueError, match="cannot stand"):
        Deal((1 << 11) - 1, ((1 << 14) - 1) << 11, list(range(25, 32)), limits=((-1, 0, 5), (2, 2, 2)))


# ---------------------------------------------------------------- reckoning nothing (Laws 44, 58; Case XXI)


def test_reckoning_nothing_his_cards_bar_and_a_carte_blanche_still_scores() -> None:
    """Case XXI: "the law which bars a player from reckoning anything if he plays with too many cards does not
    apply to a carte blanche"; Law 58: "his cards, though not good to score, are good to bar his adversary"."""
    # The elder holds no court card: a carte blanche (Law 18), and a point of six in spades.
    elder = m("AS TS 9S 8S 7S AH TH 9H AC TC AD TD")
    younger = m("KS QS JS KH QH JH 8H KC QC JC 9C KD")
    stock = [c for c in range(32) if not (elder | younger) >> c & 1]
    deal = Deal(elder, younger, stock)
    deal.reckons_nothing(ELDER, "Law 58")
    deal.apply(Discard(m("7S")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(lowest(deal.hands[YOUNGER], 1)))
    assert deal.scores[ELDER][S_CARTE_BLANCHE] == 10  # still scores (Case XXI)
    point = m("AS TS 9S 8S")
    deal.apply(DeclarePoint(point | (deal.hands[ELDER] & m("QS JS KS"))))  # his spades, whatever he took in
    deal.apply(DeclarePoint(m("KH QH JH") & deal.hands[YOUNGER] or 0))
    assert deal.scores[ELDER][S_POINT] == 0 and deal.scores[YOUNGER][S_POINT] == 0  # good, but scores nothing
    assert deal.totals[ELDER] == 10


def test_the_penalty_is_entered_before_the_calling_and_not_taken_back() -> None:
    deal = case_xxii()
    deal.reckons_nothing(YOUNGER, "Law 35")
    with pytest.raises(IllegalAction, match="already"):
        deal.reckons_nothing(YOUNGER, "Law 35")
    with pytest.raises(IllegalAction, match="stands"):
        deal.undo()
    deal.apply(DeclarePoint(m("AS KS QS JS 9S")))
    with pytest.raises(IllegalAction, match="before the calling"):
        deal.reckons_nothing(ELDER, "Law 58")
    assert deal.undo() == DeclarePoint(m("AS KS QS JS 9S"))


def test_an_irregular_exchange_is_checked() -> None:
    deal = Deal.from_pack(list(range(32)))
    with pytest.raises(IllegalAction, match="not exchanging"):
        deal.take_in(YOUNGER, lowest(deal.hands[YOUNGER], 2), 3)
    with pytest.raises(IllegalAction, match="cannot be taken in"):
        deal.take_in(ELDER, lowest(deal.hands[ELDER], 2), 9)
    with pytest.raises(IllegalAction, match="not in the elder hand"):
        deal.take_in(ELDER, deal.hands[YOUNGER] & -deal.hands[YOUNGER], 1)
    assert deal.phase == Phase.ELDER_DISCARD and deal.hands[ELDER].bit_count() == 12


def test_a_plain_deal_keeps_its_play_scores_when_nobody_is_penalised() -> None:
    """The hot path is untouched for a regular deal: a first lead scores one (Law 65)."""
    deal = case_xxii()
    declare_nothing(deal)
    deal.apply(Play(cards("AS")[0]))
    declare_nothing(deal)  # the younger reckons: then the hands, and the lead, are scored
    assert deal.scores[ELDER][S_PLAY] == 1
