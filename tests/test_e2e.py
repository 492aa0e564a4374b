"""The web table end to end, in a real browser: Debian's chromium driven by Playwright.

What is shown, by clicking in the pages as a player would (no test sends a websocket message itself):

* a whole rubicon partie against the computer, from the lobby: every exchange (cards clicked, then
  "Discard"), every look or refusal, every declaration (the usual one, sinking it, or one picked from
  the list of every declaration) and every card played; "Your discard" shows the cards discarded and
  taken in; a reload in the middle of a deal brings back the same version, phase and hand; at the end
  the score card has one row per deal, its totals are the server's, and the record downloaded from the
  page replays through the engine to the same scores;
* two browsers, a desktop and a phone-sized one, playing a four-deal partie against each other through the
  invite link, ending on the same score card and settlement; at every state, neither page holds a card of the
  other's hand (only backs, as many as he holds);
* a table link with a wrong token, or with none, says why plainly and does not keep reconnecting;
* two persons' pages before the first deal: the winner of the cut lets the other deal, who is offered twos or
  threes (Law 9) and deals by threes, neither page holding a card until then;
* a partie of Piquet au cent with both agreements against the computer, from the lobby: no choice of deal
  (the lower cut deals), "Keep all" for the younger, the calls in the game's words (sets named with no cards
  drawn), the game's score and the games won in the bar, a game won and the next begun at nothing, the score
  card of each game's deals and result, the settlement by games, the record with its agreements;
* a partie of chouette (p. 106) by three browsers, one phone-sized, from the lobby: the cut of three, the
  adviser suggesting by clicking and the player seeing the suggestion ringed and following it or not, the
  single player never shown the pair's cards or suggestion, a reload, the chouette card and the rotation at
  the end, the settlement at a stake, the next partie in the new places.

Screenshots of each phase are saved to ``artefacts/e2e/`` (``NN-phase.png``, and ``FAILED-<test>.png``
when a wait fails). The tests need ``/usr/bin/chromium`` (``apt-get install chromium``; no browser is
downloaded) and the ``playwright`` package: without them they are skipped, or they fail when
``PIQUET_E2E_REQUIRED=1`` (as CI sets it).
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

from piquet.core.cards import card_words, parse_card
from piquet.records.record import PartieRecord, replay

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Position, ViewportSize

REQUIRED = os.environ.get("PIQUET_E2E_REQUIRED") == "1"
CHROMIUM = Path("/usr/bin/chromium")
INSTALL_CHROMIUM = ("install Debian's chromium (sudo apt-get install chromium); the tests drive /usr/bin/chromium "
                    "and never download a browser (do not run `playwright install`)")
INSTALL_PLAYWRIGHT = "install the playwright package: .venv/bin/pip install -e '.[test]'"

if not REQUIRED:
    pytest.importorskip("playwright.sync_api", reason=f"the playwright package is missing: {INSTALL_PLAYWRIGHT}")

# One worker runs them all (pytest -n): one browser and one server for the module, and the screenshots numbered
# in one sequence in one folder.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parent.parent
ARTEFACTS = ROOT / "artefacts" / "e2e"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
#: Any one wait: a move of the table (the computer answers at once with --pace 0), a page load, a click.
WAIT_MS = 20_000
SERVER_START_S = 30.0
#: The partie the two browsers play: the four-deal one (its first and last deals count double), which also
#: covers the other rules and takes about 50 s here; a rubicon partie between two pages takes about 80 s.
PERSON_RULES = "four-deal"
#: At most this many moves of one page in a partie: a partie that does not end fails instead of hanging.
MAX_MOVES = 1500
#: Where a card is clicked: near its left edge, the part still visible when the cards overlap on a phone.
CARD_SPOT: Position = {"x": 8, "y": 30}

TABLE_JS = "document.querySelector('[data-testid=table]')"


def _missing(reason: str) -> NoReturn:
    if REQUIRED:
        pytest.fail(f"{reason} (PIQUET_E2E_REQUIRED=1)", pytrace=False)
    pytest.skip(reason)


def _safe(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name).strip("_")


# ---------------------------------------------------------------- the server


class Server:
    """One ``piquet serve`` subprocess on a free port, with its own SQLite file and log."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port: int = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / "serve.log"
        script = Path(sys.executable).parent / "piquet"  # the console script of the venv running the tests
        command = [str(script)] if script.exists() else [
            sys.executable, "-c", "import sys; from piquet.cli.main import main; sys.exit(main())"]
        command += ["serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", str(folder / "tables.db"),
                    "--pace", "0", "--log-level", "warning"]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=folder)

    def wait_up(self) -> None:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"piquet serve exited with code {self.proc.returncode}:\n{self.tail()}", pytrace=False)
            try:
                with urllib.request.urlopen(self.base + "/", timeout=2) as r:
                    if r.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"piquet serve did not answer GET / within {SERVER_START_S:.0f} s:\n{self.tail()}",
                            pytrace=False)
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def tail(self, lines: int = 40) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:]) or "(the server log is empty)"

    def state(self) -> str:
        code = self.proc.poll()
        return "running" if code is None else f"exited with code {code}"

    def get_json(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.load(r)

    def post_json(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def table_row(self, table_id: str, token: str, api: str = "/api/tables") -> dict[str, Any]:
        """The table as its holder's lobby lists it (``POST /api/tables/mine`` with the seat's token)."""
        rows = self.post_json(f"{api}/mine", {"seats": [{"table": table_id, "token": token}]})
        assert len(rows) == 1 and rows[0]["table"] == table_id, f"{api}/mine lists table {table_id}: {rows}"
        row: dict[str, Any] = rows[0]
        return row


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("e2e-server"))
    try:
        srv.wait_up()
        yield srv
    finally:
        srv.stop()


# ---------------------------------------------------------------- the browser and the screenshots


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        _missing(f"Debian's chromium is not installed ({CHROMIUM} is missing): {INSTALL_CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing(f"the playwright package is missing: {INSTALL_PLAYWRIGHT}")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


@contextmanager
def touch_page(folder: Path, viewport: ViewportSize = PHONE) -> Iterator[tuple[Server, Page, list[str]]]:
    """A server of its own (run in ``folder``) and a touch page of ``viewport``'s size in Debian's chromium, taking
    downloads, with the page's script errors collected; everything is closed after."""
    if not CHROMIUM.exists():
        _missing(f"Debian's chromium is not installed ({CHROMIUM} is missing): {INSTALL_CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing(f"the playwright package is missing: {INSTALL_PLAYWRIGHT}")
    srv = Server(folder)
    pw = sync_playwright().start()
    try:
        srv.wait_up()
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, timeout=60_000)
        try:
            ctx = b.new_context(viewport=viewport, is_mobile=True, has_touch=True, accept_downloads=True)
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.set_default_timeout(WAIT_MS)
            yield srv, page, errors
            ctx.close()
        finally:
            b.close()
    finally:
        pw.stop()
        srv.stop()


class Shots:
    """The screenshots of the run, numbered in the order taken: ``artefacts/e2e/NN-phase.png``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.taken: list[Path] = []

    def take(self, page: Page, phase: str, *, testid: str | None = None) -> Path:
        path = self.folder / f"{len(self.taken) + 1:02d}-{_safe(phase)}.png"
        if testid:
            page.get_by_test_id(testid).screenshot(path=str(path))
        else:
            page.screenshot(path=str(path), full_page=True)
        self.taken.append(path)
        return path


@pytest.fixture(scope="module")
def shots(request: pytest.FixtureRequest) -> Iterator[Shots]:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTEFACTS.glob("*.png"):
        old.unlink()
    s = Shots(ARTEFACTS)
    yield s
    message = f"e2e screenshots ({len(s.taken)} taken): {ARTEFACTS}"
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line(message)
    else:
        print(message)


# ---------------------------------------------------------------- a page, and a test's pages


class Player:
    """One page at the table, with the errors it logged."""

    def __init__(self, run: Run, page: Page, label: str) -> None:
        self.run = run
        self.page = page
        self.label = label
        self.page_errors: list[str] = []
        self.console: list[str] = []
        self.sockets: list[str] = []
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning")
                else None)
        page.on("websocket", lambda ws: self.sockets.append(ws.url))
        # What this page has done in the current deal, to check the discard panel against.
        self.discarded: set[str] = set()
        self.before_discard: set[str] = set()

    # -- reading the page

    def state(self) -> dict[str, str]:
        """The table's data-* attributes: version, phase, myTurn, status, seat, pending."""
        out: dict[str, str] = self.page.evaluate(f"() => ({{...{TABLE_JS}.dataset}})")
        return out

    def snapshot(self) -> dict[str, Any]:
        """In one read: the table's attributes, the choices shown, and whether the page makes forced moves.

        A forced move (one card to follow suit, or nothing to declare) is made by the page itself after a
        moment when "Make forced moves for me" is on, so the page can move between two separate reads.
        """
        out: dict[str, Any] = self.page.evaluate(f"""() => {{
            const t = {TABLE_JS}, has = (id) => Boolean(document.querySelector(`[data-testid="${{id}}"]`));
            return {{...t.dataset, auto: document.querySelector('[data-testid=auto-forced]').checked,
                     legal: [...document.querySelectorAll('[data-testid^="play-card-"]')].map(e => e.dataset.card),
                     forcedPlay: has('play-forced'), allOptions: has('all-options'), none: has('declare-none')}};
        }}""")
        return out

    def forced_pending(self, snap: dict[str, Any]) -> bool:
        """A forced move that the page makes by itself is shown."""
        return bool(snap["auto"]) and (snap["forcedPlay"] or (snap["none"] and not snap["allOptions"]))

    def hand(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all("[data-testid=hand] > [data-card]",
                                                          "els => els.map(e => e.dataset.card)")
        return cards

    def testids(self, prefix: str) -> set[str]:
        ids: list[str] = self.page.eval_on_selector_all(f"[data-testid^='{prefix}']",
                                                        "els => els.map(e => e.dataset.testid)")
        return {i[len(prefix):] for i in ids}

    def text(self, testid: str) -> str:
        return self.page.get_by_test_id(testid).inner_text().strip()

    def deal_number(self) -> int:
        m = re.match(r"Deal (\d+) of (\d+)", self.text("deal-number"))
        assert m, f"{self.label}: the bar does not say which deal this is: {self.text('deal-number')!r}"
        return int(m.group(1))

    def auto_on(self) -> bool:
        return self.page.get_by_test_id("auto-forced").is_checked()

    def score_card(self) -> list[tuple[str, int, int]]:
        """The score card's rows: (deal, this seat's score, the adversary's)."""
        rows: list[dict[str, Any]] = self.page.eval_on_selector_all(
            "[data-testid=score-card] tbody tr",
            "trs => trs.map(tr => ({deal: tr.dataset.deal || null, cells: [...tr.cells].map(c => c.textContent)}))")
        out = []
        for r in rows:
            assert r["deal"], f"{self.label}: a score card row without data-deal at the end: {r['cells']}"
            out.append((r["deal"], int(r["cells"][2]), int(r["cells"][3])))
        return out

    def totals(self) -> tuple[int, int]:
        return int(self.text("score-card-mine")), int(self.text("score-card-theirs"))

    # -- waiting, with a timeout and the page's errors when it runs out

    def wait(self, predicate: str, what: str, timeout: float = WAIT_MS, arg: Any = None) -> None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(predicate, arg=arg, timeout=timeout)
        except PlaywrightTimeout:
            self.run.fail(f"{self.label}: timed out after {timeout / 1000:.0f} s waiting for {what}")

    def wait_ready(self) -> dict[str, str]:
        self.wait(f"() => {TABLE_JS}.dataset.version !== ''", "the table's first state")
        return self.state()

    def wait_turn(self) -> dict[str, str]:
        self.wait(f"() => {{ const t = {TABLE_JS}; return t.dataset.status === 'finished' "
                  "|| (t.dataset.myTurn === 'true' && t.dataset.pending === 'false'); }",
                  "this seat's turn (data-my-turn=true, data-pending=false) or the end of the partie")
        return self.state()

    def wait_moved(self, version: str, what: str) -> dict[str, str]:
        self.wait(f"(v) => {TABLE_JS}.dataset.version !== v || !document.querySelector('[data-testid=error]').hidden",
                  f"the table to move on from version {version} after {what}", arg=version)
        if self.page.get_by_test_id("error").is_visible():
            self.run.fail(f"{self.label}: the server refused {what}: {self.text('error-text')}")
        return self.state()


class Run:
    """The pages of one test, its screenshots, and what a failure reports."""

    def __init__(self, name: str, browser: Browser, server: Server, shots: Shots) -> None:
        self.name = _safe(name)
        self.browser = browser
        self.server = server
        self.shots = shots
        self.players: list[Player] = []
        self.contexts: list[BrowserContext] = []

    def player(self, label: str, viewport: ViewportSize = DESKTOP) -> Player:
        phone = viewport["width"] < 500
        ctx = self.browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone, accept_downloads=True,
                                       device_scale_factor=2 if phone else 1)
        ctx.set_default_timeout(WAIT_MS)
        ctx.set_default_navigation_timeout(WAIT_MS)
        self.contexts.append(ctx)
        p = Player(self, ctx.new_page(), label)
        self.players.append(p)
        return p

    def close(self) -> None:
        for ctx in self.contexts:
            with suppress(Exception):  # the browser may be gone already; the test's own failure says why
                ctx.close()

    def fail(self, message: str) -> NoReturn:
        """Fail the test with screenshots of every page, their console errors and the server's log."""
        notes = [message]
        for i, p in enumerate(self.players):
            path = ARTEFACTS / (f"FAILED-{self.name}.png" if i == 0 else f"FAILED-{self.name}-{p.label}.png")
            notes.append(f"--- page {p.label}: {p.page.url}")
            try:
                ARTEFACTS.mkdir(parents=True, exist_ok=True)
                p.page.screenshot(path=str(path), full_page=True, timeout=10_000)
                notes.append(f"screenshot: {path}")
                notes.append(f"table: {p.state()}")
                notes.append(f"status line: {p.text('status')!r}")
            except Exception as e:  # the page may be closed or hung: say so and go on
                notes.append(f"(could not read the page: {type(e).__name__}: {e})")
            notes.append(f"page errors: {p.page_errors or 'none'}")
            notes.append(f"console errors and warnings: {p.console[-20:] or 'none'}")
        notes.append(f"--- the server ({self.server.state()}), the end of its log:\n{self.server.tail()}")
        pytest.fail("\n".join(notes), pytrace=False)

    @contextmanager
    def guard(self) -> Iterator[None]:
        """Any failure inside (an assertion, a click that timed out) is reported as ``fail`` reports it."""
        try:
            yield
        except Exception as e:
            self.fail(f"{type(e).__name__}: {e}")

    def assert_no_page_errors(self) -> None:
        errors = {p.label: p.page_errors for p in self.players if p.page_errors}
        if errors:
            self.fail(f"uncaught errors in the page: {errors}")


@pytest.fixture
def run(request: pytest.FixtureRequest, browser: Browser, server: Server, shots: Shots) -> Iterator[Run]:
    r = Run(request.node.name, browser, server, shots)
    try:
        yield r
    finally:
        r.close()


# ---------------------------------------------------------------- playing a turn by clicking


class Mover:
    """Makes one seat's choices by clicking, varied by a seeded random generator, and counts what it did."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.did: Counter[str] = Counter()

    def move(self, p: Player, st: dict[str, str], shot: str | None = None) -> str:
        """Make this seat's move in the state ``st`` (its turn, nothing pending); say what was done.

        ``shot``: the name of a screenshot to take in the exchange, once the cards to discard are selected.
        """
        page = p.page
        phase = st["phase"]
        snap = p.snapshot()
        if snap["version"] != st["version"]:
            assert snap["auto"], f"{p.label}: the table moved from {st} to {snap} by itself"
            self.did["auto"] += 1
            return "a forced move, made by the page"
        if p.forced_pending(snap):
            # Left to the page, which makes it after a moment; a click now could race with it.
            self.did["auto"] += 1
            return "a forced move, left to the page"
        if phase.endswith("_discard"):
            return self.discard(p, phase, shot)
        if phase.endswith("_look"):
            choice = self.rng.choice(["look-yes", "look-no"])
            page.get_by_test_id(choice).click()
            self.did[choice] += 1
            return choice
        if phase == "play":
            return self.play(p, snap)
        if phase.endswith(("_point", "_sequences", "_sets")):
            return self.declare(p, phase, snap)
        if phase == "cut":  # the winner of the cut chooses whether to deal (Law 4), the dealer how (Law 9)
            which = page.evaluate("() => window.piquetTable.state.view.choice || 'deal'")
            made = ["deal-yes", "deal-yes-3", "deal-no"] if which == "deal" else ["deal-by-2", "deal-by-3"]
            if any(self.did[c] for c in made):
                p.run.fail(f"{p.label}: the choice ({which}) was made, and the table is still at it, this seat "
                           f"to choose again: {p.state()}")
            choice = self.rng.choice(made)
            page.get_by_test_id(choice).click()
            self.did[choice] += 1
            return choice
        p.run.fail(f"{p.label}: an unexpected phase at this seat's turn: {phase!r}")

    def discard(self, p: Player, phase: str, shot: str | None) -> str:
        page = p.page
        option = page.evaluate("() => (window.piquetTable.state.view.options || [])"
                               ".find(o => o.kind === 'discard') || null")
        assert option, f"{p.label}: no discard option at {phase}"
        hand = p.hand()
        assert len(hand) == 12, f"{p.label}: {len(hand)} cards in hand before the exchange"
        k = self.rng.randint(max(1, option["min"]), option["max"])
        cards = self.rng.sample(hand, k)
        for c in cards:
            card = page.get_by_test_id(f"card-{c}")
            card.click(position=CARD_SPOT)
            assert card.get_attribute("aria-pressed") == "true", f"{p.label}: {c} was clicked but is not selected"
        button = page.get_by_test_id("discard-button")
        assert button.is_enabled(), f"{p.label}: the discard button is disabled with {k} cards selected"
        if shot:
            p.run.shots.take(page, shot)
        p.before_discard, p.discarded = set(hand), set(cards)
        button.click()
        confirm_exchange(page, cards)
        self.did[f"discard-{k}"] += 1
        return f"discard {' '.join(sorted(cards))}"

    def declare(self, p: Player, phase: str, snap: dict[str, Any]) -> str:
        page = p.page
        category = phase.rsplit("_", 1)[1]
        if not snap["allOptions"]:
            # Nothing to declare in this category: the one choice is "Go on" (declare-none).
            assert snap["none"], f"{p.label}: no declaration offered at {phase}"
            page.get_by_test_id("declare-none").click()
            self.did["go-on"] += 1
            return "go on (nothing to declare)"
        kinds = ["declare-usual", "option"]
        if snap["none"]:
            kinds.append("declare-none")
        least = min(self.did[k] for k in kinds)
        kind = self.rng.choice([k for k in kinds if self.did[k] == least])
        self.did[kind] += 1
        if kind == "declare-usual":
            page.get_by_test_id(f"declare-{category}").click()
            return f"declare-{category}"
        if kind == "declare-none":
            page.get_by_test_id("declare-none").click()
            return "declare-none (sink)"
        page.get_by_test_id("all-options").locator("summary").click()
        n = page.locator("[data-testid^=option-]").count()
        assert n >= 2, f"{p.label}: the list of every declaration has {n} entries at {phase}"
        i = self.rng.randrange(n)
        page.get_by_test_id(f"option-{i}").click()
        return f"option-{i} of {n}"

    def play(self, p: Player, snap: dict[str, Any]) -> str:
        page = p.page
        legal = sorted(snap["legal"])
        assert legal, f"{p.label}: the play, this seat's turn, and no card may be played"
        if snap["forcedPlay"]:
            assert len(legal) == 1, f"{p.label}: a forced play with {len(legal)} playable cards"
            if self.rng.random() < 0.5:
                page.get_by_test_id("play-forced").click()
                self.did["play-forced"] += 1
                return f"play-forced {legal[0]}"
        card = self.rng.choice(legal)
        page.get_by_test_id(f"play-card-{card}").click(position=CARD_SPOT)
        self.did["play"] += 1
        return f"play {card}"


def confirm_exchange(page: Page, cards: list[str]) -> None:
    """Answer yes to the page's question before the exchange (Law 24), having checked that it names ``cards``; an
    adviser's suggestion at chouette is sent unasked (it touches no stock)."""
    if page.evaluate("() => Boolean(window.piquetTable.state.view.suggesting)"):
        assert page.get_by_test_id("exchange-question").count() == 0
        return
    question = page.get_by_test_id("exchange-question").inner_text()
    named = re.fullmatch(r"Discard (.+) and take in [a-z]+\?", question)
    assert named and sorted(named.group(1).split()) == sorted(cards), question
    page.get_by_test_id("confirm-exchange").click()


def check_discard_panel(p: Player) -> None:
    """Open "Your discard" in the calling (after the exchange, before any card is played) and compare."""
    page = p.page
    page.get_by_test_id("my-discard-button").click()
    panel = page.get_by_test_id("my-discard")
    assert panel.is_visible(), f"{p.label}: 'Your discard' did not open"
    shown = p.testids("discard-card-")
    assert shown == p.discarded, f"{p.label}: the discard panel shows {sorted(shown)}, discarded {sorted(p.discarded)}"
    taken = set(p.hand()) - (p.before_discard - p.discarded)
    shown_taken = p.testids("taken-card-")
    assert shown_taken == taken, f"{p.label}: the panel shows {sorted(shown_taken)} taken in, the hand {sorted(taken)}"
    p.run.shots.take(page, "my-discard")
    page.get_by_test_id("close-my-discard").click()
    assert panel.is_hidden(), f"{p.label}: 'Your discard' did not close"


def check_reload(p: Player) -> None:
    """Reload the page mid-deal: the table comes back at the same version and phase, with the same hand."""
    before, hand, deal = p.state(), sorted(p.hand()), p.deal_number()
    p.page.reload()
    after = p.wait_ready()
    assert (after["version"], after["phase"], after["myTurn"]) == (before["version"], before["phase"], "true"), \
        f"{p.label}: after a reload the table is {after}, it was {before}"
    assert sorted(p.hand()) == hand, f"{p.label}: after a reload the hand is {sorted(p.hand())}, it was {hand}"
    assert p.deal_number() == deal
    assert p.page.get_by_test_id("connection").inner_text() == "Connected"


def download_record(p: Player) -> PartieRecord:
    with p.page.expect_download(timeout=WAIT_MS) as info:
        p.page.get_by_test_id("download-record").click()
    path = info.value.path()
    return PartieRecord.from_json(Path(path).read_text(encoding="utf-8"))


def check_finish(p: Player, row: dict[str, Any]) -> tuple[PartieRecord, list[tuple[str, int, int]]]:
    """The end as the page shows it, against the server's list of tables and the record it downloads."""
    seat = p.state()["seat"]
    other = "B" if seat == "A" else "A"
    assert p.page.get_by_test_id("finish").is_visible(), f"{p.label}: the partie is over and 'finish' is hidden"
    settlement = p.text("settlement")
    assert settlement, f"{p.label}: the settlement is empty"
    assert row["status"] == "finished", f"the server lists the table as {row['status']!r}"
    card = p.score_card()
    assert p.totals() == (row["scores"][seat], row["scores"][other]), \
        f"{p.label}: the score card's totals {p.totals()} are not the server's {row['scores']}"
    record = download_record(p)
    partie = replay(record)
    assert partie.is_finished, "the downloaded record replays to an unfinished partie"
    assert dict(partie.scores) == row["scores"], \
        f"the record replays to {partie.scores}, the server has {row['scores']}"
    assert len(card) == len(partie.deals), f"{p.label}: {len(card)} rows on the score card, {len(partie.deals)} deals"
    assert len(card) >= partie.rules.deals
    for i, (deal, mine, theirs) in enumerate(card):
        score = partie.deal_score(i)
        assert (deal, mine, theirs) == (str(i + 1), score[seat], score[other]), \
            f"{p.label}: score card row {i + 1} reads {(deal, mine, theirs)}; the record says {score}"
    s = partie.settlement()
    headline = p.page.get_by_test_id("finish").locator("h2").inner_text()
    if s.winner is None:
        assert headline == "The partie is drawn.", headline
    else:
        assert headline == ("You win the partie." if s.winner == seat else f"{row['players'][s.winner]} wins the "
                            "partie."), f"{p.label}: the headline {headline!r}; the record's winner is {s.winner}"
        assert row["players"][s.winner] in settlement, f"{p.label}: the settlement does not name the winner"
    return record, card


# ---------------------------------------------------------------- the tests


def test_a_whole_partie_against_the_computer(run: Run) -> None:
    server, shots = run.server, run.shots
    p = run.player("ann")
    page = p.page
    mover = Mover(seed=5)
    with run.guard():
        page.goto(server.base + "/")
        page.get_by_test_id("name-input").fill("Ann")
        page.get_by_test_id("level-select").select_option("simple")
        page.get_by_test_id("rules-select").select_option("rubicon")
        page.get_by_test_id("new-computer-game").click()
        page.wait_for_url(re.compile(r"/t/[^/?#]+#token="))
        table_id, token = page.url.split("/t/")[1].split("#token=")
        first = p.wait_ready()
        assert first["status"] == "playing" and first["seat"] == "A", first
        assert p.text("opponent-name") == "Computer (simple)"
        assert p.text("my-name") == "You (Ann)"
        assert len(p.hand()) == (0 if first["phase"] == "cut" else 12), first

        shot: set[str] = set()
        deals: list[int] = []
        checked_discard = reloaded = False
        for _ in range(MAX_MOVES):
            st = p.wait_turn()
            if st["status"] == "finished":
                break
            phase = st["phase"]
            if phase == "cut":
                shots.take(page, "cut")  # once: a second time fails in the move
                p.wait_moved(st["version"], mover.move(p, st))
                continue
            deal = p.deal_number()
            if not deals or deals[-1] != deal:
                assert deal == len(deals) + 1, f"deal {deal} follows deal {deals[-1] if deals else None}"
                deals.append(deal)
                if deal == 2:
                    # The end of the first deal, as the page tells it: its scores and how it ended.
                    last = page.get_by_test_id("last-deal")
                    if last.get_attribute("open") is None:
                        last.locator("summary").click()
                    assert page.get_by_test_id("last-deal-scores").is_visible()
                    assert p.text("last-deal").startswith("Deal 1: how it ended")
                    shots.take(page, "deal-end")
                p.discarded = set()
            snap = p.snapshot()
            settled = snap["version"] == st["version"] and not p.forced_pending(snap)  # the page waits for us
            if settled and snap["allOptions"] and p.discarded and not checked_discard:
                check_discard_panel(p)
                checked_discard = True
            if settled and phase == "play" and deal >= 2 and len(snap["legal"]) > 1 and len(p.hand()) <= 9 \
                    and not reloaded:
                check_reload(p)
                reloaded = True
            exchange_shot = None
            if phase not in shot and (phase.endswith(("_discard", "_look", "_point")) or phase == "play"):
                shot.add(phase)
                if phase.endswith("_discard"):
                    exchange_shot = phase  # taken once the cards to discard are selected
                else:
                    shots.take(page, phase)
            what = mover.move(p, st, exchange_shot)
            p.wait_moved(st["version"], what)
        else:
            run.fail(f"the partie did not end within {MAX_MOVES} moves")

        shots.take(page, "finished")
        shots.take(page, "score-card", testid="score-card")
        assert checked_discard and reloaded, (checked_discard, reloaded)
        for kind in ("declare-usual", "declare-none", "option", "play"):
            assert mover.did[kind] > 0, f"no {kind} was made in the whole partie: {mover.did}"
        assert {"elder_discard", "younger_discard"} <= shot, shot
        row = server.table_row(table_id, token)
        record, card = check_finish(p, row)
        assert len(card) == len(deals), f"{len(deals)} deals played, {len(card)} rows on the score card"
        assert record.players == row["players"]
        run.assert_no_page_errors()


def _synced(run: Run, players: list[Player]) -> list[dict[str, str]]:
    """Both pages at the same version, nothing pending, and someone to move (or the partie over)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        states = [p.state() for p in players]
        if len({s["version"] for s in states}) == 1 and states[0]["version"] != "" \
                and all(s["pending"] == "false" for s in states) \
                and (any(s["myTurn"] == "true" for s in states) or all(s["status"] == "finished" for s in states)):
            return states
        if time.monotonic() > deadline:
            run.fail(f"the two pages did not come to the same state within {WAIT_MS / 1000:.0f} s: {states}")
        time.sleep(0.03)


def check_hidden(owner: Player, other: Player, problems: list[str]) -> int:
    """No card of ``owner``'s hand is in ``other``'s page, whose adversary shows only backs.

    A card shown fails at once; a number of backs that is not the number of cards held is added to
    ``problems`` (the partie goes on, to check the rest).
    """
    hand = owner.hand()
    seen = other.page.evaluate(
        """(cards) => {
            // Every card face drawn carries data-card. Not counted: the last deal's summary (another deal).
            const faces = [...document.querySelectorAll('[data-card]')]
                .filter(e => !e.closest('[data-testid=last-deal]')).map(e => e.dataset.card);
            const found = cards.filter(c => faces.includes(c));
            for (const c of cards) {
                for (const id of [`card-${c}`, `play-card-${c}`, `discard-card-${c}`, `taken-card-${c}`,
                                  `trick-card-${c}`, `last-trick-card-${c}`]) {
                    if (document.querySelector(`[data-testid="${id}"]`)) found.push(id);
                }
            }
            const backs = document.querySelector('[data-testid=opponent-hand]');
            return {found, backs: backs.querySelectorAll('svg.card-back').length,
                    faces: backs.querySelectorAll('[data-card]').length,
                    count: document.querySelector('[data-testid=opponent-card-count]').textContent};
        }""", hand)
    assert not seen["found"], f"{other.label}'s page shows cards of {owner.label}'s hand: {seen['found']}"
    assert seen["faces"] == 0, f"{other.label}'s page shows {seen['faces']} faces in {owner.label}'s hand"
    n = len(hand)
    if seen["backs"] != n or seen["count"] != f"{n} card{'' if n == 1 else 's'}":
        problems.append(f"in phase {other.state()['phase']!r}, {other.label}'s page shows {seen['backs']} backs "
                        f"and says {seen['count']!r} for {owner.label}, who holds {n} cards")
    return n


def test_two_browsers_play_a_partie_against_each_other(run: Run) -> None:
    server, shots = run.server, run.shots
    ann = run.player("ann")
    guest = run.player("phone", PHONE)
    mover = Mover(seed=11)
    with run.guard():
        page = ann.page
        page.goto(server.base + "/")
        page.get_by_test_id("person-name-input").fill("Ann")
        page.get_by_test_id("person-rules-select").select_option(PERSON_RULES)
        page.get_by_test_id("new-person-game").click()
        invite = page.get_by_test_id("invite-link")
        invite.wait_for(state="visible")
        link = invite.input_value()
        assert re.fullmatch(re.escape(server.base) + r"/t/[^/?#]+#token=[^&]+", link), link
        shots.take(page, "lobby-invite")
        page.get_by_test_id("own-seat-link").click()
        page.wait_for_url(re.compile(r"/t/[^/?#]+#token="))
        assert page.url != link, "the own seat link is the invite link"
        table_id, token = page.url.split("/t/")[1].split("#token=")
        assert link.split("/t/")[1].split("#")[0] == table_id
        st = ann.wait_ready()
        assert st["status"] == "waiting", st
        if st["myTurn"] == "false":  # while it is the guest's turn, the page says why nothing happens
            assert "has not opened the invite link" in ann.text("status"), ann.text("status")
        # One player makes every move himself; the phone leaves the forced ones to the page.
        page.get_by_test_id("auto-forced").uncheck()
        assert not ann.auto_on()

        guest.page.goto(link)
        assert guest.wait_ready()["seat"] == "B"
        ann.wait(f"() => {TABLE_JS}.dataset.status === 'playing'", "the table to say the guest has come")
        assert ann.text("opponent-name") == "Guest"
        assert guest.text("opponent-name") == "Ann"

        players = [ann, guest]
        checks = 0
        problems: list[str] = []
        phone_shots: set[str] = set()
        for _ in range(2 * MAX_MOVES):
            states = _synced(run, players)
            checks += check_hidden(ann, guest, problems) + check_hidden(guest, ann, problems)
            if [p.state()["version"] for p in players] != [s["version"] for s in states]:
                continue  # a page moved by itself (a forced move) while it was checked: check again
            if all(s["status"] == "finished" for s in states):
                break
            i = 0 if states[0]["myTurn"] == "true" else 1
            p, st = players[i], states[i]
            phase = st["phase"]
            exchange_shot = None
            if p is guest and phase == "play" and "play" not in phone_shots:
                phone_shots.add("play")
                shots.take(guest.page, "phone-play")
            elif p is guest and phase.endswith("_discard") and "discard" not in phone_shots:
                phone_shots.add("discard")
                exchange_shot = f"phone-{phase}"
            what = mover.move(p, st, exchange_shot)
            p.wait_moved(st["version"], what)
        else:
            run.fail(f"the partie did not end within {2 * MAX_MOVES} moves")

        assert checks > 0
        assert phone_shots == {"play", "discard"}, phone_shots
        shots.take(ann.page, "person-finished")
        shots.take(guest.page, "phone-finished")
        row = server.table_row(table_id, token)
        assert row["players"] == {"A": "Ann", "B": "Guest"}, row["players"]
        _, card_a = check_finish(ann, row)
        _, card_b = check_finish(guest, row)
        assert card_b == [(d, theirs, mine) for d, mine, theirs in card_a], (card_a, card_b)
        assert guest.totals() == tuple(reversed(ann.totals()))
        assert ann.text("settlement") == guest.text("settlement")
        run.assert_no_page_errors()
        if problems:
            run.fail("the adversary's hand is not shown as it is held:\n" + "\n".join(dict.fromkeys(problems)))


def test_a_wrong_token_says_so(run: Run) -> None:
    server, shots = run.server, run.shots
    table = server.post_json("/api/tables", {"opponent": "computer", "level": "random", "name": "Eve"})
    p = run.player("eve")
    with run.guard():
        page = p.page
        page.goto(f"{server.base}/t/{table['table']}?token=not-the-token")
        fatal = page.get_by_test_id("fatal")
        fatal.wait_for(state="visible")
        words = fatal.inner_text()
        assert "wrong token" in words and "does not open a seat at this table" in words, words
        assert page.get_by_test_id("connection").inner_text() == "Not connected"
        page.wait_for_timeout(2500)  # a reconnection would come after about half a second
        assert len(p.sockets) == 1, f"the page kept reconnecting with a wrong token: {p.sockets}"
        assert fatal.is_visible() and p.state()["version"] == "" and p.hand() == []
        shots.take(page, "wrong-token")

        page.goto(f"{server.base}/t/{table['table']}")
        fatal.wait_for(state="visible")
        assert "needs a table and a seat's token" in fatal.inner_text(), fatal.inner_text()
        assert len(p.sockets) == 1, "the page opened a socket without a token"

        page.goto(server.base + table["url"])  # the right token opens the seat
        st = p.wait_ready()
        assert st["seat"] == "A" and st["status"] == "playing", st
        assert fatal.is_hidden() and page.get_by_test_id("connection").inner_text() == "Connected"
        assert len(p.hand()) == (0 if st["phase"] == "cut" else 12), st
        run.assert_no_page_errors()


#: What the browser says when a page breaks its Content-Security-Policy.
CSP_WORDS = "Content Security Policy"


def test_links_keep_their_token_out_of_the_address_and_can_be_renewed(run: Run) -> None:
    """Issue 17, item 5, in the browser: an old ``?token=`` link becomes ``#token=``; no socket's address holds a
    token; "New link for this seat" gives another, the old link's window is told its link was replaced and the old
    link opens nothing, while this page plays on; every page keeps to its Content-Security-Policy."""
    server, shots = run.server, run.shots
    table = server.post_json("/api/tables", {"opponent": "person", "name": "Ann", "seed": 21})
    old = table["token"]
    ann, other = run.player("ann"), run.player("ann-other-window")
    with run.guard():
        ann.page.goto(f"{server.base}/t/{table['table']}?token={old}&auto=0")  # a link of before
        st = ann.wait_ready()
        assert st["seat"] == "A", st
        assert ann.page.url == f"{server.base}/t/{table['table']}?auto=0#token={old}", ann.page.url
        other.page.goto(server.base + table["url"])
        assert other.wait_ready()["seat"] == "A"
        sockets = ann.sockets + other.sockets
        assert sockets and not any("token" in url for url in sockets), sockets

        ann.page.get_by_test_id("new-link").click()
        status = ann.page.get_by_test_id("new-link-status")
        ann.page.wait_for_function("() => document.querySelector('[data-testid=new-link-status]').textContent"
                                   ".includes('no longer opens')")
        new = ann.page.url.split("#token=")[1]
        assert new != old and ann.page.get_by_test_id("new-link-url").input_value().endswith(f"#token={new}")
        fatal = other.page.get_by_test_id("fatal")
        fatal.wait_for(state="visible")
        assert "replaced by a new one" in fatal.inner_text(), fatal.inner_text()
        ann.page.wait_for_function("() => document.querySelector('[data-testid=connection]').dataset.state === 'open'")
        assert ann.page.get_by_test_id("fatal").is_hidden(), status.inner_text()
        seats = ann.page.evaluate("() => JSON.parse(localStorage.getItem('piquet.seats'))")
        assert seats[table["table"]]["url"].endswith(f"#token={new}"), seats
        shots.take(ann.page, "new-link")

        other.page.goto(server.base + "/")  # the old link, opened again: it opens nothing now
        other.page.goto(server.base + table["url"])
        fatal.wait_for(state="visible")
        assert "wrong token" in fatal.inner_text(), fatal.inner_text()

        # The lobby lists this browser's own table (from the seat it keeps), and every page keeps to its CSP.
        ann.page.goto(server.base + "/")
        ann.page.get_by_test_id(f"resume-{table['table']}").wait_for()
        for path in ("/rules", "/mark", "/settle", f"/t/{table['table']}/replay#token={new}"):
            ann.page.goto(server.base + path)
            ann.page.wait_for_load_state("networkidle")
        broken = [m for p in (ann, other) for m in p.console if CSP_WORDS in m]
        assert not broken, broken
        run.assert_no_page_errors()


def test_the_dealer_chooses_threes_in_the_page(run: Run) -> None:
    """Law 4, Law 9 in the page: Ann wins the cut and lets Bob deal (`deal-no`); Bob is offered twos or threes
    (`deal-by-2`, `deal-by-3`), Ann nothing, neither page holding a card; Bob deals by threes: the hands are
    the seed's pack dealt by threes."""
    from piquet.core.cards import card_name, cards_of
    from piquet.core.deal import deal_from_pack
    from piquet.core.state import deal_rng, seed_cut

    server = run.server
    seed = next(s for s in range(100) if seed_cut(s)[2] == "A")
    table = server.post_json("/api/tables", {"opponent": "person", "name": "Ann", "seed": seed})
    ann, bob = run.player("ann"), run.player("bob")
    with run.guard():
        ann.page.goto(server.base + table["url"])
        bob.page.goto(server.base + table["invite"])
        st = ann.wait_ready()
        bob.wait_ready()
        assert st["phase"] == "cut" and st["myTurn"] == "true", st
        choices = {"yes", "yes-3", "no", "by-2", "by-3"}  # the buttons deal-yes ... deal-by-3
        assert ann.testids("deal-") & choices == {"yes", "yes-3", "no"}, ann.testids("deal-")
        ann.page.get_by_test_id("deal-no").click()
        bob.wait(f"() => {TABLE_JS}.dataset.myTurn === 'true'", "Bob to choose how he deals")
        assert bob.testids("deal-") & choices == {"by-2", "by-3"} and not ann.testids("deal-") & choices
        assert "Law 9" in bob.text("prompt") and ann.hand() == bob.hand() == []
        bob.page.get_by_test_id("deal-by-3").click()
        ann.wait(f"() => {TABLE_JS}.dataset.phase === 'elder_discard'", "the first deal")
        bob.wait(f"() => {TABLE_JS}.dataset.phase === 'elder_discard'", "the first deal")
        assert len(ann.hand()) == len(bob.hand()) == 12 and not set(ann.hand()) & set(bob.hand())
        order = list(range(32))
        deal_rng(seed, 0).shuffle(order)
        elder, younger, _ = deal_from_pack(order, 3)  # Ann is elder: Bob deals
        assert set(ann.hand()) == {card_name(c) for c in cards_of(elder)} != {
            card_name(c) for c in cards_of(deal_from_pack(order, 2)[0])}
        assert set(bob.hand()) == {card_name(c) for c in cards_of(younger)}
        run.assert_no_page_errors()


# ---------------------------------------------------------------- Piquet au cent


AU_CENT_SPEC = "au-cent+small-cards+fours"


def games_card(p: Player) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:
    """A partie of games' score card: its deal rows (deal, mine, theirs) and its games' results (game, mine,
    theirs)."""
    def rows(selector: str, key: str) -> list[tuple[str, int, int]]:
        found: list[dict[str, Any]] = p.page.eval_on_selector_all(
            f"[data-testid=score-card] tbody tr[{selector}]",
            f"trs => trs.map(tr => ({{key: tr.dataset.{key}, cells: [...tr.cells].map(c => c.textContent)}}))")
        return [(r["key"], int(r["cells"][-2]), int(r["cells"][-1])) for r in found]

    return rows("data-deal", "deal"), rows("data-game-won", "gameWon")


def test_a_partie_of_au_cent_against_the_computer(run: Run) -> None:
    """Piquet au cent from the lobby, both agreements ticked, played against the computer by clicking to the end:
    the lower cut deals with no choice, the younger keeps all his cards ("Keep all"), the calls in the game's words
    (the point called with what it makes; quatorzes and trios named, no cards shown), the game's score and the
    games won in the bar, a deal stopped at a hundred and the next game begun at nothing, the score card of each
    game's deals and result, the settlement by games, the record downloaded with its agreements."""
    server, shots = run.server, run.shots
    p = run.player("ann-au-cent")
    page = p.page
    mover = Mover(seed=9)
    rng = random.Random(9)
    with run.guard():
        page.goto(server.base + "/")
        page.get_by_test_id("name-input").fill("Ann")
        page.get_by_test_id("level-select").select_option("simple")
        assert page.get_by_test_id("agreements").is_hidden(), "the agreements are shown for the rubicon partie"
        page.get_by_test_id("rules-select").select_option("au-cent")
        page.get_by_test_id("agreement-small-cards").check()
        page.get_by_test_id("agreement-fours").check()
        shots.take(page, "au-cent-lobby")
        page.get_by_test_id("new-computer-game").click()
        page.wait_for_url(re.compile(r"/t/[^/?#]+#token="))
        table_id, token = page.url.split("/t/")[1].split("#token=")
        first = p.wait_ready()
        assert first["phase"] != "cut" and first["rules"] == AU_CENT_SPEC, first
        cut = p.text("cut-words")
        assert "cut the lower card and deal" in cut and "(p. 16)" in cut, cut
        assert "Piquet au cent" in p.text("rules") and "sevens are not counting cards" in p.text("rules")
        assert re.search(r"Games: You 0 \u2013 Computer \(simple\) 0 \(3 to win\)", p.text("games-tally"))
        assert "Game (to 100):" in p.text("partie-scores")
        shots.take(page, "au-cent-table")

        kept_all = named = called = 0
        news: list[str] = []
        taken: set[str] = set()
        games_seen: list[int] = []
        for _ in range(MAX_MOVES):
            st = p.wait_turn()
            if st["status"] == "finished":
                break
            m = re.fullmatch(r"Game (\d+), deal (\d+)", p.text("deal-number"))
            assert m, f"the bar does not say the game and the deal: {p.text('deal-number')!r}"
            if not games_seen or games_seen[-1] != int(m.group(1)):
                games_seen.append(int(m.group(1)))
            if page.get_by_test_id("game-news").is_visible() and not news:
                news.append(p.text("game-news"))
                assert "begins at nothing" in news[0] and "stopped at the goal" in news[0], news
                opening = page.get_by_test_id("talk").locator("li.deal-start").inner_text()
                assert f"(game {m.group(1)}, at nothing)" in opening, opening
                shots.take(page, "au-cent-game-won")
            talk = page.get_by_test_id("talk")
            # the elder's call of his point and what it makes, in one line (p. 18)
            calls = re.compile(r"\b(One|Two|Three|Four|Five|Six|Seven|Eight) cards?, making [\w-]+\.")
            called += talk.locator("li", has_text=calls).count()
            sets = talk.locator("li", has_text=re.compile(r"(Three|Four) \w+: [\w-]+\."))
            for i in range(sets.count()):
                assert sets.nth(i).locator(".chip").count() == 0, f"a set named shows cards: {sets.nth(i).inner_text()}"
                named += 1
            phase = st["phase"]
            keep_all = page.get_by_test_id("keep-all")
            if phase == "younger_discard" and p.snapshot()["version"] == st["version"]:
                assert keep_all.is_visible(), "the younger may keep all his cards at au cent (p. 17)"
                if not kept_all or rng.random() < 0.3:
                    if not kept_all:
                        shots.take(page, "au-cent-keep-all")
                    hand = sorted(p.hand())
                    keep_all.click()
                    assert page.get_by_test_id("exchange-question").inner_text() == \
                        "Keep your hand, discarding nothing and taking nothing in?"
                    page.get_by_test_id("confirm-exchange").click()
                    kept_all += 1
                    p.wait_moved(st["version"], "keep all")
                    assert sorted(p.hand()) == hand, "the hand changed when the younger kept all"
                    continue
            elif phase == "elder_discard":
                assert keep_all.count() == 0, "the elder is offered to keep all"
            if phase in ("elder_point", "younger_point", "elder_sets") and phase not in taken:
                taken.add(phase)
                shots.take(page, f"au-cent-{phase}")
            p.wait_moved(st["version"], mover.move(p, st))
        else:
            run.fail(f"the partie of au cent did not end within {MAX_MOVES} moves")

        shots.take(page, "au-cent-finished")
        shots.take(page, "au-cent-score-card", testid="score-card")
        assert kept_all and called and news, (kept_all, called, news)
        assert games_seen == list(range(1, len(games_seen) + 1)) and len(games_seen) >= 2, games_seen
        row = server.table_row(table_id, token)
        assert row["rules"] == AU_CENT_SPEC and row["status"] == "finished", row
        record = download_record(p)
        assert record.rules == "au-cent" and record.agreements == ("small-cards", "fours")
        partie = replay(record)
        assert partie.is_finished and dict(partie.scores) == row["scores"]
        deals, results = games_card(p)
        assert deals == [(str(i + 1), partie.deal_score(i)["A"], partie.deal_score(i)["B"])
                         for i in range(len(partie.deals))], deals
        assert results == [(str(g.number), g.scores["A"], g.scores["B"]) for g in partie.games()], results
        s = partie.settlement()
        assert (int(p.text("games-mine")), int(p.text("games-theirs"))) == (s.tally["A"], s.tally["B"])
        assert p.totals() == (row["scores"]["A"], row["scores"]["B"])
        headline = page.get_by_test_id("finish").locator("h2").inner_text()
        assert headline == ("You win the partie." if s.winner == "A" else "Computer (simple) wins the partie.")
        words = p.text("settlement")
        assert "games to" in words and "(p. 20)" in words and "points" not in words, words
        # The replay of the partie, public now: the games told, the settlement at the last step.
        page.get_by_test_id("replay-partie").click()
        page.wait_for_url(re.compile(r"/t/[^/?]+/replay"))
        replay_root = page.get_by_test_id("replay")
        p.wait("() => document.querySelector('[data-testid=replay]').dataset.step === '0'", "the replay's first step")
        assert replay_root.get_attribute("data-view") == "all"
        options = page.get_by_test_id("replay-deal-select").locator("option").all_inner_texts()
        assert len(options) == len(partie.deals) and all(", game " in o for o in options), options
        assert "Deal 1 (game 1, at nothing): " in p.text("replay-what"), p.text("replay-what")
        page.get_by_test_id("replay-last").click()
        settled = page.get_by_test_id("replay-settlement")
        assert settled.is_visible() and words in settled.inner_text(), settled.inner_text()
        assert "Games won" in p.text("replay-scorecard")
        shots.take(page, "au-cent-replay")
        print(f"\nau cent: {len(partie.deals)} deals, {len(partie.games())} games, kept all {kept_all} times, "
              f"{named} sets named seen, {mover.did}")
        run.assert_no_page_errors()


# ---------------------------------------------------------------- chouette (p. 106)


def test_a_chouette_partie_by_three_browsers(run: Run) -> None:
    """Three browsers (one phone-sized) at a chouette, from the lobby: the cut of three shown, one partie of four
    deals played by clicking, the adviser suggesting (a discard, a declaration, a card: his page's "Suggest"
    choices) and the player seeing it ringed in his hand and following it or not, the single player never
    shown the pair's cards nor their suggestions, a reload mid-partie, the chouette card at the end with the
    rotation of p. 106, the next partie begun in the new places, and the card settled at a stake."""
    server, shots = run.server, run.shots
    ann, bob, cy = run.player("ann"), run.player("bob-phone", PHONE), run.player("cy")
    players = {"Ann": ann, "Bob": bob, "Cy": cy}
    mover = Mover(seed=13)
    rng = random.Random(13)
    with run.guard():
        page = ann.page
        page.goto(server.base + "/")
        for i, name in enumerate(players, 1):
            page.get_by_test_id(f"chouette-name-{i}").fill(name)
        page.get_by_test_id("chouette-rules-select").select_option("four-deal")
        page.get_by_test_id("new-chouette").click()
        page.get_by_test_id("chouette-invite").wait_for(state="visible")
        cut = ann.text("chouette-cut")
        assert cut.startswith("The cut: Ann the ") and "plays alone" in cut and "(p. 106)" in cut, cut
        links = {"Bob": page.get_by_test_id("chouette-invite-2").input_value(),
                 "Cy": page.get_by_test_id("chouette-invite-3").input_value()}
        assert len(set(links.values())) == 2 and all("/c/" in link for link in links.values()), links
        shots.take(page, "chouette-lobby")
        page.get_by_test_id("chouette-own-seat").click()
        page.wait_for_url(re.compile(r"/c/[^/?#]+#token="))
        table_id, token = page.url.split("/c/")[1].split("#token=")
        bob.page.goto(links["Bob"])
        cy.page.goto(links["Cy"])
        for p in players.values():
            p.wait_ready()
        place_of = {name: p.state()["place"] for name, p in players.items()}
        places = {place: name for name, place in place_of.items()}
        assert set(places) == {"single", "playing", "advising"}, place_of
        single, player, adviser = (players[places[k]] for k in ("single", "playing", "advising"))
        assert f"{places['single']} cut the highest card and plays alone" in cut, (cut, places)
        assert single.text("opponent-name") == f"{places['playing']} (advised by {places['advising']})"
        assert adviser.text("my-name").startswith(f"{places['playing']}'s hand, which you advise")
        assert player.text("chouette-rotation") == cut, "the places of the first partie are the cut's"

        # The single player chooses whether to deal (p. 106).
        single.wait_turn()
        assert "choice of deal" in single.text("prompt")
        shots.take(single.page, "chouette-single-deals")
        single.page.get_by_test_id("deal-yes").click()
        single.wait_moved("0", "the choice of deal")

        pages = list(players.values())
        suggested: Counter[str] = Counter()
        followed = checks = 0
        problems: list[str] = []
        reloaded = False
        taken: set[str] = set()
        for _ in range(3 * MAX_MOVES):
            states = _synced(run, pages)
            if all(s["status"] == "finished" for s in states):
                break
            checks += check_hidden(single, player, problems) + check_hidden(single, adviser, problems)
            checks += check_hidden(player, single, problems)
            if [p.state()["version"] for p in pages] != [s["version"] for s in states]:
                continue  # a page moved by itself (a forced move) while it was checked
            assert single.state()["advice"] == "", "the single player was shown a suggestion"
            actor = next(p for p, s in zip(pages, states, strict=True) if s["myTurn"] == "true")
            st = actor.state()
            phase = st["phase"]
            if not reloaded and phase == "play" and adviser.deal_number() >= 2:
                check_reload_chouette(adviser)
                reloaded = True
                continue
            if actor is player and adviser.state()["suggest"] == "true":
                kind = "discard" if phase.endswith("_discard") else "play" if phase == "play" else "declare"
                snap = adviser.snapshot()
                if not adviser.forced_pending(snap) and (not suggested[kind] or rng.random() < 0.3):
                    version = adviser.state()["version"]
                    what = mover.move(adviser, adviser.state())
                    adviser.wait_moved(version, f"the suggestion {what}")
                    player.wait(f"() => {TABLE_JS}.dataset.advice === {json.dumps(places['advising'])}",
                                "the player to see the suggestion")
                    suggested[kind] += 1
                    advice = player.text("advice-text")
                    assert advice.startswith(f"{places['advising']} suggests: "), advice
                    if kind == "play":
                        ringed = player.page.eval_on_selector_all("#hand .suggested",
                                                                  "es => es.map(e => e.dataset.card)")
                        assert len(ringed) == 1 and f"play the {card_words(parse_card(ringed[0]))}" in advice, \
                            (ringed, advice)
                    if kind not in taken:
                        taken.add(kind)
                        shots.take(player.page, f"chouette-player-sees-{kind}")
                        shots.take(adviser.page, f"chouette-adviser-suggested-{kind}")
                        shots.take(single.page, f"chouette-single-during-{kind}")
                    if rng.random() < 0.5 and not player.forced_pending(player.snapshot()):
                        version = player.state()["version"]
                        player.page.get_by_test_id("follow-advice").click()
                        player.wait_moved(version, "following the advice")
                        followed += 1
                        continue
                    st = actor.state()
            what = mover.move(actor, st)
            actor.wait_moved(st["version"], what)
        else:
            run.fail(f"the chouette's partie did not end within {3 * MAX_MOVES} moves")

        assert reloaded and followed and all(suggested[k] for k in ("discard", "declare", "play")), \
            (reloaded, followed, suggested)
        assert checks > 0
        if problems:
            run.fail("a hand is not shown as it is held:\n" + "\n".join(dict.fromkeys(problems)))
        # The end of the partie: its line on the chouette card, the rotation, on every page.
        row = server.table_row(table_id, token, "/api/chouettes")
        assert row["parties"] == 1 and sum(row["balances"].values()) == 0, row
        next_places = None
        for name, p in players.items():
            assert p.page.get_by_test_id("finish").is_visible()
            words = p.text("next-places")
            assert "(p. 106)" in words, words
            if next_places is None:
                next_places = words
            assert words == next_places
            cells = p.page.eval_on_selector_all("[data-testid=finish] table.scoring-card tr",
                                                "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))")
            card = {r[0]: int(r[1].replace(" ", "")) * 10 for r in cells if r and r[0] in players}
            assert card == row["balances"], (name, cells, row["balances"])
            shots.take(p.page, f"chouette-finished-{place_of[name]}")
        single_won = next_places.startswith(f"{places['single']} won")
        assert single_won or next_places.startswith(f"{places['single']} lost") or "drawn" in next_places
        # The card settled at a stake, from the page.
        cy.page.get_by_test_id("stake-input").fill("10s a hundred")
        cy.page.get_by_test_id("settle-card").click()
        cy.wait("() => /At 10s a hundred/.test(document.querySelector('[data-testid=settle-words]').textContent)",
                "the settlement at a stake")
        # The next partie, in the places of p. 106.
        version = ann.state()["version"]
        bob.page.get_by_test_id("next-partie").click()
        for p in pages:
            p.wait(f"() => {TABLE_JS}.dataset.partie === '2' && {TABLE_JS}.dataset.version !== {json.dumps(version)}",
                   "the second partie")
        after = {name: p.state()["place"] for name, p in players.items()}
        if "drawn" in next_places or single_won:
            expected = {places["single"]: "single", places["advising"]: "playing", places["playing"]: "advising"}
        else:
            expected = {places["playing"]: "single", places["advising"]: "playing", places["single"]: "advising"}
        assert after == expected, (after, expected, next_places)
        new_single = players[next(n for n, pl in after.items() if pl == "single")]
        new_single.wait_turn()
        assert new_single.page.get_by_test_id("deal-yes").is_visible()
        assert next_places in new_single.text("chouette-rotation")
        shots.take(new_single.page, "chouette-next-partie")
        print(f"\nchouette: {dict(suggested)} suggested, {followed} followed, {checks} hidden-card checks, {mover.did}")
        run.assert_no_page_errors()


def test_the_pair_deals_by_threes_at_chouette(run: Run) -> None:
    """Law 9 at chouette, in the page: the single player lets the pair deal (`deal-no`); the one who plays for
    it is offered twos or threes (`deal-by-2`, `deal-by-3`), the single player and the adviser nothing, no page
    holding a card; he deals by threes: the hands are the seed's pack dealt by threes."""
    from piquet.core.cards import card_name, cards_of
    from piquet.core.deal import deal_from_pack
    from piquet.stakes.chouette import ChouetteMatch, deal_rng

    server = run.server
    names = ("Ann", "Bob", "Cy")
    seed = next(s for s in range(100) if ChouetteMatch(names, s).cut_places.single == "Ann")
    places = ChouetteMatch(names, seed).cut_places
    made = server.post_json("/api/chouettes", {"players": [{"name": n} for n in names], "seed": seed})
    links = {seat["name"]: seat["url"] for seat in made["seats"]}
    players = {n: run.player(n.lower()) for n in names}
    with run.guard():
        for n, p in players.items():
            p.page.goto(server.base + links[n])
        for p in players.values():
            p.wait_ready()
        single, player, adviser = (players[getattr(places, k)] for k in ("single", "playing", "advising"))
        choices = {"yes", "yes-3", "no", "by-2", "by-3"}
        single.wait_turn()
        assert single.testids("deal-") & choices == {"yes", "yes-3", "no"}, single.testids("deal-")
        version = single.state()["version"]
        single.page.get_by_test_id("deal-no").click()
        single.wait_moved(version, "letting the pair deal")
        player.wait(f"() => {TABLE_JS}.dataset.myTurn === 'true'", "the pair's player to choose how he deals")
        assert player.testids("deal-") & choices == {"by-2", "by-3"}, player.testids("deal-")
        assert "Law 9" in player.text("prompt")
        for other in (single, adviser):
            other.wait(f"(v) => {TABLE_JS}.dataset.version !== v", "the choice seen", arg=version)
            assert not other.testids("deal-") & choices, other.testids("deal-")
        assert single.hand() == player.hand() == adviser.hand() == []
        player.page.get_by_test_id("deal-by-3").click()
        for p in players.values():
            p.wait(f"() => {TABLE_JS}.dataset.phase === 'elder_discard'", "the first deal")
        order = list(range(32))
        deal_rng(seed, 0, 0).shuffle(order)
        elder, younger, _ = deal_from_pack(order, 3)  # the single player is elder: the pair deals
        assert set(single.hand()) == {card_name(c) for c in cards_of(elder)} != {
            card_name(c) for c in cards_of(deal_from_pack(order, 2)[0])}
        assert set(player.hand()) == set(adviser.hand()) == {card_name(c) for c in cards_of(younger)}
        run.assert_no_page_errors()


def check_reload_chouette(p: Player) -> None:
    """Reload a chouette's page mid-deal: the same version, place and hand come back."""
    before, hand = p.state(), sorted(p.hand())
    p.page.reload()
    after = p.wait_ready()
    keys = ("version", "place", "phase")
    assert [after[k] for k in keys] == [before[k] for k in keys], \
        f"{p.label}: after a reload the table is {after}, it was {before}"
    assert sorted(p.hand()) == hand, f"{p.label}: after a reload the hand is {sorted(p.hand())}, it was {hand}"
    assert p.page.get_by_test_id("connection").inner_text() == "Connected"
