"""Point, sequences, quatorzes and trios (Laws 62-64; p. 86-93).

The finding, naming and comparing functions of ``piquet.core.combinations``, checked
against the text and, over every holding of a suit, against definitions written
here; then the examples of p. 89-92 played through a deal, where what counts is
decided by comparing the two players' declarations.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from piquet import (
    ELDER,
    YOUNGER,
    Deal,
    DeclarePoint,
    DeclareSequences,
    DeclareSets,
    Discard,
    LookAtLeft,
    Play,
)
from piquet.core.cards import RANK_MASKS, SUIT_MASKS, parse_cards
from piquet.core.combinations import (
    Outcome,
    best_point,
    best_sequences,
    best_sets,
    compare,
    is_carte_blanche,
    is_point,
    is_run,
    is_set,
    outcome,
    point_key,
    point_score,
    sequence_key,
    sequence_name,
    sequence_score,
    sequences_ok,
    set_key,
    set_name,
    set_score,
    sets_ok,
)
from piquet.core.events import SCORE_KINDS, Reply, Score, Show

PIP = (7, 8, 9, 10, 10, 10, 10, 11)  # seven ... ace (p. 86)


def m(text: str) -> int:
    out = 0
    for c in parse_cards(text):
        out |= 1 << c
    return out


# ---------------------------------------------------------------- the point (Law 62, p. 86-87)

def test_point_values_as_the_text_counts_them() -> None:
    # p. 86-87: ace, king, knave, nine, eight: "Forty-eight".
    assert point_key(m("AH KH JH 9H 8H")) == (5, 48)
    # The example deal: A's hearts make forty-nine, B's diamonds forty-eight (p. 104).
    assert point_key(m("AH KH QH JH 8H")) == (5, 49)
    assert point_key(m("AD QD JD 10D 7D")) == (5, 48)
    # Example XVIII: thirty-nine in clubs, thirty-eight in diamonds.
    assert point_key(m("AC KC 10C 8C")) == (4, 39)
    assert point_key(m("AD KD JD 7D")) == (4, 38)
    assert point_score(m("AH KH QH JH 8H")) == 5  # one for each card
    assert point_key(0) == (0, 0)


def test_the_point_is_the_suit_of_most_cards_then_of_most_value() -> None:
    hand = m("AS KS QS JS  10H 9H 8H 7H JH  AD")
    assert best_point(hand) == m("10H 9H 8H 7H JH")  # five low hearts beat four high spades
    hand = m("AS KS 9S 8S 7S  KH QH JH 10H 8H  AC AD")
    assert best_point(hand) == m("KH QH JH 10H 8H")  # 48 beats 45
    assert best_point(0) == 0


def test_comparing_points() -> None:
    five_low, four_high = point_key(m("10H 9H 8H 7H JH")), point_key(m("AS KS QS JS"))
    assert outcome(five_low, four_high) is Outcome.GOOD
    assert outcome(four_high, five_low) is Outcome.NOT_GOOD
    assert outcome(point_key(m("AH KH JH 9H 8H")), point_key(m("AD QD JD 9D 8D"))) is Outcome.EQUAL
    assert outcome(point_key(m("AH KH QH JH 8H")), point_key(m("AD QD JD 10D 7D"))) is Outcome.GOOD
    assert outcome(point_key(m("AH")), (0, 0)) is Outcome.GOOD
    assert compare((0, 0), (0, 0)) == 0


def test_every_holding_of_a_suit_is_a_point_of_its_cards() -> None:
    for s, suit in enumerate(SUIT_MASKS):
        for byte in range(1, 256):
            held = byte << (8 * s)
            assert is_point(held)
            assert point_key(held) == (bin(byte).count("1"), sum(PIP[r] for r in range(8) if byte >> r & 1))
        assert not is_point(0)
        assert not is_point(suit | SUIT_MASKS[(s + 1) % 4] & m("7S 7H 7C 7D"))


# ---------------------------------------------------------------- sequences (Law 63, p. 87-91)

NAMES = [
    ("AH KH QH", "tierce major"), ("KH QH JH", "tierce to a king"), ("QC JC 10C", "tierce to a queen"),
    ("JS 10S 9S", "tierce to a knave"), ("10D 9D 8D", "tierce to a ten"), ("9D 8D 7D", "tierce minor"),
    ("AS KS QS JS", "quart major"), ("QS JS 10S 9S", "quart to a queen"),
    ("JD 10D 9D 8D", "quart to a knave"), ("10H 9H 8H 7H", "quart minor"),
    ("AC KC QC JC 10C", "quint major"), ("KC QC JC 10C 9C", "quint to a king"),
    ("QH JH 10H 9H 8H", "quint to a queen"), ("JC 10C 9C 8C 7C", "quint minor"),
    ("AS KS QS JS 10S 9S", "sixieme major"), ("KS QS JS 10S 9S 8S", "sixieme to a king"),
    ("QD JD 10D 9D 8D 7D", "sixieme minor"),
    ("AD KD QD JD 10D 9D 8D", "septieme major"), ("KD QD JD 10D 9D 8D 7D", "septieme minor"),
    ("AH KH QH JH 10H 9H 8H 7H", "huitieme"),
]


@pytest.mark.parametrize(("cards", "name"), NAMES)
def test_sequence_names(cards: str, name: str) -> None:
    """p. 88-89: named by the number of cards and the card at the head: major, minor, 'to a ...'."""
    assert is_run(m(cards))
    assert sequence_name(m(cards)) == name


@pytest.mark.parametrize(("length", "score"), [(3, 3), (4, 4), (5, 15), (6, 16), (7, 17), (8, 18)])
def test_sequence_scores(length: int, score: int) -> None:
    """Law 63: tierce 3, quart 4, quint 15, sixieme 16, septieme 17, huitieme 18."""
    for top in range(length - 1, 8):
        run = ((1 << length) - 1) << (top - length + 1)
        assert sequence_score(run << 8) == score


def test_longer_sequence_beats_higher_and_only_identical_ones_are_equal() -> None:
    """p. 88: a tierce major is good against any other tierce; a quart minor against a tierce major."""
    tierce_major = sequence_key(m("AH KH QH"))
    for other in ("KS QS JS", "9C 8C 7C", "QD JD 10D"):
        assert outcome(tierce_major, sequence_key(m(other))) is Outcome.GOOD
    assert outcome(sequence_key(m("10S 9S 8S 7S")), tierce_major) is Outcome.GOOD
    assert outcome(sequence_key(m("JC 10C 9C 8C 7C")), sequence_key(m("AD KD QD JD"))) is Outcome.GOOD
    assert outcome(tierce_major, sequence_key(m("AD KD QD"))) is Outcome.EQUAL
    assert outcome(sequence_key(m("QH JH 10H 9H")), sequence_key(m("JD 10D 9D 8D"))) is Outcome.GOOD


def own_runs(held: int) -> set[int]:
    """Maximal runs of three or more, from the definition (p. 87-88)."""
    runs, run = set(), 0
    for c in range(33):
        if c < 32 and held >> c & 1 and (run == 0 or c % 8 != 0):
            run |= 1 << c
        else:
            if bin(run).count("1") >= 3:
                runs.add(run)
            run = 1 << c if c < 32 and held >> c & 1 else 0
    return runs


def test_best_sequences_finds_every_maximal_run_best_first() -> None:
    for byte in range(256):
        for s in range(4):
            held = byte << (8 * s) | m("AS 7H") & ~SUIT_MASKS[s]
            found = best_sequences(held)
            assert set(found) == own_runs(held), (byte, s)
            keys = [sequence_key(r) for r in found]
            assert keys == sorted(keys, reverse=True)
    assert best_sequences(m("AS KS QS 10S 9S 8S JD 10D 9D 8D")) == (
        m("JD 10D 9D 8D"), m("AS KS QS"), m("10S 9S 8S"))


def test_what_may_be_declared_as_sequences() -> None:
    assert sequences_ok([m("AH KH QH"), m("9C 8C 7C")]) is None
    assert sequences_ok([m("AH KH QH"), m("10H 9H 8H")]) is None  # knave sunk: two tierces
    assert sequences_ok([m("AH KH")]) is not None  # two cards
    assert sequences_ok([m("AH KH JH")]) is not None  # a hole
    assert sequences_ok([m("AH KH QH"), m("QS JS 10S"), m("AH KH QH")]) is not None  # twice
    assert sequences_ok([m("AH KH QH"), m("JH 10H 9H")]) is not None  # touching: one sixieme
    assert sequences_ok([m("AH KH QH JH"), m("QH JH 10H")]) is not None  # a card twice
    assert sequences_ok([m("7S 8S 9S") | m("7H")]) is not None  # two suits
    # Seven of one suit and the ace of the next are not in sequence.
    assert not is_run(m("8S 7S AH")) and not is_run(m("KD AD 7S"))


# ---------------------------------------------------------------- quatorzes and trios (Law 64, p. 91-93)

def test_quatorzes_and_trios() -> None:
    assert is_set(m("AS AH AC AD")) and set_score(m("AS AH AC AD")) == 14
    assert is_set(m("10S 10H 10C")) and set_score(m("10S 10H 10C")) == 3
    assert set_name(m("AS AH AC AD")) == "four aces" and set_name(m("JS JH JC")) == "three knaves"
    assert set_name(m("10S 10H 10C 10D")) == "four tens" and set_name(m("QS QH QD")) == "three queens"
    # Nines and below count nothing; two of a rank, or mixed ranks, are not a set.
    for rank in ("9", "8", "7"):
        assert not is_set(m(f"{rank}S {rank}H {rank}C {rank}D"))
        assert not is_set(m(f"{rank}S {rank}H {rank}C"))
    assert not is_set(m("AS AH")) and not is_set(m("AS AH KC")) and not is_set(0)


def test_any_quatorze_beats_any_trio_then_the_higher_rank() -> None:
    """p. 92: four tens are good against three aces; between quatorzes or trios the higher."""
    assert outcome(set_key(m("10S 10H 10C 10D")), set_key(m("AS AH AC"))) is Outcome.GOOD
    assert outcome(set_key(m("AS AH AC AD")), set_key(m("KS KH KC KD"))) is Outcome.GOOD
    assert outcome(set_key(m("JS JH JC")), set_key(m("QS QH QC"))) is Outcome.NOT_GOOD
    assert outcome(set_key(m("QS QH QC")), set_key(m("10S 10H 10C"))) is Outcome.GOOD


def test_best_sets() -> None:
    hand = m("10S 10H 10C 10D JS JH JC AS AH 9S 9H 9C")
    assert best_sets(hand) == (m("10S 10H 10C 10D"), m("JS JH JC"))
    for r in range(8):
        four = RANK_MASKS[r]
        for three in combinations([c for c in range(32) if four >> c & 1], 3):
            trio = sum(1 << c for c in three)
            assert best_sets(trio) == ((trio,) if r >= 3 else ())
        assert best_sets(four) == ((four,) if r >= 3 else ())


def test_what_may_be_declared_as_quatorzes_and_trios() -> None:
    assert sets_ok([m("KS KH KC"), m("AS AH AC AD")]) is None
    assert sets_ok([m("9S 9H 9C")]) is not None
    assert sets_ok([m("KS KH KC"), m("KS KH KD")]) is not None  # one rank twice
    assert sets_ok([m("KS KH")]) is not None


def test_carte_blanche() -> None:
    """Law 18: twelve cards dealt without king, queen or knave."""
    assert is_carte_blanche(m("AS 10S 9S 8S AH 10H 9H AC 10C 9C AD 10D"))
    assert not is_carte_blanche(m("AS 10S 9S 8S AH 10H 9H AC 10C 9C AD JD"))
    assert not is_carte_blanche(m("AS 10S 9S 8S AH 10H 9H AC 10C 9C AD"))  # eleven cards


# ---------------------------------------------------------------- the examples of p. 89-92, in a deal

def reckoned(elder: str, younger: str, calls: dict[str, dict[str, str]]) -> Deal:
    """A deal whose hands after the exchange are ``elder`` and ``younger``, declared as ``calls``
    ("point", "sequences", "sets", each "-" for nothing), followed to the younger's reckoning.

    Each player discards one of the eight other cards and takes his first card from the stock."""
    e, y = m(elder), m(younger)
    spare = [c for c in range(32) if not (e | y) >> c & 1]
    e_take, y_take = min(c for c in range(32) if e >> c & 1), min(c for c in range(32) if y >> c & 1)
    deal = Deal((e & ~(1 << e_take)) | 1 << spare[0], (y & ~(1 << y_take)) | 1 << spare[1],
                [e_take, y_take] + spare[2:])
    deal.apply(Discard(1 << spare[0]))
    deal.apply(LookAtLeft(False))
    deal.apply(Discard(1 << spare[1]))
    assert deal.hands == [e, y]

    def declaration(role: str, kind: str) -> object:
        text = calls[role].get(kind, "-")
        items = tuple(m(part) for part in text.split("|")) if text != "-" else ()
        return {"point": lambda: DeclarePoint(items[0] if items else 0),
                "sequences": lambda: DeclareSequences(items), "sets": lambda: DeclareSets(items)}[kind]()

    for kind in ("point", "sequences", "sets"):
        deal.apply(declaration("elder", kind))  # type: ignore[arg-type]
        if deal.to_move == YOUNGER:
            deal.apply(declaration("younger", kind))  # type: ignore[arg-type]
    deal.apply(Play(min(c for c in range(32) if e >> c & 1)))
    while deal.to_move == YOUNGER and not isinstance(next(iter(deal.legal_actions())), Play):
        kind = {DeclarePoint: "point", DeclareSequences: "sequences", DeclareSets: "sets"}.get(
            type(next(iter(deal.legal_actions()))))
        deal.apply(declaration("younger", kind) if kind else LookAtLeft(False))  # type: ignore[arg-type]
    return deal


def hand_scores(deal: Deal, role: int) -> dict[str, int]:
    return {k: v for k, v in zip(SCORE_KINDS, deal.scores[role], strict=True) if v and k != "play"}


def test_a_good_sequence_lets_its_holder_count_a_lower_one() -> None:
    """p. 89: A's quart to a queen is good; he scores four, and three for his tierce minor,
    though B's quart to a knave is better than the tierce. B's quart counts nothing."""
    deal = reckoned("QH JH 10H 9H 9S 8S 7S AC KC 7C AD 7D",
                    "JD 10D 9D 8D AS KS AH KH QC JC 9C 8C",
                    {"elder": {"sequences": "QH JH 10H 9H | 9S 8S 7S"},
                     "younger": {"sequences": "JD 10D 9D 8D"}})
    assert hand_scores(deal, ELDER) == {"sequences": 7}
    assert hand_scores(deal, YOUNGER) == {}
    assert [e.words for e in deal.events if type(e) is Reply] == ["Good"]


def test_equal_best_sequences_nullify_all() -> None:
    """p. 89-90: A calls a tierce major, B says 'Equal': neither scores a second tierce major
    or any smaller sequence."""
    deal = reckoned("AH KH QH 9C 8C 7C AS 8S 8D 7D JC 10H",
                    "AD KD QD JS 10S 9S KC QC 10C 9H 8H 7H",
                    {"elder": {"sequences": "AH KH QH | 9C 8C 7C"},
                     "younger": {"sequences": "AD KD QD | JS 10S 9S | 9H 8H 7H"}})
    assert deal.scores[ELDER][SCORE_KINDS.index("sequences")] == 0
    assert deal.scores[YOUNGER][SCORE_KINDS.index("sequences")] == 0
    assert [e.words for e in deal.events if type(e) is Reply] == ["Equal"]
    # Each shows the sequence called equal (Law 55), and nothing more.
    shown = {(e.role, e.cards) for e in deal.events if type(e) is Show}
    assert shown == {(ELDER, m("AH KH QH")), (YOUNGER, m("AD KD QD"))}


def test_four_tens_and_three_knaves_against_three_aces() -> None:
    """p. 92: A scores fourteen for tens and three for knaves, and B does not count his aces."""
    deal = reckoned("10S 10H 10C 10D JS JH JC 7S 7H 8C 7D 8D",
                    "AS AH AC KS KH QC QD 9S 9H 9C 9D 8H",
                    {"elder": {"sets": "10S 10H 10C 10D | JS JH JC"},
                     "younger": {"sets": "AS AH AC"}})
    assert hand_scores(deal, ELDER) == {"sets": 17}
    assert hand_scores(deal, YOUNGER) == {}
    counted = [(e.role, e.cards, e.points) for e in deal.events if type(e) is Score and e.cards]
    assert counted == [(ELDER, m("10S 10H 10C 10D"), 14), (ELDER, m("JS JH JC"), 3)]


def test_a_trio_called_from_a_quatorze_shows_which_card_is_not_reckoned() -> None:
    """p. 92: A calls three kings when he might hold four: B is entitled to know which king is
    not reckoned; the cards shown are the three reckoned."""
    deal = reckoned("KS KH KC KD 9S 8S 7S 9H 8H 7H 9C 8C",
                    "10S 10H 10C JS JH AS AH QS QC 7C 7D 8D",
                    {"elder": {"sets": "KS KH KC"}, "younger": {"sets": "10S 10H 10C"}})
    assert hand_scores(deal, ELDER) == {"sets": 3}
    assert [(e.role, e.cards) for e in deal.events if type(e) is Show and e.role == ELDER] == [
        (ELDER, m("KS KH KC"))]
