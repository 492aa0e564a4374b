"""``piquet chouette``: piquet for three in the terminal, a person and two computer players (p. 106).

The three cut; the highest plays alone, at double stakes, against the other two
in consultation, the lowest advising the one who plays (p. 106).  Each partie
is played on the terminal table of ``piquet play`` (``terminal.TerminalTable``)
from the person's place:

- playing alone, he sees his own cards only; the consultation of the other two
  is never shown to him (they are computers, and say nothing aloud);
- playing for the pair, he is told his computer adviser's suggestion before
  each of his choices (``Cy suggests: discard KS 8C 7C``; ``follow`` takes it);
- advising, he sees the hand of the computer who plays for them, is asked for a
  suggestion whenever that player is to act (Enter leaves the choice to him),
  and the computer follows a legal suggestion (``chouette.ChouetteRunner``).

After each partie: its score card, its line on the chouette card (p. 102), the
card so far (``stakes.chouette_card_text``) and the places of the next partie by
the rotation of p. 106, with the reason.  ``--record`` saves the chouette
(``piquet-chouette/1``) after every action; ``--resume`` carries on.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape

from piquet.cli import terminal
from piquet.cli.terminal import ComputerFailed, GuardedPlayer, Quit, TerminalTable
from piquet.core.actions import Action
from piquet.core.cards import card_words
from piquet.core.deal import IllegalAction
from piquet.core.observation import Observation
from piquet.core.partie import Partie, other_seat
from piquet.core.rules import RUBICON, rules_named
from piquet.players.base import Player
from piquet.players.levels import DEFAULT_LEVEL, level_named, make_player
from piquet.players.runner import new_seed
from piquet.records.jsontext import read_json
from piquet.stakes.chouette import (
    PAIR_SEAT,
    SINGLE_SEAT,
    ChouetteError,
    ChouetteListener,
    ChouetteMatch,
    ChouetteRunner,
    Places,
    Suggestion,
)
from piquet.stakes.settlement import ChouettePartie, Custom, Stake, chouette_card_text
from piquet.talk.words import deal_by_label, number_words

PROG = "piquet chouette"
DEFAULT_OTHERS = ("Bob", "Cy")
#: What the terminal adds to the chouette document: who sat at the keyboard, and the computers' level.
TERMINAL_KEY = "terminal"
_IRREGULAR = {"has": "have", "is": "are", "was": "were"}


def conjugate(name: str, verb: str, start: bool = True) -> str:
    """``Bob plays``, ``You play``: a verb (given in the third person) after a name, "You" being the person.

    >>> conjugate("Bob", "plays"), conjugate("You", "plays"), conjugate("You", "has", start=False)
    ('Bob plays', 'You play', 'you have')
    """
    if name != "You":
        return f"{name} {verb}"
    base = _IRREGULAR.get(verb, verb[:-1] if verb.endswith("s") else verb)
    return f"{'You' if start else 'you'} {base}"


def _object(name: str) -> str:
    return "you" if name == "You" else name


def places_words(places: Places) -> str:
    """``Ann plays alone, at double stakes, against Bob and Cy; Bob plays for both, Cy advises him (p. 106).``"""
    return (f"{conjugate(places.single, 'plays')} alone, at double stakes, against {_object(places.playing)} and "
            f"{_object(places.advising)}; {conjugate(places.playing, 'plays', False)} for both, "
            f"{conjugate(places.advising, 'advises', False)} {'you' if places.playing == 'You' else 'him'} "
            "(p. 106).")


def rotation_words(places: Places, single_won: bool | None) -> str:
    """The places of the next partie and why (p. 106).

    >>> rotation_words(Places("Bob", "Ann", "Cy"), True)
    'Bob won alone: he plays alone again; Cy plays, Ann advises (p. 106).'
    >>> rotation_words(Places("Bob", "Ann", "Cy"), False)
    'Bob lost alone: Ann, who beat him, plays alone; Cy plays, Bob advises (p. 106).'
    """
    after = places.after(single_won)
    single = places.single
    he = "you" if single == "You" else "he"
    if single_won is None:
        why = (f"The partie is drawn: {conjugate(single, 'has', False)} not lost, and "
               f"{'play' if single == 'You' else 'plays'} alone again")
    elif single_won:
        why = f"{conjugate(single, 'won')} alone: {conjugate(he, 'plays')} alone again"
        why = why.replace("you plays", "you play")
    elif after.single == "You":
        why = f"{single} lost alone: you beat him, and play alone"
    else:
        beaten = "you" if he == "you" else "him"
        why = f"{conjugate(single, 'lost')} alone: {after.single}, who beat {beaten}, plays alone"
    return (f"{why}; {conjugate(after.playing, 'plays', False)}, "
            f"{conjugate(after.advising, 'advises', False)} (p. 106).")


class _LeaveIt(Exception):
    """The adviser pressed Enter: no suggestion, the player chooses for himself."""


class _Follow(Exception):
    """The player for the pair typed ``follow``: he takes his adviser's suggestion."""


class ChouetteTable(TerminalTable):
    """The person's side of a chouette: the terminal table, seated at his place in each partie.

    A ``Player`` for the runner (``choose``, ``choose_deal``, ``deal_by``), an ``Adviser`` (``advise``) and ``Advised``
    (``advised``); what it shows is always the observation of the person's seat: the single player's,
    or the pair's when he plays for it or advises."""

    def __init__(self, console: Console, match: ChouetteMatch, person: str, symbols: bool = False,
                 write: Callable[[], None] | None = None, echo: bool | None = None) -> None:
        super().__init__(console, {}, symbols=symbols, save=(lambda _p: write()) if write else None, echo=echo,
                         rules=match.rules)
        self.match = match
        self.person = person
        self.choice_law = "p. 106"
        self.heard: tuple[str, Action] | None = None  # the adviser's suggestion to the person playing
        self.hearing = False  # to be said before the next prompt
        self.choosing = False  # asked for the person's own choice (not advice, not between parties)
        self.advising: str | None = None  # the player the person is advising, while he is asked
        self.asked = 0  # prompts put since the last choice began
        self.sit(match.places)

    def sit(self, places: Places) -> None:
        """Take the person's place for a partie: whose observation he sees, and how the table speaks."""
        role = places.role(self.person)
        self.me = SINGLE_SEAT if role == "single" else PAIR_SEAT
        self.them = other_seat(self.me)
        self.names = {SINGLE_SEAT: places.single, PAIR_SEAT: places.playing}
        self.adversary = f"{places.playing} and {places.advising}" if role == "single" else places.single
        self.acting = places.playing if role == "advising" else None

    def keep(self) -> None:
        """Save the chouette now (between two parties as after an action): ``write`` saves the whole
        chouette, whichever partie the table's ``save_now`` is given."""
        p = self.match.game.partie
        self.save_now(p if p is not None else Partie(self.rules))

    # ------------------------------------------------------------ asking, with advice

    def ask(self, prompt: str, obs: Observation | None = None,
            help_lines: Sequence[tuple[str, str]] = ()) -> str:
        self.asked += 1
        playing = self.advising
        if playing is not None:
            # The adviser answers as the player would; Enter leaves the choice to him, "ok" is the default.
            lines = [(what.replace("Enter", "ok"), means) for what, means in help_lines]
            lines.append(("Enter", f"no suggestion: {playing} chooses for himself"))
            text = super().ask(f"Suggest to {playing}: {prompt.replace('Enter:', 'ok:')}", obs, lines)
            if not text:
                raise _LeaveIt
            return "" if text.lower() == "ok" else text
        lines = list(help_lines)
        heard = self.heard if self.choosing else None
        if heard is not None:
            by, action = heard
            if self.hearing:
                self.hearing = False
                self.say(f"{by} suggests: {self.describe(action)}", style="bold cyan")
            lines.append(("follow", f"do as {by} suggests: {self.describe(action)}"))
        text = super().ask(prompt, obs, lines)
        if heard is not None and text.lower() in ("follow", "f"):
            raise _Follow
        return text

    def confirm(self, question: str, help_lines: Sequence[tuple[str, str]] = ()) -> bool:
        """A suggestion binds nobody: only the person's own choice is confirmed."""
        return self.advising is not None or super().confirm(question, help_lines)

    def advised(self, adviser: str, action: Action) -> None:
        """The computer adviser's suggestion, said before the person's next prompt."""
        self.heard = (adviser, action)

    def choose(self, obs: Observation) -> Action:
        standing = self.match.suggestion(self.person)
        if self.heard is not None and (standing is None or standing.action != self.heard[1]):
            self.heard = None  # made for an earlier step
        self.hearing = self.heard is not None
        self.choosing = True
        try:
            return super().choose(obs)
        except _Follow:
            assert self.heard is not None
            return self.heard[1]
        finally:
            self.choosing = False

    def advise(self, obs: Observation, playing: str) -> Action | None:
        """Ask the person for a suggestion to ``playing``, who is to act: an action legal now, or None."""
        if obs.legal_count() <= 1:
            return None  # nothing to choose, nothing to advise
        partie = self.match.game.partie
        assert partie is not None and partie.current is not None
        self.advising = playing
        try:
            while True:
                self.asked = 0
                action = TerminalTable.choose(self, obs)
                if not self.asked:
                    return None  # the table answered for him (nothing worth asking)
                try:
                    partie.current.verify(action)
                except IllegalAction as e:
                    self.rejected(e)
                    continue
                return action
        except _LeaveIt:
            self.again = False
            return None
        finally:
            self.advising = None

    def deal_by(self) -> int:
        """Asked of the first dealer: the person alone who elected to deal, or playing for the pair when the
        single player let them deal (his adviser has nothing to suggest here)."""
        single = self.match.places.single
        if single != self.person:
            self.say(escape(f"{single} elects to be elder hand (p. 106): you deal, for {self.match.places.advising} "
                            "and yourself."))
        return super().deal_by()

    def another(self) -> bool:
        """Between parties, when no number was set: play another?"""
        answer = self.ask("Another partie? \\[Y/n]", help_lines=(
            ("y or Enter", "play the next partie, in the places above"), ("n", "end the chouette here")))
        while answer.lower() not in ("", "y", "yes", "n", "no"):
            answer = self.ask("Another partie? Answer y or n")
        return answer.lower() in ("", "y", "yes")


class ChouetteTeller(ChouetteListener):
    """Tells the chouette on the person's table: each deal from his observation, each partie's end."""

    def __init__(self, table: ChouetteTable) -> None:
        self.table = table
        self.begun = 0  # deals of the partie in play whose start has been told
        self.finished = 0  # and whose end

    def partie_started(self, match: ChouetteMatch) -> None:
        t, p = self.table, match.game.partie
        assert p is not None
        t.sit(match.places)
        over = sum(1 for d in p.deals if d.is_over)
        if over:  # resumed: the deals played are on the card, not told again
            t.say("The partie so far:", style="italic")
            t.show_partie_card(p)
        else:
            choice = " to deal" if p.first_dealer == SINGLE_SEAT else " to be elder hand"
            t.say(escape(f"{conjugate(match.places.single, 'elects')}{choice}, having the choice (p. 106): "
                         f"{conjugate(t.name(p.first_dealer), 'deals', False)} first, "
                         f"{deal_by_label(p.deal_by).lower()} for the partie (Law 9)."))
        self.begun = self.finished = over
        self._catch_up(p)

    def suggested(self, match: ChouetteMatch, suggestion: Suggestion) -> None:
        if match.places.role(self.table.person) == "advising":
            self.table.say(f"You suggest to {match.places.playing}: {self.table.describe(suggestion.action)}.",
                           style="italic")

    def action_applied(self, match: ChouetteMatch, name: str, action: Action) -> None:
        p = match.game.partie
        assert p is not None
        self._catch_up(p)

    def _catch_up(self, p: Partie) -> None:
        """Tell every deal up to the one in play: the end of those finished, the start of a new one."""
        t = self.table
        for i in range(self.finished, len(p.deals)):
            view = _first_deals(p, i + 1)
            if i >= self.begun:
                t.deal_started(view)
                self.begun = i + 1
            else:
                t.tell(view)
            if p.deals[i].is_over:
                t.deal_finished(view)
                self.finished = i + 1
        t.save_now(p)

    def partie_finished(self, match: ChouetteMatch, result: ChouettePartie) -> None:
        t, p = self.table, match.game.partie
        assert p is not None
        t.partie_finished(p)
        t.say(escape(entry_words(match, result)), style="bold")


def _first_deals(p: Partie, n: int) -> Partie:
    """The partie as it stood with its first ``n`` deals (the same deals, not copies): the deal just
    finished is told from it after the next one has been dealt."""
    if n == len(p.deals):
        return p
    view = Partie(p.rules, p.first_dealer, p.deal_by)
    view.deals = p.deals[:n]
    return view


def entry_words(match: ChouetteMatch, result: ChouettePartie) -> str:
    """The partie's line on the chouette card, in tens (p. 102), the single player's doubled (p. 106)."""
    if result.winner is None:
        return "A drawn partie: nothing is entered on the chouette card."
    entry = match.card().entries()[-1]
    entries = ", ".join(f"{q} {'+' if entry[q] >= 0 else '-'} {abs(entry[q])}" for q in match.players)
    return (f"On the chouette card: {result.points} points count {result.tens} tens (p. 102), the single "
            f"player's twice (p. 106): {entries}.")


# ---------------------------------------------------------------- the command


def add_chouette_arguments(p: argparse.ArgumentParser) -> None:
    """The ``chouette`` sub-command's arguments."""
    p.add_argument("--name", default=None, help="your name on the chouette card (default: You)")
    p.add_argument("--others", nargs=2, metavar="NAME", default=None,
                   help=f"the computer players' names (default: {' '.join(DEFAULT_OTHERS)})")
    p.add_argument("--level", default=None, help="the computer players' level, by name or number (default "
                                                 f"{DEFAULT_LEVEL})")
    p.add_argument("--seed", type=int, default=None, help="cut and deal the same cards again")
    p.add_argument("--parties", type=int, default=None,
                   help="end the chouette when so many parties are played, in all (default: asked after each)")
    p.add_argument("--record", metavar="FILE", help="save the chouette to FILE as it goes")
    p.add_argument("--resume", metavar="FILE", help="carry on the chouette saved in FILE")
    p.add_argument("--rules", default=None, help="rubicon (six deals, the default) or four-deal")
    p.add_argument("--stake", default=None,
                   help="settle the card at the end: \"10s a hundred\", \"3d a point\" (as piquet settle reads it)")
    p.add_argument("--custom", default=None, help="the fractions not reckoned, as piquet settle reads it")
    p.add_argument("--symbols", action="store_true", help="show suits as symbols")


def document(match: ChouetteMatch, person: str, level: str) -> str:
    """The chouette as saved by the terminal: ``match.to_json()`` and who sat at the keyboard."""
    doc = json.loads(match.to_json())
    doc[TERMINAL_KEY] = {"person": person, "level": level}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def _read_resume(path: str) -> tuple[ChouetteMatch, dict[str, str]]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ChouetteError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ChouetteError(f"cannot read {path}: not UTF-8 text") from None
    match = ChouetteMatch.from_json(text)
    doc = read_json(text)  # read once already by from_json: valid
    saved = doc.get(TERMINAL_KEY) if isinstance(doc, dict) else None
    return match, {str(k): str(v) for k, v in saved.items()} if isinstance(saved, dict) else {}


def run_chouette(ns: argparse.Namespace, console: Console | None = None) -> int:
    """``piquet chouette``: 0 when it ends or is left, 1 when a computer cannot choose, 2 for bad options."""
    console = console or Console(highlight=False)

    def say(text: str, style: str | None = None) -> None:
        console.print(text, style=style, highlight=False)

    def fail(message: str) -> int:
        say(f"{PROG}: {escape(message)}", style="red")
        return 2

    from piquet.cli.stakes import stake_and_custom

    try:
        stake, custom, note = stake_and_custom(ns)
    except ValueError as e:
        return fail(str(e))
    saved: dict[str, str] = {}
    if ns.resume:
        try:
            match, saved = _read_resume(ns.resume)
        except ChouetteError as e:
            return fail(f"{ns.resume}: {e}")
        if ns.seed is not None and ns.seed != match.seed:
            say(f"The chouette's seed {match.seed} is used, not {ns.seed}.", style="italic")
        if ns.rules and ns.rules != match.rules.spec:
            say(f"The chouette's rules are used: {escape(match.rules.title)}.", style="italic")
        person = saved.get("person") or ns.name or match.players[0]
        if person not in match.players:
            return fail(f"{ns.resume}: {person!r} is not one of the chouette's players")
    else:
        person = ns.name or "You"
        others = tuple(ns.others or DEFAULT_OTHERS)
        try:
            rules = rules_named(ns.rules) if ns.rules else RUBICON
            match = ChouetteMatch((person, *others), new_seed() if ns.seed is None else ns.seed, rules)
        except ValueError as e:
            return fail(str(e))
    level = ns.level or saved.get("level") or DEFAULT_LEVEL
    try:
        level = level_named(level).name
    except ValueError as e:
        return fail(str(e))
    if ns.parties is not None and ns.parties < 1:
        return fail("--parties is a number of parties, one or more")
    path: str | None = ns.record or ns.resume
    if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        return fail(f"cannot save the chouette to {path}: no such folder")
    if ns.record and not ns.resume and os.path.exists(ns.record):
        say(f"{escape(ns.record)} exists and will be replaced (--resume carries on a saved chouette).",
            style="italic")

    def write() -> None:
        assert path is not None
        terminal.save_atomically(path, document(match, person, level))

    table = ChouetteTable(console, match, person, symbols=ns.symbols, write=write if path else None)
    computers = [q for q in match.players if q != person]
    players: dict[str, Player] = {person: table}
    for k, q in enumerate(computers, 1):
        players[q] = GuardedPlayer(make_player(level, match.seed + k), level)  # the same seed, the same players
    runner = ChouetteRunner(match, players, ChouetteTeller(table))

    say(f"[bold]Chouette (p. 106)[/]: {escape(match.rules.title)}; {escape(person)} with "
        f"{escape(' and '.join(computers))}, the computer ({level}). Seed {match.seed}.")
    say("Cards are named rank then suit: AS, 10H, QC, 7D. Type [bold]help[/] at any prompt.")
    if ns.resume:
        done = len(match.card().parties)
        say(f"Resuming the chouette saved in {escape(ns.resume)}: {done} "
            f"{'partie' if done == 1 else 'parties'} played.")
        if done:
            say(escape(chouette_card_text(match.card())))
            shown = done
    else:
        cut = ", ".join(f"{q} the {card_words(c)}" for q, c in match.cut.items())
        say(f"The cut (p. 106): {escape(cut)}. The highest plays alone, the lowest advises.")
    code, left = 0, True
    shown = -1  # how many parties the card showed when it was last shown
    try:
        while True:
            if match.partie_over():
                if ns.parties is not None and len(match.card().parties) >= ns.parties:
                    break
                if ns.parties is None and not table.another():
                    break
                match.next_partie()
                table.keep()
            _announce(table, match)
            runner.play_partie()
            result = match.game.result()
            assert result is not None
            done = len(match.card().parties)
            if ns.parties is None or done < ns.parties:
                say("")
                say(escape(chouette_card_text(match.card())))
                shown = done
                say("")
                say(escape(f"Next: {rotation_words(match.places, result.single_won)}"), style="bold")
        left = False
    except ComputerFailed as e:
        say(f"The chouette cannot go on: {escape(str(e).rstrip('.'))}.", style="red")
        code = 1
    except (Quit, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            code = 130
        if match.game.partie is not None and not match.partie_over():
            say("The partie in play is left unfinished: it is not on the card.", style="italic")
    if left:
        if path is None:
            say("Nothing is saved (play with --record FILE to keep a chouette).", style="italic")
        elif not any(g.partie is not None for g in match.games):
            say("The chouette is left before its first deal: nothing is saved.", style="italic")
        elif not table.save_failed:  # saved after the last action (a suggestion since is made again)
            level_note = " --level simple" if code == 1 else ""
            say(f"Saved to {escape(path)}. Carry on with: piquet chouette --resume {escape(path)}{level_note}")
    _the_end(console, match, stake, custom, note, shown)
    return code


def _announce(table: ChouetteTable, match: ChouetteMatch) -> None:
    """The places of the partie about to be played, and what the person does in his."""
    places = match.places
    table.sit(places)
    n = len(match.games)
    table.say()
    table.console.rule(f"[bold]Partie {n} of the chouette[/]")
    table.say(escape(places_words(places)), style="bold")
    role = places.role(table.person)
    if role == "single":
        table.say(f"You play alone against {escape(places.playing)} and {escape(places.advising)} in "
                  "consultation: you see your own cards, never theirs nor their consultation.")
    elif role == "playing":
        table.say(f"You play for {escape(places.advising)} and yourself against {escape(places.single)}; "
                  f"{escape(places.advising)} advises you: the suggestion is shown before each of your "
                  "choices (type [bold]follow[/] to take it).")
    else:
        table.say(f"You advise {escape(places.playing)}, who plays for you both against "
                  f"{escape(places.single)}: you see the hand, and suggest when {escape(places.playing)} is to "
                  "choose (Enter leaves it to him; [bold]ok[/] answers a prompt's default).")


def _the_end(console: Console, match: ChouetteMatch, stake: Stake | None, custom: Custom, note: str | None,
             shown: int) -> None:
    """The card (unless it was shown just before) and, with a stake, the settlement (p. 100-102)."""
    console.print()
    console.rule("[bold]The chouette[/]")
    card = match.card()
    n = len(card.parties)
    if not n:
        console.print("No partie is finished: the card is empty, and nothing is settled.", highlight=False)
        return
    settlement = None if stake is None else card.settle(stake, custom)
    lines = [f"The chouette ends after {number_words(n)} {'partie' if n == 1 else 'parties'}."]
    if shown != n:
        lines.append(chouette_card_text(card, settlement))
    elif settlement is not None:
        lines += ["The card is as above.", *settlement.lines()]
    if note and settlement is not None:
        lines.append(note)
    console.print(escape("\n".join(lines)), highlight=False)


__all__ = [
    "ChouetteTable", "ChouetteTeller", "add_chouette_arguments", "conjugate", "document", "entry_words",
    "places_words", "rotation_words", "run_chouette",
]
