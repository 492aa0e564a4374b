"""The deals one player cannot tell from the true one, and how to sample them.

A computer player that looks ahead must guess what its adversary holds.  From
an ``Observation`` (never the ``Deal``) ``Knowledge.of`` gathers every fact
the player has seen, and ``sample_worlds`` draws ``World`` values (the cards
dealt to each, the stock in order, the discards) that agree with all of them;
``rebuild`` turns a world back into a ``Deal`` at the same moment, the
adversary's unseen choices filled in so that the player's observation of it
is exactly the one he has.

Lawful certainties (what the laws and the log make sure of):

- the player's own cards, the cards he took in, the cards he saw left in the
  stock and where they lie in it (Laws 21-23, 33, 36);
- the number of cards each exchanged, and the younger's cards left when he
  looked at them (Law 36);
- a carte blanche announced means twelve cards dealt without a court card,
  none announced means at least one once it was due (at once, Law 20; at
  Piquet au cent the younger's only after the elder's discard, p. 16); a
  carte blanche shown gives the twelve cards dealt (Laws 18-20);
- a call is of something held (Law 54: the engine allows no miscall): a
  point of N cards is N cards of one suit, worth what was said when "What do
  they make?" was asked (Law 46), or always at Piquet au cent, where the
  elder states it (p. 18); a sequence called is a run of that length and
  head; a trio or quatorze of that rank (Laws 48, 62-64);
- a reply says how the younger's own declaration compared with the call
  (Law 46): "Not good" to five cards means he declared six or more, so he
  holds them; "Good" says only that he declared less, which anyone may
  (sinking, p. 93); at Piquet au cent the whole call is compared, what the
  point makes too, so "Good" says only that his point was lower in (cards,
  value), fewer cards perhaps (p. 18);
- cards shown or scored as good or equal are held (Law 55); quatorzes and
  trios named at Piquet au cent (p. 18) tell the rank and the number of each,
  not which three of a quatorze;
- the younger exchanged what the log says, none at all perhaps at Piquet au
  cent (p. 17);
- cards played were held, and a card of another suit played to a lead shows
  a void in the suit led from that trick on (Law 59 IV: one must follow suit).

Honesty assumptions (``honest=True``), which a player who sinks breaks: in
each category he declared in, he declared everything he held (his point is a
whole suit, every sequence is all of its run, every trio and quatorze all of
its rank he holds, and his best is the hand's best by the engine's keys, as
``full_declarations`` does; of two suits making the same point either will
do, and of equal sequences the one shown first is the highest suit's, as a
full declaration orders them), and a category he did not declare held
nothing to declare.  So a trio of kings scored says the fourth king is not in
his hand, and a call not good says his best was no better.  If no world fits
these assumptions (he sank, and the play has shown it), or none turns up in
300 tries, sampling falls back to the lawful worlds without a word.

Sampling is uniform over the consistent worlds (the stock's order
included), or with ``prior="discard"`` weighted by how likely a sensible
player was to make the adversary's discard from his twelve
(``discard_likelihood``).  Before the exchange and during it the
adversary's twelve are drawn straight from the unknown cards; after it his
hand is built suit by suit by an exact count of the hands agreeing with the
point and sequence facts (a small dynamic programme over the four suits),
then split into the cards he kept and took in, with rejection only for the
rarer facts that cross suits (quatorzes and trios, a dealt hand with no
court card).  Worlds are rebuilt under the observation's rules, and at a game
of so many up with the game's scores before the deal (``game_of``).

>>> from piquet.core.deal import Deal
>>> from piquet.core.observation import observe
>>> deal = Deal.shuffled(random.Random(3))
>>> obs = observe(deal, 0)
>>> worlds = sample_worlds(obs, random.Random(1), 5)
>>> all(consistent(obs, w) for w in worlds)
True
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from math import exp

from piquet.core.actions import PLAYS, Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import (
    COURT_CARDS,
    FULL_PACK,
    POINT_VALUES,
    RANK_MASKS,
    SUIT_MASKS,
    SUITS,
    TEN,
    Card,
    CardError,
    Mask,
)
from piquet.core.cards import cards_of as _cards_of
from piquet.core.combinations import RUNS_OF_BYTE
from piquet.core.deal import Deal, IllegalAction, Phase
from piquet.core.events import (
    ELDER,
    POINT,
    S_CARTE_BLANCHE,
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
    Exchange,
    Look,
    NameSet,
    Reply,
    Score,
    Show,
)
from piquet.core.events import Play as Played
from piquet.core.observation import Observation, observe

__all__ = ["Knowledge", "World", "consistent", "discard_likelihood", "game_of", "rebuild", "sample_worlds"]

# ---------------------------------------------------------------- keys as integers

# A declaration's key (Laws 62-64) as one int: first * 128 + second; 0 is nothing.
# Point: (cards, what they make); sequence: (length, rank of the head); set: (3 or 4, rank).
_MAX_KEY = 8 * 128 + 127

_POP = tuple(b.bit_count() for b in range(256))
_VALUE = tuple(sum(POINT_VALUES[r] for r in range(8) if b >> r & 1) for b in range(256))
#: The key of a whole suit held, as a point.
_POINT_KEY = tuple(_POP[b] * 128 + _VALUE[b] if b else 0 for b in range(256))


def _run_key(run: int) -> int:
    return run.bit_count() * 128 + ((run.bit_length() - 1) & 7)


def _sub_run_keys(runs: tuple[int, ...]) -> tuple[int, ...]:
    """Keys of every run of three or more inside the maximal runs: what may be declared."""
    keys: set[int] = set()
    for run in runs:
        head, length = (run.bit_length() - 1) & 7, run.bit_count()
        for n in range(3, length + 1):
            for h in range(head - length + n, head + 1):
                keys.add(n * 128 + h)
    return tuple(sorted(keys))


_RUNS = RUNS_OF_BYTE
_RUN_SET = tuple(frozenset(r) for r in _RUNS)
#: The key of the best sequence in a suit byte (0 for none).
_BEST_RUN = tuple(max((_run_key(r) for r in runs), default=0) for runs in _RUNS)
_SUB_RUN_KEYS = tuple(_sub_run_keys(runs) for runs in _RUNS)
_HONOUR_RANKS = tuple(range(TEN, 8))


@cache
def _point_subsets(b: int) -> tuple[tuple[int, ...], dict[int, int]]:
    """For a suit byte: the sorted keys of every point that may be called from it, and one subset for each."""
    found: dict[int, int] = {}
    sub = b
    while sub:
        found.setdefault(_POINT_KEY[sub], sub)
        sub = (sub - 1) & b
    return tuple(sorted(found)), found


def _any_in(keys: tuple[int, ...], lo: int, hi: int) -> bool:
    i = bisect_left(keys, lo)
    return i < len(keys) and keys[i] <= hi


def _item_key(category: int, item: Mask) -> int:
    top = item.bit_length() - 1
    if category == POINT:
        return _POINT_KEY[item >> (top & ~7) & 0xFF]
    return item.bit_count() * 128 + (top & 7)


def _byte(mask: Mask, s: int) -> int:
    return mask >> (8 * s) & 0xFF


# ---------------------------------------------------------------- the discard model

#: How much a sensible player wants to keep a card, by rank (seven .. ace) ...
_KEEP_RANK = (0.0, 0.2, 0.5, 1.2, 1.8, 2.4, 3.2, 4.5)
#: ... and for each card of its suit he was dealt: long suits are kept, short ones thrown.
_KEEP_LENGTH = 0.6


def _discard_weights(dealt: Mask) -> tuple[list[Card], list[float]]:
    cards = _cards_of(dealt)
    lengths = [_POP[_byte(dealt, s)] for s in SUITS]
    return cards, [exp(-(_KEEP_RANK[c & 7] + _KEEP_LENGTH * lengths[c >> 3])) for c in cards]


def _elementary(ws: list[float], k: int) -> float:
    """The k-th elementary symmetric sum of the weights."""
    e = [1.0] + [0.0] * k
    for w in ws:
        for j in range(k, 0, -1):
            e[j] += e[j - 1] * w
    return e[k]


def discard_likelihood(dealt: Mask, discard: Mask) -> float:
    """How likely a sensible player dealt ``dealt`` is to put out ``discard`` of all discards of its size.

    The model (``prior="discard"``): each card has a weight ``exp(-keep)``, its
    keep worth rising with its rank and with the length of its suit in the
    hand, so low cards and short suits go first (p. 112-119); a discard's
    chance is the product of its cards' weights over the sum of the products
    for every discard of that size.
    """
    cards, ws = _discard_weights(dealt)
    k = discard.bit_count()
    num = 1.0
    for c, w in zip(cards, ws, strict=True):
        if discard >> c & 1:
            num *= w
    return num / _elementary(ws, k)


def _sample_discard(dealt: Mask, k: int, rng: random.Random) -> Mask:
    """A discard of ``k`` cards drawn exactly from the model of ``discard_likelihood``."""
    cards, ws = _discard_weights(dealt)
    n = len(cards)
    # tail[i][j]: the j-th elementary sum of the weights from card i on.
    tail = [[1.0] + [0.0] * k for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, nxt = tail[i], tail[i + 1]
        for j in range(1, k + 1):
            row[j] = nxt[j] + ws[i] * nxt[j - 1]
    m, j = 0, k
    for i in range(n):
        if j == 0:
            break
        if rng.random() * tail[i][j] < ws[i] * tail[i + 1][j - 1]:
            m |= 1 << cards[i]
            j -= 1
    return m


def _random_subset(mask: Mask, k: int, rng: random.Random) -> Mask:
    if k <= 0:
        return 0
    cards = _cards_of(mask)
    if k >= len(cards):
        return mask
    m = 0
    for c in rng.sample(cards, k):
        m |= 1 << c
    return m


def _shuffled(mask: Mask, rng: random.Random) -> list[Card]:
    cards = _cards_of(mask)
    rng.shuffle(cards)
    return cards


# ---------------------------------------------------------------- the world


@dataclass(frozen=True, slots=True)
class World:
    """One way the cards may lie: the deal, the stock in order, and the discards made so far."""

    dealt: tuple[Mask, Mask]  # the twelve cards dealt to each role (ELDER=0, YOUNGER=1)
    stock: tuple[Card, ...]  # the eight stock cards in order (elder takes from the top)
    discards: tuple[Mask, Mask]  # each role's discard so far (0 before he discards)

    def taken(self, role: int, obs: Observation) -> Mask:
        """The cards ``role`` took in from the stock (Laws 21-23), by the counts in the log."""
        e = obs.exchanged(ELDER)
        if e is None:
            return 0
        if role == ELDER:
            return _mask(self.stock[:e])
        y = obs.exchanged(YOUNGER)
        return 0 if y is None else _mask(self.stock[e:e + y])

    def held(self, role: int, obs: Observation) -> Mask:
        """``role``'s twelve cards after his exchange (before it, as dealt), played cards included."""
        return (self.dealt[role] & ~self.discards[role]) | self.taken(role, obs)

    def hand(self, role: int, obs: Observation) -> Mask:
        """That role's cards in hand now: after the exchange, less the cards he has played."""
        return self.held(role, obs) & ~obs.played(role)


def _mask(cards: tuple[Card, ...] | list[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ---------------------------------------------------------------- reading the log


@dataclass(slots=True)
class _Decl:
    """What the log says of one role's declaration in one category: its key lies in [lo, hi]."""

    decided: bool = False
    lo: int = 0
    hi: int = _MAX_KEY
    items: tuple[Mask, ...] = ()  # the cards shown of it, best first
    complete: bool = False  # every item was shown or named (or nothing was declared)
    named: tuple[tuple[int, int], ...] = ()  # au cent: quatorzes and trios named, (3 or 4, rank), not shown


_ELDER_DECLARES = (Phase.ELDER_POINT, Phase.ELDER_SEQUENCES, Phase.ELDER_SETS)
_DECLARING = {
    Phase.ELDER_POINT: (POINT, ELDER), Phase.YOUNGER_POINT: (POINT, YOUNGER),
    Phase.ELDER_SEQUENCES: (SEQUENCES, ELDER), Phase.YOUNGER_SEQUENCES: (SEQUENCES, YOUNGER),
    Phase.ELDER_SETS: (SETS, ELDER), Phase.YOUNGER_SETS: (SETS, YOUNGER),
    Phase.YOUNGER_RECKON_POINT: (POINT, YOUNGER), Phase.YOUNGER_RECKON_SEQUENCES: (SEQUENCES, YOUNGER),
    Phase.YOUNGER_RECKON_SETS: (SETS, YOUNGER),
}


class _Log:
    """The public log read once: exchanges, looks, carte blanche, each declaration, the play."""

    def __init__(self, obs: Observation) -> None:
        self.exchanged = [-1, -1]
        self.looked: list[int | None] = [None, None]
        self.left_public = 0  # the cards the younger left, when he looked at them (Law 36)
        self.cb_announced = [False, False]
        # Whether a carte blanche would have been announced by now (p. 16: the younger's after the elder's discard).
        self.cb_due = [True, obs.rules.younger_announces_at_once]
        self.cb_shown = [0, 0]
        self.plays: list[tuple[int, Card, int]] = []  # (role, card, trick)
        self.scored = [0, 0]  # cards counted in hand scores (carte blanche apart)
        shows: list[list[list[Mask]]] = [[[], [], []], [[], [], []]]
        named: list[list[tuple[int, int]]] = [[], []]  # sets named, not shown (au cent, p. 18)
        call: list[tuple[int, int] | None] = [None, None, None]  # the elder's call: (first, second)
        asked, value = False, 0
        reply: list[int | None] = [None, None, None]
        for e in obs.events:
            if isinstance(e, Played):
                self.plays.append((e.role, e.card, e.trick))
            elif isinstance(e, Show):
                shows[e.role][e.category].append(e.cards)
            elif isinstance(e, NameSet):
                named[e.role].append((e.size, e.rank))
            elif isinstance(e, Score):
                if e.component != S_CARTE_BLANCHE:
                    self.scored[e.role] |= e.cards
            elif isinstance(e, Exchange):
                self.exchanged[e.role] = e.taken
                if e.role == ELDER:
                    self.cb_due[YOUNGER] = True
            elif isinstance(e, Look):
                self.looked[e.role] = int(e.looked)
                if e.role == YOUNGER:
                    self.left_public = e.cards
            elif isinstance(e, CarteBlanche):
                self.cb_announced[e.role] = True
            elif isinstance(e, CarteBlancheShown):
                self.cb_shown[e.role] = e.cards
            elif isinstance(e, CallPoint):
                call[POINT] = (e.length, -1)
            elif isinstance(e, CallSequence):
                call[SEQUENCES] = (e.length, e.head)
            elif isinstance(e, CallSet):
                call[SETS] = (e.size, e.rank)
            elif isinstance(e, AskValue):
                asked = True
            elif isinstance(e, CallValue):
                value = e.value
            elif isinstance(e, Reply):
                reply[e.category] = e.outcome
        self.first_lead = bool(self.plays)
        stated = obs.rules.calls_state_value  # au cent: the elder's call says what the point makes (p. 18)
        known_value = asked or stated
        phase = obs.phase
        self.decl = [[_Decl() for _ in range(3)] for _ in range(2)]
        for c in (POINT, SEQUENCES, SETS):
            ed, yd = self.decl[ELDER][c], self.decl[YOUNGER][c]
            called = call[c]
            if called is not None:
                first, second = called
                ed.decided = True
                if c == POINT:  # the number of cards, and what they make when asked or stated (Law 46; p. 18)
                    ed.lo, ed.hi = (first * 128 + value,) * 2 if known_value else (first * 128, first * 128 + 127)
                else:
                    ed.lo = ed.hi = first * 128 + second
                r = reply[c]
                if r == 0:
                    ed.items, ed.complete = tuple(shows[ELDER][c]), True
                    if c == SETS:
                        ed.named = tuple(named[ELDER])
                elif r == 1:
                    ed.items = tuple(shows[ELDER][c][:1])
                if r is not None:
                    yd.decided = True
                    yd.lo, yd.hi = _reply_range(c, first, value if asked else -1, ed.lo, r, stated)
                    if shows[YOUNGER][c]:
                        yd.items, yd.complete = tuple(shows[YOUNGER][c]), r == 2
                    elif c == SETS and named[YOUNGER]:
                        yd.named, yd.complete = tuple(named[YOUNGER]), True
            else:
                if phase > _ELDER_DECLARES[c]:
                    ed.decided, ed.lo, ed.hi, ed.complete = True, 0, 0, True
                reckoning = Phase.YOUNGER_RECKON_POINT <= phase <= Phase.YOUNGER_RECKON_POINT + c
                if self.first_lead and not reckoning:
                    items = tuple(shows[YOUNGER][c])
                    key = _item_key(c, items[0]) if items else 0
                    if c == SETS and named[YOUNGER]:
                        yd.named = tuple(named[YOUNGER])
                        key = _named_key(yd.named)
                    yd.decided, yd.lo, yd.hi, yd.items, yd.complete = True, key, key, items, True

    def voids(self, role: int) -> list[tuple[int, Mask]]:
        """(suit, cards of it ``role`` had played before) for each time he did not follow suit."""
        out: list[tuple[int, Mask]] = []
        before = 0
        lead = -1
        for who, c, _trick in self.plays:
            if lead < 0:
                lead = c
            else:
                if who == role and c >> 3 != lead >> 3:
                    out.append((lead >> 3, before & SUIT_MASKS[lead >> 3]))
                lead = -1
            if who == role:
                before |= 1 << c
        return out


def _named_key(named: tuple[tuple[int, int], ...]) -> int:
    """The key of the best quatorze or trio named (Law 64)."""
    return max(n * 128 + r for n, r in named)


def _reply_range(category: int, count: int, value: int, e_key: int, r: int,
                 whole: bool = False) -> tuple[int, int]:
    """Where the younger's key lies, from his reply to the elder's call (Law 46; p. 89-90).

    For the point, without "What do they make?" only the number of cards was
    compared; with it (``value`` >= 0) the younger declared as many cards.
    With ``whole`` (Piquet au cent, p. 18) the whole key was compared.
    """
    if category == POINT and not whole:
        if value >= 0:
            v = count * 128 + value
            return ((count * 128, v - 1), (v, v), (v + 1, count * 128 + 127))[r]
        return (0, (count - 1) * 128 + 127) if r == 0 else ((count + 1) * 128, _MAX_KEY)
    return ((0, e_key - 1), (e_key, e_key), (e_key + 1, _MAX_KEY))[r]


# ---------------------------------------------------------------- the facts on a hand, ready to sample

_Sig = tuple[int, int, int]  # (free cards chosen, existential facts met, group counts)


class _Spec:
    """The facts on the adversary's twelve after the exchange, lawful or honest, and an exact sampler.

    ``required`` cards are in the hand, ``excluded`` are not; each group must
    give the hand so many cards; ``point``/``seq`` facts are per suit (every
    suit within a bound, some suit meeting a fact); ``sets`` facts are checked
    on the whole hand.
    """

    def __init__(self, pool: Mask, required: Mask, excluded: Mask, groups: tuple[tuple[Mask, int], ...]) -> None:
        self.pool = pool
        self.required = required
        self.excluded = excluded
        self.groups = groups
        self.point_hi = _MAX_KEY
        self.seq_hi = [_MAX_KEY] * 4  # per suit: a full declaration shows, of equal runs, the highest suit's
        self.runs_exact: list[frozenset[int] | None] = [None, None, None, None]
        # Existential facts: (kind, lo, hi): 0 a suit's point, 1 a point callable in a suit,
        # 2 a suit's best sequence, 3 a sequence callable in a suit.
        self.exists: list[tuple[int, int, int]] = []
        self.set_best: tuple[int, int] | None = None  # honest: the best quatorze or trio's key
        self.set_any: tuple[int, int] | None = None  # lawful: some quatorze or trio in range
        self.set_small = 0  # ranks (bit r) with at most two cards held
        self.set_named: dict[int, frozenset[int]] = {}  # au cent: rank -> the numbers of it he may hold
        self.impossible = False
        self._ready = False
        self.total = 0

    # ---------------------------------------------------------- checks

    def suit_ok(self, s: int, b: int) -> bool:
        if _POINT_KEY[b] > self.point_hi or _BEST_RUN[b] > self.seq_hi[s]:
            return False
        rx = self.runs_exact[s]
        return rx is None or _RUN_SET[b] == rx

    def met(self, b: int) -> int:
        bits = 0
        for j, (kind, lo, hi) in enumerate(self.exists):
            if kind == 0:
                ok = lo <= _POINT_KEY[b] <= hi
            elif kind == 1:
                ok = _any_in(_point_subsets(b)[0], lo, hi)
            elif kind == 2:
                ok = lo <= _BEST_RUN[b] <= hi
            else:
                ok = _any_in(_SUB_RUN_KEYS[b], lo, hi)
            if ok:
                bits |= 1 << j
        return bits

    def sets_ok(self, hand: Mask) -> bool:
        if self.set_best is None and self.set_any is None and not self.set_small and not self.set_named:
            return True
        best = 0
        found = self.set_any is None
        for r in _HONOUR_RANKS:
            n = (hand & RANK_MASKS[r]).bit_count()
            named = self.set_named.get(r)
            if named is not None and n not in named:
                return False
            if n >= 3:
                if self.set_small >> r & 1:
                    return False
                best = max(best, n * 128 + r)
                if not found:
                    lo, hi = self.set_any  # type: ignore[misc]
                    found = lo <= 3 * 128 + r <= hi or (n == 4 and lo <= 4 * 128 + r <= hi)
        if self.set_best is not None and not self.set_best[0] <= best <= self.set_best[1]:
            return False
        return found

    def accepts(self, hand: Mask) -> bool:
        """Every fact, checked on one hand (not sampled): the independent test of a world."""
        if hand.bit_count() != 12 or hand & ~self.pool or self.required & ~hand or hand & self.excluded:
            return False
        if any((hand & g).bit_count() != n for g, n in self.groups):
            return False
        bits = 0
        for s in SUITS:
            b = _byte(hand, s)
            if not self.suit_ok(s, b):
                return False
            bits |= self.met(b)
        return bits == (1 << len(self.exists)) - 1 and self.sets_ok(hand)

    def _set_counts(self, r: int) -> set[int]:
        """How many cards of rank ``r`` the facts on quatorzes and trios allow the hand, taken rank by rank."""
        def key(n: int) -> int:
            return n * 128 + r if n >= 3 else 0

        allowed = {0, 1, 2} if self.set_small >> r & 1 else {0, 1, 2, 3, 4}
        if r in self.set_named:
            allowed &= self.set_named[r]
        if self.set_best is not None:
            allowed = {n for n in allowed if key(n) <= self.set_best[1]}
        return allowed

    def _set_reaches(self, r: int) -> set[int]:
        """The counts of rank ``r`` that would meet the existential fact on sets (all, if there is none)."""
        if self.set_best is not None and self.set_best[0] > 0:
            lo, hi = self.set_best
            return {n for n in (3, 4) if lo <= n * 128 + r <= hi}
        if self.set_any is not None:
            lo, hi = self.set_any
            return {n for n in (3, 4) if lo <= 3 * 128 + r <= hi or (n == 4 and lo <= 4 * 128 + r <= hi)}
        return {0, 1, 2, 3, 4}

    def deduce_sets(self) -> None:
        """Turn the facts on quatorzes and trios into cards required or excluded where they force them.

        Nothing changes which hands meet the facts; the sampler just rejects less.
        """
        reaching = [r for r in _HONOUR_RANKS if self._set_reaches(r)]
        for r in _HONOUR_RANKS:
            allowed = self._set_counts(r)
            if len(reaching) == 1 and reaching == [r]:
                allowed &= self._set_reaches(r)  # the only rank that can meet the call
            rank = RANK_MASKS[r] & self.pool
            have = (self.required & rank).bit_count()
            avail = rank & ~self.excluded
            if not allowed or have > max(allowed) or avail.bit_count() < min(allowed):
                self.impossible = True
                return
            if have == max(allowed):
                self.excluded |= avail & ~self.required
            elif avail.bit_count() == min(allowed):
                self.required |= avail
        if not reaching:
            self.impossible = True

    # ---------------------------------------------------------- the exact count over suits

    def _prepare(self) -> None:
        """Count, suit by suit, the hands meeting the per-suit facts (a dynamic programme over the suits)."""
        self._ready = True
        if self.impossible:
            return
        free = self.pool & ~self.required & ~self.excluded
        need = 12 - self.required.bit_count()
        gtarget = 0
        for i, (g, n) in enumerate(self.groups):
            left = n - (self.required & g).bit_count()
            if left < 0:
                return
            gtarget |= left << (4 * i)
        if need < 0 or self.required & (self.excluded | ~self.pool):
            return
        self._gtarget = gtarget
        self._tables: list[dict[_Sig, list[Mask]]] = []
        for s in SUITS:
            fb, rb = _byte(free, s), _byte(self.required, s)
            gbs = [_byte(g, s) for g, _ in self.groups]
            table: dict[_Sig, list[Mask]] = {}
            sub = fb
            while True:
                k = _POP[sub]
                hold = rb | sub
                if k <= need and self.suit_ok(s, hold):
                    g = 0
                    for i, gb in enumerate(gbs):
                        g |= _POP[sub & gb] << (4 * i)
                    table.setdefault((k, self.met(hold), g), []).append(sub << (8 * s))
                if not sub:
                    break
                sub = (sub - 1) & fb
            self._tables.append(table)
        self._forward: list[dict[_Sig, int]] = [{(0, 0, 0): 1}]
        for i in range(4):
            nxt: dict[_Sig, int] = {}
            for (k, b, g), w in self._forward[i].items():
                for (sk, sb, sg), subs in self._tables[i].items():
                    nk, ng = k + sk, g + sg
                    if nk > need or not self._g_fits(ng):
                        continue
                    key = (nk, b | sb, ng)
                    nxt[key] = nxt.get(key, 0) + w * len(subs)
            self._forward.append(nxt)
        self._target = (need, (1 << len(self.exists)) - 1, gtarget)
        self.total = self._forward[4].get(self._target, 0)
        self._choices: dict[tuple[int, _Sig], tuple[list[tuple[_Sig, list[Mask]]], list[int], int]] = {}

    def _g_fits(self, g: int) -> bool:
        t = self._gtarget
        return all((g >> (4 * i)) & 15 <= (t >> (4 * i)) & 15 for i in range(len(self.groups)))

    def _options(self, i: int, state: _Sig) -> tuple[list[tuple[_Sig, list[Mask]]], list[int], int]:
        """The ways suit ``i`` and the suits before it make ``state``, with cumulative weights."""
        found = self._choices.get((i, state))
        if found is not None:
            return found
        k, b, g = state
        opts: list[tuple[_Sig, list[Mask]]] = []
        cum: list[int] = []
        total = 0
        before = self._forward[i]
        for (sk, sb, sg), subs in self._tables[i].items():
            pk, pg = k - sk, g - sg
            if pk < 0 or sb & ~b or any((sg >> (4 * j)) & 15 > (g >> (4 * j)) & 15
                                        for j in range(len(self.groups))):
                continue
            for pb in _submasks(b):
                if pb | sb != b:
                    continue
                w = before.get((pk, pb, pg), 0)
                if w:
                    total += w * len(subs)
                    opts.append(((pk, pb, pg), subs))
                    cum.append(total)
        found = (opts, cum, total)
        self._choices[(i, state)] = found
        return found

    def draw(self, rng: random.Random) -> Mask | None:
        """A hand drawn uniformly from those meeting the per-suit facts; None if there is none."""
        if not self._ready:
            self._prepare()
        if not self.total:
            return None
        state = self._target
        hand = self.required
        for i in (3, 2, 1, 0):
            opts, cum, total = self._options(i, state)
            j = bisect_right(cum, rng.random() * total)
            state, subs = opts[min(j, len(opts) - 1)]
            hand |= subs[int(rng.random() * len(subs))]
        return hand


def _submasks(b: int) -> Iterator[int]:
    sub = b
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & b


# ---------------------------------------------------------------- knowledge


class Knowledge:
    """What one observation reveals of the adversary's cards, precomputed once.

    Public, lawful facts (``honest`` adds its own only when sampling):

    - ``held``: cards known to be in his hand now (shown, scored, or seen
      left in the stock and then taken by him), not yet played;
    - ``had``: the same with the cards he has played: known in his twelve
      after the exchange;
    - ``cannot_hold``: cards he cannot hold now: the player's own, the cards
      played, his discard, the stock cards known to be there, voids;
    - ``unknown``: cards whose place the player does not know (the
      adversary's hand, his discard, or the stock);
    - ``voids``: the suits (as a mask of their cards) he has shown void in
      (Law 59 IV);
    - ``min_lengths``: per suit, the fewest cards he held after the exchange;
    - ``point_at_least``: he held a suit of at least this many cards, by his
      call or reply for point (Law 46);
    - ``exchanged``: the number of cards he took in, or -1 before;
    - ``played``: the cards he has played.

    ``sample`` draws worlds (``sample_worlds``); ``admits`` checks one world
    against every fact directly, without replaying it.
    """

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.role = role = obs.role
        self.adversary = adv = 1 - role
        log = self.log = _Log(obs)
        self.exchanged = log.exchanged[adv]
        played = self.played = obs.played(adv)
        # Before the calling the adversary's twelve are drawn as dealt; after it, as held.
        self.dealt_first = obs.phase < Phase.ELDER_POINT
        self.cb_known = log.cb_shown[adv]
        if role == ELDER and log.looked[ELDER] == 1:
            self.left_seen = obs.seen_left & ~log.left_public  # the cards the elder left, as far as known
        else:
            self.left_seen = 0
        self.pool = FULL_PACK & ~obs.dealt & ~obs.taken & ~log.left_public
        self.voids = 0
        void_excluded = 0
        for s, before in log.voids(adv):
            self.voids |= SUIT_MASKS[s]
            void_excluded |= SUIT_MASKS[s] & ~before
        self._void_excluded = void_excluded
        self.point_at_least = 0
        d = log.decl[adv][POINT]
        if d.decided and d.lo:
            self.point_at_least = d.lo >> 7
        if self.dealt_first:
            self._init_dealt_first()
        else:
            self._init_held_first()
        self.min_lengths = tuple((self.had & SUIT_MASKS[s]).bit_count() for s in SUITS)
        self.held = self.had & ~played
        self.unknown = self.pool & ~self.had
        self.cannot_hold = FULL_PACK & ~(self.held | (self._may_hold & ~played))
        self._specs: dict[bool, _Spec | None] = {}

    @classmethod
    def of(cls, obs: Observation) -> Knowledge:
        """Read everything ``obs`` reveals of the adversary's cards."""
        return cls(obs)

    # ---------------------------------------------------------- before the calling: the dealt hand

    def _init_dealt_first(self) -> None:
        adv, log = self.adversary, self.log
        # His dealt twelve lie among the cards not seen; the stock holds the rest.
        self.deal_pool = self.pool & ~self.left_seen
        # None announced says he has a court card, once it was due (at Piquet au cent, after the elder's discard).
        self._court_dealt = log.cb_due[adv] and not log.cb_announced[adv]
        if self.exchanged >= 0:
            self.had, self._may_hold = 0, self.pool  # he has taken in from the stock too
        elif self.cb_known:
            self.had = self._may_hold = self.cb_known  # Law 19
        else:
            self.had = 0
            self._may_hold = self.deal_pool & ~COURT_CARDS if log.cb_announced[adv] else self.deal_pool

    def _draw_dealt_first(self, rng: random.Random, prior: str) -> World:
        adv, log = self.adversary, self.log
        while True:
            if self.cb_known:
                dealt = self.cb_known
            elif log.cb_announced[adv]:
                dealt = _random_subset(self.deal_pool & ~COURT_CARDS, 12, rng)
            else:
                dealt = _random_subset(self.deal_pool, 12, rng)
                if self._court_dealt and not dealt & COURT_CARDS:
                    continue  # Law 20: no carte blanche was announced
            break
        rest = self.deal_pool & ~dealt
        obs = self.obs
        if self.role == ELDER:
            stock = _shuffled(obs.taken, rng) + _shuffled(self.left_seen, rng) + _shuffled(rest, rng)
        else:
            stock = _shuffled(rest, rng)
        discard = 0
        if self.exchanged > 0:
            if prior == "discard":
                discard = _sample_discard(dealt, self.exchanged, rng)
            else:
                discard = _random_subset(dealt, self.exchanged, rng)
        return self._world(dealt, tuple(stock), discard)

    def _world(self, adv_dealt: Mask, stock: tuple[Card, ...], adv_discard: Mask) -> World:
        if self.role == ELDER:
            return World((self.obs.dealt, adv_dealt), stock, (self.obs.discard, adv_discard))
        return World((adv_dealt, self.obs.dealt), stock, (adv_discard, self.obs.discard))

    # ---------------------------------------------------------- after the exchange: the hand held

    def _init_held_first(self) -> None:
        """Where each unknown card may lie: kept from the deal (K), taken in (T), discarded (X), left (L)."""
        adv, log = self.adversary, self.log
        x = self.exchanged
        pool = self.pool
        seen = self.left_seen
        allow_k = allow_x = pool & ~seen
        allow_t = allow_l = pool
        groups: list[tuple[Mask, int]] = []
        if seen:
            if seen.bit_count() <= x:
                allow_l = pool & ~seen  # Law 33: he saw them left, and the younger took them all in
            else:
                allow_t = seen  # the younger took only from the cards the elder left
                groups.append((seen, x))
        if self.cb_known:
            allow_k &= self.cb_known
            allow_x &= self.cb_known
            allow_t &= ~self.cb_known
            allow_l &= ~self.cb_known
            groups.append((self.cb_known, 12 - x))
        self.allow = (allow_k, allow_t, allow_x, allow_l)
        self.groups = tuple(groups)
        required = self.played | log.scored[adv]
        for c in (POINT, SEQUENCES, SETS):
            for item in log.decl[adv][c].items:
                required |= item
        if seen and seen.bit_count() <= x:
            required |= seen
        self.required = required
        self.excluded = (pool & ~(allow_k | allow_t)) | self._void_excluded
        self.had = required
        self._may_hold = pool & ~self.excluded

    def _spec(self, honest: bool) -> _Spec | None:
        """The lawful or honest facts ready to sample (None before the calling)."""
        if self.dealt_first:
            return None
        if honest not in self._specs:
            self._specs[honest] = self._make_spec(honest)
        return self._specs[honest]

    def _make_spec(self, honest: bool) -> _Spec:
        adv, log = self.adversary, self.log
        excluded = self.excluded
        required = self.required
        spec = _Spec(self.pool, required, excluded, self.groups)
        for c in (POINT, SEQUENCES, SETS):
            d = log.decl[adv][c]
            if not d.decided:
                continue
            if not honest:
                # Lawful: a quatorze or trio named is held, or a trio out of a quatorze (p. 18).
                for n, r in d.named:
                    spec.set_named[r] = frozenset(range(n, 5))
                if not d.items and not d.named and d.lo > 0:
                    if c == SETS:
                        spec.set_any = (d.lo, d.hi)
                    else:
                        spec.exists.append((1 if c == POINT else 3, d.lo, d.hi))
                continue
            lo, hi = d.lo, d.hi
            if d.named:  # each named is all he holds of its rank (nothing sunk)
                lo = hi = _named_key(d.named)
                for n, r in d.named:
                    spec.set_named[r] = frozenset((n,))
            if d.items:
                lo = hi = _item_key(c, d.items[0])
                shown = d.items if d.complete else d.items[:1]
                for item in shown:  # each item is all he holds of it (p. 92: nothing sunk)
                    if c == POINT:
                        excluded |= SUIT_MASKS[(item.bit_length() - 1) >> 3] & ~item
                    elif c == SEQUENCES:
                        suit = SUIT_MASKS[(item.bit_length() - 1) >> 3]
                        excluded |= (item << 1 | item >> 1) & suit & ~item
                    else:
                        excluded |= RANK_MASKS[(item.bit_length() - 1) & 7] & ~item
            if c == POINT:
                spec.point_hi = hi
                if lo > 0:
                    spec.exists.append((0, lo, hi))
            elif c == SEQUENCES:
                spec.seq_hi = [hi] * 4
                if d.items and not d.complete:
                    # Only the first was shown (equal): declared in full, it is the highest of equal runs.
                    top = (d.items[0].bit_length() - 1) >> 3
                    spec.seq_hi = [hi if s <= top else hi - 1 for s in SUITS]
                if lo > 0:
                    spec.exists.append((2, lo, hi))
                if d.complete:
                    for s in SUITS:
                        spec.runs_exact[s] = frozenset(_byte(i, s) for i in d.items if _byte(i, s))
            else:
                spec.set_best = (lo, hi)
                if d.complete:
                    ranks = {(i.bit_length() - 1) & 7 for i in d.items} | {r for _, r in d.named}
                    spec.set_small = sum(1 << r for r in _HONOUR_RANKS if r not in ranks)
        spec.excluded = excluded
        spec.deduce_sets()
        return spec

    def _split(self, hand: Mask, rng: random.Random) -> tuple[Mask, Mask, Mask, Mask] | None:
        """Split the hand into kept and taken, the rest into discard and left, uniformly."""
        allow_k, allow_t, allow_x, allow_l = self.allow
        x = self.exchanged
        t_only = hand & allow_t & ~allow_k
        both = hand & allow_t & allow_k
        need_t = x - t_only.bit_count()
        if hand & ~(allow_k | allow_t) or need_t < 0 or need_t > both.bit_count():
            return None
        taken = t_only | _random_subset(both, need_t, rng)
        rest = self.pool & ~hand
        x_only = rest & allow_x & ~allow_l
        either = rest & allow_x & allow_l
        need_x = x - x_only.bit_count()
        if rest & ~(allow_x | allow_l) or need_x < 0 or need_x > either.bit_count():
            return None
        discard = x_only | _random_subset(either, need_x, rng)
        return hand & ~taken, taken, discard, rest & ~discard

    def _draw_held_first(self, spec: _Spec, rng: random.Random) -> World | None:
        """One try: a hand, its split and a stock; None if a fact checked afterwards fails."""
        hand = spec.draw(rng)
        if hand is None or not spec.sets_ok(hand):
            return None
        parts = self._split(hand, rng)
        if parts is None:
            return None
        kept, taken, discard, left = parts
        dealt = kept | discard
        if not self.cb_known and not dealt & COURT_CARDS:
            return None  # Law 20: he announced no carte blanche
        obs, seen = self.obs, self.left_seen
        left |= self.log.left_public
        if self.role == ELDER:
            stock = (_shuffled(obs.taken, rng) + _shuffled(taken & seen, rng) + _shuffled(taken & ~seen, rng)
                     + _shuffled(left & seen, rng) + _shuffled(left & ~seen, rng))
        else:
            stock = _shuffled(taken, rng) + _shuffled(obs.taken, rng) + _shuffled(left, rng)
        return self._world(dealt, tuple(stock), discard)

    # ---------------------------------------------------------- sampling

    def sample(self, rng: random.Random, n: int, *, honest: bool = True, prior: str = "uniform") -> list[World]:
        """``n`` worlds consistent with the observation (see ``sample_worlds``)."""
        if prior not in ("uniform", "discard"):
            raise ValueError(f"unknown prior {prior!r}: 'uniform' or 'discard'")
        if n <= 0:
            return []
        if self.dealt_first:
            return [self._draw_dealt_first(rng, prior) for _ in range(n)]
        draws = n if prior == "uniform" or self.exchanged <= 0 else 4 * n
        worlds: list[World] = []
        if honest:
            spec = self._spec(True)
            assert spec is not None
            worlds = self._draw_many(spec, rng, draws, give_up=True)
        if not worlds:
            spec = self._spec(False)
            assert spec is not None
            worlds = self._draw_many(spec, rng, draws, give_up=False)
        if len(worlds) < draws:
            worlds += [rng.choice(worlds) for _ in range(draws - len(worlds))]
        if draws == n:
            return worlds
        # Importance resampling: each uniform world weighted by the chance of its discard.
        adv = self.adversary
        weights = [discard_likelihood(w.dealt[adv], w.discards[adv]) for w in worlds]
        return rng.choices(worlds, weights=weights, k=n)

    def _draw_many(self, spec: _Spec, rng: random.Random, n: int, give_up: bool) -> list[World]:
        """Up to ``n`` worlds by rejection; an honest search gives up when its facts are (nearly) never met."""
        worlds: list[World] = []
        tries = 0
        budget = 400 + 100 * n
        while len(worlds) < n:
            if give_up and not worlds and tries >= 300:
                break  # the honest worlds are none, or too few to find: the lawful ones serve
            if tries >= budget:
                if give_up or worlds:
                    break
                raise RuntimeError("no world found consistent with the observation")
            tries += 1
            w = self._draw_held_first(spec, rng)
            if w is not None:
                worlds.append(w)
            elif spec.total == 0:
                if give_up:
                    return []
                raise RuntimeError("no world is consistent with the observation")
        return worlds

    # ---------------------------------------------------------- checking a world directly

    def admits(self, world: World, honest: bool = False) -> bool:
        """Whether ``world`` meets every fact, checked directly on it (no replay)."""
        obs, role, adv, log = self.obs, self.role, self.adversary, self.log
        if world.dealt[role] != obs.dealt or world.discards[role] != obs.discard or len(world.stock) != 8:
            return False
        dealt = world.dealt[adv]
        stock_mask = _mask(world.stock)
        if dealt.bit_count() != 12 or stock_mask.bit_count() != 8 or dealt | stock_mask | obs.dealt != FULL_PACK:
            return False
        if world.taken(role, obs) != obs.taken:
            return False
        e, y = log.exchanged
        stock = world.stock
        if role == ELDER and log.looked[ELDER] == 1 and _mask(stock[e:5]) | log.left_public != obs.seen_left:
            return False
        if log.looked[YOUNGER] == 1 and _mask(stock[e + y:]) != log.left_public:
            return False
        discard = world.discards[adv]
        x = self.exchanged
        if discard & ~dealt or discard.bit_count() != max(x, 0):
            return False
        if self.cb_known and dealt != self.cb_known:
            return False
        blanche = not dealt & COURT_CARDS
        if log.cb_announced[adv] != blanche and (log.cb_announced[adv] or log.cb_due[adv]):
            return False
        if self.dealt_first:
            return not self.left_seen & dealt
        hand = world.held(adv, obs)
        spec = self._spec(honest)
        assert spec is not None
        return spec.accepts(hand)


# ---------------------------------------------------------------- the API


def sample_worlds(obs: Observation, rng: random.Random, n: int, *, honest: bool = True,
                  prior: str = "uniform") -> list[World]:
    """``n`` worlds consistent with everything ``obs`` shows, drawn independently.

    ``honest`` assumes the adversary declared all he held (falling back to
    the lawful worlds when none fits); ``prior`` is ``"uniform"`` (every
    consistent world alike) or ``"discard"`` (weighted by
    ``discard_likelihood`` of his discard: exactly before the calling, by
    importance resampling of four times as many uniform worlds after it, so
    the same world may come twice).
    """
    return Knowledge.of(obs).sample(rng, n, honest=honest, prior=prior)


def consistent(obs: Observation, world: World, *, honest: bool = False) -> bool:
    """Does this world agree with every fact of ``obs``: can it be rebuilt into a deal observed as ``obs``?

    With ``honest``, the adversary must also have declared all he held.
    """
    try:
        rebuild(obs, world)
    except ValueError:
        return False
    return not honest or Knowledge.of(obs).admits(world, honest=True)


def rebuild(obs: Observation, world: World) -> Deal:
    """A deal at the moment of ``obs`` with ``world``'s cards, observed by ``obs.role`` exactly as ``obs``.

    The discards are the world's, the looks and the cards played the log's;
    each declaration is the simplest that makes the log's events: the items
    shown when they all were, the first when only it was, otherwise one item
    of the key the call or reply tells (Laws 46-55).  The deal is made under
    the observation's rules, and at a game of so many up with the game's
    scores (``game_of``).  ``ValueError`` if no such deal exists.
    """
    try:
        deal = Deal(world.dealt[0], world.dealt[1], world.stock, obs.rules, game_of(obs))
    except CardError as e:
        raise ValueError(str(e)) from e
    log = _Log(obs)
    events = obs.events
    n = len(events)
    target = obs.phase
    plays = 0
    while deal.phase != target or len(deal.events) != n:
        k = len(deal.events)
        if k > n or deal.phase == Phase.DONE:
            raise ValueError("the world runs past the observation")
        action = _next_action(deal, world, log, plays)
        if isinstance(action, Play):
            plays += 1
        try:
            deal.apply(action)
        except IllegalAction as e:
            raise ValueError(str(e)) from e
        if tuple(deal.events[k:]) != events[k:len(deal.events)]:
            raise ValueError("the world does not make the observed events")
    if (deal.discards[0], deal.discards[1]) != world.discards:
        raise ValueError("a discard is made that the observation has not seen")
    if observe(deal, obs.role) != replace(obs, partie=None):
        raise ValueError("the world is not observed as the observation")
    return deal


def game_of(obs: Observation) -> tuple[int, int] | None:
    """At a game of so many up: the game's scores before this deal, by role (elder, younger), else None.

    They are read from the partie (``obs.partie.scores``, by seat); an
    observation without one is taken to begin a game at love all.
    """
    if not obs.rules.partie_of_games:
        return None
    ctx = obs.partie
    if ctx is None:
        return (0, 0)
    other = "B" if ctx.seat == "A" else "A"
    mine, his = ctx.scores.get(ctx.seat, 0), ctx.scores.get(other, 0)
    return (mine, his) if obs.role == ELDER else (his, mine)


def _next_action(deal: Deal, world: World, log: _Log, plays: int) -> Action:
    p = deal.phase
    if p == Phase.ELDER_DISCARD or p == Phase.YOUNGER_DISCARD:
        role = ELDER if p == Phase.ELDER_DISCARD else YOUNGER
        cards = world.discards[role]
        if not cards and log.exchanged[role] != 0:  # at Piquet au cent the younger may discard none (p. 17)
            raise ValueError("the world has no discard where the observation has one")
        return Discard(cards)
    if p == Phase.ELDER_LOOK or p == Phase.YOUNGER_LOOK:
        looked = log.looked[ELDER if p == Phase.ELDER_LOOK else YOUNGER]
        if looked is None:
            raise ValueError("no look in the observation")
        return LookAtLeft(bool(looked))
    if p == Phase.PLAY:
        if plays >= len(log.plays):
            raise ValueError("no more cards played in the observation")
        return PLAYS[log.plays[plays][1]]
    category, role = _DECLARING[p]
    return _declaration(category, deal.hands[role], log.decl[role][category])


def _declaration(category: int, hand: Mask, d: _Decl) -> Action:
    """The simplest declaration from ``hand`` that makes what the log shows."""
    if d.named:  # quatorzes and trios named (au cent, p. 18): any cards of those ranks make the same events
        sets = []
        for n, r in d.named:
            held = _cards_of(hand & RANK_MASKS[r])
            if len(held) < n:
                raise ValueError("the hand does not hold what was named")
            sets.append(_mask(held[-n:]))
        return DeclareSets(tuple(sets))
    if d.items or d.complete:
        items = d.items if d.complete else d.items[:1]
    elif d.lo == 0:
        items = ()
    else:
        item = _find_item(category, hand, d.lo, d.hi)
        if item is None:
            raise ValueError("the hand holds nothing that was called")
        items = (item,)
    if category == POINT:
        return DeclarePoint(items[0] if items else 0)
    if category == SEQUENCES:
        return DeclareSequences(items)
    return DeclareSets(items)


def _find_item(category: int, hand: Mask, lo: int, hi: int) -> Mask | None:
    """One point, sequence or set held with its key in [lo, hi]."""
    if category == SETS:
        for r in _HONOUR_RANKS:
            held = hand & RANK_MASKS[r]
            n = held.bit_count()
            if n == 4 and lo <= 4 * 128 + r <= hi:
                return held
            if n >= 3 and lo <= 3 * 128 + r <= hi:
                return held & ~(held & -held) if n == 4 else held
        return None
    for s in SUITS:
        b = _byte(hand, s)
        if category == POINT:
            keys, subs = _point_subsets(b)
            i = bisect_left(keys, lo)
            if i < len(keys) and keys[i] <= hi:
                return subs[keys[i]] << (8 * s)
        else:
            for run in _RUNS[b]:
                head, length = (run.bit_length() - 1) & 7, run.bit_count()
                for m in range(3, length + 1):
                    for h in range(head - length + m, head + 1):
                        if lo <= m * 128 + h <= hi:
                            return (((1 << m) - 1) << (h - m + 1)) << (8 * s)
    return None

