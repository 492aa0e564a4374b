"""The settlement of stakes and the scoring cards (p. 100-102, 106): the book's figures, properties, the CLI."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.cli.main import main
from piquet.cli.stakes import parse_figures
from piquet.core.rules import RUBICON
from piquet.records.record import load_record, replay
from piquet.stakes.settlement import (
    CUSTOMS,
    FARTHINGS_A_POUND,
    FARTHINGS_A_SHILLING,
    FIFTY,
    FORTY,
    NONE,
    POUND,
    TWENTY,
    TWENTY_FIVE,
    CardPartie,
    ChouettePartie,
    ChouetteSession,
    Session,
    Stake,
    book_reckoning,
    chouette_card_text,
    chouette_seats_after,
    chouette_tens,
    custom_named,
    from_json,
    money_words,
    parse_money,
    scoring_card_html,
    scoring_card_rows,
    scoring_card_text,
    settle_stakes,
    to_csv,
    to_json,
)

DATA = Path(__file__).parent / "data"
P101 = DATA / "scoring-card-p101.json"
P102 = DATA / "chouette-p102.json"
RECORDS = sorted((DATA / "stakes").glob("partie-*.json"))
TEN_SHILLINGS_A_HUNDRED = Stake(10 * FARTHINGS_A_SHILLING, 100)


def shillings(n: int) -> int:
    return n * FARTHINGS_A_SHILLING


def p101() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(P101.read_text())
    return doc


def p102_book() -> dict[str, Any]:
    book: dict[str, Any] = json.loads(P102.read_text())["book"]
    return book


def p101_session() -> Session:
    doc = p101()
    parties = [CardPartie.from_deals(list(zip(p["deals"]["A"], p["deals"]["B"], strict=True)))
               for p in doc["parties"]]
    return Session(("A", "B"), tuple(parties))


def p102_session() -> ChouetteSession:
    card = from_json(P102.read_text())
    assert isinstance(card, ChouetteSession)
    return card


# ---------------------------------------------------------------- the stake and the money


@pytest.mark.parametrize(("text", "farthings", "per"), [
    ("10s a hundred", 480, 100), ("10s/100", 480, 100), ("10s per 100", 480, 100), ("3d a point", 12, 1),
    ("1s a point", 48, 1), ("£1 a hundred", 960, 100), ("ten shillings a hundred", 480, 100),
    ("a pound a hundred", 960, 100), ("threepenny points", 12, 1), ("Shilling points", 48, 1),
    ("half-crown points", 120, 1), ("2s 6d a point", 120, 1), ("2s6d/point", 120, 1), ("½d a point", 2, 1),
    ("1½d a point", 6, 1), ("£1 10s a hundred", 1440, 100), ("half a crown a point", 120, 1),
    ("1s. a point", 48, 1), ("£1 0s. 6d. a point", 984, 1),
])
def test_stakes_are_read_from_words(text: str, farthings: int, per: int) -> None:
    assert Stake.parse(text) == Stake(farthings, per)
    assert Stake.parse(text.upper()) == Stake(farthings, per)


@pytest.mark.parametrize(("text", "why"), [
    ("10 a hundred", "say £, s or d"), ("10s", "so much a point or so much a hundred"),
    ("a hundred", "so much a point or so much a hundred"), ("0s a hundred", "nothing"),
    ("10x a hundred", "cannot read the amount"), ("", "so much a point"), ("1/3d a point", "farthings"),
    ("££1 a point", "cannot read the amount"),
])
def test_a_stake_that_cannot_be_read_says_why(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Stake.parse(text)


def test_money_is_written_in_pounds_shillings_and_pence() -> None:
    assert [money_words(f) for f in (shillings(45), shillings(15), shillings(30), shillings(2) + 24, 2, 960)] == [
        "£2 5s", "15s", "£1 10s", "2s 6d", "½d", "£1"]
    assert parse_money("£2 5s") == shillings(45)


@settings(max_examples=200, deadline=None)
@given(farthings=st.integers(1, 50_000), per=st.sampled_from([1, 100]))
def test_a_stake_written_reads_back(farthings: int, per: int) -> None:
    stake = Stake(farthings, per)
    assert Stake.parse(str(stake)) == stake


# ---------------------------------------------------------------- the customs of rounding (p. 100-101)


def test_fifty_is_the_books_custom_at_ten_shillings_a_hundred() -> None:
    # p. 101: "A wins 75 points ... Fractions of fifty points are not reckoned; A wins five shillings."
    assert FIFTY.reckoned_points(75, TEN_SHILLINGS_A_HUNDRED) == 50
    assert FIFTY.reckon(75, TEN_SHILLINGS_A_HUNDRED) == shillings(5)


def test_twenty_five_keeps_more_of_the_fractions() -> None:
    # p. 101: "Some players only neglect fractions of twenty-five points".
    assert TWENTY_FIVE.reckoned_points(75, TEN_SHILLINGS_A_HUNDRED) == 75
    assert TWENTY_FIVE.reckoned_points(74, TEN_SHILLINGS_A_HUNDRED) == 50


def test_threepenny_points_by_multiples_of_forty() -> None:
    # p. 101: "Threepenny points ... by multiples of forty ...; hence 75 points only score as 40."
    three = Stake.parse("3d a point")
    assert FORTY.reckoned_points(75, three) == 40
    assert FORTY.reckon(75, three) == 40 * 3 * 4
    assert book_reckoning(three) == (three, FORTY)


def test_shilling_points_fractions_of_a_pound() -> None:
    # p. 101: "At sixpenny or shilling points, fractions of a pound are excluded ...; 75 points ... score as 60."
    shilling = Stake.parse("1s a point")
    assert POUND.reckoned_points(75, shilling) == 60
    assert POUND.reckon(75, shilling) == 3 * FARTHINGS_A_POUND
    assert book_reckoning(shilling) == (shilling, POUND)


def test_sixpenny_points_the_reading_chosen() -> None:
    # The reading chosen (docs/stakes.md): a pound of money, which at sixpence is forty points; the other
    # reading (multiples of twenty points) is the custom "twenty".
    six = Stake.parse("6d a point")
    assert POUND.reckoned_points(75, six) == 40
    assert POUND.reckon(75, six) == FARTHINGS_A_POUND
    assert TWENTY.reckoned_points(75, six) == 60
    assert book_reckoning(six) == (six, POUND)


def test_twopenny_points_are_reckoned_at_a_pound_a_hundred() -> None:
    # p. 101: "Twopenny points are reckoned at a pound a hundred, fractions of fifty points not counting".
    assert book_reckoning(Stake.parse("2d a point")) == (Stake.parse("£1 a hundred"), FIFTY)
    assert book_reckoning(TEN_SHILLINGS_A_HUNDRED) == (TEN_SHILLINGS_A_HUNDRED, FIFTY)


def test_customs_are_known_by_name_or_number() -> None:
    assert custom_named("Fifty") is FIFTY and custom_named("25") is TWENTY_FIVE and custom_named("a pound") is POUND
    assert custom_named("none") is NONE
    with pytest.raises(ValueError, match="unknown custom 'sixty'; known: fifty, twenty-five"):
        custom_named("sixty")


stakes = st.builds(Stake, st.integers(1, 2000), st.sampled_from([1, 100]))
customs = st.sampled_from(list(CUSTOMS.values()))


@settings(max_examples=300, deadline=None)
@given(stake=stakes, custom=customs, points=st.integers(-50, 3000))
def test_rounding_is_monotone_and_never_above_the_exact_amount(stake: Stake, custom: Any, points: int) -> None:
    got = custom.reckon(points, stake)
    assert 0 <= got <= max(0, stake.value(points))
    assert got <= custom.reckon(points + 1, stake)
    assert custom.reckoned_points(points, stake) <= max(points, 0)


# ---------------------------------------------------------------- settling balances (p. 102)


def test_the_loser_pays_what_the_winners_receive() -> None:
    # p. 102: "B, on the score, actually loses 500 ...; but ... B gets off with a loss of forty-five."
    s = settle_stakes({"A": 190, "B": -500, "C": 310}, TEN_SHILLINGS_A_HUNDRED, FIFTY)
    assert [(r.player, r.farthings) for r in s.reckonings] == [("A", shillings(15)), ("B", -shillings(45)),
                                                               ("C", shillings(30))]
    assert s.of("A").reckoned == 150 and s.of("C").reckoned == 300 and s.of("B").reckoned == -450


def test_two_losers_share_in_proportion_to_their_losses() -> None:
    s = settle_stakes({"A": 380, "B": -190, "C": -190}, TEN_SHILLINGS_A_HUNDRED, FIFTY)
    assert [r.farthings for r in s.reckonings] == [shillings(35), -shillings(35) // 2, -shillings(35) // 2]
    uneven = settle_stakes({"A": 263, "B": -200, "C": -63}, Stake(1, 1), NONE)
    assert [r.farthings for r in uneven.reckonings] == [263, -200, -63]
    odd = settle_stakes({"A": 190, "B": -120, "C": -70}, TEN_SHILLINGS_A_HUNDRED, FIFTY)
    assert sum(r.farthings for r in odd.reckonings) == 0
    # A receives 150 points, 15s = 720 farthings; B's share 720 * 120/190 = 454.7, C's 720 * 70/190 = 265.3
    assert odd.of("A").farthings == 720 and odd.of("B").farthings == -455 and odd.of("C").farthings == -265


def test_balances_must_sum_to_nothing() -> None:
    with pytest.raises(ValueError, match="do not sum to nothing"):
        settle_stakes({"A": 10, "B": -5}, TEN_SHILLINGS_A_HUNDRED)


balances = st.lists(st.integers(-3000, 3000), min_size=1, max_size=5).map(lambda xs: [*xs, -sum(xs)])


@settings(max_examples=300, deadline=None)
@given(values=balances, stake=stakes, custom=customs)
@pytest.mark.slow
def test_losers_pay_exactly_what_the_others_receive(values: list[int], stake: Stake, custom: Any) -> None:
    s = settle_stakes({f"P{i}": v for i, v in enumerate(values)}, stake, custom)
    assert sum(r.farthings for r in s.reckonings) == 0
    for r in s.reckonings:
        assert (r.farthings > 0) <= (r.points > 0) and (r.farthings < 0) <= (r.points < 0)
        if r.points > 0:
            assert r.farthings == custom.reckon(r.points, stake) <= stake.value(r.points)
        else:
            assert -r.farthings <= stake.value(-r.points) + 1  # his share, to the farthing, never above his loss


# ---------------------------------------------------------------- the partie, as partie.py settles it


def test_a_partie_given_as_figures_is_settled_by_laws_72_and_73() -> None:
    # p. 100: "A scores in the six deals 131; B scores 113. A wins 118" and "A scores 125; B scores 81.
    # A wins ... 306.  This is called winning a rubicon."
    assert parse_figures("A 131 B 113")[1].points == 118
    names, p = parse_figures("A 125 B 81")
    assert names == ("A", "B") and (p.winner, p.points, p.rubicon) == (0, 306, True)
    assert parse_figures("Bob 81 Ann 125")[1].winner == 1
    assert parse_figures("A 131, B 113") == parse_figures("A 131 B 113")
    assert parse_figures("A 27 15 44 18 35 25 B 13 31 6 29 12 23")[1].scores == (164, 114)
    drawn = CardPartie.from_deals([(10, 10)] * 8)
    assert (drawn.winner, drawn.points) == (None, 0)


@pytest.mark.parametrize(("figures", "why"), [
    ("A 131", "cannot read the partie"), ("A 131 B x", "cannot read the partie"), ("A 1 A 2", "names A twice"),
    ("131 A 113 B", "cannot read the partie"), ("A 131 B 113 C 4", "cannot read the partie"),
    ("A 1,2,3 B 1,2,3", "has 6 deals"), ("A 1,2,3,4,5,6 B 1,2,3,4,5", "has 6 deal scores and B 5"),
    ("A 9,2,3,4,5,6,7 B 1,2,3,4,5,6,7", "over after 6 deals"),
    ("A 1,2,3,4,5,6,7 B 1,2,3,4,5,6,7", "has 8 deals"), ("A -4 B 7", "never negative"),
])
def test_figures_that_cannot_be_a_partie(figures: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_figures(figures)


def test_a_session_of_records_is_replayed_by_the_engine() -> None:
    records = [load_record(p) for p in RECORDS]
    session = Session.from_records(records)
    assert session.players == ("Ann", "Bob")
    for record, partie in zip(records, session.parties, strict=True):
        played = replay(record)
        assert partie.deals == tuple((played.deal_score(i)["A"], played.deal_score(i)["B"])
                                     if record.players == {"A": "Ann", "B": "Bob"} else
                                     (played.deal_score(i)["B"], played.deal_score(i)["A"])
                                     for i in range(len(played.deals)))
        settled = played.settlement()
        assert partie.points == settled.points_won
        assert session.players[partie.winner or 0] == (record.players or {})[settled.winner or "A"]
    a, b = session.won()
    assert session.balances() == {"Ann": a - b, "Bob": b - a}


def test_an_unfinished_partie_cannot_be_settled() -> None:
    record = load_record(RECORDS[0])
    record.deals = record.deals[:4]
    with pytest.raises(ValueError, match="partie 1: the partie is unfinished: 4 of 6 deals played"):
        Session.from_records([record])


def test_parties_between_other_players_are_refused() -> None:
    with pytest.raises(ValueError, match="partie 2 is between A and C, not A and B"):
        Session.of([parse_figures("A 131 B 113"), parse_figures("A 131 C 113")])


# ---------------------------------------------------------------- the scoring card of p. 101


def _decode(token: str, substitutions: dict[str, str]) -> int:
    return int("".join(substitutions.get(ch, ch) for ch in token))


def test_p101_every_figure_read_is_what_the_ocr_says() -> None:
    doc = p101()
    subs = doc["substitutions"]
    for p in doc["parties"]:
        for who in "AB":
            for value, token, status in zip(p["deals"][who], p["ocr"][who], p["status"][who], strict=True):
                if status == "read":
                    assert token.isdigit() and int(token) == value
                elif status == "read-letters":
                    assert not token.isdigit() and _decode(token, subs) == value
                else:
                    assert status == "inferred"
            if p["totals_status"][who] == "read":
                assert int(p["totals_ocr"][who]) == p["totals"][who]
        assert _decode(p["won"]["ocr"].lstrip("\\"), subs) == p["won"]["points"]


def test_p101_columns_add_up_to_the_printed_totals() -> None:
    # The substitutions are confirmed where every cell of a column and its total are read.
    doc = p101()
    confirmed = set()
    for p in doc["parties"]:
        for who in "AB":
            cells, statuses = p["deals"][who], p["status"][who]
            if p["totals_status"][who] == "read":
                assert sum(cells) == p["totals"][who]
                if "inferred" not in statuses:
                    confirmed |= {ch for tok in p["ocr"][who] for ch in tok if ch in doc["substitutions"]}
    assert confirmed == set(doc["substitutions"])


def test_p101_the_inferred_cells_are_worked_out_from_the_totals() -> None:
    doc = p101()
    inferred = [(n, who, i) for n, p in enumerate(doc["parties"]) for who in "AB"
                for i, s in enumerate(p["status"][who]) if s == "inferred"]
    assert inferred == [(0, "A", 2), (1, "B", 5)]
    first = doc["parties"][0]
    # A's total of the first partie is not legible: Law 72 gives it from B's 114 (read) and the 150 won (read).
    assert first["totals_status"] == {"A": "inferred", "B": "read"}
    assert RUBICON.settle({"A": first["totals"]["A"], "B": first["totals"]["B"]}).points_won == 150
    for n, who, i in inferred:
        p = doc["parties"][n]
        others = sum(v for k, v in enumerate(p["deals"][who]) if k != i)
        assert p["deals"][who][i] == p["totals"][who] - others


def test_p101_partie_totals_give_the_points_won_by_laws_72_and_73() -> None:
    doc = p101()
    for p in doc["parties"]:
        s = RUBICON.settle(p["totals"])
        assert (s.winner, s.points_won) == (p["won"]["winner"], p["won"]["points"])
    assert [p["won"]["points"] for p in doc["parties"]] == [150, 416, 476, 141, 126]


def test_p101_a_wins_75_points_and_five_shillings() -> None:
    doc = p101()
    session = p101_session()
    assert session.won() == (doc["totals"]["A"], doc["totals"]["B"]) == (692, 617)
    assert [(p.scores, p.points) for p in session.parties] == [
        ((p["totals"]["A"], p["totals"]["B"]), p["won"]["points"]) for p in doc["parties"]]
    assert session.balances() == {"A": doc["result"]["points"], "B": -75}
    money = doc["money"]
    settled = session.settle(Stake.parse(money["stake"]), custom_named(money["custom"]))
    assert settled.of("A").farthings == shillings(money["shillings"]) == shillings(5)
    assert settled.of("B").farthings == -shillings(5)
    assert session.running() == [150, 566, 90, -51, 75]


def test_p101_card_is_drawn_as_the_book_draws_it() -> None:
    session = p101_session()
    text = scoring_card_text(session, session.settle(TEN_SHILLINGS_A_HUNDRED))
    lines = text.splitlines()
    assert lines[0] == "Scoring card: A and B, five parties (p. 101)"
    assert [c.strip() for c in lines[1].split("|")] == ["", "Partie 1", "Partie 2", "Partie 3", "Partie 4",
                                                        "Partie 5", "Totals"]
    rows = {line.split("|")[0].strip(): [c.split() for c in line.split("|")[1:]] for line in lines[3:14]}
    assert rows["deal 1"] == [["27", "13"], ["15", "30"], ["20", "18"], ["28", "14"], ["23", "12"], ["150", "476"]]
    assert rows["deal 5"][-1] == ["692", "617"] and rows["deal 6"][-1] == ["75"]
    assert rows["total"][:5] == [["164", "114"], ["224", "92"], ["75", "301"], ["103", "144"], ["130", "104"]]
    assert rows["won"][:5] == [["150"], ["416*"], ["476*"], ["141"], ["126"]]
    assert "A wins 75 points (692 - 617); B loses 75." in lines
    assert any(line.startswith("A wins 5s") for line in lines) and any(line.startswith("B pays 5s") for line in lines)
    # columns line up: every row of the card has its bars in the same places
    bars = {tuple(i for i, ch in enumerate(line) if ch == ("+" if line.startswith("-") else "|"))
            for line in lines[1:14]}
    assert len(bars) == 1


def test_the_card_exports_as_csv_cell_for_cell() -> None:
    session = p101_session()
    grid, _ = scoring_card_rows(session)
    rows = list(csv.reader(io.StringIO(to_csv(session, session.settle(TEN_SHILLINGS_A_HUNDRED)))))
    assert rows[:len(grid)] == grid
    assert rows[len(grid)] == []
    assert rows[len(grid) + 1] == ["stake", "10s a hundred", "custom", "fifty"]
    assert rows[len(grid) + 3] == ["A", "75", "50", str(shillings(5)), "5s"]
    assert rows[len(grid) + 4] == ["B", "-75", "-50", str(-shillings(5)), "-5s"]


def test_the_json_export_keeps_odd_names_as_they_are() -> None:
    session = Session(("[1,\n2]", "B"), (CardPartie.from_scores(131, 113),
                                          CardPartie.from_deals([(6, 1), (5, 2), (4, 3), (3, 4), (2, 5), (2, 6)])))
    assert from_json(to_json(session)) == session
    assert json.loads(to_json(session))["parties"][1]["deals"][0] == [6, 1]


def test_the_card_in_html_escapes_names() -> None:
    session = Session.of([parse_figures("<Ann> 131 Bob&Co 113")])
    page = scoring_card_html(session)
    assert "&lt;Ann&gt;" in page and "Bob&amp;Co" in page and "<Ann>" not in page
    assert page.count("<tr>") == len(scoring_card_rows(session)[0])


# ---------------------------------------------------------------- chouette (p. 102, 106)


@pytest.mark.parametrize(("points", "tens"), [(416, 42), (141, 14), (126, 13), (150, 15), (145, 14), (5, 0),
                                             (6, 1), (0, 0), (476, 48)])
def test_chouette_tens(points: int, tens: int) -> None:
    # p. 102: "adding one to the tens for units above five, and neglecting units from one to five".
    assert chouette_tens(points) == tens


@given(st.integers(0, 5000))
def test_chouette_tens_round_to_the_nearest_ten_half_down(points: int) -> None:
    tens = chouette_tens(points)
    assert abs(points - 10 * tens) <= 5
    assert (10 * tens > points) == (points % 10 > 5)


def test_the_chouette_card_implies_who_played_alone_and_who_won() -> None:
    book = p102_book()
    card = book["card"]
    players = sorted(card)
    before = dict.fromkeys(players, 0)
    implied = []
    for n in range(len(card["A"])):
        entry = {q: card[q][n] - before[q] for q in players}
        before = {q: card[q][n] for q in players}
        single = max(players, key=lambda q: abs(entry[q]))
        assert all(entry[q] == -entry[single] // 2 for q in players if q != single)
        implied.append((single, entry[single] > 0, abs(entry[single]) // 2))
    session = p102_session()
    assert implied == [(p.single, p.single_won, p.tens) for p in session.parties]
    assert [p.points for p in session.parties] == [150, 416, 476, 141, 126]  # the parties of p. 101


def test_the_chouette_card_of_p102() -> None:
    book = p102_book()
    session = p102_session()
    assert session.entries()[:3] == book["first_form"]
    running = session.running()
    assert {q: [r[q] for r in running] for q in session.players} == book["card"]
    assert session.balances() == book["result"] == {"A": 190, "B": -500, "C": 310}
    assert session.result_words() == "A wins 190; C, 310; B loses 500."
    money = book["money"]
    settled = session.settle(Stake.parse(money["stake"]), custom_named(money["custom"]))
    assert {r.player: r.farthings for r in settled.reckonings} == {
        q: shillings(s) for q, s in money["shillings"].items()}
    assert {r.player: r.reckoned for r in settled.reckonings if r.farthings > 0} == money["reckoned"]


def test_the_single_player_follows_the_order_of_p106() -> None:
    session = p102_session()
    assert session.rotation_notes() == []
    seats = ("A", "B", "C")  # A alone, B plays for the other two, C advises
    for p in session.parties:
        assert p.single == seats[0]
        if p.single_won is False:
            assert p.winner == seats[1]
        seats = chouette_seats_after(*seats, p.single_won)
    wrong = ChouetteSession(session.players, (*session.parties[:3], ChouettePartie("C", "A", 141)))
    assert wrong.rotation_notes() == ["partie 4: C plays alone, but by p. 106 it is B's turn"]


def test_a_drawn_partie_at_chouette_counts_nothing() -> None:
    s = ChouetteSession(("A", "B", "C"), (ChouettePartie("A", None, 0), ChouettePartie("A", "A", 150)))
    assert s.entries()[0] == {"A": 0, "B": 0, "C": 0}
    assert s.rotation_notes() == []
    assert chouette_seats_after("A", "B", "C", None) == ("A", "C", "B")


@pytest.mark.parametrize(("parties", "why"), [
    ((ChouettePartie("D", "D", 150),), "the single player 'D' is not one of A, B and C"),
    ((ChouettePartie("A", "D", 150),), "the winner 'D' is not one of"),
    ((ChouettePartie("A", "A", 90),), "more than a hundred"),
    ((ChouettePartie("A", None, 10),), "a drawn partie wins nothing"),
])
def test_chouette_figures_that_cannot_be(parties: tuple[ChouettePartie, ...], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        ChouetteSession(("A", "B", "C"), parties)


def test_the_chouette_card_text() -> None:
    session = p102_session()
    lines = chouette_card_text(session, session.settle(TEN_SHILLINGS_A_HUNDRED)).splitlines()
    table = {line.split("|")[0].strip(): [c.strip() for c in line.split("|")[1:]] for line in lines[1:8]}
    assert table["A"] == ["+  30", "+ 114", "+  18", "+  32", "+  19"]
    assert table["B"] == ["-  15", "-  57", "-   9", "-  37", "-  50"]
    assert table["alone"] == ["A won", "A won", "A lost", "B lost", "C won"]
    assert "A wins 190; C, 310; B loses 500." in lines
    assert [line.split(" (")[0] for line in lines[-3:]] == ["A wins 15s", "C wins £1 10s", "B pays £2 5s"]


chouette_parties = st.lists(st.tuples(st.sampled_from("ABC"), st.sampled_from(["A", "B", "C", None]),
                                      st.integers(101, 700)), max_size=12).map(
    lambda ps: tuple(ChouettePartie(s, w, 0 if w is None else pts) for s, w, pts in ps))


@settings(max_examples=200, deadline=None)
@given(parties=chouette_parties)
def test_chouette_sums_to_nothing_before_rounding(parties: tuple[ChouettePartie, ...]) -> None:
    s = ChouetteSession(("A", "B", "C"), parties)
    for e, p in zip(s.entries(), parties, strict=True):
        assert sum(e.values()) == 0
        assert abs(e[p.single]) == 2 * p.tens
    assert sum(s.balances().values()) == 0
    assert all(v % 10 == 0 for v in s.balances().values())
    settled = s.settle(TEN_SHILLINGS_A_HUNDRED)
    assert sum(r.farthings for r in settled.reckonings) == 0


# ---------------------------------------------------------------- JSON round trip


def _card_partie(draw: st.DrawFn) -> tuple[tuple[str, str], CardPartie]:
    if draw(st.booleans()):
        a, b = draw(st.integers(0, 300)), draw(st.integers(0, 300))
        return ("A", "B"), CardPartie.from_scores(a, b)
    deals = draw(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=6, max_size=6))
    if sum(a for a, _ in deals) == sum(b for _, b in deals):
        deals += draw(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=2, max_size=2))
    return ("A", "B"), CardPartie.from_deals(deals)


sessions = st.lists(st.composite(_card_partie)(), min_size=1, max_size=8).map(Session.of)


@settings(max_examples=150, deadline=None)
@given(session=sessions, stake=stakes, custom=customs)
@pytest.mark.slow
def test_the_json_export_reads_back(session: Session, stake: Stake, custom: Any) -> None:
    settlement = session.settle(stake, custom)
    text = to_json(session, settlement)
    assert from_json(text) == session
    doc = json.loads(text)
    assert doc["balances"] == session.balances()
    assert [p["farthings"] for p in doc["settlement"]["players"]] == [r.farthings for r in settlement.reckonings]
    scoring_card_text(session, settlement)  # draws without error


@settings(max_examples=100, deadline=None)
@given(parties=chouette_parties)
def test_the_chouette_json_export_reads_back(parties: tuple[ChouettePartie, ...]) -> None:
    s = ChouetteSession(("A", "B", "C"), parties)
    assert from_json(to_json(s)) == s


@pytest.mark.parametrize(("change", "why"), [
    (lambda d: d["parties"][0].update(points=151), "the points is 150 by Laws 71-73, not 151"),
    (lambda d: d["parties"][0].update(winner="B"), "the winner is 'A'"),
    (lambda d: d["parties"][0].update(scores=[1, 2]), "the deals add up to"),
    (lambda d: d["parties"][0].update(deals=[[1, 2]]), "a finished partie has 6 deals"),
    (lambda d: d.update(format="other"), "unknown format"),
    (lambda d: d["parties"][0].update(extra=1), "unknown field 'extra'"),
    (lambda d: d.update(players=["A", "B", "C"]), "a scoring card is between two players"),
])
def test_a_card_that_disagrees_with_itself_is_refused(change: Any, why: str) -> None:
    doc = json.loads(to_json(p101_session()))
    change(doc)
    with pytest.raises(ValueError, match=why):
        from_json(json.dumps(doc))


# ---------------------------------------------------------------- the command


def settle(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["settle", *args])
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _p101_figures() -> list[str]:
    args = []
    for p in p101()["parties"]:
        args += ["--partie", f"A {','.join(map(str, p['deals']['A']))} B {','.join(map(str, p['deals']['B']))}"]
    return args


def test_settle_the_p101_card_from_figures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = settle(capsys, *_p101_figures(), "--stake", "10s a hundred", "--custom", "fifty",
                            "--csv", str(tmp_path / "card.csv"), "--json", str(tmp_path / "card.json"))
    assert (code, err) == (0, "")
    assert out == scoring_card_text(p101_session(), p101_session().settle(TEN_SHILLINGS_A_HUNDRED)) + "\n"
    assert "A wins 5s (50 points reckoned of 75)." in out.splitlines()
    assert from_json((tmp_path / "card.json").read_text()) == p101_session()
    assert (tmp_path / "card.csv").read_text() == to_csv(p101_session(), p101_session().settle(
        TEN_SHILLINGS_A_HUNDRED))
    # the card written reads back as an input
    code, again, err = settle(capsys, str(tmp_path / "card.json"), "--stake", "10s a hundred")
    assert (code, err, again) == (0, "", out)


def test_settle_the_chouette_of_p102(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = settle(capsys, "--chouette", str(P102), "--stake", "10s/100")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "A wins 190; C, 310; B loses 500." in lines
    assert [line.split(" (")[0] for line in lines[-3:]] == ["A wins 15s", "C wins £1 10s", "B pays £2 5s"]


def test_settle_records(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = settle(capsys, *map(str, RECORDS), "--stake", "10s a hundred")
    assert (code, err) == (0, "")
    session = Session.from_records([load_record(p) for p in RECORDS])
    assert out == scoring_card_text(session, session.settle(TEN_SHILLINGS_A_HUNDRED)) + "\n"
    winner = max(session.balances(), key=lambda q: session.balances()[q])
    assert any(line.startswith(f"{winner} wins ") for line in out.splitlines())
    code, points_only, err = settle(capsys, *map(str, RECORDS), "--partie", "Bob 131 Ann 113")
    assert code == 0 and "At " not in points_only
    assert points_only.splitlines()[0] == "Scoring card: Ann and Bob, four parties (p. 101)"


def test_settle_twopenny_points_by_the_books_custom(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = settle(capsys, "--partie", "A 125 B 81", "--stake", "twopenny points", "--custom", "book")
    assert (code, err) == (0, "")
    assert "A wins £3 (300 points reckoned of 306)." in out.splitlines()
    assert out.splitlines()[-1] == "2d a point is reckoned at £1 a hundred (p. 101)."


@pytest.mark.parametrize(("args", "message"), [
    ([], "nothing to settle"),
    (["--partie", "A 131 B 113", "--stake", "10 a hundred"], "cannot read the stake '10 a hundred'"),
    (["--partie", "A 131 B 113", "--stake", "10s a hundred", "--custom", "sixty"], "unknown custom 'sixty'"),
    (["--partie", "A 131 B 113", "--custom", "fifty"], "give --stake with it"),
    (["--partie", "A 131"], "cannot read the partie 'A 131'"),
    (["--partie", "A 131 B 113", "--partie", "A 131 C 113"], "partie 2 is between A and C"),
    (["no-such-file.json"], "cannot read no-such-file.json"),
    (["--chouette", str(P102), "--partie", "A 131 B 113"], "--chouette settles a chouette alone"),
    (["--partie", "A 131 B 113", "--stake"], "--stake: expected one argument"),
    (["--partie", "A 131 B 113", "--rules", "au cent"], "unknown rules 'au cent'"),
    (["--partie", "A 131 B 113", "--json", "/no/such/dir/x.json"], "cannot write /no/such/dir/x.json"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                                    message: str) -> None:
    code, out, err = settle(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("piquet settle: ") and message in err


def test_an_unfinished_record_is_refused_with_its_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = load_record(RECORDS[0])
    record.deals = record.deals[:3]
    path = tmp_path / "short.json"
    path.write_text(record.to_json())
    code, out, err = settle(capsys, str(path))
    assert code == 2 and err == f"piquet settle: {path}: the partie is unfinished: 3 of 6 deals played\n"


def test_the_chouette_card_is_refused_as_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = settle(capsys, str(P102))
    assert code == 2 and "give it with --chouette" in err
    two = tmp_path / "two.json"
    two.write_text(to_json(p101_session()))
    code, _, err = settle(capsys, "--chouette", str(two))
    assert code == 2 and err == f"piquet settle: {two}: not a chouette (three players)\n"


def test_money_reckoned_exactly() -> None:
    # every amount is exact: a hundred points at 10s a hundred is ten shillings, no more and no less
    assert NONE.reckon(100, TEN_SHILLINGS_A_HUNDRED) == shillings(10)
    assert NONE.reckoned_points(33, Stake.parse("7d a hundred")) == 33
    assert NONE.reckon(33, Stake.parse("7d a hundred")) == int(Fraction(33 * 7 * 4, 100))
