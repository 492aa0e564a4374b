"""The record format and ``piquet replay``: the spec's example, round trips, partial and invalid records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.cli.main import main
from piquet.core.cards import parse_card
from piquet.core.deal import Deal, Phase
from piquet.core.partie import Partie
from piquet.core.rules import FOUR_DEAL, RUBICON, rules_named
from piquet.records.record import (
    Calls,
    DealRecord,
    HandCalls,
    PartieRecord,
    RecordError,
    load_record,
    parse_record,
    record_of,
    replay,
)
from piquet.records.replay import scores_json

DATA = Path(__file__).parent / "data" / "records"
EXAMPLE = DATA / "britannica-example.json"
EXPECTED = DATA / "britannica-example.expected.json"


def example_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return doc


def write(tmp_path: Path, doc: object, name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


def key_order(value: object) -> object:
    """The keys of every object, in order: "key for key" means the same keys in the same order."""
    if isinstance(value, dict):
        return [(k, key_order(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [key_order(v) for v in value]
    return None


def alternating(n: int) -> list[dict[str, Any]]:
    """The example deal n times, the dealer alternating from B."""
    deal = example_doc()["deals"][0]
    out = []
    for i in range(n):
        d = copy.deepcopy(deal)
        d["dealer"] = "B" if i % 2 == 0 else "A"
        out.append(d)
    return out


# ---------------------------------------------------------------- the spec's example


def test_example_scores_28_23() -> None:
    partie = replay(load_record(EXAMPLE))
    assert partie.scores == {"A": 28, "B": 23}
    deal = partie.deals[0]
    assert deal.is_over
    assert deal.total(0) == 28 and deal.total(1) == 23


def test_example_json_is_the_spec(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(EXAMPLE), "--json")
    assert code == 0 and err == ""
    got = json.loads(out)
    want = json.loads(EXPECTED.read_text())
    assert got == want
    assert key_order(got) == key_order(want)
    assert scores_json(replay(load_record(EXAMPLE))) == want


def test_example_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(EXAMPLE))
    assert code == 0 and err == ""
    for line in ("Deal 1 of 6: Bob (B) deals; Ann (A) is elder hand.",
                 "Ann discards KS 8C 7C 9D 8D and takes in 9S 8S KH 9C KD.",
                 'Ann: "Five cards."', 'Bob: "What do they make?"', 'Ann: "Forty-nine."',
                 'Ann: "Quart major in hearts: nine. AH KH QH JH"', 'Bob: "Four tens: fourteen. 10S 10H 10C 10D"',
                 'Ann: "And the cards, ten: twenty-eight."',
                 "The partie is unfinished: 1 of 6 deals played."):
        assert line in out
    # Ann held the queen of hearts: she does not ask which queen Bob does not reckon (p. 92).
    assert "Which queen" not in out
    card = [ln.split() for ln in out.splitlines()]
    assert ["total", "28", "23"] in card


def test_example_record_data() -> None:
    r = load_record(EXAMPLE)
    assert r.players == {"A": "Ann", "B": "Bob"}
    d = r.deals[0]
    assert d.dealer == "B"
    assert d.stock[:2] == (parse_card("9S"), parse_card("8S"))
    assert d.younger_looks_at_left is False and d.elder_looks_at_left is None
    assert d.calls.younger.sequences == ()
    assert d.calls.elder.sets == ((parse_card("JS"), parse_card("JH"), parse_card("JC")),)
    assert len(d.play) == 24


def test_example_round_trips() -> None:
    r = load_record(EXAMPLE)
    assert parse_record(r.to_json()) == r
    canonical = record_of(replay(r), players=r.players)
    # The example is canonical but for an information-only field the engine never asks for
    # (the younger left no cards to look at).
    assert canonical == DealRecordPatch.without_younger_look(r)
    text = canonical.to_json()
    assert parse_record(text).to_json() == text
    assert record_of(replay(parse_record(text)), players=r.players) == canonical


class DealRecordPatch:
    @staticmethod
    def without_younger_look(r: PartieRecord) -> PartieRecord:
        out = copy.deepcopy(r)
        out.deals[0].younger_looks_at_left = None
        return out


def test_written_layout() -> None:
    text = load_record(EXAMPLE).to_json()
    lines = text.splitlines()
    assert lines[0] == "{" and lines[1] == '  "format": "piquet-record/1",'
    assert '      "stock": ["9S", "8S", "KH", "9C", "KD", "QS", "AC", "7D"],' in lines
    assert '          "sets": [["10S", "10H", "10C", "10D"], ["QS", "QC", "QD"]]' in lines
    assert '          "point": ["AD", "QD", "JD", "10D", "7D"],' in lines
    assert text.endswith("}\n")


def test_cards_read_in_any_case_with_t_and_symbols() -> None:
    doc = example_doc()
    d = doc["deals"][0]
    d["elder"] = [c.lower() for c in d["elder"]]
    d["younger"] = [c.replace("10", "T") for c in d["younger"]]
    d["stock"] = [c[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[-1]] for c in d["stock"]]
    r = parse_record(json.dumps(doc))
    assert r == load_record(EXAMPLE)
    assert replay(r).scores == {"A": 28, "B": 23}
    assert '"10S", "7S", "10H"' in r.to_json()


def test_null_point_and_empty_calls_round_trip() -> None:
    r = PartieRecord(deals=[DealRecord(
        dealer="A", elder=(), younger=(), stock=(),
        calls=Calls(HandCalls(point=()), HandCalls(sequences=(), sets=())))])
    text = r.to_json()
    assert '"point": null' in text
    assert parse_record(text) == r


# ---------------------------------------------------------------- random deals and parties


def play_randomly(deal: Deal, rng: random.Random, steps: int | None = None) -> None:
    n = 0
    while not deal.is_over and (steps is None or n < steps):
        deal.apply(deal.legal_actions().sample(rng))
        n += 1


def check_round_trip(partie: Partie, players: dict[str, str] | None, seed: int | None) -> None:
    rec = record_of(partie, players=players, seed=seed)
    text = rec.to_json()
    back = parse_record(text)
    assert back == rec
    again = replay(back)
    assert scores_json(again) == scores_json(partie)
    assert [d.events for d in again.deals] == [d.events for d in partie.deals]
    assert record_of(again, players=players, seed=seed) == rec
    assert back.to_json() == text


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), deals=st.integers(1, 3), stop=st.one_of(st.none(), st.integers(0, 40)),
       first=st.sampled_from("AB"), by=st.sampled_from((2, 3)), four=st.booleans())
def test_random_parties_round_trip(seed: int, deals: int, stop: int | None, first: str, by: int,
                                   four: bool) -> None:
    rng = random.Random(seed)
    partie = Partie(FOUR_DEAL if four else RUBICON, first_dealer=first, deal_by=by)
    for i in range(deals):
        deal = partie.deal_shuffled(rng)
        play_randomly(deal, rng, stop if i == deals - 1 else None)
    check_round_trip(partie, {"A": "Ann", "B": "Bob"} if seed % 2 else None, seed if seed % 3 else None)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), four=st.booleans())
def test_random_full_partie(seed: int, four: bool) -> None:
    rng = random.Random(seed)
    partie = Partie(FOUR_DEAL if four else RUBICON)
    while not partie.is_finished:
        play_randomly(partie.deal_shuffled(rng), rng)
    check_round_trip(partie, None, seed)
    out = scores_json(replay(record_of(partie)))["partie"]
    s = partie.settlement()
    assert out == {"scores": partie.scores, "finished": True, "winner": s.winner, "rubicon": s.rubicon,
                   "points_won": s.points_won}
    # One deal more than the partie allows is refused (Law 71).
    rec = record_of(partie)
    extra = copy.deepcopy(rec.deals[-2])
    rec.deals.append(extra)
    with pytest.raises(RecordError) as e:
        replay(rec)
    assert e.value.deal == len(rec.deals) and e.value.law == "Law 71"


AU_CENT_SPECS = ("au-cent", "au-cent+small-cards", "au-cent+fours", "au-cent+small-cards+fours")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), deals=st.integers(1, 8), stop=st.one_of(st.none(), st.integers(0, 40)),
       first=st.sampled_from("AB"), spec=st.sampled_from(AU_CENT_SPECS))
def test_random_au_cent_parties_round_trip(seed: int, deals: int, stop: int | None, first: str, spec: str) -> None:
    """Piquet au cent: games stopped at a hundred, the younger keeping his hand, the agreements (p. 16-20)."""
    rng = random.Random(seed)
    partie = Partie(rules_named(spec), first_dealer=first)
    for i in range(deals):
        if partie.is_finished:
            break
        deal = partie.deal_shuffled(rng)
        play_randomly(deal, rng, stop if i == deals - 1 else None)
    check_round_trip(partie, None, seed)
    assert record_of(partie).agreements == rules_named(spec).agreements


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(AU_CENT_SPECS))
def test_random_full_au_cent_partie(seed: int, spec: str) -> None:
    rng = random.Random(seed)
    partie = Partie(rules_named(spec))
    while not partie.is_finished:
        play_randomly(partie.deal_shuffled(rng), rng)
    check_round_trip(partie, None, seed)
    out = scores_json(replay(record_of(partie)))["partie"]
    assert out["finished"] and max(out["tally"].values()) >= 3
    assert out["winner"] == max("AB", key=lambda k: out["tally"][k])
    rec = record_of(partie)
    rec.deals.append(copy.deepcopy(rec.deals[-2]))
    with pytest.raises(RecordError) as e:
        replay(rec)
    assert e.value.deal == len(rec.deals) and e.value.law == "p. 20"


def test_every_prefix_of_a_deal_round_trips() -> None:
    rng = random.Random(7)
    for _ in range(5):
        full = Deal.shuffled(rng)
        play_randomly(full, rng)
        for k in range(len(full.history) + 1):
            partie = Partie()
            deal = partie.add_deal(Deal(full.dealt[0], full.dealt[1], full.stock))
            for action in full.history[:k]:
                deal.apply(action)
            check_round_trip(partie, None, None)


# ---------------------------------------------------------------- partial records


def test_partial_play_is_unfinished(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    doc["deals"][0]["play"] = doc["deals"][0]["play"][:5]
    partie = replay(parse_record(json.dumps(doc)))
    deal = partie.deals[0]
    assert not deal.is_over and deal.phase == Phase.PLAY and deal.trick == 3
    # Hands are reckoned (A 9, B 17), then A led three cards and B won none.
    assert deal.scores[0][:5] == [0, 5, 4, 0, 3] and deal.total(1) == 17
    path = write(tmp_path, doc)
    code, out, err = run(capsys, str(path), "--json")
    assert code == 0 and err == ""
    got = json.loads(out)
    assert list(got["deals"][0]) == ["dealer", "elder", "younger"]
    assert got["deals"][0]["elder"]["total"] == 12
    assert got["partie"] == {"scores": {"A": 12, "B": 17}, "finished": False, "winner": None,
                             "rubicon": False, "points_won": None}
    code, out, err = run(capsys, str(path))
    assert code == 0 and "Deal 1 is unfinished" in out and "(unfinished)" in out


@pytest.mark.parametrize("cut", [
    ("play",), ("play", "calls"), ("play", "calls", "younger_looks_at_left", "younger_discard"),
    ("play", "calls", "younger_looks_at_left", "younger_discard", "elder_discard"),
])
def test_records_stopping_early(cut: tuple[str, ...]) -> None:
    doc = example_doc()
    for k in cut:
        del doc["deals"][0][k]
    partie = replay(parse_record(json.dumps(doc)))
    deal = partie.deals[0]
    assert not deal.is_over
    assert partie.scores == {"A": 0, "B": 0}
    assert not partie.settlement().finished


def test_calls_stop_part_way() -> None:
    doc = example_doc()
    d = doc["deals"][0]
    del d["play"]
    d["calls"] = {"elder": {"point": d["calls"]["elder"]["point"]}}
    deal = replay(parse_record(json.dumps(doc))).deals[0]
    assert deal.phase == Phase.YOUNGER_POINT


def test_missing_younger_declaration_with_play_is_nothing() -> None:
    """Anything held and not listed was sunk: an absent category, when the record goes on, is nothing."""
    doc = example_doc()
    del doc["deals"][0]["calls"]["younger"]["sets"]
    deal = replay(parse_record(json.dumps(doc))).deals[0]
    assert deal.is_over
    assert deal.scores[1][3] == 0 and deal.scores[0][3] == 3  # the elder's three knaves are now good


def test_unfinished_deal_followed_by_another(tmp_path: Path) -> None:
    doc = example_doc()
    doc["deals"] = alternating(2)
    doc["deals"][0]["play"] = doc["deals"][0]["play"][:10]
    with pytest.raises(RecordError) as e:
        replay(parse_record(json.dumps(doc)))
    assert e.value.deal == 2 and "not finished" in str(e.value)


def test_empty_record() -> None:
    r = parse_record('{"deals": []}')
    assert r == PartieRecord()
    assert scores_json(replay(r)) == {"deals": [], "partie": {"scores": {"A": 0, "B": 0}, "finished": False,
                                                             "winner": None, "rubicon": False,
                                                             "points_won": None}}


# ---------------------------------------------------------------- rules


def test_four_deal_rules_and_ties() -> None:
    doc = example_doc()
    doc["rules"] = "four-deal"
    doc["deals"] = alternating(4)
    partie = replay(parse_record(json.dumps(doc)))
    assert partie.rules is rules_named("four-deal")
    # 2 x 28 + 23 + 28 + 2 x 23 each: a tie, so each deals once more (Law 71, note).
    assert partie.scores == {"A": 153, "B": 153}
    out = scores_json(partie)
    assert out["deals"][0]["elder"]["total"] == 28  # each deal's breakdown as scored in it
    assert out["partie"]["finished"] is False
    doc["deals"] = alternating(6)
    out = scores_json(replay(parse_record(json.dumps(doc))))
    assert out["partie"] == {"scores": {"A": 204, "B": 204}, "finished": True, "winner": None,
                             "rubicon": False, "points_won": None}
    doc["deals"] = alternating(7)
    with pytest.raises(RecordError) as e:
        replay(parse_record(json.dumps(doc)))
    assert (e.value.deal, e.value.step, e.value.law) == (7, "dealer", "Law 71")


def test_rubicon_tie_needs_extra_deals() -> None:
    doc = example_doc()
    doc["deals"] = alternating(6)
    partie = replay(parse_record(json.dumps(doc)))
    assert partie.scores == {"A": 153, "B": 153} and not partie.is_finished
    doc["deals"] = alternating(8)
    assert replay(parse_record(json.dumps(doc))).settlement().finished


def test_unknown_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    doc["rules"] = "piquet-au-cent-du-roi"
    with pytest.raises(RecordError) as e:
        replay(parse_record(json.dumps(doc)))
    assert e.value.step == "rules" and "unknown rules" in str(e.value)
    code, out, err = run(capsys, str(write(tmp_path, doc)))
    assert code == 2 and out == "" and "unknown rules" in err


# ---------------------------------------------------------------- invalid records


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = value
    return change


def _deal(path: tuple[Any, ...], value: Any) -> Any:
    return _set(("deals", 0, *path), value)


def _two_deals_same_dealer(doc: dict[str, Any]) -> None:
    doc["deals"] = [doc["deals"][0], copy.deepcopy(doc["deals"][0])]


def _revoke(doc: dict[str, Any]) -> None:
    play = doc["deals"][0]["play"]
    play[1] = "7D"  # B holds the ten of hearts and must follow the ace


INVALID = [
    # (name, change, deal, step, law, words in the message)
    ("unknown card", _deal(("elder", 0), "6S"), 1, "elder's cards", "Law 75", "'6S' is not a card"),
    ("card twice", _deal(("younger", 0), "AS"), 1, "the cards dealt", "Law 75", "AS is named twice"),
    ("eleven cards", _deal(("elder",), example_doc()["deals"][0]["elder"][:11]), 1, "the cards dealt",
     "Law 9", "11 cards"),
    ("discard not held", _deal(("elder_discard", 0), "QS"), 1, "elder's discard", "Law 21",
     "QS is not in the elder hand"),
    ("discard twice", _deal(("elder_discard", 1), "KS"), 1, "elder's discard", "Law 21", "KS is named twice"),
    ("elder discards six", _deal(("elder_discard",), ["KS", "8C", "7C", "9D", "8D", "JS"]), 1,
     "elder's discard", "Law 21", "at most 5"),
    ("younger discards four", _deal(("younger_discard",), ["7S", "9H", "7H", "10S"]), 1,
     "younger's discard", "Laws 22, 34", "at most 3"),
    ("no discard", _deal(("elder_discard",), []), 1, "elder's discard", "Law 21", "at least one"),
    ("missing discard", _deal(("younger_discard",), None), 1, "younger's discard", "Laws 22, 34", "missing"),
    ("revoke", _revoke, 1, "play, trick 1", "Law 59 IV", "7D revokes"),
    ("card not held in play", _deal(("play", 0), "AD"), 1, "play, trick 1", "Laws 57-58", "AD is not in the elder"),
    ("declaration not held", _deal(("calls", "elder", "sets"), [["AS", "AH", "AC"]]), 1,
     "calls: elder's sets", "Law 54", "does not hold AC"),
    ("point in two suits", _deal(("calls", "younger", "point"), ["AD", "AC"]), 1, "calls: younger's point",
     "Law 62", "one suit"),
    ("not a sequence", _deal(("calls", "elder", "sequences"), [["AH", "KH", "JH"]]), 1,
     "calls: elder's sequences", "Law 63", "is not a sequence"),
    ("not a set", _deal(("calls", "younger", "sets"), [["10S", "10H"]]), 1, "calls: younger's sets",
     "Law 64", "not a quatorze or trio"),
    ("dealers do not alternate", _two_deals_same_dealer, 2, "dealer", "Law 16", "deal alternately"),
    ("too many cards played", _deal(("play",), [*example_doc()["deals"][0]["play"], "AS"]), 1,
     "play, trick 13", "Law 65", "the deal is over"),
    ("bad dealer", _deal(("dealer",), "C"), 1, "dealer", None, "seat"),
    ("unknown field", _deal(("elder_discards",), []), 1, "the deal", None, "unknown field"),
    ("cards not a list", _deal(("stock",), "9S 8S"), 1, "the stock", None, "list of cards"),
    ("look not a bool", _deal(("younger_looks_at_left",), "no"), 1, "younger's look at the cards left", None,
     "true or false"),
    ("wrong format", _set(("format",), "piquet-record/9"), None, "record", None, "unknown format"),
]


@pytest.mark.parametrize(("name", "change", "deal", "step", "law", "words"), INVALID, ids=[x[0] for x in INVALID])
def test_invalid_records_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, change: Any,
                                     deal: int | None, step: str, law: str | None, words: str) -> None:
    doc = example_doc()
    change(doc)
    text = json.dumps(doc)
    with pytest.raises(RecordError) as e:
        replay(parse_record(text))
    err = e.value
    assert (err.deal, err.step, err.law) == (deal, step, law), str(err)
    assert words in str(err)
    message = str(err)
    if deal is not None:
        assert message.startswith(f"deal {deal}, {step}: ")
    if law is not None:
        assert message.endswith(f"({law})")
    path = write(tmp_path, text)
    for args in ((str(path),), (str(path), "--json")):
        code, out, stderr = run(capsys, *args)
        assert code == 2
        assert out == ""
        assert message in stderr


def test_bad_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = EXAMPLE.read_text()[:-20]
    with pytest.raises(RecordError) as e:
        parse_record(text)
    assert e.value.deal is None and e.value.step == "JSON" and "not valid JSON" in str(e.value)
    code, out, err = run(capsys, str(write(tmp_path, text)), "--json")
    assert code == 2 and out == "" and "not valid JSON" in err


@pytest.mark.parametrize("text", ["[]", '{"rules": "rubicon"}', '{"deals": {}}', '{"deals": [1]}',
                                  '{"deals": [], "seed": "x"}', '{"deals": [], "players": ["Ann"]}'])
def test_bad_shapes(text: str) -> None:
    with pytest.raises(RecordError):
        parse_record(text)


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.json"
    with pytest.raises(RecordError) as e:
        load_record(missing)
    assert e.value.step == "file"
    code, out, err = run(capsys, str(missing))
    assert code == 2 and out == "" and "cannot read" in err


def test_error_text() -> None:
    e = RecordError("QS is not in the elder hand", deal=2, step="elder's discard", law="Law 21")
    assert str(e) == "deal 2, elder's discard: QS is not in the elder hand (Law 21)"
    assert isinstance(e, ValueError)
    assert str(RecordError("not valid JSON", step="JSON")) == "JSON: not valid JSON"


def test_carte_blanche(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Carte blanche is announced at once, shown after the adversary's discard and scored first (Laws 18-20)."""
    from piquet.core.cards import CardSet

    rng = random.Random(3)
    elder = CardSet.parse("AS 10S 9S 8S AH 10H 9H 7H AC 10C 9C 8C").mask
    rest = [c for c in range(32) if not elder >> c & 1]
    rng.shuffle(rest)
    partie = Partie()
    deal = partie.add_deal(Deal(elder, sum(1 << c for c in rest[:12]), rest[12:]))
    play_randomly(deal, rng)
    check_round_trip(partie, None, None)
    path = write(tmp_path, record_of(partie).to_json())
    code, out, _ = run(capsys, str(path), "--json")
    assert code == 0 and json.loads(out)["deals"][0]["elder"]["carte_blanche"] == 10
    code, out, _ = run(capsys, str(path))
    assert 'A: "I have a carte blanche."' in out and "A shows the carte blanche" in out
