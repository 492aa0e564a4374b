"""``piquet odds``: the questions in words, the figures of the treatise (p. 116-125, 155), the errors."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

import pytest

from piquet.cli.main import main
from piquet.cli.odds import (
    AgainstQuestion,
    CarteBlancheQuestion,
    DealQuestion,
    DrawingQuestion,
    ExchangeQuestion,
    PointQuestion,
    describe_condition,
    parse_question,
    table_row_words,
)
from piquet.core.cards import FULL_PACK, CardSet, cards_of
from piquet.core.combinations import best_sets
from piquet.odds.chances import Need, drawing_tables

#: A's hand, p. 103.
A_HAND = "AS KS JS AH QH JH 8H JC 8C 7C 9D 8D"
#: A quart to a king in hearts and two other kings (p. 123): the ace or nine to the quart, or the fourth king.
QUART_TO_A_KING = "KH QH JH 10H KS KC 7S 8S 7C 8C 7D 8D"


def m(text: str) -> int:
    return CardSet.parse(text).mask


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["odds", *args])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    assert err == ""
    return json.loads(out)


# ---------------------------------------------------------------- reading the question

def test_the_question_is_read_into_plain_data() -> None:
    q = parse_question(["elder,", "one", "of", "QS", "JS"])
    assert q == DrawingQuestion(0, ((Need(m("QS JS"), 1, None),),))
    assert parse_question(["Younger", "2 of KH KD KC"]) == DrawingQuestion(1, ((Need(m("KH KD KC"), 2, None),),))
    assert parse_question(["elder exactly 2 of KH KD KC"]) == DrawingQuestion(0, ((Need(m("KH KD KC"), 2, 2),),))
    assert parse_question(["elder at most one of KH KD"]) == DrawingQuestion(0, ((Need(m("KH KD"), 0, 1),),))
    assert parse_question(["elder none of KH KD"]) == DrawingQuestion(0, ((Need(m("KH KD"), 0, 0),),))
    both = DrawingQuestion(0, ((Need(m("QS JS"), 2, None),),))
    for words in ("elder QS JS", "elder all of QS JS", "elder both of QS JS", "elder both QS and JS",
                  "the elder QS, JS"):
        assert parse_question([words]) == both, words
    assert parse_question(["elder either QS or JS"]) == DrawingQuestion(0, ((Need(m("QS JS"), 1, None),),))
    q = parse_question(["elder one of AS AH AC AD and one of KS KH KC KD"])
    assert q == DrawingQuestion(0, ((Need(m("AS AH AC AD"), 1, None), Need(m("KS KH KC KD"), 1, None)),))
    q = parse_question(["elder 10S or AD"])
    assert q == DrawingQuestion(0, ((Need(m("10S"), 1, None),), (Need(m("AD"), 1, None),)))
    q = parse_question(["elder all of KH KD or all of QH QD"])
    assert q == DrawingQuestion(0, ((Need(m("KH KD"), 2, None),), (Need(m("QH QD"), 2, None),)))
    assert parse_question(["what", "is", "against", A_HAND]) == AgainstQuestion(m(A_HAND))
    assert parse_question(["what is against"]) == AgainstQuestion(None)
    assert parse_question(["Carte", "Blanche"]) == CarteBlancheQuestion()
    assert parse_question(["point", "38"]) == PointQuestion(38, 4)
    for words in ("point 48 five cards", "point 48 5", "point 48 five", "point of 48 5 cards", "point 48 five-card"):
        assert parse_question([words]) == PointQuestion(48, 5), words
    assert parse_question(["deal"]) == DealQuestion()
    assert parse_question(["exchange", "younger"]) == ExchangeQuestion(1)


def test_the_question_is_said_again_in_words() -> None:
    def words(text: str) -> str:
        q = parse_question([text])
        assert isinstance(q, DrawingQuestion)
        return describe_condition(q.condition)

    assert words("elder one of QS JS") == "at least one of QS JS"
    assert words("elder QS") == "QS"
    assert words("elder QS JS") == "both QS and JS"
    assert words("elder all of KH KD KC") == "all of KH KC KD"
    assert words("elder exactly 2 of KH KD KC") == "exactly two of KH KC KD"
    assert words("elder at most 1 of KH KD KC") == "at most one of KH KC KD"
    assert words("elder none of KH KD") == "none of KH KD"
    assert words("elder 10S or AD") == "10S or AD"
    assert (words("elder one of AS AH and one of KS KH or QS")
            == "at least one of AS AH and at least one of KS KH; or QS")


@pytest.mark.parametrize("words, message", [
    ("", "ask a question"),
    ("what odds", "do not know the question"),
    ("elder XS", "'XS' is not a card"),
    ("elder one of QS blah", "'blah' is neither a card nor a word"),
    ("elder QS QS", "QS is named twice"),
    ("elder one of QS JS and one of QS KS", "QS is named twice"),
    ("elder 3 of QS JS", "asks for 3 cards of only 2 named"),
    ("elder exactly", "a number must follow 'exactly'"),
    ("elder one of", "name the cards"),
    ("elder QS or", "'or' must stand between"),
    ("elder", "say which cards"),
    ("point", "say what the point makes"),
    ("point 48 9 cards", "from one to eight cards"),
    ("point 48 blue", "cannot read 'blue'"),
    ("exchange", "say whose exchange"),
])
def test_questions_that_cannot_be_read(words: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_question([words])


def test_table_row_words() -> None:
    assert table_row_words(1, 1) == "one named card"
    assert table_row_words(2, 2) == "two named cards"
    assert table_row_words(2, 1) == "one card (at least) of two named cards"
    assert table_row_words(4, 3) == "three cards (at least) of four named cards"


# ---------------------------------------------------------------- drawing

def test_elder_one_of_two_named_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "elder,", "one", "of", "QS", "JS")
    assert code == 0 and err == ""
    assert ("The elder hand, taking 5 cards of the 20 he has not seen, takes in at least one of QS JS" in out)
    assert "chance 17/38 (44.7%)" in out
    assert "odds 21 to 17 against (about 5 to 4 against, rounded as the treatise rounds)" in out
    data = run_json(capsys, "elder, one of QS JS")
    assert data["question"].startswith("The elder hand, taking 5 cards")
    assert {k: data[k] for k in ("role", "taken", "pool", "probability", "decimal", "odds", "treatise_odds")} == {
        "role": "elder", "taken": 5, "pool": 20, "probability": "17/38", "decimal": 0.4474,
        "odds": "21 to 17 against", "treatise_odds": "5 to 4 against"}


@pytest.mark.parametrize("args, probability, odds, treatise", [
    # the tables, p. 121-122
    (["elder QS JS"], "1/19", "18 to 1 against", "18 to 1 against"),
    (["younger QS"], "3/20", "17 to 3 against", "17 to 3 against"),
    (["younger one of AS AH AC AD"], "29/57", "29 to 28 on", "29 to 28 on"),
    (["elder 3 of AS AH AC AD"], "31/969", "938 to 31 against", "30 to 1 against"),
    # the worked cases, p. 122-125
    (["elder one of AH 9H KD", "--hand", QUART_TO_A_KING], "137/228", "137 to 91 on", "3 to 2 on"),
    (["elder 10S or AD"], "17/38", "21 to 17 against", "5 to 4 against"),
    (["elder all of KH KD or all of QH QD"], "101/969", "868 to 101 against", "17 to 2 against"),
    (["elder one of AS AH AC AD and one of KS KH KC KD"], "315/646", "331 to 315 against", "20 to 19 against"),
    (["younger one of AS AH AC AD and one of KS KH KC KD"], "4/19", "15 to 4 against", "15 to 4 against"),
    (["younger JD", "--discard", "JC 10C 10H"], "3/20", "17 to 3 against", "17 to 3 against"),
    (["younger one of JD 10D", "--take", "2"], "37/190", "153 to 37 against", "29 to 7 against"),
    # the younger takes the card the elder left
    (["younger QS", "--elder-left", "1"], "1/5", "4 to 1 against", "4 to 1 against"),
    (["younger QS", "--take", "4", "--elder-left", "1"], "1/5", "4 to 1 against", "4 to 1 against"),
    (["elder QS", "--seen", "7S 8S 9S 10S"], "5/16", "11 to 5 against", "11 to 5 against"),
    (["elder none of QS JS"], "21/38", "21 to 17 on", "5 to 4 on"),
])
def test_drawing_figures(capsys: pytest.CaptureFixture[str], args: list[str], probability: str, odds: str,
                         treatise: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 0 and err == ""
    assert f"chance {probability} (" in out
    assert f"odds {odds} (about {treatise}, rounded as the treatise rounds)" in out
    data = run_json(capsys, *args)
    assert (data["probability"], data["odds"], data["treatise_odds"]) == (probability, odds, treatise)


def test_the_younger_taking_the_elders_card_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "younger QS", "--elder-left", "1")
    assert "The younger hand, taking 4 cards (the elder left one) of the 20 he has not seen, takes in QS" in out
    data = run_json(capsys, "elder QS", "--seen", "7S 8S 9S 10S")
    assert (data["taken"], data["pool"], data["seen"]) == (5, 16, "10S 9S 8S 7S")
    data = run_json(capsys, "younger JD", "--discard", "JC 10C")
    assert data["taken"] == 2


def _brute(condition: list[list[tuple[str, int, int | None]]], hand: str, taken: int) -> Fraction:
    """The chance by taking every draw of the cards not in ``hand``."""
    pool = cards_of(FULL_PACK & ~m(hand))
    assert len(pool) == 20
    hits = 0
    for draw in combinations(pool, taken):
        drawn = sum(1 << c for c in draw)
        hits += any(all(lo <= (drawn & m(cs)).bit_count() <= (hi if hi is not None else 8) for cs, lo, hi in alt)
                    for alt in condition)
    return Fraction(hits, comb(20, taken))


def test_an_or_may_name_a_card_again_and_matches_every_draw(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "AH KH QH JH 10H 9H 8H 7H AC KC QC JC"
    data = run_json(capsys, "elder AS KS or AS QS", "--hand", hand)
    assert Fraction(data["probability"]) == _brute([[("AS KS", 2, None)], [("AS QS", 2, None)]], hand, 5)
    data = run_json(capsys, "younger exactly 1 of AS KS QS and at most 1 of AD KD", "--hand", hand)
    assert Fraction(data["probability"]) == _brute([[("AS KS QS", 1, 1), ("AD KD", 0, 1)]], hand, 3)


# ---------------------------------------------------------------- the tables

def test_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--tables")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert any("one named card" in ln and "3 to 1 against" in ln and "1/4" in ln for ln in lines)
    assert any("one card (at least) of two named cards" in ln and "17/38" in ln and "5 to 4 against" in ln
               for ln in lines)
    three_of_four = [ln for ln in lines if ln.strip().startswith("three cards (at least) of four named cards")]
    assert len(three_of_four) == 1
    row = three_of_four[0]
    assert "33 to 1 against" in row and "31/969" in row and "938 to 31 against" in row and "30 to 1 against" in row
    assert row.endswith("*")
    assert any("one card (at least) of four named cards" in ln and "29 to 28 on" in ln for ln in lines)
    marked = [ln for ln in lines if ln.endswith("*")]
    assert marked == three_of_four  # the only line where the printed figure is not the program's


def test_the_tables_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--tables", "--json")
    assert code == 0 and err == ""
    assert out == json.dumps([row.as_json() for row in drawing_tables()]) + "\n"
    rows = json.loads(out)
    assert isinstance(rows, list) and len(rows) == 18
    assert rows[0] == {"hand": "elder", "named": 1, "at_least": 1, "probability": "1/4", "odds": "3 to 1 against"}
    assert [r["hand"] for r in rows] == ["elder"] * 11 + ["younger"] * 7


def test_the_command_runs_outside_pytest() -> None:
    done = subprocess.run([sys.executable, "-m", "piquet.cli.main", "odds", "--tables", "--json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert len(rows) == 18 and rows[-1]["hand"] == "younger"


# ---------------------------------------------------------------- the other questions

def test_what_is_against_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "what", "is", "against", A_HAND)
    assert code == 0 and err == ""
    for name in ("six-card point in diamonds", "five-card point in clubs", "five-card point in spades",
                 "quint major in diamonds", "quart minor in spades", "tierce major in clubs", "four tens",
                 "three kings", "three queens"):
        assert name in out
    assert "four-card point making 39 (AH QH JH 8H)" in out
    assert "three knaves" in out
    assert "sequence: nothing" in out
    data = run_json(capsys, "what is against", A_HAND)
    threats = data["point"] + data["sequences"] + data["sets"]
    assert {t["name"] for t in threats} >= {"six-card point in diamonds", "quint major in diamonds", "four tens"}
    for t in threats:
        assert set(t) == {"category", "name", "cards", "verdict"} and t["verdict"] in ("beats", "equals")
    assert data["possible"] == 20 and data["mine"]["sequence"] is None


def test_what_is_against_with_a_discard(capsys: pytest.CaptureFixture[str]) -> None:
    # A huitieme and a quatorze of aces: nothing can beat or equal them.
    hand = "AS KS QS JS 10S 9S 8S 7S AH AC AD KH"
    data = run_json(capsys, "what is against", "--hand", hand, "--discard", "KH")
    assert data["discard"] == "KH" and data["kept"] == "AS KS QS JS 10S 9S 8S 7S AH AC AD" and data["possible"] == 20
    assert data["point"] == [] and data["sequences"] == [] and data["sets"] == []
    assert data["mine"]["set"] == {"name": "four aces", "cards": "AS AH AC AD"}
    code, out, _ = run(capsys, "what is against", hand, "--discard", "KH")
    assert code == 0
    assert out.count("    nothing") == 3


def test_carte_blanche(capsys: pytest.CaptureFixture[str]) -> None:
    p = Fraction(comb(20, 12), comb(32, 12))
    code, out, err = run(capsys, "carte", "blanche")
    assert code == 0 and err == ""
    assert f"chance {p.numerator}/{p.denominator}" in out
    assert "1791 to 1" in out
    odds = (1 - p) / p
    assert f"{odds.numerator} to {odds.denominator} against" in out
    data = run_json(capsys, "carte blanche")
    assert Fraction(data["probability"]) == p and data["printed"] == "1791 to 1 against"


def test_the_point_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "point", "38")
    assert code == 0 and err == ""
    assert "8, and three tenth cards" in out
    assert "8, 9, a tenth card, and an ace" in out
    assert "7, two tenth cards, and an ace" in out
    code, out, _ = run(capsys, "point 50 five cards")
    assert code == 0 and "9, three tenth cards, and an ace" in out
    code, out, err = run(capsys, "point", "33")
    assert code == 0 and err == "" and "no four-card point makes 33" in out
    data = run_json(capsys, "point 48 5")
    assert data["length"] == 5 and data["value"] == 48 and "holdings" not in data
    assert "8, and four tenth cards" in data["compositions"]
    data = run_json(capsys, "point 33")
    assert data["compositions"] == []


def test_the_point_the_adversary_could_hold(capsys: pytest.CaptureFixture[str]) -> None:
    # Holding every heart, club and diamond court card and ace but none of spades: 41 (ace and three tenth
    # cards) only in spades.
    hand = "AH KH QH JH AC KC QC JC AD KD QD JD"
    data = run_json(capsys, "point 41", "--hand", hand)
    assert data["possible"] == 20
    holdings = [m(h) for h in data["holdings"]]
    assert holdings and all(h & ~m("AS KS QS JS 10S 10H 10C 10D") == 0 for h in holdings)
    assert m("AS KS QS JS") in holdings and len(holdings) == 4
    code, out, _ = run(capsys, "point 41", "--hand", hand)
    assert "in 4 ways" in out and "AS KS QS JS" in out


def test_the_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "deal")
    assert code == 0 and err == ""
    assert "carte blanche" in out and "%" in out
    data = run_json(capsys, "deal")
    assert sum(Fraction(v["probability"]) for v in data["point"].values()) == 1
    assert sum(Fraction(v["probability"]) for v in data["sequence"].values()) == 1
    assert Fraction(data["carte_blanche"]["probability"]) == Fraction(comb(20, 12), comb(32, 12))


def test_the_exchange(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "AS AH AC KS QS 9H 8H 7H 9C 8C 7C 7D"
    discard = "9H 8H 7H 9C 8C"
    data = run_json(capsys, "exchange elder", "--hand", hand, "--discard", discard)
    assert data["draws"] == comb(20, 5) and data["taken"] == 5
    assert sum(Fraction(v["probability"]) for v in data["point"].values()) == 1
    # The quatorze: by every draw.
    kept = m(hand) & ~m(discard)
    pool = cards_of(FULL_PACK & ~m(hand))
    hits = sum(any(s.bit_count() == 4 for s in best_sets(kept | sum(1 << c for c in d))) for d in combinations(pool, 5))
    assert Fraction(data["quatorze"]["probability"]) == Fraction(hits, comb(20, 5))
    code, out, err = run(capsys, "exchange", "younger", "--hand", hand, "--discard", "9H 8H 7H")
    assert code == 0 and err == ""
    assert f"every one of the {comb(20, 3)} draws" in out and "a quatorze" in out


def test_every_kind_of_question_prints_json_only(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["elder QS"], ["what is against", A_HAND], ["carte blanche"], ["point 38", "--seen", "AS"],
                 ["deal"], ["exchange elder", "--hand", A_HAND, "--discard", "8C 7C 9D 8D 8H"]):
        data = run_json(capsys, *args)
        assert isinstance(data, dict) and "question" in data, args


# ---------------------------------------------------------------- errors: one line on stderr, exit 2

@pytest.mark.parametrize("args, message", [
    ([], "ask a question"),
    (["how", "now"], "do not know the question"),
    (["elder", "XS"], "'XS' is not a card"),
    (["elder", "QS", "QS"], "QS is named twice"),
    (["elder one of QS", "--hand", QUART_TO_A_KING.replace("7S", "QS")], "QS is named"),
    (["elder one of QS JS", "--discard", "QS"], "QS is named in the question but is in his discard"),
    (["elder one of QS JS", "--seen", "JS"], "JS is named in the question but is seen"),
    (["elder one of QS JS", "--hand", "QS"], "QS is named in the question but is in his hand"),
    (["elder", "3 of qs js"], "'3 of QS JS' asks for 3 cards of only 2 named"),
    (["elder QS", "--take", "6"], ""),
    (["elder QS", "--take", "0"], ""),
    (["younger QS", "--take", "4"], ""),
    (["younger QS", "--take", "6", "--elder-left", "2"], ""),
    (["elder QS", "--elder-left", "1"], "--elder-left is for the younger"),
    (["elder QS", "--take", "x"], "--take must be a number of cards, not 'x'"),
    (["younger QS", "--elder-left", "5"], "from none to four cards"),
    (["elder QS", "--hand", "AS KS QH JH 10H 9H 8H 7H AC KC QC JC AD"], "13 cards"),
    (["elder QS", "--hand", "AS AS"], "--hand: a card is named twice"),
    (["elder QS", "--hand", "AS ZZ"], "--hand: 'ZZ' is not a card"),
    (["elder QS", "--take", "3", "--discard", "AS KS"], "takes in as many cards as he discards"),
    (["elder QS", "--hand", "AS", "--seen", "AS"], "AS is both in --seen and in --hand"),
    (["--tables", "elder QS"], "--tables takes no question"),
    (["--tables", "--take", "3"], "--take has no meaning"),
    (["deal", "--hand", "AS"], "--hand has no meaning for 'deal'"),
    (["carte blanche", "--seen", "AS"], "--seen has no meaning"),
    (["point 38", "--take", "3"], "--take has no meaning"),
    (["what is against"], "name the hand"),
    (["what is against AS", "--hand", "KS"], "name the hand once"),
    (["exchange elder", "--hand", "AS KS"], "give the twelve cards dealt"),
    (["exchange elder", "--hand", A_HAND], "--discard"),
    (["exchange elder", "--hand", A_HAND, "--discard", "10D"], "not in --hand"),
    (["exchange elder", "--hand", A_HAND, "--discard", "AS KS JS AH QH JH"], ""),
    (["exchange elder", "--level", "nobody"], "unknown level 'nobody'"),
    (["exchange elder", "--level", "simple", "--samples", "0"], "--samples must be at least 1"),
    (["exchange elder", "--level", "simple", "--hand", A_HAND], "--hand has no meaning"),
    (["exchange elder", "--samples", "10"], "--samples is for 'exchange' with --level"),
    (["deal", "--level", "simple"], "--level and --samples are for 'exchange"),
])
def test_bad_questions_fail_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("piquet odds: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert message in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_exchange_of_a_level_is_simulated_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "exchange", "elder", "--level", "simple", "--samples", "120", "--seed", "3")
    assert data["exact"] is False and data["samples"] == 120 and data["level"] == "simple"
    chances = data["chances"]
    assert chances["point 4+"]["hits"] >= chances["point 5+"]["hits"] >= chances["point 6+"]["hits"]
    assert chances["trio"]["hits"] >= chances["quatorze"]["hits"]
    for c in chances.values():
        assert c["samples"] == 120
        assert c["ci95"][0] <= c["rate"] <= c["ci95"][1]
        assert c["rate"] == round(c["hits"] / 120, 5)
    assert run_json(capsys, "exchange", "elder", "--level", "1", "--samples", "120", "--seed", "3") == data
    code, out, _ = run(capsys, "exchange", "elder", "--level", "simple", "--samples", "120", "--seed", "3")
    assert code == 0 and "95% (Wilson) interval" in out and "point 5+" in out
