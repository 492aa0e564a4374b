"""Case IV (Law 56): what the cards the elder has shown declare by implication bars the younger's reckoning.

Case IV (p. 22): "A calls a point headed by ace, and two tierce majors in other suits, and leads a card, but says
nothing about aces.  Can B reckon three knaves?  Decision. -- B cannot reckon three knaves.  A has declared three
aces by implication, and can reckon anything he has omitted before B plays to the first trick (Law 56).  B's
course is to play a card, saying nothing about knaves, when A loses the score for the aces."
"""

from __future__ import annotations

import json

import pytest

from piquet.core.actions import DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import mask_of, parse_cards
from piquet.core.deal import Deal, IllegalAction, Phase
from piquet.core.events import ELDER, S_PLAY, S_POINT, S_SEQUENCES, S_SETS, YOUNGER
from piquet.core.observation import observe
from piquet.core.partie import Partie
from piquet.core.rules import rules_named
from piquet.records.record import RecordError, parse_record, record_of, replay
from piquet.talk.words import prompt_words


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


#: The elder holds a point of five in spades headed by the ace, tierce majors in hearts and clubs, and so three
#: aces (and three queens) that his point and tierces show; the younger holds three knaves.
ELDER_DEALT = "AS QS TS 8S 7S AH KH QH AC KC QC 8D"
YOUNGER_DEALT = "KS 9S JH TH 9H 7H JC 9C 7C JD TD 8H"
STOCK = "7D 9D JS TC 8C AD KD QD"
THREE_KNAVES = m("JH JC JD")


def case_iv(rules: str = "rubicon") -> Deal:
    """The deal of Case IV up to the younger's reckoning: the elder has called his point and two tierce majors,
    both good, said nothing about aces, and led the ace of spades."""
    r = rules_named(rules)
    deal = Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), parse_cards(STOCK.split()), r, None if r.goal is None else (0, 0))
    for action in (Discard(m("8D")), LookAtLeft(False), Discard(m("8H")),
                   DeclarePoint(m("AS QS TS 8S 7S")), DeclarePoint(m("JH TH 9H 7H")),
                   DeclareSequences((m("AH KH QH"), m("AC KC QC"))), DeclareSequences((m("JH TH 9H"), m("JD TD 9D"))),
                   DeclareSets(()), Play(parse_cards(["AS"])[0])):
        deal.apply(action)
    return deal


def test_case_iv_the_younger_cannot_reckon_three_knaves() -> None:
    """ "B cannot reckon three knaves. A has declared three aces by implication." """
    deal = case_iv()
    assert deal.phase == Phase.YOUNGER_RECKON_SETS
    assert DeclareSets((THREE_KNAVES,)) not in deal.legal_actions()
    assert list(deal.legal_actions()) == [DeclareSets(())]
    with pytest.raises(IllegalAction, match=r"cannot reckon that quatorze or trio.*Law 56, Case IV"):
        deal.apply(DeclareSets((THREE_KNAVES,)))
    deal.apply(DeclareSets(()))
    deal.apply(LookAtLeft(False))
    assert deal.phase == Phase.PLAY and deal.to_move == YOUNGER
    assert deal.scores[YOUNGER][S_SETS] == 0 and deal.total(YOUNGER) == 0
    # The elder: five for the point, three and three for the tierces, one for his lead; nothing for the aces,
    # which he did not call: "B's course is to play a card, saying nothing about knaves, when A loses the score for
    # the aces."
    assert deal.scores[ELDER][S_POINT] == 5 and deal.scores[ELDER][S_SEQUENCES] == 6
    assert deal.scores[ELDER][S_SETS] == 0 and deal.scores[ELDER][S_PLAY] == 1


def test_the_younger_sees_the_bar_in_his_observation() -> None:
    """The bar is public (the cards shown): the younger's own legal actions leave the knaves out, and a player who
    means to reckon them is told nothing more than that he reckons nothing."""
    deal = case_iv()
    obs = observe(deal, YOUNGER)
    assert list(obs.legal_actions()) == [DeclareSets(())]
    assert obs.lawful(DeclareSets((THREE_KNAVES,))) == DeclareSets(())
    assert obs.bar == (3, 7)  # three aces


def test_a_better_reckoning_than_the_cards_shown_is_good() -> None:
    """The bar is only what the cards shown make: a quatorze beats the three aces they imply."""
    deal = Deal(m("AS QS TS 8S 7S AH KH QH AC KC QC 8D"), m("KS JS JH TH 9H 7H JC 9C 7C JD TD 8H"),
                parse_cards(["7D", "9D", "9S", "TC", "8C", "AD", "KD", "QD"]))
    for action in (Discard(m("8D")), LookAtLeft(False), Discard(m("8H")),
                   DeclarePoint(m("AS QS TS 8S 7S")), DeclarePoint(m("JH TH 9H 7H")),
                   DeclareSequences((m("AH KH QH"), m("AC KC QC"))), DeclareSequences((m("JH TH 9H"), m("JD TD 9D"))),
                   DeclareSets(()), Play(parse_cards(["AS"])[0]), DeclareSets((m("JS JH JC JD"),)),
                   LookAtLeft(False)):
        deal.apply(action)
    assert deal.scores[YOUNGER][S_SETS] == 14


def test_at_au_cent_nothing_is_barred_by_implication() -> None:
    """The laws of Piquet au cent (p. 16-20) say nothing of it: the younger's three knaves, reckoned, are good."""
    deal = case_iv("au-cent")
    assert DeclareSets((THREE_KNAVES,)) in deal.legal_actions()


def test_the_case_iv_record_scores_the_younger_nothing_for_his_knaves() -> None:
    """A record where the younger reckons the knaves is refused, citing Case IV; reckoning nothing, it replays."""
    partie = Partie(first_dealer="B")
    deal = partie.add_deal(case_iv())
    deal.apply(DeclareSets(()))
    deal.apply(LookAtLeft(False))
    text = record_of(partie).to_json()
    again = replay(parse_record(text)).deals[0]
    assert again.scores[YOUNGER][S_SETS] == 0 and again.total(YOUNGER) == 0
    doc = json.loads(text)
    doc["deals"][0]["calls"]["younger"]["sets"] = [["JH", "JC", "JD"]]
    with pytest.raises(RecordError, match="Case IV"):
        replay(parse_record(json.dumps(doc)))


def test_the_younger_is_told_why_he_reckons_nothing() -> None:
    """The prompt names the case, rather than saying he has nothing to declare."""
    assert prompt_words(observe(case_iv(), YOUNGER), "Ann") == (
        "You cannot reckon your quatorze or trio: the cards the elder has shown make as much (Law 56, Case IV).")
