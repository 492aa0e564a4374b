"""An exact double-dummy solver for the play of the cards (Laws 57-66, 68-69).

Both hands are open.  A ``Position`` is the play from some point on: the cards
each role still holds, who leads, the card already led to the trick (if any),
the tricks won so far and, when a pique is still possible, how many more play
points the elder needs for it.  ``value`` is what best play by both sides is
worth to the player to play, in points still to come:

* Law 65: the leader scores one for each card he leads; the second player
  scores one when he wins the trick (follows suit with a higher card); the
  last trick counts one more to its winner.  Only the ``counting`` cards score
  so: at Piquet au cent, by agreement, a nine, eight or seven led, or winning
  a trick, scores nothing, and the last trick still scores its one more
  (p. 19);
* Law 66: more than six tricks, ten for the cards; all twelve, forty (capot)
  instead; six each, nothing;
* Laws 68-69: the elder's pique, thirty more, if his play points reach
  ``pique_need`` before the younger scores any point in play (the cards never
  count toward it).

The value is ``weights[0]`` times the points to come to the player to play,
less ``weights[1]`` times his adversary's; both sides play to that one
zero-sum payoff.  With the default weights it is the plain difference of the
points to come.

>>> from piquet.core.cards import CardSet, card_name
>>> hand = lambda text: CardSet.parse(text).mask
>>> value(Position((hand("AS KS"), hand("QS JS")), ELDER, tricks_won=(10, 0)))  # 2 leads, the last, capot
43

Leading the ace, each side makes two and the tricks are six all; the seven
gives up a trick but the ace takes the last, worth two, and the tricks are
still six all:

>>> pos = Position((hand("AS 7H"), hand("KS 8H")), ELDER, tricks_won=(5, 5))
>>> {card_name(c): v for c, v in card_values(pos).items()}
{'AS': 0, '7H': 1}

A nine led to the last trick scores one and the trick one more; when nines,
eights and sevens do not count, only the last trick's one is left:

>>> last = Position((hand("9S"), hand("7S")), ELDER, tricks_won=(5, 6))
>>> value(last), value(Position(last.hands, ELDER, tricks_won=(5, 6), counting=TENS_AND_ABOVE))
(2, 1)

The search is alpha-beta with zero-window tests (MTD(f)) over a transposition
table keyed on relative ranks, trying one card of each run of equivalent
cards.  Cards are equivalent only on the same side of the line between the
cards that count and those that do not: a nine next to a ten in one hand is
not the ten's equal when small cards do not count (the key carries, for each
suit, how many of its cards in play do not count).  A compiled core
(``piquet.players._csolver``) runs the same search when it is importable and
``PIQUET_PURE_SOLVER`` is not set; the pure-Python search below gives the
same values.  ``minimax`` is the plain exhaustive reference.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from piquet.core.cards import FULL_PACK, SUIT_MASKS, Card, Mask
from piquet.core.deal import PLAYING, Deal, declaration_items, declaration_key, full_declarations, item_score
from piquet.core.events import ELDER, POINT, SEQUENCES, SETS, YOUNGER

__all__ = ["COMPILED", "ELDER", "TENS_AND_ABOVE", "YOUNGER", "Position", "card_values", "card_values_and_nodes",
           "minimax", "value", "value_and_nodes"]

_INF = 1 << 60
#: The counting cards when nines, eights and sevens do not count in play (Piquet au cent by agreement, p. 19).
TENS_AND_ABOVE: Mask = sum(0xF8 << (8 * s) for s in range(4))
#: Weights beyond this are left to the pure-Python search (the compiled one counts in 32 bits).
_C_WEIGHT_LIMIT = 1 << 16

# ---------------------------------------------------------------- the position


@dataclass(frozen=True, slots=True)
class Position:
    """The play of the cards from some point on, both hands open.

    ``hands`` are by role (``ELDER``, ``YOUNGER``); ``lead`` is the card already
    led to the current trick (in neither hand) or -1; ``tricks_won`` counts the
    tricks complete; ``pique_need`` > 0 says the elder piques (Laws 68-69) if his
    play points to come reach it before the younger scores a point in play;
    ``counting`` holds the cards that score when led or winning a trick (Law 65;
    at Piquet au cent by agreement ``TENS_AND_ABOVE``, p. 19): in each suit,
    the cards from some rank up.  An inconsistent position raises ``ValueError``.
    """

    hands: tuple[Mask, Mask]
    leader: int
    lead: int = -1
    tricks_won: tuple[int, int] = (0, 0)
    pique_need: int = 0
    counting: Mask = FULL_PACK

    def __post_init__(self) -> None:
        h0, h1 = self.hands
        if not (0 <= h0 < 1 << 32 and 0 <= h1 < 1 << 32) or h0 & h1:
            raise ValueError("the hands must be disjoint sets of the 32 cards")
        if self.leader not in (ELDER, YOUNGER):
            raise ValueError("the leader is ELDER (0) or YOUNGER (1)")
        n_lead, n_follow = self.hands[self.leader].bit_count(), self.hands[1 - self.leader].bit_count()
        if self.lead == -1:
            if n_lead != n_follow:
                raise ValueError("between tricks both hands hold as many cards")
        elif 0 <= self.lead < 32:
            if (h0 | h1) >> self.lead & 1:
                raise ValueError("the card led is still in a hand")
            if n_follow != n_lead + 1:
                raise ValueError("after the lead the leader holds one card fewer than his adversary")
        else:
            raise ValueError("the card led is -1 or a card 0-31")
        if not 1 <= n_follow <= 12:
            raise ValueError("each hand holds one to twelve cards to play")
        t0, t1 = self.tricks_won
        if t0 < 0 or t1 < 0 or t0 + t1 != 12 - n_follow:
            raise ValueError("the tricks won must add up to the tricks played")
        if self.pique_need < 0:
            raise ValueError("pique_need is zero (no pique) or the play points the elder still needs")
        if not 0 <= self.counting <= FULL_PACK or any(
                b and b | (b - 1) != 0xFF for b in (self.counting >> (8 * s) & 0xFF for s in range(4))):
            raise ValueError("the counting cards are, in each suit, the cards from some rank up")

    @property
    def to_play(self) -> int:
        """The role to play a card now."""
        return self.leader if self.lead < 0 else 1 - self.leader

    @property
    def trick(self) -> int:
        """The trick being played, 1 to 12."""
        return 13 - self.hands[1 - self.leader].bit_count()

    @classmethod
    def of_deal(cls, deal: Deal, pique: bool = False) -> Position:
        """The play position of a deal in phase ``PLAYING``.

        With ``pique`` the position carries what the elder still needs for a
        pique (Laws 68-69), reckoned from the scores: none if the younger has
        scored (or will have, see below) or the elder already has thirty.  At
        the elder's first lead the hands are not yet reckoned (Law 67: they
        score after the lead is named, before the lead's point); the younger is
        taken to reckon in full what the elder did not call.  The counting cards
        are the deal's (``rules.counting_cards``).  A game's goal is not in the
        position: the play is valued to the end of the deal.
        """
        if deal.phase != PLAYING:
            raise ValueError("the deal is not in its play")
        need = 0
        if pique:
            elder, younger = deal.totals
            if deal.trick == 1 and deal.lead < 0:
                elder, younger = _after_reckoning(deal)
            if younger == 0 and elder < 30:
                need = 30 - elder
        return cls((deal.hands[ELDER], deal.hands[YOUNGER]), deal.leader, deal.lead,
                   (deal.tricks_won[ELDER], deal.tricks_won[YOUNGER]), need, deal.counting)


def _after_reckoning(deal: Deal) -> tuple[int, int]:
    """Both totals once the hands are reckoned, before the first lead's point (Law 67).

    A repique (Law 69) is left out: it needs thirty, and then no pique is possible anyway.
    """
    totals = list(deal.totals)
    younger_full = full_declarations(deal.hands[YOUNGER])
    for category in (POINT, SEQUENCES, SETS):
        decls = [deal.decl[ELDER][category], deal.decl[YOUNGER][category]]
        if decls[YOUNGER] is None:  # still to be reckoned (p. 93): the younger declares all he holds
            decls[YOUNGER] = getattr(younger_full[category], ("cards", "runs", "sets")[category])
        keys = [declaration_key(category, d) for d in decls]
        if keys[ELDER] != keys[YOUNGER]:  # equal: neither scores (p. 89-90)
            role = ELDER if keys[ELDER] > keys[YOUNGER] else YOUNGER
            for item in declaration_items(category, decls[role]):
                totals[role] += deal.rules.point_score(item) if category == POINT else item_score(category, item)
    return totals[ELDER], totals[YOUNGER]


# ---------------------------------------------------------------- the reference


def minimax(pos: Position, weights: tuple[int, int] = (1, 1)) -> int:
    """The value by plain exhaustive minimax over every legal card: the tests' reference."""
    me = pos.to_play
    wt = (weights[0], weights[1]) if me == ELDER else (weights[1], weights[0])  # by role
    counting = pos.counting

    def points(role: int, pts: int, need: int) -> tuple[int, int]:
        """Weighted points to ``role`` (his adversary's count against), and the pique still needed."""
        if role == ELDER:
            if need > 0 and pts >= need:
                return wt[ELDER] * (pts + 30), 0  # pique (Laws 68-69)
            return wt[ELDER] * pts, need - pts if need > 0 else 0
        return -wt[YOUNGER] * pts, need if pts == 0 else 0

    def play(hands: tuple[Mask, Mask], leader: int, lead: int, won: tuple[int, int], need: int) -> int:
        """The elder-weighted value to come (elder maximises, younger minimises)."""
        role = leader if lead < 0 else 1 - leader
        hand = hands[role]
        if lead >= 0 and hand & SUIT_MASKS[lead >> 3]:
            hand &= SUIT_MASKS[lead >> 3]
        results = []
        for c in range(32):
            if not hand >> c & 1:
                continue
            after = (hands[0] & ~(1 << c), hands[1]) if role == ELDER else (hands[0], hands[1] & ~(1 << c))
            if lead < 0:
                v, nd = points(role, counting >> c & 1, need)  # Law 65: one for the lead (a counting card)
                results.append(v + play(after, leader, c, won, nd))
                continue
            last = after[ELDER] == 0
            winner = role if c >> 3 == lead >> 3 and c > lead else leader
            pts = (counting >> c & 1 if winner == role else 0) + (1 if last else 0)
            v, nd = points(winner, pts, need) if pts else (0, need)
            new_won = (won[0] + 1, won[1]) if winner == ELDER else (won[0], won[1] + 1)
            if last:  # Law 66: the cards
                if new_won[ELDER] == 12:
                    v += 40 * wt[ELDER]
                elif new_won[YOUNGER] == 12:
                    v -= 40 * wt[YOUNGER]
                elif new_won[ELDER] > 6:
                    v += 10 * wt[ELDER]
                elif new_won[YOUNGER] > 6:
                    v -= 10 * wt[YOUNGER]
                results.append(v)
            else:
                results.append(v + play(after, winner, -1, new_won, nd))
        return max(results) if role == ELDER else min(results)

    v = play(pos.hands, pos.leader, pos.lead, pos.tricks_won, pos.pique_need)
    return v if me == ELDER else -v


# ---------------------------------------------------------------- tables for the search


def _tables() -> tuple[list[int], list[int]]:
    """Per suit, indexed ``mine << 8 | theirs`` (two disjoint bytes of ranks).

    ``rel``: the suit's relative layout, ``1 << k`` for its ``k`` cards in play
    plus one bit per card, lowest first, set where ``mine`` holds it.  Equal
    layouts play alike whatever the real ranks (only the order within a suit
    counts in play), when as many of their lowest cards do not count (see
    ``_suit_code``).  ``reps``: a byte, the lowest rank of each run of
    ``mine``'s cards that no card of ``theirs`` separates (equivalent cards);
    the search looks the two sides of the counting line up apart.
    """
    rel = [0] * 65536
    reps = [0] * 65536
    for mine in range(256):
        free = 255 & ~mine
        theirs = free
        while True:  # every subset of the cards mine does not hold
            code, k, runs, prev_mine = 0, 0, 0, False
            for r in range(8):
                if (mine | theirs) >> r & 1:
                    held = bool(mine >> r & 1)
                    if held:
                        code |= 1 << k
                        if not prev_mine:
                            runs |= 1 << r
                    prev_mine = held
                    k += 1
            i = mine << 8 | theirs
            rel[i] = code | 1 << k
            reps[i] = runs
            if not theirs:
                break
            theirs = (theirs - 1) & free
    return rel, reps


# Built on the first pure-Python search (some 30 ms), as the compiled core has its own.
_REL: list[int] = []
_REPS: list[int] = []


def _load_tables() -> None:
    global _REL, _REPS
    if not _REL:
        _REL, _REPS = _tables()


_POP = [b.bit_count() for b in range(256)]
_SELECT = [[r for r in range(8) if b >> r & 1] for b in range(256)]  # the ranks of a byte, lowest first
#: A byte of ranks of suit ``s`` spread over 32 bits in rank order, bit ``4 * rank + 3 - s``; read high to
#: low it gives the highest rank first, suits in order between equal ranks (low to high: the reverse).
_BY_RANK = [[sum(1 << (4 * r + 3 - s) for r in range(8) if b >> r & 1) for b in range(256)] for s in range(4)]
_BY_RANK_CARD = [(3 - (i & 3)) * 8 + (i >> 2) for i in range(32)]


def _trick_class(t0: int, t1: int) -> int:
    """The tricks won as far as the cards (Law 66) can still tell them apart: equal classes score alike."""
    if t0 >= 7 and t1:
        return 7 | 1 << 3  # the elder has the cards, and no capot is left
    if t1 >= 7 and t0:
        return 1 | 7 << 3
    return min(t0, 7) | min(t1, 7) << 3


_TRICKS = [[_trick_class(t0, t1) for t1 in range(13)] for t0 in range(13)]


def _cards_value(t0: int, t1: int, a: int, b: int) -> int:
    """Law 66 after the twelfth trick: the cards, ten, or forty for a capot."""
    if t1 == 0:
        return 40 * a
    if t0 == 0:
        return -40 * b
    if t0 > 6:
        return 10 * a
    if t1 > 6:
        return -10 * b
    return 0


def _suit_bytes(counting: Mask) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each suit's counting cards as a byte, and the cards that do not count."""
    cb = tuple(counting >> (8 * s) & 255 for s in range(4))
    return cb, tuple(255 & ~b for b in cb)


def _reps(mine: int, theirs: int, cb: int, nb: int) -> int:
    """The lowest rank of each run of equivalent cards of ``mine`` (a byte), runs split at the counting line."""
    reps = _REPS
    if not nb:  # every card counts
        return reps[mine << 8 | theirs]
    return reps[(mine & nb) << 8 | (theirs & nb)] | reps[(mine & cb) << 8 | (theirs & cb)]


class _Search:
    """Fail-soft alpha-beta over a shared transposition table, in the elder's terms.

    Values are ``a * (elder's points to come) - b * (younger's)``: the elder
    maximises, the younger minimises.  The table holds bounds at trick
    boundaries, keyed on the four suits' codes (each suit's relative layout
    and how many of its cards in play do not count; sorted, as suits are
    interchangeable without trumps), the leader, the tricks won (as far as
    the cards can still tell them apart) and the pique still needed.  Its
    entries carry the best lead found, as (suit code, rank among the suit's
    cards in play), which orders the next search.
    """

    __slots__ = ("a", "b", "tt", "nodes", "counting", "cb", "nb", "small")

    def __init__(self, a: int, b: int, counting: Mask = FULL_PACK) -> None:
        self.a, self.b = a, b
        self.tt: dict[int, list[int]] = {}
        self.nodes = 0
        self.counting = counting
        self.cb, self.nb = _suit_bytes(counting)
        self.small = counting != FULL_PACK  # some cards do not count

    def lead(self, h0: Mask, h1: Mask, leader: int, t0: int, t1: int, need: int, alpha: int, beta: int) -> int:
        """A trick boundary: the leader's choice, the lead's point included (Law 65)."""
        self.nodes += 1
        a, b = self.a, self.b
        counting = self.counting
        n = h0.bit_count()
        if n == 1:  # the last trick plays itself
            cl, cf = (h0.bit_length() - 1, h1.bit_length() - 1) if leader == ELDER else \
                (h1.bit_length() - 1, h0.bit_length() - 1)
            v, need = self._score(leader, counting >> cl & 1, need)
            if cf >> 3 == cl >> 3 and cf > cl:
                winner, pts = 1 - leader, (counting >> cf & 1) + 1
            else:
                winner, pts = leader, 1
            w, _ = self._score(winner, pts, need)
            return v + w + _cards_value(t0 + (winner == ELDER), t1 + (winner == YOUNGER), a, b)
        if need > n + 1:  # beyond the elder's reach: at most one a trick, two for the last
            need = 0
        rel, nb = _REL, self.nb
        both = h0 | h1
        codes = (rel[(h0 & 255) << 8 | (h1 & 255)], rel[(h0 >> 8 & 255) << 8 | (h1 >> 8 & 255)],
                 rel[(h0 >> 16 & 255) << 8 | (h1 >> 16 & 255)], rel[(h0 >> 24) << 8 | (h1 >> 24)])
        if self.small:  # how many cards in play of each suit do not count
            pop = _POP
            codes = (codes[0] | pop[both & nb[0]] << 9, codes[1] | pop[both >> 8 & nb[1]] << 9,
                     codes[2] | pop[both >> 16 & nb[2]] << 9, codes[3] | pop[both >> 24 & nb[3]] << 9)
        s = sorted(codes)
        key = s[0] | s[1] << 13 | s[2] << 26 | s[3] << 39 | leader << 52 | _TRICKS[t0][t1] << 53 | need << 59
        entry = self.tt.get(key)
        best = -1
        if entry is not None:
            if entry[0] >= beta:
                return entry[0]
            if entry[1] <= alpha:
                return entry[1]
            best = entry[2]
        hl, ho = (h0, h1) if leader == ELDER else (h1, h0)
        moves = _lead_order(hl, ho, self.cb, nb)
        if best >= 0:
            code, i = best >> 3, best & 7
            s_ = codes.index(code)
            c = s_ * 8 + _SELECT[both >> (8 * s_) & 255][i]
            moves.remove(c)
            moves.insert(0, c)
        g = -_INF if leader == ELDER else _INF
        best_card = moves[0]
        small = self.small
        pv, nd = self._score(leader, 1, need)  # every lead scores one, unless some cards do not count
        if leader == ELDER:
            a_ = alpha
            for c in moves:
                if small:
                    pv, nd = self._score(ELDER, counting >> c & 1, need)
                v = pv + self.reply(h0 & ~(1 << c), h1, ELDER, c, t0, t1, nd, a_ - pv, beta - pv)
                if v > g:
                    g, best_card = v, c
                    if g >= beta:
                        break
                    if g > a_:
                        a_ = g
        else:
            b_ = beta
            for c in moves:
                if small:
                    pv, nd = self._score(YOUNGER, counting >> c & 1, need)
                v = pv + self.reply(h0, h1 & ~(1 << c), YOUNGER, c, t0, t1, nd, alpha - pv, b_ - pv)
                if v < g:
                    g, best_card = v, c
                    if g <= alpha:
                        break
                    if g < b_:
                        b_ = g
        s_ = best_card >> 3
        in_play = both >> (8 * s_) & 255
        move = codes[s_] << 3 | (in_play & ((1 << (best_card & 7)) - 1)).bit_count()
        if entry is None:
            entry = self.tt[key] = [-_INF, _INF, move]
        else:
            entry[2] = move
        if g <= alpha:
            entry[1] = g
        elif g >= beta:
            entry[0] = g
        else:
            entry[0] = entry[1] = g
        return g

    def play(self, h0: Mask, h1: Mask, leader: int, lead: int, t0: int, t1: int, need: int, c: Card,
             alpha: int, beta: int) -> int:
        """The value of playing ``c`` now: a lead, or the reply to ``lead``."""
        if lead >= 0:
            return self.reply(h0, h1, leader, lead, t0, t1, need, alpha, beta, (c,))
        pv, nd = self._score(leader, self.counting >> c & 1, need)
        if leader == ELDER:
            h0 &= ~(1 << c)
        else:
            h1 &= ~(1 << c)
        return pv + self.reply(h0, h1, leader, c, t0, t1, nd, alpha - pv, beta - pv)

    def reply(self, h0: Mask, h1: Mask, leader: int, lead: Card, t0: int, t1: int, need: int,
              alpha: int, beta: int, only: tuple[Card, ...] = ()) -> int:
        """The second player's choice (Law 60: follow suit if able), or the one card ``only``.

        Each card completes the trick: its points (Law 65), then the next trick
        or, after the twelfth, the cards (Law 66).
        """
        self.nodes += 1
        a, b = self.a, self.b
        counting = self.counting
        follower = 1 - leader
        hf, hl = (h1, h0) if follower == YOUNGER else (h0, h1)
        last = (hf & (hf - 1)) == 0
        suit = lead >> 3
        maximise = follower == ELDER
        g = -_INF if maximise else _INF
        for c in only or _reply_order(hf, hl, lead, self.cb, self.nb):
            nd = need
            if c >> 3 == suit and c > lead:  # the second player wins the trick
                winner, pts = follower, (counting >> c & 1) + last
            else:
                winner, pts = leader, int(last)
            if winner == ELDER:
                n0, n1 = t0 + 1, t1
                v = pts * a
                if nd and pts:  # Laws 68-69
                    if pts >= nd:
                        v, nd = v + 30 * a, 0
                    else:
                        nd -= pts
            else:
                n0, n1 = t0, t1 + 1
                v = -pts * b
                if pts:
                    nd = 0
            if last:
                v += _cards_value(n0, n1, a, b)
            elif maximise:
                v += self.lead(h0 & ~(1 << c), h1, winner, n0, n1, nd, alpha - v, beta - v)
            else:
                v += self.lead(h0, h1 & ~(1 << c), winner, n0, n1, nd, alpha - v, beta - v)
            if maximise:
                if v > g:
                    g = v
                    if g >= beta:
                        break
                    if g > alpha:
                        alpha = g
            elif v < g:
                g = v
                if g <= alpha:
                    break
                if g < beta:
                    beta = g
        return g

    def _score(self, role: int, pts: int, need: int) -> tuple[int, int]:
        """Play points to ``role``, weighted, with a pique when the elder reaches ``need`` (Laws 68-69)."""
        if not pts:
            return 0, need
        if role == ELDER:
            if need:
                if pts >= need:
                    return (pts + 30) * self.a, 0
                return pts * self.a, need - pts
            return pts * self.a, 0
        return -pts * self.b, 0


def _lead_order(hl: Mask, ho: Mask, cb: tuple[int, ...], nb: tuple[int, ...]) -> list[Card]:
    """One lead of each run of equivalent cards: sure winners first, then the rest, highest first."""
    moves: list[Card] = []
    rest = 0
    for s in range(4):
        mine = hl >> (8 * s) & 255
        if mine:
            theirs = ho >> (8 * s) & 255
            reps = _reps(mine, theirs, cb[s], nb[s])
            if mine > theirs:  # disjoint bytes: the higher one holds the best card in play, a sure winner
                top = reps.bit_length() - 1
                moves.append(s * 8 + top)
                reps ^= 1 << top
            rest |= _BY_RANK[s][reps]
    while rest:  # by rank, highest first; suit order between equal ranks
        i = rest.bit_length() - 1
        moves.append(_BY_RANK_CARD[i])
        rest ^= 1 << i
    return moves


def _reply_order(hf: Mask, hl: Mask, lead: Card, cb: tuple[int, ...], nb: tuple[int, ...]) -> list[Card]:
    """One reply of each run: the cheapest winner, then the rest lowest first (Law 60: follow suit).

    A discard tries the cards below the top of their suits, lowest first, then the tops.
    """
    s = lead >> 3
    mine = hf >> (8 * s) & 255
    if mine:
        base = s * 8
        ranks = _SELECT[_reps(mine, hl >> (8 * s) & 255 | 1 << (lead & 7), cb[s], nb[s])]
        moves = [base + r for r in ranks]
        for i, c in enumerate(moves):
            if c > lead:
                if i:
                    moves.insert(0, moves.pop(i))
                break
        return moves
    low = 0
    tops: list[Card] = []
    for t in range(4):
        mine = hf >> (8 * t) & 255
        if mine:
            theirs = hl >> (8 * t) & 255
            reps = _reps(mine, theirs, cb[t], nb[t])
            if mine > theirs:
                top = reps.bit_length() - 1
                tops.append(t * 8 + top)
                reps ^= 1 << top
            low |= _BY_RANK[t][reps]
    moves = []
    while low:  # by rank, lowest first; the suits in reverse order between equal ranks
        b = low & -low
        moves.append(_BY_RANK_CARD[b.bit_length() - 1])
        low ^= b
    return moves + tops


def _mtd(test: Callable[[int, int], int], guess: int) -> int:
    """MTD(f): zero-window tests around a guess until the bounds meet."""
    lower, upper, g = -_INF, _INF, guess
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = test(beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


# ---------------------------------------------------------------- the public search


def _elder_weights(pos: Position, weights: tuple[int, int]) -> tuple[int, int]:
    """The weights (elder's points, younger's points) for the player to play's payoff."""
    w0, w1 = weights
    return (w0, w1) if pos.to_play == ELDER else (w1, w0)


def _py_children(pos: Position, weights: tuple[int, int]) -> tuple[dict[Card, int], int]:
    """Every legal card's value in the elder's terms, one search per run, and the nodes searched."""
    _load_tables()
    search = _Search(*_elder_weights(pos, weights), pos.counting)
    args = (pos.hands[0], pos.hands[1], pos.leader, pos.lead, *pos.tricks_won, pos.pique_need)
    role = pos.to_play
    if pos.lead < 0:
        reps = _lead_order(pos.hands[role], pos.hands[1 - role], search.cb, search.nb)
    else:
        reps = _reply_order(pos.hands[role], pos.hands[pos.leader], pos.lead, search.cb, search.nb)
    values: dict[Card, int] = {}
    guess = 0
    for c in reps:
        def test(alpha: int, beta: int, c: Card = c) -> int:
            return search.play(*args, c, alpha, beta)
        values[c] = guess = _mtd(test, guess)
    return _spread(pos, values), search.nodes


def _py_value(pos: Position, weights: tuple[int, int]) -> tuple[int, int]:
    """The value in the elder's terms and the nodes searched."""
    _load_tables()
    search = _Search(*_elder_weights(pos, weights), pos.counting)
    h0, h1 = pos.hands
    leader, lead, (t0, t1), need = pos.leader, pos.lead, pos.tricks_won, pos.pique_need
    if lead < 0:
        v = _mtd(lambda alpha, beta: search.lead(h0, h1, leader, t0, t1, need, alpha, beta), 0)
    else:
        v = _mtd(lambda alpha, beta: search.reply(h0, h1, leader, lead, t0, t1, need, alpha, beta), 0)
    return v, search.nodes


def _spread(pos: Position, values: dict[Card, int]) -> dict[Card, int]:
    """Give every legal card the value found for the lowest card of its run (equivalent cards).

    A run stops at the line between the cards that count and those that do not.
    """
    role = pos.to_play
    hand, other = pos.hands[role], pos.hands[1 - role]
    counting = pos.counting
    if pos.lead >= 0:
        other |= 1 << pos.lead
        if hand & SUIT_MASKS[pos.lead >> 3]:
            hand &= SUIT_MASKS[pos.lead >> 3]
    out: dict[Card, int] = {}
    for c in range(32):
        if hand >> c & 1:
            rep = d = c
            counts = counting >> c & 1
            while d & 7:  # down the suit: the next lower card in play is his (same run) or not
                d -= 1
                if counting >> d & 1 != counts:
                    break
                if hand >> d & 1:
                    rep = d
                elif other >> d & 1:
                    break
            out[c] = values[rep]
    return out


# ---------------------------------------------------------------- the compiled core


def _load_compiled() -> ModuleType | None:
    """``piquet.players._csolver`` if it was built and ``PIQUET_PURE_SOLVER`` does not ask for pure Python."""
    if os.environ.get("PIQUET_PURE_SOLVER", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("piquet.players._csolver")
    except ImportError:
        return None


_C = _load_compiled()
#: True when the compiled core is in use.
COMPILED = _C is not None
#: The compiled core takes the counting cards (a core built before them has no ``ABI``, and is given only
#: positions where every card counts).
_C_COUNTING = getattr(_C, "ABI", 1) >= 2


def _check_weights(weights: tuple[int, int]) -> tuple[int, int]:
    w0, w1 = weights
    if not isinstance(w0, int) or not isinstance(w1, int):
        raise ValueError("the weights are two integers")
    return w0, w1


def _use_c(pos: Position, weights: tuple[int, int], pure: bool) -> bool:
    return (_C is not None and not pure and all(-_C_WEIGHT_LIMIT <= w <= _C_WEIGHT_LIMIT for w in weights)
            and (_C_COUNTING or pos.counting == FULL_PACK))


def _c_args(pos: Position, weights: tuple[int, int]) -> tuple[int, ...]:
    """The position and the weights as the compiled core takes them."""
    a, b = _elder_weights(pos, weights)
    need = min(pos.pique_need, 64)  # beyond 13 a pique is out of reach anyway
    args = (*pos.hands, pos.leader, pos.lead, *pos.tricks_won, need, a, b)
    return (*args, pos.counting) if _C_COUNTING else args


def value_and_nodes(pos: Position, weights: tuple[int, int] = (1, 1), pure: bool = False) -> tuple[int, int]:
    """``value`` and the nodes the search visited; ``pure`` forces the pure-Python search."""
    weights = _check_weights(weights)
    if _use_c(pos, weights, pure):
        assert _C is not None
        v, nodes = _C.solve(*_c_args(pos, weights))
        v, nodes = int(v), int(nodes)
    else:
        v, nodes = _py_value(pos, weights)
    return (v if pos.to_play == ELDER else -v), nodes


def value(pos: Position, weights: tuple[int, int] = (1, 1)) -> int:
    """The best-play value of the points to come for the player to play (Laws 65-66, 68-69).

    ``weights[0]`` counts his points, ``weights[1]`` his adversary's against him.
    """
    return value_and_nodes(pos, weights)[0]


def card_values(pos: Position, weights: tuple[int, int] = (1, 1)) -> dict[Card, int]:
    """Every legal card of the player to play, with the value of playing it (as ``value``).

    The card's own points count (the lead's, or the trick's to the second
    player); the searches share one transposition table.
    """
    return card_values_and_nodes(pos, weights)[0]


def card_values_and_nodes(pos: Position, weights: tuple[int, int] = (1, 1),
                          pure: bool = False) -> tuple[dict[Card, int], int]:
    """``card_values`` and the nodes the searches visited; ``pure`` forces the pure-Python search."""
    weights = _check_weights(weights)
    if _use_c(pos, weights, pure):
        assert _C is not None
        pairs, nodes = _C.children(*_c_args(pos, weights))
        values, nodes = _spread(pos, {int(c): int(v) for c, v in pairs}), int(nodes)
    else:
        values, nodes = _py_children(pos, weights)
    if pos.to_play != ELDER:
        values = {c: -v for c, v in values.items()}
    return values, nodes

