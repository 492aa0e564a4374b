"""The table talk: events told in the words players use (p. 86-105), once, for every interface.

The narrator turns the event log into ``Line`` values: who speaks (a role, or ``None`` for the
narrator), what the line tells (``kind``), and its words as segments, plain text and ``Cards``
(card references a page draws as card spans and a terminal prints by name).  The terminal, the
chouette, ``piquet replay`` and the browser all show these lines; none makes its own.

Names come as a mapping by role; "You" takes the second person ("You lead", "You are dealt").
Declarations are told in Law 67's order, point, then sequences, then sets, for both hands: the
younger's showings, which the engine logs as he reckons them, are told sorted by category.

>>> number_words(49)
'forty-nine'
>>> [line.text for line in Narrator().lines(_example_events())][:4]
['Five cards.', 'What do they make?', 'Forty-nine.', 'Good.']
>>> line = narrate([Play(ELDER, 7, 1)], ("You", "Bob"))[0]
>>> line.text, line.to_json()["segments"][1]
('You lead the ace of spades.', {'cards': ['AS'], 'words': 'ace of spades'})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from piquet.core.actions import Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft
from piquet.core.actions import Play as PlayCard
from piquet.core.cards import (
    RANK_MASKS,
    RANK_NAMES,
    RANK_PLURALS,
    SUIT_NAMES,
    Card,
    Mask,
    card_name,
    card_words,
    cards_of,
    format_cards,
)
from piquet.core.combinations import point_key, sequence_name, set_name, set_rank, suit_of_mask
from piquet.core.deal import Deal, Phase, full_declarations
from piquet.core.events import (
    CATEGORIES,
    ELDER,
    POINT,
    REPLIES,
    ROLES,
    S_CARDS,
    S_CARTE_BLANCHE,
    S_PIQUE,
    S_PLAY,
    S_POINT,
    S_REPIQUE,
    S_SEQUENCES,
    S_SETS,
    SCORE_KINDS,
    SEQUENCES,
    SETS,
    YOUNGER,
    AskValue,
    CallPoint,
    CallSequence,
    CallSet,
    CallValue,
    CarteBlanche,
    CarteBlancheShown,
    Event,
    Exchange,
    GameWon,
    Look,
    Miscall,
    NameSet,
    OddExchange,
    Penalty,
    Play,
    Reply,
    Score,
    Show,
    Trick,
    Unanswered,
)
from piquet.core.observation import Observation, PartieContext
from piquet.core.rules import Game, Rules, Settlement

_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
         "nineteen"]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def number_words(n: int) -> str:
    """Numbers as a player says them: ``forty-nine``, ``one hundred and two``."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        t, u = divmod(n, 10)
        return _TENS[t] + ("" if u == 0 else "-" + _ONES[u])
    if n < 1000:
        h, r = divmod(n, 100)
        return _ONES[h] + " hundred" + ("" if r == 0 else " and " + number_words(r))
    return str(n)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _in_suit(mask: Mask) -> str:
    s = suit_of_mask(mask)
    return f" in {SUIT_NAMES[s]}" if s is not None else ""


YOU = "You"
_SECOND = {"is": "are", "has": "have", "does": "do", "was": "were"}


def verb(name: str, third: str) -> str:
    """``name`` and its verb, given in the third person: ``verb("Ann", "leads")`` is ``Ann leads``,
    ``verb("You", "leads")`` is ``You lead`` ("You" takes the second person)."""
    if name != YOU:
        return f"{name} {third}"
    if third in _SECOND:
        return f"{name} {_SECOND[third]}"
    if third.endswith(("ches", "shes", "sses", "xes")):
        return f"{name} {third[:-2]}"
    return f"{name} {third[:-1]}" if third.endswith("s") else f"{name} {third}"


def _his(name: str) -> str:
    return "your" if name == YOU else "his"


def _he(name: str) -> str:
    return "you" if name == YOU else "he"


def _named(name: str) -> str:
    """A name inside a sentence: "you", not "You"."""
    return "you" if name == YOU else name


class Cards(NamedTuple):
    """Cards named in a line: a page draws them as card spans; in plain text they are written by
    their short names (``AS KS``), or in words (``ace of spades``) when ``words``."""

    mask: Mask
    words: bool = False

    @property
    def plain(self) -> str:
        if self.words:
            return card_words(self.mask.bit_length() - 1)
        return format_cards(cards_of(self.mask))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cards": [card_name(c) for c in cards_of(self.mask)]}
        if self.words:
            out["words"] = self.plain
        return out


Segment = str | Cards


@dataclass(frozen=True, slots=True)
class Line:
    """One thing said or done at the table.

    ``speaker``: the role who says it, or ``None`` for the narrator.  ``kind``: what it tells (the
    event's kind; ``count`` for a score said aloud in the play, ``ask_set``/``answer_set`` for "Which
    king do you not reckon?" and its answer).  ``role``: whom it is about.  ``trick``: the trick it
    belongs to (its cards, the counts said in it, its winner), else ``None``.
    """

    speaker: int | None
    segments: tuple[Segment, ...]
    kind: str
    role: int
    trick: int | None = None

    @property
    def text(self) -> str:
        """The words in plain text, cards by name (or in words where said so)."""
        return self.render()

    @property
    def cards(self) -> Mask:
        """Every card the line names."""
        m = 0
        for s in self.segments:
            if isinstance(s, Cards):
                m |= s.mask
        return m

    def render(self, cards: Callable[[Cards], str] | None = None) -> str:
        """The words, each ``Cards`` written by ``cards`` (default: its plain form)."""
        return "".join(s if isinstance(s, str) else (cards(s) if cards else s.plain) for s in self.segments)

    def said(self, names: Sequence[str]) -> str:
        """The line as the table hears it: ``Ann: “Good.”`` for a player's, the words for the narrator's."""
        return self.text if self.speaker is None else f"{names[self.speaker]}: \u201c{self.text}\u201d"

    def to_json(self) -> dict[str, Any]:
        """``{"speaker": "elder"|"younger"|null, "kind", "role", "trick", "text", "segments": [str | {"cards":
        [...], "words"?}]}``: what a page is sent."""
        return {"speaker": None if self.speaker is None else ROLES[self.speaker], "kind": self.kind,
                "role": ROLES[self.role], "trick": self.trick, "text": self.text,
                "segments": [s if isinstance(s, str) else s.to_json() for s in self.segments]}


def _line(speaker: int | None, kind: str, role: int, *segments: Segment, trick: int | None = None) -> Line:
    return Line(speaker, tuple(segments), kind, role, trick)


_HELD = (Show, NameSet)


class Narrator:
    """Turns the event log into lines of talk, keeping each player's running count.

    ``names``: the players' names by role ("You" for the viewer, who takes the second person).
    ``viewer_cards`` gives, for each role, every card he has held (dealt and taken in): a player
    asks "Which king do you not reckon?" when he does not hold the fourth king himself (p. 92).
    Without it the question is not told.

    The younger's showings are held until his reckoning ends (the next event that is not a showing
    or a look), then told in Law 67's order; ``lines(..., hold=True)`` keeps them held at the end of
    the events given (a terminal telling the deal as it goes), else they are told at the end.
    """

    def __init__(self, names: Sequence[str] = ("Elder", "Younger"),
                 viewer_cards: tuple[Mask, Mask] | None = None):
        self.names = tuple(names)
        self.viewer_cards = viewer_cards
        self.count = [0, 0]
        self.scored = [0, 0]  # what the Score events have counted
        self.trick = 0  # the trick of the last card played
        self._led = False  # a card is led to the trick in progress
        self._held: list[Show | NameSet] = []
        self.penalised = [False, False]  # who reckons nothing this deal (Law 58)

    def copy(self) -> Narrator:
        """A narrator in the same state, to go on telling a log from where this one stopped."""
        other = Narrator(self.names, self.viewer_cards)
        other.count, other.scored = list(self.count), list(self.scored)
        other.trick, other._led, other._held = self.trick, self._led, list(self._held)
        other.penalised = list(self.penalised)
        return other

    @property
    def holding(self) -> bool:
        """Whether showings are held, to be told by ``flush``."""
        return bool(self._held)

    def lines(self, events: Iterable[Event], *, hold: bool = False) -> Iterator[Line]:
        """A ``Line`` for each thing said or done.

        A call of the point followed at once by its value (Piquet au cent: the elder says what his point
        makes, p. 18) is one line: "Five cards, making forty-nine."  The two events are logged by one
        action, so they always come in the same ``events``.
        """
        call: CallPoint | None = None
        for e in events:
            if call is not None:
                if isinstance(e, CallValue) and e.role == call.role:
                    yield _line(call.role, call.kind, call.role, f"{_call_point(call.length)}, making "
                                f"{number_words(e.value)}.")
                    call = None
                    continue
                yield from self._tell(call)
                call = None
            if isinstance(e, CallPoint):
                call = e
                continue
            if isinstance(e, _HELD) and e.role == YOUNGER and self.trick >= 1:
                self._held.append(e)  # the younger reckons as he plays to the first trick (Law 67)
                continue
            if self._held and type(e) is not Look:
                yield from self.flush()
            yield from self._tell(e)
        if call is not None:
            yield from self._tell(call)
        if not hold:
            yield from self.flush()

    def flush(self) -> Iterator[Line]:
        """The younger's held showings, point, then sequences, then sets (Law 67)."""
        held = sorted(self._held, key=lambda e: SETS if type(e) is NameSet else e.category)  # type: ignore[union-attr]
        self._held = []
        for e in held:
            yield from self._tell(e)

    def _tell(self, e: Event) -> Iterator[Line]:  # noqa: C901 (one case a kind)
        n = self.names
        r = e.role
        name = n[r]
        t = type(e)
        if t is CarteBlanche:
            yield _line(r, e.kind, r, "I have a carte blanche.")
        elif t is CarteBlancheShown:
            assert isinstance(e, CarteBlancheShown)
            yield _line(None, e.kind, r, f"{verb(name, 'shows')} the carte blanche: ", Cards(e.cards), ".")
        elif t is Exchange:
            assert isinstance(e, Exchange)
            left = (f", leaving {_COUNTS[e.left]}" if r == ELDER else f"; {_COUNTS[e.left]} left in the stock"
                    ) if e.left else ""
            if e.taken == 0:  # Piquet au cent: the younger need not discard (p. 17)
                yield _line(None, e.kind, r, f"{verb(name, 'keeps')} all {_his(name)} cards, discarding none "
                            f"(p. 17){left}.")
            else:
                k = _COUNTS[e.taken]
                yield _line(None, e.kind, r, f"{verb(name, 'discards')} {k} and {'take' if name == YOU else 'takes'}"
                            f" in {k}{left}.")
        elif t is OddExchange:
            assert isinstance(e, OddExchange)
            left = f", {_COUNTS[e.left]} left" if e.left else ""
            yield _line(None, e.kind, r, f"{verb(name, 'discards')} {_COUNTS[e.discarded] if e.discarded else 'none'}"
                        f" and {'take' if name == YOU else 'takes'} in {_COUNTS[e.taken] if e.taken else 'none'}"
                        f"{left}: {_his(name)} hand holds {number_words(e.holds)}.")
        elif t is Penalty:
            assert isinstance(e, Penalty)
            self.penalised[r] = True
            self.count[r] = self.scored[r]  # what he counted aloud does not score
            yield _line(None, e.kind, r, f"{verb(name, 'reckons')} nothing this deal ({e.law}); {_his(name)} cards "
                        "still bar (Law 58), and a carte blanche still scores (Case XXI).")
        elif t is Miscall:
            assert isinstance(e, Miscall)
            cat = e.category
            what = ("point" if cat == POINT else sequence_name(e.cards) if cat == SEQUENCES
                    else set_name(e.cards))
            why = (f"{_he(name)} could not have held it in {_his(name)} hand and discard together: no penalty, and "
                   "it bars nothing (Law 54)" if e.impossible else
                   "a miscall allowed good and not corrected in time: it bars nothing (Law 54; Case II)")
            yield _line(None, e.kind, r, f"{verb(name, 'does')} not hold the {what} called{_in_suit(e.cards)}: ",
                        Cards(e.cards), f"; {why}.")
        elif t is Unanswered:
            assert isinstance(e, Unanswered)
            k = _COUNTS[e.tricks]
            yield _line(None, e.kind, r, f"{verb(name, 'counts')} as {'a trick' if e.tricks == 1 else 'tricks'} "
                        f"{'the card' if e.tricks == 1 else k + ' cards'} that cannot be played to (Law 57); the "
                        "twelfth is the last trick (Case XIX).", trick=12)
        elif t is Look:
            assert isinstance(e, Look)
            if e.looked and e.cards:
                yield _line(None, e.kind, r, f"{verb(name, 'looks')} at the cards left, and both see them: ",
                            Cards(e.cards), ".")
            elif e.looked:
                yield _line(None, e.kind, r, f"{verb(name, 'looks')} at the cards {_he(name)} left.")
            else:
                yield _line(None, e.kind, r, f"{verb(name, 'does')} not look at the cards left.")
        elif t is CallPoint:
            assert isinstance(e, CallPoint)
            yield _line(r, e.kind, r, f"{_call_point(e.length)}.")
        elif t is AskValue:
            yield _line(r, e.kind, r, "What do they make?")
        elif t is CallValue:
            assert isinstance(e, CallValue)
            yield _line(r, e.kind, r, f"{_cap(number_words(e.value))}.")
        elif t is CallSequence:
            assert isinstance(e, CallSequence)
            yield _line(r, e.kind, r, f"A {_sequence_call(e.length, e.head)}.")
        elif t is CallSet:
            assert isinstance(e, CallSet)
            yield _line(r, e.kind, r, f"{_cap(_COUNTS[e.size])} {RANK_PLURALS[e.rank]}?")
        elif t is Reply:
            assert isinstance(e, Reply)
            yield _line(r, e.kind, r, f"{REPLIES[e.outcome]}.")
        elif t is Show:
            assert isinstance(e, Show)
            yield from self._show(e)
        elif t is NameSet:
            assert isinstance(e, NameSet)
            # Piquet au cent: quatorzes and trios are named, not shown (p. 18).
            self.count[r] += 14 if e.size == 4 else 3
            what = f"{'Four' if e.size == 4 else 'Three'} {RANK_PLURALS[e.rank]}"
            yield _line(r, e.kind, r, f"{what}: {number_words(self.count[r])}.")
        elif t is GameWon:
            assert isinstance(e, GameWon)
            double = ", a double game" if e.double else ""
            said = ""
            if self.count != self.scored:
                # What was shown but reckons after the goal in Law 67's order does not count.
                self.count = list(self.scored)
                said = (f"; nothing reckons after it, and the deal stands at {_named(n[0])} "
                        f"{number_words(self.scored[0])}, {_named(n[1])} {number_words(self.scored[1])}")
            yield _line(None, e.kind, r, f"{verb(name, 'reaches')} {number_words(e.score)}: the game{double} "
                        f"(p. 20){said}.")
        elif t is Play:
            assert isinstance(e, Play)
            leads = not self._led
            self._led = leads
            self.trick = e.trick
            yield _line(None, e.kind, r, f"{verb(name, 'leads' if leads else 'plays')} the ", Cards(1 << e.card, True),
                        ".", trick=e.trick)
        elif t is Trick:
            assert isinstance(e, Trick)
            self._led = False
            last = "the last trick" if e.number == 12 else "the trick"
            yield _line(None, e.kind, r, f"{verb(name, 'wins')} {last}.", trick=e.number)
        elif t is Score:
            assert isinstance(e, Score)
            self.scored[r] += e.points
            yield from self._score(e)

    def _show(self, e: Show) -> Iterator[Line]:
        r, cat, pts = e.role, e.category, e.points
        shown = Cards(e.cards)
        if pts == 0:
            what = "point" if cat == POINT else sequence_name(e.cards) if cat == SEQUENCES else set_name(e.cards)
            said = "Shown, reckoning nothing" if self.penalised[r] else "Equal"
            yield _line(r, e.kind, r, f"{said}: {what}{_in_suit(e.cards)}: ", shown, ".")
            return
        self.count[r] += pts
        total = number_words(self.count[r])
        if cat == POINT:
            yield _line(r, e.kind, r, f"In {SUIT_NAMES[suit_of_mask(e.cards) or 0]}: {total}. ", shown)
        elif cat == SEQUENCES:
            yield _line(r, e.kind, r, f"{_cap(sequence_name(e.cards))}{_in_suit(e.cards)}: {total}. ", shown)
        else:
            yield _line(r, e.kind, r, f"{_cap(set_name(e.cards))}: {total}. ", shown)
            rank = set_rank(e.cards)
            if e.cards.bit_count() == 3 and rank is not None:
                missing = RANK_MASKS[rank] & ~e.cards
                # Asked only where the asker cannot rule out a quatorze (p. 92).
                if self.viewer_cards is not None and not missing & self.viewer_cards[1 - r]:
                    yield _line(1 - r, "ask_set", 1 - r, f"Which {RANK_NAMES[rank]} do you not reckon?")
                    yield _line(r, "answer_set", r, "The ", Cards(missing, True), ".")

    def _score(self, e: Score) -> Iterator[Line]:
        r, kind = e.role, e.component
        name = self.names[r]
        trick = self.trick or None
        if kind == S_PLAY:
            self.count[r] += e.points
            yield _line(r, "count", r, f"{_cap(number_words(self.count[r]))}.", trick=trick)
        elif kind == S_CARDS:
            self.count[r] += e.points
            what = "a capot, forty" if e.points == 40 else "the cards, ten"
            yield _line(r, "count", r, f"And {what}: {number_words(self.count[r])}.")
        elif kind in (S_PIQUE, S_REPIQUE):
            self.count[r] += e.points
            word = "Pique" if kind == S_PIQUE else "Repique"
            yield _line(None, e.heading, r, f"{word}! {verb(name, 'adds')} {number_words(e.points)}: "
                        f"{number_words(self.count[r])}.")
        elif kind == S_CARTE_BLANCHE:
            self.count[r] += e.points
            yield _line(r, "count", r, f"Carte blanche: {number_words(self.count[r])}.")
        # Point, sequences and sets were counted aloud when they were shown.


def narrate(events: Iterable[Event], names: Sequence[str] = ("Elder", "Younger"),
            viewer_cards: tuple[Mask, Mask] | None = None) -> list[Line]:
    """The lines of a whole log (``Narrator(names, viewer_cards).lines(events)``)."""
    return list(Narrator(names, viewer_cards).lines(events))


def lines_json(events: Iterable[Event], names: Sequence[str], viewer_cards: tuple[Mask, Mask] | None = None
               ) -> list[dict[str, Any]]:
    """The lines of a log as a page is sent them (``Line.to_json``)."""
    return [line.to_json() for line in narrate(events, names, viewer_cards)]


def _call_point(length: int) -> str:
    """``Five cards``: the call of a point."""
    return f"{_cap(_COUNTS[length])} card{'s' if length != 1 else ''}"


def _sequence_call(length: int, head: int) -> str:
    run = ((1 << length) - 1) << (head - length + 1)
    return sequence_name(run)


def _example_events() -> list[Event]:
    return [CallPoint(ELDER, 5), AskValue(YOUNGER, 5), CallValue(ELDER, 49), Reply(YOUNGER, POINT, 0)]


__all__ = ["Cards", "Line", "Narrator", "SCORE_LABELS", "Segment", "YOU", "action_words", "at_word_words",
           "card_name", "choice_prompt", "cut_words", "deal_by_label", "deal_label", "deal_stopped_words", "deal_words",
           "dealer_words", "declaration_button", "declaration_words", "discard_labels", "discard_words",
           "game_news_words", "game_won_words", "item_words", "lines_json", "look_label", "narrate", "number_words",
           "partie_headline", "play_label", "reckoning_words", "tricks_words", "MARKED_HEADINGS",
           "prompt_words", "reaching_words", "settlement_words", "turn_words", "verb",
           "CATEGORIES"]


#: The headings of a marked deal's scores, in Law 67's order (the score kinds of ``SCORE_KINDS``).
MARKED_HEADINGS = ("carte blanche", "the point", "sequences", "quatorzes and trios", "the play", "the cards",
                   "pique", "repique")


def reckoning_words(heading: int, points: int, total: int) -> str:
    """A score of a marked deal told as it is counted: ``Five for the point: five.``, ``Pique! Thirty: ...``."""
    if heading in (6, 7):
        return f"{'Pique' if heading == 6 else 'Repique'}! {_cap(number_words(points))}: {number_words(total)}."
    if heading == 5 and points == 40:
        return f"A capot, forty: {number_words(total)}."
    return f"{_cap(number_words(points))} for {MARKED_HEADINGS[heading]}: {number_words(total)}."


def tricks_words(name: str, tricks: int) -> str:
    """``Ann wins seven tricks.``"""
    return f"{verb(name, 'wins')} {number_words(tricks)} trick{'s' if tricks != 1 else ''}."


def settlement_words(settlement: Settlement, scores: dict[str, int], rules: Rules, names: dict[str, str],
                     deals_played: int = 0, deals_needed: int = 0) -> str:
    """The end of a partie in words: who wins, and how the points won are reckoned (Laws 71-73).

    A partie of games (Piquet au cent) is told by ``games_settlement_words``: it has no points won.
    """
    s = settlement
    if rules.partie_of_games:
        return games_settlement_words(s, scores, names)
    if not s.finished:
        return f"The partie is unfinished: {deals_played} of {deals_needed} deals played."
    if s.winner is None:
        return "The partie is drawn: tied again after the extra deals (Law 71)."
    loser = "B" if s.winner == "A" else "A"
    w, lose = scores[s.winner], scores[loser]
    wins = verb(names[s.winner], "wins")
    if s.rubicon:
        return (f"{wins} the partie, and {verb(names[loser], 'is')} rubiconed "
                f"(under {rules.rubicon}): {w} + {lose} + {rules.bonus} = {s.points_won} points (Law 73).")
    return f"{wins} the partie: {w} - {lose} + {rules.bonus} = {s.points_won} points (Law 72)."


def games_settlement_words(settlement: Settlement, scores: dict[str, int], names: dict[str, str]) -> str:
    """A partie of Piquet au cent: three games out of five, a double counting two (p. 20).

    ``Ann wins the partie, three games to one (a double counting two): game 1 to Ann, 100 to 5, a double;
    ...``.  ``scores`` are the partie's (``Partie.scores``): the game in progress, or the game just won.
    """
    s = settlement
    t = {"A": 0, "B": 0, **s.tally}
    listed = "; ".join(f"game {g.number} to {'you' if names[g.winner] == 'You' else names[g.winner]}, "
                       + (f"lost by {names['B' if g.winner == 'A' else 'A']} at " if g.forfeit else "")
                       + f"{g.scores[g.winner]} to "
                       f"{g.scores['B' if g.winner == 'A' else 'A']}{', a double' if g.double else ''}"
                       + (" (p. 17)" if g.forfeit else "")
                       for g in s.games)
    if not s.finished or s.winner is None:
        won = f"games won: {names['A']} {t['A']}, {names['B']} {t['B']} ({listed})" if s.games else "no game won yet"
        if s.games and dict(s.games[-1].scores) == dict(scores):
            return f"The partie is unfinished (three games out of five): {won}."
        now = f"game {len(s.games) + 1} stands at {names['A']} {scores.get('A', 0)}, {names['B']} {scores.get('B', 0)}"
        return f"The partie is unfinished (three games out of five): {now}; {won}."
    loser = "B" if s.winner == "A" else "A"
    wins = verb(names[s.winner], "wins")
    doubles = " (a double counting two)" if any(g.double for g in s.games) else ""
    score = f"{number_words(t[s.winner])} games to {number_words(t[loser]) if t[loser] else 'none'}"
    return f"{wins} the partie, {score}{doubles}: {listed} (p. 20)."


def partie_headline(winner: str | None, names: Mapping[str, str]) -> str:
    """The end of a partie in a few words, over its settlement: ``You win the partie.``, ``Ann wins the
    partie.``, ``The partie is drawn.``; ``winner`` is a seat of ``names`` ("You" for the viewer), or None."""
    if winner is None:
        return "The partie is drawn."
    return f"{verb(names[winner], 'wins')} the partie."


# ---------------------------------------------------------------- the cut and the choice of deal


def cut_words(names: Mapping[str, str], cut: Mapping[str, Card], winner: str, lower_deals: bool,
              first: str | None = None) -> str:
    """The cut for deal (Law 4; at Piquet au cent p. 16), ``first``'s cut told first ("You" the viewer):
    ``The cut for deal (Law 4): you cut the ace of spades, Bob the seven of hearts. You have the choice of
    deal.``  ``cut``: the card each seat cut; ``winner``: the seat that cut the higher card."""
    seats = sorted(cut, key=lambda s: s != first)
    cards = ", ".join(f"{_named(names[s])}{' cut' if i == 0 else ''} the {card_words(cut[s])}"
                      for i, s in enumerate(seats))
    loser = next(s for s in cut if s != winner)
    if lower_deals:
        return (f"The cut for deal (p. 16): {_cap(cards)}. The lower card deals, with no choice: "
                f"{names[loser]} cut the lower card and {'deal' if names[loser] == YOU else 'deals'}.")
    return f"The cut for deal (Law 4): {_cap(cards)}. {verb(names[winner], 'has')} the choice of deal."


def deal_words(context: PartieContext, names: Mapping[str, str]) -> str:
    """The opening of a deal, who deals and who is elder hand (Laws 9, 16), told to the viewer ("You" in
    ``names``, by seat): ``Deal 3 of 6: Ann deals; you are elder hand.``, ``Deal 1 of 4, counting double: You
    deal; Ann is elder hand.``; at a game of so many up (Piquet au cent, p. 20) the game and how it stands:
    ``Deal 4 (game 2, at nothing): ...``, ``Deal 5 (game 2, standing at you 45, Ann 30): ...``."""
    dealer = context.dealer
    elder = names[next(s for s in names if s != dealer)]
    who = f"{verb(names[dealer], 'deals')}; {_named(elder)} {'are' if elder == YOU else 'is'} elder hand."
    n = context.deal_number
    if context.game_number:
        s = context.scores
        told = sorted(names, key=lambda k: names[k] != YOU)  # the viewer first
        stands = ("at nothing" if not any(s.values()) else
                  "standing at " + ", ".join(f"{_named(names[k])} {s.get(k, 0)}" for k in told))
        return f"Deal {n} (game {context.game_number}, {stands}): {who}"
    double = ", counting double" if context.multiplier > 1 else ""
    return f"Deal {n} of {context.deals_in_partie}{double}: {who}"


def _by_words(by: int) -> str:
    return "threes" if by == 3 else "twos"


def dealer_words(names: Mapping[str, str], cut_winner: str | None, dealer: str, by: int,
                 lower_deals: bool) -> list[str]:
    """Who deals first, and how (Laws 4, 9; at Piquet au cent p. 16): ``Bob elects to deal.``, ``Bob deals
    first, by twos for the whole partie (Law 9).``  ``cut_winner``: whose choice it was (his election is told
    when he is not "You", who made it himself)."""
    if lower_deals:
        return [f"{verb(names[dealer], 'deals')} by twos, as the deal always is at Piquet au cent (p. 16); the deal "
                "then alternates, whoever wins a game."]
    out = []
    if cut_winner is not None and names[cut_winner] != YOU:
        out.append(f"{names[cut_winner]} {'elects to deal' if dealer == cut_winner else 'elects to be elder hand'}.")
    out.append(f"{verb(names[dealer], 'deals')} first, by {_by_words(by)} for the whole partie (Law 9).")
    return out


def deal_label(deal: bool, by: int | None = None, other: str = "your adversary") -> str:
    """A button of the choice of deal (Laws 4, 9): ``Deal by twos``, ``Deal``, ``Let your adversary deal``."""
    if not deal:
        return f"Let {other} deal"
    return "Deal" if by is None else f"Deal by {_by_words(by)}"


def deal_by_label(by: int) -> str:
    """A button of the dealer's choice of mode (Law 9): ``By twos``, ``By threes``."""
    return f"By {_by_words(by)}"


def choice_prompt(which: str, mine: bool, other: str) -> str:
    """The prompt before the first deal: ``which`` is ``"deal"`` (the winner of the cut chooses whether to deal,
    Law 4) or ``"deal_by"`` (the dealer how he deals, Law 9); ``mine``: whether the viewer chooses."""
    if which == "deal_by":
        return (f"{other} lets you deal: deal by two or by three cards at a time, for the whole partie (Law 9)."
                if mine else f"{other} deals, and is choosing whether to deal by twos or by threes (Law 9).")
    return ("You won the cut and have the choice (Law 4). Deal first, by two or by three cards at a time (Law 9)?"
            if mine else f"{other} won the cut and is choosing whether to deal first (Law 4).")


# ---------------------------------------------------------------- the deal and the game, at the table


def _other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def reaching_words(deal: Deal) -> str:
    """What took the winner of a game to the goal, the score last counted in Law 67's order: ``the point``,
    ``the lead of the knave of hearts at trick 5``, ``a quatorze``; empty if the deal won no game."""
    events = deal.events
    at = next((i for i in range(len(events) - 1, -1, -1) if type(events[i]) is GameWon), None)
    found = next((i for i in range(at - 1, -1, -1) if type(events[i]) is Score), None) if at is not None else None
    if found is None:
        return ""
    score = events[found]
    assert isinstance(score, Score)
    kind = score.component
    if kind == S_PLAY:
        before = next(e for e in reversed(events[:found]) if type(e) in (Play, Trick))
        if isinstance(before, Play):  # the score follows the card led (Law 65)
            return f"the lead of the {card_words(before.card)} at trick {before.trick}"
        assert isinstance(before, Trick)
        card = card_words(before.lead if before.leader == before.winner else before.follow)
        last = " and the last trick" if before.number == 12 else ""
        return f"the {card} winning trick {before.number}{last}"
    if kind == S_SEQUENCES and score.cards:
        return f"a {sequence_name(score.cards)}"
    if kind == S_SETS:
        return "a quatorze" if score.points == 14 else "a trio"
    if kind == S_CARDS:
        return "the capot" if score.points == 40 else "the cards"
    return {S_CARTE_BLANCHE: "the carte blanche", S_POINT: "the point", S_SEQUENCES: "the sequences",
            S_PIQUE: "the pique", S_REPIQUE: "the repique"}.get(kind, "the last score")


def game_won_words(game: Game, deal: Deal, names: Mapping[str, str]) -> str:
    """``Ann reaches one hundred and two on the point (Law 67): game 1 to Ann, 102 to 41; a double game:
    Bob had not fifty (p. 20)``."""
    winner, loser = names[game.winner], names[_other(game.winner)]
    by = reaching_words(deal)
    text = (f"{verb(winner, 'reaches')} {number_words(game.scores[game.winner])}"
            f"{f' on {by} (Law 67)' if by else ''}: game {game.number} to {_named(winner)}, "
            f"{game.scores[game.winner]} to {game.scores[_other(game.winner)]}")
    if game.double:
        return f"{text}; a double game: {_named(loser)} had not fifty (p. 20)"
    return f"{text} (p. 20)"


def game_news_words(game: Game, deal: Deal, deal_number: int, names: Mapping[str, str]) -> str:
    """The band over the deal after a game was won (Piquet au cent, p. 20): ``Deal 3 stopped at the goal: you
    reach one hundred and seven on the point (Law 67): game 1 to you, 107 to 33 (p. 20). Game 2 begins at
    nothing.``"""
    return (f"Deal {deal_number} stopped at the goal: {game_won_words(game, deal, names)}. "
            f"Game {game.number + 1} begins at nothing.")


def deal_stopped_words(game: Game, deal: Deal, names: Mapping[str, str]) -> str:
    """How a deal that won a game ended (p. 20): ``The deal stopped there: Ann reaches ...``."""
    return f"The deal stopped there: {game_won_words(game, deal, names)}."


def turn_words(name: str) -> str:
    """Whose turn it is: ``Your turn.``, ``Ann's turn.``"""
    return "Your turn." if name == YOU else f"{name}'s turn."


def look_label(look: bool, role: int) -> str:
    """A button of the cards left: ``Look at them`` (the elder: only he sees them, Law 33), ``Look (both see
    them)`` (the younger, Law 36), ``Do not look``."""
    if not look:
        return "Do not look"
    return "Look at them" if role == ELDER else "Look (both see them)"


def play_label(card: Card) -> str:
    """The button of the one card that may be played: ``Play the king of hearts``."""
    return f"Play the {card_words(card)}"


def declaration_button(action: DeclarePoint | DeclareSequences | DeclareSets, phase: Phase) -> str:
    """A declaration's button: ``Call: Point of five, making forty-nine in hearts`` (the elder), ``Reckon:
    Three aces`` (the younger where the elder called nothing), ``Declare: ...``; declaring nothing ``Declare
    no point (sink it)``, ``Declare no sequence (sink)``."""
    category, items = _declared(action)
    if not items:
        return "Declare no point (sink it)" if category == POINT else \
            f"Declare no {('point', 'sequence', 'quatorze or trio')[category]} (sink)"
    name = phase.name
    how = "Call" if name.startswith("ELDER") else "Reckon" if "RECKON" in name else "Declare"
    return f"{how}: {declaration_words(action)}"


#: At a club table, what a call at the player's word names in each category, and how several are parted.
_AT_WORD = (("the cards of your point, all of one suit", ""),
            ("the cards of your sequences", "; part the sequences by commas"),
            ("the cards of your quatorzes and trios", "; part them by commas"))


def at_word_words(phase: Phase) -> dict[str, str]:
    """At a club table, where calls are taken at the player's word (the agreement ``club``; Laws 52-54), the words
    of a call of cards he names in ``phase`` (a declaration), held or not: ``label`` (what to name), ``hint`` (how
    to name them: it names no card), ``button`` (``Call at your word``; ``Declare ...``, ``Reckon ...`` as
    ``declaration_button``) and ``note`` (the risk, Law 54).

    >>> w = at_word_words(Phase.ELDER_POINT)
    >>> w["label"], w["button"]
    ('Or call at your word: name the cards of your point, all of one suit', 'Call at your word')
    >>> at_word_words(Phase.YOUNGER_RECKON_SETS)["hint"]
    'Each card by its rank (A K Q J 10 9 8 7) and its suit (S H C D), with a space between cards; part them by commas.'
    """
    category = ("point", "sequence", "quatorze or trio").index(_NOTHING_TO_DECLARE[phase])
    what, several = _AT_WORD[category]
    name = phase.name
    how = "Call" if name.startswith("ELDER") else "Reckon" if "RECKON" in name else "Declare"
    return {"label": f"Or call at your word: name {what}",
            "hint": f"Each card by its rank (A K Q J 10 9 8 7) and its suit (S H C D), with a space between cards"
                    f"{several}.",
            "button": f"{how} at your word",
            "note": "A club table takes a call at your word: a call of cards you do not hold, allowed good, is a "
                    "miscall when it comes to light before the younger plays to the first trick, and you then "
                    "reckon nothing that deal (Law 54)."}


# ---------------------------------------------------------------- what may be done, in words


#: The score headings of Law 67, in ``SCORE_KINDS``' order, as a score table names them.
SCORE_LABELS: dict[str, str] = dict(zip(SCORE_KINDS, ("Carte blanche", "Point", "Sequences", "Quatorzes and trios",
                                                      "Play", "The cards", "Pique", "Repique"), strict=True))
_NOTHING = ("No point", "No sequence", "No quatorze or trio")


def item_words(category: int, cards: Mask) -> str:
    """One item declared: ``point of five, making forty-nine in hearts``, ``quint to a king in hearts``,
    ``three aces``."""
    if category == POINT:
        length, value = point_key(cards)
        return f"point of {_COUNTS[length]}, making {number_words(value)}{_in_suit(cards)}"
    if category == SEQUENCES:
        return f"{sequence_name(cards)}{_in_suit(cards)}"
    return set_name(cards)


def _declared(action: DeclarePoint | DeclareSequences | DeclareSets) -> tuple[int, tuple[Mask, ...]]:
    if isinstance(action, DeclarePoint):
        return POINT, (action.cards,) if action.cards else ()
    if isinstance(action, DeclareSequences):
        return SEQUENCES, action.runs
    return SETS, action.sets


def declaration_words(action: DeclarePoint | DeclareSequences | DeclareSets) -> str:
    """A declaration in words, as its button says it: ``Quint to a king in hearts and tierce major in spades``,
    ``No point``."""
    category, items = _declared(action)
    if not items:
        return _NOTHING[category]
    parts = [item_words(category, m) for m in items]
    return _cap(", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0])


def action_words(action: Action) -> str:
    """An action in words, as a suggestion at chouette is told (p. 106): ``play the ace of spades``, ``discard
    three: 7S 9C 8D``, ``look at the cards left``, ``declare: Point of five, making forty-nine in hearts``."""
    if isinstance(action, PlayCard):
        return f"play the {card_words(action.card)}"
    if isinstance(action, Discard):
        n = action.cards.bit_count()
        return f"discard {_COUNTS[n]}: {format_cards(cards_of(action.cards))}" if n else \
            "keep all the cards (discard none)"
    if isinstance(action, LookAtLeft):
        return "look at the cards left" if action.look else "not look at the cards left"
    if isinstance(action, DeclarePoint | DeclareSequences | DeclareSets):
        words = declaration_words(action)
        return f"declare: {words}" if _declared(action)[1] else f"declare nothing ({words.lower()})"
    raise TypeError(f"not an action: {action!r}")


def discard_labels(most: int) -> list[str]:
    """The discard button for each number of cards selected, from none to ``most``: ``Discard``, ``Discard
    one``, ... ``Discard five``."""
    return ["Discard", *(f"Discard {_COUNTS[n]}" for n in range(1, most + 1))]


def exchange_question(n: int, cards: str) -> str:
    """The question put before an exchange of ``n`` cards, ``cards`` naming them (Law 24: the stock once touched,
    the exchange stands): ``Discard QC 9D 7H and take in three?``; for none, keeping the hand (p. 17).

    >>> exchange_question(3, "QC 9D 7H")
    'Discard QC 9D 7H and take in three?'
    """
    if n == 0:
        return "Keep your hand, discarding nothing and taking nothing in?"
    return f"Discard {cards} and take in {number_words(n)}?"


def discard_words(least: int, most: int) -> str:
    """What a discard may be: ``Discard one to five cards``; ``Discard up to three cards, or keep all your
    cards`` where none need be (the younger at Piquet au cent, p. 17)."""
    if least == 0:
        return f"Discard up to {number_words(most)} cards, or keep all your cards"
    return f"Discard {number_words(least)} to {number_words(most)} cards"


_NOW = {
    Phase.ELDER_POINT: ("Call your point.", "is calling his point."),
    Phase.YOUNGER_POINT: ("Answer the point: declare yours.", "is answering the point."),
    Phase.ELDER_SEQUENCES: ("Call your sequences.", "is calling his sequences."),
    Phase.YOUNGER_SEQUENCES: ("Answer the sequence: declare yours.", "is answering the sequence."),
    Phase.ELDER_SETS: ("Call your quatorzes and trios.", "is calling his quatorzes and trios."),
    Phase.YOUNGER_SETS: ("Answer: declare your quatorzes and trios.", "is answering the quatorze or trio."),
    Phase.YOUNGER_RECKON_POINT: ("The elder called no point: reckon yours.", "is reckoning his point."),
    Phase.YOUNGER_RECKON_SEQUENCES: ("The elder called no sequence: reckon yours.", "is reckoning his sequences."),
    Phase.YOUNGER_RECKON_SETS: ("The elder called no quatorze or trio: reckon yours.",
                                "is reckoning his quatorzes and trios."),
    Phase.ELDER_LOOK: ("You left cards of the top five in the stock. You may look at them: only you see them "
                       "(Law 33).", "is deciding whether to look at the cards he left."),
    Phase.YOUNGER_LOOK: ("", "is deciding whether to look at the cards left in the stock."),
}


#: The categories declared in each phase, where the hand may hold nothing to declare.
_NOTHING_TO_DECLARE = {phase: ("point", "sequence", "quatorze or trio")[category] for category, phases in enumerate((
    (Phase.ELDER_POINT, Phase.YOUNGER_POINT, Phase.YOUNGER_RECKON_POINT),
    (Phase.ELDER_SEQUENCES, Phase.YOUNGER_SEQUENCES, Phase.YOUNGER_RECKON_SEQUENCES),
    (Phase.ELDER_SETS, Phase.YOUNGER_SETS, Phase.YOUNGER_RECKON_SETS))) for phase in phases}


def prompt_words(obs: Observation, other: str) -> str:
    """The phase of the deal in words, for the seat that observes it; ``other``: his adversary's name.

    ``You are elder hand: discard one to five cards and take in as many (Law 21).``, ``Ann is calling his
    point.``, ``Trick three of twelve: play to the king of hearts.``
    """
    p, mine = obs.phase, obs.my_turn
    if p == Phase.ELDER_DISCARD:
        return (f"You are elder hand: discard one to {number_words(obs.max_discard)} cards and take in as many "
                "(Law 21)." if mine else f"{other}, elder hand, is exchanging.")
    if p == Phase.YOUNGER_DISCARD:
        if not mine:
            return f"{other}, younger hand, is exchanging."
        if obs.min_discard == 0:  # Piquet au cent: the younger need not discard (p. 17)
            return (f"You are younger hand: discard up to {number_words(obs.max_discard)} cards and take in as "
                    "many, or keep all your cards (p. 17).")
        return (f"You are younger hand: discard one to {number_words(obs.max_discard)} cards and take in as many "
                "(Laws 22, 34).")
    if p == Phase.YOUNGER_LOOK and mine:
        n = obs.stock_left
        return (f"You leave {_COUNTS[n]} card{'' if n == 1 else 's'} in the stock. Look at them? The elder sees "
                "them too (Law 36).")
    if p in _NOTHING_TO_DECLARE and mine and obs.legal_count() == 1:
        category = ("point", "sequence", "quatorze or trio").index(_NOTHING_TO_DECLARE[p])
        full = full_declarations(obs.hand)[category]
        if obs.bar != (0, 0) and obs.lawful(full) != full:
            return (f"You cannot reckon your {_NOTHING_TO_DECLARE[p]}: the cards the elder has shown make as much "
                    "(Law 56, Case IV).")
        return f"You have no {_NOTHING_TO_DECLARE[p]} to declare."
    if p in _NOW:
        yours, theirs = _NOW[p]
        return yours if mine else f"{other} {theirs}"
    if p == Phase.PLAY:
        trick = f"Trick {number_words(obs.trick or 1)} of twelve"
        if not mine:
            return f"{trick}: {other} to {'play' if obs.lead >= 0 else 'lead'}."
        forced = list(obs.legal_actions()) if obs.lead >= 0 and obs.legal_count() == 1 else []
        if forced and isinstance(forced[0], PlayCard):  # following suit leaves one card (Law 59)
            return f"{trick}: you must play the {card_words(forced[0].card)}."
        return f"{trick}: play to the {card_words(obs.lead)}." if obs.lead >= 0 else f"{trick}: your lead."
    return "The deal is over."
