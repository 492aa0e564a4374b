"""The marker's calls as the laws bar them: what the elder has shown declares by implication (Law 56, Case IV);
a call of what the caller does not hold is void, and the adversary reckons what he has good against the correct
calls (Law 54, Case II); and a player may sink, calling less than he holds (p. 156-158).

The expected scores are the laws': a point one for each card (Law 62), a tierce three, a quart four, a quint
fifteen, a sixieme sixteen (Law 63), a quatorze fourteen and a trio three (Law 64).
"""

from __future__ import annotations

import json

import pytest

from piquet.core.cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, KNAVE, QUEEN, SPADES, TEN
from piquet.core.combinations import Outcome
from piquet.core.events import ELDER, YOUNGER
from piquet.core.rules import AU_CENT, RUBICON
from piquet.marker import (
    Declared,
    FullCalls,
    MarkedDeal,
    MarkedPartie,
    MarkError,
    PlayTotals,
    PointCall,
    SequenceCall,
    SetCall,
    hand_fits,
)
from piquet.marker.calls import implied_bar
from piquet.marker.deal import shown_by_elder
from piquet.marker.record import marked_from_json, marked_to_json
from piquet.marker.telling import partie_text

G, E, N = Outcome.GOOD, Outcome.EQUAL, Outcome.NOT_GOOD
PLAY = PlayTotals(6, 7, 7)  # six tricks each: seven in play each, the cards divided

# Case IV (p. 22): "A calls a point headed by ace, and two tierce majors in other suits, and leads a card, but
# says nothing about aces.  Can B reckon three knaves?  Decision. -- B cannot reckon three knaves.  A has declared
# three aces by implication ... B's course is to play a card, saying nothing about knaves, when A loses the score
# for the aces."
POINT_TO_THE_ACE = PointCall(5, suit=SPADES, head=ACE)  # the ace of spades shown
TWO_TIERCE_MAJORS = (SequenceCall(3, ACE, HEARTS), SequenceCall(3, ACE, CLUBS))  # AH KH QH, AC KC QC shown


def case_iv(younger_sets: tuple[SetCall, ...], point: PointCall = POINT_TO_THE_ACE,
            tierces: tuple[SequenceCall, ...] = TWO_TIERCE_MAJORS, point_reply: Outcome = G,
            younger_point: PointCall | None = None) -> MarkedDeal:
    calls = FullCalls(Declared(point, tierces), (point_reply, G, None), Declared(younger_point, (), younger_sets))
    return MarkedDeal("B", declarations=calls, play=PLAY)


def refusal(deal: MarkedDeal) -> MarkError:
    with pytest.raises(MarkError) as e:
        deal.score(RUBICON)
    return e.value


# ---------------------------------------------------------------- Case IV


def test_case_iv_the_younger_cannot_reckon_three_knaves() -> None:
    e = refusal(case_iv((SetCall(3, KNAVE),)))
    assert e.law == "Law 56, Case IV"
    assert "three knaves" in e.message and "three aces" in e.message
    # Any trio below the aces is barred as well: the aces make as much or more.
    for rank in (KING, QUEEN, TEN):
        assert refusal(case_iv((SetCall(3, rank),))).law == "Law 56, Case IV"
    # "B's course is to play a card, saying nothing about knaves, when A loses the score for the aces": the elder
    # scores five for his point and three for each tierce, nothing for the aces he did not call.
    s = case_iv(()).score()
    assert (s.heading(ELDER, "point"), s.heading(ELDER, "sequences"), s.heading(ELDER, "sets")) == (5, 6, 0)
    assert s.heading(YOUNGER, "sets") == 0


def test_case_iv_a_quatorze_beats_the_aces_implied() -> None:
    """Any quatorze beats any trio (Law 64): fourteen knaves are good against the three aces implied."""
    s = case_iv((SetCall(4, KNAVE),)).score()
    assert s.heading(YOUNGER, "sets") == 14 and s.heading(ELDER, "sets") == 0


def test_case_iv_bars_nothing_at_piquet_au_cent() -> None:
    """At Piquet au cent nothing is declared by implication: the younger's three knaves score three."""
    point = PointCall(5, 46, SPADES, ACE)  # at au cent the elder says what his point makes (p. 18): AS QS 10S 8S 7S
    s = case_iv((SetCall(3, KNAVE),), point).score(AU_CENT, (0, 0))
    assert s.heading(YOUNGER, "sets") == 3 and s.heading(ELDER, "point") == 5


def test_only_the_cards_shown_declare_by_implication() -> None:
    """The elder's point not good is not shown (Law 55): his tierces show two aces, and three knaves are good.
    His point equal is shown: the aces are three again."""
    s = case_iv((SetCall(3, KNAVE),), point_reply=N, younger_point=PointCall(6)).score()
    assert s.heading(YOUNGER, "sets") == 3 and s.heading(YOUNGER, "point") == 6
    equal = PointCall(5, 46, SPADES, ACE)
    e = refusal(case_iv((SetCall(3, KNAVE),), equal, point_reply=E, younger_point=PointCall(5, 46)))
    assert e.law == "Law 56, Case IV"


def test_what_the_calls_leave_open_bars_nothing() -> None:
    """Without the suits shown, the marker cannot tell that the tierces lie outside the point's suit (a point of
    five to the ace may hold A K Q of its suit): two aces are sure, not three, and nothing is refused."""
    s = case_iv((SetCall(3, KNAVE),), PointCall(5, head=ACE), (SequenceCall(3, ACE), SequenceCall(3, ACE))).score()
    assert s.heading(YOUNGER, "sets") == 3
    # Without the top card, a point of five in spades need not hold the ace of spades (K Q J 10 9 make 49).
    s = case_iv((SetCall(3, KNAVE),), PointCall(5, suit=SPADES)).score()
    assert s.heading(YOUNGER, "sets") == 3
    # Fifty: five cards of a suit make fifty only with the ace (A K Q J 9, A K Q 10 9 ...).
    e = refusal(case_iv((SetCall(3, KNAVE),), PointCall(5, 50, SPADES)))
    assert e.law == "Law 56, Case IV"


def test_a_point_shown_bars_the_sequences_it_makes() -> None:
    """Five cards making fifty-one are A K Q J 10, a quint major: shown for point, they bar a quint to the king
    that the younger would reckon in sequences the elder did not call; a sixieme is good, sixteen."""
    calls = FullCalls(Declared(PointCall(5, 51)), (G, None, None), Declared(None, (SequenceCall(5, KING),)))
    e = refusal(MarkedDeal("B", declarations=calls, play=PLAY))
    assert e.law == "Law 56, Case IV" and "a quint major" in e.message
    calls = FullCalls(Declared(PointCall(5, 51)), (G, None, None), Declared(None, (SequenceCall(6, KING),)))
    assert MarkedDeal("B", declarations=calls, play=PLAY).score().heading(YOUNGER, "sequences") == 16


def test_quatorzes_shown_bar_the_sequences_they_make() -> None:
    """Fourteen aces, fourteen kings and three queens shown hold A K Q in three suits at least: a tierce major
    is declared by implication, and a tierce to the knave cannot be reckoned; a quart to the knave can, four."""
    elder = Declared(None, (), (SetCall(4, ACE), SetCall(4, KING), SetCall(3, QUEEN)))
    calls = FullCalls(elder, (None, None, G), Declared(None, (SequenceCall(3, KNAVE),)))
    assert refusal(MarkedDeal("B", declarations=calls, play=PLAY)).law == "Law 56, Case IV"
    calls = FullCalls(elder, (None, None, G), Declared(None, (SequenceCall(4, KNAVE),)))
    s = MarkedDeal("B", declarations=calls, play=PLAY).score()
    assert s.heading(YOUNGER, "sequences") == 4 and s.heading(ELDER, "sets") == 31


def test_what_the_cards_shown_are_sure_to_make() -> None:
    """The cards each spoken call reveals: a point to the ace of spades the ace of spades, a tierce major in
    hearts A K Q of hearts, a quatorze its four cards; a trio three of the four, any one missing."""
    a = Declared(POINT_TO_THE_ACE, TWO_TIERCE_MAJORS)
    assert implied_bar(a, 2) == (3, ACE)  # three aces
    assert implied_bar(Declared(None, TWO_TIERCE_MAJORS), 2) == (0, 0)  # two of each
    # Three aces, kings and queens: each rank misses one suit, three suits at most, so the fourth holds A K Q.
    assert implied_bar(Declared(None, (), (SetCall(3, ACE), SetCall(3, KING), SetCall(3, QUEEN))), 1) == (3, ACE)
    assert implied_bar(Declared(None, (), (SetCall(3, ACE), SetCall(3, KING), SetCall(4, KNAVE))), 1) == (0, 0)
    assert implied_bar(Declared(None, (), (SetCall(4, ACE), SetCall(4, KING), SetCall(3, QUEEN))), 1) == (3, ACE)
    tierce_in_diamonds = Declared(PointCall(5, suit=DIAMONDS, head=ACE), (SequenceCall(3, ACE, DIAMONDS),))
    assert implied_bar(tierce_in_diamonds, 2) == (0, 0)  # the point's ace is the tierce's: one ace
    # What the elder has shown: his point and sequences good, not his sets not good.
    calls = FullCalls(Declared(POINT_TO_THE_ACE, TWO_TIERCE_MAJORS, (SetCall(3, KING),)), (G, G, N),
                      Declared(None, (), (SetCall(4, TEN),)))
    assert shown_by_elder(calls) == Declared(POINT_TO_THE_ACE, TWO_TIERCE_MAJORS)


# ---------------------------------------------------------------- Case II


def case_ii(elder_sets: tuple[SetCall, ...], younger_sets: tuple[SetCall, ...],
            point: PointCall | None = None, younger_point: PointCall | None = None) -> MarkedDeal:
    replies = (None if point is None else G, None, G)
    return MarkedDeal("B", declarations=FullCalls(Declared(point, (), elder_sets), replies,
                                                  Declared(younger_point, (), younger_sets)),
                      play=PLAY, reckons_nothing=frozenset({ELDER}))


def test_case_ii_the_adversary_reckons_what_he_has_good() -> None:
    """Case II (p. 21): "A calls three kings, which B allows to be good.  It is presently discovered that A has
    not three kings.  B then claims to reckon four tens.  Is he entitled to do so?  Decision. -- Yes." A
    reckons nothing that deal (Law 54)."""
    s = case_ii((SetCall(3, KING, held=False),), (SetCall(4, TEN),)).score()
    assert s.heading(YOUNGER, "sets") == 14 and s.total(YOUNGER) == 21 and s.total(ELDER) == 0


def test_case_ii_a_correct_call_of_the_player_in_error_still_bars() -> None:
    """Law 54: "the adversary may reckon anything he has good, which is not barred by a correct call of the
    player in error, made in addition to his miscall": fourteen aces called correctly bar the four tens; three
    aces do not (a quatorze beats a trio); a correct point bars the adversary's smaller point."""
    barred = case_ii((SetCall(4, ACE), SetCall(3, KING, held=False)), (SetCall(4, TEN),))
    s = barred.score()
    assert s.heading(YOUNGER, "sets") == 0 and s.total(ELDER) == 0
    s = case_ii((SetCall(3, ACE), SetCall(3, KING, held=False)), (SetCall(4, TEN),), PointCall(5, 49),
                PointCall(4)).score()
    assert s.heading(YOUNGER, "sets") == 14 and s.heading(YOUNGER, "point") == 0 and s.total(ELDER) == 0
    # The penalty waived (Law 44), the elder scores his correct calls: the point, and nothing for sets, where the
    # four tens are good against his three aces.
    s = case_ii((SetCall(3, ACE), SetCall(3, KING, held=False)), (SetCall(4, TEN),), PointCall(5, 49)) \
        .with_(waived=frozenset({ELDER})).score()
    assert s.heading(ELDER, "point") == 5 and s.heading(ELDER, "sets") == 0 and s.heading(YOUNGER, "sets") == 14


def test_the_younger_in_error_and_the_elder_good() -> None:
    """The younger says "not good" to a quart major, showing a quint he does not hold: found out, he reckons
    nothing, and the elder's quart is good against the younger's correct tierce: four."""
    calls = FullCalls(Declared(None, (SequenceCall(4, ACE),)), (None, N, None),
                      Declared(None, (SequenceCall(5, KING, held=False), SequenceCall(3, KNAVE))))
    s = MarkedDeal("B", declarations=calls, play=PLAY, reckons_nothing=frozenset({YOUNGER})).score()
    assert s.heading(ELDER, "sequences") == 4 and s.total(YOUNGER) == 0


def test_a_call_not_held_is_recorded_and_told() -> None:
    deal = case_ii((SetCall(3, KING, held=False),), (SetCall(4, TEN),))
    p = MarkedPartie(players=("Ann", "Bob")).add(deal)
    text = marked_to_json(p)
    assert marked_from_json(text) == p
    assert json.loads(text)["deals"][0]["declared"]["elder"]["sets"] == [{"size": 3, "rank": "K", "held": False}]
    told = partie_text(p)
    assert "Ann called three kings, which he does not hold" in told and "(Law 54, Case II)" in told
    assert "Bob: Fourteen for quatorzes and trios: fourteen." in told


def test_suits_and_top_cards_are_recorded() -> None:
    p = MarkedPartie(players=("Ann", "Bob")).add(case_iv((SetCall(4, KNAVE),)))
    text = marked_to_json(p)
    assert marked_from_json(text) == p
    elder = json.loads(text)["deals"][0]["declared"]["elder"]
    assert elder["point"] == {"cards": 5, "suit": "S", "head": "A"}
    assert elder["sequences"][0] == {"length": 3, "head": "A", "suit": "H"}
    bad = text.replace('"suit": "H"', '"suit": "X"', 1)
    with pytest.raises(MarkError, match="a suit S H C D"):
        marked_from_json(bad)
    with pytest.raises(MarkError, match="held"):
        marked_from_json(text.replace('"suit": "H"', '"held": "no"', 1))


# ---------------------------------------------------------------- sinking


def test_a_player_may_sink() -> None:
    """A player may call less than he holds (Laws 50, 51; p. 156-158): "He calls five cards ... and declares five
    spades, when he might have six"; "He may have a quart to a knave, and may only call a tierce to a knave";
    "a quatorze, and may only call a trio"; B "shows ace, knave, ten, eight of spades for point, sinking the
    king"."""
    assert hand_fits(Declared(PointCall(5), (SequenceCall(6, ACE),)))  # five called of a sixieme major
    assert hand_fits(Declared(PointCall(5), (SequenceCall(5, ACE), SequenceCall(6, KING))))
    assert hand_fits(Declared(PointCall(4, 39, SPADES, ACE), (SequenceCall(5, ACE, SPADES),)))  # AS JS 10S 8S
    # Still, all that is called is held at once in twelve cards.
    assert not hand_fits(Declared(PointCall(7), (SequenceCall(6, ACE),), (SetCall(4, KING), SetCall(4, QUEEN))))
    assert not hand_fits(Declared(None, (SequenceCall(3, ACE, HEARTS), SequenceCall(3, KNAVE, HEARTS))))


def test_a_deal_where_the_elder_sank_is_scored() -> None:
    """The elder calls five cards for point, good, and a sixieme major, good: he holds six of the suit and
    calls five (sinking one): five for the point, sixteen for the sixieme."""
    calls = FullCalls(Declared(PointCall(5), (SequenceCall(6, ACE),)), (G, G, None))
    s = MarkedDeal("B", declarations=calls, play=PLAY).score()
    assert (s.heading(ELDER, "point"), s.heading(ELDER, "sequences")) == (5, 16)
    # The younger sinks the whole of his point and allows five cards good (p. 164): nothing to enter for him.
    calls = FullCalls(Declared(PointCall(5, 49)), (G, None, None), Declared(None, (), (SetCall(3, KING),)))
    s = MarkedDeal("B", declarations=calls, play=PLAY).score()
    assert s.heading(ELDER, "point") == 5 and s.heading(YOUNGER, "sets") == 3
