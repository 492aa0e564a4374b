"""Safety at the terminal table (issue 16, items 5 and 6): cards named once, the exchange and a smaller call
confirmed, every partie saved in the data directory and resumed without naming it, unknown words and long
lines answered briefly, a change of level recorded from its deal on; and the words of ``tricks``, ``score``,
``piquet --version`` and the replay's columns."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from piquet.cli import saves
from piquet.cli.main import main
from piquet.cli.terminal import run_play
from piquet.core.cards import parse_card
from piquet.records.record import RecordError, load_record, parse_record, replay
from test_terminal import CARD, ENDING, Person, args, play

EXAMPLE = Path(__file__).parent / "data" / "records" / "britannica-example.json"
AU_CENT = Path(__file__).parent / "data" / "records" / "au-cent-game.json"


class Scripted(Person):
    """The scripted person, who first types ``before[kind]`` (a function of the text so far giving answers) the
    first time a prompt of that kind comes: ``discard``, ``call`` (the point), ``lead``, ``confirm``; those
    answers are not counted as prompts (``quit_after`` counts the same prompts as a clean run's)."""

    def __init__(self, out: io.StringIO, before: dict[str, Any], **person: Any) -> None:
        super().__init__(out, **person)
        self.before = dict(before)

    def __call__(self, prompt: str = "") -> str:
        text = self.out.getvalue()
        last = text.rstrip().splitlines()[-1] if text.strip() else ""
        if not self.queue:
            kind = ("confirm" if last.endswith("(y/n) ›") else "discard" if last.startswith("Discard (") else
                    "call" if last.startswith("Call?") and "Your point:" in text.splitlines()[-2] else
                    "lead" if last.startswith("Lead ›") else None)
            if kind in self.before:
                answers = self.before.pop(kind)(text)
                self.pos = len(text)
                self.queue = list(answers[1:])
                return self.say(answers[0])
        return super().__call__(prompt)


def scripted(monkeypatch: pytest.MonkeyPatch, before: dict[str, Any], *argv: str,
             **person: Any) -> tuple[int, str, Scripted]:
    out = io.StringIO()
    typist = Scripted(out, before, **person)
    monkeypatch.setattr("builtins.input", typist)
    code = run_play(args(*argv), console=Console(file=out, width=200))
    return code, out.getvalue(), typist


def point_cards(text: str) -> list[str]:
    """The cards of the point the table last told the person he holds."""
    line = [ln for ln in text.splitlines() if ln.startswith("Your point:")][-1]
    return CARD.findall(line)


def hand_cards(text: str) -> list[str]:
    return CARD.findall([ln for ln in text.splitlines() if ln.startswith("Your hand:")][-1])


# ---------------------------------------------------------------- a card named twice


def test_a_card_named_twice_is_refused_at_every_prompt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``QC QC`` is not a one-card discard, nor ``AS AS JS 10S 8S`` a four-card point: refused, asked again,
    and the partie goes on as if the slip had not been made."""
    clean, slips = tmp_path / "clean.json", tmp_path / "slips.json"
    play(monkeypatch, "--seed", "11", "--record", str(clean), quit_after=20)

    def twice(text: str, cards: list[str]) -> list[str]:
        return [f"{cards[0]} {cards[0]}", f"{cards[0]} {' '.join(cards)}"]

    code, out, _ = scripted(monkeypatch, {"discard": lambda t: twice(t, hand_cards(t)),
                                          "call": lambda t: twice(t, point_cards(t)),
                                          "lead": lambda t: twice(t, hand_cards(t))[:1]},
                            "--seed", "11", "--record", str(slips), quit_after=20)
    assert code == 0
    # Twice at the discard, twice at the point (QC QC, then AS AS JS 10S 8S), once at the lead.
    assert out.count("is named twice: name each card once") == 4
    assert out.count("is named twice: name one card") == 1
    assert "Not allowed" not in out
    assert slips.read_text() == clean.read_text()


# ---------------------------------------------------------------- confirmations


def test_the_exchange_is_confirmed_before_it_is_made(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Law 24: the stock once touched, the exchange stands; so the discard is asked back first, and ``n``
    asks for the discard again."""
    clean, changed = tmp_path / "clean.json", tmp_path / "changed.json"
    play(monkeypatch, "--seed", "11", "--record", str(clean), quit_after=10)
    # One prompt more (the discard asked again, and the person's "hint" there): the same partie as far.
    code, out, _ = scripted(monkeypatch, {"confirm": lambda t: ["maybe", "n"]}, "--seed", "11",
                            "--record", str(changed), quit_after=11)
    assert code == 0
    asked = re.findall(r"Discard ((?:\S+ )+)and take in (\w+)\? \(y/n\) › (\S*)", out)
    assert [a[2] for a in asked[:3]] == ["maybe", "n", "y"]
    assert len(asked[0][0].split()) == {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}[asked[0][1]]
    assert "Answer y or n." in out
    first = out.index("(y/n) › n")
    assert "Discard (1 to" in out[first:].splitlines()[1]  # asked again, the hand kept
    assert changed.read_text() == clean.read_text()


def test_a_discard_not_allowed_is_refused_without_being_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, "--seed", "11", foreign=True, quit_after=3)
    refusal = out.index("Not allowed:")
    assert "(y/n)" not in out[:refusal]


@pytest.mark.parametrize("answer", ["n", "y"])
def test_a_call_of_less_than_is_held_asks_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                               answer: str) -> None:
    """Seed 11: the person, elder, holds a point of five in diamonds; he names two of them."""
    path = tmp_path / "game.json"
    code, out, _ = scripted(monkeypatch, {"call": lambda t: [" ".join(point_cards(t)[:2]), answer]},
                            "--seed", "11", "--record", str(path), quit_after=12)
    assert code == 0
    assert out.count("Call only two? Your point is five. (y/n)") == 1
    calls = load_record(path).deals[0].calls.elder
    assert calls.point is not None and len(calls.point) == (5 if answer == "n" else 2)
    if answer == "y":
        assert "You: “Two cards.”" in out
    else:
        assert "You: “Five cards.”" in out


def test_sequences_and_sets_named_short_ask_too() -> None:
    """The question names what is declared and what is held, in the game's words."""
    from piquet.cli.terminal import _less_words
    from piquet.core.actions import DeclareSequences, DeclareSets
    from piquet.core.cards import mask_of, parse_cards
    from piquet.core.deal import Phase
    from piquet.core.observation import Observation

    def m(text: str) -> int:
        return mask_of(parse_cards(text))

    hand = m("AH KH QH JH AS AC AD KS 8S 9C 7C 8D")

    def obs(phase: Phase) -> Observation:
        return Observation(role=0, phase=phase, to_move=0, dealt=hand, hand=hand, discard=0, taken=0, seen_left=0,
                           stock_left=0, max_discard=0, lead=-1, trick=0, tricks_won=(0, 0),
                           scores=((0,) * 8, (0,) * 8), events=())

    quart = DeclareSequences((m("AH KH QH JH"),))
    assert _less_words("Call", 1, DeclareSequences((m("AH KH QH"),)), quart, obs(Phase.ELDER_SEQUENCES)) == (
        "Call only tierce major in hearts? You hold quart major in hearts.")
    assert _less_words("Call", 1, quart, quart, obs(Phase.ELDER_SEQUENCES)) is None
    aces = DeclareSets((m("AS AH AC AD"),))
    assert _less_words("Call", 2, DeclareSets((m("AS AC AD"),)), aces, obs(Phase.ELDER_SETS)) == (
        "Call only three aces? You hold four aces.")
    # Cards that cannot be declared are not asked about: the engine refuses them.
    assert _less_words("Call", 1, DeclareSequences((m("AH KH"),)), quart, obs(Phase.ELDER_SEQUENCES)) is None


def test_at_au_cent_an_empty_line_asks_before_keeping_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 3: the person is younger at Piquet au cent, who may keep his hand (p. 17); an empty line asks
    first, ``n`` asks for the discard again, ``none`` keeps it without a question."""
    out = io.StringIO()
    answers = iter(["", "n", "none"])

    def person(prompt: str = "") -> str:
        last = out.getvalue().rstrip().splitlines()[-1]
        if "Discard (none, or 1 to" in last or "(y/n)" in last:
            return next(answers)
        return "quit"

    monkeypatch.setattr("builtins.input", person)
    assert run_play(args("--rules", "au-cent", "--seed", "3"), Console(file=out, width=100)) == 0
    text = out.getvalue()
    assert text.count("Keep your hand, discarding nothing and taking nothing in? (y/n) ›") == 1
    assert text.count("Discard (none, or 1 to 4) ›") == 2
    assert "You keep all your cards, discarding none (p. 17); four left in the stock." in text


# ---------------------------------------------------------------- unknown words and long lines


def test_an_unknown_word_and_a_long_line(monkeypatch: pytest.MonkeyPatch) -> None:
    long = "x" * 200
    code, out, _ = play(monkeypatch, "--seed", "11", extra={1: ["hello", long, "11S", "AS KS AS"]},
                        quit_after=2)
    assert code == 0
    assert "unknown command 'hello': type help" in out
    assert "is not a card" not in out.split("11S")[0]
    assert "'11S' is not a card" in out  # a card mistyped is still called one
    assert long not in out and "x" * 39 + "…" in out
    assert max(len(ln) for ln in out.splitlines() if "xxx" in ln) < 80


def test_one_card_is_named_to_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from piquet.cli.answers import AnswerError, read_card

    with pytest.raises(AnswerError, match="two cards named: name one card"):
        read_card("AS KS")
    with pytest.raises(AnswerError, match="AS is named twice: name one card"):
        read_card("as AS")
    assert read_card(" 10h ") == parse_card("10H")


# ---------------------------------------------------------------- saved as it goes


def test_every_partie_is_saved_in_the_data_directory_and_resumed(monkeypatch: pytest.MonkeyPatch, data_dir: Path,
                                                                tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    play(monkeypatch, "--seed", "23", "--record", str(whole))
    code, out, _ = play(monkeypatch, "--seed", "23", quit_after=30)
    assert code == 0
    (saved,) = (data_dir / "parties").iterdir()
    flat = " ".join(out.split())
    assert f"The partie is saved as it goes, in {saved}." in flat
    assert f"Saved to {saved}. Carry on with: piquet play --resume" in flat
    assert saves.last_unfinished() == saved
    assert (data_dir / "last").read_text().strip() == str(saved)
    code, out, typist = play(monkeypatch, "--resume")
    assert code == 0 and f"Resuming the partie saved in {saved}" in " ".join(out.split())
    assert ENDING.search(out)
    assert saved.read_text() == whole.read_text()
    # Finished: nothing is left to resume.
    assert saves.last_unfinished() is None
    code, out, _ = play(monkeypatch, "--resume")
    assert code == 2 and "no unfinished partie to resume" in out


@pytest.mark.parametrize("how", ["eof", "quit", "ctrl-c"])
def test_every_way_out_says_where_the_partie_is_saved(monkeypatch: pytest.MonkeyPatch, data_dir: Path,
                                                      how: str) -> None:
    out = io.StringIO()
    person = Person(out, quit_after=5, quit_word="quit" if how == "quit" else None)

    def typist(prompt: str = "") -> str:
        if how == "ctrl-c" and person.prompts >= 5:
            raise KeyboardInterrupt
        return person(prompt)

    monkeypatch.setattr("builtins.input", typist)
    code = run_play(args("--seed", "11"), console=Console(file=out, width=300))
    (saved,) = (data_dir / "parties").iterdir()
    assert code == 0
    assert f"Saved to {saved}. Carry on with: piquet play --resume\n" in out.getvalue()
    assert load_record(saved).deals


def test_the_computer_interrupted_while_thinking_is_saved_too(monkeypatch: pytest.MonkeyPatch,
                                                              data_dir: Path) -> None:
    from piquet.players.base import SimplePlayer

    calls = [0]
    choose = SimplePlayer.choose

    def interrupted(self: SimplePlayer, obs: Any) -> Any:
        calls[0] += 1
        if calls[0] > 4:
            raise KeyboardInterrupt
        return choose(self, obs)

    monkeypatch.setattr(SimplePlayer, "choose", interrupted)
    code, out, _ = play(monkeypatch, "--seed", "11")
    (saved,) = (data_dir / "parties").iterdir()
    assert code == 130 and f"Saved to {saved}." in " ".join(out.split())


def test_resume_prefers_the_last_partie_played_and_skips_finished_ones(monkeypatch: pytest.MonkeyPatch,
                                                                       data_dir: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    play(monkeypatch, "--seed", "11", quit_after=8)  # in the data directory
    play(monkeypatch, "--seed", "5", "--record", str(mine), quit_after=8)  # elsewhere, played last
    assert saves.last_unfinished() == mine.resolve()
    mine.unlink()
    (found,) = (data_dir / "parties").iterdir()
    assert saves.last_unfinished() == found


# ---------------------------------------------------------------- another level on resuming


def test_resuming_with_another_level_is_announced_and_recorded_from_that_deal(monkeypatch: pytest.MonkeyPatch,
                                                                             tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]
                                                                             ) -> None:
    path = tmp_path / "game.json"
    play(monkeypatch, "--seed", "11", "--record", str(path), quit_after=40)
    before = load_record(path)
    here = len(before.deals)  # the deal in progress when it was left, from 1
    assert not replay(before).deals[-1].is_over
    code, out, _ = play(monkeypatch, "--resume", str(path), "--level", "random", quit_after=30)
    flat = " ".join(out.split())
    assert code == 0 and "against the computer (random)" in flat
    assert (f"The computer now plays at random, not simple: the record keeps simple for what was played, and "
            f"notes random from deal {here} on.") in flat
    after = load_record(path)
    assert after.players == {"A": "You", "B": "Computer (simple)"}  # the earlier deals are not written over
    assert [d.players for d in after.deals] == [None] * (here - 1) + [{"B": "Computer (random)"}] + \
        [None] * (len(after.deals) - here)
    if here > 1:
        assert after.players_at(here - 2) == {"A": "You", "B": "Computer (simple)"}
    assert after.players_at(here - 1) == {"A": "You", "B": "Computer (random)"}
    assert parse_record(after.to_json()) == after
    # Resumed again without --level: the level in force goes on, with nothing to announce.
    code, out, _ = play(monkeypatch, "--resume", str(path), quit_after=5)
    assert "against the computer (random)" in " ".join(out.split()) and "now plays at" not in out
    assert [d.players for d in load_record(path).deals][here - 1] == {"B": "Computer (random)"}
    # The replay tells the change where it was made.
    assert main(["replay", str(path)]) == 0
    told = capsys.readouterr().out
    assert told.count("From this deal on, B is Computer (random).") == 1
    assert told.index(f"Deal {here} of 6") < told.index("From this deal on")


def test_a_deal_names_players_as_the_document_does() -> None:
    doc = json.loads(EXAMPLE.read_text())
    doc["deals"][0]["players"] = {"C": "Nobody"}
    with pytest.raises(RecordError, match="deal 1, players: players are the names of seats A and B"):
        parse_record(json.dumps(doc))
    doc["deals"][0]["players"] = {"B": "Robert"}
    record = parse_record(json.dumps(doc))
    assert record.players_at(0) == {"A": "Ann", "B": "Robert"} and record.players == {"A": "Ann", "B": "Bob"}
    assert '"players": {"B": "Robert"}' in record.to_json()
    assert replay(record).scores == {"A": 28, "B": 23}


# ---------------------------------------------------------------- tricks, score, version


def test_tricks_say_who_won_each_and_score_shows_the_partie(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    person = Person(out)
    asked: list[int] = []

    def typist(prompt: str = "") -> str:
        text = out.getvalue()
        last = text.rstrip().splitlines()[-1]
        if "Deal 2 of 6" in text and last.startswith(("Lead ›", "Play to")) and re.search(
                r"Trick [3-9]", text[text.index("Deal 2 of 6"):]) and not asked:
            asked.append(len(text))
            return "tricks"
        if len(asked) == 1:
            asked.append(len(text))
            return "score"
        return person(prompt)

    monkeypatch.setattr("builtins.input", typist)
    assert run_play(args("--seed", "11", "--name", "Ann"), console=Console(file=out, width=120)) == 0
    text = out.getvalue()
    tricks = text[asked[0]:asked[1]]
    assert re.search(r"Trick\s+Ann\s+Computer\s+Won by", tricks)
    rows = re.findall(r"^\s+(\d+)\s+(\S+)(?: \(led\))?\s+(\S+)(?: \(led\))?\s+(Ann|Computer)\s*$", tricks, re.M)
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1)) and len(rows) >= 2
    assert tricks.count("(led)") >= len(rows)
    assert re.search(r"Tricks won: Ann \d+ · Computer \d+", tricks)
    score = text[asked[1]:]
    score = score[:score.index("The partie before this deal")]
    assert re.search(r"Deal\s+Dealer\s+Ann\s+Computer", score)
    assert re.search(r"^\s+1\s+(Ann|Computer)\s+\d+\s+\d+\s*$", score, re.M)
    assert re.search(r"Total\s+\d+\s+\d+", score)


def test_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    from piquet import __version__

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out == f"piquet {__version__}\n"


# ---------------------------------------------------------------- the replay's columns


def test_trick_lines_never_run_into_the_score_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(EXAMPLE.read_text())
    doc["players"] = {"A": "Annabella Wilhelmina Fotheringay", "B": "Bartholomew Ponsonby-Smythe"}
    path = tmp_path / "long.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    scored = [ln for ln in out.splitlines() if re.search(r"Annabella Wilhelmina Fotheringay \d+, Bartholomew", ln)
              and "trick" in ln]
    assert len(scored) == 12
    columns = {ln.index("Annabella Wilhelmina Fotheringay ", ln.index("trick")) for ln in scored}
    assert len(columns) == 1  # one column
    (column,) = columns
    assert all(ln[:column].endswith("   ") for ln in scored)  # never run together


def test_the_score_card_keeps_its_columns_from_deal_to_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """The Au cent example: Ann is elder in deal 1, Bob in deal 2; the card reads Ann, Bob both times."""
    assert main(["replay", str(AU_CENT)]) == 0
    out = capsys.readouterr().out
    headers = [ln.split() for ln in out.splitlines() if re.fullmatch(r"\s+Ann\s+Bob", ln)]
    assert headers == [["Ann", "Bob"], ["Ann", "Bob"]]
    totals = [ln.split() for ln in out.splitlines() if ln.strip().startswith("total ")]
    assert totals[:2] == [["total", "70", "4"], ["total", "30", "1"]]
    running = re.findall(r"(Ann \d+, Bob \d+|Bob \d+, Ann \d+)$", out, re.M)
    assert running and all(r.startswith("Ann") for r in running)
    assert re.search(r"^\s+2\s+1\s+Ann\s+30\s+1", out, re.M)  # the dealer by name
