"""Records as hard as the server (issue 17, item 6): the strict JSON reader (``piquet.records.jsontext``), and
``piquet replay``, ``replay --json``, ``analyse`` and ``play --resume`` given hostile records; a partie's file
written atomically, its leftovers removed, and held by one process at a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from piquet.cli import saves
from piquet.cli.main import main
from piquet.records.jsontext import MAX_DEPTH, MAX_DIGITS, JSONRefused, brief, read_json
from piquet.records.record import RecordError, load_record, parse_record
from test_terminal import play

SRC = str(Path(__file__).resolve().parent.parent / "src")

# ---------------------------------------------------------------- the reader


@pytest.mark.parametrize(("text", "says", "column"), [
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested more than 100 deep", MAX_DEPTH + 1),
    ('{"deals": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested more than 100 deep", 10 + MAX_DEPTH),  # the { is one
    ('{"a": ' + "[" * 500 + "]" * 500 + "}", "nested more than 100 deep", 6 + MAX_DEPTH),
    ('{"seed": ' + "9" * 5000 + "}", "a number of more than 4300 digits", 10),
    ("[1, -" + "7" * (MAX_DIGITS + 1) + "]", "a number of more than 4300 digits", 5),
    ('{"players": {"A": "x\\ud800y"}}', "a lone surrogate", 19),
    ('["\\udc00"]', "a lone surrogate", 2),
    ("[1, NaN]", "NaN is not JSON", 5),
    ('{"a": -Infinity}', "-Infinity is not JSON", 7),
])
def test_the_reader_refuses_what_could_crash_a_reader_and_says_where(text: str, says: str, column: int) -> None:
    with pytest.raises(JSONRefused) as caught:
        read_json(text)
    e = caught.value
    assert says in e.msg and (e.lineno, e.colno) == (1, column)
    assert isinstance(e, json.JSONDecodeError) and isinstance(e, ValueError)  # caught where syntax errors are


def test_the_reader_reads_up_to_its_limits() -> None:
    assert read_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) == eval("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert read_json("[-" + "9" * MAX_DIGITS + "]") == [-int("9" * MAX_DIGITS)]
    assert read_json('["\\ud83d\\ude00", "\\\\ud800"]') == ["\U0001f600", "\\ud800"]  # a pair; an escaped backslash
    # Brackets and surrogate-like text inside strings are text.
    assert read_json(json.dumps(["[" * 500, "{" * 500])) == ["[" * 500, "{" * 500]
    assert read_json(b'\xef\xbb\xbf{"a": 1.5e3}') == {"a": 1500.0}
    with pytest.raises(JSONRefused, match="not UTF-8 text"):
        read_json(b'{"a": "\xff"}')
    with pytest.raises(json.JSONDecodeError) as caught:  # a syntax error is json's own
        read_json('{"a": ')
    assert type(caught.value) is json.JSONDecodeError


def test_brief_never_echoes_a_long_value() -> None:
    assert brief("QS") == '"QS"'
    assert brief("a" * 50_000) == '"' + "a" * 40 + '..." (50,000 characters)'
    assert brief("x\ud800") == '"x\\ud800"'  # printable anywhere
    assert brief(10 ** 100) == "a number of 101 digits"
    assert brief({"a": [1]}) == "an object" and brief(None) == "null"


# ---------------------------------------------------------------- the commands

HOSTILE: dict[str, Callable[[], str]] = {
    "deep": lambda: '{"deals": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "digits": lambda: '{"seed": ' + "9" * 5000 + ', "deals": []}',
    "surrogate": lambda: '{"players": {"A": "Ann\\ud800", "B": "Bob"}, "deals": []}',
    "escape": lambda: '{"players": {"A": "Ann\\u001b[2J", "B": "Bob"}, "deals": []}',
    "long name": lambda: '{"players": {"A": "' + "a" * 50_000_000 + '", "B": "Bob"}, "deals": []}',
    "long key": lambda: '{"' + "k" * 5_000_000 + '": 1, "deals": []}',
    "long card": lambda: '{"deals": [{"dealer": "B", "elder": ["' + "Q" * 5_000_000 + '"], "younger": [], '
                         '"stock": []}]}',
}
SAYS = {"deep": "refused: nested more than 100 deep (line 1, column 110)",
        "digits": "refused: a number of more than 4300 digits (line 1, column 10)",
        "surrogate": "refused: a lone surrogate", "escape": "seat A: a name has no control characters",
        "long name": "seat A: a name is at most 100 characters, not 50,000,000",
        "long key": "unknown field \"kkkk", "long card": "(5,000,000 characters) is not a card"}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    out = {}
    for name, make in HOSTILE.items():
        out[name] = folder / f"{name.replace(' ', '-')}.json"
        out[name].write_text(make(), encoding="utf-8")
    return out


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["analyse"]])
def test_replay_and_analyse_refuse_a_hostile_record_in_a_line(hostile: dict[str, Path], name: str,
                                                              command: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, str(hostile[name])]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"piquet {command[0]}: {hostile[name]}: ") and SAYS[name] in err
    assert len(err) < 400 and err.count("\n") == 1  # one line, nothing echoed back


@pytest.mark.parametrize("name", list(HOSTILE))
def test_play_resume_refuses_a_hostile_record_and_leaves_it(hostile: dict[str, Path], name: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    before = hostile[name].read_bytes()
    code, out, typist = play(monkeypatch, "--resume", str(hostile[name]))
    flat = " ".join(out.split())
    assert code == 2 and typist.answers == []
    assert flat.startswith("piquet play: ") and " ".join(SAYS[name].split()) in flat and len(flat) < 400
    assert "Traceback" not in out
    assert hostile[name].read_bytes() == before
    assert sorted(p.name for p in hostile[name].parent.iterdir() if p.name.startswith(".")) == []


def test_the_record_reader_says_refused_not_invalid() -> None:
    with pytest.raises(RecordError, match=r"^JSON: refused: a number of more than 4300 digits \(line 1, column 10\)$"):
        parse_record('{"seed": ' + "1" * 4301 + "}")
    with pytest.raises(RecordError, match=r"^JSON: not valid JSON: Expecting value"):
        parse_record('{"seed": }')
    r = parse_record('{"players": {"A": "Ann \\ud83c\\udccf", "B": "Bob"}, "seed": ' + "1" * 4300 + ', "deals": []}')
    assert r.players == {"A": "Ann \U0001f0cf", "B": "Bob"}


def test_a_name_the_records_refuse_is_refused_by_play(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out, _ = play(monkeypatch, "--name", "Ann\x1b]0;owned\x07", "--record", str(tmp_path / "g.json"))
    assert code == 2 and "--name: a name has no control characters" in out
    code, out, _ = play(monkeypatch, "--name", "A" * 101, "--record", str(tmp_path / "g.json"))
    assert code == 2 and "a name is at most 100 characters" in out
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- the partie's file


@pytest.fixture
def halfway(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A partie quit at the person's tenth answer, its record written again by hand (other spaces): whatever a
    resume writes would be written otherwise."""
    path = tmp_path / "game.json"
    code, _, _ = play(monkeypatch, "--seed", "23", "--record", str(path), quit_after=10)
    assert code == 0
    path.write_text(json.dumps(json.loads(path.read_text()), indent=3), encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["eof", "quit"])
def test_a_resume_that_ends_at_once_leaves_the_file_unchanged(monkeypatch: pytest.MonkeyPatch, halfway: Path,
                                                              how: str) -> None:
    before = halfway.read_bytes()
    code, out, typist = play(monkeypatch, "--resume", str(halfway), quit_after=0,
                             quit_word="quit" if how == "quit" else None)
    assert code == 0 and "Resuming the partie" in out and "Saved to" in out
    assert halfway.read_bytes() == before
    assert sorted(p.name for p in halfway.parent.iterdir()) == ["game.json"]  # no lock, no temporary file
    # One answer more and the partie has moved on: it is written.
    code, out, typist = play(monkeypatch, "--resume", str(halfway), quit_after=1)
    assert code == 0 and halfway.read_bytes() != before
    assert len(load_record(halfway).deals) >= 1


def test_a_temporary_file_left_by_a_crash_is_removed(monkeypatch: pytest.MonkeyPatch, halfway: Path) -> None:
    # A process killed while it writes the record: the temporary file stays, the record is whole.
    before = halfway.read_bytes()
    crash = textwrap.dedent(f"""
        import os
        from piquet.cli import saves
        os.fsync = lambda fd: os._exit(9)  # killed between writing and renaming
        saves.save_atomically({str(halfway)!r}, "half a rec")
    """)
    done = subprocess.run([sys.executable, "-c", crash], env={**os.environ, "PYTHONPATH": SRC}, check=False)
    assert done.returncode == 9
    left = saves.leftovers(halfway)
    assert len(left) == 1 and left[0].read_text() == "half a rec" and halfway.read_bytes() == before
    # The next piquet to take the file removes it, and the record reads as it was.
    code, _, _ = play(monkeypatch, "--resume", str(halfway), quit_after=0)
    assert code == 0 and saves.leftovers(halfway) == [] and halfway.read_bytes() == before


def test_a_failed_write_removes_its_temporary_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    saves.save_atomically(str(path), "first\n")

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        saves.save_atomically(str(path), "second\n")
    assert path.read_text() == "first\n" and os.listdir(tmp_path) == ["game.json"]


def test_a_second_process_resuming_the_same_file_is_refused(monkeypatch: pytest.MonkeyPatch, halfway: Path) -> None:
    before = halfway.read_bytes()
    with saves.playing(halfway):
        # Another program: refused, saying so, and the file is left alone.
        done = subprocess.run([sys.executable, "-m", "piquet", "play", "--resume", str(halfway)], input="",
                              capture_output=True, text=True, env={**os.environ, "PYTHONPATH": SRC,
                                                                  "PIQUET_PURE": "1", "COLUMNS": "300"},
                              check=False, timeout=120)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"is being played by another piquet (process {os.getpid()})" in done.stdout
        assert "Traceback" not in done.stdout + done.stderr
        # This one too, at --resume or --record on the same file.
        code, out, typist = play(monkeypatch, "--resume", str(halfway))
        assert code == 2 and "is being played by another piquet" in " ".join(out.split()) and typist.answers == []
        code, out, _ = play(monkeypatch, "--record", str(halfway))
        assert code == 2 and "is being played by another piquet" in " ".join(out.split())
        assert halfway.read_bytes() == before
    # Free again once the first has done.
    code, _, _ = play(monkeypatch, "--resume", str(halfway), quit_after=0)
    assert code == 0 and halfway.read_bytes() == before


def test_a_resume_where_the_computer_moves_first_leaves_the_file_unchanged(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """The treatise's deal, without a seed: resumed, the next deal is dealt and the computer, elder, discards
    before the person is asked anything; quitting then writes nothing."""
    path = tmp_path / "example.json"
    path.write_bytes((Path(__file__).parent / "data" / "records" / "britannica-example.json").read_bytes())
    before = path.read_bytes()
    code, out, typist = play(monkeypatch, "--resume", str(path), quit_after=0)
    assert code == 0 and "Computer discards" in out and "Deal 2" in out
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["example.json"]
