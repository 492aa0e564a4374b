"""The table talk: events told in the words players use (p. 86-105).

>>> number_words(49)
'forty-nine'
>>> [t for _, t in Narrator().lines(_example_events())][:4]
['Five cards.', 'What do they make?', 'Forty-nine.', 'Good.']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

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
    ASK_VALUE,
    CALL_POINT,
    CALL_SEQUENCE,
    CALL_SET,
    CALL_VALUE,
    CARTE_BLANCHE,
    CARTE_BLANCHE_SHOWN,
    EXCHANGE,
    GAME,
    LOOK,
    NAME_SET,
    PLAY,
    POINT,
    REPLIES,
    REPLY,
    S_CARDS,
    S_CARTE_BLANCHE,
    S_PIQUE,
    S_PLAY,
    S_REPIQUE,
    SCORE,
    SEQUENCES,
    SHOW,
    Event,
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
    return f"in {SUIT_NAMES[s]}" if s is not None else ""


class Narrator:
    """Turns the event log into lines of talk, keeping each player's running count.

    ``viewer_cards`` gives, for each role, every card he has held (dealt and
    taken in): a player asks "Which king do you not reckon?" when he does not
    hold the fourth king himself.  Without it the question is not told.
    """

    def __init__(self, names: tuple[str, str] = ("Elder", "Younger"), viewer_cards: tuple[Mask, Mask] | None = None):
        self.names = names
        self.viewer_cards = viewer_cards
        self.count = [0, 0]
        self.scored = [0, 0]  # what the SCORE events have counted

    def lines(self, events: Iterable[Event]) -> Iterator[tuple[int | None, str]]:
        """(speaker role or None for the narrator, text) for each thing said or done."""
        n = self.names
        for e in events:
            r = e.role
            k = e.kind
            if k == CARTE_BLANCHE:
                yield r, "I have a carte blanche."
            elif k == CARTE_BLANCHE_SHOWN:
                yield None, f"{n[r]} shows the carte blanche: {format_cards(cards_of(e.cards))}."
            elif k == EXCHANGE:
                left = f", leaving {_COUNTS[e.detail]}" if e.detail and r == 0 else (
                    f"; {_COUNTS[e.detail]} left in the stock" if e.detail else "")
                if e.value == 0:  # Piquet au cent: the younger need not discard (p. 17)
                    yield None, f"{n[r]} keeps his cards: he discards none{left}."
                else:
                    yield None, f"{n[r]} discards {_COUNTS[e.value]} and takes in {_COUNTS[e.value]}{left}."
            elif k == LOOK:
                if e.value and e.cards:
                    yield None, f"{n[r]} looks at the cards left, and both see them: {format_cards(cards_of(e.cards))}."
                elif e.value:
                    yield None, f"{n[r]} looks at the cards he left."
                else:
                    yield None, f"{n[r]} does not look at the cards left."
            elif k == CALL_POINT:
                yield r, f"{_cap(_COUNTS[e.value])} card{'s' if e.value != 1 else ''}."
            elif k == ASK_VALUE:
                yield r, "What do they make?"
            elif k == CALL_VALUE:
                yield r, f"{_cap(number_words(e.value))}."
            elif k == CALL_SEQUENCE:
                yield r, f"A {_sequence_call(e.value, e.detail)}."
            elif k == CALL_SET:
                yield r, f"{_cap(_COUNTS[e.value])} {RANK_PLURALS[e.detail]}?"
            elif k == REPLY:
                yield r, f"{REPLIES[e.value]}."
            elif k == SHOW:
                yield from self._show(e)
            elif k == NAME_SET:
                # Piquet au cent: quatorzes and trios are named, not shown (p. 18).
                self.count[r] += 14 if e.value == 4 else 3
                name = f"{'Four' if e.value == 4 else 'Three'} {RANK_PLURALS[e.detail]}"
                yield r, f"{name}: {number_words(self.count[r])}."
            elif k == GAME:
                double = ", a double game" if e.detail == 2 else ""
                said = ""
                if self.count != self.scored:
                    # What was shown but reckons after the goal in Law 67's order does not count.
                    self.count = list(self.scored)
                    said = (f"; nothing reckons after it, and the deal stands at {n[0]} "
                            f"{number_words(self.scored[0])}, {n[1]} {number_words(self.scored[1])}")
                yield None, f"{n[r]} reaches {number_words(e.value)}: the game{double} (p. 20){said}."
            elif k == PLAY:
                verb = "leads" if e.value != self._trick else "plays"
                self._trick = e.value
                yield None, f"{n[r]} {verb} the {card_words(_one(e.cards))}."
            elif k == SCORE:
                self.scored[r] += e.value
                yield from self._score(e)

    _trick = 0

    def _show(self, e: Event) -> Iterator[tuple[int | None, str]]:
        r, cat, pts = e.role, e.value, e.detail
        if pts == 0:
            what = "point" if cat == POINT else sequence_name(e.cards) if cat == SEQUENCES else set_name(e.cards)
            yield r, f"Equal: {what} {_in_suit(e.cards)} ({format_cards(cards_of(e.cards))})."
            return
        self.count[r] += pts
        total = number_words(self.count[r])
        if cat == POINT:
            yield r, f"In {SUIT_NAMES[suit_of_mask(e.cards) or 0]}: {total}."
        elif cat == SEQUENCES:
            yield r, f"{_cap(sequence_name(e.cards))} {_in_suit(e.cards)}: {total}."
        else:
            yield r, f"{_cap(set_name(e.cards))}: {total}."
            rank = set_rank(e.cards)
            if e.cards.bit_count() == 3 and rank is not None:
                missing = RANK_MASKS[rank] & ~e.cards
                # Asked only where the asker cannot rule out a quatorze (p. 92).
                if self.viewer_cards is not None and not missing & self.viewer_cards[1 - r]:
                    yield 1 - r, f"Which {RANK_NAMES[rank]} do you not reckon?"
                    yield r, f"The {card_words(_one(missing))}."

    def _score(self, e: Event) -> Iterator[tuple[int | None, str]]:
        r, kind = e.role, e.detail
        n = self.names
        if kind == S_PLAY:
            self.count[r] += e.value
            yield r, f"{_cap(number_words(self.count[r]))}."
        elif kind == S_CARDS:
            self.count[r] += e.value
            what = "a capot, forty" if e.value == 40 else "the cards, ten"
            yield r, f"And {what}: {number_words(self.count[r])}."
        elif kind in (S_PIQUE, S_REPIQUE):
            self.count[r] += e.value
            word = "Pique" if kind == S_PIQUE else "Repique"
            yield None, f"{word}! {n[r]} adds {number_words(e.value)}: {number_words(self.count[r])}."
        elif kind == S_CARTE_BLANCHE:
            self.count[r] += 10
            yield r, f"Carte blanche: {number_words(self.count[r])}."


def _one(mask: Mask) -> int:
    return mask.bit_length() - 1


def _sequence_call(length: int, head: int) -> str:
    run = ((1 << length) - 1) << (head - length + 1)
    return sequence_name(run)


def _example_events() -> list[Event]:
    from piquet.core.events import ELDER, YOUNGER

    return [Event(CALL_POINT, ELDER, 0, 5), Event(ASK_VALUE, YOUNGER, 0, 5),
            Event(CALL_VALUE, ELDER, 0, 49), Event(REPLY, YOUNGER, 0, 0)]


__all__ = ["Narrator", "number_words", "card_name"]


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
