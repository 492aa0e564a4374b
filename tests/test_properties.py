"""Random legal deals against a referee written from the 1896 Laws.

The ``Referee`` below is an independent model of one deal, written from the
Laws (9, 18-24, 32-36, 46-49, 55, 61-69) and the description of the game
(p. 83-99), not from the engine: it deals the pack itself, enumerates every
legal action from first principles (all subsets of the hand for a discard, all
subsets of one suit for a point, every choice of runs for sequences, ...),
scores in the order of Law 67 and knows which cards each player is entitled
to see.  Random deals (random packs, dealt by twos or by threes) are played
through the engine with random legal actions, and at every step the engine must
agree with the referee:

* the 32 cards are conserved: hands, discards, the stock's remainder and the
  cards played partition the pack;
* the role to move and the kind of action expected agree, and the scores agree
  component by component after every action;
* the legal-action generator agrees exactly with the referee's brute force,
  and ``in`` agrees with the referee's own test of legality;
* the play points add up (12 leads, one per trick won by the second player,
  one more for the last trick); only the elder piques, either hand repiques;
* ``undo()`` restores the exact previous state;
* the public log of events is exactly the one the referee expects, event by
  event (announcements, exchanges, calls, replies, cards shown, plays, scores);
* no observation holds a card its player may not see.

The same tests run under Piquet au cent (p. 16-20) with each combination of
its two agreements (p. 19), from random game scores before the deal: the
referee reads the laws of au cent again (the younger need not discard, his
carte blanche waits for the elder's discard, the elder's point is called with
its value, quatorzes and trios are named and never shown, small cards and
points ending in four by agreement, a game of a hundred up that stops the deal
at the first score reaching it in the order of Law 67) and takes from
``piquet.core.rules`` nothing but the rules object it hands to the engine.  Where
the laws of au cent are silent it takes the readings of docs/au-cent.md.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from itertools import product
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventlog import flat, flat_log
from piquet import (
    Deal,
    DeclarePoint,
    DeclareSequences,
    DeclareSets,
    Discard,
    IllegalAction,
    LookAtLeft,
    Play,
    observe,
)
from piquet.core.cards import card_name, parse_card
from piquet.core.events import SCORE_KINDS, Trick
from piquet.core.events import Play as PlayEvent
from piquet.core.rules import rules_named

E, Y = 0, 1  # elder and younger hand
POINT, SEQUENCES, SETS = 0, 1, 2
KINDS = ("carte_blanche", "point", "sequences", "sets", "play", "cards", "pique", "repique")
CB, K_POINT, K_SEQ, K_SETS, K_PLAY, K_CARDS, K_PIQUE, K_REPIQUE = range(8)
FULL = (1 << 32) - 1

# A card is suit * 8 + rank, rank 0 = seven ... 7 = ace (the engine's encoding, cards.py).
TEN, KNAVE, QUEEN, KING, ACE = 3, 4, 5, 6, 7
#: p. 86: the ace is valued at eleven, court cards at ten, the others at their pips.
PIP = (7, 8, 9, 10, 10, 10, 10, 11)
#: p. 20: "A game is one hundred up. A player scoring a hundred before his adversary has scored fifty
#: wins a double game."
GOAL, DOUBLE_BELOW = 100, 50


class Laws(NamedTuple):
    """The laws the referee judges by, read from a rules spec by the referee itself (p. 16-20)."""

    spec: str  # what ``piquet.rules.rules_named`` is given, to make the engine's rules
    au_cent: bool
    small_cards_void: bool  # p. 19, by agreement: "nines, eights, and sevens are not counting cards"
    fours: bool  # p. 19, by agreement: "points ending in four count one less than the number of cards"

    @classmethod
    def of(cls, spec: str) -> Laws:
        name, *agreements = spec.split("+")
        assert name in ("rubicon", "au-cent") and set(agreements) <= {"small-cards", "fours"}, spec
        return cls(spec, name == "au-cent", "small-cards" in agreements, "fours" in agreements)

    def counts_in_play(self, c: int) -> bool:
        """Law 65: every card counts; by agreement at au cent, tens and above only (p. 19)."""
        return not self.small_cards_void or rank(c) >= TEN


RUBICON_LAWS = Laws.of("rubicon")
AU_CENT_SPECS = ("au-cent", "au-cent+small-cards", "au-cent+fours", "au-cent+small-cards+fours")


def suit(c: int) -> int:
    return c // 8


def rank(c: int) -> int:
    return c % 8


def cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask(cs: Any) -> int:
    m = 0
    for c in cs:
        m |= 1 << c
    return m


def suit_mask(s: int) -> int:
    return 0xFF << (8 * s)


def submasks(m: int) -> Iterator[int]:
    """Every subset of a mask, the empty one included."""
    s = m
    while True:
        yield s
        if s == 0:
            return
        s = (s - 1) & m


def deal_by_law(order: list[int], by: int) -> tuple[int, int, list[int]]:
    """Law 9: by twos or threes, the top cards to the adversary (elder), twelve each."""
    elder = younger = 0
    pos = 0
    while pos < 24:
        elder |= mask(order[pos:pos + by])
        younger |= mask(order[pos + by:pos + 2 * by])
        pos += 2 * by
    return elder, younger, order[24:]


def is_carte_blanche(dealt: int) -> bool:
    """Law 18: twelve cards dealt without king, queen or knave."""
    return dealt.bit_count() >= 12 and not any(rank(c) in (KING, QUEEN, KNAVE) for c in cards(dealt))


# ---------------------------------------------------------------- combinations, from the laws

def maximal_runs(m: int) -> list[int]:
    """The maximal groups of cards of one suit that are consecutive in rank."""
    runs = []
    for s in range(4):
        run = 0
        for r in range(8):
            c = s * 8 + r
            if m >> c & 1:
                run |= 1 << c
            else:
                if run:
                    runs.append(run)
                run = 0
        if run:
            runs.append(run)
    return runs


def is_sequence(m: int) -> bool:
    """Three or more cards of one suit, following each other in rank (p. 87-88)."""
    runs = maximal_runs(m)
    return len(runs) == 1 and runs[0] == m and m.bit_count() >= 3


def point_key(m: int) -> tuple[int, int]:
    """Law 62 and p. 86: more cards win; between equal numbers, the greater value."""
    return (m.bit_count(), sum(PIP[rank(c)] for c in cards(m))) if m else (0, 0)


def seq_key(run: int) -> tuple[int, int]:
    """Law 63: the longer is good; of equal length, the higher."""
    return (run.bit_count(), max(rank(c) for c in cards(run)))


def set_key(m: int) -> tuple[int, int]:
    """Law 64: any quatorze beats any trio; then the higher rank."""
    return (m.bit_count(), rank(cards(m)[0]))


def item_key(cat: int, item: int) -> tuple[int, int]:
    return (point_key, seq_key, set_key)[cat](item)


def item_score(cat: int, item: int, laws: Laws = RUBICON_LAWS) -> int:
    n = item.bit_count()
    if cat == POINT:
        # Law 62: one for each card; at au cent by agreement, a point making 24, 34, ... one less (p. 19).
        return n - 1 if laws.fours and point_key(item)[1] % 10 == 4 else n
    if cat == SEQUENCES:
        return n if n < 5 else n + 10  # Law 63
    return 14 if n == 4 else 3  # Law 64


def best_first(cat: int, items: Any) -> list[int]:
    """A declaration's items in the order they are reckoned: the best, which is the one called, first (p. 89:
    "A calls a quart to a queen ... He scores four for it, and then calls the tierce minor"); between equal
    items the greater mask first (an order of the log, of no consequence in the laws)."""
    return sorted(items, key=lambda i: (item_key(cat, i), i), reverse=True)


def best_key(cat: int, items: tuple[int, ...] | None) -> tuple[int, int]:
    return max((item_key(cat, i) for i in items), default=(0, 0)) if items else (0, 0)


def decl_items(action: Any) -> tuple[int, ...]:
    if isinstance(action, DeclarePoint):
        return (action.cards,) if action.cards else ()
    if isinstance(action, DeclareSequences):
        return tuple(action.runs)
    return tuple(action.sets)


def point_options(hand: int) -> set[int]:
    """Nothing, or any cards of one suit: a player may call less than he holds (p. 93)."""
    opts = {0}
    for s in range(4):
        opts |= set(submasks(hand & suit_mask(s)))
    return opts


def sequence_options(hand: int) -> set[tuple[int, ...]]:
    """Every choice of sequences: in each suit, any held cards whose maximal runs are all 3+ long."""
    per_suit = []
    for s in range(4):
        choices = []
        for sub in submasks(hand & suit_mask(s)):
            runs = maximal_runs(sub)
            if all(r.bit_count() >= 3 for r in runs):
                choices.append(tuple(runs))
        per_suit.append(choices)
    return {tuple(sorted(sum(combo, ()))) for combo in product(*per_suit)}


def set_options(hand: int) -> set[tuple[int, ...]]:
    """Every choice of quatorzes and trios: of each rank ten or higher, none, three or four held."""
    per_rank = []
    for r in range(TEN, ACE + 1):
        of_rank = hand & mask(s * 8 + r for s in range(4))
        per_rank.append([m for m in submasks(of_rank) if m.bit_count() in (0, 3, 4)])
    return {tuple(sorted(m for m in combo if m)) for combo in product(*per_rank)}


def items_in(cat: int, held: int) -> list[int]:
    """Every whole run of three or more in a suit, or every three or four of a rank of tens and up, in ``held``."""
    found = []
    if cat == SEQUENCES:
        for s in range(4):
            run = 0
            for r in range(8):
                c = s * 8 + r
                if held >> c & 1:
                    run |= 1 << c
                else:
                    if run.bit_count() >= 3:
                        found.append(run)
                    run = 0
            if run.bit_count() >= 3:
                found.append(run)
    else:
        for r in range(3, 8):
            same = sum(1 << (s * 8 + r) for s in range(4) if held >> (s * 8 + r) & 1)
            if same.bit_count() >= 3:
                found.append(same)
    return found


def sequences_legal(runs: tuple[int, ...], hand: int) -> bool:
    used = 0
    for run in runs:
        if not is_sequence(run) or run & ~hand or run & used:
            return False
        used |= run
    # Runs touching in one suit are a single sequence, not two.
    return all(r.bit_count() >= 3 for r in maximal_runs(used)) and len(maximal_runs(used)) == len(runs)


def sets_legal(sets: tuple[int, ...], hand: int) -> bool:
    ranks = []
    for m in sets:
        cs = cards(m)
        if len(cs) not in (3, 4) or len({rank(c) for c in cs}) != 1 or rank(cs[0]) < TEN or m & ~hand:
            return False
        ranks.append(rank(cs[0]))
    return len(ranks) == len(set(ranks))


def canonical(action: Any) -> Any:
    """An action as plain, order-free data, to compare engine and referee sets."""
    if isinstance(action, Discard):
        return ("discard", action.cards)
    if isinstance(action, LookAtLeft):
        return ("look", action.look)
    if isinstance(action, Play):
        return ("play", action.card)
    kind = {DeclarePoint: "point", DeclareSequences: "sequences", DeclareSets: "sets"}[type(action)]
    return (kind, tuple(sorted(decl_items(action))))


# ---------------------------------------------------------------- the referee

class Referee:
    """One deal, modelled from the laws (of Rubicon Piquet, or of Piquet au cent with ``game`` its scores)."""

    def __init__(self, elder: int, younger: int, stock: list[int], laws: Laws = RUBICON_LAWS,
                 game: tuple[int, int] | None = None) -> None:
        assert (game is None) != laws.au_cent, "a game of a hundred up, and only it, has scores before the deal"
        self.laws = laws
        self.game = game  # au cent: the game's scores before this deal, by role (p. 20)
        self.game_won: tuple[int, bool] | None = None  # (who reached a hundred, whether a double game)
        self.dealt = (elder, younger)
        self.stock = list(stock)
        self.hand = [elder, younger]
        self.discard = [0, 0]
        self.took: list[int | None] = [None, None]
        self.looked: list[bool | None] = [None, None]
        self.decl: list[list[tuple[int, ...] | None]] = [[None] * 3, [None] * 3]
        self.cb = (is_carte_blanche(elder), is_carte_blanche(younger))
        # stage: (what, role, category)
        self.stage: tuple[str, int, int] = ("discard", E, -1)
        self.first_lead_made = False
        self.reckoned = False
        self.leader = E
        self.lead: int | None = None
        self.trick = 1
        self.won = [0, 0]
        self.follower_wins = 0
        self.leads_counted = 0  # cards led that scored (Law 65; p. 19)
        self.wins_counted = 0  # tricks won by the second player with a card that scored
        self.played = 0
        self.score = [[0] * 8, [0] * 8]
        self.log: list[tuple[int, int, int]] = []
        #: The public log the referee expects: (kind, role, cards, value, detail), as events.py names them.
        self.events: list[tuple[str, int, int, int, int]] = []
        for role in (E, Y):
            # Law 20: announced at once; at au cent the younger need not declare it until his adversary has
            # discarded and touched the stock (p. 16), and waits until then (docs/au-cent.md).
            if self.cb[role] and (role == E or not laws.au_cent):
                self.event("carte_blanche", role)

    def event(self, kind: str, role: int, shown: int = 0, value: int = 0, detail: int = 0) -> None:
        self.events.append((kind, role, shown, value, detail))

    @property
    def over(self) -> bool:
        return self.stage[0] == "done"

    # ------------------------------------------------------------ scoring (Laws 61-69; p. 20)

    def total(self, role: int) -> int:
        return sum(self.score[role])

    def add(self, role: int, kind: int, points: int, shown: int = 0) -> None:
        assert points > 0 and not self.over
        before = self.total(role)
        self.score[role][kind] += points
        self.log.append((role, kind, points))
        self.event("score", role, shown, points, kind)
        if before < 30 <= before + points and self.total(1 - role) == 0:
            if kind in (CB, K_POINT, K_SEQ, K_SETS):
                self.add(role, K_REPIQUE, 60)  # Law 68: thirty in hand alone, before the adversary
            elif kind == K_PLAY and role == E:
                self.add(role, K_PIQUE, 30)  # Law 69: thirty in hand and play, elder only
        game = self.game
        if game is not None and not self.over and game[role] + self.total(role) >= GOAL:
            # p. 20: the first to a hundred in the order of scoring (Law 67) wins the game, a double if his
            # adversary has not fifty; nothing reckons after it and the deal is not played out (docs/au-cent.md).
            other = 1 - role
            double = game[other] + self.total(other) < DOUBLE_BELOW
            self.event("game", role, 0, game[role] + self.total(role), 2 if double else 1)
            self.game_won = (role, double)
            self.stage = ("done", -1, -1)

    def show(self, role: int, cat: int, items: list[int], scoring: bool) -> None:
        """Law 55: what is good or equal is shown; at au cent quatorzes and trios are named, not shown (p. 18)."""
        for item in items:
            if cat == SETS and self.laws.au_cent:
                self.event("name_set", role, 0, item.bit_count(), rank(cards(item)[0]))
            else:
                self.event("show", role, item, cat, int(scoring))

    def call(self, cat: int, items: tuple[int, ...]) -> None:
        """The elder calls his best (Law 46; the sequence by its head, the set by its rank, Law 48); at au cent
        "the elder hand must call the number his point makes" (p. 18)."""
        n, top = item_key(cat, best_first(cat, items)[0])
        if cat == POINT:
            self.event("call_point", E, 0, n)
            if self.laws.au_cent:
                self.event("call_value", E, 0, top)
        else:
            self.event(("call_sequence", "call_set")[cat - 1], E, 0, n, top)

    def reply(self, cat: int) -> None:
        """Law 46: "Good", "Equal" or "Not good"; at Rubicon Piquet, with as many cards, "What do they make?"
        first; at au cent the value is known and the younger answers at once (p. 18)."""
        ed, yd = self.decl[E][cat] or (), self.decl[Y][cat]
        ek, yk = best_key(cat, ed), best_key(cat, yd)
        if cat == POINT and not self.laws.au_cent and ek[0] == yk[0]:
            self.event("ask_value", Y, 0, yk[0])
            self.event("call_value", E, 0, ek[1])
        result = 0 if ek > yk else 1 if ek == yk else 2
        self.event("reply", Y, 0, result)
        if result == 0:
            self.show(E, cat, best_first(cat, ed), True)  # good: shown, and reckoned later (Law 55)
        elif result == 1:
            self.show(E, cat, best_first(cat, ed)[:1], False)  # equal: the equal item shown (p. 90)

    def reckon(self) -> None:
        """The younger shows what is good or equal; then Law 67: point, sequences, quatorzes and trios, then
        the elder's first lead (if it is a counting card, p. 19).  The first score reaching a hundred stops."""
        for cat in (POINT, SEQUENCES, SETS):
            ed, yd = self.decl[E][cat], self.decl[Y][cat] or ()
            if not ed:
                continue  # the younger showed his as he reckoned it (p. 93)
            ek, yk = best_key(cat, ed), best_key(cat, yd)
            if yk > ek:
                self.show(Y, cat, best_first(cat, yd), True)
            elif yk == ek:
                self.show(Y, cat, best_first(cat, yd)[:1], False)
        self.reckoned = True
        for cat in (POINT, SEQUENCES, SETS):
            ek = best_key(cat, self.decl[E][cat])
            yk = best_key(cat, self.decl[Y][cat])
            if ek == yk:
                continue  # equal (or nothing): neither scores anything (p. 89-90)
            role = E if ek > yk else Y
            hidden = cat == SETS and self.laws.au_cent  # named, so their score shows no card (p. 18)
            for item in best_first(cat, self.decl[role][cat] or ()):
                self.add(role, K_POINT + cat, item_score(cat, item, self.laws), 0 if hidden else item)
                if self.over:
                    return
        assert self.lead is not None
        if self.laws.counts_in_play(self.lead):
            self.leads_counted += 1
            self.add(E, K_PLAY, 1)

    # ------------------------------------------------------------ what is expected and legal

    @property
    def mover(self) -> int | None:
        return None if self.over else self.stage[1]

    def max_discard(self) -> int:
        """Law 21: the elder up to five; Laws 22, 34: the younger three and any the elder left."""
        return 5 if self.stage[1] == E else 8 - (self.took[E] or 0)

    def min_discard(self) -> int:
        """Laws 21-22: at least one; at au cent "the younger hand is not obliged to discard any card" (p. 17)."""
        return 0 if self.stage[1] == Y and self.laws.au_cent else 1

    def left_in_stock(self) -> list[int]:
        taken = (self.took[E] or 0) + (self.took[Y] or 0)
        return self.stock[taken:]

    def legal(self) -> set[Any]:
        """Every legal action, by brute force."""
        what, role, cat = self.stage
        hand = self.hand[role] if what != "done" else 0
        if what == "discard":
            lo, hi = self.min_discard(), self.max_discard()
            return {("discard", m) for m in submasks(hand) if lo <= m.bit_count() <= hi}
        if what == "look":
            return {("look", True), ("look", False)}
        if what == "play":
            playable = hand
            if self.lead is not None and hand & suit_mask(suit(self.lead)):
                playable = hand & suit_mask(suit(self.lead))  # Law 59 IV: follow suit
            return {("play", c) for c in cards(playable)}
        if what == "declare":
            if cat == POINT:
                return {("point", (m,) if m else ()) for m in point_options(hand)}
            if cat == SEQUENCES:
                return {("sequences", o) for o in sequence_options(hand) if self.unbarred(cat, o)}
            return {("sets", o) for o in set_options(hand) if self.unbarred(cat, o)}
        return set()

    def unbarred(self, cat: int, items: tuple[int, ...]) -> bool:
        """Case IV: in the younger's reckoning (after the first lead, at Rubicon Piquet), what the elder's cards
        shown make bars a sequence, or quatorze or trio, of as much or less."""
        if not items or self.laws.au_cent or not self.first_lead_made:
            return True
        shown = 0
        for kind, role, cards_shown, _, _ in self.events:
            if kind == "show" and role == E:
                shown |= cards_shown
        return max(item_key(cat, m) for m in items) > max((item_key(cat, m) for m in items_in(cat, shown)),
                                                          default=(0, 0))

    def is_legal(self, action: Any) -> bool:
        """The referee's own test of one action."""
        what, role, cat = self.stage
        if what == "done":
            return False
        hand = self.hand[role]
        if what == "discard":
            return (isinstance(action, Discard) and not action.cards & ~hand
                    and self.min_discard() <= action.cards.bit_count() <= self.max_discard())
        if what == "look":
            return isinstance(action, LookAtLeft)
        if what == "play":
            if not isinstance(action, Play) or not hand >> action.card & 1:
                return False
            return (self.lead is None or not hand & suit_mask(suit(self.lead))
                    or suit(action.card) == suit(self.lead))
        kind = (DeclarePoint, DeclareSequences, DeclareSets)[cat]
        if not isinstance(action, kind):
            return False
        if cat == POINT:
            m = action.cards
            return m == 0 or (not m & ~hand and any(not m & ~suit_mask(s) for s in range(4)))
        if cat == SEQUENCES:
            return sequences_legal(tuple(action.runs), hand) and self.unbarred(cat, tuple(action.runs))
        return sets_legal(tuple(action.sets), hand) and self.unbarred(cat, tuple(action.sets))

    # ------------------------------------------------------------ acting

    def apply(self, action: Any) -> None:
        assert self.is_legal(action), (action, self.stage)
        what, role, cat = self.stage
        if what == "discard":
            n = action.cards.bit_count()
            start = 0 if role == E else self.took[E] or 0
            taken = mask(self.stock[start:start + n])
            self.hand[role] = (self.hand[role] & ~action.cards) | taken
            self.discard[role] = action.cards
            self.took[role] = n
            self.event("exchange", role, 0, n, 5 - n if role == E else 8 - (self.took[E] or 0) - n)
            other = 1 - role
            if self.cb[other]:
                if other == Y and self.laws.au_cent:
                    self.event("carte_blanche", Y)  # p. 16: now that the elder has discarded and taken in
                self.event("carte_blanche_shown", other, self.dealt[other])
                self.add(other, CB, 10, self.dealt[other])  # Law 20: shown and scored once the adversary has discarded
                if self.over:
                    return
            if role == E:
                self.stage = ("look", E, -1) if n < 5 else ("discard", Y, -1)
            else:
                self.stage = ("declare", E, POINT)
        elif what == "look":
            self.looked[role] = action.look
            if role == E:
                self.event("look", E, 0, int(action.look))  # Law 33: what he sees is his alone
                self.stage = ("discard", Y, -1)
            else:
                left = mask(self.left_in_stock()) if action.look else 0
                self.event("look", Y, left, int(action.look))  # Law 36: both may see them
                self.after_first_lead()
        elif what == "declare":
            items = decl_items(action)
            self.decl[role][cat] = items
            if role == E:
                if items:
                    self.call(cat, items)
                    self.stage = ("declare", Y, cat)  # the younger answers
                else:
                    self.next_elder_category(cat)
            elif not self.first_lead_made:
                self.reply(cat)
                self.next_elder_category(cat)
            else:
                self.show(Y, cat, best_first(cat, items), True)  # the elder called none: his is good (p. 93)
                self.after_first_lead()
        elif what == "play":
            self.play(role, action.card)

    def next_elder_category(self, cat: int) -> None:
        self.stage = ("declare", E, cat + 1) if cat < SETS else ("play", E, -1)

    def after_first_lead(self) -> None:
        """p. 93: before playing to the first card, the younger reckons; Law 36: he may look."""
        for cat in (POINT, SEQUENCES, SETS):
            if self.decl[Y][cat] is None:
                self.stage = ("declare", Y, cat)
                return
        if self.looked[Y] is None and self.left_in_stock():
            self.stage = ("look", Y, -1)
            return
        self.reckon()
        if not self.over:
            self.stage = ("play", Y, -1)

    def play(self, role: int, c: int) -> None:
        """Laws 65-66; at au cent by agreement a nine, eight or seven scores nothing, led or winning (p. 19)."""
        self.hand[role] &= ~(1 << c)
        self.played |= 1 << c
        self.event("play", role, 1 << c, self.trick)
        counts = self.laws.counts_in_play(c)
        if self.lead is None:
            self.lead = c
            if not self.first_lead_made:
                self.first_lead_made = True
                self.after_first_lead()
                return
            if counts:
                self.leads_counted += 1
                self.add(role, K_PLAY, 1)
            if not self.over:
                self.stage = ("play", 1 - role, -1)
            return
        lead, leader = self.lead, self.leader
        last = self.trick == 12
        if suit(c) == suit(lead) and rank(c) > rank(lead):
            winner = role
            self.follower_wins += 1
            self.wins_counted += counts
            if counts or last:
                self.add(role, K_PLAY, counts + last)  # the last trick one more, whatever its card
        else:
            winner = leader
            if last:
                self.add(leader, K_PLAY, 1)
        self.won[winner] += 1
        self.leader, self.lead = winner, None
        self.trick += 1
        if self.over:
            return
        if last:
            for r in (E, Y):
                if self.won[r] == 12:
                    self.add(r, K_CARDS, 40)
                elif self.won[r] > 6:
                    self.add(r, K_CARDS, 10)
            self.stage = ("done", -1, -1)
        else:
            self.stage = ("play", winner, -1)

    # ------------------------------------------------------------ what each player may see

    def told(self, cat: int, items: Any) -> int:
        """The cards that showing (or naming) items tells: at au cent a quatorze's name is its four cards,
        a trio's only its rank (p. 18)."""
        if cat == SETS and self.laws.au_cent:
            return mask_of_items(i for i in items if i.bit_count() == 4)
        return mask_of_items(items)

    def entitled(self, role: int) -> int:
        """The cards ``role`` is entitled to see now (Laws 19-20, 33, 36, 55; p. 18, 90)."""
        other = 1 - role
        seen = self.dealt[role] | self.played
        if self.took[role] is not None:
            start = 0 if role == E else self.took[E] or 0
            seen |= mask(self.stock[start:start + self.took[role]])
        if role == E and self.looked[E]:
            seen |= mask(self.stock[self.took[E] or 0:5])
        if self.looked[Y]:
            seen |= mask(self.left_in_stock())
        if self.cb[other] and self.took[role] is not None:
            seen |= self.dealt[other]
        for cat in (POINT, SEQUENCES, SETS):
            ed, yd = self.decl[E][cat], self.decl[Y][cat]
            if ed is None or yd is None:
                continue
            ek, yk = best_key(cat, ed), best_key(cat, yd)
            if role == Y and ed:
                # What the elder scores as good or calls as equal, once the younger has answered.
                if ek > yk:
                    seen |= self.told(cat, ed)
                elif ek == yk:
                    seen |= self.told(cat, (i for i in ed if item_key(cat, i) == ek))
            if role == E:
                if not ed:
                    seen |= self.told(cat, yd)  # reckoned by the younger, uncontested
                elif self.reckoned and yk > ek:
                    seen |= self.told(cat, yd)
                elif self.reckoned and yk == ek:
                    seen |= self.told(cat, (i for i in yd if item_key(cat, i) == yk))
        return seen


def mask_of_items(items: Any) -> int:
    m = 0
    for i in items:
        m |= i
    return m


# ---------------------------------------------------------------- engine views

_KIND_OF = {Discard: "discard", LookAtLeft: "look", Play: "play", DeclarePoint: "declare",
            DeclareSequences: "declare", DeclareSets: "declare"}
_QUOTED_CARD = re.compile(r'"((?:A|K|Q|J|10|9|8|7)[SHCD])"', re.IGNORECASE)
_BIT_OF_NAME = {card_name(c): 1 << c for c in range(32)}


def json_cards(obj: Any) -> int:
    """Every card named anywhere in a JSON-ready observation, as a whole string (key or value)."""
    found = 0
    for name in set(_QUOTED_CARD.findall(json.dumps(obj))):
        found |= _BIT_OF_NAME.get(name) or 1 << parse_card(name)
    return found


def freeze(value: Any) -> Any:
    """A copy of a field in which every list is a tuple, recursively (the rest is immutable)."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, set):
        return frozenset(value)
    return value


def snapshot(deal: Deal) -> dict[str, Any]:
    """Every field of the deal, frozen."""
    names: list[str] = []
    for klass in type(deal).__mro__:
        names.extend(getattr(klass, "__slots__", ()))
    state = {n: freeze(getattr(deal, n)) for n in names if hasattr(deal, n)}
    state.update({n: freeze(v) for n, v in getattr(deal, "__dict__", {}).items()})
    return state


def stock_remainder(deal: Deal) -> int:
    taken = max(deal.elder_takes, 0) + max(deal.younger_takes, 0)
    return mask(deal.stock[taken:])


def played_cards(deal: Deal) -> int:
    return mask(a.card for a in deal.history if isinstance(a, Play))


def check_conservation(deal: Deal) -> None:
    parts = [deal.hands[E], deal.hands[Y], deal.discards[E], deal.discards[Y],
             stock_remainder(deal), played_cards(deal)]
    union = 0
    for p in parts:
        assert not union & p, f"a card is in two places: {[card_name(c) for c in cards(union & p)]}"
        union |= p
    assert union == FULL, f"cards lost: {[card_name(c) for c in cards(FULL & ~union)]}"


def check_agreement(deal: Deal, ref: Referee) -> None:
    assert deal.to_move == ref.mover, (deal.phase, ref.stage)
    assert deal.is_over == (ref.stage[0] == "done")
    for r in (E, Y):
        assert list(deal.scores[r]) == ref.score[r], (r, deal.scores[r], ref.score[r], deal.history)
        assert deal.total(r) == ref.total(r)
        assert deal.hands[r] == ref.hand[r]
    assert deal.scores[Y][K_PIQUE] == 0, "the younger hand can never pique (p. 98)"
    assert deal.scores[E][K_PIQUE] in (0, 30) and deal.scores[Y][K_REPIQUE] in (0, 60)
    assert deal.scores[E][K_REPIQUE] in (0, 60)
    assert not (deal.scores[E][K_PIQUE] and deal.scores[E][K_REPIQUE])
    assert not (deal.scores[E][K_REPIQUE] and deal.scores[Y][K_REPIQUE])
    assert deal.game_won == ref.game_won, (deal.game_won, ref.game_won, deal.history)


def engine_event(e: Any) -> tuple[str, int, int, int, int]:
    """An engine event as the referee writes it: a SHOW's detail says whether it scores (events.py)."""
    kind, role, shown, value, detail = flat(e)
    return kind, role, shown, value, int(detail > 0) if kind == "show" else detail


def check_tricks(deal: Deal) -> None:
    """Each ``Trick`` follows its two plays and names the winner and his points as Law 65 has them."""
    log = list(deal.events)
    for i, e in enumerate(log):
        if type(e) is not Trick:
            continue
        follow = log[i - 1]
        assert type(follow) is PlayEvent and follow.trick == e.number and follow.card == e.follow, log[i - 3:i + 1]
        led = [x for x in log[:i] if type(x) is PlayEvent and x.trick == e.number and x.role != follow.role]
        assert len(led) == 1 and led[0].card == e.lead, (e, led)
        takes = e.follow >> 3 == e.lead >> 3 and e.follow > e.lead
        assert e.winner == (follow.role if takes else led[0].role) and e.leader == led[0].role, e
        counts = deal.rules.counting_cards >> e.follow & 1
        assert e.points == (counts if takes else 0) + (e.number == 12), e
    plays = sum(type(e) is PlayEvent for e in log)
    assert sum(type(e) is Trick for e in log) == plays // 2, "a trick for every two cards played"


def check_events(deal: Deal, ref: Referee) -> None:
    """The public log, event by event, is the one the referee expects."""
    check_tricks(deal)
    got = [engine_event(e) for e in deal.events if type(e) is not Trick]
    if got != ref.events:
        i = next(i for i, (g, w) in enumerate(zip([*got, None], [*ref.events, None], strict=False)) if g != w)
        raise AssertionError(f"event {i}: the engine has {got[i:i + 3]}, the referee {ref.events[i:i + 3]}, "
                             f"after {deal.history} (rules {deal.rules.spec}, game {deal.game})")


def check_log_shape(deal: Deal, laws: Laws) -> None:
    """What the laws say of the log, stated without the referee's model of it."""
    log = flat_log(deal.events)
    kinds = [e[0] for e in log]
    for i, e in enumerate(log):
        if e[0] == "call_point":  # p. 18: "The elder hand must call the number his point makes."
            assert (kinds[i + 1] == "call_value") == laws.au_cent and (log[i + 1][1] == E) == laws.au_cent
        if e[0] == "score" and e[4] == K_SETS:
            assert bool(e[2]) != laws.au_cent, "p. 18: quatorzes and trios are not shown at au cent"
    if laws.au_cent:
        assert "ask_value" not in kinds, "at au cent the value is called: nobody asks what they make"
        assert not any(e[0] == "show" and e[3] == SETS for e in log), "p. 18: sets are named, never shown"
        if (Y, "carte_blanche") in [(e[1], e[0]) for e in log]:  # p. 16: not before the elder has discarded
            assert kinds.index("exchange") < kinds.index("carte_blanche") and log[kinds.index("exchange")][1] == E
    else:
        assert "name_set" not in kinds and "game" not in kinds
    assert kinds.count("game") == (deal.game_won is not None) and ("game" not in kinds or kinds[-1] == "game")


def check_observations(deal: Deal, ref: Referee) -> None:
    for r in (E, Y):
        allowed = ref.entitled(r)
        obs = observe(deal, r)
        visible = obs.visible_cards()
        leak = visible & ~allowed
        assert not leak, (f"the {('elder', 'younger')[r]} may not see "
                          f"{[card_name(c) for c in cards(leak)]} at {deal.phase!r} after {deal.history}")
        named = json_cards(obs.to_json())
        leak = named & ~allowed
        assert not leak, f"to_json names {[card_name(c) for c in cards(leak)]} to the {r}"
        # And what he surely may see is there: his hand and the cards played.
        assert obs.hand == ref.hand[r]
        assert visible & (ref.hand[r] | ref.played) == ref.hand[r] | ref.played


def check_final(deal: Deal, ref: Referee) -> None:
    check_log_shape(deal, ref.laws)
    assert list(deal.legal_actions()) == [], "nothing is played after the deal is over"
    if ref.game_won is not None:
        # p. 20: the game is won; the rest of the deal is not played, and nobody else reached a hundred.
        winner, double = ref.game_won
        assert ref.game is not None and ref.game[winner] + deal.total(winner) >= GOAL
        assert ref.game[1 - winner] + deal.total(1 - winner) < GOAL
        assert double == (ref.game[1 - winner] + deal.total(1 - winner) < DOUBLE_BELOW)
        return
    assert ref.game is None or max(ref.game[r] + deal.total(r) for r in (E, Y)) < GOAL
    play = deal.scores[E][K_PLAY] + deal.scores[Y][K_PLAY]
    assert play == ref.leads_counted + ref.wins_counted + 1, "Law 65: leads, wins by the second, the last"
    if not ref.laws.small_cards_void:
        assert (ref.leads_counted, ref.wins_counted) == (12, ref.follower_wins), "Law 65: every card counts"
    assert deal.tricks_won[E] + deal.tricks_won[Y] == 12
    for r in (E, Y):
        w = deal.tricks_won[r]
        assert deal.scores[r][K_CARDS] == (40 if w == 12 else 10 if w > 6 else 0)  # Law 66


def full_declaration(ref: Referee) -> Any:
    """Declare everything held: the best suit, every sequence, every quatorze and trio."""
    _, role, cat = ref.stage
    hand = ref.hand[role]
    if cat == POINT:
        return DeclarePoint(max((hand & suit_mask(s) for s in range(4)), key=point_key))
    if cat == SEQUENCES:
        return DeclareSequences(tuple(r for r in maximal_runs(hand) if r.bit_count() >= 3))
    sets = (hand & mask(s * 8 + r for s in range(4)) for r in range(TEN, ACE + 1))
    return DeclareSets(tuple(m for m in sets if m.bit_count() >= 3))


def keen_choice(ref: Referee, rng: random.Random) -> Any:
    """A player who keeps his longest suit and high cards, declares everything and plays high."""
    what, role, _ = ref.stage
    hand = ref.hand[role]
    if what == "declare":
        return full_declaration(ref)
    if what == "discard":
        long_suit = max(range(4), key=lambda s: point_key(hand & suit_mask(s)))
        worst = sorted(cards(hand), key=lambda c: (suit(c) == long_suit, rank(c)))
        return Discard(mask(worst[:rng.randint(ref.min_discard(), ref.max_discard())]))
    if what == "look":
        return LookAtLeft(rng.random() < 0.5)
    playable = sorted(c for _, c in ref.legal())
    best = max(playable, key=rank)
    return Play(best if rng.random() < 0.8 else rng.choice(playable))


def choose(deal: Deal, ref: Referee, rng: random.Random, mode: int) -> Any:
    """Mode 0: ``sample``; 1: a uniform choice from the iteration; 2: as 0, declaring everything;
    3: a keen player (see ``keen_choice``)."""
    if mode == 3:
        return keen_choice(ref, rng)
    if ref.stage[0] == "discard" and ref.min_discard() == 0 and rng.random() < 0.25:
        return Discard(0)  # at au cent the younger keeps his cards now and then (one discard in thousands)
    if mode == 2 and ref.stage[0] == "declare":
        return full_declaration(ref)
    if mode == 1:
        return rng.choice(list(deal.legal_actions()))
    return deal.legal_actions().sample(rng)


def new_deal(order: list[int], by: int, spec: str = "rubicon",
             game: tuple[int, int] | None = None) -> tuple[Deal, Referee]:
    deal = Deal.from_pack(order, by, rules_named(spec), game)
    elder, younger, stock = deal_by_law(order, by)
    assert deal.dealt == (elder, younger) and list(deal.stock) == stock, "Law 9: the deal"
    return deal, Referee(elder, younger, stock, Laws.of(spec), game)


def dealt_hands(hands: tuple[int, int], stock: list[int], spec: str,
                game: tuple[int, int] | None) -> tuple[Deal, Referee]:
    """A deal of given hands under the rules of ``spec``, and its referee."""
    return (Deal(hands[E], hands[Y], stock, rules_named(spec), game),
            Referee(hands[E], hands[Y], stock, Laws.of(spec), game))


packs = st.permutations(list(range(32)))
by = st.sampled_from([2, 3])
seeds = st.integers(0, 2**32 - 1)
#: The scores of a game of a hundred up before the deal (p. 20): often near enough for the deal to end it.
games = st.tuples(st.integers(0, 99), st.integers(0, 99))
au_cent = pytest.mark.parametrize("spec", AU_CENT_SPECS)


def test_score_kinds_are_in_the_order_of_law_67() -> None:
    assert tuple(SCORE_KINDS) == KINDS


# ---------------------------------------------------------------- the tests

def play_and_check(deal: Deal, ref: Referee, rng: random.Random, mode: int) -> None:
    """Conservation, turn order, scores, the log and observations at every step of a random deal."""
    check_agreement(deal, ref)
    check_events(deal, ref)
    check_observations(deal, ref)
    while not deal.is_over:
        action = choose(deal, ref, rng, mode)
        assert ref.is_legal(action), (action, ref.stage)
        assert _KIND_OF[type(action)] == ref.stage[0] or (
            ref.stage[0] == "declare" and _KIND_OF[type(action)] == "declare")
        deal.apply(action)
        ref.apply(action)
        check_conservation(deal)
        check_agreement(deal, ref)
        check_events(deal, ref)
        check_observations(deal, ref)
    check_final(deal, ref)


@settings(max_examples=1100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=packs, by=by, seed=seeds, mode=st.integers(0, 2))
@pytest.mark.slow
def test_random_deals_follow_the_laws(order: list[int], by: int, seed: int, mode: int) -> None:
    deal, ref = new_deal(order, by)
    play_and_check(deal, ref, random.Random(seed), mode)


@au_cent
@settings(max_examples=330, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=packs, seed=seeds, mode=st.integers(0, 2), game=games)
@pytest.mark.slow
def test_random_deals_follow_the_laws_au_cent(spec: str, order: list[int], seed: int, mode: int,
                                              game: tuple[int, int]) -> None:
    """The same at Piquet au cent, dealt by twos (p. 16), from the game's scores before the deal."""
    deal, ref = new_deal(order, 2, spec, game)
    play_and_check(deal, ref, random.Random(seed), mode)


def strong_hands(rng: random.Random, holder: int, length: int) -> tuple[tuple[int, int], list[int]]:
    """Hands where ``holder`` has a long suit from the top and high cards; the stock."""
    s = rng.randrange(4)
    strong = [s * 8 + r for r in range(8 - length, 8)]
    high = [c for c in range(32) if rank(c) >= QUEEN and c not in strong]
    strong += rng.sample(high, min(len(high), rng.randint(2, 12 - length)))
    rest = [c for c in range(32) if c not in strong]
    rng.shuffle(rest)
    fill = 12 - len(strong)
    strong += rest[:fill]
    other, stock = mask(rest[fill:fill + 12]), rest[fill + 12:]
    hands = (mask(strong), other) if holder == E else (other, mask(strong))
    return hands, stock


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, holder=st.sampled_from([E, Y]), length=st.integers(4, 8))
@pytest.mark.slow
def test_strong_hands_follow_the_laws(seed: int, holder: int, length: int) -> None:
    """Deals where one hand holds a long suit from the top and high cards, played keenly: piques,
    repiques and capots are frequent here, rare in random deals."""
    rng = random.Random(seed)
    play_and_check(*dealt_hands(*strong_hands(rng, holder, length), "rubicon", None), rng, 3)


@au_cent
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, holder=st.sampled_from([E, Y]), length=st.integers(4, 8), game=games)
@pytest.mark.slow
def test_strong_hands_follow_the_laws_au_cent(spec: str, seed: int, holder: int, length: int,
                                              game: tuple[int, int]) -> None:
    rng = random.Random(seed)
    play_and_check(*dealt_hands(*strong_hands(rng, holder, length), spec, game), rng, 3)


NON_COURT = [c for c in range(32) if rank(c) not in (KING, QUEEN, KNAVE)]


def check_carte_blanche_deal(rng: random.Random, holder: int, mode: int, spec: str,
                             game: tuple[int, int] | None) -> None:
    """A deal with a carte blanche (about one hand in nine hundred from a shuffled pack), played through."""
    blanche = rng.sample(NON_COURT, 12)
    rest = [c for c in range(32) if c not in blanche]
    rng.shuffle(rest)
    other, stock = mask(rest[:12]), rest[12:]
    hands = (mask(blanche), other) if holder == E else (other, mask(blanche))
    deal, ref = dealt_hands(hands, stock, spec, game)
    assert deal.carte_blanche[holder] and ref.cb[holder]
    play_and_check(deal, ref, rng, mode)
    assert deal.scores[holder][CB] == 10  # nothing scores before it (Laws 20, 67)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, holder=st.sampled_from([E, Y]), mode=st.integers(0, 2))
@pytest.mark.slow
def test_carte_blanche_deals_follow_the_laws(seed: int, holder: int, mode: int) -> None:
    check_carte_blanche_deal(random.Random(seed), holder, mode, "rubicon", None)


@au_cent
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, holder=st.sampled_from([E, Y]), mode=st.integers(0, 2), game=games)
@pytest.mark.slow
def test_carte_blanche_deals_follow_the_laws_au_cent(spec: str, seed: int, holder: int, mode: int,
                                                     game: tuple[int, int]) -> None:
    check_carte_blanche_deal(random.Random(seed), holder, mode, spec, game)


def illegal_candidates(ref: Referee, rng: random.Random) -> list[Any]:
    """Actions of every kind, most of them illegal here, to test ``in``."""
    hand = ref.hand[ref.mover] if ref.mover is not None else 0
    out: list[Any] = [LookAtLeft(True), LookAtLeft(False), DeclarePoint(0), DeclareSequences(()),
                      DeclareSets(()), Discard(0), Discard(hand), None, "AS"]
    out += [Play(c) for c in range(32)]
    subs = list(submasks(hand))
    out += [Discard(m) for m in rng.sample(subs, min(24, len(subs)))]
    for _ in range(6):
        m = rng.getrandbits(32) & rng.getrandbits(32) & rng.getrandbits(32)
        out += [Discard(m), Discard(m & hand), DeclarePoint(m), DeclarePoint(m & hand)]
        s = rng.randrange(4)
        out.append(DeclarePoint(hand & (suit_mask(s) | suit_mask((s + 1) % 4))))
        out.append(DeclarePoint(rng.choice(subs) & suit_mask(s)))
    # Runs of every length (one or two cards, with a hole, touching, twice), sets of any rank.
    for _ in range(16):
        s, top = rng.randrange(4), rng.randrange(1, 8)
        length = rng.randrange(1, top + 2)
        run = mask(s * 8 + r for r in range(top - length + 1, top + 1))
        below = mask(s * 8 + r for r in range(0, top - length + 1))
        out += [DeclareSequences((run,)), DeclareSequences((run & hand,)),
                DeclareSequences((run & hand, below & hand)), DeclareSequences((run, run)),
                DeclareSequences((run & hand & ~(1 << (s * 8 + top - 1)),))]
    for _ in range(12):
        r = rng.randrange(8)
        sub = rng.choice(list(submasks(mask(s * 8 + r for s in range(4)))))
        other = rng.choice(list(submasks(mask(s * 8 + rng.randrange(3, 8) for s in range(4)))))
        out += [DeclareSets((sub,)), DeclareSets((sub & hand,)), DeclareSets((sub & hand, other & hand)),
                DeclareSets((sub & hand, sub & hand))]
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=packs, by=by, seed=seeds, mode=st.integers(0, 2))
@pytest.mark.slow
def test_legal_actions_match_brute_force(order: list[int], by: int, seed: int, mode: int) -> None:
    """``legal_actions()`` is exactly the referee's brute-force set; ``in`` and ``len`` agree."""
    check_legal_actions(*new_deal(order, by), random.Random(seed), mode)


@au_cent
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=packs, seed=seeds, mode=st.integers(0, 2), game=games)
@pytest.mark.slow
def test_legal_actions_match_brute_force_au_cent(spec: str, order: list[int], seed: int, mode: int,
                                                 game: tuple[int, int]) -> None:
    check_legal_actions(*new_deal(order, 2, spec, game), random.Random(seed), mode)


def check_legal_actions(deal: Deal, ref: Referee, rng: random.Random, mode: int) -> None:
    """At every step of a deal, the engine's legal actions against the referee's brute force."""
    while True:
        legal = deal.legal_actions()
        listed = list(legal)
        engine = {canonical(a) for a in listed}
        assert len(engine) == len(listed), "legal_actions() lists an action twice"
        expected = ref.legal()
        assert engine == expected, (
            f"{ref.stage}: engine has {sorted(engine - expected)[:5]} extra, "
            f"misses {sorted(expected - engine)[:5]}")
        assert len(legal) == len(expected)
        for a in listed:
            assert a in legal
        # A player's observation offers him the same choices, from what he can see.
        for r in (E, Y):
            obs = observe(deal, r)
            if r == deal.to_move:
                assert {canonical(a) for a in obs.legal_actions()} == expected
                assert obs.legal_count() == len(expected)
                assert canonical(obs.sample(rng)) in expected
            else:
                assert list(obs.legal_actions()) == [] and obs.legal_count() == 0
        for a in illegal_candidates(ref, rng):
            assert (a in legal) == ref.is_legal(a), (a, ref.stage)
        if deal.is_over:
            break
        action = choose(deal, ref, rng, mode)
        deal.apply(action)
        ref.apply(action)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=packs, by=by, seed=seeds)
@pytest.mark.slow
def test_undo_restores_the_exact_state(order: list[int], by: int, seed: int) -> None:
    """apply() then undo() leaves every field as it was, for several legal actions at each step."""
    check_undo(new_deal(order, by)[0], random.Random(seed))


@au_cent
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=packs, seed=seeds, game=games)
@pytest.mark.slow
def test_undo_restores_the_exact_state_au_cent(spec: str, order: list[int], seed: int,
                                               game: tuple[int, int]) -> None:
    """The same at au cent, where a deal may stop at a hundred and be taken back from there."""
    check_undo(new_deal(order, 2, spec, game)[0], random.Random(seed))


def check_undo(deal: Deal, rng: random.Random) -> None:
    history: list[dict[str, Any]] = []
    while not deal.is_over:
        before = snapshot(deal)
        for _ in range(2):
            action = deal.legal_actions().sample(rng)
            deal.apply(action)
            assert deal.undo() == action
            assert snapshot(deal) == before, f"undo of {action} after {deal.history}"
        history.append(before)
        deal.apply(deal.legal_actions().sample(rng))
    # Taking back the whole deal, step by step, passes through every earlier state.
    while history:
        deal.undo()
        assert snapshot(deal) == history.pop()
    try:
        deal.undo()
    except IllegalAction:
        pass
    else:
        raise AssertionError("undo() with nothing to take back must raise IllegalAction")
