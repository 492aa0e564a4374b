"""The full-screen table (``piquet play --screen``): the hand as cards to click, the score beside the talk.

It is the terminal table in another dress, not another table: the partie is played by ``run_play`` with the
same runner, the same saving and ``--resume`` (``saves``), the same narrator and the same commands (help,
hint, rules, hand, score, tricks, quit); only the person's side is drawn by textual.  ``ScreenConsole`` takes
what the table prints into the talk on the right and reads the answers from the line at the bottom;
``ScreenTable`` tells the screen what the person holds and what he is choosing, so that a card clicked is put
out at the exchange, named at the calls, or played.  The partie runs in a thread of its own; the screen's
thread only draws and reads.

What is shown comes from the person's own observation (``table_view``): his hand, his discard and the cards
he took in, the cards left that he looked at, and of the computer's cards only those the laws have shown
(called good or equal, or a carte blanche; ``Observation.adversary_known``).

The lines stay the default: a screen reader reads lines, and a pipe has no screen.  Without a terminal,
``--screen`` plays in lines and says so.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import queue
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Input, RichLog, Static

from piquet.cli.terminal import TerminalTable, run_play
from piquet.core.actions import Action, Play
from piquet.core.cards import (
    DIAMONDS,
    HEARTS,
    SUIT_MASKS,
    SUIT_NAMES,
    Card,
    Mask,
    card_name,
    card_symbol,
    cards_of,
    suit_of,
)
from piquet.core.deal import Phase
from piquet.core.events import ELDER
from piquet.core.observation import Observation
from piquet.core.partie import Partie

#: What a card clicked does: nothing (the table asks a yes or no, or the computer is to play), put it in or out
#: of the answer (the exchange, the calls), or play it.
ANSWER, SELECT, PLAY = "answer", "select", "play"
_CARD = re.compile(r"(?<![\w])(?:10|[AKQJT987])[SHCD♠♥♣♦](?![\w])", re.IGNORECASE)
_EXCHANGE = (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD)


@dataclass(frozen=True)
class TableView:
    """What the screen shows of the deal: the person's hand suit by suit, and the state of the table in words
    (rich markup). Made from the person's observation only."""

    hand: Mask
    status: str


def table_view(table: TerminalTable, obs: Observation) -> TableView:
    """The screen's view of ``obs``: the hand, where the deal and the partie stand, the exchange, the tricks,
    and the adversary's cards the laws have shown (Laws 62-64: cards called are shown on demand)."""
    me, them = table.name(table.me), table.name(table.them)
    count = table.narrator.count
    lines: list[str] = []
    context = obs.partie
    if context is not None:
        s = context.scores
        if obs.rules.partie_of_games:
            lines.append(f"[bold]Game {context.game_number}[/] (a hundred up): {me} {s.get(table.me, 0)} · "
                         f"{them} {s.get(table.them, 0)}")
        else:
            lines.append(f"[bold]Deal {context.deal_number} of {context.deals_in_partie}[/] · the partie: "
                         f"{me} {s.get(table.me, 0)} · {them} {s.get(table.them, 0)}")
    elder, younger = (me, them) if obs.role == ELDER else (them, me)
    lines.append(f"Elder hand {elder} · younger hand {younger}")
    lines.append(f"This deal, as called: {me} {count[obs.role]} · {them} {count[1 - obs.role]}")
    if obs.phase in _EXCHANGE or obs.stock_left:
        lines.append(f"The stock: {obs.stock_left} cards")
    lines.extend(f"{label}: {cards}" for label, cards in table.known_cards(obs))
    won = obs.tricks_won
    if sum(won) or obs.lead >= 0:
        lines.append(f"Trick {obs.trick} · tricks won: {me} {won[obs.role]} · {them} {won[1 - obs.role]}")
    if obs.lead >= 0:
        lines.append(f"Led: {table.card(obs.lead)}")
    return TableView(obs.hand, "\n".join(lines))


# ---------------------------------------------------------------- the console the table prints to


class ScreenConsole(Console):
    """The table's console: what it prints goes to the talk on the screen (and to ``transcript``, as plain
    lines), and ``input`` waits for the line the person sends from the screen."""

    def __init__(self, app: PiquetScreen) -> None:
        super().__init__(file=io.StringIO(), width=100, highlight=False)
        self.screen_app = app
        self.transcript: list[str] = []
        self.choosing: tuple[str, frozenset[str]] = (ANSWER, frozenset())
        self.closing_from = 0  # the lines shown again in the terminal when the screen closes
        self.keep_closing = False

    def _plain(self, renderable: RenderableType) -> list[str]:
        if isinstance(renderable, Text):
            return renderable.plain.splitlines() or [""]
        out = io.StringIO()
        Console(file=out, width=100, color_system=None, highlight=False).print(renderable)
        return out.getvalue().rstrip("\n").splitlines()

    def _show(self, renderable: RenderableType) -> None:
        self.transcript.extend(self._plain(renderable))
        self.screen_app.from_game(self.screen_app.write, renderable)

    def print(self, *objects: Any, **options: Any) -> None:
        style, markup = options.get("style") or "", options.get("markup")
        if not objects:
            self._show(Text(""))
        for o in objects:
            self._show(self.render_str(o, style=style, markup=markup, highlight=False) if isinstance(o, str) else o)

    def rule(self, title: str | Text = "", **options: Any) -> None:
        self._show(Rule(self.render_str(title) if isinstance(title, str) else title))

    def input(self, prompt: str | Text = "", **options: Any) -> str:
        """Wait for the person's answer; the screen closing, or ``quit`` pressed, is the end of input."""
        text = self.render_str(prompt) if isinstance(prompt, str) else prompt
        text.rstrip()
        if text.plain.endswith("›"):
            text.right_crop(1)
            text.rstrip()
        mode, legal = self.choosing
        self.screen_app.from_game(self.screen_app.ask, text, mode, legal)
        answer = self.screen_app.next_answer()
        self.transcript.append(f"{text.plain} › {answer}")
        self.screen_app.from_game(self.screen_app.write, Text.assemble(text, (" › ", "dim"), (answer, "bold")))
        if not self.keep_closing:
            self.closing_from = len(self.transcript)
        return answer


class ScreenTable(TerminalTable):
    """The terminal table drawing on the screen: before each question it shows the person's hand and the
    state of the deal, and says what a card clicked means."""

    def __init__(self, console: Console, names: dict[str, str], **options: Any) -> None:
        super().__init__(console, names, **options)
        assert isinstance(console, ScreenConsole)
        self.screen_console = console
        self.echo = False  # the screen shows each answer beside its question

    @contextlib.contextmanager
    def choosing(self, mode: str, legal: frozenset[str] = frozenset()) -> Iterator[None]:
        before = self.screen_console.choosing
        self.screen_console.choosing = (mode, legal)
        try:
            yield
        finally:
            self.screen_console.choosing = before

    def show_view(self, obs: Observation) -> None:
        app = self.screen_console.screen_app
        app.from_game(app.show, table_view(self, obs), self.symbols)

    def choose(self, obs: Observation) -> Action:
        self.show_view(obs)
        return super().choose(obs)

    def ask_discard(self, obs: Observation, again: bool = False) -> Action:
        with self.choosing(SELECT):
            return super().ask_discard(obs, again)

    def ask_declaration(self, obs: Observation, category: int, again: bool = False) -> Action:
        with self.choosing(SELECT):
            return super().ask_declaration(obs, category, again)

    def ask_play(self, obs: Observation, again: bool = False) -> Action:
        legal = frozenset(card_name(a.card) for a in obs.legal_actions() if isinstance(a, Play))
        with self.choosing(PLAY, legal):
            return super().ask_play(obs, again)

    def confirm(self, question: str, help_lines: Sequence[tuple[str, str]] = ()) -> bool:
        with self.choosing(ANSWER):
            return super().confirm(question, help_lines)

    def cut(self, cut_a: Card, cut_b: Card, winner: str) -> None:
        self.screen_console.keep_closing = False  # a new partie: its end is what the terminal shows again
        super().cut(cut_a, cut_b, winner)

    def deal_started(self, partie: Partie) -> None:
        super().deal_started(partie)
        self.show_view(partie.observation(self.me))

    def action_applied(self, partie: Partie, seat: str, action: Action) -> None:
        super().action_applied(partie, seat, action)
        self.show_view(partie.observation(self.me))

    def partie_finished(self, partie: Partie) -> None:
        self.screen_console.keep_closing = True
        self.screen_console.closing_from = len(self.screen_console.transcript)
        super().partie_finished(partie)


# ---------------------------------------------------------------- the screen


class PiquetScreen(App[int]):
    """The table on the screen: the hand and the state of the deal on the left, the talk on the right, the
    question and the answer line below. The partie is played by ``run_play`` in a thread of its own."""

    TITLE = "Piquet"
    CSS = """
    #table { width: 46; padding: 0 1; }
    #status { height: auto; margin-bottom: 1; }
    #hand { height: auto; }
    .suit { height: 1; margin-bottom: 1; }
    .suit-name { width: 9; }
    .card { min-width: 6; width: 6; margin: 0; }
    #talk { border-left: solid $primary; }
    #prompt { height: auto; padding: 0 1; text-style: bold; }
    #answer-row { height: 3; }
    #answer { width: 1fr; }
    #send { width: 10; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "word('help')", "Help"),
        Binding("f2", "word('hint')", "Hint"),
        Binding("f3", "word('score')", "Score"),
        Binding("f4", "word('tricks')", "Tricks"),
        Binding("f5", "word('hand')", "Hand"),
        Binding("ctrl+q", "leave", "Quit (saved)", priority=True),
        Binding("ctrl+c", "leave", "Quit (saved)", show=False, priority=True),
    ]

    def __init__(self, ns: argparse.Namespace) -> None:
        super().__init__()
        self.ns = ns
        self.game_console = ScreenConsole(self)
        self.answers: queue.Queue[str | None] = queue.Queue()
        self.closed = threading.Event()
        self.mode, self.legal = ANSWER, frozenset[str]()
        self.waiting = False  # a question is put to the person
        self.question = ""  # the question put, in plain words (the tests read it)
        self.view: TableView | None = None
        self.symbols = False
        self.code = 0
        self.game = threading.Thread(target=self._play, name="piquet-partie", daemon=True)

    def compose(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="table"):
                yield Static("The cut and the choice of deal.", id="status")
                yield Vertical(id="hand")
            yield RichLog(id="talk", wrap=True, min_width=40)
        yield Static("", id="prompt")
        with Horizontal(id="answer-row"):
            yield Input(placeholder="cards (click them) or a command: help, hint, rules, score, tricks, quit",
                        id="answer")
            yield Button("Send", id="send", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#answer", Input).focus()
        self.game.start()

    def on_unmount(self) -> None:
        self.closed.set()
        self.answers.put(None)

    # ------------------------------------------------------------ the game's thread

    def _play(self) -> None:
        try:
            code = run_play(self.ns, console=self.game_console, table_class=ScreenTable)
        except Exception as e:  # a fault of the table: shown in the terminal when the screen closes
            self.game_console.transcript.append(f"The table failed: {type(e).__name__}: {e}")
            self.game_console.closing_from = min(self.game_console.closing_from, len(self.game_console.transcript) - 1)
            code = 1
        self.code = code
        self.from_game(self.exit, code)

    def from_game(self, callback: Any, *args: Any) -> None:
        """Run ``callback`` on the screen's thread, unless the screen has closed."""
        if self.closed.is_set():
            return
        with contextlib.suppress(RuntimeError):  # the screen closed meanwhile
            self.call_from_thread(callback, *args)

    def next_answer(self) -> str:
        """The next line the person sends; the end of input once the screen closes or he quits."""
        answer = self.answers.get()
        if answer is None:
            raise EOFError
        return answer

    # ------------------------------------------------------------ drawing, on the screen's thread

    def write(self, renderable: RenderableType) -> None:
        self.query_one("#talk", RichLog).write(renderable)

    def ask(self, prompt: Text, mode: str, legal: frozenset[str]) -> None:
        self.question, self.mode, self.legal, self.waiting = prompt.plain, mode, legal, True
        self.query_one("#prompt", Static).update(prompt)
        self.query_one("#answer", Input).focus()
        self._mark_cards()

    async def show(self, view: TableView, symbols: bool) -> None:
        self.view, self.symbols = view, symbols
        self.query_one("#status", Static).update(Text.from_markup(view.status))
        hand = self.query_one("#hand", Vertical)
        await hand.remove_children()
        rows = []
        for suit, mask in zip(SUIT_NAMES, SUIT_MASKS, strict=True):
            held = cards_of(view.hand & mask)
            if held:
                buttons = [Button(self._label(c), id=f"card-{card_name(c)}", classes="card", compact=True)
                           for c in held]
                rows.append(Horizontal(Static(suit.capitalize(), classes="suit-name"), *buttons, classes="suit"))
        await hand.mount_all(rows)
        self._mark_cards()

    def _label(self, c: Card) -> Text:
        name = card_symbol(c) if self.symbols else card_name(c)
        return Text(name, style="bold red" if suit_of(c) in (HEARTS, DIAMONDS) else "bold")

    def _mark_cards(self) -> None:
        """Cards that may be clicked now are enabled; those named in the answer line are highlighted."""
        named = {_canonical(m) for m in _CARD.findall(self.query_one("#answer", Input).value)}
        for button in self.query(".card").results(Button):
            name = (button.id or "").removeprefix("card-")
            button.disabled = not self.waiting or self.mode == ANSWER or (self.mode == PLAY and name not in self.legal)
            button.variant = "warning" if name in named and self.mode == SELECT else "default"

    # ------------------------------------------------------------ the person's input

    def send(self, text: str) -> None:
        """Send a line to the table, as if typed at its prompt."""
        self.waiting = False
        self.query_one("#prompt", Static).update(Text(f"{self.question} › {text}", style="dim"))
        self.query_one("#answer", Input).value = ""
        self.answers.put(text)
        self._mark_cards()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.send(event.value)

    def on_input_changed(self, event: Input.Changed) -> None:
        self._mark_cards()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        answer = self.query_one("#answer", Input)
        if event.button.id == "send":
            self.send(answer.value)
            return
        name = (event.button.id or "").removeprefix("card-")
        if self.mode == PLAY:
            self.send(name)
            return
        words = [w for w in answer.value.split() if _canonical(w) != name]
        if len(words) == len(answer.value.split()):
            words.append(name)
        answer.value = " ".join(words)
        answer.focus()

    def action_word(self, word: str) -> None:
        self.send(word)

    def action_leave(self) -> None:
        """Quit: the table saves the partie and says where; the screen closes when it has."""
        if self.game.is_alive():
            self.answers.put(None)
            self.waiting = False
            self.query_one("#prompt", Static).update(Text("Saving the partie…", style="dim"))
        else:
            self.exit(self.code)


def _canonical(word: str) -> str:
    """A card as the buttons name it: ``10h`` and ``TH`` are ``10H``; a suit symbol is its letter."""
    w = word.upper().replace("♠", "S").replace("♥", "H").replace("♣", "C").replace("♦", "D")
    return "10" + w[1:] if w.startswith("T") else w


def run_screen(ns: argparse.Namespace) -> int:
    """``piquet play --screen``: the partie on the full-screen table; without a terminal, in lines. When the
    screen closes, the terminal shows how it ended (where the partie is saved, or the settlement)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("piquet play: --screen needs a terminal; playing in lines.", file=sys.stderr)
        return run_play(ns)
    app = PiquetScreen(ns)
    app.run()
    return finish(app)


def finish(app: PiquetScreen) -> int:
    """After the screen: let the partie's thread save, then print its last words; the command's exit code."""
    app.closed.set()
    app.answers.put(None)
    app.game.join(timeout=60)
    console = app.game_console
    for line in console.transcript[console.closing_from:]:
        print(line)
    return app.code


__all__ = ["ANSWER", "PLAY", "SELECT", "PiquetScreen", "ScreenConsole", "ScreenTable", "TableView", "finish",
           "run_screen", "table_view"]
