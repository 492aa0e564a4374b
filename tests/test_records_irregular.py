"""Irregularities in the record format: a deal of eleven or thirteen that stands (Laws 40-43), an exchange against
the laws (Laws 30, 31, 35) and a penalty of reckoning nothing (Laws 44, 58), written as the referee's kind, facts
and remedy chosen; read, replayed, written back, told by ``piquet replay`` and settled by ``piquet settle``.
Case XXII is the book's (p. 33-35)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from piquet.cli.main import main
from piquet.core.actions import DeclarePoint, DeclareSequences, DeclareSets, Discard, Play
from piquet.core.cards import cards_of, mask_of
from piquet.core.deal import STANDING, Deal, Limits, Phase
from piquet.core.events import ELDER, YOUNGER, OddExchange, Penalty, Unanswered
from piquet.core.partie import Partie
from piquet.core.referee import Irregularity, Kind, Remedy, deal_limits, rule
from piquet.core.rules import RUBICON, Rules, rules_named
from piquet.records.record import (
    PartieRecord,
    RecordError,
    Ruled,
    load_record,
    parse_record,
    record_of,
    replay,
)
from test_irregular_deals import (
    A_DISCARDED,
    A_HOLDS,
    A_TOOK,
    B_DISCARDED,
    B_HOLDS,
    B_TOOK,
    CASE_XXII_PLAY,
    cards,
    lowest,
    m,
)
from test_record import EXAMPLE

DATA = Path(__file__).parent / "data" / "records"
CASE_XXII_PARTIE = DATA / "case-xxii-partie.json"
AU_CENT = rules_named("au-cent")


# ---------------------------------------------------------------- helpers


def case_xxii_deal(partie: Partie) -> Deal:
    """Case XXII in a partie: B, younger, takes in three for two and reckons nothing (Law 35); played out."""
    elder = (m(A_HOLDS) & ~m(A_TOOK)) | m(A_DISCARDED)
    younger = (m(B_HOLDS) & ~m(B_TOOK)) | m(B_DISCARDED)
    deal = partie.deal_cards(elder, younger, cards(A_TOOK) + cards(B_TOOK))
    deal.apply(Discard(m(A_DISCARDED)))
    deal.take_in(YOUNGER, m(B_DISCARDED), 3, "Law 35")
    deal.reckons_nothing(YOUNGER, "Law 35")
    for action in (DeclarePoint(m("AS KS QS JS 9S")), DeclarePoint(m("AC KC QC TC 9C")),
                   DeclareSequences((m("AS KS QS JS"), m("QD JD TD"))), DeclareSequences((m("AC KC QC"),)),
                   DeclareSets((m("JS JH JC JD"),)), DeclareSets((m("TS TH TC"),))):
        deal.apply(action)
    for card in CASE_XXII_PLAY.split():
        deal.apply(Play(cards(card)[0]))
    return deal


def case_xxii_record() -> PartieRecord:
    """Case XXII as a record of one deal, B dealing: A is elder."""
    partie = Partie(first_dealer="B")
    case_xxii_deal(partie)
    return record_of(partie)


def case_xxii_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(case_xxii_record().to_json())
    return doc


def standing_limits(sizes: tuple[int, int, int], rules: Rules = RUBICON) -> Limits:
    """The exchange of a deal of these sizes that stands, as the referee rules it (Laws 40-43)."""
    e, y, s = sizes
    ruling = rule(Irregularity(Kind.WRONG_COUNT, elder_cards=e, younger_cards=y, stock_cards=s, hand_taken_up=True),
                  rules)
    option = next(o for o in ruling.options if o.limits)
    return deal_limits(option.limits)


def standing_partie(sizes: tuple[int, int, int], seed: int, rules: Rules = RUBICON) -> Partie:
    """A partie of one deal of these sizes that stands, played at random to its end."""
    rng = random.Random(seed)
    order = list(range(32))
    rng.shuffle(order)
    e, y, _ = sizes
    partie = Partie(rules, first_dealer="A")
    deal = partie.deal_cards(mask_of(order[:e]), mask_of(order[e:e + y]), order[e + y:],
                             limits=standing_limits(sizes, rules))
    while not deal.is_over:
        deal.apply(deal.legal_actions().sample(rng))
    return partie


def round_trip(partie: Partie, players: dict[str, str] | None = None) -> str:
    """The record of a partie written, read and replayed: the same record, and the same deals scored the same."""
    record = record_of(partie, players)
    text = record.to_json()
    back = parse_record(text)
    assert back == record
    again = replay(back)
    assert record_of(again, players).to_json() == text
    for d, e in zip(partie.deals, again.deals, strict=True):
        assert (e.totals, e.scores, e.tricks_won, e.hands, e.penalised) == (d.totals, d.scores, d.tricks_won,
                                                                           d.hands, d.penalised)
    return text


def write(tmp_path: Path, doc: object) -> Path:
    path = tmp_path / "record.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- Case XXII


def test_case_xxii_round_trips_and_replays_to_29_and_nothing() -> None:
    partie = Partie(first_dealer="B")
    case_xxii_deal(partie)
    text = round_trip(partie, {"A": "Ann", "B": "Bob"})
    record = parse_record(text)
    assert record.deals[0].irregularities == (
        Ruled(Irregularity(Kind.TOOK_MORE, offender=YOUNGER), Remedy.MORE_THAN_TWELVE, took_in=3, law="Law 35"),)
    assert record.deals[0].younger_discard == tuple(cards(B_DISCARDED))
    deal = replay(record).deals[0]
    assert deal.is_over and deal.totals == [29, 0]
    assert OddExchange(YOUNGER, 2, 3, 0, 13) in deal.events and Penalty(YOUNGER, "Law 35") in deal.events
    assert deal.irregular == [(1, "take_in", YOUNGER, m(B_DISCARDED), 3, "Law 35"),
                              (1, "penalty", YOUNGER, 0, 0, "Law 35")]


def test_case_xxii_is_written_as_the_referee_rules_it() -> None:
    text = case_xxii_record().to_json()
    assert """      "irregularities": [
        {
          "kind": "took-more",
          "facts": {"offender": "younger"},
          "law": "Law 35",
          "remedy": "more-than-twelve",
          "took_in": 3
        }
      ],
      "elder_discard": ["8H", "7H", "8C", "7C", "7D"],
      "younger_discard": ["8S", "7S"],""" in text


def test_the_partie_of_case_xxii_wins_a_rubicon_of_283(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"The scores are, A, 91; B (who reckons nothing), 92 ... B wins a rubicon (Law 73) of 283 points": five deals
    bring A, elder of the last, to 62 and B to 92."""
    record = load_record(CASE_XXII_PARTIE)
    partie = replay(record)
    assert partie.scores_after()[4] == {"A": 62, "B": 92}
    assert partie.deal_score(5) == {"A": 29, "B": 0} and partie.seat(5, ELDER) == "A"
    s = partie.settlement()
    assert partie.scores == {"A": 91, "B": 92} and (s.finished, s.winner, s.rubicon, s.points_won) == (
        True, "B", True, 283)
    assert record_of(partie).to_json() == CASE_XXII_PARTIE.read_text()
    code, out, err = run(capsys, "settle", str(CASE_XXII_PARTIE))
    assert code == 0 and err == ""
    assert "B wins 283 points" in out and "rubicon" in out
    code, out, err = run(capsys, "replay", str(CASE_XXII_PARTIE), "--json")
    assert code == 0 and json.loads(out)["partie"] == {
        "scores": {"A": 91, "B": 92}, "finished": True, "winner": "B", "rubicon": True, "points_won": 283}


def test_replay_tells_the_irregularity_with_its_law_and_ruling(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", str(CASE_XXII_PARTIE))
    assert code == 0 and err == ""
    lines = out.splitlines()
    told = [
        "  B discards 8S 7S and takes in KD 9D 8D: his hand holds thirteen.",
        "  B took in more than he discarded (Law 35): he plays with more than twelve cards and reckons nothing this "
        "deal (A's choice).",
        "  B reckons nothing this deal (Law 35); his cards still bar (Law 58), and a carte blanche still scores "
        "(Case XXI).",
    ]
    at = lines.index(told[0])
    assert lines[at:at + 3] == told
    assert '    B: "Shown, reckoning nothing: point in clubs: AC KC QC 10C 9C."' in lines
    assert "B wins the partie, and A is rubiconed (under 100): 92 + 91 + 100 = 283 points (Law 73)." in lines


def test_a_waived_penalty_enters_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Law 44: the adversary may waive the penalty; the younger then reckons what he holds."""
    doc = case_xxii_doc()
    doc["deals"][0]["irregularities"][0]["remedy"] = "waive"
    record = parse_record(json.dumps(doc))
    deal = replay(record).deals[0]
    assert not any(type(e) is Penalty for e in deal.events) and deal.penalised == [False, False]
    assert deal.totals[YOUNGER] > 0
    assert record_of(replay(record)) == record  # no penalty after the exchange: waived
    code, out, _ = run(capsys, "replay", str(write(tmp_path, doc)))
    assert code == 0
    assert ("  B took in more than he discarded (Law 35): the penalty not enforced: B reckons what he holds "
            "(Law 44) (A's choice).") in out.splitlines()
    assert "reckons nothing" not in out


# ---------------------------------------------------------------- Laws 40-43: a deal that stands


@pytest.mark.parametrize("sizes", sorted(STANDING))
@pytest.mark.parametrize("seed", range(3))
def test_a_standing_deal_round_trips(sizes: tuple[int, int, int], seed: int) -> None:
    partie = standing_partie(sizes, seed)
    text = round_trip(partie)
    (ruled,) = parse_record(text).deals[0].irregularities
    i = ruled.irregularity
    assert i.kind is Kind.WRONG_COUNT and (i.elder_cards, i.younger_cards, i.stock_cards) == sizes
    assert ruled.remedy is (Remedy.ALTER_DISCARD if sizes[0] == 12 else Remedy.STAND_ODD)
    assert replay(parse_record(text)).deals[0].limits == standing_limits(sizes)


def test_a_deal_of_thirteen_law_40(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Law 40: the elder with thirteen and eight in the stock discards one more than he takes in."""
    partie = standing_partie((13, 11, 8), 0)
    text = round_trip(partie)
    assert """          "facts": {"hand_taken_up": true, "elder_cards": 13, "younger_cards": 11, "stock_cards": 8, \
"elder_took_stock": false, "announced": false},
          "law": "Law 11",
          "remedy": "stand-odd\"""" in text
    deal = replay(parse_record(text)).deals[0]
    assert deal.elder_takes == deal.discards[ELDER].bit_count() - 1
    code, out, err = run(capsys, "replay", str(write(tmp_path, text)))
    assert code == 0 and err == ""
    assert ("  B is dealt thirteen cards, A eleven, and eight are left in the stock (Law 11): the deal stands "
            "(Law 40): B discards one more than he takes in, at least 2, takes at most 5; A discards one less than "
            "he takes in, at least 0, takes at most 3 (B's choice).") in out.splitlines()
    assert "his hand holds twelve." in out


def test_a_standing_deal_at_piquet_au_cent() -> None:
    """p. 17-18 (6): the exchange of a deal that stands, as the laws of Piquet au cent set it."""
    for sizes in sorted(STANDING):
        text = round_trip(standing_partie(sizes, 1, AU_CENT))
        assert parse_record(text).deals[0].irregularities[0].law == "p. 16 (3)" or sizes[0] == 12


# ---------------------------------------------------------------- Law 30, Law 57: a hand of eleven


def test_a_hand_of_eleven_and_the_card_not_played_to(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Law 30: the elder discards five and takes in four: he plays with eleven, no penalty; the younger's last card
    cannot be played to, and counts as the twelfth trick (Law 57)."""
    partie = Partie(first_dealer="B")
    deal = partie.deal_from(list(range(32)))
    deal.take_in(ELDER, lowest(deal.hands[ELDER], 5), 4, "Law 30")
    rng = random.Random(3)
    while not deal.is_over:
        deal.apply(deal.legal_actions().sample(rng))
    assert [type(e) for e in deal.events if type(e) is Unanswered] == [Unanswered]
    text = round_trip(partie)
    (ruled,) = parse_record(text).deals[0].irregularities
    assert (ruled.irregularity.kind, ruled.remedy, ruled.took_in, ruled.law) == (
        Kind.DISCARDED_MORE, Remedy.FEWER_THAN_TWELVE, 4, "Law 30")
    assert len(parse_record(text).deals[0].play) == 22  # eleven tricks played; the twelfth is not played to
    code, out, _ = run(capsys, "replay", str(write(tmp_path, text)))
    assert code == 0
    lines = out.splitlines()
    assert "  A discarded more than he took in (Law 30): he plays with fewer than twelve cards." in lines
    assert any(line.startswith("  Trick 12: B counts as a trick the card that cannot be played to (Law 57); the "
                               "twelfth is the last trick (Case XIX)") for line in lines)


# ---------------------------------------------------------------- a penalty on its own


def test_a_penalty_after_a_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Law 27: the elder exposing a card of the younger's reckons nothing; entered after the elder's discard."""
    partie = Partie(first_dealer="B")
    deal = partie.deal_from(list(range(32)))
    deal.apply(Discard(lowest(deal.hands[ELDER], 5)))
    deal.reckons_nothing(ELDER, "Law 27")
    rng = random.Random(1)
    while not deal.is_over:
        deal.apply(deal.legal_actions().sample(rng))
    text = round_trip(partie)
    (ruled,) = parse_record(text).deals[0].irregularities
    assert ruled == Ruled(Irregularity(Kind.ELDER_TOOK_YOUNGERS), Remedy.RECKONS_NOTHING, after="elder_discard",
                          law="Law 27")
    assert replay(parse_record(text)).deals[0].irregular == [(1, "penalty", ELDER, 0, 0, "Law 27")]
    code, out, _ = run(capsys, "replay", str(write(tmp_path, text)))
    lines = out.splitlines()
    at = lines.index("  A exposed or took up B's cards (or those he left) (Law 27): he reckons nothing this deal "
                     "(B's choice).")
    assert lines[at + 1].startswith("  A reckons nothing this deal (Law 27)")
    assert lines[at - 1] == "  A discards QS JS 8S 7S 7H and takes in 7D 8D 9D 10D JD."
    assert lines[at + 2] == "  B discards KS AH and takes in QD KD; 1 left in the stock."


def test_a_penalty_before_the_exchange() -> None:
    """With no ``after``, a penalty on its own is entered before the elder discards."""
    doc = json.loads(EXAMPLE.read_text())
    doc["deals"][0]["irregularities"] = [{"kind": "played-wrong-number", "facts": {"offender": "younger",
                                                                                   "cards_held": 13},
                                          "remedy": "more-than-twelve"}]
    deal = replay(parse_record(json.dumps(doc))).deals[0]
    assert deal.irregular == [(0, "penalty", YOUNGER, 0, 0, "Law 58")]
    assert deal.totals == [28, 0]  # the example's younger scored 23: he now reckons nothing, his calls still bar


# ---------------------------------------------------------------- older records


def test_older_records_read_as_before() -> None:
    record = load_record(EXAMPLE)
    assert all(d.irregularities == () for d in record.deals)
    text = record.to_json()
    assert "irregularities" not in text
    partie = replay(record)
    assert partie.scores == {"A": 28, "B": 23} and partie.deals[0].irregular == [] and partie.deals[0].limits is None
    assert "irregularities" not in record_of(partie).to_json()


def test_irregularities_may_be_empty() -> None:
    doc = json.loads(EXAMPLE.read_text())
    doc["deals"][0]["irregularities"] = []
    assert parse_record(json.dumps(doc)) == load_record(EXAMPLE)


# ---------------------------------------------------------------- random parties


_LAWS = ("Law 35", "Law 31", "Law 30", "Law 27", "Law 58", "Case XIV", "Law 25", "")


def random_irregular_partie(seed: int) -> Partie:
    """Deals at random, some of eleven or thirteen that stand, some with exchanges against the laws and
    penalties entered at random points before the calling; played at random, the last maybe not to its end."""
    rng = random.Random(seed)
    rules = AU_CENT if rng.random() < 0.3 else RUBICON
    partie = Partie(rules, first_dealer=rng.choice("AB"))
    for _ in range(rng.randint(1, 3)):
        if partie.is_finished or partie.current is not None:
            break
        order = list(range(32))
        rng.shuffle(order)
        sizes = rng.choice(sorted(STANDING)) if rng.random() < 0.3 else (12, 12, 8)
        e, y, _ = sizes
        limits = standing_limits(sizes, rules) if sizes != (12, 12, 8) else None
        deal = partie.deal_cards(mask_of(order[:e]), mask_of(order[e:e + y]), order[e + y:], limits=limits)
        stop = rng.randint(0, 60) if rng.random() < 0.3 else None
        steps = 0
        while not deal.is_over and (stop is None or steps < stop):
            steps += 1
            if deal.phase <= Phase.ELDER_POINT and deal.decl[ELDER][0] is None and rng.random() < 0.15:
                role = rng.choice((ELDER, YOUNGER))
                if not deal.penalised[role]:
                    deal.reckons_nothing(role, rng.choice(_LAWS))
                    continue
            if deal.phase in (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD) and rng.random() < 0.4:
                role = ELDER if deal.phase == Phase.ELDER_DISCARD else YOUNGER
                hand = sorted(cards_of(deal.hands[role]))
                room = len(deal.stock) - (0 if role == ELDER else deal.elder_takes)
                take = rng.randint(0, min(room, 5) if role == ELDER else room)
                discard = rng.sample(hand, rng.randint(0 if take else 1, 5))
                if role == ELDER and len(deal.stock) - take < 1:
                    continue
                deal.take_in(role, mask_of(discard), take, rng.choice(_LAWS))
                continue
            actions = deal.legal_actions()
            if not len(actions):
                break
            deal.apply(actions.sample(rng))
    return partie


@pytest.mark.parametrize("seed", range(60))
def test_random_irregular_parties_round_trip(seed: int) -> None:
    round_trip(random_irregular_partie(seed), {"A": "Ann", "B": "Bob"})


# ---------------------------------------------------------------- corrupt records


def _irr(k: int, key: str | None, value: Any) -> Any:
    """Set (or, ``value`` None, delete) a field of irregularity ``k`` of the deal; ``key`` None: the entry."""
    def change(doc: dict[str, Any]) -> None:
        entries = doc["deals"][0]["irregularities"]
        if key is None:
            entries[k] = value
        elif value is None:
            del entries[k][key]
        else:
            entries[k][key] = value
    return change


def _deal(key: str, value: Any) -> Any:
    def change(doc: dict[str, Any]) -> None:
        if value is None:
            del doc["deals"][0][key]
        else:
            doc["deals"][0][key] = value
    return change


def _add(entry: dict[str, Any]) -> Any:
    def change(doc: dict[str, Any]) -> None:
        doc["deals"][0]["irregularities"].append(entry)
    return change


def _twice(doc: dict[str, Any]) -> None:
    entries = doc["deals"][0]["irregularities"]
    entries.append(copy.deepcopy(entries[0]))


TOOK = "irregularity 1 (took-more)"
INVALID = [
    # (name, change, step, law, words in the message)
    ("not a list", _deal("irregularities", "took-more"), "irregularities", None, "is a list of rulings"),
    ("not an object", _irr(0, None, "took-more"), "irregularity 1", None, "an irregularity is an object"),
    ("unknown field", _irr(0, "cards", ["8S"]), "irregularity 1", None, "unknown field 'cards'"),
    ("no kind", _irr(0, "kind", None), "irregularity 1", None, "no 'kind'"),
    ("unknown kind", _irr(0, "kind", "took-too-many"), "irregularity 1", None,
     'the kind "took-too-many" is not one the referee knows'),
    ("facts not an object", _irr(0, "facts", ["younger"]), TOOK, None, "'facts' is an object"),
    ("a fact not asked", _irr(0, "facts", {"offender": "younger", "mixed": True}), TOOK, None,
     "'mixed' is not a fact of took-more (it asks offender)"),
    ("offender not a role", _irr(0, "facts", {"offender": "B"}), TOOK, None,
     "'offender' is \"elder\" or \"younger\", found \"B\""),
    ("no offender", _irr(0, "facts", None), TOOK, None, "say who is in error, the elder or the younger"),
    ("law not a string", _irr(0, "law", 35), TOOK, None, "'law' is a string"),
    ("the wrong law", _irr(0, "law", "Law 31"), TOOK, "Law 35", "the law is Law 35, not Law 31"),
    ("no remedy", _irr(0, "remedy", None), TOOK, None, "no 'remedy'"),
    ("unknown remedy", _irr(0, "remedy", "hang"), TOOK, None, 'the remedy "hang" is not one the referee knows'),
    ("remedy not an option", _irr(0, "remedy", "fewer-than-twelve"), TOOK, "Law 35",
     "fewer-than-twelve is not an option of the ruling (the options: more-than-twelve, waive)"),
    ("took_in not a number", _irr(0, "took_in", "three"), TOOK, None, "'took_in' is the number of cards"),
    ("took_in too many", _irr(0, "took_in", 9), TOOK, None, "'took_in' is the number of cards he took in, 0 to 8"),
    ("took in fewer", _irr(0, "took_in", 1), TOOK, "Law 35", "took-more, but he takes in 1 for the 2 he discards"),
    ("more than the stock", _irr(0, "took_in", 4), TOOK, None, "the stock holds 3 cards: 4 cannot be taken in"),
    ("after not a step", _irr(0, "after", "the calls"), TOOK, None, "'after' is the step the penalty follows"),
    ("after before its exchange", _irr(0, "after", "elder_discard"), TOOK, "Law 35",
     "the penalty follows the exchange it punishes"),
    ("no discard to exchange", _deal("younger_discard", None), TOOK, "Law 35",
     "write his discard in younger_discard"),
    ("two exchanges", _twice, "irregularity 2 (took-more)", "Law 35", "the younger hand exchanges once"),
    ("after, and no penalty", _add({"kind": "took-more", "facts": {"offender": "elder"}, "remedy": "waive",
                                    "after": "younger_discard"}), "irregularity 2 (took-more)", "Law 31",
     "'after' places a penalty of reckoning nothing, and waive enters none"),
    ("a remedy with no place", _add({"kind": "incorrect-pack", "remedy": "void"}),
     "irregularity 2 (incorrect-pack)", "Law 75", "void (the deal void, the deals before stand) has no place"),
    ("a fact of the wrong type", _add({"kind": "elder-took-youngers", "facts": {"mixed": "yes"},
                                       "remedy": "reckons-nothing"}), "irregularity 2 (elder-took-youngers)", None,
     "'mixed' is true or false, found a string"),
    ("a number of the wrong type", _add({"kind": "played-wrong-number", "facts": {"cards_held": "13"},
                                         "remedy": "more-than-twelve"}), "irregularity 2 (played-wrong-number)",
     None, "'cards_held' is a number of cards"),
    ("a penalty twice", _add({"kind": "played-wrong-number", "facts": {"offender": "younger", "cards_held": 13},
                              "remedy": "more-than-twelve", "after": "younger_discard"}),
     "irregularity 2 (played-wrong-number)", None, "the younger hand already reckons nothing this deal"),
    ("after a step the deal has not", _add({"kind": "elder-took-youngers", "facts": {"mixed": False},
                                            "remedy": "reckons-nothing", "after": "elder_looks_at_left"}),
     "irregularity 2 (elder-took-youngers)", "Law 27", "the penalty is entered after elder_looks_at_left, but the "
     "deal has no such step"),
    ("a wrong count with an exchange", _add({"kind": "wrong-count", "remedy": "stand-odd", "took_in": 2}),
     "irregularity 2 (wrong-count)", None, "a wrong count is ruled on the deal as dealt"),
    ("a wrong count not dealt", _add({"kind": "wrong-count", "facts": {"hand_taken_up": True, "elder_cards": 13,
                                                                       "younger_cards": 11},
                                      "remedy": "stand-odd"}), "irregularity 2 (wrong-count)", "Law 11",
     "the facts give the elder 13 cards, the younger 11 and the stock 8; the cards dealt are 12, 12 and 8"),
]


def check_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: dict[str, Any], step: str,
                  law: str | None, words: str) -> None:
    text = json.dumps(doc)
    with pytest.raises(RecordError) as e:
        replay(parse_record(text))
    err = e.value
    assert (err.deal, err.step, err.law) == (1, step, law), str(err)
    assert words in str(err), str(err)
    message = str(err)
    assert message.startswith(f"deal 1, {step}: ")
    code, out, stderr = run(capsys, "replay", str(write(tmp_path, text)))
    assert code == 2 and out == "" and message in stderr


@pytest.mark.parametrize(("name", "change", "step", "law", "words"), INVALID, ids=[x[0] for x in INVALID])
def test_corrupt_irregularities_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                            change: Any, step: str, law: str | None, words: str) -> None:
    doc = case_xxii_doc()
    change(doc)
    check_refused(tmp_path, capsys, doc, step, law, words)


def _standing_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(record_of(standing_partie((13, 11, 8), 0)).to_json())
    return doc


COUNT = "irregularity 1 (wrong-count)"
INVALID_STANDING = [
    ("no ruling", _deal("irregularities", None), "the cards dealt", "Law 9",
     "the elder hand has 13 cards; the dealer gives twelve to each player and leaves eight in the stock; a deal of "
     "eleven or thirteen, or a stock of seven, that stands is written with its ruling"),
    ("a fresh deal", _irr(0, "remedy", "fresh-deal"), COUNT, "Law 11",
     "fresh-deal: a fresh deal; a record holds the deal that stood and was played"),
    ("other counts", _irr(0, "facts", {"hand_taken_up": True, "elder_cards": 13, "younger_cards": 12,
                                       "stock_cards": 7}), COUNT, "Law 11",
     "the facts give the elder 13 cards, the younger 12 and the stock 7; the cards dealt are 13, 11 and 8"),
    ("not taken up", _irr(0, "facts", {"hand_taken_up": False, "elder_cards": 13, "younger_cards": 11}), COUNT,
     "Law 10", "the law is Law 10, not Law 11"),
    ("not an option", lambda doc: (_irr(0, "facts", {"elder_cards": 13, "younger_cards": 11})(doc),
                                   _irr(0, "law", None)(doc)), COUNT, "Law 10",
     "stand-odd is not an option of the ruling (the options: rectify, fresh-deal)"),
    ("twice", _twice, "irregularity 2 (wrong-count)", None, "the deal's count of cards is ruled on twice"),
]


@pytest.mark.parametrize(("name", "change", "step", "law", "words"), INVALID_STANDING,
                         ids=[x[0] for x in INVALID_STANDING])
def test_corrupt_standing_deals_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                            change: Any, step: str, law: str | None, words: str) -> None:
    doc = _standing_doc()
    change(doc)
    check_refused(tmp_path, capsys, doc, step, law, words)
