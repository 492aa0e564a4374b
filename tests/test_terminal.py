"""The terminal table, driven by a scripted person who reads what the table prints."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from piquet.cli import terminal
from piquet.cli.main import build_parser
from piquet.cli.terminal import TerminalTable, run_play
from piquet.core.cards import FULL_PACK, card_name, card_words, cards_of
from piquet.core.observation import Observation
from piquet.core.partie import Partie
from piquet.players.base import Player
from piquet.records.record import load_record

CARD = re.compile(r"(?<![\w])(?:10|[AKQJ987])[SHCD](?![\w])")
#: How a finished partie ends (Laws 71-73).
ENDING = re.compile(r"(You win|Computer wins) the partie[^.]*= \d+\s+points\s+\(Law\s+7[23]\)"
                    r"|The partie is drawn")


class Person:
    """Answers the table's prompts as a sensible player would, by asking for a ``hint`` when in doubt.

    ``extra`` gives answers to type first at the n-th prompt (counted from 1), before the normal one;
    ``quit_after`` ends the input (EOF) after that many prompts; ``revoke`` tries once to play a card
    of another suit when following, and ``foreign`` once to discard a card not held.
    """

    def __init__(self, out: io.StringIO, quit_after: int | None = None, extra: dict[int, list[str]] | None = None,
                 revoke: bool = False, foreign: bool = False, quit_word: str | None = None) -> None:
        self.out = out
        self.pos = 0
        self.quit_after = quit_after
        self.quit_word = quit_word
        self.extra = extra or {}
        self.revoke = revoke
        self.foreign = foreign
        self.queue: list[str] = []
        self.prompts = 0
        self.answers: list[str] = []

    def hand(self) -> list[str]:
        line = [ln for ln in self.out.getvalue().splitlines() if ln.startswith("Your hand:")][-1]
        return CARD.findall(line)

    def __call__(self, prompt: str = "") -> str:
        text = self.out.getvalue()
        new, self.pos = text[self.pos:], len(text)
        last = new.rstrip().splitlines()[-1] if new.strip() else ""
        if self.queue:
            return self.say(self.queue.pop(0))
        if last.endswith("(y/n) ›"):  # confirming the exchange or a call of less than is held
            return self.say("y")
        playing = any(w in last for w in ("Discard", "Lead", "Play to"))
        hint = re.search(r"Hint: \w+ (.*)", new)
        if hint and playing:
            return self.say(" ".join(CARD.findall(hint.group(1))))
        self.prompts += 1
        if self.quit_after is not None and self.prompts > self.quit_after:
            if self.quit_word:
                return self.say(self.quit_word)
            raise EOFError
        if self.prompts in self.extra:
            self.queue = list(self.extra[self.prompts])
            return self.say(self.queue.pop(0))
        if self.foreign and "Discard" in last:
            self.foreign = False
            stranger = next(card_name(c) for c in range(32) if card_name(c) not in self.hand())
            self.queue = ["hint"]
            return self.say(stranger)
        if self.revoke and "Play to" in last and "any card" not in last:
            options = CARD.findall(last.split("[", 1)[1])
            others = [c for c in self.hand() if c not in options]
            if others:
                self.revoke = False
                self.queue = ["hint"]
                return self.say(others[0])
        if playing:
            return self.say("hint")
        if "Look at" in last:
            return self.say("y")
        return self.say("")

    def say(self, answer: str) -> str:
        self.answers.append(answer)
        return answer


def args(*argv: str) -> argparse.Namespace:
    """``piquet play`` options; the quick ``simple`` opponent unless a level is given (or resumed)."""
    quick = [] if "--level" in argv or "--resume" in argv else ["--level", "simple"]
    return build_parser().parse_args(["play", *quick, *argv])


def play(monkeypatch: pytest.MonkeyPatch, *argv: str, **person: Any) -> tuple[int, str, Person]:
    """Run ``piquet play`` with the scripted person at the keyboard: the exit code and the output."""
    out = io.StringIO()
    console = Console(file=out, width=200)
    typist = Person(out, **person)
    monkeypatch.setattr("builtins.input", typist)
    code = run_play(args(*argv), console=console)
    return code, out.getvalue(), typist


# ---------------------------------------------------------------- a whole partie


def test_a_whole_partie_against_the_simple_player(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, "--seed", "11")
    assert code == 0
    for shown in ("The cut for deal (Law 4)", "Deal 1 of 6", "Your hand:", "Discard (1 to", "You: “",
                  "Computer: “", "Trick 12", "Carte blanche" if "Carte blanche" in out else "Point",
                  "Quatorzes and trios", "The cards", "Total", "The partie"):
        assert shown in out
    assert ENDING.search(out)
    assert "Traceback" not in out and "Not allowed" not in out
    # What the hand holds, before a call, in the narrator's words (``item_words``) and the cards.
    assert re.search(r"Your point: point of \w+, making [\w-]+ in (spades|hearts|clubs|diamonds) \((\w+ ?)+\)\.",
                     out), out
    assert "Deal 1 of 6: " in out and ("is elder hand." in out or "you are elder hand." in out)


def test_the_table_talk_is_told_in_the_game_words(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, "--seed", "11")
    assert "  You: “Five cards.”" in out
    assert "  You discard five and take in five." in out  # the narration, in the second person
    assert "You leads" not in out and "You discards" not in out
    assert re.search(r"You lead the \w+ of \w+\.", out)
    assert re.search(r"Computer plays the \w+ of \w+\.  — (You win|Computer wins) the (last )?trick", out)


def test_a_partie_through_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    """The default console and plain ``input()``: the game is played, the record written."""
    path = tmp_path / "game.json"
    console_out = io.StringIO()

    class Tee(io.StringIO):
        def getvalue(self) -> str:
            console_out.write(capsys.readouterr().out)
            return console_out.getvalue()

    monkeypatch.setattr("builtins.input", Person(Tee()))
    assert run_play(args("--seed", "5", "--record", str(path), "--rules", "four-deal")) == 0
    out = console_out.getvalue() + capsys.readouterr().out
    assert "Deal 1 of 4, counting double: " in out
    assert "In the partie (×2)" in out
    assert ENDING.search(out)
    record = load_record(path)
    assert record.rules == "four-deal" and record.seed == 5 and len(record.deals) >= 4
    assert record.players == {"A": "You", "B": "Computer (simple)"}


# ---------------------------------------------------------------- bad input


@pytest.mark.slow
def test_bad_input_is_answered_and_asked_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean, bad = tmp_path / "clean.json", tmp_path / "bad.json"
    play(monkeypatch, "--seed", "11", "--record", str(clean))
    extra = {1: ["XX", "", "AS KS QS JS 10S 9S"], 3: ["help", "score", "hand", "tricks", "11S"]}
    code, out, _ = play(monkeypatch, "--seed", "11", "--record", str(bad), extra=extra, revoke=True, foreign=True)
    assert code == 0
    assert "unknown command 'XX': type help" in out
    assert "Name the cards you put out" in out
    assert "Not allowed:" in out and "(Law 21)" in out  # six cards, or cards not held
    assert "revokes" in out and "must follow suit (Law 59" in out
    assert "what to do here, and why" in out  # help
    assert "This deal, as called: You" in out  # score
    # Nothing was lost or changed by the bad answers: the same partie was played.
    assert bad.read_text() == clean.read_text()


def test_a_card_not_held_is_refused_with_the_engine_message(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, typist = play(monkeypatch, "--seed", "11", foreign=True, quit_after=3)
    assert re.search(r"Not allowed: \S+ (is )?not in the elder hand \(Law 21\)", out)
    # Asked again at once: the prompt follows the refusal, without the hand shown again.
    refusal = out.index("Not allowed:")
    assert out[refusal:].splitlines()[1].startswith("Discard (1 to 5) ›")


# ---------------------------------------------------------------- quitting and resuming


@pytest.mark.parametrize(("how", "seed", "by"), [("eof", 23, 2), ("quit", 23, 2), ("eof", 669, 3)])
@pytest.mark.slow
def test_quit_halfway_and_resume_the_same_partie(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str,
                                                 seed: int, by: int) -> None:
    whole, halves = tmp_path / "whole.json", tmp_path / "halves.json"
    # With seed 669 the person wins the cut, deals first (prompt 1) and deals by threes (prompt 2).
    extra = {2: ["3"]} if by == 3 else {}
    play(monkeypatch, "--seed", str(seed), "--record", str(whole), extra=extra)
    code, out, _ = play(monkeypatch, "--seed", str(seed), "--record", str(halves), quit_after=60, extra=extra,
                        quit_word="quit" if how == "quit" else None)
    assert code == 0
    assert f"Saved to {halves}" in out and "--resume" in out
    assert not ENDING.search(out)
    saved = load_record(halves)
    assert saved.seed == seed and 1 <= len(saved.deals) < 6
    assert (saved.deal_by or 2) == by
    assert [f for f in os.listdir(tmp_path) if f.endswith(".tmp")] == []  # saved atomically
    code, out, _ = play(monkeypatch, "--resume", str(halves))
    assert code == 0
    assert "Resuming the partie" in out and "The deal so far:" in out
    assert ENDING.search(out)
    assert halves.read_text() == whole.read_text()


def test_quit_before_any_deal_saves_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, data_dir: Path) -> None:
    path = tmp_path / "game.json"
    for seed in range(40):  # a seed where the person wins the cut and is asked whether to deal
        out = io.StringIO()
        monkeypatch.setattr("builtins.input", Person(out, quit_after=0))
        assert run_play(args("--seed", str(seed), "--record", str(path)), console=Console(file=out)) == 0
        if "Deal first?" in out.getvalue():
            break
    else:
        pytest.fail("the person never won the cut")
    assert "The partie is left unfinished: nothing was played, nothing is saved." in out.getvalue()
    assert not path.exists() and list(data_dir.iterdir()) == []


def test_bad_options_and_bad_records(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out, _ = play(monkeypatch, "--level", "grandmaster")
    assert code == 2 and "unknown level 'grandmaster'" in out
    code, out, _ = play(monkeypatch, "--rules", "pinochle")
    assert code == 2 and "unknown rules" in out
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"deals": [{"dealer": "C"}]}))
    code, out, _ = play(monkeypatch, "--resume", str(broken))
    assert code == 2 and "broken.json" in out
    code, out, _ = play(monkeypatch, "--resume", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in " ".join(out.split())  # however the console wraps a long path
    code, out, _ = play(monkeypatch, "--record", str(tmp_path / "nowhere" / "game.json"))
    assert code == 2 and "no such folder" in out


@pytest.mark.slow
def test_a_record_that_cannot_be_saved_does_not_stop_the_game(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    def full(path: str, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(terminal, "save_atomically", full)
    code, out, _ = play(monkeypatch, "--seed", "2", "--record", str(tmp_path / "game.json"))
    assert code == 0 and ENDING.search(out)
    assert out.count("The record cannot be saved") == 1


@pytest.mark.slow
def test_resuming_a_finished_partie_shows_its_end(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    play(monkeypatch, "--seed", "3", "--record", str(path), "--level", "random")
    code, out, typist = play(monkeypatch, "--resume", str(path))
    assert code == 0 and typist.answers == []
    assert "(random)" in out  # the level saved in the record
    assert ENDING.search(out)


def test_suits_as_symbols(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, "--seed", "11", "--symbols", quit_after=2)
    hand = next(ln for ln in out.splitlines() if ln.startswith("Your hand:"))
    assert "♠" in hand or "♣" in hand
    assert not CARD.search(hand)


# ---------------------------------------------------------------- what the person may see


def hidden_named(text: str, obs: Observation) -> list[str]:
    """The cards named in ``text`` that the person is not entitled to see."""
    # "Which king do you not reckon?" is answered by naming a card not counted (p. 92): allowed.
    text = re.sub(r"“The \w+ of \w+\.”", "", text)
    hidden = FULL_PACK & ~obs.visible_cards()
    return [card_name(c) for c in cards_of(hidden)
            if re.search(rf"(?<![\w]){card_name(c)}(?![\w])", text) or card_words(c) in text]


@pytest.mark.parametrize("seed", [11, 23, 31])
def test_the_computer_cards_are_never_shown_before_the_laws_allow(monkeypatch: pytest.MonkeyPatch,
                                                                  seed: int) -> None:
    out = io.StringIO()
    start = [0]
    checks = [0]

    def check(obs: Observation) -> None:
        leaked = hidden_named(out.getvalue()[start[0]:], obs)
        assert not leaked, f"shown before the laws allow: {leaked}"
        checks[0] += 1

    def wrap(name: str, before: Callable[..., None] | None = None,
             after: Callable[..., None] | None = None) -> None:
        original = getattr(TerminalTable, name)

        def wrapper(self: TerminalTable, *a: Any) -> Any:
            if before:
                before(*a)
            result = original(self, *a)
            if after:
                after(*a)
            return result

        monkeypatch.setattr(TerminalTable, name, wrapper)

    wrap("deal_started", before=lambda partie: start.__setitem__(0, len(out.getvalue())))
    wrap("choose", before=check)
    wrap("deal_finished", after=lambda partie: check(partie.observation("A")))
    monkeypatch.setattr("builtins.input", Person(out))
    assert run_play(args("--seed", str(seed)), console=Console(file=out, width=100)) == 0
    assert checks[0] > 100


def test_a_carte_blanche_is_announced_shown_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 669: the computer, elder, is dealt a carte blanche (Laws 18-20)."""
    code, out, _ = play(monkeypatch, "--seed", "669", quit_after=10)
    talk = out[out.index("Deal 1 of 6"):]
    assert talk.index("Computer: “I have a carte blanche.”") < talk.index("Your hand:")
    # Shown once the person has discarded, and counted first of everything (Law 67).
    assert talk.index("You discard") < talk.index("Computer shows the carte blanche:")
    assert "Computer: “Carte blanche: ten.”" in talk
    assert "Computer leads the ace of clubs." in talk and "Computer: “Eleven.”" in talk


def test_the_counts_called_agree_with_the_score_card(monkeypatch: pytest.MonkeyPatch) -> None:
    finished: list[tuple[list[int], list[int]]] = []
    original = TerminalTable.deal_finished

    def deal_finished(self: TerminalTable, partie: Partie) -> None:
        original(self, partie)
        deal = partie.deals[-1]
        finished.append((list(self.narrator.count), [deal.total(0), deal.total(1)]))

    monkeypatch.setattr(TerminalTable, "deal_finished", deal_finished)
    play(monkeypatch, "--seed", "669")
    assert len(finished) >= 6
    assert all(called == scored for called, scored in finished)


def test_atomic_save_keeps_the_old_file_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    terminal.save_atomically(str(path), "first\n")
    assert path.read_text() == "first\n"

    def broken(fd: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError):
        terminal.save_atomically(str(path), "second\n")
    assert path.read_text() == "first\n"
    assert os.listdir(tmp_path) == ["game.json"]


def test_the_table_is_a_player() -> None:
    table = TerminalTable(Console(file=io.StringIO()), {"A": "You", "B": "Computer"})
    assert isinstance(table, Player)


def test_a_computer_that_cannot_choose_is_reported_and_the_record_kept(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """A fault of a level ends the game with a message, not a traceback; the record is kept to resume."""
    from piquet.players.base import SimplePlayer

    class Failing(SimplePlayer):
        calls = 0

        def choose(self, obs: Observation) -> Any:
            Failing.calls += 1
            if Failing.calls > 3:
                raise ValueError("out of its depth")
            return super().choose(obs)

    monkeypatch.setattr(terminal, "make_player", lambda level, seed: Failing())
    path = tmp_path / "game.json"
    code, out, _ = play(monkeypatch, "--seed", "11", "--record", str(path))
    flat = " ".join(out.split())
    assert code == 1 and "Traceback" not in out
    assert "The partie cannot go on: the computer (simple) could not choose: ValueError: out of its depth." in flat
    assert f"piquet play --resume {path} --level simple" in flat
    saved = load_record(path)
    assert len(saved.deals) == 1 and saved.deals[0].elder_discard is not None
