"""The terminal table: a person (seat A) plays a partie against the computer (seat B).

The table renders what the engine says and sends the person's choices back:
it holds no rules.  What it shows of the deal comes from the person's own
observation (``partie.observation("A")``), so the computer's cards appear only
when the laws let him see them: played, called good or equal, or shown as a
carte blanche.  The calling is told in the game's words (``words.Narrator``).
Answers are read with ``input()``, so a game can be scripted; ``help`` at any
prompt lists what may be typed, and ``quit``, Ctrl-C or the end of input leave,
saying where the partie is saved: after every action, to ``--record FILE`` or
in the user's data directory (``saves``), whence ``--resume`` alone carries on.
Answers are read by ``answers``: each card named once, an unknown word told to
type help, a long line never shown back whole.  What cannot be taken back is
confirmed: the exchange (Law 24: the stock once touched, it stands), a call of
less than is held, and at au cent an empty line that would keep the hand.

At Piquet au cent (``--rules au-cent``, with ``--agree`` for its options) the
table says what differs: the lower cut deals, by twos, with no choice; the
younger may discard nothing; the running score is the game's, a hundred up,
with the games won beside it; a game won stops the deal, and the partie is
three games out of five, a double counting two (p. 16-20).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from piquet.cli import saves
from piquet.cli.answers import AnswerError, read_card, read_cards, shorten
from piquet.cli.saves import save_atomically
from piquet.core.actions import Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import (
    DIAMONDS,
    FULL_PACK,
    HEARTS,
    SUIT_MASKS,
    Card,
    Mask,
    card_name,
    card_symbol,
    cards_of,
    mask_of,
    rank_of,
    suit_of,
)
from piquet.core.combinations import (
    point_key,
    sequence_key,
    set_key,
)
from piquet.core.deal import IllegalAction, Phase, full_declarations
from piquet.core.events import (
    ELDER,
    POINT,
    SEQUENCES,
    YOUNGER,
    CallPoint,
    CallSequence,
    CallSet,
    CallValue,
    Trick,
)
from piquet.core.observation import Observation, first_card
from piquet.core.partie import Partie, other_seat
from piquet.core.rules import RUBICON, Rules, rules_named
from piquet.players.base import DECLARING, Player
from piquet.players.levels import DEFAULT_LEVEL, LEVEL_NAMES, level_named, make_player
from piquet.players.runner import GameListener, PartieRunner, new_seed
from piquet.records.record import PartieRecord, RecordError, load_record, name_problem, record_of, replay
from piquet.records.replay import deal_games, tally_words
from piquet.study.hint import PLAY_WORLDS, deal_by_hint, deal_hint, hint
from piquet.talk.guide import rules_text, topic_list
from piquet.talk.laws import with_law
from piquet.talk.stakes import stake_words
from piquet.talk.words import (
    SCORE_LABELS,
    YOU,
    Cards,
    Line,
    Narrator,
    cut_words,
    deal_words,
    dealer_words,
    declaration_words,
    exchange_question,
    game_won_words,
    item_words,
    number_words,
    partie_headline,
    settlement_words,
)

HUMAN, COMPUTER = "A", "B"
_CATEGORY_NAMES = ("point", "sequences", "quatorzes and trios")
_COMMON_HELP = (
    ("hand", "your hand, your discard and the cards taken in"),
    ("score", "the score of this deal and the table of the partie"),
    ("tricks", "the tricks played so far, and who won each"),
    ("hint", "what to do here, and why: the treatise's reasons, the odds, the solver's values"),
    ("rules", "how to play: rules TOPIC for one part (rules exchange, rules pique), rules alone for the topics"),
    ("quit", "stop here: the partie is saved, and piquet play --resume carries on"),
)
_NONE = {"none", "nothing", "no", "n", "pass", "-"}
_YES = {"y", "yes"}


class Quit(Exception):
    """The person asked to stop (``quit``, or the end of input)."""


class ComputerFailed(Exception):
    """The computer player could not choose: a fault of its level, reported without losing the partie."""


class GuardedPlayer:
    """A computer player whose failure to choose is reported as ``ComputerFailed``, not as a crash."""

    def __init__(self, player: Player, level: str) -> None:
        self.player = player
        self.level = level

    def choose(self, obs: Observation) -> Action:
        try:
            return self.player.choose(obs)
        except Exception as e:  # any fault of the level: the table reports it and keeps the record
            raise ComputerFailed(f"the computer ({self.level}) could not choose: {type(e).__name__}: {e}") from e

    def choose_deal(self, won_cut: bool) -> bool:
        return self.player.choose_deal(won_cut)

    def deal_by(self) -> int:
        return self.player.deal_by()


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class TerminalTable(GameListener):
    """The person's side of the table: a ``Player`` who asks at the terminal, and the runner's listener.

    The person sees the observation of ``seat`` (A in ``piquet play``; at a chouette, A alone or B with
    the pair, ``chouette_terminal``)."""

    def __init__(self, console: Console, names: dict[str, str], symbols: bool = False,
                 save: Callable[[Partie], None] | None = None, echo: bool | None = None,
                 rules: Rules = RUBICON, seat: str = HUMAN) -> None:
        self.console = console
        self.names = names
        self.me, self.them = seat, other_seat(seat)  # the seat whose observation the person sees
        # How the table speaks of the others and of the hand it shows (a chouette changes them).
        self.adversary = "the computer"
        self.acting: str | None = None  # who holds the hand shown, when not the person (he advises him)
        self.choice_law = "Law 4"
        self.rules = rules
        self.symbols = symbols
        self.save = save
        self.asking: Observation | str | None = None  # the decision at hand, for ``hint``: "deal", "deal_by"
        self.hint_worlds = PLAY_WORLDS  # deals sampled for a hint in the play
        self.narrator = Narrator()
        self.told = 0  # events of the deal in progress already told
        self.again = False  # the last answer was refused: ask again without the preamble
        self.role_names = ("", "")
        self.human_role = ELDER
        self.cut_winner = self.me
        self.save_failed = False
        self.acted = False  # whether the person has made a move at this table (a resumed partie is saved after one)
        self.partie: Partie | None = None  # the partie of the deal in play, as the runner last showed it
        # Answers read from a file or a pipe are not echoed by the terminal: show them.
        self.echo = not sys.stdin.isatty() if echo is None else echo

    # ------------------------------------------------------------ showing cards

    def card(self, c: Card) -> str:
        text = card_symbol(c) if self.symbols else card_name(c)
        return f"[red]{text}[/]" if suit_of(c) in (HEARTS, DIAMONDS) else text

    def cards(self, cards: Iterable[Card] | Mask) -> str:
        seq = cards_of(cards) if isinstance(cards, int) else list(cards)
        return " ".join(self.card(c) for c in seq) if seq else "none"

    def hand(self, mask: Mask) -> str:
        """A hand suit by suit (spades, hearts, clubs, diamonds), high cards first."""
        return "   ".join(self.cards(mask & m) for m in SUIT_MASKS if mask & m)

    def your(self) -> str:
        """Whose hand is shown: ``Your``, or at a chouette the hand of the player the person advises."""
        return f"{self.acting}'s" if self.acting else "Your"

    def we(self, verb: str, third: str, start: bool = True) -> str:
        """``You deal``, or ``Cy deals`` when the hand shown is Cy's."""
        if self.acting:
            return f"{self.acting} {third}"
        return f"{'You' if start else 'you'} {verb}"

    @property
    def _s(self) -> str:
        """The verb's ending after ``self.adversary``: "the computer sees", "Bob and Cy see"."""
        return "" if " and " in self.adversary else "s"

    def say(self, text: str = "", style: str | None = None) -> None:
        self.console.print(text, style=style, highlight=False)

    def name(self, seat: str) -> str:
        return self.names[seat]

    # ------------------------------------------------------------ asking

    def ask(self, prompt: str, obs: Observation | None = None, help_lines: Sequence[tuple[str, str]] = ()
            ) -> str:
        """Read an answer; ``help``, ``rules``, ``hand``, ``score``, ``tricks`` and ``hint`` are answered here."""
        while True:
            try:
                line = self.console.input(f"[bold]{prompt}[/] › ")
            except (EOFError, KeyboardInterrupt):
                self.say()
                raise Quit from None
            if self.echo:
                self.say(escape(shorten(line.strip())), style="bold")
            text = line.strip()
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise Quit
            if word in ("help", "?", "h"):
                self.show_help(help_lines, obs is not None)
            elif word == "rules" or word.startswith("rules "):
                self.show_rules(text[len("rules"):].strip())
            elif obs is not None and word == "hand":
                self.show_hand(obs, full=True)
            elif obs is not None and word == "score":
                self.show_score(obs)
            elif obs is not None and word == "tricks":
                self.show_tricks(obs)
            elif word == "hint" and (obs is not None or self.asking is not None):
                self.hint(obs if obs is not None else self.asking)
            else:
                return text

    def confirm(self, question: str, help_lines: Sequence[tuple[str, str]] = ()) -> bool:
        """Ask before a choice that cannot be taken back; ``y`` or ``n``, nothing else (Law 24: the stock once
        touched, the exchange stands)."""
        lines = (("y", "yes, do it"), ("n", "no: choose again"), *help_lines)
        while True:
            answer = self.ask(f"{question} (y/n)", help_lines=lines).lower()
            if answer in _YES:
                return True
            if answer in ("n", "no"):
                return False
            self.error("Answer y or n.")

    def hint(self, at: Observation | str | None) -> None:
        """The advice for the decision at hand and its reasons (``piquet.study.hint``), from the person's own
        observation only; if it cannot answer here, say so and play on."""
        try:
            if at == "deal":
                advice = deal_hint(self.rules.small_cards_count)
            elif at == "deal_by":
                advice = deal_by_hint()
            elif isinstance(at, Observation):
                advice = hint(at, self.hint_worlds)
            else:
                return
        except Exception as e:  # a fault of the adviser must not end the person's game
            self.error(f"No hint: the adviser cannot answer here ({type(e).__name__}: {e}).")
            return
        first = self.describe(advice.action) if advice.action is not None else advice.advice.rstrip(".").lower()
        self.say(f"Hint: {first}", style="italic")
        for reason in advice.reasons:
            self.say(f"  · {escape(reason)}", style="italic")

    def show_help(self, help_lines: Sequence[tuple[str, str]], in_deal: bool) -> None:
        table = Table(box=None, show_header=False, padding=(0, 2))
        for what, means in help_lines:
            table.add_row(f"[bold]{escape(what)}[/]", means)
        for what, means in _COMMON_HELP:
            if in_deal or what in ("quit", "rules"):
                table.add_row(f"[bold]{what}[/]", means)
        table.add_row("[bold]help[/]", "this list")
        self.console.print(table)

    def show_rules(self, topic: str) -> None:
        """``rules``: the guide's topics; ``rules TOPIC``: that part of the guide (docs/rules.md)."""
        if topic:
            text = rules_text(topic)
        else:
            text = ("The guide to the game: type rules and a topic (rules exchange, rules pique); the whole guide is "
                    "piquet rules, outside the game, or the How to play page of piquet serve.\n" + topic_list())
        self.console.print(text, highlight=False, markup=False)

    def rejected(self, error: IllegalAction) -> None:
        """The engine refused the person's action: say why, and what the law cited says; the question is asked
        again."""
        self.say(f"Not allowed: {escape(with_law(str(error)))}", style="red")
        self.again = True

    def error(self, text: str) -> None:
        self.say(escape(text), style="red")

    def describe(self, action: Action) -> str:
        """An action in words, as a hint."""
        if isinstance(action, Discard):
            return f"discard {self.cards(action.cards)}" if action.cards else "discard nothing (p. 17)"
        if isinstance(action, LookAtLeft):
            return "look at the cards left" if action.look else "do not look at the cards left"
        if isinstance(action, Play):
            return f"play {self.card(action.card)}"
        if isinstance(action, DeclarePoint):
            return f"call {self.cards(action.cards)}" if action.cards else "call no point"
        items = action.runs if isinstance(action, DeclareSequences) else action.sets
        return "call " + ", ".join(self.cards(m) for m in items) if items else "call nothing"

    # ------------------------------------------------------------ the Player protocol

    def choose_deal(self, won_cut: bool) -> bool:
        self.asking = "deal"
        answer = self.ask(f"You have the choice ({self.choice_law}). Deal first? \\[Y/n]", help_lines=(
            ("y or Enter", "deal first: the first dealer is elder hand in the last deal (p. 108)"),
            ("n", f"let {self.adversary} deal: you are elder hand in the first deal"),
            ("hint", "which to choose, and why")))
        while answer.lower() not in _YES | {"", "n", "no"}:
            answer = self.ask("Deal first? Answer y or n")
        return answer.lower() in _YES | {""}

    def deal_by(self) -> int:
        help_lines = (("2 or Enter", "deal two cards at a time"), ("3", "deal three cards at a time"),
                      ("hint", "which to choose, and why"))
        self.asking = "deal_by"
        answer = self.ask("Deal by two or by three cards at a time, for the whole partie (Law 9)? \\[2/3]",
                          help_lines=help_lines)
        while answer not in ("", "2", "3"):
            answer = self.ask("Answer 2 or 3", help_lines=help_lines)
        return 3 if answer == "3" else 2

    def choose(self, obs: Observation) -> Action:
        self.asking = obs
        p = obs.phase
        again, self.again = self.again, False
        if p in (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD):
            return self.ask_discard(obs, again)
        if p in (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK):
            return self.ask_look(obs)
        if p in DECLARING:
            return self.ask_declaration(obs, DECLARING[p], again)
        return self.ask_play(obs, again)

    def ask_discard(self, obs: Observation, again: bool = False) -> Action:
        elder = obs.role == ELDER
        most = obs.max_discard
        may_keep = obs.min_discard == 0  # Piquet au cent: the younger need not discard (p. 17)
        if not again:
            self.say()
            self.show_hand(obs)
            who = "Elder hand" if elder else "Younger hand"
            if may_keep:
                self.say(f"The stock holds {number_words(obs.stock_left)} cards. {who}: exchange up to "
                         f"{number_words(most)}, or none (p. 17).")
            else:
                self.say(f"The stock holds {number_words(obs.stock_left)} cards. {who}: exchange one to "
                         f"{number_words(most)} (Law {21 if elder else 22}).")
        help_lines: tuple[tuple[str, str], ...] = (
            ("cards", f"the cards to put out, e.g. KS 8C 7C ({'up' if may_keep else 'one'} to "
                      f"{number_words(most)}); you take in as many from the top of the stock"),)
        if may_keep:
            help_lines += (("none or Enter", "keep your hand: discard nothing and take nothing in (p. 17)"),)
        prompt = f"Discard (none, or 1 to {most})" if may_keep else f"Discard (1 to {most})"
        while True:
            text = self.ask(prompt, obs, help_lines)
            if may_keep and text.lower() in _NONE:
                return Discard(0)
            if may_keep and not text:
                if self.confirm(exchange_question(0, "")):
                    return Discard(0)
                continue
            if not text:
                self.error("Name the cards you put out, e.g. KS 8C 7C.")
                continue
            try:
                mask = mask_of(read_cards(text))
            except AnswerError as e:
                self.error(str(e))
                continue
            n = mask.bit_count()
            if mask & ~obs.hand or not obs.min_discard <= n <= most:
                return Discard(mask)  # the engine says why not, citing the law
            if self.confirm(exchange_question(n, self.cards(mask))):
                return Discard(mask)

    def ask_look(self, obs: Observation) -> Action:
        elder = obs.role == ELDER
        # The elder left what he did not take of the top five; the younger, what is still in the stock.
        count = 5 - obs.taken.bit_count() if elder else obs.stock_left
        them = "it" if count == 1 else "them"
        cards = f"{number_words(count)} card{'s' if count > 1 else ''}"
        if elder:
            prompt = f"You leave {cards}. Look at {them}? \\[Y/n]"
            default = True
            help_lines = (("y or Enter", f"look: you alone see {them} (Law 33)"), ("n", "do not look"))
        else:
            prompt = (f"You leave {cards}. Look at {them}? {_capital(self.adversary)} see{self._s} {them} too "
                      "(Law 36). \\[y/N]")
            default = False
            help_lines = (("y", f"look; {self.adversary} see{self._s} {them} too"), ("n or Enter", "nobody sees them"))
        while True:
            answer = self.ask(prompt, obs, help_lines).lower()
            if answer == "":
                return LookAtLeft(default)
            if answer in _YES:
                return LookAtLeft(True)
            if answer in ("n", "no"):
                return LookAtLeft(False)
            self.error("Answer y or n.")

    def ask_declaration(self, obs: Observation, category: int, again: bool = False) -> Action:
        full = obs.lawful(full_declarations(obs.hand)[category])
        if obs.legal_count() == 1:
            return full  # nothing to declare in this category
        p = obs.phase
        items = _items(full)
        answering = p in (Phase.YOUNGER_POINT, Phase.YOUNGER_SEQUENCES, Phase.YOUNGER_SETS)
        if answering and _below_call(obs, category, items[0]):
            return full  # the call is good against anything held: "Good."
        if p in (Phase.ELDER_POINT, Phase.ELDER_SEQUENCES, Phase.ELDER_SETS):
            verb, default = "Call", "call " + ("it" if len(items) == 1 else "them")
        elif answering:
            verb, default = "Answer", "declare " + ("it" if len(items) == 1 else "them")
        else:
            verb, default = "Reckon", "reckon " + ("it" if len(items) == 1 else "them")
        if not again:
            what = "; ".join(f"{item_words(category, m)} ({self.cards(m)})" for m in items)
            if category == POINT:
                self.say()
                self.show_hand(obs)
            if verb == "Reckon":
                called = ("point", "sequence", "quatorze or trio")[category]
                self.say(f"{self.name(self.them)} called no {called}. Yours: {what}.")
            else:
                self.say(f"{self.your()} {_CATEGORY_NAMES[category]}: {what}.")
        help_lines = (
            ("Enter", default),
            ("none", "declare nothing (sinking it, p. 93)"),
            ("cards", "declare only these cards, e.g. " + " ".join(card_name(c) for c in cards_of(items[0]))),
        )
        while True:
            text = self.ask(f"{verb}? \\[Enter: {default} · none · or the cards to declare]", obs, help_lines)
            if text == "":
                return full
            if text.lower() in _NONE:
                return full_declarations(0)[category]  # nothing
            try:
                action = _declaration(category, mask_of(read_cards(text)))
            except AnswerError as e:
                self.error(str(e))
                continue
            question = _less_words(verb, category, action, full, obs)
            if question is None or self.confirm(question):
                return action

    def ask_play(self, obs: Observation, again: bool = False) -> Action:
        legal = [a for a in obs.legal_actions() if isinstance(a, Play)]
        if not again:
            self.say()
            self.show_status(obs)
            self.show_hand(obs)
        if len(legal) == 1 and obs.lead >= 0:
            self.say(f"You must play {self.card(legal[0].card)}.", style="italic")
            return legal[0]
        if obs.lead < 0:
            prompt = "Lead"
            help_lines: tuple[tuple[str, str], ...] = (("card", "the card you lead, e.g. AH"),)
        else:
            suit = SUIT_MASKS[suit_of(obs.lead)]
            options = self.cards(a.card for a in legal) if obs.hand & suit else "any card"
            prompt = f"Play to the {self.card(obs.lead)} \\[{options}]"
            help_lines = (("card", "the card you play: follow suit if you can (Law 59); you need not win"),)
        while True:
            text = self.ask(prompt, obs, help_lines)
            try:
                return Play(read_card(text))
            except AnswerError as e:
                self.error(str(e))

    # ------------------------------------------------------------ showing the deal

    def show_hand(self, obs: Observation, full: bool = False) -> None:
        self.say(f"{self.your()} hand:  {self.hand(obs.hand)}")
        if full:
            for label, cards in self.known_cards(obs):
                self.say(f"{label}:  {cards}")

    def known_cards(self, obs: Observation) -> list[tuple[str, str]]:
        """Beside the hand, the other cards the person knows of, each with its label: his discard, the cards taken
        in, those left in the stock that he saw, and the adversary's cards that the laws have shown."""
        return [(label, self.cards(mask)) for label, mask in (
            (f"{self.your()} discard", obs.discard), ("Taken in", obs.taken),
            ("Left in the stock, seen", obs.seen_left),
            (f"{_capital(self.adversary)}'s cards you know of (called or shown)", obs.adversary_known())) if mask]

    def show_status(self, obs: Observation) -> None:
        """The trick, each player's count as he has called it, and the tricks won."""
        me, them = obs.role, 1 - obs.role
        won = obs.tricks_won
        count = self.narrator.count
        self.say(f"[bold]Trick {obs.trick}[/]   {self.name(self.me)} {count[me]} · "
                 f"{self.name(self.them)} {count[them]}   tricks {won[me]}–{won[them]}", style="dim")

    def show_score(self, obs: Observation) -> None:
        """``score``: this deal as called, and the table of the partie: each deal played and where it stands."""
        me, them = obs.role, 1 - obs.role
        count = self.narrator.count
        self.say(f"This deal, as called: {self.name(self.me)} {count[me]}, {self.name(self.them)} {count[them]}.")
        if obs.partie is None:
            return
        p, before = obs.partie, obs.partie.deal_number - 1
        if self.partie is not None and before:
            self.show_partie_card(self.partie, upto=before)
        if obs.rules.partie_of_games:
            self.say(f"Game {p.game_number} before this deal: {self.game_line(p.scores, p.games)}"
                     "   (a hundred up; three games out of five, a double counting two).")
        else:
            s = p.scores
            self.say(f"The partie before this deal: {self.name(self.me)} {s.get(self.me, 0)}, "
                     f"{self.name(self.them)} {s.get(self.them, 0)} (deal {p.deal_number} "
                     f"of {p.deals_in_partie}).")
        for line in stake_words(p, {self.me: self.acting or YOU, self.them: self.name(self.them)}):
            self.say(escape(line))

    def show_tricks(self, obs: Observation) -> None:
        """``tricks``: each trick of the deal, the card each player played to it, the card led first, and who
        won it (Law 60: the higher card of the suit led wins)."""
        tricks = [e for e in obs.events if isinstance(e, Trick)]
        if not tricks and obs.lead < 0:
            self.say("No card has been played yet.")
            return
        me = obs.role
        table = Table(box=box.SIMPLE, padding=(0, 1))
        table.add_column("Trick", justify="right")
        table.add_column(self.name(self.me))
        table.add_column(self.name(self.them))
        table.add_column("Won by")

        def played(c: Card, led: bool) -> str:
            return self.card(c) + (" (led)" if led else "")

        for t in tricks:
            mine, theirs = (t.lead, t.follow) if t.leader == me else (t.follow, t.lead)
            table.add_row(str(t.number), played(mine, t.leader == me), played(theirs, t.leader != me),
                          escape(self.name(self.me if t.winner == me else self.them)))
        if obs.lead >= 0:
            mine_led = obs.to_move != me
            cell = played(obs.lead, True)
            table.add_row(str(obs.trick), cell if mine_led else "", "" if mine_led else cell, "[dim]to play[/]")
        self.console.print(table)
        won = obs.tricks_won
        self.say(f"Tricks won: {self.name(self.me)} {won[me]} · {self.name(self.them)} {won[1 - me]}")

    # ------------------------------------------------------------ the listener

    def cut(self, cut_a: Card, cut_b: Card, winner: str) -> None:
        self.cut_winner = winner
        self.say(escape(cut_words(self.names, {"A": cut_a, "B": cut_b}, winner, not self.rules.higher_cut_chooses,
                                  self.me)))

    def dealer_chosen(self, partie: Partie) -> None:
        for text in dealer_words(self.names, self.cut_winner, partie.first_dealer, partie.deal_by,
                                 not partie.rules.higher_cut_chooses):
            self.say(escape(text))

    def deal_started(self, partie: Partie) -> None:
        index = len(partie.deals) - 1
        elder_seat = partie.seat(index, ELDER)
        self.role_names = (self.name(elder_seat), self.name(partie.seat(index, YOUNGER)))
        self.human_role = partie.role(index, self.me)
        self.partie = partie
        self.narrator = Narrator(self.role_names)
        self.told = 0
        self.say()
        context = partie.context(self.me)
        s = context.scores
        opening = escape(deal_words(context, {self.me: self.acting or YOU, self.them: self.name(self.them)}))
        if partie.rules.partie_of_games:
            game = deal_games(partie)[index]
            self.console.rule(f"[bold]Game {game.number} · deal {game.deal}[/] · deal {index + 1} of the partie")
            if game.deal == 1:
                self.say(f"Game {game.number} begins, a hundred up: both players at nothing (p. 20).",
                         style="bold")
            self.say(f"{opening}   Game {game.number}: {self.game_line(s, context.games)}")
        else:
            self.console.rule()
            self.say(f"{opening}   Partie: {self.name(self.me)} {s[self.me]} · "
                     f"{self.name(self.them)} {s[self.them]}")
        for line in stake_words(context, {self.me: self.acting or YOU, self.them: self.name(self.them)}):
            self.say(escape(line), style="bold")
        if partie.deals[-1].history:
            self.say("The deal so far:", style="italic")
        self.tell(partie)
        self.save_now(partie)

    def action_applied(self, partie: Partie, seat: str, action: Action) -> None:
        self.acted = self.acted or seat == self.me
        self.tell(partie)
        self.save_now(partie)

    def game_line(self, scores: dict[str, int], games: dict[str, int]) -> str:
        """``You 45 · Computer 30   Games won: You 1 · Computer 0``: the game, where the partie score stands."""
        return (f"{self.name(self.me)} {scores.get(self.me, 0)} · {self.name(self.them)} "
                f"{scores.get(self.them, 0)}   Games won: {self.name(self.me)} {games.get(self.me, 0)} · "
                f"{self.name(self.them)} {games.get(self.them, 0)}")

    def deal_finished(self, partie: Partie) -> None:
        self.tell(partie)
        self.show_deal_card(partie, len(partie.deals) - 1)

    def partie_finished(self, partie: Partie) -> None:
        self.say()
        names = {seat: self.name(seat) for seat in (self.me, self.them)}
        headline = partie_headline(partie.settlement().winner, names) if partie.is_finished else "The partie"
        self.console.rule(f"[bold]{escape(headline)}[/]")
        self.show_partie_card(partie)
        self.show_settlement(partie)
        self.save_now(partie)

    def another_partie(self) -> bool:
        """At the end of a partie: ``Another partie? (y/N)``; yes starts one with the same options, and an empty
        line, ``quit`` or the end of input end the session."""
        lines = (("y", "yes: another partie, with the same rules, level and name"), ("n", "no: stop here"))
        while True:
            try:
                answer = self.ask("Another partie? (y/N)", help_lines=lines).lower()
            except Quit:
                return False
            if answer in _YES:
                return True
            if answer in ("", "n", "no"):
                return False
            self.error("Answer y or n.")

    def save_now(self, partie: Partie) -> None:
        """Save the record; if it cannot be written, say so once and play on."""
        if self.save is None:
            return
        try:
            self.save(partie)
        except OSError as e:
            if not self.save_failed:
                self.error(f"The record cannot be saved: {e}")
            self.save_failed = True
        else:
            self.save_failed = False

    # ------------------------------------------------------------ telling what happens

    def tell(self, partie: Partie) -> None:
        """Tell the deal's new events from the person's observation: the narrator's lines, a trick a row."""
        obs = partie.observation(self.me)
        new = obs.events[self.told:]
        self.told = len(obs.events)
        me = obs.role
        # The person asks "Which king do you not reckon?" when he cannot rule out a quatorze
        # (p. 92); the computer's holding is not known here, so it is never shown asking.
        held = obs.dealt | obs.taken | obs.seen_left
        self.narrator.viewer_cards = (held, FULL_PACK) if me == ELDER else (FULL_PACK, held)
        row: list[str] = []  # the trick in progress: its cards, the counts said with them, its winner
        number = 0
        for line in self.narrator.lines(new, hold=True):
            if line.trick is not None:
                if line.kind == "play" and line.trick != number and row:
                    self.say("".join(row))
                    row = []
                number = line.trick
                if not row and line.kind != "play":
                    self.say_line(line)  # said after other words: "Computer: “Eleven.”"
                elif line.kind == "play":
                    row.append(("  " if not row else "    ") + self.render(line))
                elif line.kind == "trick":
                    row.append(f"  [dim]— {self.render(line)}[/]")
                else:
                    row.append(f"  [{self._colour(line.role)}]“{self.render(line)}”[/]")
                continue
            if row:
                self.say("".join(row))
                row = []
            self.say_line(line)
            if line.kind == "exchange" and line.role == me and obs.taken:
                self.say(f"  {self.we('take', 'takes')} in {self.cards(obs.taken)}.", style="italic")
            if line.kind == "look" and line.role == me and me == ELDER and obs.seen_left:
                self.say(f"  The cards {self.we('left', 'left', start=False)}: {self.cards(obs.seen_left)}.",
                         style="italic")
        if row:
            self.say("".join(row))

    def render(self, line: Line) -> str:
        """A line's words, its cards by name (with suit symbols when asked), the rest escaped."""
        def cards(c: Cards) -> str:
            return escape(c.plain) if c.words else self.cards(c.mask)
        return "".join(escape(s) if isinstance(s, str) else cards(s) for s in line.segments)

    def _colour(self, role: int) -> str:
        return "green" if role == self.human_role else "cyan"

    def say_line(self, line: Line) -> None:
        if line.speaker is None:
            self.say("  " + self.render(line))
        else:
            role = line.speaker
            self.say(f"  [bold {self._colour(role)}]{escape(self.role_names[role])}[/]: “{self.render(line)}”")

    # ------------------------------------------------------------ score cards

    def show_deal_card(self, partie: Partie, index: int) -> None:
        """The deal's score card: each player's scores in the order of Law 67, and the partie."""
        obs = partie.observation(self.me)
        me, them = obs.role, 1 - obs.role
        mine, theirs = obs.scores[me], obs.scores[them]
        self.say()
        table = Table(title=f"Deal {index + 1}", box=box.SIMPLE, title_style="bold", show_footer=True)
        table.add_column("", footer="Total")
        table.add_column(self.name(self.me), justify="right", footer=str(sum(mine)))
        table.add_column(self.name(self.them), justify="right", footer=str(sum(theirs)))
        for k, label in enumerate(SCORE_LABELS.values()):
            if mine[k] or theirs[k] or k in (1, 2, 3, 4, 5):
                table.add_row(label, str(mine[k]), str(theirs[k]))
        mult = partie.rules.multiplier(index)
        if mult > 1:
            s = partie.deal_score(index)
            table.add_row(f"In the partie (×{mult})", str(s[self.me]), str(s[self.them]))
        self.console.print(table)
        s = partie.scores
        if partie.rules.partie_of_games:
            self.show_game(partie, index)
            return
        self.say(f"The partie: {self.name(self.me)} {s[self.me]} · {self.name(self.them)} {s[self.them]}"
                 f"   ({sum(1 for d in partie.deals if d.is_over)} of {partie.deals_needed} deals played)")

    def show_game(self, partie: Partie, index: int) -> None:
        """After a deal at Piquet au cent: the game's score, or the game won and the games won (p. 20)."""
        game = deal_games(partie)[index]
        if game.won is None:
            s = game.scores
            self.say(f"Game {game.number}: {self.name(self.me)} {s[self.me]} · "
                     f"{self.name(self.them)} {s[self.them]}   (a hundred up)")
            return
        self.say(escape(game_won_words(game.won, partie.deals[index], self.names)) + ".", style="bold")
        self.say(escape(tally_words(partie.games(), self.names)))

    def show_partie_card(self, partie: Partie, upto: int | None = None) -> None:
        """The partie's score card: each deal as it counts, and the totals (at Piquet au cent, the games); with
        ``upto``, the deals before that one (``score`` in the middle of a deal)."""
        shown = range(len(partie.deals) if upto is None else upto)
        if partie.rules.partie_of_games:
            self.show_games_card(partie, shown)
            return
        scores = [partie.deal_score(i) for i in shown]
        total = {seat: sum(s[seat] for s in scores) for seat in (self.me, self.them)}
        table = Table(box=box.SIMPLE, show_footer=True)
        table.add_column("Deal", justify="right", footer="Total")
        table.add_column("Dealer")
        table.add_column(self.name(self.me), justify="right", footer=str(total[self.me]))
        table.add_column(self.name(self.them), justify="right", footer=str(total[self.them]))
        for i, s in zip(shown, scores, strict=True):
            note = "" if partie.deals[i].is_over else " (unfinished)"
            table.add_row(f"{i + 1}{note}", self.name(partie.dealer(i)), str(s[self.me]), str(s[self.them]))
        self.console.print(table)

    def show_games_card(self, partie: Partie, shown: range | None = None) -> None:
        """Piquet au cent: each deal with its game and the game's score after it, then the games won (p. 20)."""
        table = Table(box=box.SIMPLE)
        for title in ("Deal", "Game", "Dealer", self.name(self.me), self.name(self.them), "The game"):
            table.add_column(title, justify="left" if title in ("Dealer", "The game") else "right")
        games = deal_games(partie)
        shown = range(len(games)) if shown is None else shown
        for i, g in zip(shown, games, strict=False):
            s = partie.deal_score(i)
            note = "" if partie.deals[i].is_over else " (unfinished)"
            if g.won is not None:
                note = f", won by {self.name(g.won.winner)}{' (double)' if g.won.double else ''}"
            table.add_row(str(i + 1), str(g.number), self.name(partie.dealer(i)), str(s[self.me]),
                          str(s[self.them]), escape(f"{g.scores[self.me]} to {g.scores[self.them]}{note}"))
        self.console.print(table)
        self.say(escape(tally_words([g for g in partie.games() if g.last_deal < len(shown)], self.names)))

    def show_settlement(self, partie: Partie) -> None:
        names = {seat: self.name(seat) for seat in (self.me, self.them)}
        played = sum(1 for d in partie.deals if d.is_over)
        text = settlement_words(partie.settlement(), partie.scores, partie.rules, names, played, partie.deals_needed)
        self.say(f"[bold]{text}[/]")


# ---------------------------------------------------------------- declarations


def _items(action: Action) -> tuple[Mask, ...]:
    if isinstance(action, DeclarePoint):
        return (action.cards,) if action.cards else ()
    if isinstance(action, DeclareSequences):
        return action.runs
    assert isinstance(action, DeclareSets)
    return action.sets


def _declaration(category: int, cards: Mask) -> Action:
    """The declaration of these cards: one point, the sequences they form, the sets of each rank."""
    if category == POINT:
        return DeclarePoint(cards)
    if category == SEQUENCES:
        runs: list[Mask] = []
        run = 0
        for c in sorted(cards_of(cards)):
            if run and not (suit_of(c) == suit_of(first_card(run)) and run >> (c - 1) & 1):
                runs.append(run)
                run = 0
            run |= 1 << c
        if run:
            runs.append(run)
        return DeclareSequences(tuple(runs))
    by_rank: dict[int, Mask] = {}
    for c in cards_of(cards):
        by_rank[rank_of(c)] = by_rank.get(rank_of(c), 0) | 1 << c
    return DeclareSets(tuple(by_rank.values()))


def _less_words(verb: str, category: int, action: Action, full: Action, obs: Observation) -> str | None:
    """The question put when the cards named declare less than the hand holds, a sinking perhaps by mistake
    (p. 93): ``Call only two? Your point is five.``; None when they declare it all, or when the engine will
    refuse them (it then says why)."""
    named, whole = _items(action), _items(full)
    if not named or not whole or frozenset(named) not in {frozenset(_items(a)) for a in obs.legal_actions()}:
        return None
    if category == POINT:
        (mine,), (best,) = named, whole
        if point_key(mine) >= point_key(best):
            return None
        n, m = mine.bit_count(), best.bit_count()
        if n < m:
            return f"{verb} only {number_words(n)}? Your point is {number_words(m)}."
        return f"{verb} a point making {number_words(point_key(mine)[1])}? Yours makes " \
               f"{number_words(point_key(best)[1])}."
    if set(named) == set(whole):
        return None
    assert isinstance(action, DeclareSequences | DeclareSets) and isinstance(full, DeclareSequences | DeclareSets)
    return f"{verb} only {_uncap(declaration_words(action))}? You hold {_uncap(declaration_words(full))}."


def _uncap(text: str) -> str:
    return text[:1].lower() + text[1:]


def _below_call(obs: Observation, category: int, best: Mask) -> bool:
    """Whether the elder's call beats the best the younger holds, whatever he declares.

    For the point only the number of cards is compared before "What do they make?" (Law 62); at Piquet
    au cent the elder has called what it makes too (p. 18).
    """
    kind = (CallPoint, CallSequence, CallSet)[category]
    call = next((e for e in reversed(obs.events) if type(e) is kind), None)
    if isinstance(call, CallPoint):
        stated = next((e for e in reversed(obs.events) if isinstance(e, CallValue)), None)
        if obs.rules.calls_state_value and stated is not None:
            return point_key(best) < (call.length, stated.value)
        return point_key(best)[0] < call.length
    if isinstance(call, CallSequence):
        return sequence_key(best) < (call.length, call.head)
    if isinstance(call, CallSet):
        return set_key(best) < (call.size, call.rank)
    return False


# ---------------------------------------------------------------- the command


def _computer_level(players: dict[str, str] | None) -> str | None:
    """The level saved in a record's name for seat B, ``Computer (simple)``."""
    if not players:
        return None
    m = re.fullmatch(r".*\(([\w-]+)\)", players.get(COMPUTER, ""))
    return m.group(1) if m and m.group(1) in LEVEL_NAMES else None


def run_play(ns: argparse.Namespace, console: Console | None = None,
             table_class: type[TerminalTable] = TerminalTable) -> int:
    """``piquet play``: a partie against the computer; 0 when it ends or is left, 2 for bad options.

    The partie is saved after every action: to ``--record FILE``, to the file resumed, or else to the user's
    data directory (``saves``); ``--resume`` with no file carries on the last unfinished partie.  The file is
    held for the time of the partie (``saves.PartieLock``): another ``piquet play`` on it is refused.
    ``table_class`` is the person's side of the table: the lines, or the full screen (``screen``).
    """
    with contextlib.ExitStack() as held:
        return _play(ns, console, held, table_class)


def _play(ns: argparse.Namespace, console: Console | None, held: contextlib.ExitStack,
          table_class: type[TerminalTable]) -> int:
    console = console or Console(highlight=False)

    def fail(message: str) -> int:
        console.print(f"piquet play: {escape(message)}", style="red", highlight=False)
        return 2

    def note(text: str) -> None:
        console.print(escape(text), style="italic", highlight=False)

    partie: Partie | None = None
    record: PartieRecord | None = None
    seed: int | None = ns.seed
    resume: str | None = ns.resume
    if resume == "":  # --resume with no file: the last unfinished partie
        found = saves.last_unfinished()
        if found is None:
            return fail(f"no unfinished partie to resume (they are saved in {saves.parties_dir()}); "
                        "start one with: piquet play")
        resume = str(found)
    if resume:
        try:
            record = load_record(resume)
            partie = replay(record)
        except RecordError as e:
            return fail(f"{resume}: {e}")
        if record.seed is None:
            note("The record has no seed: the deals to come are dealt afresh.")
        elif seed is not None and seed != record.seed:
            note(f"The record's seed {record.seed} is used, not {seed}.")
        seed = record.seed
    # The names in force where the partie goes on: the record's, as its deals changed them.
    here = 0 if partie is None else len(partie.deals) - (1 if partie.current is not None else 0)
    saved = None if record is None else record.players_at(here)
    was = _computer_level(saved)
    level = ns.level or was or DEFAULT_LEVEL
    agree: list[str] = getattr(ns, "agree", None) or []
    try:
        wanted = rules_named(ns.rules or ("rubicon" if partie is None else partie.rules.name), agree)
        computer = GuardedPlayer(make_player(level, seed), level_named(level).name)
        level = level_named(level).name
    except ValueError as e:
        return fail(str(e))
    rules = wanted if partie is None else partie.rules
    if (ns.rules or agree) and wanted != rules:
        console.print(f"The record's rules are used: {escape(rules.title)}.", style="italic", highlight=False)
    path: str | None = ns.record or resume
    if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        return fail(f"cannot save the record to {path}: no such folder")
    if ns.record and not resume and os.path.exists(ns.record):
        console.print(f"{escape(ns.record)} exists and will be replaced (--resume continues a saved partie).",
                      style="italic", highlight=False)
    own_file = path is None  # saved in the data directory, found again by --resume alone
    save_path = str(saves.new_partie_path()) if path is None else path
    the_seed = new_seed() if seed is None else seed
    human = ns.name or (saved or {}).get(HUMAN) or "You"
    if (problem := name_problem(human)) is not None:
        return fail(f"--name: {problem}")
    try:
        if own_file:  # the lock is kept beside the file
            os.makedirs(os.path.dirname(save_path), exist_ok=True)
        held.enter_context(saves.playing(save_path))
    except saves.PartieBusy as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"cannot save the record to {save_path}: {e.strerror or e}")
    names_now = {HUMAN: human, COMPUTER: f"Computer ({level})"}
    # The record's names stay those of its first deals; a change on resuming is recorded from the deal on.
    record_names = names_now if record is None or record.players is None else dict(record.players)
    deal_players = {} if record is None else {i: d.players for i, d in enumerate(record.deals) if d.players}
    changed = {seat: name for seat, name in names_now.items() if saved is not None and saved.get(seat) != name}
    if record is not None and record.players is not None and changed:
        deal_players[here] = {**deal_players.get(here, {}), **changed}
    remembered = False

    def save(p: Partie) -> None:
        nonlocal remembered
        # A partie resumed is written again once the person has moved: quitting at once leaves the file as it
        # was, byte for byte (what the computer and the deal did meanwhile comes again from the seed).
        if record is not None and not table.acted:
            return
        if own_file:
            os.makedirs(os.path.dirname(save_path), exist_ok=True)
        save_atomically(save_path, record_of(p, players=record_names, seed=the_seed,
                                             deal_players=deal_players).to_json())
        if not remembered:
            remembered = True
            with contextlib.suppress(OSError):  # --resume alone still finds the parties of the data directory
                saves.remember(save_path)

    table = table_class(console, {HUMAN: human, COMPUTER: "Computer"}, symbols=ns.symbols, save=save, rules=rules)
    console.print(f"[bold]{rules.title}[/]: {escape(human)} against the computer ({level}). "
                  f"Seed {the_seed}.", highlight=False)
    console.print("Cards are named rank then suit: AS, 10H, QC, 7D. Type [bold]help[/] at any prompt.",
                  highlight=False)
    if partie is not None:
        console.print(f"Resuming the partie saved in {escape(resume or '')}.", highlight=False)
        if was is not None and was != level and not partie.is_finished:
            console.print(f"[bold]The computer now plays at {level}, not {was}[/]: the record keeps {was} for "
                          f"what was played, and notes {level} from deal {here + 1} on.", highlight=False)
        if any(d.is_over for d in partie.deals):
            table.show_partie_card(partie)
    else:
        note(f"The partie is saved as it goes, in {save_path}.")
    carry_on = ("piquet play --resume" + (" --screen" if getattr(ns, "screen", False) else "")
                + ("" if own_file or saves.in_data_dir(save_path) else f" {save_path}"))
    partie_done_before = partie is not None and partie.is_finished  # a finished partie resumed: no offer
    runner = PartieRunner({HUMAN: table, COMPUTER: computer}, the_seed, rules, partie, listener=table)
    try:
        runner.run()
    except ComputerFailed as e:
        console.print(f"The partie cannot go on: {escape(str(e).rstrip('.'))}.", style="red", highlight=False)
        if runner.partie is not None and runner.partie.deals and not table.save_failed:
            console.print(f"Saved to {escape(save_path)}. Carry on with another level: "
                          f"{escape(carry_on)} --level simple", highlight=False)
        return 1
    except (Quit, KeyboardInterrupt) as stop:
        started = runner.partie is not None and bool(runner.partie.deals)
        if started and not table.save_failed:
            if isinstance(stop, Quit):
                assert runner.partie is not None
                table.save_now(runner.partie)  # already saved after the last action; once more
            console.print(f"Saved to {escape(save_path)}. Carry on with: {escape(carry_on)}", highlight=False)
        elif started:
            console.print("The partie is left unfinished: it could not be saved.", highlight=False)
        else:
            console.print("The partie is left unfinished: nothing was played, nothing is saved.", highlight=False)
        if isinstance(stop, KeyboardInterrupt):
            return 130
    if partie_done_before or runner.partie is None or not runner.partie.is_finished or not table.another_partie():
        return 0
    # Another partie, with the same rules, level and name; a new seed, saved in the data directory.
    again = argparse.Namespace(**{**vars(ns), "resume": None, "record": None, "seed": None, "rules": rules.spec,
                                  "agree": [], "level": level, "name": human})
    held.close()  # this partie's file is free again
    return run_play(again, console, table_class)


__all__ = ["ComputerFailed", "GuardedPlayer", "Quit", "TerminalTable", "run_play", "save_atomically"]
