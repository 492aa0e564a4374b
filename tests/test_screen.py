"""The full-screen table (``piquet play --screen``), driven through textual's Pilot: cards clicked and keys
typed, against the quick computer player; the partie saved and resumed as in the lines."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Button, Input

from piquet.cli import saves
from piquet.cli.main import build_parser, main
from piquet.cli.screen import PiquetScreen, finish, table_view
from piquet.cli.terminal import TerminalTable
from piquet.core.cards import card_name, cards_of, mask_of, parse_card
from piquet.core.partie import Partie
from piquet.players.levels import make_player
from piquet.players.runner import GameListener, PartieRunner
from piquet.records.record import load_record, replay

CARD = re.compile(r"(?<![\w])(?:10|[AKQJ987])[SHCD](?![\w])")


def screen(*argv: str) -> PiquetScreen:
    return PiquetScreen(build_parser().parse_args(["play", "--screen", "--level", "simple", *argv]))


def run(test: Callable[[PiquetScreen, Pilot[int]], Awaitable[None]], app: PiquetScreen) -> int:
    """Drive ``app`` with ``test``, then let its partie's thread save: the command's exit code."""

    async def drive() -> None:
        async with app.run_test(size=(150, 50)) as pilot:
            await test(app, pilot)

    asyncio.run(drive())
    return finish(app)


async def asked(app: PiquetScreen, pilot: Pilot[int], words: str = "", seconds: float = 120) -> str:
    """Wait for the table's next question (one holding ``words``): the question."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        await pilot.pause(0.02)
        if app.waiting and words in app.question:
            return app.question
    raise AssertionError(f"not asked {words!r}; the last question: {app.question!r}; the talk ends:\n"
                         + "\n".join(app.game_console.transcript[-20:]))


async def typed(pilot: Pilot[int], text: str) -> None:
    """Type ``text`` and Enter at the answer line, key by key."""
    await pilot.press(*("space" if ch == " " else ch for ch in text), "enter")


def shown_cards(app: PiquetScreen) -> list[str]:
    return [(b.id or "").removeprefix("card-") for b in app.query(".card").results(Button)]


def talk(app: PiquetScreen) -> str:
    return "\n".join(app.game_console.transcript)


async def left(app: PiquetScreen, pilot: Pilot[int]) -> None:
    """Quit with Ctrl+Q and wait for the table to save."""
    await pilot.press("ctrl+q")
    end = time.monotonic() + 60
    while app.game.is_alive() and time.monotonic() < end:
        await pilot.pause(0.05)


@pytest.mark.slow
def test_a_whole_deal_through_the_screen(data_dir: Path) -> None:
    """A deal played by clicks: the discard clicked and sent, the exchange confirmed, the calls taken, each card
    clicked; the score card of the deal follows, and the partie is saved. The hand drawn is only ever the
    person's cards."""
    seen: set[str] = set()
    questions: list[str] = []

    async def test(app: PiquetScreen, pilot: Pilot[int]) -> None:
        while True:
            q = await asked(app, pilot)
            if "Deal 2 of 6" in talk(app):
                break
            questions.append(q)
            seen.update(shown_cards(app))
            if q.startswith("Discard") and "(y/n)" not in q:
                for name in shown_cards(app)[-2:]:
                    await pilot.click(f"#card-{name}")
                assert app.query_one("#answer", Input).value == " ".join(shown_cards(app)[-2:])
                await pilot.click("#send")
            elif "(y/n)" in q:
                await typed(pilot, "y")
            elif q.startswith(("Lead", "Play to")):
                enabled = [b for b in app.query(".card").results(Button) if not b.disabled]
                legal = set(CARD.findall(q.split("[", 1)[1])) if "[" in q and "any card" not in q else None
                if legal is not None:  # the cards that may not be played cannot be clicked (Law 59)
                    assert {(b.id or "")[5:] for b in enabled} == legal
                await pilot.click(f"#{enabled[0].id}")
            else:
                await pilot.press("enter")
        assert any(line.strip() == "Deal 1" for line in app.game_console.transcript)  # the deal's score card
        await left(app, pilot)

    app = screen("--seed", "11")
    assert run(test, app) == 0
    assert any(q.startswith("Lead") for q in questions) and any(q.startswith("Play to") for q in questions)
    saved = re.search(r"Saved to (\S+)\. Carry on with: piquet play --resume --screen", talk(app))
    assert saved is not None, talk(app)[-500:]
    partie = replay(load_record(saved.group(1)))
    deal = partie.deals[0]
    assert deal.is_over and len(partie.deals) == 2
    role = partie.role(0, "A")
    mine = deal.dealt[role] | mask_of(deal.taken(role))
    assert seen and mask_of(parse_card(c) for c in seen) & ~mine == 0  # never a card of the computer's


@pytest.mark.slow
def test_the_discard_by_keys_confirmed_hint_and_quit_saving_then_resumed(data_dir: Path) -> None:
    """At the exchange: ``hint`` typed explains; the discard typed is asked before it is made (Law 24), and a
    no leaves the hand as it was; a card clicked twice leaves the answer; Ctrl+Q saves the partie and says
    where; ``piquet play --screen --resume`` carries on from there."""

    async def test(app: PiquetScreen, pilot: Pilot[int]) -> None:
        await asked(app, pilot, "Discard")
        hand = shown_cards(app)
        await typed(pilot, "hint")
        await asked(app, pilot, "Discard")
        assert re.search(r"^Hint: discard ", talk(app), re.M)
        low = hand[-3:]
        await typed(pilot, " ".join(c.lower() for c in low))
        assert await asked(app, pilot, "(y/n)") == f"Discard {' '.join(low)} and take in three? (y/n)"
        await typed(pilot, "n")
        await asked(app, pilot, "Discard (1 to 5)")
        assert shown_cards(app) == hand  # nothing was exchanged
        await pilot.click(f"#card-{low[0]}")
        await pilot.click(f"#card-{low[0]}")
        assert app.query_one("#answer", Input).value == ""
        await typed(pilot, " ".join(low))
        await asked(app, pilot, "(y/n)")
        await typed(pilot, "y")
        await asked(app, pilot, "Look at")
        assert not set(low) & set(shown_cards(app))
        await left(app, pilot)

    app = screen("--seed", "11")
    assert run(test, app) == 0
    saved = re.search(r"Saved to (\S+)\.", talk(app))
    assert saved is not None
    assert saves.last_unfinished() == Path(saved.group(1)).resolve()
    partie = replay(load_record(saved.group(1)))
    assert partie.current is not None and partie.current.discards[partie.role(0, "A")].bit_count() == 3

    kept: list[str] = []

    async def resumed(app: PiquetScreen, pilot: Pilot[int]) -> None:
        await asked(app, pilot, "Look at")
        kept.extend(shown_cards(app))
        await left(app, pilot)

    again = PiquetScreen(build_parser().parse_args(["play", "--screen", "--resume"]))
    assert run(resumed, again) == 0
    assert f"Resuming the partie saved in {saved.group(1)}" in talk(again)
    role = partie.role(0, "A")
    assert {card_name(c) for c in cards_of(partie.current.hands[role])} == set(kept)


def test_the_view_names_only_what_the_person_may_see() -> None:
    """Through whole deals between two computer players, the screen's view of seat A never names a card A may
    not see: the adversary's cards appear only when shown (called, or a carte blanche)."""
    table = TerminalTable(Console(file=None, quiet=True), {"A": "You", "B": "Computer"})
    checked = 0

    class Watch(GameListener):
        def action_applied(self, partie: Partie, seat: str, action: object) -> None:
            nonlocal checked
            obs = partie.observation("A")
            view = table_view(table, obs)
            named = mask_of(parse_card(c) for c in CARD.findall(re.sub(r"\[/?[\w ]*\]", "", view.status)))
            assert view.hand == obs.hand
            assert named & ~obs.visible_cards() == 0, (view.status, obs.to_json())
            checked += 1

    for seed in (1, 2):
        runner = PartieRunner({"A": make_player("simple", seed), "B": make_player("simple", seed + 1)}, seed,
                              listener=Watch())
        runner.run()
    assert checked > 100


def test_without_a_terminal_the_screen_plays_in_lines(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """In a pipe (CI, a screen reader's lines) ``--screen`` says it needs a terminal and plays in lines."""

    def no_more(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    assert main(["play", "--screen", "--level", "simple", "--seed", "11"]) == 0
    out = capsys.readouterr()
    assert "--screen needs a terminal; playing in lines." in out.err
    assert "Your hand:" in out.out and "Saved to" in out.out
