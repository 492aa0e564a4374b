"""``piquet analyse``: every card played, valued double dummy, in the documented JSON form (the review's play;
the exchange and the calls: tests/test_review.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from piquet.cli.main import main
from piquet.core.actions import Play
from piquet.core.cards import card_name
from piquet.core.deal import Deal
from piquet.core.events import ROLES, S_PIQUE
from piquet.players.base import SimplePlayer
from piquet.players.runner import PartieRunner
from piquet.players.solver import Position, minimax
from piquet.records.record import load_record, record_of, replay
from piquet.study.analyse import analyse_partie

RECORD = Path(__file__).parent / "data" / "records" / "britannica-example.json"


@pytest.fixture(scope="module")
def partie_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    partie = PartieRunner({"A": SimplePlayer(), "B": SimplePlayer()}, seed=21).run()
    path = tmp_path_factory.mktemp("analyse") / "partie.json"
    path.write_text(record_of(partie, seed=21).to_json())
    return path


#: A quick review: two worlds for each discard, one discard for each number of cards.
QUICK = ["--worlds", "2", "--discards", "1"]


def test_json_has_one_entry_per_card_in_order(partie_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(partie_record), "--json", *QUICK]) == 0
    entries = [e for e in json.loads(capsys.readouterr().out)["decisions"] if e["kind"] == "play"]
    partie = replay(load_record(partie_record))
    plays = [(i, a.card) for i, d in enumerate(partie.deals) for a in d.history if isinstance(a, Play)]
    assert len(entries) == len(plays) == 24 * len(partie.deals)
    for e, (deal, card) in zip(entries, plays, strict=True):
        assert set(e) == {"deal", "kind", "seat", "role", "action", "trick", "chosen", "loss", "mistake", "options",
                          "note"}
        assert e["deal"] == deal + 1 and e["chosen"] == card_name(card)
        assert e["role"] in ROLES and 1 <= e["trick"] <= 12
        values = {o["choice"]: o["value"] for o in e["options"]}
        assert e["chosen"] in values and e["loss"] == max(values.values()) - values[e["chosen"]]
        assert all(isinstance(v, int) for v in values.values())
    # Each trick appears twice in a row, led then answered; deals counted from 1, as the text counts them.
    assert [e["trick"] for e in entries[:4]] == [1, 1, 2, 2]
    assert entries[0]["deal"] == 1 and entries[0]["role"] == "elder" and entries[0]["note"] == "leads"


def _points(deal: Deal, role: int) -> int:
    """Points scored so far, less any pique (the analysis does not count one)."""
    return deal.total(role) - deal.scores[role][S_PIQUE]


def test_values_are_the_exact_minimax_values_late_in_the_deal(partie_record: Path) -> None:
    """Each card's value = what it scores at once + the plain minimax value of what follows."""
    partie = replay(load_record(partie_record))
    checked = 0
    analyses = list(analyse_partie(partie))
    # The simple player gives points away now and then (11 of 144 cards in this partie), not at every card.
    assert 0 < sum(a.cost > 0 for a in analyses) < len(analyses) // 2
    for a in analyses:
        assert a.played in a.values and a.cost == max(a.values.values()) - a.values[a.played]
        if a.trick < 9:
            continue
        d = partie.deals[a.deal]
        before = Deal(d.dealt[0], d.dealt[1], d.stock)
        for action in d.history:
            if isinstance(action, Play) and before.trick == a.trick and before.to_move == a.role:
                break
            before.apply(action)
        me, other = a.role, 1 - a.role
        for c, v in a.values.items():
            after = Deal(d.dealt[0], d.dealt[1], d.stock)
            for action in before.history:
                after.apply(action)
            after.apply(Play(c))
            now = (_points(after, me) - _points(before, me)) - (_points(after, other) - _points(before, other))
            if after.is_over:
                assert v == now
            else:
                child = Position.of_deal(after)
                assert v == now + (1 if child.to_play == me else -1) * minimax(child)
            checked += 1
    assert checked > 20


def test_text_report(partie_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(partie_record), *QUICK]) == 0
    out = capsys.readouterr().out
    assert "Deal 1:" in out and "trick  1" in out and "leads" in out and "plays" in out
    assert out.startswith("Legend\n") and "Costliest decisions" in out and "Points given away" in out


def test_the_britannica_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(RECORD), "--json", *QUICK]) == 0
    entries = [e for e in json.loads(capsys.readouterr().out)["decisions"] if e["kind"] == "play"]
    assert entries
    first = entries[0]
    values = {o["choice"]: o["value"] for o in first["options"]}
    # The elder's first lead, the record's ace of hearts: every card of his hand after the exchange may be led.
    assert first["chosen"] == "AH" and (first["deal"], first["trick"], first["role"]) == (1, 1, "elder")
    assert set(values) == {"AS", "JS", "AH", "QH", "JH", "8H", "JC", "9S", "8S", "KH", "9C", "KD"}
    assert values["AH"] == max(values.values()) and first["loss"] == 0


def test_a_bad_record_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    assert main(["analyse", str(bad)]) == 2
    assert "piquet analyse" in capsys.readouterr().err
