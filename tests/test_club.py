"""A club table (``Deal(..., club=True)``): calls are taken at the player's word, and a call of cards not held,
allowed good, is a miscall with Law 54's penalty when it comes to light before the younger plays to the first
trick.  Case II is built here; the strict table's refusal is kept beside it."""

from __future__ import annotations

import pytest

from piquet.core.actions import DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import parse_cards
from piquet.core.deal import Deal, IllegalAction, Phase
from piquet.core.events import (
    ELDER,
    S_SEQUENCES,
    S_SETS,
    SETS,
    YOUNGER,
    Miscall,
    Penalty,
    Reply,
    Show,
)
from piquet.core.partie import Partie
from piquet.core.rules import rules_named
from piquet.records.record import parse_record, record_of, replay
from piquet.talk.words import narrate
from test_irregular_deals import declare_nothing, m

# The elder discards the king of clubs and takes in the king of hearts: two kings in hand, a third in his discard.
# The younger holds four tens, which he sinks (Case II), and the king of diamonds.
ELDER_DEALT = "KS KC AS QS JS AH QH 9H AC 8C 7C AD"
YOUNGER_DEALT = "TS TH TC TD 9S 8S JH JC 9C KD QD JD"
STOCK = "7S KH 8H 7H QC 8D 9D 7D"


def deal(club: bool = True) -> Deal:
    d = Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), parse_cards(STOCK.split()), club=club)
    d.apply(Discard(m("KC 8C 7C")))  # takes in 7S KH 8H
    d.apply(LookAtLeft(False))
    d.apply(Discard(m("9S 8S 9C")))  # takes in 7H QC 8D
    return d


def test_the_strict_table_refuses_a_call_of_cards_not_held() -> None:
    d = deal(club=False)
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences(()))
    with pytest.raises(IllegalAction, match="Law 54"):
        d.apply(DeclareSets((m("KS KH KC"),)))


def test_case_ii_a_miscall_bars_nothing_and_the_adversary_reckons_what_he_sank() -> None:
    """Case II: "A calls three kings, which B allows to be good.  It is presently discovered that A has not three
    kings.  B then claims to reckon four tens.  Is he entitled to do so?  Decision. -- Yes."  And Law 54: A
    "can reckon nothing that deal"."""
    d = deal()
    assert d.hands[ELDER] & m("KS KH KC") != m("KS KH KC")  # he has not three kings
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences(()))
    d.apply(DeclareSets((m("KS KH KC"),)))  # taken at his word
    d.apply(DeclareSets(()))  # B sinks his four tens: "Good"
    assert Reply(YOUNGER, SETS, 0) in d.events
    d.apply(Play(parse_cards(["AS"])[0]))
    declare_nothing(d)
    assert Miscall(ELDER, SETS, m("KS KH KC"), False) in d.events
    assert Penalty(ELDER, "Law 54") in d.events
    assert d.scores[YOUNGER][S_SETS] == 17  # B reckons his four tens, and his three knaves (14 + 3)
    assert d.totals[ELDER] == 0  # A reckons nothing: not his lead either
    said = " ".join(str(seg) for line in narrate(d.events, ("A", "B")) for seg in line.segments)
    assert "A does not hold the three kings called" in said and "Law 54" in said


def test_a_call_he_could_not_have_held_carries_no_penalty() -> None:
    """Law 54: no penalty "in the case ... of his having called anything which he could not possibly have held in
    his hand and discard together" -- the younger holds the king of diamonds."""
    d = deal()
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences(()))
    d.apply(DeclareSets((m("KS KH KD"),)))
    d.apply(DeclareSets(()))
    d.apply(Play(parse_cards(["AS"])[0]))
    declare_nothing(d)
    assert Miscall(ELDER, SETS, m("KS KH KD"), True) in d.events
    assert not any(type(e) is Penalty for e in d.events)
    assert d.totals[ELDER] >= 1  # his lead scores (Law 65)
    assert d.scores[YOUNGER][S_SETS] == 17  # the call bars nothing: B reckons his tens and knaves


def test_a_false_call_not_allowed_good_scores_nothing_and_carries_no_penalty() -> None:
    d = deal()
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences(()))
    d.apply(DeclareSets((m("KS KH KC"),)))
    d.apply(DeclareSets((m("TS TH TC TD"),)))  # "Not good": a quatorze beats a trio
    d.apply(Play(parse_cards(["AS"])[0]))
    declare_nothing(d)
    assert not any(type(e) in (Miscall, Penalty) for e in d.events)
    assert d.scores[YOUNGER][S_SETS] == 14


def test_the_youngers_miscall_lets_the_elder_reckon_the_sequences_he_sank() -> None:
    """The younger reckons a tierce to the ten in spades, in sequences the elder did not call; he discarded the
    nine and eight, so he could have held it (Law 54): he reckons nothing, and the elder, who sank his quart major
    and tierce major, reckons them (Case II)."""
    d = deal()
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences(()))
    d.apply(DeclareSets(()))
    d.apply(Play(parse_cards(["AS"])[0]))
    assert d.phase == Phase.YOUNGER_RECKON_POINT
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences((m("TS 9S 8S"),)))
    declare_nothing(d)
    assert Miscall(YOUNGER, 1, m("TS 9S 8S"), False) in d.events
    assert Penalty(YOUNGER, "Law 54") in d.events
    assert [e.cards for e in d.events if type(e) is Show and e.role == ELDER] == [m("AS KS QS JS"), m("AH KH QH")]
    assert d.scores[ELDER][S_SEQUENCES] == 7 and d.totals[YOUNGER] == 0


def test_the_club_agreement_makes_a_club_table_and_its_record_replays_the_miscall() -> None:
    """``rubicon+club``: the agreement that calls are taken at the player's word, kept in the record."""
    rules = rules_named("rubicon+club")
    assert rules.calls_at_word and rules.agreements == ("club",) and rules != rules_named("rubicon")
    assert rules_named("au-cent+small-cards+club").spec == "au-cent+small-cards+club"
    partie = Partie(rules=rules, first_dealer="B")
    d = partie.deal_cards(m(ELDER_DEALT), m(YOUNGER_DEALT), parse_cards(STOCK.split()))
    assert d.club
    d.apply(Discard(m("KC 8C 7C")))
    d.apply(LookAtLeft(False))
    d.apply(Discard(m("9S 8S 9C")))
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences(()))
    d.apply(DeclareSets((m("KS KH KC"),)))
    d.apply(DeclareSets(()))
    d.apply(Play(parse_cards(["AS"])[0]))
    declare_nothing(d)
    record = record_of(partie)
    assert record.agreements == ("club",)
    again = replay(parse_record(record.to_json())).deals[0]
    assert Penalty(ELDER, "Law 54") in again.events and again.scores[YOUNGER][S_SETS] == 17
    with pytest.raises(ValueError, match="unknown agreement"):
        rules_named("rubicon+clubs")
