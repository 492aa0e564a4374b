"""The calls as ``piquet mark`` takes them: short or in words, with a call's suit and a point's top card where
the person marking likes (so that the marker applies Case IV), and a call of what is not held marked with "!" or
asked after the ruling on it (so that Case II is scored).

The worked examples are the laws' (p. 21-22): Case IV, "A calls a point headed by ace, and two tierce majors in
other suits ... B cannot reckon three knaves"; Case II, "A calls three kings, which B allows to be good.  It is
presently discovered that A has not three kings.  B then claims to reckon four tens. ... Yes."
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console

from piquet.cli.main import build_parser
from piquet.cli.mark import calls_said, parse_point, parse_sequences, parse_sets, run_mark
from piquet.core.cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, KNAVE, QUEEN, SPADES, TEN
from piquet.core.events import ELDER, YOUNGER
from piquet.core.referee import IRREGULARITIES
from piquet.marker import Declared, FullCalls, MarkError, PointCall, SequenceCall, SetCall
from piquet.marker.calls import POINT_VALUES_OF
from piquet.marker.partie import MarkedPartie
from piquet.marker.record import marked_from_json
from piquet.talk.laws import SAYS

OVERCALL = str([e.kind.value for e in IRREGULARITIES].index("overcall") + 1)
#: "He called what he does not hold": allowed good, the younger has played to the first trick, no misnomer,
#: not impossible (Law 54); then the adversary's choice, 1 the penalty, 2 its waiver (Law 44).
MISCALL_FACTS = ["yes", "yes", "no", "no"]


def mark(answers: Iterable[str], tmp_path: Path) -> tuple[str, MarkedPartie, list[str]]:
    """``piquet mark`` answered from a script (Ann and Bob; the end of the script saves and leaves): what it
    said, the partie saved, and the prompts it asked."""
    path = tmp_path / "m.json"
    path.unlink(missing_ok=True)
    it = iter(answers)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        for answer in it:
            return answer
        raise EOFError

    out = io.StringIO()
    ns = build_parser().parse_args(["mark", "--names", "Ann", "Bob", "--record", str(path)])
    assert run_mark(ns, ask, Console(file=out, width=300)) == 0
    assert next(it, None) is None, "the script was not all asked"
    return out.getvalue(), marked_from_json(path.read_text()), prompts


# ---------------------------------------------------------------- the calls as typed


@pytest.mark.parametrize("text, call", [
    ("5 49", PointCall(5, 49)),
    ("5", PointCall(5)),
    ("5 S A", PointCall(5, None, SPADES, ACE)),
    ("5 49 S A", PointCall(5, 49, SPADES, ACE)),
    ("five in spades to the ace", PointCall(5, None, SPADES, ACE)),
    ("a point of five in spades to the ace, making 49", PointCall(5, 49, SPADES, ACE)),
    ("5 AS", PointCall(5, None, SPADES, ACE)),
    ("5 ♥ K", PointCall(5, None, HEARTS, KING)),
    ("4 D 10", PointCall(4, None, DIAMONDS, TEN)),  # four cards make fifteen at least: the ten is the top card
    ("four to the ten", PointCall(4, None, None, TEN)),
    ("six in clubs to the queen", PointCall(6, None, CLUBS, QUEEN)),
    ("5 49!", PointCall(5, 49, held=False)),
    ("5 49 S A not held", PointCall(5, 49, SPADES, ACE, False)),
    ("none", None),
    ("", None),
])
def test_a_point_as_typed(text: str, call: PointCall | None) -> None:
    assert parse_point(text) == call


@pytest.mark.parametrize("text, calls", [
    ("4 A, 3 Q", (SequenceCall(4, ACE), SequenceCall(3, QUEEN))),
    ("4K", (SequenceCall(4, KING),)),
    ("4 to the K", (SequenceCall(4, KING),)),
    ("4 K H", (SequenceCall(4, KING, HEARTS),)),
    ("quart to the king in hearts", (SequenceCall(4, KING, HEARTS),)),
    ("tierce major C", (SequenceCall(3, ACE, CLUBS),)),
    ("tierce major in hearts, 3 A C", (SequenceCall(3, ACE, HEARTS), SequenceCall(3, ACE, CLUBS))),
    ("a quint major in diamonds and a tierce to the ten", (SequenceCall(5, ACE, DIAMONDS), SequenceCall(3, TEN))),
    ("4 10 S", (SequenceCall(4, TEN, SPADES),)),
    ("huitieme", (SequenceCall(8, ACE),)),
    ("sixième to the king ♣", (SequenceCall(6, KING, CLUBS),)),
    ("4 K H!, 3 J", (SequenceCall(4, KING, HEARTS, False), SequenceCall(3, KNAVE))),
    ("none", ()),
])
def test_sequences_as_typed(text: str, calls: tuple[SequenceCall, ...]) -> None:
    assert parse_sequences(text) == calls


@pytest.mark.parametrize("text, calls", [
    ("4 10, 3 A", (SetCall(4, TEN), SetCall(3, ACE))),
    ("three kings", (SetCall(3, KING),)),
    ("fourteen tens and a trio of knaves", (SetCall(4, TEN), SetCall(3, KNAVE))),
    ("3 K!", (SetCall(3, KING, False),)),
    ("3 K not held", (SetCall(3, KING, False),)),
    ("nothing", ()),
])
def test_quatorzes_and_trios_as_typed(text: str, calls: tuple[SetCall, ...]) -> None:
    assert parse_sets(text) == calls


@pytest.mark.parametrize("read, text, words", [
    (parse_point, "5 S H", "the suit is said twice"),
    (parse_point, "5 49 50", "what the point makes is said twice"),
    (parse_point, "five X", "cannot read 'x'"),
    (parse_point, "5 S 10", "no point of five cards in spades to the ten can be (Law 62)"),
    (parse_point, "in spades", "a point: its cards"),
    (parse_sequences, "4", "a sequence: its length and head card"),
    (parse_sequences, "tierce to the seven", "a tierce cannot be headed by the 7 (Law 63)"),
    (parse_sequences, "4 K Q", "the head card is said twice"),
    (parse_sets, "3 K S", "it has no suit"),
    (parse_sets, "three eights", "eights make no quatorze or trio"),
])
def test_what_cannot_be_read_says_how_to_type_it(read: Callable[[str], object], text: str, words: str) -> None:
    with pytest.raises(MarkError) as e:
        read(text)
    assert words in str(e.value).replace(": there is no room below it", "")


def test_every_call_reads_back_as_the_marker_says_it() -> None:
    """Each call's own words (``str``), suits, top cards and "(not held)" included, read back as the call; this
    is how ``piquet mark`` offers an answer again, in [brackets]."""
    n = 0
    for cards in range(1, 9):
        for suit in (None, *range(4)):
            for head in (None, *range(8)):
                for held in (True, False):
                    for value in (None, *sorted(POINT_VALUES_OF[cards])):
                        p = PointCall(cards, value, suit, head, held)
                        try:
                            p.check()
                        except MarkError:
                            continue
                        assert parse_point(calls_said(p)) == p, calls_said(p)
                        n += 1
    for length in range(3, 9):
        for head in range(length - 1, 8):
            for suit in (None, *range(4)):
                seq = (SequenceCall(length, head, suit), SequenceCall(3, ACE, held=False))
                assert parse_sequences(calls_said(seq)) == seq, calls_said(seq)
    for size in (3, 4):
        for rank in range(TEN, ACE + 1):
            sets = (SetCall(size, rank), SetCall(3, rank, held=False))
            assert parse_sets(calls_said(sets)) == sets
    assert calls_said(None) == calls_said(()) == "none" and n > 1000


# ---------------------------------------------------------------- Case IV in the terminal


def test_piquet_mark_case_iv_the_younger_cannot_reckon_three_knaves(tmp_path: Path) -> None:
    """The elder's point to the ace of spades and tierce majors in hearts and clubs, entered with their suits,
    show three aces: the younger's three knaves are refused (Law 56, Case IV), and only his reckoning is asked
    again; he plays a card, saying nothing about knaves.  Ann: 5 for the point, 6 for the tierces, 7 in play."""
    answers = ["Bob", "none", "calls",
               "help",  # how to type the calls, and why the suits
               "five in spades to the ace", "good",
               "tierce major in hearts, 3 A C", "good",
               "none",  # Ann called nothing in quatorzes and trios: "says nothing about aces"
               "none", "none", "3 J",  # Bob would reckon three knaves: refused
               "none",  # asked again: nothing
               "6 7 7"]
    text, p, prompts = mark(answers, tmp_path)
    assert "The suits let the marker apply Case IV" in text and "end it with ! or 'not held'" in text
    assert ("That cannot be: the younger cannot reckon three knaves: the cards the elder has shown make three aces, "
            "as much or more, declared by implication; he reckons nothing there (Law 56, Case IV)") in text
    # and what the law says, as the table's refusals (talk.laws)
    assert f"(Law 56, Case IV). Law 56: {SAYS['Law 56']} Case IV: {SAYS['Case IV']}" in " ".join(text.split())
    # Only his reckoning is asked again (the last prompt is the next deal's, at the end of the script).
    assert [q.split(",")[0] for q in prompts[-5:-2]] == ["Bob's sequences he reckons", *["Bob's quatorzes and trios "
                                                                                          "he reckons"] * 2]
    (deal,) = p.deals
    assert isinstance(deal.declarations, FullCalls)
    assert deal.declarations.elder == Declared(PointCall(5, None, SPADES, ACE),
                                               (SequenceCall(3, ACE, HEARTS), SequenceCall(3, ACE, CLUBS)))
    assert deal.declarations.younger == Declared()
    assert p.scores == {"A": 18, "B": 7}
    # Without the suits nothing shows three aces (a point of five to the ace may hold A K Q of its suit): the
    # knaves are good, three.
    answers = ["Bob", "none", "calls", "5 A", "good", "3 A, 3 A", "good", "none", "none", "none", "3 J", "6 7 7"]
    text, p, _ = mark(answers, tmp_path)
    assert "That cannot be" not in text and p.scores == {"A": 18, "B": 10}


# ---------------------------------------------------------------- Case II in the terminal


def test_piquet_mark_case_ii_asked_which_call_is_not_held(tmp_path: Path) -> None:
    """Ann (elder) calls three kings, which Bob allows good; in the play it is discovered that she has not three
    kings.  ``wrong``: Law 54, Bob enforces the penalty; the marker asks which of Ann's calls it was, then what
    Bob reckons now in quatorzes and trios: four tens, fourteen (Case II).  Ann reckons nothing."""
    answers = ["Bob", "none", "calls", "none", "none", "3 K", "good", "none", "none", "none",
               "wrong", OVERCALL, "Ann", *MISCALL_FACTS, "1",  # Law 54: Ann reckons nothing
               "4",  # not one of her calls: asked again
               "1",  # three kings
               "4 X",  # cannot be read: asked again
               "4 10",  # Bob reckons four tens
               "6 7 7"]
    text, p, prompts = mark(answers, tmp_path)
    for said in ("Ann reckons nothing this deal; his calls still bar (Law 54).",
                 "Mark which of Ann's calls he does not hold: that call is void, and Bob reckons what he has good "
                 "against Ann's correct calls (Law 54, Case II).",
                 "  1. three kings", "A number from 1 to 1, or Enter.", "Marked as not held: three kings.",
                 "Ann called three kings, which he does not hold: the call is void",
                 "Bob: Fourteen for quatorzes and trios: fourteen."):
        assert said in text, said
    assert "Ann's call void, what Bob reckons now of his own: his quatorzes and trios (Case II) [none]" in prompts[-3]
    assert prompts[-4] == prompts[-3] and "That cannot be: cannot read 'x' in '4 X'" in text
    (deal,) = p.deals
    assert isinstance(deal.declarations, FullCalls)
    assert deal.declarations.elder.sets == (SetCall(3, KING, held=False),)
    assert deal.declarations.younger.sets == (SetCall(4, TEN),)
    assert deal.reckons_nothing == {ELDER} and not deal.waived
    assert p.scores == {"A": 0, "B": 21}


def test_piquet_mark_case_ii_marked_with_an_exclamation(tmp_path: Path) -> None:
    """A call typed not held ("!") is told to want the laws' ruling; the ruling then finds it marked.  Deal 1:
    Ann's three kings, Bob's four tens, the penalty waived (Law 44): Ann reckons what she holds (her play), Bob
    fourteen.  Deal 2 (Bob elder): Ann, younger, says "not good" to Bob's quart major showing a quint she does not
    hold; her tierce stays correct: Bob's quart is good against it (four), and Ann reckons nothing."""
    answers = ["Bob", "none", "calls", "none", "none", "3 K!", "good", "none", "none", "4 10",
               "wrong", OVERCALL, "Ann", *MISCALL_FACTS, "2",  # waived
               "6 7 7"]
    answers += ["", "none", "calls", "none", "4 A", "not good", "none", "none", "quint to the king not held, 3 J",
                "none",
                "wrong", OVERCALL, "Ann", *MISCALL_FACTS, "1",
                "6 7 7"]
    text, p, _ = mark(answers, tmp_path)
    assert text.count("A call of what he does not hold: say wrong (He called what he does not hold) for the laws' "
                      "ruling on it (Law 54).") == 2
    assert "Marked already: three kings (not held)." in text and "Marked already: a quint to the K (not held)." in text
    first, second = p.deals
    assert first.waived == {ELDER} and p.deal_points[0] == {"A": 7, "B": 21}
    assert isinstance(second.declarations, FullCalls)
    assert second.declarations.younger.sequences == (SequenceCall(5, KING, held=False), SequenceCall(3, KNAVE))
    assert second.reckons_nothing == {YOUNGER} and p.deal_points[1] == {"A": 0, "B": 11}


def test_piquet_mark_the_call_not_held_asked_when_the_calls_are_entered(tmp_path: Path) -> None:
    """The ruling before the calls: the marker says it will ask, and asks once the hands are entered, before it
    checks them (Bob's four tens are good only against a call not held).  Entered as quick scores, it says the
    scores are entered as reckoned."""
    answers = ["Bob", "none",
               "wrong", OVERCALL, "Ann", *MISCALL_FACTS, "1",
               "calls", "5 49 S A", "good", "none", "3 K", "good", "none", "none", "4 10",
               "2",  # of "1. a point of five cards in spades to the ace making 49, 2. three kings"
               "",  # Bob's four tens, as entered
               "6 7 7"]
    answers += ["", "none", "scores", "wrong", OVERCALL, "Bob", *MISCALL_FACTS, "1", "0 0 0", "0 0 14", "6 7 7"]
    text, p, _ = mark(answers, tmp_path)
    assert "None of Ann's calls is entered yet: you will be asked which when they are (or end it with ! as you " \
           "enter it, e.g. 3 K!)." in text
    assert "  1. a point of five cards in spades to the ace making 49\n  2. three kings\n" in text
    assert "Entered as quick scores, the hands' scores are entered as reckoned: Ann's with what he has good against " \
           "Bob's correct calls (Law 54, Case II)." in text
    first, second = p.deals
    assert isinstance(first.declarations, FullCalls)
    assert first.declarations.elder == Declared(PointCall(5, 49, SPADES, ACE), (), (SetCall(3, KING, held=False),))
    assert p.deal_points[0] == {"A": 0, "B": 21} and p.deal_points[1] == {"A": 21, "B": 0}
