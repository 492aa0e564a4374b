"""The Cavendish player: the treatise of 1896 (p. 116-202) as a heuristic player.

It reads only its observation, as every computer player does, and follows the
treatise's principles, each cited by page where it is applied:

- the discard (p. 116-151): what is against you, the elder attacks and the
  younger guards, the point first and the cards next, unbroken suits, the
  chances of a sequence or a quatorze taken in, computed exactly with the
  drawing odds of p. 121-125, leaving cards, and the state of the partie;
- the calls (p. 152-165): which suit to declare, calling fewer cards, not
  calling what cannot be good, not declaring an equality against a point that
  must be good, and sinking to hide an unguarded suit;
- the play (p. 166-202): counting the adversary's hand from his calls, leading
  the suit to establish, keeping guards and tenaces, a losing card to throw
  the lead, making sure of the cards, saving a capot, in-and-out play and the
  score of the partie.

At Piquet au cent (p. 16-20) the same principles serve: the younger weighs
keeping all his cards with the other discards (he is not obliged to discard,
p. 17); a call stating what the point makes is answered by the whole of it
(p. 18); and playing to the score reads the game of a hundred up for the
rubicon's hundred: play in and out until within your show of the game, then
keep the adversary back (p. 172-173), and discard boldly or safely when the
game is near its end (p. 121).  The treatise's rules for the last deal of a
partie (the rubicon saved or won, p. 173-174) have no place there.

There is no search over the play: every choice is a rule of the treatise,
with small exact computations (the drawing odds) where the treatise computes.

>>> draw_chance(named=1, drawn=5)     # elder hand, one named card: 3 to 1 against (p. 121)
Fraction(1, 4)
>>> odds_against(draw_chance(named=4, drawn=3))   # younger, one of four named cards: 29 to 28 on
Fraction(28, 29)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb, erf, sqrt
from typing import TypeVar

from piquet.core.actions import PLAYS, Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft
from piquet.core.cards import (
    ACE,
    FULL_PACK,
    KING,
    KNAVE,
    QUEEN,
    RANK_MASKS,
    SUIT_MASKS,
    SUITS,
    TEN,
    Card,
    Mask,
    cards_of,
)
from piquet.core.combinations import (
    RUNS_OF_BYTE,
    best_point,
    best_sequences,
    best_sets,
    point_key,
    sequence_key,
    sequence_score,
    set_key,
    set_score,
)
from piquet.core.deal import IllegalAction, Phase
from piquet.core.events import (
    ELDER,
    EQUAL,
    NOT_GOOD,
    POINT,
    SEQUENCES,
    SETS,
    YOUNGER,
    AskValue,
    CallPoint,
    CallSequence,
    CallSet,
    CallValue,
    Event,
    Look,
    NameSet,
    Reply,
    Show,
    voids_shown,
)
from piquet.core.observation import Observation, first_card
from piquet.odds.chances import POOL, Against, chance_of_any, draw_chance, odds_against
from piquet.players.base import ElectsToDeal

# ---------------------------------------------------------------- small helpers

_COUNT = tuple(b.bit_count() for b in range(256))
_PIPS = (7, 8, 9, 10, 10, 10, 10, 11)
_VALUE = tuple(sum(_PIPS[r] for r in range(8) if b >> r & 1) for b in range(256))
#: High-card weight of each rank (seven .. ace): ace 4, king 3, queen 2, knave 1.
_HCP = (0, 0, 0, 0, 1, 2, 3, 4)


def _byte(mask: Mask, s: int) -> int:
    return mask >> (8 * s) & 0xFF


def _high(mask: Mask) -> Card:
    return mask.bit_length() - 1


def _above(c: Card) -> Mask:
    """The cards of ``c``'s suit higher than ``c``."""
    return SUIT_MASKS[c >> 3] & ~((2 << c) - 1)


def _below(c: Card) -> Mask:
    """The cards of ``c``'s suit lower than ``c``."""
    return SUIT_MASKS[c >> 3] & ((1 << c) - 1)


_RUNS = RUNS_OF_BYTE
#: The length of the longest run of three or more in each suit byte (0 if none).
_LONGEST = tuple(max((_COUNT[r] for r in _RUNS[b]), default=0) for b in range(256))


def _normal(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + erf(x / sqrt(2.0)))


# ---------------------------------------------------------------- the state of the partie (p. 121, 148, 171-174)

#: "The show of the elder hand is twenty-eight points ...; the show of the younger hand is fourteen" (p. 148).
SHOW_ELDER, SHOW_YOUNGER = 28, 14

IN_AND_OUT, KEEP_BACK, NEUTRAL, SCORE_LITTLE = "in and out", "keep back", "neutral", "score little"


@dataclass(frozen=True)
class Standing:
    """The partie as it stands for one player: scores with this deal's so far, and what is to come.

    At a game of so many up (Piquet au cent) the scores are the game's and
    the deals to come are not known: no deal is the last (the rules say so:
    ``Rules.deals_to_come``).
    """

    mine: int
    his: int
    deals_left: int  # after this one
    next_show: int  # my show in the next deal (0 if this is the last)
    his_next_show: int
    multiplier: int
    #: The score that matters: the rubicon's hundred (Law 73), or the game's goal (p. 20): ``Rules.line``.
    line: int = 100

    @property
    def last(self) -> bool:
        return self.deals_left <= 0


def standing(obs: Observation) -> Standing:
    """Scores before the deal (``obs.partie``) plus this deal's so far; love-all and six deals to come if unknown."""
    me, him = obs.role, 1 - obs.role
    ctx = obs.partie
    mult = ctx.multiplier if ctx else 1
    deal_mine, deal_his = sum(obs.scores[me]) * mult, sum(obs.scores[him]) * mult
    if ctx is None:
        return Standing(deal_mine, deal_his, 5, _show(him), _show(me), 1)
    other = "B" if ctx.seat == "A" else "A"
    left = obs.rules.deals_to_come(ctx.deal_number, ctx.deals_in_partie)
    nxt, his_nxt = (_show(him), _show(me)) if left else (0, 0)
    return Standing(ctx.scores.get(ctx.seat, 0) + deal_mine, ctx.scores.get(other, 0) + deal_his,
                    left, nxt, his_nxt, mult, obs.rules.line)


def _show(role: int) -> int:
    return SHOW_ELDER if role == ELDER else SHOW_YOUNGER


def boldness(obs: Observation) -> float:
    """How boldly to discard: 1 for a bold discard, -1 for a safe one (p. 121, Examples XXVIII-XXXII).

    "If you are a good way ahead, and particularly in the last hand but one, if
    you have a chance of winning a rubicon, you should make a safe discard ...
    if the score is much against you, and you are under a rubicon, you are
    justified in making a bold discard" (p. 121).  The shows of p. 148 tell
    who has the best of the partie.  At Piquet au cent the game's hundred is
    the line, and the end is near when either may reach it in two deals.
    """
    st = standing(obs)
    me = obs.role
    mine = st.mine + _show(me) * st.multiplier + st.next_show * st.multiplier
    his = st.his + _show(1 - me) * st.multiplier + st.his_next_show * st.multiplier
    line = st.line
    if obs.partie is None or (max(mine, his) < line if obs.rules.partie_of_games else st.deals_left > 1):
        return 0.0
    if mine < line and his - mine >= 40:
        return 1.0
    if his < line and mine - his >= 40:
        return -1.0
    if mine < line <= his:
        return 0.5
    return 0.0


def play_mode(obs: Observation) -> str:
    """Whether to play in and out, to keep the adversary back, or to score as little as possible (p. 172-174).

    "If you are less than a hundred, and are not within your show, you should
    play in and out.  If you are within your show, and your adversary is not,
    you should keep him back ... If you and your adversary are both over a
    hundred, it is immaterial."  In the last deal, keep an adversary under a
    hundred there; and if you cannot reach a hundred, score as little as you
    can (p. 174).  At Piquet au cent the hundred is the game's (p. 20), and
    there is no last deal: scoring little saves nothing there.
    """
    st = standing(obs)
    if st.last and obs.partie is not None:
        most = st.mine + _most_to_come(obs) * st.multiplier
        if most < 100 and st.his > most:
            return SCORE_LITTLE  # rubiconed whatever happens
        if st.his < 100 and st.mine >= st.his:
            return KEEP_BACK
        if st.mine < 100:
            return IN_AND_OUT
        return NEUTRAL
    line = st.line
    within = st.mine + st.next_show * st.multiplier >= line
    his_within = st.his + st.his_next_show * st.multiplier >= line
    if st.mine < line and not within:
        return IN_AND_OUT
    if within and not his_within:
        return KEEP_BACK
    return NEUTRAL


def _most_to_come(obs: Observation) -> int:
    """A bound on what this player can still score this deal (for "you cannot reach a hundred", p. 174)."""
    if obs.phase == Phase.PLAY:
        left = 13 - obs.trick + (1 if obs.lead >= 0 else 0)
        capot = obs.tricks_won[1 - obs.role] == 0
        pique = 30 if obs.role == ELDER and sum(obs.scores[1 - obs.role]) == 0 else 0
        return 2 * left + 1 + (40 if capot else 10) + pique
    hand_most = sum(_declaration_worth(obs.hand))
    return hand_most + 25 + 40 + (60 if hand_most >= 30 else 0) + (30 if obs.role == ELDER else 0)


def _declaration_worth(hand: Mask) -> tuple[int, int, int]:
    return (best_point(hand).bit_count(), sum(sequence_score(r) for r in best_sequences(hand)),
            sum(set_score(m) for m in best_sets(hand)))


# ---------------------------------------------------------------- discarding (p. 116-151)

#: The chance that a point of so many cards is good, elder and younger, when not good against the cards
#: (measured over many deals; p. 117: "the point is of much greater consequence than beginners suppose").
_POINT_GOOD = ((0.0, 0.0, 0.0, 0.02, 0.26, 0.5, 0.74, 0.9, 1.0), (0.0, 0.0, 0.0, 0.01, 0.16, 0.32, 0.56, 0.81, 1.0))
#: The same for the best sequence, by length.
_SEQUENCE_GOOD = ((0.0, 0.0, 0.0, 0.4, 0.65, 0.83, 0.92, 0.95, 1.0), (0.0, 0.0, 0.0, 0.26, 0.53, 0.7, 0.9, 0.93, 1.0))
#: What winning the point is worth beyond its cards: "Gaining the point makes an average difference of more
#: than ten to the score, and, what is more important, it saves piques and repiques" (p. 117-118).
_POINT_MORE = 7.0
#: The fault of breaking into a suit (p. 118), elder and younger; of breaking into the point (p. 118).
_BROKEN = (1.2, 0.8)
_POINT_BROKEN = 2.5
#: The chance that the adversary holds a card his discarding player has not seen, elder's view and younger's.
_HOLDS = (0.8, 0.7)
#: The tricks of a hand with nothing (measured with the weights of ``_trick_worth``), elder and younger.
_TRICKS_BASE = (5.29, 6.6)


def _subsets(mask: int, k: int) -> tuple[int, ...]:
    return _SUBSETS[mask][k] if k < len(_SUBSETS[mask]) else ()


def _subsets_by_size(mask: int) -> tuple[tuple[int, ...], ...]:
    bits = [1 << r for r in range(8) if mask >> r & 1]
    out: list[list[int]] = [[] for _ in range(len(bits) + 1)]
    for sub in range(256):
        if sub & ~mask == 0:
            out[_COUNT[sub]].append(sub)
    return tuple(tuple(x) for x in out)


_SUBSETS = tuple(_subsets_by_size(m) for m in range(256))


def _point_worth(held: int, adv: int, role: int, other_len: int) -> float:
    """What a suit is worth as the point: the chance it is good times "more than ten" (p. 117-118)."""
    n = _COUNT[held]
    if n < 3:
        return 0.0
    value = _VALUE[held]
    his_most = max(other_len, _COUNT[adv])
    if n > his_most or (n == his_most and other_len < n and value > _VALUE[adv]):
        p = 1.0  # good against the cards
    else:
        p = _POINT_GOOD[role][n] + 0.012 * (value - (10 * n - 1))
        p = min(0.97, max(0.0, p))
    return p * (n + _POINT_MORE)


def _sequence_worth(held: int, adv: int, role: int, other_run: int) -> tuple[float, float]:
    """What the sequences of a suit are worth, and the chance of a quint or more (p. 120, 122-125)."""
    runs = _RUNS[held]
    if not runs:
        return 0.0, 0.0
    best = max(runs, key=lambda r: (_COUNT[r], r))
    n = _COUNT[best]
    head = best.bit_length() - 1
    his_most = max(other_run, _LONGEST[adv])
    p = 1.0 if n > his_most else min(0.97, _SEQUENCE_GOOD[role][n] + 0.02 * (head - 5))
    score = sum(sequence_score(r) for r in runs)
    return p * (score + 3), 1.0 if n >= 5 else 0.0


@cache
def _trick_worth(held: int, adv: int, role: int) -> float:
    """A suit's share of the tricks: winning cards, his winning cards, kings and queens short of guards.

    "Next in importance to the point are the cards" (p. 118).  The adversary
    holds each card he may have with the chance ``_HOLDS``.  The weights were
    measured over many deals: the elder's tricks come from his winning cards;
    the younger's are lost to the elder's winning cards and to unguarded kings
    and queens - "your first care, younger hand, should be to protect your
    weak places.  You should keep guards to kings and queens" (p. 117).
    """
    q = _HOLDS[role]
    hcp = sum(_HCP[r] for r in range(8) if held >> r & 1)
    masters = 0
    for r in range(7, -1, -1):
        if held >> r & 1:
            masters += 1
        elif adv >> r & 1:
            break
    his_masters = 0.0
    chain = 1.0
    for r in range(7, -1, -1):
        if held >> r & 1:
            break
        if adv >> r & 1:
            chain *= q
            his_masters += chain
    unguarded = 0.0
    for r, weight in ((KING, 1.0), (QUEEN, 0.6)):
        if held >> r & 1:
            higher = _COUNT[adv & ~((2 << r) - 1)]
            lower = _COUNT[held & ((1 << r) - 1)]
            if higher and lower < higher:
                unguarded += weight
    if role == ELDER:
        return 0.69 * masters - 0.39 * his_masters - 0.4 * unguarded
    return 0.112 * hcp - 1.34 * his_masters - 1.12 * unguarded


@cache
def _suit_outlook(dealt: int, kept: int, n: int, role: int, other_len: int,
                  other_run: int) -> tuple[float, float, float, float]:
    """One suit after the exchange, expected over every way the ``n`` cards taken in may fall.

    The cards of this suit the player has not seen (``unk``) come in by the
    exact hypergeometric chances of p. 121-125: a given ``t`` of them come in
    with chance C(20 - u, n - t) / C(20, n).  Returns the expected worth as
    point, the expected worth of its sequences, its expected share of tricks
    and the chance of a quint or better.
    """
    unk = 0xFF & ~dealt
    u = _COUNT[unk]
    total = comb(POOL, n)
    pt = sq = tr = big = 0.0
    for t in range(min(u, n) + 1):
        w = comb(POOL - u, n - t) / total
        if not w:
            continue
        for came in _subsets(unk, t):
            held = kept | came
            adv = unk & ~came
            pt += w * _point_worth(held, adv, role, other_len)
            s_val, s_big = _sequence_worth(held, adv, role, other_run)
            sq += w * s_val
            big += w * s_big
            tr += w * _trick_worth(held, adv, role)
    return pt, sq, tr, big


@cache
def _rank_outlook(dealt: int, kept: int, n: int, role: int, rank: int, quatorze_against: bool,
                  higher_quatorzes: int, higher_trios: int) -> tuple[float, float]:
    """A rank (ten or higher) after the exchange: the worth of its trio or quatorze, and the chance of a quatorze.

    "If the elder hand has a quatorze dealt him, and there is only one superior
    quatorze against him, he should, as a rule, keep the quatorze" (p. 123);
    "it is seldom advisable to put out a high card for the sake of keeping a
    low trio, especially when there is a higher one or a quatorze against you"
    (p. 120).
    """
    u = 4 - dealt
    total = comb(POOL, n)
    worth = big = 0.0
    for x in range(min(u, n) + 1):
        w = comb(u, x) * comb(POOL - u, n - x) / total
        f = kept + x
        if f == 4:
            p = 0.85 if higher_quatorzes else 1.0
            worth += w * p * 17.0
            big += w
        elif f == 3:
            p = 0.75 - (0.3 if quatorze_against else 0.0) - 0.08 * higher_trios + 0.02 * (rank - TEN)
            worth += w * max(0.1, p) * 5.0
    return worth, big


def _cards_worth(tricks: float) -> float:
    """The tricks and the cards: "winning the cards, instead of losing them, makes a difference of about
    twenty-three or twenty-four points" (p. 118); a capot forty."""
    d = tricks - 6.0
    v = 2.0 * d + 20.0 * (_normal(d / 2.0) - 0.5)
    v -= 30.0 * _normal((0.8 - tricks) / 1.2)
    v += 30.0 * _normal((tricks - 11.2) / 1.2)
    return v


@dataclass(frozen=True)
class DiscardPlan:
    """A discard with its expected worth and the parts of it (for explaining a choice)."""

    cards: Mask
    worth: float
    point: float
    sequences: float
    sets: float
    tricks: float


def discard_plans(hand: Mask, most: int, role: int, bold: float = 0.0, least: int = 1,
                  top: int | None = None) -> list[DiscardPlan]:
    """The discards of ``least`` to ``most`` cards with their expected worth, best first (p. 116-151).

    Each is weighed by what the cards kept may become when the cards taken
    in fall as the exact odds of p. 121-125 say: the point, sequences,
    quatorzes and trios, and the tricks; less the faults the treatise names.
    ``top`` keeps only so many of the best.
    """
    suits = [_byte(hand, s) for s in SUITS]
    others_len = [max(8 - _COUNT[suits[t]] for t in SUITS if t != s) for s in SUITS]
    others_run = [max(_LONGEST[0xFF & ~suits[t]] for t in SUITS if t != s) for s in SUITS]
    dealt_rank = [(hand & RANK_MASKS[r]).bit_count() for r in range(8)]
    quatorze_against = any(dealt_rank[r] == 0 for r in range(TEN, ACE + 1))
    higher_quatorze = [sum(1 for h in range(r + 1, ACE + 1) if dealt_rank[h] == 0) for r in range(8)]
    higher_trio = [sum(1 for h in range(r + 1, ACE + 1) if dealt_rank[h] <= 1) for r in range(8)]
    # What is against the elder who would leave cards: a repique (p. 119, Example XXIII).
    against = Against.of(hand)
    repique_against = against.best_point()[0] >= 6 and any(m.bit_count() == 4 for m in against.sets())
    best_against = against.best_point()
    dealt_point = _high(best_point(hand)) >> 3
    bits = [1 << c for c in cards_of(hand)]
    combo_weight = 1.0 + 0.3 * bold
    cards_weight = 1.0 - 0.4 * bold if bold > 0 else 1.0 - 0.5 * bold
    broken = _BROKEN[role]
    base = _TRICKS_BASE[role]
    set_ranks = list(range(TEN, ACE + 1))
    found: list[tuple[float, int, float, float, float, float]] = []
    for n in range(least, most + 1):
        # The suits and ranks, for this number taken in: looked up, not recomputed, for each discard.
        suit_table: list[dict[int, tuple[float, float, float, float, int, float]]] = []
        for s in SUITS:
            d = suits[s]
            table = {}
            for k in _all_subsets(d):
                pt, sq, tr, bg = _suit_outlook(d, k, n, role, others_len[s], others_run[s])
                unjust = 0
                extra = 0.0
                if d and k != d:
                    if k:
                        unjust = _unjustified(k, d, role)
                    elif role == YOUNGER and _COUNT[d] <= 2 and d < (1 << KNAVE):
                        # "Seldom denude yourself entirely of a suit of which you hold one or two small
                        # cards only, as these may guard high cards taken in" (p. 117).
                        extra = 1.5
                table[k] = (pt, sq, tr, bg, unjust, extra)
            suit_table.append(table)
        rank_table: dict[tuple[int, int], tuple[float, float]] = {}
        for r in set_ranks:
            for kr in range(dealt_rank[r] + 1):
                if kr + 4 - dealt_rank[r] >= 3:
                    rank_table[r, kr] = _rank_outlook(dealt_rank[r], kr, n, role, r, quatorze_against,
                                                      higher_quatorze[r], higher_trio[r])
        leave = (5 - n) * (3.0 + (4.0 if repique_against else 0.0)) if role == ELDER and n < 5 else 0.0
        t0, t1, t2, t3 = suit_table
        for combo in combinations(bits, n):
            out = sum(combo)
            kept = hand & ~out
            k0, k1, k2, k3 = kept & 0xFF, kept >> 8 & 0xFF, kept >> 16 & 0xFF, kept >> 24
            a, b, c, e = t0[k0], t1[k1], t2[k2], t3[k3]
            pt_best = max(a[0], b[0], c[0], e[0])
            seq = a[1] + b[1] + c[1] + e[1]
            tricks = a[2] + b[2] + c[2] + e[2]
            big = a[3] + b[3] + c[3] + e[3]
            penalty = a[5] + b[5] + c[5] + e[5] + leave
            sets = 0.0
            trio_ranks = 0
            for r in set_ranks:
                kr = (kept & RANK_MASKS[r]).bit_count()
                if kr >= 3:
                    trio_ranks |= 1 << r
                got = rank_table.get((r, kr))
                if got is not None:
                    sets += got[0]
                    big += got[1]
            for unjust in (a[4], b[4], c[4], e[4]):
                # "Do not break into several suits in discarding if it can be avoided" (p. 118); a card kept
                # of a suit broken into should be a winning card, a guard, or make up a trio (p. 118).
                if unjust & ~trio_ranks:
                    penalty += broken
            kept_suit = max(SUITS, key=lambda t: (_COUNT[kept >> (8 * t) & 0xFF], _VALUE[kept >> (8 * t) & 0xFF]))
            for t in (kept_suit, dealt_point):
                pk = kept >> (8 * t) & 0xFF
                if pk and pk != suits[t] and (_COUNT[pk], _VALUE[pk]) <= best_against:
                    # "It is seldom the game for either player to discard from the suit which he selects for
                    # point" (p. 118) - unless it remains good against the cards (Example VI, p. 130).
                    penalty += _POINT_BROKEN
                    break
            worth_tricks = _cards_worth(base + tricks)
            worth = (combo_weight * (pt_best + seq + sets) + cards_weight * worth_tricks
                     + 4.0 * bold * big - penalty)
            found.append((worth, out, pt_best, seq, sets, worth_tricks))
    found.sort(key=lambda f: (-f[0], f[1]))
    if top is not None:
        del found[top:]
    return [DiscardPlan(out, worth, pt, sq, st, tr) for worth, out, pt, sq, st, tr in found]


@cache
def _all_subsets(b: int) -> tuple[int, ...]:
    return tuple(sub for sub in range(256) if sub & ~b == 0)


@cache
def _unjustified(k: int, dealt: int, role: int) -> int:
    """The ranks of the cards kept of a suit broken into that are neither winning cards nor guards (p. 118);
    they are excused if they make up a trio."""
    ranks = 0
    for r in range(8):
        if not k >> r & 1:
            continue
        winning = (0xFF & ~((2 << r) - 1)) & ~dealt == 0
        guard = role == YOUNGER and r < QUEEN and bool(k & ~((2 << r) - 1) & ((1 << KING) | (1 << QUEEN)))
        if not (winning or guard):
            ranks |= 1 << r if r >= TEN else 0x100
    return ranks


def cavendish_discard(hand: Mask, most: int, role: int, bold: float = 0.0, fewest: int = 1) -> Mask:
    """The discard the treatise's principles give, for a hand of twelve.

    >>> from piquet.core.cards import CardSet
    >>> hand = CardSet.parse("AS KS JS AH QH JH 8H JC 8C 7C 9D 8D").mask
    >>> str(CardSet(cavendish_discard(hand, 5, ELDER)))     # the example deal, p. 103 and 118-120
    'KS 8C 7C 9D 8D'

    ``fewest`` is the fewest the laws allow (at Piquet au cent the younger's is none, p. 17).
    """
    least = 3 if role == ELDER else fewest  # the elder leaves at most two cards (Example XXVIII, p. 146)
    return discard_plans(hand, most, role, bold, least=min(least, most), top=1)[0].cards


# ---------------------------------------------------------------- what the adversary may hold

_E = TypeVar("_E", bound=Event)


def _of(obs: Observation, kind: type[_E], role: int | None = None) -> Iterator[_E]:
    """The events of one kind in the log (of one role, or of both)."""
    for e in obs.events:
        if type(e) is kind and (role is None or e.role == role):
            yield e


def _point_candidates(pool: Mask, count: int, value: int | None, more: bool = False) -> list[Mask]:
    """Every holding of one suit within ``pool`` that makes a point of ``count`` cards (and ``value``)."""
    found: list[Mask] = []
    for s in SUITS:
        suit = cards_of(pool & SUIT_MASKS[s])
        for k in ((count + 1,) if more else (count,)):
            for combo in combinations(suit, k):
                m = 0
                for c in combo:
                    m |= 1 << c
                if value is None or point_key(m)[1] == value:
                    found.append(m)
    return found


class Reading:
    """The adversary's hand as far as it can be counted (p. 166: "counting the hand").

    ``known``: cards he surely holds (shown by calling, or deduced from his
    calls and the cards out); ``possible``: every card he may hold; ``chance``:
    for each card, how likely he holds it.  "You should count his cards so far
    as he has called them, and should consider what cards he is least likely
    to have discarded.  You then mentally assign to him the cards he has most
    probably kept, and so fill up his number" (p. 166).
    """

    def __init__(self, obs: Observation) -> None:
        me = obs.role
        him = 1 - me
        self.obs = obs
        played = obs.played()
        his_played = obs.played(him)
        self.size = 12 - his_played.bit_count()
        out = obs.hand | obs.discard | played
        for look in _of(obs, Look, YOUNGER):
            if look.looked:
                out |= look.cards  # left in the stock by the younger, seen by both (Law 36)
        known = 0
        for show in _of(obs, Show, him):
            known |= show.cards
        maybe = 0  # cards the elder left and saw, some of which the younger may have taken
        if me == ELDER and obs.seen_left:
            e_took = obs.exchanged(ELDER) or 0
            y_took = obs.exchanged(YOUNGER) or 0
            left = obs.seen_left & ~out
            if any(look.looked for look in _of(obs, Look, YOUNGER)) or y_took >= 5 - e_took:
                known |= left
            else:
                maybe = left
        self.voids = voids_shown(obs.events, him)
        possible = FULL_PACK & ~out & ~self.voids
        known &= ~played
        self.lengths = [0] * 4  # lengths he must hold, from a call whose suit is certain
        if me == YOUNGER:
            known |= self._from_calls(obs, possible | his_played) & ~played
        known |= self._from_named(obs, possible | his_played) & ~played
        possible |= known
        if possible.bit_count() <= self.size:
            known = possible  # every card he may hold, he holds: the hand is counted
        self.known = known
        self.possible = possible
        self.maybe = maybe
        self.chance = self._chances(obs, his_played)

    def _from_calls(self, obs: Observation, pool: Mask) -> Mask:
        """Cards the elder's calls tell, when they were not good and so not shown (p. 154-155)."""
        known = 0
        shown = {show.category for show in _of(obs, Show, ELDER)}
        count = next((call.length for call in _of(obs, CallPoint, ELDER)), 0)
        value = next((call.value for call in _of(obs, CallValue, ELDER)), None)
        if count and POINT not in shown:
            # "A point of forty-four ... you know that his point consists of five cards, without an ace,
            # and ending in a tierce minor" (p. 155, and the table there).
            cands = _point_candidates(pool, count, value)
            if cands:
                common = cands[0]
                suits = 0
                for m in cands:
                    common &= m
                    suits |= 1 << (_high(m) >> 3)
                known |= common
                if suits.bit_count() == 1:
                    self.lengths[_high(cands[0]) >> 3] = count
        for sequence in _of(obs, CallSequence, ELDER):
            if SEQUENCES in shown:
                break
            length, head = sequence.length, sequence.head
            runs = []
            for s in SUITS:
                run = ((1 << length) - 1) << (s * 8 + head - length + 1)
                if run & ~pool == 0:
                    runs.append(run)
            if len(runs) == 1:
                known |= runs[0]
        for called_set in _of(obs, CallSet, ELDER):
            if SETS in shown:
                break
            n, rank = called_set.size, called_set.rank
            cands_r = pool & RANK_MASKS[rank]
            if cands_r.bit_count() == n:
                known |= cands_r
        return known

    @staticmethod
    def _from_named(obs: Observation, pool: Mask) -> Mask:
        """Cards a quatorze or trio named, not shown, tells (Piquet au cent, p. 18): all of a rank he may hold."""
        known = 0
        for named in _of(obs, NameSet, 1 - obs.role):
            n, rank = named.size, named.rank
            cands = pool & RANK_MASKS[rank]
            if cands.bit_count() == n:
                known |= cands
        return known

    def _chances(self, obs: Observation, his_played: Mask) -> list[float]:
        """Fill up his number with the cards he most probably kept (p. 166)."""
        chance = [0.0] * 32
        free = self.size - self.known.bit_count()
        open_cards = cards_of(self.possible & ~self.known)
        for c in cards_of(self.known):
            chance[c] = 1.0
        if free <= 0 or not open_cards:
            return chance
        weights = {}
        for c in open_cards:
            w = 1.0 + 0.15 * (c & 7)  # high cards are the least likely to have been put out
            s = c >> 3
            need = self.lengths[s] - ((self.known | his_played) & SUIT_MASKS[s]).bit_count()
            if need > 0:
                w *= 2.5
            if self.maybe >> c & 1:
                w *= 1.3
            weights[c] = w
        fixed: dict[int, float] = {}
        for _ in range(4):
            rest = [c for c in open_cards if c not in fixed]
            room = free - sum(fixed.values())
            total = sum(weights[c] for c in rest)
            if not rest or total <= 0:
                break
            over = False
            for c in rest:
                p = room * weights[c] / total
                if p >= 1.0:
                    fixed[c] = 1.0
                    over = True
            if not over:
                for c in rest:
                    chance[c] = room * weights[c] / total
                break
        for c, p in fixed.items():
            chance[c] = p
        return chance

    # ------------------------------------------------------------ questions

    @property
    def counted(self) -> bool:
        """Every card of his hand is known."""
        return self.known.bit_count() >= self.size

    def higher(self, c: Card) -> Mask:
        """The cards he may hold above ``c``."""
        return self.possible & _above(c)

    def master(self, c: Card) -> bool:
        """``c`` wins if led: he has no card above it (or none of its suit)."""
        return not self.higher(c)

    def holds_suit(self, s: int) -> bool:
        """He surely holds a card of suit ``s``."""
        return bool(self.known & SUIT_MASKS[s])

    def may_hold_suit(self, s: int) -> bool:
        return bool(self.possible & SUIT_MASKS[s])

    def length(self, s: int) -> float:
        return sum(self.chance[c] for c in cards_of(self.possible & SUIT_MASKS[s]))

    def win_chance(self, c: Card) -> float:
        """The chance that ``c``, led, wins the trick: he holds none of the cards above it."""
        p = 1.0
        for h in cards_of(self.higher(c)):
            p *= 1.0 - self.chance[h]
        return p


# ---------------------------------------------------------------- the player

_DISCARDS = (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD)


class CavendishPlayer(ElectsToDeal):
    """Discards, calls and plays by the principles of Cavendish's treatise (1896, p. 116-202).

    ``seed`` is accepted for the common interface; the player is deterministic.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, obs: Observation) -> Action:
        p = obs.phase
        if p in _DISCARDS:
            return Discard(self.discard(obs))
        if p == Phase.ELDER_LOOK:
            # He alone sees them (Law 33): knowing what the younger may take costs nothing.
            return LookAtLeft(True)
        if p == Phase.YOUNGER_LOOK:
            return LookAtLeft(self.younger_looks(obs))
        if p in (Phase.ELDER_POINT, Phase.YOUNGER_POINT, Phase.YOUNGER_RECKON_POINT):
            return DeclarePoint(self.point_call(obs))
        if p in (Phase.ELDER_SEQUENCES, Phase.YOUNGER_SEQUENCES, Phase.YOUNGER_RECKON_SEQUENCES):
            return obs.lawful(DeclareSequences(self.sequence_call(obs)))
        if p in (Phase.ELDER_SETS, Phase.YOUNGER_SETS, Phase.YOUNGER_RECKON_SETS):
            return obs.lawful(DeclareSets(self.set_call(obs)))
        if p == Phase.PLAY:
            return PLAYS[self.card_to_play(obs)]
        raise IllegalAction("the deal is over")

    # ------------------------------------------------------------ the discard

    def discard(self, obs: Observation) -> Mask:
        """The discard (p. 116-151), weighed by the exact drawing odds and the state of the partie.

        At Piquet au cent the younger weighs keeping all his cards too (p. 17).
        """
        return cavendish_discard(obs.hand, obs.max_discard, obs.role, boldness(obs), obs.min_discard)

    def younger_looks(self, obs: Observation) -> bool:
        """Whether the younger looks at the cards he left (Law 36).

        The treatise gives no advice here.  If he looks, the elder sees them
        too; the younger, who left them to keep his guards (p. 141), is the one
        whose hand is the easier to count, so he declines.
        """
        return False

    # ------------------------------------------------------------ calling (p. 152-165)

    def point_call(self, obs: Observation) -> Mask:
        hand = obs.hand
        best = best_point(hand)
        if not best:
            return 0
        mode = play_mode(obs)
        against = Against.of(hand | obs.discard)
        if obs.phase == Phase.ELDER_POINT:
            return self._elder_point(obs, hand, against)
        if mode == SCORE_LITTLE:
            # "Your object should be to score as little as possible, to declare equalities" (p. 174).
            return 0
        if obs.phase == Phase.YOUNGER_RECKON_POINT:
            return best  # the elder called none: any point is good (p. 93)
        called = next((call.length for call in _of(obs, CallPoint, ELDER)), 0)
        n = best.bit_count()
        if obs.rules.calls_state_value:
            # Piquet au cent: the call says what the point makes (p. 18), so the whole of it is compared:
            # lower, say nothing of the hand; equal or better, declare it.
            value = next((call.value for call in _of(obs, CallValue, ELDER)), 0)
            return 0 if point_key(best) < (called, value) else best
        if n < called:
            return 0  # good either way: say nothing of the hand
        if n == called:
            # "You should not declare the equality if his point must be good" (p. 154).
            weakest = self._weakest_point(against, called)
            if weakest is not None and weakest > point_key(best)[1]:
                return 0
        return best

    @staticmethod
    def _weakest_point(against: Against, count: int) -> int | None:
        """The lowest value of any point of ``count`` cards the adversary could hold (None if none)."""
        values = []
        for s in SUITS:
            suit = against.possible & SUIT_MASKS[s]
            if suit.bit_count() >= count:
                low = sorted(_PIPS[c & 7] for c in cards_of(suit))[:count]
                values.append(sum(low))
        return min(values) if values else None

    def _elder_point(self, obs: Observation, hand: Mask, against: Against) -> Mask:
        """Which point the elder calls (p. 152-154)."""
        best = best_point(hand)
        n, value = point_key(best)
        if play_mode(obs) == SCORE_LITTLE:
            return best
        same = [hand & SUIT_MASKS[s] for s in SUITS if (hand & SUIT_MASKS[s]).bit_count() == n]
        if len(same) > 1:
            # "You should not thoughtlessly call your best suit for point, when you have two points":
            # if a weaker one is good against the cards, declare the suit you propose to attack in (p. 152-153).
            good = [m for m in same if not against.point_beaten(point_key(m))]
            if good:
                attack = self._attack_suit(hand, Reading(obs))
                for m in good:
                    if _high(m) >> 3 == attack:
                        return m
                return max(good, key=point_key)
        if n == 4 and n <= against.best_point()[0]:
            weakest = self._weakest_point(against, n)
            if weakest is not None and weakest > value:
                # "If any four-card point which the younger hand can hold must be good, and you have a point
                # of thirty-one, you should call three cards, though holding four" (p. 153-154, 175-176).
                others = [hand & SUIT_MASKS[s] for s in SUITS
                          if (hand & SUIT_MASKS[s]).bit_count() >= 3 and not (hand & SUIT_MASKS[s]) & best]
                pool = others or [best]
                threes = [sum(1 << c for c in combo) for m in pool for combo in combinations(cards_of(m), 3)]
                return max(threes, key=lambda m: (point_key(m), m))
        return best

    def sequence_call(self, obs: Observation) -> tuple[Mask, ...]:
        hand = obs.hand
        runs = best_sequences(hand)
        if not runs:
            return ()
        mode = play_mode(obs)
        p = obs.phase
        if p == Phase.ELDER_SEQUENCES:
            if mode != SCORE_LITTLE and self._cannot_be_good(obs, sequence_key(runs[0])):
                # "When, elder hand, you have called a point, which is equal, or not good, and you can
                # consequently tell that your sequence in some other suit is not good, you should not call
                # any sequence ... by calling it you only expose your hand" (p. 156).
                return ()
            return self._sink(obs, runs, SEQUENCES)
        if p == Phase.YOUNGER_RECKON_SEQUENCES:
            return () if mode == SCORE_LITTLE else self._sink(obs, runs, SEQUENCES)
        called = next(((call.length, call.head) for call in _of(obs, CallSequence, ELDER)), (0, 0))
        mine = sequence_key(runs[0])
        if mine < called:
            return ()  # "Good" either way: nothing shown
        if mine == called:
            return (runs[0],)  # an equality: neither scores (p. 89-90)
        return () if mode == SCORE_LITTLE else runs

    def set_call(self, obs: Observation) -> tuple[Mask, ...]:
        hand = obs.hand
        sets = best_sets(hand)
        if not sets:
            return ()
        mode = play_mode(obs)
        p = obs.phase
        if p == Phase.ELDER_SETS:
            return self._sink(obs, sets, SETS)
        if p == Phase.YOUNGER_RECKON_SETS:
            return () if mode == SCORE_LITTLE else self._sink(obs, sets, SETS)
        called = next(((call.size, call.rank) for call in _of(obs, CallSet, ELDER)), (0, 0))
        if set_key(sets[0]) < called or mode == SCORE_LITTLE:
            return ()
        return sets

    def _cannot_be_good(self, obs: Observation, mine: tuple[int, int]) -> bool:
        """Whether the younger's answer to the point tells that he holds a better sequence (p. 156).

        His point was better than or equal to the elder's: every holding that
        could make it is listed, and if each contains a sequence better than
        the elder's best, the elder's cannot be good.
        """
        reply = next((r.outcome for r in _of(obs, Reply, YOUNGER) if r.category == POINT), None)
        n = next((call.length for call in _of(obs, CallPoint, ELDER)), 0)
        if reply not in (EQUAL, NOT_GOOD) or not n:
            return False
        asked = any(True for _ in _of(obs, AskValue))
        value = next((call.value for call in _of(obs, CallValue, ELDER)), 0)
        pool = FULL_PACK & ~(obs.hand | obs.discard)
        if reply == EQUAL:
            cands = _point_candidates(pool, n, value)
        elif asked or obs.rules.calls_state_value:
            cands = [m for m in _point_candidates(pool, n, None) if point_key(m)[1] > value]
            if not asked:  # au cent: the whole call compared, so more cards may beat it too (p. 18)
                cands += _point_candidates(pool, n, None, more=True)
        else:
            cands = _point_candidates(pool, n, None, more=True)
        if not cands:
            return False
        for m in cands:
            runs = best_sequences(m)
            if not runs or sequence_key(runs[0]) <= mine:
                return False
        return True

    def _sink(self, obs: Observation, items: tuple[Mask, ...], category: int) -> tuple[Mask, ...]:
        """Sinking a small item to hide an unguarded suit (p. 156-158).

        "It is especially resorted to when a player has a suit unguarded, and
        calling all he holds would expose the fact."  An item worth three is
        sunk when the calls would show ten of the player's twelve cards and a
        king or queen of his lies unguarded in a suit not shown, and nothing
        else of his in that category needs it to score.  "It is useless to
        practise the stratagem of sinking cards against an indifferent player
        who does not count your hand" (p. 158): it is kept for these cases.
        """
        if len(items) < 2:
            return items
        hand = obs.hand
        shown = 0
        for m in (best_point(hand), *best_sequences(hand), *best_sets(hand)):
            shown |= m
        if shown.bit_count() < 10:
            return items
        reading = Reading(obs)
        unguarded = False
        for s in SUITS:
            suit = hand & SUIT_MASKS[s]
            if not suit or suit & shown:
                continue
            for c in cards_of(suit):
                if c & 7 in (KING, QUEEN):
                    higher = reading.higher(c).bit_count()
                    if higher and (suit & _below(c)).bit_count() < higher:
                        unguarded = True
        if not unguarded:
            return items
        last = items[-1]
        worth = sequence_score(last) if category == SEQUENCES else set_score(last)
        if worth <= 3:
            return items[:-1]
        return items

    # ------------------------------------------------------------ playing the cards (p. 166-202)

    def card_to_play(self, obs: Observation) -> Card:
        reading = Reading(obs)
        if obs.lead >= 0:
            return self._follow(obs, reading)
        return self._lead(obs, reading)

    def _attack_suit(self, hand: Mask, reading: Reading) -> int:
        """The suit to attack in: the one likely to be established, the longer first (p. 169)."""
        best_s, best_v = 0, -99.0
        for s in SUITS:
            suit = hand & SUIT_MASKS[s]
            if not suit:
                continue
            v = self._establish_value(suit, reading) - (1.5 if self._tenace(suit, reading) else 0.0)
            if v > best_v:
                best_s, best_v = s, v
        return best_s

    @staticmethod
    def _establish_value(suit: Mask, reading: Reading) -> float:
        """How well a suit may be established: length, and the strength at its head (p. 169)."""
        cards = cards_of(suit)
        n = len(cards)
        top = cards[0]
        higher = reading.higher(top).bit_count()
        touching = 1
        for a, b in zip(cards, cards[1:], strict=False):
            gap = _below(a) & _above(b) & reading.possible
            if gap:
                break
            touching += 1
        return n + 0.8 * touching - 1.5 * higher + 0.1 * (top & 7)

    # .............................................................. leading

    def _lead(self, obs: Observation, r: Reading) -> Card:
        hand = obs.hand
        cards = cards_of(hand)
        if len(cards) == 1:
            return cards[0]
        me, him = obs.role, 1 - obs.role
        won, lost = obs.tricks_won[me], obs.tricks_won[him]
        masters = [c for c in cards if r.master(c) or r.voids & (1 << c)]
        mode = play_mode(obs)
        mine_now, his_now = sum(obs.scores[me]), sum(obs.scores[him])

        # The pique (p. 173): "When you are near a pique, reckon up all the winning cards you have in hand,
        # to ascertain whether you can make thirty before you lose the lead.  If you can do so, lead your
        # winning cards one after the other."  Except when foregoing it wins a rubicon (p. 173-174, Ex. XVII).
        if (me == ELDER and his_now == 0 and masters and mine_now < 30 <= mine_now + len(masters)
                and not self._forego_pique(obs)):
            return self._cash(masters, hand, r)

        # A capot: every trick won so far, and every card left a winner.
        if lost == 0 and len(masters) == len(cards):
            return self._cash(masters, hand, r)

        if len(cards) == 2:
            return self._last_two(obs, r, masters, won)

        # Making sure of the cards (p. 171): "If you have five, or six, tricks and a winning card and the
        # lead, play the winning card, unless certain that your opponent holds that suit".
        if won in (5, 6) and mode != SCORE_LITTLE:
            safe = [c for c in masters if not r.holds_suit(c >> 3)]
            if safe:
                return self._cash(safe, hand, r)

        if mode == SCORE_LITTLE and won >= 6:
            return self._exit_card(hand, r) or cards[-1]

        if r.counted:
            card = self._counted_lead(obs, r, masters, mode)
            if card is not None:
                return card

        return self._general_lead(obs, r, masters)

    def _forego_pique(self, obs: Observation) -> bool:
        """Whether to forego a pique to win a rubicon (p. 173-174, Example XVII).

        In the last deal, when the younger saves his rubicon by winning the
        cards and the elder wins the partie without the pique.
        """
        st = standing(obs)
        if not st.last or obs.partie is None:
            return False
        his_with_cards = st.his + (10 + 6) * st.multiplier
        return st.his < 100 <= his_with_cards and st.mine > st.his + 40

    def _cash(self, masters: list[Card], hand: Mask, r: Reading) -> Card:
        """Lead a winning card: of the longest suit that has them, the highest (p. 169)."""
        return max(masters, key=lambda c: ((hand & SUIT_MASKS[c >> 3]).bit_count(), not r.holds_suit(c >> 3), c & 7))

    def _last_two(self, obs: Observation, r: Reading, masters: list[Card], won: int) -> Card:
        """A winning card and a losing card at the end (p. 171-172).

        "You should generally lead the losing card, in order to win the last
        trick, unless you can tell that the adversary has none of the suit to
        which your winning card belongs" - and not when one trick makes the
        difference of saving or winning the cards.
        """
        cards = cards_of(obs.hand)
        if len(masters) != 1:
            return max(cards, key=lambda c: (r.win_chance(c), c & 7))
        w = masters[0]
        loser = next(c for c in cards if c != w)
        if r.holds_suit(w >> 3):
            return loser  # he must lead up to the winning card at the last trick
        if won + 1 in (6, 7) or not r.may_hold_suit(w >> 3):
            return w
        # The presumption is that he holds the suit of the winning card guarded (p. 172).
        return loser if r.length(w >> 3) >= 0.5 else w

    def _exit_card(self, hand: Mask, r: Reading) -> Card | None:
        """A card to give the lead away: the lowest card of a suit in which he holds a higher one."""
        exits = [c for c in cards_of(hand) if r.win_chance(c) < 0.5]
        return min(exits, key=lambda c: (r.win_chance(c), c & 7)) if exits else None

    @staticmethod
    def _tenace(suit: Mask, r: Reading) -> bool:
        """A tenace (p. 169-170): a winning card, his best card of the suit below it, and mine next below
        that - ace, queen over king; king, knave over queen when the ace is gone - with his card guarded
        enough not to fall to my higher ones.  Ace, queen over a single king is none: the king falls."""
        top = _high(suit)
        if r.higher(top):
            return False
        his = r.possible & SUIT_MASKS[top >> 3] & _below(top)
        if not his:
            return False
        h = _high(his)
        lower = suit & _below(h)
        if r.chance[h] < 0.5 or not lower:
            return False
        b = _high(lower)
        if his & _below(h) & _above(b):
            return False
        above = (suit & _above(h)).bit_count()
        return above <= r.length(top >> 3) - 1 + 1e-9

    def _counted_lead(self, obs: Observation, r: Reading, masters: list[Card], mode: str) -> Card | None:
        """In and out play when the adversary's hand is counted (p. 172-173, Examples XII and XIV).

        "Every time you part with the lead and regain it, each player scores
        one point in play more."  Playing in and out, lead the card he may win
        or let pass: the lowest card above his lowest and below his highest in
        a suit, from a suit without a tenace if there is one.  Keeping him back,
        lead the winning cards first, then the highest.
        """
        hand = obs.hand
        his = r.known
        if mode == KEEP_BACK:
            if masters:
                return self._cash(masters, hand, r)
            return max(cards_of(hand), key=lambda c: (r.win_chance(c), c & 7))
        if mode != IN_AND_OUT:
            return None
        # His winning cards: those above every card I hold of their suit.
        his_masters = [x for x in cards_of(his) if not hand & _above(x)]
        if len(his_masters) != 1:
            return None  # he would make tricks of his own with the lead: no in and out here
        choices: list[tuple[bool, Card]] = []
        for s in SUITS:
            mine = hand & SUIT_MASKS[s]
            theirs = his & SUIT_MASKS[s]
            if not mine or not theirs:
                continue
            top, low = _high(theirs), first_card(theirs)
            middle = [c for c in cards_of(mine) if low < c < top]
            if middle and top == his_masters[0]:
                choices.append((self._tenace(mine, r), min(middle)))
        if not choices:
            return None
        choices.sort(key=lambda t: (t[0], t[1] & 7))
        return choices[0][1]

    def _general_lead(self, obs: Observation, r: Reading, masters: list[Card]) -> Card:
        """The lead when no particular rule applies (p. 168-170).

        "Your first lead should be from a suit you are likely to establish ...
        when you again have the lead, you should generally pursue the suit of
        which you have winning cards remaining.  With two suits of equal
        commanding strength, you should generally begin by leading the one of
        which you hold the greater number" (p. 169).  Lead the top of touching
        honours; leave guarded kings and queens for the adversary to lead up
        to; towards the close keep a tenace to be led up to, and between two
        tenace suits lead the less numerous first (p. 169-170).
        """
        hand = obs.hand
        close = hand.bit_count() <= 7
        best: tuple[float, Card] | None = None
        point_suit = _high(best_point((obs.dealt & ~obs.discard) | obs.taken)) >> 3
        for s in SUITS:
            suit = hand & SUIT_MASKS[s]
            if not suit:
                continue
            cards = cards_of(suit)
            n = len(cards)
            top = cards[0]
            touching = n >= 2 and not (_below(cards[0]) & _above(cards[1]) & r.possible)
            if not r.may_hold_suit(s):
                # He has none of the suit: every card of it wins when led, and makes him throw a card.
                score, card = 12.0 + 0.1 * n, top
            elif close and self._tenace(suit, r):
                score, card = -4.0 - 0.3 * n, top
            elif r.master(top):
                score, card = 8.0 + self._establish_value(suit, r), top
            elif (top & 7) >= QUEEN and not touching:
                # "Keep guards to kings and queens" (p. 169): let him lead up to them.
                score, card = -2.0 + 0.2 * n, cards[-1]
            elif touching and (top & 7) >= TEN:
                score, card = 3.0 + self._establish_value(suit, r), top
            else:
                score, card = 0.5 + 0.3 * n - 0.1 * (top & 7), cards[-1]
            if s == point_suit:
                score += 1.0
            if best is None or score > best[0]:
                best = (score, card)
        assert best is not None
        return best[1]

    # .............................................................. following

    def _follow(self, obs: Observation, r: Reading) -> Card:
        hand = obs.hand
        led = obs.lead
        mine = hand & SUIT_MASKS[led >> 3]
        if not mine:
            return self._throw(obs, r)
        winners = mine & _above(led)
        mode = play_mode(obs)
        me = obs.role
        if winners:
            if mode == SCORE_LITTLE and obs.tricks_won[me] >= 6 and mine & ~winners:
                return self._equivalent(first_card(mine & ~winners), mine, r)
            return self._equivalent(first_card(winners), mine, r)
        return self._lose(obs, r, mine, mode)

    def _equivalent(self, c: Card, mine: Mask, r: Reading) -> Card:
        """Of cards equal in play, the one he already knows (p. 168-169).

        "When you have the choice of throwing a card you have called, or one
        you have not, you should prefer the former."
        """
        group = [c]
        x = c
        while True:
            nxt = _above(x) & mine
            if not nxt:
                break
            y = first_card(nxt)
            if _below(y) & _above(x) & r.possible:
                break
            group.append(y)
            x = y
        shown = 0
        for show in _of(r.obs, Show, r.obs.role):
            shown |= show.cards
        for y in group:
            if shown >> y & 1:
                return y
        return c

    def _lose(self, obs: Observation, r: Reading, mine: Mask, mode: str) -> Card:
        """Following suit without winning: the lowest, keeping guards (p. 169), except to keep him back.

        Keeping him back when his hand is counted and you command every other
        suit he holds, throw the high card that would only take the lead from
        him and give it back (p. 191-192, Example XIII).
        """
        low = first_card(mine)
        if mode == KEEP_BACK and r.counted and mine.bit_count() == 2:
            high = _high(mine)
            s = obs.lead >> 3
            his_other = r.known & ~SUIT_MASKS[s]
            commands = all(
                obs.hand & SUIT_MASKS[t] and _high(obs.hand & SUIT_MASKS[t]) > _high(his_other & SUIT_MASKS[t])
                for t in SUITS if his_other & SUIT_MASKS[t])
            if commands and r.master(high) and r.known & SUIT_MASKS[s] & _below(high):
                return high
        return self._equivalent(low, mine, r)

    def _throw(self, obs: Observation, r: Reading) -> Card:
        """When void in the suit led: the least useful card (p. 169-171).

        Keep winning cards, guards to kings and queens, a losing card with
        which to throw the lead when holding a tenace (Examples VII-VIII), and
        when put to a card to save a capot, "the card of the suit of which the
        greater number is against you" (p. 170).
        """
        hand = obs.hand
        me = obs.role
        capot_danger = obs.tricks_won[me] == 0 and obs.tricks_won[1 - me] >= 6
        tenaces = {s for s in SUITS if hand & SUIT_MASKS[s] and self._tenace(hand & SUIT_MASKS[s], r)}
        exit_suits = {s for s in SUITS if s not in tenaces and hand & SUIT_MASKS[s]
                      and all(r.win_chance(c) < 0.5 for c in cards_of(hand & SUIT_MASKS[s]))}
        shown = 0
        for show in _of(obs, Show, me):
            shown |= show.cards
        played = obs.played()

        def keep(c: Card) -> float:
            s = c >> 3
            suit = hand & SUIT_MASKS[s]
            v = 0.2 * (c & 7)
            if r.master(c):
                v += 20.0
                if r.may_hold_suit(s):
                    v += 4.0  # it stops his suit
            else:
                v += 6.0 * r.win_chance(c) + 0.6 * suit.bit_count()
            higher = r.higher(c).bit_count()
            # A guard to a king or queen of the suit.
            for h in cards_of(suit & _above(c)):
                if (h & 7) >= QUEEN and not r.master(h):
                    need = r.higher(h).bit_count()
                    if (suit & _below(h)).bit_count() <= need:
                        v += 5.0
            if (c & 7) >= QUEEN and higher and (suit & _below(c)).bit_count() >= higher:
                v += 4.0
            if tenaces and s in exit_suits and len(exit_suits) == 1 and suit.bit_count() == 1:
                v += 4.0  # the one card left with which to throw the lead
            if s in tenaces:
                v += 3.0
            if capot_danger:
                against = (SUIT_MASKS[s] & ~hand & ~played & ~obs.discard).bit_count()
                v += 3.0 * against
            if shown >> c & 1:
                v -= 0.3
            return v

        return min(cards_of(hand), key=lambda c: (keep(c), c))


__all__ = [
    "POOL", "Against", "CavendishPlayer", "DiscardPlan", "Reading", "Standing", "boldness", "cavendish_discard",
    "chance_of_any", "discard_plans", "draw_chance", "odds_against", "play_mode", "standing",
]
