"""Illegal actions are refused, say why citing the law, and change nothing.

Every refusal is checked three ways: ``apply`` raises ``IllegalAction`` (a
``ValueError``) whose message names the law and what is wrong, ``in
legal_actions()`` says no, and the deal is exactly as it was (every field
compared before and after).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from piquet import (
    ELDER,
    YOUNGER,
    Deal,
    DeclarePoint,
    DeclareSequences,
    DeclareSets,
    Discard,
    IllegalAction,
    LookAtLeft,
    Phase,
    Play,
)
from piquet.core.cards import CardError, parse_card, parse_cards

LAW = re.compile(r"\bLaws? \d+")

# The example deal (p. 103-105).
ELDER_DEALT = "AS KS JS AH QH JH 8H JC 8C 7C 9D 8D"
YOUNGER_DEALT = "10S 7S 10H 9H 7H KC QC 10C AD QD JD 10D"
STOCK = "9S 8S KH 9C KD QS AC 7D"


def m(text: str) -> int:
    out = 0
    for c in parse_cards(text):
        out |= 1 << c
    return out


def P(text: str) -> Play:
    return Play(parse_card(text))


def example_deal() -> Deal:
    return Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), parse_cards(STOCK))


# The example deal as far as each phase: the actions that bring it there.
TO_PHASE: dict[str, list[Any]] = {
    "elder discard": [],
    "younger discard": [Discard(m("KS 8C 7C 9D 8D"))],
    "elder point": [Discard(m("KS 8C 7C 9D 8D")), Discard(m("7S 9H 7H"))],
}
TO_PHASE["younger point"] = TO_PHASE["elder point"] + [DeclarePoint(m("AH KH QH JH 8H"))]
TO_PHASE["elder sequences"] = TO_PHASE["younger point"] + [DeclarePoint(m("AD QD JD 10D 7D"))]
TO_PHASE["elder sets"] = TO_PHASE["elder sequences"] + [DeclareSequences((m("AH KH QH JH"),)),
                                                       DeclareSequences((m("AC KC QC"),))]
TO_PHASE["first lead"] = TO_PHASE["elder sets"] + [DeclareSets((m("JS JH JC"),)),
                                                  DeclareSets((m("10S 10H 10C 10D"), m("QS QC QD")))]
TO_PHASE["younger to follow"] = TO_PHASE["first lead"] + [P("AH")]
TO_PHASE["second trick"] = TO_PHASE["younger to follow"] + [P("10H")]
TO_PHASE["over"] = TO_PHASE["second trick"] + [Play(c) for c in parse_cards(
    "KH 7D QH 10D JH JD 8H QD KD AD AC 9C KC JC QC 8S 10C 9S QS AS JS 10S")]


def at(phase: str) -> Deal:
    deal = example_deal()
    for action in TO_PHASE[phase]:
        deal.apply(action)
    return deal


def state(deal: Deal) -> dict[str, Any]:
    """Every field of the deal, with lists frozen into tuples."""

    def freeze(v: Any) -> Any:
        return tuple(freeze(x) for x in v) if isinstance(v, list | tuple) else v

    # Its slots as Python source; compiled (piquet.core.native), mypyc lists them in ``__mypyc_attrs__``.
    names = [n for k in type(deal).__mro__ for n in getattr(k, "__slots__", ()) or getattr(k, "__mypyc_attrs__", ())]
    fields = {n: freeze(getattr(deal, n)) for n in names if hasattr(deal, n)}
    assert {"phase", "hands", "events", "totals"} <= fields.keys(), "the deal's fields were not found"
    return fields


def refused(deal: Deal, action: Any, *words: str) -> str:
    """Apply ``action``: it must be refused, leave everything as it was, and say ``words``."""
    before = state(deal)
    assert action not in deal.legal_actions()
    with pytest.raises(IllegalAction) as info:
        deal.apply(action)
    assert state(deal) == before, f"{action} was refused but changed the deal"
    with pytest.raises(IllegalAction):
        deal.verify(action)
    assert state(deal) == before
    message = str(info.value)
    for w in words:
        assert w in message, f"{message!r} does not say {w!r}"
    return message


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


# ---------------------------------------------------------------- discarding (Laws 21-24, 34)

def test_discarding_a_card_not_held() -> None:
    deal = at("elder discard")
    msg = refused(deal, Discard(m("10S")), "10S", "Law 21")
    assert "not in the elder hand" in msg
    refused(deal, Discard(m("KS 10S")), "10S", "Law 21")
    refused(at("younger discard"), Discard(m("7S KS")), "KS", "Laws 22, 34")


@pytest.mark.parametrize("cards", ["AS KS JS AH QH JH", ELDER_DEALT])
def test_the_elder_discarding_more_than_five(cards: str) -> None:
    refused(at("elder discard"), Discard(m(cards)), "at most 5", "Law 21")


def test_discarding_nothing() -> None:
    refused(at("elder discard"), Discard(0), "at least one", "Law 21")
    refused(at("younger discard"), Discard(0), "at least one", "Laws 22, 34")


def test_the_younger_discarding_more_than_is_left_him() -> None:
    refused(at("younger discard"), Discard(m("10S 7S 10H 9H")), "at most 3", "Laws 22, 34")
    # When the elder leaves two cards, the younger may take five, not six.
    deal = example_deal()
    deal.apply(Discard(m("8C 7C 9D")))
    deal.apply(LookAtLeft(True))
    refused(deal, Discard(m("10S 7S 10H 9H 7H 10C")), "at most 5", "Laws 22, 34")
    assert Discard(m("10S 7S 10H 9H 7H")) in deal.legal_actions()


def test_no_second_discard() -> None:
    """Law 24: after taking in, a player cannot alter his discard."""
    deal = at("younger discard")
    assert deal.to_move == YOUNGER
    refused(deal, Discard(m("9S")))
    refused(at("elder point"), Discard(m("9S")))


# ---------------------------------------------------------------- declaring (Laws 54, 62-64)

@pytest.mark.parametrize(("phase", "action", "missing"), [
    ("elder point", DeclarePoint(m("AD KD")), "AD"),
    ("elder point", DeclarePoint(m("AH KH QH JH 10H")), "10H"),
    ("younger point", DeclarePoint(m("AH")), "AH"),
    ("elder sequences", DeclareSequences((m("AH KH QH JH 10H"),)), "10H"),
    ("elder sequences", DeclareSequences((m("AH KH QH JH"), m("AC KC QC"))), "AC"),
    ("elder sets", DeclareSets((m("AS AH AC AD"),)), "AC"),
    ("elder sets", DeclareSets((m("JS JH JC JD"),)), "JD"),
])
def test_declaring_cards_not_held(phase: str, action: Any, missing: str) -> None:
    refused(at(phase), action, missing, "Law 54")


@pytest.mark.parametrize("runs", [
    ("AH KH JH",),  # a hole
    ("AH KH",),  # two cards
    ("AH",),
    ("AH KH QH", "AH KH QH"),  # twice
    ("AH KH QH JH", "QH JH 8H"),  # a card twice, and not a sequence
    ("AS JS 9S 8S",),
    ("AH KH QH JH 8H",),
])
def test_declaring_what_is_not_a_sequence(runs: tuple[str, ...]) -> None:
    refused(at("elder sequences"), DeclareSequences(tuple(m(r) for r in runs)), "Law 63")


def test_touching_runs_are_one_sequence() -> None:
    """Two runs that touch are a single longer sequence: they cannot be called as two."""
    deal = at("elder sequences")
    refused(deal, DeclareSequences((m("AH KH QH"), m("JH 10H 9H") & deal.hands[ELDER])), "Law 63")
    assert DeclareSequences((m("AH KH QH"),)) in deal.legal_actions()  # sinking the knave is allowed


def test_a_point_in_two_suits() -> None:
    refused(at("elder point"), DeclarePoint(m("AH KH QH JH 8H AS")), "one suit", "Law 62")
    refused(at("younger point"), DeclarePoint(m("AD QD JD AC")), "one suit", "Law 62")


@pytest.mark.parametrize("sets", [
    ("9S 9C",),  # the elder holds the nines of spades and clubs only
    ("9S 9C KD",),
    ("JS JH",),  # two knaves
    ("JS JH JC", "JS JH JC"),  # one rank twice
    ("JS JH JC AS",),  # mixed ranks
    ("8S 8H",),
])
def test_declaring_what_is_not_a_quatorze_or_trio(sets: tuple[str, ...]) -> None:
    deal = at("elder sets")
    refused(deal, DeclareSets(tuple(m(s) for s in sets)), "Law 64")


def test_a_set_of_nines_counts_nothing() -> None:
    """p. 91: quatorzes or trios of cards smaller than tens are of no value."""
    deal = Deal(m("9S 9H 9C 9D 8S 8H 8C AS KS QS JS 10S"), m("7S 7H 7C 7D 8D AH KH QH JH 10H AC 10C"),
                parse_cards("AD KD QD JD 10D KC QC JC"))
    deal.apply(Discard(m("AS")))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("7S")))
    for kind in (DeclarePoint(), DeclareSequences()):
        deal.apply(kind)
        if deal.to_move == YOUNGER:
            deal.apply(type(kind)())
    assert deal.phase == Phase.ELDER_SETS
    refused(deal, DeclareSets((m("9S 9H 9C 9D"),)), "Law 64")
    refused(deal, DeclareSets((m("9S 9H 9C"),)), "Law 64")
    refused(deal, DeclareSets((m("8S 8H 8C"),)), "Law 64")


# ---------------------------------------------------------------- playing (Laws 57-66)

def test_a_revoke() -> None:
    deal = at("younger to follow")
    refused(deal, P("AC"), "AC", "revoke", "hearts", "Law 59")
    refused(deal, P("10S"), "10S", "Law 59")
    assert P("10H") in deal.legal_actions()


def test_playing_a_card_not_held_is_refused() -> None:
    refused(at("first lead"), P("AD"), "AD", "not in the elder hand")
    refused(at("younger to follow"), P("KH"), "KH", "not in the younger hand")
    refused(at("second trick"), P("AH"), "AH")  # played already


def test_playing_out_of_turn_is_refused() -> None:
    """The elder leads the first card; at the first lead the younger's cards cannot be played,
    and the leader cannot play to his own lead."""
    deal = at("first lead")
    for card in ("10S", "QS", "AD", "AC"):  # the younger's
        refused(deal, P(card))
    deal = at("younger to follow")
    for card in ("KH", "QH", "AS"):  # the elder's
        refused(deal, P(card))


OUT_OF_TURN = [("first lead", "10S"), ("first lead", "AD"), ("younger to follow", "KH")]


@pytest.mark.parametrize(("phase", "card"), OUT_OF_TURN)
def test_playing_out_of_turn_names_the_law(phase: str, card: str) -> None:
    msg = refused(at(phase), P(card))
    assert LAW.search(msg), msg


# ---------------------------------------------------------------- the wrong kind of action

WRONG_KIND = [
    ("elder discard", P("AS")),
    ("elder discard", DeclarePoint(m("AH QH JH 8H"))),
    ("elder discard", LookAtLeft(True)),
    ("younger discard", P("10S")),
    ("younger discard", DeclarePoint()),
    ("elder point", DeclareSequences((m("AH KH QH JH"),))),
    ("elder point", DeclareSets()),
    ("elder point", P("AH")),
    ("elder point", LookAtLeft(False)),
    ("younger point", DeclareSets()),
    ("elder sequences", DeclarePoint(m("AH KH QH JH 8H"))),
    ("elder sets", P("AH")),
    ("first lead", DeclareSets((m("JS JH JC"),))),
    ("first lead", Discard(m("8H"))),
    ("younger to follow", DeclarePoint()),
    ("second trick", DeclareSequences()),
    ("second trick", LookAtLeft(True)),
    ("second trick", Discard(m("KH"))),
]
KIND_IDS = [f"{p}-{type(a).__name__}" for p, a in WRONG_KIND]


@pytest.mark.parametrize(("phase", "action"), WRONG_KIND, ids=KIND_IDS)
def test_the_wrong_kind_of_action_is_refused(phase: str, action: Any) -> None:
    msg = refused(at(phase), action)
    assert "must" in msg, msg


@pytest.mark.parametrize(("phase", "action"), WRONG_KIND, ids=KIND_IDS)
def test_the_wrong_kind_of_action_names_the_law(phase: str, action: Any) -> None:
    msg = refused(at(phase), action)
    assert LAW.search(msg), msg


def test_declaring_after_the_first_trick_is_refused() -> None:
    """Law 56: when the younger has played to the first trick, nothing omitted can be reckoned."""
    deal = at("second trick")
    for action in (DeclarePoint(m("AD QD JD 10D 7D")), DeclareSequences((m("AC KC QC"),)),
                   DeclareSets((m("10S 10H 10C 10D"),))):
        refused(deal, action)


def test_nothing_is_legal_once_the_deal_is_over() -> None:
    deal = at("over")
    assert deal.is_over and deal.to_move is None
    assert list(deal.legal_actions()) == [] and len(deal.legal_actions()) == 0
    for action in (P("AS"), Discard(m("AS")), DeclarePoint(), LookAtLeft(False)):
        refused(deal, action)
    with pytest.raises(IllegalAction):
        deal.legal_actions().sample(__import__("random").Random(1))


def test_undo_with_nothing_to_take_back() -> None:
    deal = example_deal()
    before = state(deal)
    with pytest.raises(IllegalAction):
        deal.undo()
    assert state(deal) == before


def test_objects_that_are_not_actions_are_not_legal() -> None:
    for phase in ("elder discard", "elder point", "first lead", "younger to follow"):
        deal = at(phase)
        for thing in (None, "AS", 3, (P("AS"),)):
            assert thing not in deal.legal_actions()


# ---------------------------------------------------------------- a wrong deal (Law 9)

def test_a_deal_must_hold_the_32_cards_each_once() -> None:
    with pytest.raises(CardError):
        Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), parse_cards("9S 8S KH 9C KD QS AC"))  # seven in the stock
    with pytest.raises(CardError):
        Deal(m(ELDER_DEALT), m(YOUNGER_DEALT), parse_cards("9S 8S KH 9C KD QS AC AS"))  # AS twice
    with pytest.raises(CardError):
        Deal(m(ELDER_DEALT) & ~m("AS"), m(YOUNGER_DEALT), parse_cards(STOCK))  # eleven cards
    with pytest.raises(ValueError):
        Deal.from_pack(list(range(32)), by=4)  # Law 9: by two or by three
    with pytest.raises(ValueError):
        Deal.from_pack(list(range(31)) + [0])
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("phase", ["first lead", "younger to follow"])
def test_refusing_a_card_not_held_does_not_tell_who_holds_it(phase: str) -> None:
    """A card held by the adversary and one he discarded are refused in the same words, or the refusal would
    tell a player where a hidden card lies (Laws 57-58)."""
    deal = at(phase)
    mover = deal.to_move
    assert mover is not None
    adversary = deal.hands[1 - mover]
    unseen = 0xFFFFFFFF & ~deal.hands[mover] & ~adversary
    for e in deal.events:
        unseen &= ~e.revealed
    unseen &= ~deal.discards[mover]  # his own discard he knows: the adversary's is hidden
    held = (adversary & -adversary).bit_length() - 1
    hidden = (unseen & -unseen).bit_length() - 1
    assert held >= 0 and hidden >= 0
    a = refused(deal, Play(held)).replace(Play(held).__str__()[5:-1], "X")
    b = refused(deal, Play(hidden)).replace(Play(hidden).__str__()[5:-1], "X")
    assert a == b
