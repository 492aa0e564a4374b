"""The referee: each law of irregularities, its fact-dependent branches, and the Cases and Decisions it decides."""

from __future__ import annotations

import pytest

from piquet.core.events import ELDER, YOUNGER
from piquet.core.referee import (
    ENTRIES,
    IRREGULARITIES,
    PENALTIES,
    TABLE_ONLY,
    ExchangeLimits,
    Group,
    Irregularity,
    Kind,
    Remedy,
    by_group,
    rule,
)
from piquet.core.rules import AU_CENT, RUBICON, Rules
from piquet.marker import MarkedDeal, MarkedPartie, PlayTotals, QuickScores

R = Remedy
I = Irregularity  # noqa: E741


def ruled(i: Irregularity, rules: Rules = RUBICON) -> tuple[str, int | None, tuple[Remedy, ...]]:
    r = rule(i, rules)
    return r.law, r.chooser, r.remedies


# ---------------------------------------------------------------- every law, every branch

LAWS = [
    # The cut
    ("Law 5", I(Kind.CUT_FOR_DEAL_EXPOSED), RUBICON, None, (R.CUT_AGAIN,)),
    ("p. 16 (1)", I(Kind.CUT_FOR_DEAL_EXPOSED, offender=ELDER), AU_CENT, YOUNGER, (R.LOWEST_CUT, R.CUT_AGAIN)),
    ("Law 7", I(Kind.CUT_TO_DEALER_EXPOSED), RUBICON, None, (R.CUT_AGAIN,)),
    # The deal
    ("Law 10", I(Kind.MISDEALT, more_than_one=True), RUBICON, ELDER, (R.RECTIFY, R.FRESH_DEAL)),
    ("Law 10", I(Kind.MISDEALT), RUBICON, ELDER, (R.RECTIFY, R.STANDS)),
    ("Law 12", I(Kind.MISDEALT, hand_taken_up=True, more_than_one=True), RUBICON, None, (R.FRESH_DEAL,)),
    ("Law 11", I(Kind.MISDEALT, hand_taken_up=True), RUBICON, ELDER, (R.FRESH_DEAL, R.STANDS)),
    ("Law 13", I(Kind.DEALER_EXPOSED), RUBICON, ELDER, (R.FRESH_DEAL, R.STANDS)),
    ("Law 13", I(Kind.DEALER_EXPOSED, own_card=True), RUBICON, None, (R.STANDS,)),
    ("Law 14", I(Kind.FACED_CARD), RUBICON, None, (R.FRESH_DEAL,)),
    ("Law 15", I(Kind.WRONG_PACK), RUBICON, None, (R.FRESH_DEAL,)),
    ("Law 15", I(Kind.WRONG_PACK, hand_taken_up=True), RUBICON, None, (R.STANDS,)),
    ("p. 16 (4)", I(Kind.WRONG_PACK), AU_CENT, None, (R.FRESH_DEAL,)),
    ("p. 16 (4)", I(Kind.WRONG_PACK, hand_taken_up=True), AU_CENT, None, (R.STANDS,)),
    ("Law 16", I(Kind.OUT_OF_TURN), RUBICON, None, (R.VOID,)),
    ("Law 16", I(Kind.OUT_OF_TURN, hand_taken_up=True), RUBICON, None, (R.DEAL_TWICE,)),
    ("Law 16", I(Kind.OUT_OF_TURN, hand_taken_up=True, last_deal=True), RUBICON, None, (R.STANDS,)),
    ("p. 16 (5)", I(Kind.OUT_OF_TURN), AU_CENT, None, (R.VOID,)),
    ("p. 16 (5)", I(Kind.OUT_OF_TURN, hand_taken_up=True), AU_CENT, None, (R.STANDS,)),
    # The exchange
    ("Law 25", I(Kind.DISCARD_RETAKEN, offender=ELDER), RUBICON, YOUNGER, (R.MORE_THAN_TWELVE, R.WAIVE)),
    ("Law 26", I(Kind.MIXED_INTO_DISCARD, offender=YOUNGER), RUBICON, None, (R.FEWER_THAN_TWELVE,)),
    ("Law 27", I(Kind.ELDER_TOOK_YOUNGERS), RUBICON, YOUNGER, (R.RECKONS_NOTHING, R.WAIVE)),
    ("Law 27", I(Kind.YOUNGER_TOOK_ELDERS), RUBICON, ELDER, (R.RECKONS_NOTHING, R.WAIVE)),
    ("Law 27", I(Kind.ELDER_TOOK_YOUNGERS), AU_CENT, YOUNGER, (R.RECKONS_NOTHING, R.WAIVE)),
    ("Law 28", I(Kind.ELDER_TOOK_YOUNGERS, mixed=True), RUBICON, YOUNGER,
     (R.RECKONS_NOTHING, R.FRESH_DEAL, R.WAIVE)),
    ("p. 17 (3)", I(Kind.ELDER_TOOK_YOUNGERS, mixed=True), AU_CENT, None, (R.GAME_LOST,)),
    ("Law 29", I(Kind.YOUNGER_TOOK_ELDERS, mixed=True), RUBICON, ELDER,
     (R.RECKONS_NOTHING, R.FRESH_DEAL, R.WAIVE)),
    ("Law 29", I(Kind.YOUNGER_TOOK_ELDERS, left_by_elder=True), RUBICON, None, (R.STANDS,)),
    ("Law 29", I(Kind.YOUNGER_TOOK_ELDERS, left_by_elder=True, mixed=True), RUBICON, ELDER,
     (R.RECKONS_NOTHING, R.WAIVE)),
    ("p. 17 (3)", I(Kind.YOUNGER_TOOK_ELDERS), AU_CENT, None, (R.GAME_LOST,)),
    ("Law 30", I(Kind.DISCARDED_MORE, offender=ELDER), RUBICON, None, (R.FEWER_THAN_TWELVE,)),
    ("Law 31", I(Kind.TOOK_MORE, offender=ELDER), RUBICON, YOUNGER, (R.MORE_THAN_TWELVE, R.WAIVE)),
    ("Law 35", I(Kind.TOOK_MORE, offender=YOUNGER), RUBICON, ELDER, (R.MORE_THAN_TWELVE, R.WAIVE)),
    ("Law 32", I(Kind.NOT_DECLARED_LEFT), RUBICON, YOUNGER, (R.ALTER_DISCARD, R.STANDS)),
    ("Law 32", I(Kind.NOT_DECLARED_LEFT, younger_took_stock=True), RUBICON, None, (R.STANDS,)),
    ("Law 37", I(Kind.LEFT_MIXED_UNSEEN), RUBICON, ELDER, (R.SEE_DISCARD, R.STANDS)),
    ("Law 36", I(Kind.LEFT_LOOKED_AT, offender=ELDER), RUBICON, None, (R.NO_REMEDY,)),
    ("p. 17 (5)", I(Kind.LEFT_LOOKED_AT, offender=ELDER), AU_CENT, YOUNGER, (R.EXPOSE_CALL_SUIT, R.STANDS)),
    # Eleven or thirteen cards
    ("Law 10", I(Kind.WRONG_COUNT, elder_cards=13, younger_cards=11), RUBICON, ELDER, (R.RECTIFY, R.FRESH_DEAL)),
    ("Law 11", I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=13, younger_cards=11), RUBICON, ELDER,
     (R.FRESH_DEAL, R.STAND_ODD)),
    ("Law 11", I(Kind.WRONG_COUNT, hand_taken_up=True, younger_cards=13, stock_cards=7), RUBICON, ELDER,
     (R.FRESH_DEAL, R.ALTER_DISCARD)),
    ("Law 43", I(Kind.WRONG_COUNT, hand_taken_up=True, younger_cards=13, stock_cards=7, elder_took_stock=True),
     RUBICON, None, (R.STAND_ODD,)),
    ("Law 12", I(Kind.WRONG_COUNT, hand_taken_up=True, younger_cards=11, stock_cards=9), RUBICON, None,
     (R.FRESH_DEAL,)),
    ("Law 12", I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=14, younger_cards=10), RUBICON, None,
     (R.FRESH_DEAL,)),
    ("Law 39", I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=11, younger_cards=14, stock_cards=7,
                 elder_took_stock=True), RUBICON, None, (R.FRESH_DEAL,)),
    ("Law 39", I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=13, younger_cards=11, elder_took_stock=True),
     RUBICON, None, (R.STAND_ODD,)),
    ("Law 11", I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=13, younger_cards=11, elder_took_stock=True,
                 announced=True), RUBICON, ELDER, (R.FRESH_DEAL, R.STAND_ODD)),
    ("p. 16 (3)", I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=13, younger_cards=11), AU_CENT, ELDER,
     (R.FRESH_DEAL, R.STAND_ODD)),
    ("p. 16 (3)", I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=13, younger_cards=11, elder_took_stock=True),
     AU_CENT, None, (R.STAND_ODD,)),
    ("Law 75", I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=13), RUBICON, None, (R.VOID,)),
    ("Law 57", I(Kind.PLAYED_WRONG_NUMBER, offender=ELDER, cards_held=11), RUBICON, None, (R.FEWER_THAN_TWELVE,)),
    ("Law 58", I(Kind.PLAYED_WRONG_NUMBER, offender=ELDER, cards_held=13), RUBICON, YOUNGER,
     (R.MORE_THAN_TWELVE, R.WAIVE)),
    # Calling
    ("Law 50", I(Kind.UNDERCALL), RUBICON, ELDER, (R.CALL_CORRECTED, R.STANDS)),
    ("Law 50", I(Kind.UNDERCALL, replied=True), RUBICON, None, (R.STANDS,)),
    ("p. 18 (3)", I(Kind.UNDERCALL), AU_CENT, None, (R.STANDS,)),
    ("Law 51", I(Kind.UNDERALLOWED), RUBICON, YOUNGER, (R.CALL_CORRECTED, R.STANDS)),
    ("Law 51", I(Kind.UNDERALLOWED, replied=True), RUBICON, None, (R.STANDS,)),
    ("p. 19 (2)", I(Kind.UNDERALLOWED), AU_CENT, None, (R.STANDS,)),
    ("Law 52", I(Kind.OVERCALL, offender=ELDER), RUBICON, None, (R.CALL_CORRECTED,)),
    ("Law 52", I(Kind.OVERCALL, offender=ELDER, allowed=False, played_since=True), RUBICON, None,
     (R.CALL_CORRECTED,)),
    ("Law 53", I(Kind.OVERCALL, offender=ELDER, played_since=True, misnomer=True), RUBICON, None, (R.STANDS,)),
    ("Law 54", I(Kind.OVERCALL, offender=ELDER, played_since=True, impossible=True), RUBICON, None,
     (R.CALL_CORRECTED,)),
    ("Law 54", I(Kind.OVERCALL, offender=ELDER, played_since=True), RUBICON, YOUNGER, (R.RECKONS_NOTHING, R.WAIVE)),
    ("p. 19 (3)", I(Kind.OVERCALL, offender=YOUNGER, played_since=True), AU_CENT, ELDER,
     (R.RECKONS_NOTHING, R.WAIVE)),
    ("p. 19 (3)", I(Kind.OVERCALL, offender=YOUNGER), AU_CENT, None, (R.CALL_CORRECTED,)),
    # The play
    ("Law 59 I", I(Kind.DROPPED, offender=ELDER), RUBICON, None, (R.TAKE_BACK,)),
    ("Law 59 II", I(Kind.TOO_MANY_PLAYED, offender=YOUNGER), RUBICON, None, (R.TAKE_BACK,)),
    ("Law 59 III", I(Kind.LEAD_OUT_OF_TURN, offender=YOUNGER), RUBICON, None, (R.TAKE_BACK,)),
    ("Law 59 III", I(Kind.LEAD_OUT_OF_TURN, offender=YOUNGER, adversary_played=True), RUBICON, None, (R.STANDS,)),
    ("Law 59 IV", I(Kind.REVOKE, offender=YOUNGER), RUBICON, None, (R.TAKE_BACK,)),
    ("Law 59 V", I(Kind.MISINFORMED, offender=ELDER), RUBICON, YOUNGER, (R.TAKE_BACK, R.STANDS)),
    # Scoring and the pack
    ("Law 70", I(Kind.MISCOUNTED, offender=ELDER), RUBICON, None, (R.SCORE_CORRECTED,)),
    ("Law 70", I(Kind.MISCOUNTED, offender=ELDER, seen_next_hand=True), RUBICON, None, (R.STANDS,)),
    ("p. 19 (7)", I(Kind.MISCOUNTED, offender=ELDER), AU_CENT, None, (R.SCORE_CORRECTED,)),
    ("p. 19 (7)", I(Kind.MISCOUNTED, offender=ELDER, seen_next_hand=True), AU_CENT, None, (R.STANDS,)),
    ("Law 74", I(Kind.SCORES_DIFFER), RUBICON, None, (R.OWN_HAND_SCORE,)),
    ("Law 75", I(Kind.INCORRECT_PACK), RUBICON, None, (R.VOID,)),
]


@pytest.mark.parametrize("law, irregularity, rules, chooser, remedies", LAWS,
                         ids=[f"{c[0]}-{c[1].kind}-{i}" for i, c in enumerate(LAWS)])
def test_each_law_rules_by_its_facts(law: str, irregularity: Irregularity, rules: Rules, chooser: int | None,
                                     remedies: tuple[Remedy, ...]) -> None:
    """Each irregularity law and au cent's differences: the law cited, who chooses, the options."""
    assert ruled(irregularity, rules) == (law, chooser, remedies)
    assert rule(irregularity, rules).says


def test_every_law_of_irregularities_is_ruled_somewhere() -> None:
    cited = {c[0] for c in LAWS}
    for n in (5, 7, 10, 11, 12, 13, 14, 15, 16, 25, 26, 27, 28, 29, 30, 31, 32, 35, 37, 39, 40, 41, 42, 43, 50, 51,
              52, 53, 54, 57, 58, 70, 74, 75):
        assert f"Law {n}" in cited or n in (40, 41, 42), n
    assert {"Law 59 I", "Law 59 II", "Law 59 III", "Law 59 IV", "Law 59 V"} <= cited
    assert {"p. 16 (3)", "p. 16 (4)", "p. 16 (5)", "p. 17 (3)", "p. 17 (5)", "p. 19 (3)", "p. 19 (7)"} <= cited


@pytest.mark.parametrize("elder, younger, stock, law, limits", [
    (13, 11, 8, "Law 40", ((ELDER, 1, 2, 5), (YOUNGER, -1, 0, 3))),
    (13, 12, 7, "Law 41", ((ELDER, 1, 2, 5), (YOUNGER, 0, 1, 2))),
    (11, 13, 8, "Law 42", ((ELDER, -1, 0, 5), (YOUNGER, 1, 2, 3))),
    (12, 13, 7, "Law 43", ((ELDER, 0, 1, 5), (YOUNGER, 1, 2, 2))),
])
def test_a_deal_of_eleven_or_thirteen_stood_exchanges_by_laws_40_to_43(
        elder: int, younger: int, stock: int, law: str, limits: tuple[tuple[int, int, int, int], ...]) -> None:
    """Laws 40-43: standing the deal, each discards so as to hold twelve, within these limits."""
    i = I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=elder, younger_cards=younger, stock_cards=stock)
    r = rule(i)
    o = r.option(R.STAND_ODD) if R.STAND_ODD in r.remedies else r.option(R.ALTER_DISCARD)
    assert o.limits == tuple(ExchangeLimits(*x) for x in limits)
    assert law in o.says
    for x in o.limits:  # each ends with twelve cards
        assert (elder if x.role == ELDER else younger) - x.surplus == 12


@pytest.mark.parametrize("elder, younger, stock, limits", [
    (13, 11, 8, ((ELDER, 1, 1, 5), (YOUNGER, -1, 0, 3))),
    (13, 12, 7, ((ELDER, 1, 1, 4), (YOUNGER, 0, 0, 3))),
    (11, 13, 8, ((ELDER, -1, 1, 5), (YOUNGER, 1, 1, 3))),
    (12, 13, 7, ((ELDER, 0, 1, 4), (YOUNGER, 1, 1, 3))),
])
def test_au_cent_stands_eleven_or_thirteen_by_its_own_limits(
        elder: int, younger: int, stock: int, limits: tuple[tuple[int, int, int, int], ...]) -> None:
    """p. 17-18 (6): thirteen, one more discarded, none need be taken, three left the younger; eleven with eight,
    one less, one discarded; twelve with seven, three left; the younger one more than he takes, none need."""
    i = I(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=elder, younger_cards=younger, stock_cards=stock,
          elder_took_stock=True)
    o = rule(i, AU_CENT).options[0]
    assert o.remedy is R.STAND_ODD and "p. 17-18 (6)" in o.says
    assert o.limits == tuple(ExchangeLimits(*x) for x in limits)


def test_law_44_every_penalty_of_reckoning_nothing_may_be_waived_by_the_adversary() -> None:
    """Law 44: 'the adversary has the option of not enforcing the penalty'."""
    penalties = 0
    for _, i, rules, _, _ in LAWS:
        r = rule(i, rules)
        hit = [o for o in r.options if o.remedy in PENALTIES]
        if hit:
            penalties += 1
            assert R.WAIVE in r.remedies and r.chooser is not None and r.chooser != hit[0].role
    assert penalties >= 10


def test_the_catalogue_groups_every_kind_in_plain_words() -> None:
    assert {e.kind for e in IRREGULARITIES} == set(Kind) and len(ENTRIES) == len(Kind)
    groups = by_group()
    assert list(groups) == list(Group) and all(groups[g] for g in Group)
    labels = [e.label for e in IRREGULARITIES]
    assert len(set(labels)) == len(labels)
    for words in ("A card was exposed in the deal", "I have eleven or thirteen cards (or the stock has seven or nine)",
                  "He called what he does not hold", "He led out of turn",
                  "He revoked (did not follow suit when he could)", "The score was wrongly reckoned"):
        assert words in labels
    from piquet.core.referee import FACTS
    for e in IRREGULARITIES:
        assert all(f in FACTS for f in e.facts), e.kind
        assert set(e.facts) <= set(Irregularity.__dataclass_fields__)


# ---------------------------------------------------------------- the Cases and Decisions


def test_case_i_equal_to_four_cards_bars_counting_five_and_the_elder_scores_no_point() -> None:
    """Case I: "A calls four cards for point.  B replies, 'Equal.'  A says, 'Forty-one.'  B then finds ... he has
    a point of five cards.  A claims to score the point.  Decision. -- A cannot score the point.  He has not made
    another call ...  B's reply bars him from counting a superior number of cards for point (Law 46).  His point,
    though not good to score, is good to save a pique or a repique."""
    law, chooser, remedies = ruled(I(Kind.UNDERALLOWED, equal_to_number=True))
    assert (law, chooser, remedies) == ("Law 46, Case I", None, (R.POINT_BARRED,))
    says = rule(I(Kind.UNDERALLOWED, equal_to_number=True)).says
    assert "cannot score his point" in says and "saves a pique" in says
    assert R.POINT_BARRED in TABLE_ONLY  # entered as played: neither scores the point
    # Without the "Equal" to the number, Law 51 lets him correct his reply before another call.
    assert ruled(I(Kind.UNDERALLOWED)) == ("Law 51", YOUNGER, (R.CALL_CORRECTED, R.STANDS))


def test_case_ii_a_call_allowed_but_not_held_lets_the_adversary_reckon_what_it_barred() -> None:
    """Case II: 'B's admission of three kings being good is subject to A's holding them' (B reckons four tens)."""
    r = rule(I(Kind.OVERCALL, offender=ELDER, played_since=True))
    assert r.law == "Law 54" and r.chooser == YOUNGER and "adversary may reckon" in r.says
    # Marked: A reckons nothing; B's four tens, no longer barred, are entered as his and score.
    d = MarkedDeal("B", declarations=QuickScores((5, 0, 0), (0, 0, 14)), play=PlayTotals(6, 7, 7))
    p = MarkedPartie().add(d).reckons_nothing(0, "A")
    assert p.scores == {"A": 0, "B": 21}


def test_case_iii_a_fresh_deal_is_by_agreement_and_no_ruling_offers_it_unasked() -> None:
    """Case III: 'A fresh deal is a matter of agreement between the players'; letting A discard 'is tantamount to
    a refusal'."""
    assert ruled(I(Kind.FRESH_DEAL_OFFERED, discarded_since=True)) == ("Case III", None, (R.STANDS,))
    assert rule(I(Kind.FRESH_DEAL_OFFERED)).chooser is None
    allowed = {"Law 10", "Law 11", "Law 12", "Law 13", "Law 14", "Law 15", "Law 28", "Law 29", "Law 39",
               "p. 16 (3)", "p. 16 (4)", "Case III"}
    for law, i, rules, _, _ in LAWS:
        if R.FRESH_DEAL in rule(i, rules).remedies:
            assert law in allowed, law


def test_case_v_leaving_a_card_said_after_the_carte_blanche_shown() -> None:
    """Case V: 'Yes. The elder hand should state that he leaves a card before showing his carte blanche.'"""
    assert ruled(I(Kind.LEFT_BEFORE_BLANCHE)) == ("Case V", YOUNGER, (R.ALTER_DISCARD, R.STANDS))


def test_case_vi_a_carte_blanche_found_late_still_counts() -> None:
    """Case VI: 'The elder hand cannot alter his discard. The younger hand can reckon the carte blanche.'"""
    r = rule(I(Kind.LATE_CARTE_BLANCHE))
    assert (r.law, r.chooser, r.remedies) == ("Case VI", None, (R.STANDS,)) and "carte blanche scores" in \
        r.options[0].says


def test_case_viii_naming_the_wrong_king_out_is_no_misnomer() -> None:
    """Case VIII: 'B's claim is correct ... He is therefore liable to the penalty for scoring what he does not
    hold.'"""
    r = rule(I(Kind.OVERCALL, offender=ELDER, played_since=True, misnomer=False))
    assert (r.law, r.chooser, r.remedies) == ("Law 54", YOUNGER, (R.RECKONS_NOTHING, R.WAIVE))
    assert "Case VIII" in r.says


def test_case_ix_information_from_a_corrected_miscall_has_no_remedy() -> None:
    """Case IX: 'B has no remedy. It is one of those accidents that will occasionally happen which card laws
    cannot reach.'"""
    r = rule(I(Kind.OVERCALL, offender=ELDER))
    assert r.remedies == (R.CALL_CORRECTED,) and "Case IX" in r.says and R.RECKONS_NOTHING not in r.remedies


def test_case_x_six_cards_played_to_play_five_the_hand_is_played_again() -> None:
    """Case X: 'The hand must be played over again, B retaking one of the cards he played to the quint major.'"""
    r = rule(I(Kind.TOO_MANY_PLAYED, offender=YOUNGER))
    assert (r.law, r.remedies) == ("Law 59 II", (R.TAKE_BACK,)) and "played over again" in r.says


def test_case_xi_a_wrong_card_among_leads_is_changed_until_the_adversary_plays_to_it() -> None:
    """Case XI: 'A is too late after B has played his sixth card. But prior to that A can rectify his error.'"""
    assert ruled(I(Kind.WRONG_CARD_AMONG_LEADS, offender=ELDER)) == ("Case XI", None, (R.TAKE_BACK,))
    assert ruled(I(Kind.WRONG_CARD_AMONG_LEADS, offender=ELDER, adversary_played=True)) == \
        ("Case XI", None, (R.STANDS,))


def test_case_xiii_a_card_left_by_accident_is_taken_in_unless_announced() -> None:
    """Case XIII: 'B can take up the card he left on the table, unless he has announced that he will leave a card,
    when he must play with eleven cards.'"""
    assert ruled(I(Kind.DISCARDED_MORE, offender=YOUNGER, card_apart=True)) == \
        ("Case XIII", None, (R.TAKE_IN_LEFT,))
    assert ruled(I(Kind.DISCARDED_MORE, offender=YOUNGER, card_apart=True, announced=True)) == \
        ("Law 30", None, (R.FEWER_THAN_TWELVE,))


def test_case_xiv_the_younger_taking_in_before_the_elder_plays_with_thirteen_and_reckons_nothing() -> None:
    """Case XIV: 'he must take the card left by A, must play with thirteen cards, and can reckon nothing that
    deal.'"""
    assert ruled(I(Kind.YOUNGER_BEFORE_ELDER)) == ("Case XIV", ELDER, (R.MORE_THAN_TWELVE, R.WAIVE))


def test_cases_xv_and_xvi_misinformation_about_cards_declared() -> None:
    """Case XV: 'The younger hand has been misinformed, and can claim to play the end of the hand again.'
    Case XVI: 'his reply is understood ... to mean, "None that I have declared."'"""
    assert ruled(I(Kind.MISINFORMED, offender=ELDER)) == ("Law 59 V", YOUNGER, (R.TAKE_BACK, R.STANDS))
    assert ruled(I(Kind.MISINFORMED, offender=YOUNGER, true_of_declared=True)) == ("Case XVI", None, (R.STANDS,))


def test_case_xvii_thirteen_cards_with_a_card_of_the_undealt_pack_in_the_discard() -> None:
    """Case XVII: 'There is no proof that when the pack was dealt it was redundant ... A ... can reckon nothing
    that deal.'"""
    r = rule(I(Kind.SURPLUS_CARD, offender=ELDER, in_discard=True))
    assert (r.law, r.chooser, r.remedies) == ("Case XVII", YOUNGER, (R.MORE_THAN_TWELVE, R.WAIVE))
    assert R.FRESH_DEAL not in r.remedies and R.VOID not in r.remedies


def test_case_xviii_the_surplus_card_kept_in_hand() -> None:
    """Case XVIII: 'if A has not played the surplus card he may return it to the undealt pack, and there is no
    penalty, unless A has used this card in scoring'; played, 'the hands must be ... played over again'."""
    base = I(Kind.SURPLUS_CARD, offender=ELDER)
    assert ruled(base) == ("Case XVIII", None, (R.SURPLUS_RETURNED,))
    assert ruled(I(Kind.SURPLUS_CARD, offender=ELDER, used_in_claim=True)) == \
        ("Case XVIII", YOUNGER, (R.RECKONS_NOTHING, R.WAIVE))
    assert ruled(I(Kind.SURPLUS_CARD, offender=ELDER, surplus_played=True)) == ("Case XVIII", None, (R.TAKE_BACK,))


def test_case_xx_the_carte_blanche_shown_after_taking_up_stock_cards() -> None:
    """Case XX: 'Yes, provided he has not mixed any of the stock with his hand.'"""
    assert ruled(I(Kind.BLANCHE_AFTER_STOCK)) == ("Case XX", None, (R.STANDS,))
    assert "no carte blanche" in rule(I(Kind.BLANCHE_AFTER_STOCK, mixed=True)).options[0].says


def test_case_xxi_retaking_the_discard_reckons_nothing_but_the_carte_blanche() -> None:
    """Case XXI: 'A can reckon nothing after the carte blanche, which ... he is still at liberty to show and
    reckon.'"""
    assert ruled(I(Kind.BLANCHE_AFTER_STOCK, retook_discard=True)) == \
        ("Case XXI", YOUNGER, (R.MORE_THAN_TWELVE, R.WAIVE))
    d = MarkedDeal("B", carte_blanche=ELDER, declarations=QuickScores((5, 4, 0), (0, 0, 0)), play=PlayTotals(7, 8, 6))
    p = MarkedPartie().add(d).reckons_nothing(0, "A")
    assert p.scores == {"A": 10, "B": 6}


def test_case_xxii_the_younger_with_thirteen_reckons_nothing_and_wins_a_rubicon_of_283() -> None:
    """Case XXII: 'The scores are, A, 91; B (who reckons nothing), 92. B wins a rubicon (Law 73) of 283 points.'"""
    assert ruled(I(Kind.TOOK_MORE, offender=YOUNGER)) == ("Law 35", ELDER, (R.MORE_THAN_TWELVE, R.WAIVE))
    p = MarkedPartie(first_dealer="A")
    before = [  # five deals to A 62, B 92 (dealers A, B, A, B, A): the hands (elder, younger), six tricks each
        MarkedDeal("A", declarations=QuickScores((0, 0, 14), (5, 0, 0)), play=PlayTotals(6, 7, 7)),
        MarkedDeal("B", declarations=QuickScores((5, 4, 0), (0, 0, 14)), play=PlayTotals(6, 7, 7)),
        MarkedDeal("A", declarations=QuickScores((0, 15, 0), (4, 0, 0)), play=PlayTotals(6, 7, 7)),
        MarkedDeal("B", declarations=QuickScores((5, 0, 0), (0, 0, 14)), play=PlayTotals(6, 7, 7)),
        MarkedDeal("A", declarations=QuickScores((0, 0, 0), (4, 0, 0)), play=PlayTotals(6, 7, 7)),
    ]
    for d in before:
        p = p.add(d)
    assert p.scores == {"A": 62, "B": 92} and p.next_dealer == "B"
    # A (elder) calls a quart major, a tierce to a queen and four knaves, 21; the point equal; 8 in play; the
    # cards divided.  B (younger, thirteen cards) reckons nothing.
    last = MarkedDeal("B", declarations=QuickScores((0, 7, 14), (0, 0, 0)), play=PlayTotals(6, 8, 7))
    p = p.add(last).reckons_nothing(5, "B")
    assert p.is_finished and p.scores == {"A": 91, "B": 92}
    s = p.settlement()
    assert (s.winner, s.rubicon, s.points_won) == ("B", True, 283)
