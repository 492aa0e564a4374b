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

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from piquet.core.cards import (
    RANK_MASKS,
    RANK_NAMES,
    RANK_PLURALS,
    SUIT_NAMES,
    Mask,
    card_name,
    card_words,
    cards_of,
    format_cards,
)
from piquet.core.combinations import sequence_name, set_name, set_rank, suit_of_mask
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
    S_REPIQUE,
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
    NameSet,
    Play,
    Reply,
    Score,
    Show,
    Trick,
)
from piquet.core.rules import Rules, Settlement

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

    def copy(self) -> Narrator:
        """A narrator in the same state, to go on telling a log from where this one stopped."""
        other = Narrator(self.names, self.viewer_cards)
        other.count, other.scored = list(self.count), list(self.scored)
        other.trick, other._led, other._held = self.trick, self._led, list(self._held)
        return other

    def lines(self, events: Iterable[Event], *, hold: bool = False) -> Iterator[Line]:
        """A ``Line`` for each thing said or done."""
        for e in events:
            if isinstance(e, _HELD) and e.role == YOUNGER and self.trick >= 1:
                self._held.append(e)  # the younger reckons as he plays to the first trick (Law 67)
                continue
            if self._held and type(e) is not Look:
                yield from self.flush()
            yield from self._tell(e)
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
            yield _line(r, e.kind, r, f"{_cap(_COUNTS[e.length])} card{'s' if e.length != 1 else ''}.")
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
            yield _line(r, e.kind, r, f"Equal: {what}{_in_suit(e.cards)}: ", shown, ".")
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


def _sequence_call(length: int, head: int) -> str:
    run = ((1 << length) - 1) << (head - length + 1)
    return sequence_name(run)


def _example_events() -> list[Event]:
    return [CallPoint(ELDER, 5), AskValue(YOUNGER, 5), CallValue(ELDER, 49), Reply(YOUNGER, POINT, 0)]


__all__ = ["Cards", "Line", "Narrator", "Segment", "card_name", "lines_json", "narrate", "number_words",
           "settlement_words", "verb", "CATEGORIES"]


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
    wins = "win" if names[s.winner] == "You" else "wins"
    rubiconed = "are" if names[loser] == "You" else "is"
    if s.rubicon:
        return (f"{names[s.winner]} {wins} the partie, and {names[loser]} {rubiconed} rubiconed "
                f"(under {rules.rubicon}): {w} + {lose} + {rules.bonus} = {s.points_won} points (Law 73).")
    return (f"{names[s.winner]} {wins} the partie: {w} - {lose} + {rules.bonus} = {s.points_won} points "
            f"(Law 72).")


def games_settlement_words(settlement: Settlement, scores: dict[str, int], names: dict[str, str]) -> str:
    """A partie of Piquet au cent: three games out of five, a double counting two (p. 20).

    ``Ann wins the partie, three games to one (a double counting two): game 1 to Ann, 100 to 5, a double;
    ...``.  ``scores`` are the partie's (``Partie.scores``): the game in progress, or the game just won.
    """
    s = settlement
    t = {"A": 0, "B": 0, **s.tally}
    listed = "; ".join(f"game {g.number} to {'you' if names[g.winner] == 'You' else names[g.winner]}, "
                       f"{g.scores[g.winner]} to "
                       f"{g.scores['B' if g.winner == 'A' else 'A']}{', a double' if g.double else ''}"
                       for g in s.games)
    if not s.finished or s.winner is None:
        won = f"games won: {names['A']} {t['A']}, {names['B']} {t['B']} ({listed})" if s.games else "no game won yet"
        if s.games and dict(s.games[-1].scores) == dict(scores):
            return f"The partie is unfinished (three games out of five): {won}."
        now = f"game {len(s.games) + 1} stands at {names['A']} {scores.get('A', 0)}, {names['B']} {scores.get('B', 0)}"
        return f"The partie is unfinished (three games out of five): {now}; {won}."
    loser = "B" if s.winner == "A" else "A"
    wins = "win" if names[s.winner] == "You" else "wins"
    doubles = " (a double counting two)" if any(g.double for g in s.games) else ""
    score = f"{number_words(t[s.winner])} games to {number_words(t[loser]) if t[loser] else 'none'}"
    return f"{names[s.winner]} {wins} the partie, {score}{doubles}: {listed} (p. 20)."
