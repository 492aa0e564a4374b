"""Piquet au cent played and recorded: the record's fields and refusals, ``piquet replay`` of a game won in
the middle of a deal, and whole parties at the terminal (p. 16-20)."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from piquet.cli.main import main
from piquet.cli.terminal import TerminalTable, run_play
from piquet.core.events import YOUNGER
from piquet.core.observation import Observation
from piquet.core.rules import AuCentRules, rules_named
from piquet.records.record import PartieRecord, RecordError, load_record, parse_record, record_of, replay
from piquet.records.replay import scores_json
from piquet.talk.words import settlement_words
from test_record import DATA, example_doc
from test_record import EXAMPLE as BRITANNICA
from test_terminal import Person, args, hidden_named, play

AU_CENT = DATA / "au-cent-game.json"


def au_cent_doc() -> dict[str, Any]:
    """The hand-written game of Piquet au cent: a double game won on a lead at trick 5 of the second deal."""
    return {**json.loads(AU_CENT.read_text())}


def read(doc: dict[str, Any]) -> PartieRecord:
    return parse_record(json.dumps(doc))


# ---------------------------------------------------------------- an independent count

_RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
_KINDS = ("carte_blanche", "point", "sequences", "sets", "play", "cards", "pique", "repique")


class _Reached(Exception):
    """A player has reached a hundred: the deal stops (p. 20)."""


def _cards(text: str) -> list[str]:
    return text.split()


def _rank(card: str) -> int:
    return _RANKS.index(card[:-1])


def _makes(card: str) -> int:
    """What a card makes in the point: ace eleven, court cards and ten ten, the others their pips."""
    r = card[:-1]
    return 11 if r == "A" else 10 if r in ("K", "Q", "J", "10") else int(r)


def _sequence_score(n: int) -> int:
    return n if n < 5 else n + 10


class Count:
    """A deal counted by the book (Laws 62-69, p. 20), from the record's lists, with no help from the engine.

    ``game`` is the game's score before the deal, by seat; the count stops where a seat reaches a hundred.
    """

    def __init__(self, deal: dict[str, Any], game: dict[str, int]) -> None:
        self.elder = "B" if deal["dealer"] == "A" else "A"
        self.younger = deal["dealer"]
        self.game = dict(game)
        self.kinds = {s: dict.fromkeys(_KINDS, 0) for s in "AB"}
        self.won: tuple[str, bool, str] | None = None  # winner, double, what reached a hundred
        self.extra_done = False
        with contextlib.suppress(_Reached):
            self._count(deal)

    def total(self, seat: str) -> int:
        return sum(self.kinds[seat].values())

    def add(self, seat: str, kind: str, points: int, what: str) -> None:
        if not points:
            return
        other = "B" if seat == "A" else "A"
        self.kinds[seat][kind] += points
        hands = kind in ("carte_blanche", "point", "sequences", "sets")
        if not self.extra_done and self.total(other) == 0 and self.total(seat) >= 30:
            if hands:
                self.extra_done = True
                self.add(seat, "repique", 60, "the repique")
                return
            if kind == "play" and seat == self.elder:
                self.extra_done = True
                self.add(seat, "pique", 30, "the pique")
                return
        self._goal(seat, what)

    def _goal(self, seat: str, what: str) -> None:
        other = "B" if seat == "A" else "A"
        if self.game[seat] + self.total(seat) >= 100:
            self.won = (seat, self.game[other] + self.total(other) < 50, what)
            raise _Reached

    def _count(self, deal: dict[str, Any]) -> None:
        e_held = [c for c in deal["elder"] if c not in deal["elder_discard"]]
        taken_e = len(deal["elder_discard"])
        e_held += deal["stock"][:taken_e]
        y_disc = deal["younger_discard"]
        y_held = [c for c in deal["younger"] if c not in y_disc] + deal["stock"][taken_e:taken_e + len(y_disc)]
        assert len(e_held) == len(y_held) == 12
        calls = deal["calls"]
        e, y = calls["elder"], calls["younger"]
        # The point: the more cards, then the more it makes (Law 62).
        keys = [(len(p), sum(_makes(c) for c in p)) if p else (0, 0) for p in (e["point"], y["point"])]
        if keys[0] != keys[1]:
            seat, key = (self.elder, keys[0]) if keys[0] > keys[1] else (self.younger, keys[1])
            self.add(seat, "point", key[0], "the point")
        # Sequences: the longer, then the higher (Law 63); the good hand scores all he declared.
        best = [max(((len(s), max(_rank(c) for c in s)) for s in h["sequences"]), default=(0, 0)) for h in (e, y)]
        if best[0] != best[1]:
            seat, runs = (self.elder, e["sequences"]) if best[0] > best[1] else (self.younger, y["sequences"])
            for run in runs:
                self.add(seat, "sequences", _sequence_score(len(run)), "a sequence")
        # Quatorzes and trios (Law 64).
        best = [max(((len(s), _rank(s[0])) for s in h["sets"]), default=(0, 0)) for h in (e, y)]
        if best[0] != best[1]:
            seat, sets = (self.elder, e["sets"]) if best[0] > best[1] else (self.younger, y["sets"])
            for s in sets:
                self.add(seat, "sets", 14 if len(s) == 4 else 3, "a quatorze" if len(s) == 4 else "a trio")
        # The play (Law 65): a point for each card led, one for a trick won by the second player, the last
        # trick one more; then the cards (Law 66).
        leader, tricks = self.elder, {"A": 0, "B": 0}
        plays = deal["play"]
        for t in range(12):
            lead, reply = plays[2 * t], plays[2 * t + 1] if 2 * t + 1 < len(plays) else None
            self.add(leader, "play", 1, f"the lead of {lead} at trick {t + 1}")
            second = "B" if leader == "A" else "A"
            assert reply is not None, "the record stops before the game is won"
            wins = reply[-1] == lead[-1] and _rank(reply) > _rank(lead)
            winner = second if wins else leader
            tricks[winner] += 1
            if wins:
                self.add(second, "play", 2 if t == 11 else 1, f"{reply} winning trick {t + 1}")
            elif t == 11:
                self.add(leader, "play", 1, "the last trick")
            leader = winner
        if tricks["A"] != tricks["B"]:
            seat = "A" if tricks["A"] > tricks["B"] else "B"
            self.add(seat, "cards", 40 if tricks[seat] == 12 else 10, "the cards")


def count_record(doc: dict[str, Any]) -> list[Count]:
    """Every deal counted, each given the game's score before it; a new game begins after one is won."""
    out, game = [], {"A": 0, "B": 0}
    for deal in doc["deals"]:
        if "play" not in deal:
            break
        c = Count(deal, game)
        out.append(c)
        game = {"A": 0, "B": 0} if c.won else {s: game[s] + c.total(s) for s in "AB"}
    return out


# ---------------------------------------------------------------- records


def test_the_record_of_a_game_won_in_the_middle_of_a_deal() -> None:
    record = load_record(AU_CENT)
    assert record.rules == "au-cent" and record.agreements == ()
    partie = replay(record)
    assert isinstance(partie.rules, AuCentRules)
    first, second = partie.deals
    assert first.discards[YOUNGER] == 0  # the younger kept his hand (p. 17)
    assert second.is_over and len(record.deals[1].play) == 9
    assert second.game_won == (YOUNGER, True)  # Ann, younger, reaches a hundred before Bob has fifty
    assert partie.games()[0].winner == "A" and not partie.is_finished


def test_au_cent_records_round_trip() -> None:
    record = load_record(AU_CENT)
    again = parse_record(record.to_json())
    assert again == record
    written = record_of(replay(record), players=record.players)
    assert parse_record(written.to_json()) == written
    assert scores_json(replay(written)) == scores_json(replay(record))
    assert written.to_json() == record_of(replay(parse_record(written.to_json())), players=record.players).to_json()
    assert '"younger_discard": []' in written.to_json()


def test_agreements_are_read_by_any_name_and_written_by_their_own() -> None:
    doc = au_cent_doc()
    doc["agreements"] = ["nines", "points-ending-in-four"]
    record = read(doc)
    assert record.agreements == ("small-cards", "fours")
    text = record.to_json()
    assert '"agreements": ["small-cards", "fours"]' in text
    assert parse_record(text) == record
    assert replay(record).rules == rules_named("au-cent+small-cards+fours")
    doc = au_cent_doc()
    doc["rules"] = "au-cent+fours"
    record = read(doc)
    assert (record.rules, record.agreements) == ("au-cent", ("fours",))
    assert record_of(replay(record)).agreements == ("fours",)


def test_the_agreements_change_the_scores() -> None:
    """Nines, eights and sevens count nothing in play (p. 19): Ann's three small leads no longer score."""
    plain = scores_json(replay(load_record(AU_CENT)))
    doc = au_cent_doc()
    doc["agreements"] = ["small-cards"]
    doc["deals"] = doc["deals"][:1]
    small = scores_json(replay(read(doc)))["deals"][0]
    deal = doc["deals"][0]
    # Ann leads AS KS QS JS 9S 8S 7S AH AC 10C: three of them small; Bob wins with KC and leads KH, QH (court
    # cards); the last trick's one more counts whatever wins it.
    small_leads = sum(1 for c in deal["play"][0:20:2] if c[:-1] in ("9", "8", "7"))
    assert small_leads == 3
    assert small["elder"]["play"] == plain["deals"][0]["elder"]["play"] - small_leads
    assert small["younger"]["play"] == plain["deals"][0]["younger"]["play"]
    assert small["elder"]["pique"] == 0  # Ann no longer reaches thirty before Bob scores


@pytest.mark.parametrize(("agreements", "words"), [
    (["nines", "sevens"], "unknown agreement 'sevens'"),
    (["fours", 4], "an agreement is named by a string"),
    ("fours", "'agreements' is a list"),
])
def test_unknown_agreements_are_refused(agreements: Any, words: str) -> None:
    doc = au_cent_doc()
    doc["agreements"] = agreements
    with pytest.raises(RecordError) as e:
        read(doc)
    assert e.value.step == "agreements" and words in str(e.value)


def test_agreements_are_refused_at_rubicon(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    doc["agreements"] = ["fours"]
    with pytest.raises(RecordError) as e:
        read(doc)
    assert e.value.step == "agreements" and "options of Piquet au cent (p. 19), not of rubicon" in str(e.value)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "not of rubicon" in err
    doc["agreements"] = []  # no agreement at all is no agreement
    assert replay(read(doc)).scores == {"A": 28, "B": 23}


def test_the_younger_must_discard_at_rubicon_and_need_not_at_au_cent() -> None:
    doc = example_doc()
    doc["deals"][0]["younger_discard"] = []
    with pytest.raises(RecordError) as e:
        replay(read(doc))
    assert (e.value.deal, e.value.step, e.value.law) == (1, "younger's discard", "Laws 22, 34")
    assert "at least one" in str(e.value)
    doc = au_cent_doc()
    del doc["deals"][0]["younger_discard"]
    with pytest.raises(RecordError) as e:
        replay(read(doc))
    assert (e.value.step, e.value.law) == ("younger's discard", "p. 17") and "written []" in str(e.value)


def test_a_record_going_on_after_the_game_is_won_is_refused() -> None:
    doc = au_cent_doc()
    doc["deals"][1]["play"] += ["QS"]  # Bob's card to the fifth trick: the game was won on its lead
    with pytest.raises(RecordError) as e:
        replay(read(doc))
    err = e.value
    assert (err.deal, err.law) == (2, "p. 20")
    assert "the younger hand reaches 70 + 30 = 100 at trick 5" in str(err) and "1 more card is played" in str(err)


def _ninety_seven(doc: dict[str, Any]) -> None:
    """Deal 2 played out with Ann sinking her sixieme: Ann 97, Bob 15, and game 1 goes on."""
    d2 = doc["deals"][1]
    d2["calls"]["younger"]["sequences"] = []
    d2["play"] = _cards("8H 9H AH 7H KH 8S QH 9S JH KC 10H AC AD JD 9D QD AS 10S KS 10C QS 8D JS 7D")


def test_calls_after_a_game_won_by_a_carte_blanche_are_refused() -> None:
    doc = au_cent_doc()
    _ninety_seven(doc)
    assert replay(read(doc)).scores == {"A": 97, "B": 15}
    # Deal 3: Ann, elder, holds a carte blanche; shown when Bob has discarded, it takes her past a hundred.
    doc["deals"].append({
        "dealer": "B",
        "elder": _cards("AS 10S 9S 8S AH 10H 9H AC 10C 9C AD 10D"),
        "younger": _cards("KS QS JS 7S KH QH JH 8H KC QC JC 8C"),
        "stock": _cards("7H 8D 9D 7C KD QD JD 7D"),
        "elder_discard": _cards("9S 8S 9H 9C 10D"),
        "younger_discard": ["8C"],
    })
    partie = replay(read(doc))
    assert partie.deals[2].is_over and partie.games()[0].scores == {"A": 107, "B": 15}
    doc["deals"][2]["calls"] = {"elder": {"point": ["AC", "KD", "10C"]}}
    with pytest.raises(RecordError) as e:
        replay(read(doc))
    assert (e.value.deal, e.value.step, e.value.law) == (3, "calls: elder's point", "p. 20")
    assert "before the play: the game is won and the deal stops there, but the record goes on" in str(e.value)


def test_dealing_by_threes_is_refused_at_au_cent() -> None:
    doc = au_cent_doc()
    doc["deal_by"] = 3
    with pytest.raises(RecordError) as e:
        replay(read(doc))
    assert (e.value.step, e.value.law) == ("deal_by", "p. 16") and "by two cards at a time" in str(e.value)


# ---------------------------------------------------------------- piquet replay


def test_replay_json_agrees_with_the_independent_count(capsys: pytest.CaptureFixture[str]) -> None:
    doc = au_cent_doc()
    counts = count_record(doc)
    assert main(["replay", str(AU_CENT), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    game = {"A": 0, "B": 0}
    for entry, c in zip(out["deals"], counts, strict=True):
        for role in ("elder", "younger"):
            seat = entry[role]["seat"]
            assert {k: entry[role][k] for k in _KINDS} == c.kinds[seat]
            assert entry[role]["total"] == c.total(seat)
        game = {s: game[s] + c.total(s) for s in "AB"}
        assert entry["game"]["scores"] == game and entry["game"]["number"] == 1
        assert (entry["game"]["winner"], entry["game"]["double"]) == (c.won[:2] if c.won else (None, False))
    assert [e["game"]["deal"] for e in out["deals"]] == [1, 2]
    winner, double, _ = counts[-1].won or ("", False, "")
    assert out["partie"]["games"] == [{"number": 1, "first_deal": 1, "last_deal": 2, "scores": game,
                                       "winner": winner, "double": double}]
    assert out["partie"]["tally"] == {winner: 2 if double else 1, "B" if winner == "A" else "A": 0}
    assert out["partie"]["finished"] is False and out["partie"]["points_won"] is None


def test_replay_tells_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    counts = count_record(au_cent_doc())
    assert main(["replay", str(AU_CENT)]) == 0
    out = capsys.readouterr().out
    assert "Deal 1 (game 1, deal 1)" in out and "Deal 2 (game 1, deal 2)" in out
    assert "Game 1 begins: both players at nothing" in out
    assert "Bob keeps all his cards, discarding none (p. 17); three left in the stock." in out
    # The elder states what his point makes; the younger answers at once (p. 18).
    assert 'Ann: "Seven cards, making sixty-five."\n    Bob: "Good."' in out
    assert "What do they make?" not in out
    assert 'Ann: "Three aces?"' in out and 'Ann: "Three aces: twenty."' in out  # named, not shown
    first = counts[0]
    assert f"Game 1: Ann {first.total('A')}, Bob {first.total('B')}." in out
    assert f"The game stands at Ann {first.total('A')}, Bob {first.total('B')}." in out
    winner, double, what = counts[1].won or ("", False, "")
    assert (winner, double, what) == ("A", True, "the lead of JH at trick 5")
    assert ("Ann reaches one hundred on the lead of the knave of hearts at trick 5 (Law 67): game 1 to Ann, "
            "100 to 5; a double game: Bob had not fifty (p. 20).") in out
    assert "Deal 2 stops there: the game is won" in out
    assert "Games won: Ann 2 (a double), Bob 0." in out
    assert out.rstrip().endswith("The partie is unfinished (three games out of five): games won: Ann (A) 2, "
                                 "Bob (B) 0 (game 1 to Ann (A), 100 to 5, a double).")


def test_the_rubicon_replay_has_no_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(BRITANNICA), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "game" not in out["deals"][0] and set(out["partie"]) == {"scores", "finished", "winner", "rubicon",
                                                                     "points_won"}


def test_settlement_words_of_a_partie_of_games() -> None:
    rules = rules_named("au-cent")
    # Deals as they scored: Ann wins game 1 double, Bob game 2, Ann game 3 (single): three games to one.
    scores = [{"A": 60, "B": 10}, {"A": 41, "B": 20}, {"A": 30, "B": 70}, {"A": 40, "B": 35},
              {"A": 90, "B": 60}, {"A": 15, "B": 2}]
    after = rules.running_scores(scores)
    names = {"A": "Ann", "B": "Bob"}
    done = rules.settlement_of(after, finished=True)
    assert settlement_words(done, after[-1], rules, names) == (
        "Ann wins the partie, three games to one (a double counting two): game 1 to Ann, 101 to 30, a double; "
        "game 2 to Bob, 105 to 70; game 3 to Ann, 105 to 62 (p. 20).")
    going = rules.settlement_of(after[:3], finished=False)
    assert settlement_words(going, after[2], rules, names) == (
        "The partie is unfinished (three games out of five): game 2 stands at Ann 30, Bob 70; games won: Ann 2, "
        "Bob 0 (game 1 to Ann, 101 to 30, a double).")
    you = settlement_words(done, after[-1], rules, {"A": "You", "B": "Computer"})
    assert you.startswith("You win the partie, three games to one")


# ---------------------------------------------------------------- the terminal


class Keeper(Person):
    """The scripted person, who keeps his hand the first time he may (the younger at Piquet au cent)."""

    kept = False

    def __call__(self, prompt: str = "") -> str:
        last = self.out.getvalue().rstrip().splitlines()[-1]
        if not self.kept and not self.queue and "Discard (none, or 1 to" in last:
            self.kept = True
            self.pos = len(self.out.getvalue())
            return self.say("none")
        return super().__call__(prompt)


_CUT = re.compile(r"You cut the (\w+) of \w+, Computer the (\w+) of \w+\. The lower card deals, with no "
                  r"choice: (You|Computer) cut the lower card and deals?\.")
_RANK_WORDS = ("seven", "eight", "nine", "ten", "knave", "queen", "king", "ace")


def game_tally(partie_json: dict[str, Any]) -> dict[str, int]:
    """Games won, counted from the deals' totals alone: a hundred up, double under fifty, a double two."""
    tally, game = {"A": 0, "B": 0}, {"A": 0, "B": 0}
    for d in partie_json["deals"]:
        for role in ("elder", "younger"):
            game[d[role]["seat"]] += d[role]["total"]
        winners = [s for s in "AB" if game[s] >= 100]
        if winners:
            (w,) = winners
            tally[w] += 2 if game["B" if w == "A" else "A"] < 50 else 1
            game = {"A": 0, "B": 0}
    return tally


@pytest.mark.slow
def test_a_whole_partie_au_cent_at_the_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    out = io.StringIO()
    keeper = Keeper(out)
    monkeypatch.setattr("builtins.input", keeper)
    code = run_play(args("--rules", "au-cent", "--seed", "1", "--record", str(path)), Console(file=out, width=100))
    text = out.getvalue()
    flat = " ".join(text.split())
    assert code == 0 and "Traceback" not in text and "Not allowed" not in text
    # The cut: the lower card deals, and nobody is asked (p. 16).
    cut = _CUT.search(flat)
    assert cut is not None
    lower = "You" if _RANK_WORDS.index(cut[1]) < _RANK_WORDS.index(cut[2]) else "Computer"
    assert cut[3] == lower
    assert "Deal first?" not in text and "by two or by three" not in text
    # The younger kept his hand.
    assert keeper.kept and "You keep all your cards, discarding none (p. 17)" in text
    assert "Game 1 · deal 1" in text and "Game 2 begins, a hundred up" in text
    # Seed 1: each wins a game, told in the second person for the person (p. 20).
    assert re.search(r"Computer reaches one hundred[\w -]* on [\w ,]+ \(Law 67\): game \d to Computer, \d+ to \d+",
                     flat)
    assert re.search(r"You reach one hundred[\w -]*: the game", flat)
    assert re.search(r"You reach one hundred[\w -]* on [\w ,]+ \(Law 67\): game \d to you, \d+ to \d+", flat)
    # The end, in games, agrees with a count of the deals' totals.
    record = load_record(path)
    assert record.rules == "au-cent" and record.deal_by is None
    partie = replay(record)
    assert partie.is_finished
    tally = game_tally(scores_json(partie))
    winner = max(tally, key=lambda s: tally[s])
    assert max(tally.values()) >= 3 and min(tally.values()) < 3
    words = ("none", "one", "two", "three", "four", "five")
    who = "You win" if winner == "A" else "Computer wins"
    loser = "B" if winner == "A" else "A"
    assert f"{who} the partie, {words[tally[winner]]} games to {words[tally[loser]]}" in flat
    assert f"Games won: You {tally['A']}" in flat and f"Computer {tally['B']}" in flat
    # A deal after the partie is won is refused (p. 20).
    doc = json.loads(path.read_text())
    doc["deals"].append(copy.deepcopy(doc["deals"][-2]))
    with pytest.raises(RecordError) as e:
        replay(read(doc))
    assert e.value.law == "p. 20" and "the partie is over" in str(e.value)


@pytest.mark.slow
def test_record_then_resume_au_cent(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    whole, halves = tmp_path / "whole.json", tmp_path / "halves.json"
    options = ("--rules", "au-cent", "--agree", "fours", "--seed", "5")
    play(monkeypatch, *options, "--record", str(whole))
    code, out, _ = play(monkeypatch, *options, "--record", str(halves), quit_after=40)
    assert code == 0 and f"Saved to {halves}" in out
    saved = load_record(halves)
    assert saved.agreements == ("fours",) and not replay(saved).is_finished
    code, out, _ = play(monkeypatch, "--resume", str(halves))
    assert code == 0 and "Resuming the partie" in out and "the partie, " in out
    assert halves.read_text() == whole.read_text()
    assert '"agreements": ["fours"]' in whole.read_text()


def test_bad_agreements_at_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, "--agree", "fours")
    assert code == 2 and "options of Piquet au cent" in out
    code, out, _ = play(monkeypatch, "--rules", "au-cent", "--agree", "tens")
    assert code == 2 and "unknown agreement 'tens'" in out


def test_an_empty_answer_keeps_the_younger_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 3: the person deals first, so is younger hand; Enter keeps his hand at Piquet au cent (p. 17)."""
    out = io.StringIO()

    def person(prompt: str = "") -> str:
        last = out.getvalue().rstrip().splitlines()[-1]
        if "Discard (none, or 1 to" in last:
            return ""
        return "y" if "Keep your hand, discarding nothing and taking nothing in? (y/n)" in last else "quit"

    monkeypatch.setattr("builtins.input", person)
    assert run_play(args("--rules", "au-cent", "--seed", "3"), Console(file=out, width=100)) == 0
    text = out.getvalue()
    assert "Younger hand: exchange up to four, or none (p. 17)." in text
    assert "You keep all your cards, discarding none (p. 17); four left in the stock." in text
    assert "Name the cards" not in text and "Not allowed" not in text


@pytest.mark.parametrize("seed", [3, 8])
def test_the_computer_cards_stay_hidden_au_cent(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Sets are named, not shown (p. 18): the person sees no card of the computer's the laws hide."""
    out = io.StringIO()
    start, checks = [0], [0]

    def check(obs: Observation) -> None:
        leaked = hidden_named(out.getvalue()[start[0]:], obs)
        assert not leaked, f"shown before the laws allow: {leaked}"
        checks[0] += 1

    deal_started, choose = TerminalTable.deal_started, TerminalTable.choose

    def started(self: TerminalTable, partie: Any) -> None:
        start[0] = len(out.getvalue())
        deal_started(self, partie)

    def chosen(self: TerminalTable, obs: Observation) -> Any:
        check(obs)
        return choose(self, obs)

    monkeypatch.setattr(TerminalTable, "deal_started", started)
    monkeypatch.setattr(TerminalTable, "choose", chosen)
    monkeypatch.setattr("builtins.input", Person(out))
    assert run_play(args("--rules", "au-cent", "--seed", str(seed)), Console(file=out, width=100)) == 0
    assert checks[0] > 50
