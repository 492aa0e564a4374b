"""What is at stake (issue 16, item 3): the words, the terminal at the last deal and at the end, the view.

The expected figures are worked by hand from the laws: the rubicon at a hundred (Law 73: the winner takes
his score, the loser's and a hundred when the loser is under a hundred); six deals, and on a tie each deals
once more (Law 71); the four-deal partie's last deal counting double (Law 71, note); at Piquet au cent a
game of a hundred up, three games of five, a double (before the other has fifty) counting two (p. 20).
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from rich.console import Console

from piquet.cli.terminal import run_play
from piquet.core.observation import PartieContext
from piquet.talk.stakes import needs, stake_matters, stake_words
from piquet.web.protocol import view
from test_terminal import Person, args
from test_web import listed, make_table

YOU_BOB = {"A": "You", "B": "Bob"}


def said(deal: int, of: int, rules: str, a: int, b: int, *, multiplier: int = 1, games: dict[str, int] | None = None,
         game: int = 0, names: dict[str, str] = YOU_BOB) -> list[str]:
    context = PartieContext("A", "B", deal, of, rules, {"A": a, "B": b}, multiplier, games or {}, game)
    return stake_words(context, names)


def test_rubicon_last_deal_both_under_a_hundred() -> None:
    # 70 and 85: 30 and 15 to a hundred; Bob leads by 15, so you need 16 more to win, 15 more ties (Law 71);
    # were it over now Bob would rubicon you: 85 + 70 + 100 = 255 (Law 73).
    assert said(6, 6, "rubicon", 70, 85) == [
        "You need 30 to pass the rubicon (100, Law 73).",
        "Bob needs 15 to pass the rubicon (100, Law 73).",
        "You need 16 more than Bob in this deal to win the partie; 15 more ties it, and each deals once more "
        "(Law 71).",
        "A rubicon at these scores would be worth 255 to Bob: 85 + 70 + 100 (Law 73).",
    ]


def test_rubicon_last_deal_one_past_and_both_past() -> None:
    assert said(6, 6, "rubicon", 130, 95) == [
        "You have passed the rubicon, with 130.",
        "Bob needs 5 to pass the rubicon (100, Law 73).",
        "Bob needs 36 more than you in this deal to win the partie; 35 more ties it, and each deals once more "
        "(Law 71).",
        "A rubicon at these scores would be worth 325 to you: 130 + 95 + 100 (Law 73).",
    ]
    # Both past a hundred: no rubicon to fear (Law 72 settles it), only the lead of 30.
    assert said(6, 6, "rubicon", 150, 120) == [
        "You have passed the rubicon, with 150.",
        "Bob has passed the rubicon, with 120.",
        "Bob needs 31 more than you in this deal to win the partie; 30 more ties it, and each deals once more "
        "(Law 71).",
    ]


def test_a_lead_that_cannot_be_caught() -> None:
    # 205 ahead: more than the 174 a player can make in one deal.
    assert said(6, 6, "rubicon", 300, 95)[2] == ("You cannot be caught: Bob cannot make up 205 in one deal "
                                                   "(at most 174).")
    # 174 a player can make (docs/laws.md, "The most in one deal"): a lead of 174 can still be tied, 175 not.
    assert said(6, 6, "rubicon", 274, 100)[2].startswith("Bob needs 175 more than you in this deal")
    assert said(6, 6, "rubicon", 275, 100)[2] == ("You cannot be caught: Bob cannot make up 175 in one deal "
                                                   "(at most 174).")


def test_a_tie_and_the_extra_deals() -> None:
    assert said(6, 6, "rubicon", 80, 80)[2] == ("The scores are level, at 80: whoever scores more in this deal "
                                                "wins the partie; level again, each deals once more (Law 71).")
    # Tied after six: deals 7 and 8 (Law 71); in the first, two deals to come.
    assert said(7, 8, "rubicon", 90, 90) == [
        "You need 10 to pass the rubicon (100, Law 73).",
        "Bob needs 10 to pass the rubicon (100, Law 73).",
        "The partie was tied after six deals: each deals once more (Law 71), and whoever scores more in the two "
        "deals wins it.",
    ]
    # The last extra deal: tied again, the partie is drawn.
    assert said(8, 8, "rubicon", 104, 96)[2] == ("Bob needs 9 more than you in this deal to win the partie; 8 more "
                                                 "ties it, and the partie is drawn (Law 71).")


def test_four_deal_last_deal_counts_double() -> None:
    # 70 and 85 before deal 4, which counts double: 30 partie points are 15 in the deal, 15 are 8 (7.5 up);
    # the lead of 15 needs 16 partie points, 8 in the deal; 15 cannot be tied (an odd number).
    assert said(4, 4, "four-deal", 70, 85, multiplier=2) == [
        "You need 30 to pass the rubicon (100, Law 73): 15 in this deal, which counts double.",
        "Bob needs 15 to pass the rubicon (100, Law 73): 8 in this deal, which counts double.",
        "You need 8 more than Bob in this deal to win the partie.",
        "A rubicon at these scores would be worth 255 to Bob: 85 + 70 + 100 (Law 73).",
    ]
    context = PartieContext("A", "B", 4, 4, "four-deal", {"A": 70, "B": 85}, 2)
    assert {s: (n.to_line, n.in_deal) for s, n in needs(context).items()} == {"A": (30, 15), "B": (15, 8)}
    # A lead of 20: 10 more in the doubled deal ties it.
    assert said(4, 4, "four-deal", 60, 80, multiplier=2)[2] == (
        "You need 11 more than Bob in this deal to win the partie; 10 more ties it, and each deals once more "
        "(Law 71).")


def test_not_told_before_the_last_deal() -> None:
    assert said(5, 6, "rubicon", 90, 95) == []
    assert said(3, 4, "four-deal", 90, 95) == []
    assert not stake_matters(PartieContext("A", "B", 1, 6, "rubicon", {"A": 0, "B": 0}))


def test_au_cent_within_reach_of_a_hundred() -> None:
    # You at 80, two games won: a hundred wins game 3 and the partie; Bob under fifty makes it a double too.
    assert said(5, 5, "au-cent", 80, 40, games={"A": 2, "B": 0}, game=3) == [
        "You need 20 to reach a hundred and win game 3, a double while Bob has not fifty: that wins the partie "
        "(p. 20).",
        "Bob needs 60 to reach a hundred and win game 3; then Bob would need two more games (p. 20).",
    ]
    # Bob at 75 with one game, you at 40: his double counts two, and three wins the partie.
    assert said(4, 4, "au-cent", 40, 75, games={"A": 0, "B": 1}, game=2) == [
        "You need 60 to reach a hundred and win game 2; then you would need two more games (p. 20).",
        "Bob needs 25 to reach a hundred and win game 2, a double while you have not fifty: that wins the partie "
        "(p. 20).",
    ]
    # Nobody within thirty of a hundred: nothing said.
    assert said(3, 3, "au-cent", 60, 50, games={"A": 0, "B": 0}, game=1) == []


def test_told_to_either_seat() -> None:
    """The viewer is told first, in the second person, whichever seat he holds."""
    context = PartieContext("B", "B", 6, 6, "rubicon", {"A": 70, "B": 85})
    assert stake_words(context, {"A": "Ann", "B": "You"})[:2] == [
        "You need 15 to pass the rubicon (100, Law 73).", "Ann needs 30 to pass the rubicon (100, Law 73)."]


# ---------------------------------------------------------------- the terminal


class AnotherTimes:
    """The scripted person of test_terminal, who says yes to "Another partie?" ``yes`` times, then no."""

    def __init__(self, out: io.StringIO, yes: int) -> None:
        self.person = Person(out)
        self.out = out
        self.yes = yes
        self.offers = 0

    def __call__(self, prompt: str = "") -> str:
        last = self.out.getvalue().rstrip().splitlines()[-1]
        if "Another partie? (y/N)" in last:
            self.offers += 1
            self.person.pos = len(self.out.getvalue())
            return "y" if self.offers <= self.yes else "n"
        return self.person(prompt)


def run_session(monkeypatch: pytest.MonkeyPatch, yes: int, *argv: str) -> tuple[int, str, AnotherTimes]:
    out = io.StringIO()
    typist = AnotherTimes(out, yes)
    monkeypatch.setattr("builtins.input", typist)
    code = run_play(args(*argv), console=Console(file=out, width=200))
    return code, out.getvalue(), typist


def test_the_terminal_tells_the_stake_and_offers_another_partie(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, typist = run_session(monkeypatch, 1, "--seed", "11", "--rules", "four-deal")
    assert code == 0 and typist.offers == 2  # yes once: a second partie, then no
    assert out.count("Deal 1 of 4, counting double") == 2
    last_deals = [m.start() for m in re.finditer(r"Deal 4 of \d, counting double", out)]
    assert len(last_deals) == 2
    for at in last_deals:  # told as the last deal opens, in the deal's own points
        assert re.search(r"need\w? \d+ to pass the rubicon \(100, Law 73\): \d+ in this deal|passed the rubicon",
                         out[at:at + 800])
    assert "Deal 3 of 4" in out and "to pass the rubicon" not in out[:last_deals[0]]
    # The second partie: the same rules and level, a new seed.
    seeds = re.findall(r"Rubicon Piquet, the four-deal partie: You against the computer \(simple\)\. Seed (\d+)\.", out)
    assert len(seeds) == 2 and seeds[0] == "11"


def test_no_to_another_partie_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, typist = run_session(monkeypatch, 0, "--seed", "11", "--rules", "four-deal")
    assert code == 0 and typist.offers == 1
    assert out.count("Deal 1 of 4") == 1


# ---------------------------------------------------------------- the view


def test_the_view_carries_the_stake() -> None:
    table = make_table(12)
    rng = random.Random(0)
    partie = table.partie
    assert view(partie, "A", players=table.names)["stakes"] == []
    while not (partie.current is not None and len(partie.deals) == partie.deals_needed):
        s = table.to_move()
        assert s is not None
        table.apply(s, table.observation(s).sample(rng))
    v: dict[str, Any] = view(partie, "A", players=table.names)
    assert v["stakes"] and v["stakes"] == stake_words(partie.context("A"), {"A": "You", "B": "Bob"})
    while not table.finished:
        s = table.to_move()
        assert s is not None
        table.apply(s, table.observation(s).sample(rng))
    assert view(partie, "A", players=table.names)["stakes"] == []


def test_another_partie_from_the_finished_view(client: Any) -> None:
    """What the "Another partie" button posts (app.js ``anotherPartie``), read from the finished view, makes a
    new table with the same rules, level and name (tested over HTTP, not in a browser)."""
    table = make_table(12)
    rng = random.Random(0)
    while not table.finished:
        s = table.to_move()
        assert s is not None
        table.apply(s, table.observation(s).sample(rng))
    v = view(table.partie, "A", players=table.names, opponent="computer", levels=table.levels)
    body = {"opponent": v["opponent"], "rules": v["partie"]["rules"], "level": v["levels"]["B"],
            "name": v["players"]["A"]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    new = r.json()
    row = {t["table"]: t for t in listed(client, new)}[new["table"]]
    assert row["rules"] == "rubicon" and row["players"] == {"A": "Ann", "B": "Computer (random)"}
