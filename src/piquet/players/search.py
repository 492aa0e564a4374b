"""The search player: Monte Carlo over the deals consistent with what it has seen.

It reads its observation only.  For each decision it samples deals that agree
with everything it knows (``piquet.players.worlds``) and looks at each with the exact
double-dummy solver (``piquet.players.solver``):

- **The exchange** (Laws 21-22): a short list of sensible discards (the best
  cards to keep, for each number it might take in; at Piquet au cent the
  younger's keeping all his cards too, p. 17), each played out in the same
  sampled worlds: the cards it would take, the adversary's exchange, every
  declaration, and the play solved with both hands open.  The discard with
  the best mean result is chosen.
- **Calls** (Laws 45-57): it declares everything, unless a category cannot
  win in any world it samples: then it sinks it, since calling it would score
  nothing and tell the adversary what it holds (p. 162-165).
- **Play** (Law 59): every legal card is valued in each sampled world by the
  solver (points in play, the cards, a pique still live) and the card with the
  best mean is played.
- **The score of the partie**: at Rubicon Piquet, in the last deal the points
  are weighed by what they do to the settlement (Laws 72-73), so crossing or
  holding the rubicon line counts for what it is worth (``Judge``); elsewhere
  points are points.  At Piquet au cent every deal is weighed by the chance
  of winning the partie of three games out of five that its scores leave
  (``GameJudge``): reaching a hundred first wins the game, before the
  adversary has fifty a double game counting two (p. 20).

The solver knows no game: it values the play to the end of the deal, as if
nobody could reach a hundred in it.  The judge puts the goal back: of the two
players' points in the deal, those of the hands come first (Law 67) and the
play's are taken to come evenly through the play, so whoever would get to a
hundred at the earlier moment wins the game there, and the other's score at
that moment says whether it is a double.  What is to come after the deal is
a model of the game: deals independent, each player's deal score drawn from
what a deal of Piquet au cent scores, by role (``DEAL_SCORES``, measured).

Sampling uses the player's own seeded generator, so a seed gives the same
choices again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations
from typing import Protocol

from piquet.core.actions import PLAYS, Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft
from piquet.core.cards import SUIT_MASKS, Card, Mask, cards_of
from piquet.core.deal import (
    Deal,
    IllegalAction,
    Phase,
    declaration_key,
    declaration_of,
    full_declarations,
    implied_bar,
)
from piquet.core.events import (
    CALLS,
    ELDER,
    NOT_GOOD,
    POINT,
    S_CARTE_BLANCHE,
    S_POINT,
    S_REPIQUE,
    S_SEQUENCES,
    S_SETS,
    SEQUENCES,
    SETS,
    YOUNGER,
    Reply,
)
from piquet.core.observation import Observation, first_card, lawful
from piquet.core.rules import RUBICON, Rules, rules_named
from piquet.players.base import DECLARING, ElectsToDeal, keep_value
from piquet.players.settlement import partie_model, settlement_value
from piquet.players.solver import Position, card_values, value
from piquet.players.worlds import World, game_of, rebuild, sample_worlds


@dataclass(frozen=True)
class Strength:
    """How much a search player looks at: worlds per card, discards tried, worlds per discard."""

    name: str
    play_worlds: int
    discards_per_count: int
    exchange_worlds: int
    call_worlds: int = 24
    #: How worlds are drawn: ``"uniform"`` or weighted by the adversary's discard (``"discard"``, see ``worlds``).
    prior: str = "uniform"
    #: The anytime exchange: 0 for the short list above tried in every world; else the simulated deals that
    #: successive halving spends over ``discard_shortlist`` (``discards_per_count`` of all it may take) in up
    #: to ``exchange_worlds`` worlds, all tried first in ``first_worlds``.  A count, not a time: a seed plays
    #: the same game on any machine.
    exchange_sims: int = 0
    first_worlds: int = 4
    #: The candidates: every count from the fewest cards to all he may take (``discard_shortlist``), or the short
    #: list of ``discard_candidates`` (the elder five, four and three; the younger all and one fewer).
    every_count: bool = False
    #: A safety cut in CPU seconds a decision (0: none): calibrated never to fire, it keeps a slow machine
    #: under the limit of a second, at the cost of repeating the game exactly.
    seconds: float = 0.0
    #: At the elder's first lead, the younger's reckoning still to come is counted in each world (Law 67)
    #: when the deal is judged by the partie's score (``Judge``), not only at Piquet au cent.
    reckon_first: bool = False
    #: Every deal of a partie of so many deals judged by the settlement its scores are likely to lead to
    #: (``Judge``, ``settlement.PartieModel``), not only the last: the rubicon's line and a close partie weigh.
    partie_every_deal: bool = False
    #: Information-set look-ahead in play: the best ``own_next`` cards by the sampled search are valued again with
    #: the player's next card one for all the worlds he will not tell apart (``fusion_regret``); 0: none.
    own_next: int = 0


FAST = Strength("search-fast", play_worlds=6, discards_per_count=2, exchange_worlds=6)
FULL = Strength("search", play_worlds=20, discards_per_count=4, exchange_worlds=16)
#: The top level: the anytime exchange over every discard, worlds read from the adversary's discard.
DEEP = Strength("search-deep", play_worlds=32, discards_per_count=12, exchange_worlds=64, call_worlds=48,
                prior="discard", exchange_sims=400, first_worlds=4, every_count=True, seconds=0.9,
                reckon_first=True, partie_every_deal=True)
#: The top level with one part taken out at a time, for the arena (docs/players.md, "What each part gained"):
#: the short list of ``search`` (four a count) raced instead of every count; every candidate in 16 worlds (the
#: same 400 deals or fewer) instead of the race, and ``search``'s worlds in play and at the calls; worlds drawn
#: uniformly; the younger's reckoning not counted at the elder's first lead; only the last deal judged by the
#: settlement.
WITHOUT: dict[str, Strength] = {
    "every-count": replace(DEEP, name="deep-without-every-count", every_count=False, discards_per_count=4),
    "halving": replace(DEEP, name="deep-without-halving", exchange_sims=0, exchange_worlds=16, play_worlds=20,
                       call_worlds=24),
    "discard-prior": replace(DEEP, name="deep-without-discard-prior", prior="uniform"),
    "reckoning": replace(DEEP, name="deep-without-reckoning", reckon_first=False),
    "partie-score": replace(DEEP, name="deep-without-partie-score", partie_every_deal=False),
}
#: Parts tried on the top level and measured in the arena against it (docs/players.md): the information-set
#: look-ahead in play for the best three cards.
TRIED: dict[str, Strength] = {
    "own-next": replace(DEEP, name="deep-own-next", own_next=3),
}

_DISCARDS = (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD)
_LOOKS = (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK)
_ELDER_CALLS = {Phase.ELDER_POINT: 0, Phase.ELDER_SEQUENCES: 1, Phase.ELDER_SETS: 2}
#: Declaring nothing in each category: sinking it whole.
_NOTHING: tuple[Action, ...] = (DeclarePoint(0), DeclareSequences(()), DeclareSets(()))
#: Below this chance of being good (or half of being equal), a call is sunk.
_SINK_BELOW = 0.02
#: What the hands score (Law 67 I-IV, and a repique), before anything in play.
_HAND_KINDS = (S_CARTE_BLANCHE, S_POINT, S_SEQUENCES, S_SETS, S_REPIQUE)


# ---------------------------------------------------------------- what a deal's scores are worth


class DealJudge(Protocol):
    """What a deal's scores are worth to the player: ``judge(mine, theirs, first)``.

    ``mine`` and ``theirs`` are what he and his adversary score in the whole
    deal; ``first`` the part of them scored first (the hands, or what is
    scored already), before the rest, which comes in play.
    """

    def __call__(self, mine: float, theirs: float, first: tuple[float, float] = (0.0, 0.0)) -> float: ...


# ---------------------------------------------------------------- simulating a deal from a world


def greedy_discard(hand: Mask, n: int, elder: bool) -> Mask:
    """A quick sensible discard of ``n`` cards: one at a time, the card whose loss costs least."""
    out = 0
    for _ in range(n):
        rest = hand & ~out
        best = max(cards_of(rest), key=lambda c: (keep_value(rest & ~(1 << c), elder), -c))
        out |= 1 << best
    return out


def _declare_all(deal: Deal) -> None:
    """Every remaining declaration made in full, and every look taken, up to the next card to play."""
    while deal.phase not in (Phase.PLAY, Phase.DONE):
        p = deal.phase
        if p in _LOOKS:
            deal.apply(LookAtLeft(True))
        else:
            role = deal.to_move
            assert role is not None
            # As the player himself calls (``Observation.lawful``): nothing where the elder's cards shown bar it.
            deal.apply(lawful(full_declarations(deal.hands[role])[DECLARING[p]],
                              implied_bar(deal.events, deal.phase, deal.rules)))


def hand_scores_and_play(deal: Deal) -> tuple[int, int, Position]:
    """From the elder's first lead: what each scores for his hand, and the position of the play.

    The younger's reckoning waits for the elder's first lead (Law 67); it is
    taken here with a card led and then taken back, so the totals are the
    hands' scores alone (carte blanche, point, sequences, quatorzes and
    trios, a repique) and the pique still live is known (Law 68).  At a game
    of so many up the hands may reach the goal: the totals say so, and the
    play is then not played.
    """
    assert deal.phase == Phase.PLAY and deal.trick == 1 and deal.lead < 0
    hands = (deal.hands[0], deal.hands[1])
    mark = len(deal.history)
    deal.apply(PLAYS[first_card(hands[ELDER])])
    _declare_all(deal)
    elder, younger = (sum(deal.scores[r][k] for k in _HAND_KINDS) for r in (ELDER, YOUNGER))
    while len(deal.history) > mark:
        deal.undo()
    need = 30 - elder if younger == 0 and elder < 30 else 0
    return elder, younger, Position(hands, ELDER, pique_need=need, counting=deal.counting)


def simulate_exchange(world: World, role: int, discard: Mask, younger_discard: Mask | None = None,
                      judge: DealJudge | None = None, rules: Rules = RUBICON,
                      game: tuple[int, int] | None = None) -> float:
    """The result for ``role`` of discarding ``discard`` in ``world``: hands scored, play solved open.

    The adversary's exchange is the world's (an elder's discard already made)
    or, for the younger after this elder, ``younger_discard`` or a quick
    sensible one of all the cards he may take (``greedy_discard``).  The deal
    is played under ``rules`` (and at a game of so many up from ``game``, the
    scores by role).  The result is the difference of the deal's scores, or
    what ``judge`` makes of the two scores.
    """
    deal = Deal(world.dealt[ELDER], world.dealt[YOUNGER], world.stock, rules, game)
    deal.apply(Discard(discard if role == ELDER else world.discards[ELDER]))
    if deal.phase == Phase.ELDER_LOOK:
        deal.apply(LookAtLeft(True))
    if deal.phase == Phase.YOUNGER_DISCARD:
        if role == YOUNGER:
            deal.apply(Discard(discard))
        else:
            most = deal.max_discard(YOUNGER)
            if younger_discard is None or younger_discard.bit_count() != most:
                younger_discard = greedy_discard(deal.hands[YOUNGER], most, False)
            deal.apply(Discard(younger_discard))
    _declare_all(deal)
    if deal.is_over:  # a carte blanche reached the goal (p. 20)
        hand = play = (deal.total(ELDER), deal.total(YOUNGER))
        diff = gain = 0
    else:
        elder, younger, pos = hand_scores_and_play(deal)
        hand = (elder, younger)
        diff = value(pos)
        gain = value(pos, (1, 0)) if judge is not None else 0
        play = (elder + gain, younger + gain - diff)  # what the elder makes for himself, and the rest of the difference
    if judge is None:
        net = hand[ELDER] - hand[YOUNGER] + diff
        return net if role == ELDER else -net
    return judge(play[role], play[1 - role], (hand[role], hand[1 - role]))


def discard_candidates(hand: Mask, most: int, elder: bool, per_count: int, least: int = 1) -> list[Mask]:
    """The best discards by the value of what is kept, ``per_count`` of them for each number of cards.

    The elder tries taking five, four and three; the younger all he may and
    one fewer (p. 119), and at Piquet au cent (``least`` 0) keeping all his
    cards too (p. 17).
    """
    counts = range(most, max(0, most - (3 if elder else 2)), -1)
    cards = cards_of(hand)
    out: list[Mask] = []
    for n in counts:
        if n < least:
            continue
        scored = sorted(((keep_value(hand & ~m, elder), m) for m in _masks(cards, n)), key=lambda t: (-t[0], t[1]))
        out.extend(m for _, m in scored[:per_count])
    if least == 0:
        out.append(0)
    return out


def _masks(cards: list[Card], n: int) -> Iterator[Mask]:
    for combo in combinations(cards, n):
        m = 0
        for c in combo:
            m |= 1 << c
        yield m


def discard_shortlist(hand: Mask, most: int, elder: bool, least: int = 1, per_count: int = 8) -> list[Mask]:
    """Every lawful discard, ranked within its count by the value of what is kept; the best of each count.

    Every number of cards from ``least`` to ``most`` is weighed (leaving cards
    is a choice of the exchange, Law 21; at Piquet au cent the younger may
    keep all, p. 17): ``per_count`` discards of all he may take, and fewer of
    each count below it (half as many a card fewer, at least two), since
    taking all is the rule (p. 119).
    """
    cards = cards_of(hand)
    out: list[Mask] = []
    for n in range(most, least - 1, -1):
        if n == 0:
            out.append(0)
            continue
        k = max(2, per_count >> (most - n))
        scored = sorted(((keep_value(hand & ~m, elder), m) for m in _masks(cards, n)), key=lambda t: (-t[0], t[1]))
        out.extend(m for _, m in scored[:k])
    return out


def successive_halving(arms: int, worlds: int, result: Callable[[int, int], float], budget: int, first: int = 4,
                       stop: Callable[[], bool] | None = None) -> int:
    """The best of ``arms`` choices by their mean ``result(arm, world)`` over shared worlds, racing them.

    Every choice is tried in the first ``first`` worlds; then the better half
    (never fewer than two) go on to twice as many worlds, and so on, while
    the ``budget`` of calls to ``result`` allows the next round and worlds
    remain.  ``stop()``, asked after each call, cuts the race short (a safety
    limit on time): the choice is then made on the last round completed.
    """
    alive = list(range(arms))
    totals = [0.0] * arms
    done, spent = 0, 0
    target = min(max(1, first), worlds)
    while True:
        snapshot = totals[:]
        for i in alive:
            for j in range(done, target):
                totals[i] += result(i, j)
                spent += 1
                if stop is not None and stop():
                    return max(alive, key=lambda a: (snapshot[a] if done else 0.0, -a))
        done = target
        if len(alive) == 1 or done >= worlds:
            break
        keep = max(2, (len(alive) + 1) // 2)
        target = min(2 * done, worlds)
        if spent + keep * (target - done) > budget:
            break
        alive = sorted(alive, key=lambda a: (-totals[a], a))[:keep]
    return max(alive, key=lambda a: (totals[a], -a))


def _deadline(start: float, seconds: float) -> Callable[[], bool] | None:
    """A safety cut: true once ``seconds`` of CPU time have passed since ``start`` (none for 0)."""
    if not seconds:
        return None
    return lambda: time.process_time() - start > seconds


class ExchangeResult:
    """``result(j, world, discard)``: the player's result of a discard in world ``j`` (``simulate_exchange``).

    The younger's discard after the elder's depends on his cards and how many
    he may take, not on which the elder put out: it is found once a world and
    a count.
    """

    def __init__(self, obs: Observation, every_deal: bool = False) -> None:
        self.role = obs.role
        self.judge = Judge.of(obs, every_deal)
        self.rules = obs.rules
        self.game = game_of(obs)
        self.theirs: dict[tuple[int, int], Mask] = {}

    def __call__(self, j: int, world: World, discard: Mask) -> float:
        theirs = None
        if self.role == ELDER:
            most = 8 - discard.bit_count()
            found = self.theirs.get((j, most))
            if found is None:
                found = self.theirs[(j, most)] = greedy_discard(world.dealt[YOUNGER], most, False)
            theirs = found or None
        return simulate_exchange(world, self.role, discard, theirs, self.judge, self.rules, self.game)


# ---------------------------------------------------------------- the partie


def pique_need(obs: Observation, younger_hand: Mask | None = None) -> int:
    """The elder's play points still needed for a pique, or 0 when none is possible (Law 68).

    At the elder's first lead the younger's reckoning is still to come: he
    scores if he said "not good" to a call, or if he holds something to
    declare in a category the elder did not call (judged from
    ``younger_hand`` when a world gives it, else assumed).
    """
    elder, younger = sum(obs.scores[ELDER]), sum(obs.scores[YOUNGER])
    if younger or elder >= 30:
        return 0
    if obs.trick == 1 and obs.lead < 0 and obs.role == ELDER:
        if any(type(e) is Reply and e.outcome == NOT_GOOD for e in obs.events):
            return 0
        called = {CALLS[type(e)] for e in obs.events if type(e) in CALLS}
        uncalled = [c for c in (POINT, SEQUENCES, SETS) if c not in called]
        if uncalled and younger_hand is None:
            return 0
        if younger_hand is not None:
            full = full_declarations(younger_hand)
            if any(declaration_of(full[c]) for c in uncalled):
                return 0
    return 30 - elder


def last_deal(obs: Observation) -> bool:
    """The last deal of a partie of so many deals; at a game of so many up no deal is known to be."""
    p = obs.partie
    return p is not None and obs.rules.is_last_deal(p.deal_number, p.deals_in_partie)


class Judge:
    """What a deal's scores are worth in a partie of so many deals: the settlement they lead to (Laws 72-73).

    ``judge(mine, theirs)`` takes the points the player and his adversary
    score in the whole deal (so far and to come) and returns what the partie
    is then worth to the player: in the last deal the settlement itself; with
    deals still to come (``every_deal``), its expectation over them
    (``settlement.PartieModel``), so the rubicon's line, a tie and the doubled
    deals of the four-deal partie weigh from the first deal on.
    """

    def __init__(self, obs: Observation) -> None:
        p = obs.partie
        assert p is not None
        other = "B" if p.seat == "A" else "A"
        self.rules = p.rules
        self.multiplier = p.multiplier
        self.me = p.scores.get(p.seat, 0)
        self.them = p.scores.get(other, 0)
        rules = rules_named(p.rules)
        to_come = rules.deals_to_come(p.deal_number, p.deals_in_partie)
        elder = obs.role == ELDER  # the deal alternates (Law 16): elder in every other deal to come
        self.model = partie_model(tuple(((i % 2 == 1) == elder, rules.multiplier(p.deal_number + i))
                                        for i in range(to_come))) if to_come else None

    def __call__(self, mine: float, theirs: float, first: tuple[float, float] = (0.0, 0.0)) -> float:
        m = self.multiplier
        me, them = round(self.me + m * mine), round(self.them + m * theirs)
        if self.model is None:
            return settlement_value(me, them, self.rules)
        return self.model.value(me, them)

    @staticmethod
    def of(obs: Observation, every_deal: bool = False) -> DealJudge | None:
        """The judge of this deal: at a game of so many up ``GameJudge``; in the last deal of a partie (with
        ``every_deal``, in any deal of one) the settlement; ``None`` elsewhere (then points are points)."""
        if obs.rules.partie_of_games:
            return GameJudge(obs)
        if last_deal(obs) or (every_deal and obs.partie is not None):
            return Judge(obs)
        return None


# ---------------------------------------------------------------- the game of a hundred up (au cent)

#: The chance that the elder, and the younger, score 0-2, 3-7, 8-12, ..., 93-97 points in a deal of
#: Piquet au cent, and 98 or more (points in steps of five, rounded), by whether nines, eights and sevens
#: count in play: the cavendish level against itself over 10,000 deals from love all, measured by
#: ``bench/au_cent_deals.py --deals 10000`` (``--rules au-cent+small-cards`` for False).
DEAL_SCORES: dict[bool, tuple[tuple[float, ...], tuple[float, ...]]] = {
    True: (  # elder: mean 31.07, median 26; younger: mean 18.70, median 16
        (0.0087, 0.0855, 0.1072, 0.0908, 0.1012, 0.1483, 0.1396, 0.0737, 0.0650, 0.0307, 0.0052, 0.0059, 0.0105,
         0.0084, 0.0146, 0.0483, 0.0174, 0.0004, 0.0002, 0.0007, 0.0377),
        (0.0495, 0.2232, 0.1643, 0.0838, 0.1236, 0.1337, 0.0848, 0.0515, 0.0373, 0.0222, 0.0068, 0.0012, 0.0002,
         0.0015, 0.0012, 0.0019, 0.0005, 0.0000, 0.0004, 0.0011, 0.0113),
    ),
    False: (  # elder: mean 29.52, median 25; younger: mean 18.16, median 16
        (0.0088, 0.0942, 0.1119, 0.0990, 0.1215, 0.1553, 0.1249, 0.0616, 0.0718, 0.0138, 0.0063, 0.0063, 0.0080,
         0.0072, 0.0220, 0.0427, 0.0061, 0.0004, 0.0002, 0.0007, 0.0373),
        (0.0496, 0.2281, 0.1647, 0.0989, 0.1279, 0.1305, 0.0790, 0.0434, 0.0364, 0.0187, 0.0040, 0.0007, 0.0004,
         0.0016, 0.0022, 0.0009, 0.0002, 0.0000, 0.0004, 0.0011, 0.0113),
    ),
}
#: The game model counts in steps of five points.
_STEP = 5

_Outcomes = tuple[float, float, float, float]  # the game won, won double, lost, lost double


@dataclass(frozen=True)
class GameModel:
    """The chances of a game of so many up and of the partie, from any score (p. 20).

    ``outcomes[e][m][h]``: from a game at ``m`` to ``h`` (in steps of five,
    below the goal), the player being elder in the next deal when ``e`` is 1,
    the chance that he wins the game, wins a double, loses it, loses a
    double.  ``partie[a][b]``: with ``a`` games won to ``b`` (a double two),
    the chance that he wins the partie, each game from love all.
    """

    goal: int
    double_below: int
    outcomes: tuple[tuple[tuple[_Outcomes, ...], ...], ...]
    partie: tuple[tuple[float, ...], ...]

    def won(self, games: int, his: int) -> float:
        """The chance of the partie with these games won, a double counting two."""
        n = len(self.partie)
        if games >= n:
            return 1.0
        if his >= n:
            return 0.0
        return self.partie[games][his]

    def after(self, mine: float, his: float, elder_next: bool, games: tuple[int, int]) -> float:
        """The chance of the partie from a game at ``mine`` to ``his`` (both below the goal), and these games."""
        top = len(self.outcomes[0]) - 1
        x, y = min(mine / _STEP, top), min(his / _STEP, top)
        i, j = min(int(x), top - 1) if top else 0, min(int(y), top - 1) if top else 0
        fx, fy = x - i, y - j
        table = self.outcomes[int(elder_next)]
        a, b = games
        ends = (self.won(a + 1, b), self.won(a + 2, b), self.won(a, b + 1), self.won(a, b + 2))
        total = 0.0
        for di, wx in ((0, 1.0 - fx), (1, fx)):
            for dj, wy in ((0, 1.0 - fy), (1, fy)):
                w = wx * wy
                if w:
                    o = table[i + di][j + dj]
                    total += w * (o[0] * ends[0] + o[1] * ends[1] + o[2] * ends[2] + o[3] * ends[3])
        return total


@cache
def game_model(small_cards_count: bool = True, goal: int = 100, double_below: int = 50,
               games_to_win: int = 3) -> GameModel:
    """The model of the game (``GameModel``) from the deal scores measured (``DEAL_SCORES``), built once.

    Deals are independent; in each the elder's and the younger's scores are
    drawn apart from ``DEAL_SCORES``.  When both would reach the goal in one
    deal, the one who needs the smaller part of his deal's score is taken to
    get there first; the other's score then is his part of his own.
    """
    elder, younger = DEAL_SCORES[small_cards_count]
    g, d = goal // _STEP, double_below / _STEP
    dists = ([(x, p) for x, p in enumerate(younger) if p], [(x, p) for x, p in enumerate(elder) if p])
    # table[e][m][h], filled from the highest scores down: a deal only adds to them.
    table: list[list[list[_Outcomes]]] = [[[(0.0, 0.0, 0.0, 0.0)] * g for _ in range(g)] for _ in range(2)]
    for total in range(2 * g - 2, -1, -1):
        for m in range(max(0, total - g + 1), min(g - 1, total) + 1):
            h = total - m
            for e in (0, 1):
                acc = [0.0, 0.0, 0.0, 0.0]
                norm = 0.0
                nxt = table[1 - e]
                for x, p in dists[e]:
                    for y, q in dists[1 - e]:
                        if not x and not y:
                            continue  # nothing scored: the same game again
                        w = p * q
                        norm += w
                        when_m = (g - m) / x if x >= g - m else 2.0
                        when_h = (g - h) / y if y >= g - h else 2.0
                        if when_m == when_h == 2.0:
                            o = nxt[m + x][h + y]
                            acc[0] += w * o[0]
                            acc[1] += w * o[1]
                            acc[2] += w * o[2]
                            acc[3] += w * o[3]
                            continue
                        share = 0.5 if when_m == when_h else 1.0
                        if when_m <= when_h:
                            acc[1 if h + y * when_m < d else 0] += share * w
                        if when_h <= when_m:
                            acc[3 if m + x * when_h < d else 2] += share * w
                table[e][m][h] = (acc[0] / norm, acc[1] / norm, acc[2] / norm, acc[3] / norm)
    start = [(table[0][0][0][k] + table[1][0][0][k]) / 2 for k in range(4)]  # who deals first is as likely
    n = games_to_win
    partie = [[0.0] * n for _ in range(n)]

    def chance(a: int, b: int) -> float:
        return 1.0 if a >= n else 0.0 if b >= n else partie[a][b]

    for a in range(n - 1, -1, -1):
        for b in range(n - 1, -1, -1):
            partie[a][b] = (start[0] * chance(a + 1, b) + start[1] * chance(a + 2, b)
                            + start[2] * chance(a, b + 1) + start[3] * chance(a, b + 2))
    return GameModel(goal, double_below, tuple(tuple(tuple(row) for row in t) for t in table),
                     tuple(tuple(row) for row in partie))


def _reached_at(need: float, first: float, rest: float) -> float:
    """When a player who needs ``need`` gets there: within the first part (0-1), the rest (1-2), or never (3)."""
    if need <= 0:
        return 0.0
    if first >= need:
        return need / first
    if first + rest >= need:
        return 1.0 + (need - first) / rest
    return 3.0


def _score_at(t: float, first: float, rest: float) -> float:
    """A player's points by the moment ``t`` of ``_reached_at``."""
    return first * t if t <= 1.0 else first + rest * (t - 1.0)


class GameJudge:
    """At a game of so many up: what a deal's scores are worth, the chance of winning the partie (p. 20).

    The game's scores before the deal and the games won come from the
    observation's partie (love all without one).  ``judge(mine, theirs,
    first)``: if one player gets to the goal, the game is his, a double if
    the other has not then fifty, and the partie's chance follows from the
    games; else the game goes on from the new scores, the player elder in
    the next deal if he is younger in this one (``GameModel``).
    """

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        if not rules.partie_of_games:
            raise ValueError(f"a partie of {rules.title} is settled in points, not won in games: see Judge")
        self.model = game_model(rules.small_cards_count, rules.line, rules.double_below, rules.games_to_win)
        self.goal = rules.line  # at a game of so many up, the game's goal (p. 20)
        self.double_below = rules.double_below
        game = game_of(obs) or (0, 0)
        me = obs.role
        self.mine, self.his = game[me], game[1 - me]
        p = obs.partie
        if p is None:
            self.games = (0, 0)
        else:
            other = "B" if p.seat == "A" else "A"
            self.games = (p.games.get(p.seat, 0), p.games.get(other, 0))
        self.elder_next = me == YOUNGER  # the deal alternates (Law 16)

    def game_over(self, won: bool, double: bool) -> float:
        """The chance of the partie when this game is won (or lost), a double counting two."""
        a, b = self.games
        return self.model.won(a + 1 + double, b) if won else self.model.won(a, b + 1 + double)

    def goes_on(self, mine: float, theirs: float) -> float:
        """The chance of the partie when the deal ends with these scores and nobody at the goal."""
        return self.model.after(self.mine + mine, self.his + theirs, self.elder_next, self.games)

    def __call__(self, mine: float, theirs: float, first: tuple[float, float] = (0.0, 0.0)) -> float:
        f_m, f_t = min(first[0], mine), min(first[1], theirs)
        at_m = _reached_at(self.goal - self.mine, f_m, mine - f_m)
        at_t = _reached_at(self.goal - self.his, f_t, theirs - f_t)
        if at_m == at_t == 3.0:
            return self.goes_on(mine, theirs)
        won = lost = 0.0
        if at_m <= at_t:
            won = self.game_over(True, self.his + _score_at(at_m, f_t, theirs - f_t) < self.double_below)
        if at_t <= at_m:
            lost = self.game_over(False, self.mine + _score_at(at_t, f_m, mine - f_m) < self.double_below)
        if at_m == at_t:
            return (won + lost) / 2
        return won if at_m < at_t else lost


#: In the last tricks of a deal at a game of so many up the play is searched exactly, the deal stopping at
#: the goal (``race_values``); before them the solver's points are judged (``GameJudge``).
RACE_TRICKS = 4


def race_values(pos: Position, me: int, scored: tuple[int, int], judge: GameJudge) -> dict[Card, float]:
    """Each legal card's worth to ``me`` by exact search of the rest of the play, at a game of so many up.

    ``scored`` is what each role (elder, younger) has scored in the deal so
    far.  Every point is scored as the engine scores it (Laws 65-66, 68-69,
    the counting cards of ``pos``), and the deal stops as soon as a player
    reaches the goal (p. 20): the game is his, a double if the other has not
    fifty, and ``judge`` says what that is worth; a deal played out with
    nobody at the goal is worth ``judge.goes_on``.  Plain minimax over every
    card: meant for the last few tricks (``RACE_TRICKS``).
    """
    goal = judge.goal
    game = (judge.mine, judge.his) if me == ELDER else (judge.his, judge.mine)  # by role
    counting = pos.counting
    memo: dict[tuple[int, ...], float] = {}

    def add(role: int, pts: int, s: tuple[int, int], need: int, play: bool = True
            ) -> tuple[tuple[int, int], int, float | None]:
        """Points to ``role``: the new scores, the pique still needed, and the worth if the goal is reached."""
        if not pts:
            return s, need, None
        if play and role == ELDER and need:  # Laws 68-69: the pique comes with the point that makes thirty
            pts, need = (pts + 30, 0) if pts >= need else (pts, need - pts)
        elif role == YOUNGER:
            need = 0
        t = (s[0] + pts, s[1]) if role == ELDER else (s[0], s[1] + pts)
        if game[role] + t[role] >= goal:
            other = 1 - role
            return t, need, judge.game_over(role == me, game[other] + t[other] < judge.double_below)
        return t, need, None

    def node(h0: Mask, h1: Mask, leader: int, lead: int, t0: int, t1: int, s: tuple[int, int], need: int) -> float:
        key = (h0, h1, leader, lead, t0, t1, *s, need)
        found = memo.get(key)
        if found is None:
            role = leader if lead < 0 else 1 - leader
            hand = h0 if role == ELDER else h1
            if lead >= 0 and hand & SUIT_MASKS[lead >> 3]:
                hand &= SUIT_MASKS[lead >> 3]
            vals = [child(h0, h1, leader, lead, t0, t1, s, need, c) for c in cards_of(hand)]
            found = memo[key] = max(vals) if role == me else min(vals)
        return found

    def child(h0: Mask, h1: Mask, leader: int, lead: int, t0: int, t1: int, s: tuple[int, int], need: int,
              c: Card) -> float:
        role = leader if lead < 0 else 1 - leader
        if role == ELDER:
            h0 &= ~(1 << c)
        else:
            h1 &= ~(1 << c)
        if lead < 0:  # Law 65: one for a counting card led
            s, need, over = add(role, counting >> c & 1, s, need)
            return over if over is not None else node(h0, h1, leader, c, t0, t1, s, need)
        last = not h0 and not h1
        if c >> 3 == lead >> 3 and c > lead:
            winner, pts = role, (counting >> c & 1) + last
        else:
            winner, pts = leader, int(last)
        s, need, over = add(winner, pts, s, need)
        if over is not None:
            return over
        t0, t1 = (t0 + 1, t1) if winner == ELDER else (t0, t1 + 1)
        if not last:
            return node(h0, h1, winner, -1, t0, t1, s, need)
        for r, won in ((ELDER, t0), (YOUNGER, t1)):  # Law 66: the cards, or a capot
            if won > 6:
                s, _, over = add(r, 40 if won == 12 else 10, s, 0, play=False)
                if over is not None:
                    return over
        return judge.goes_on(s[me], s[1 - me])

    h0, h1 = pos.hands
    role = pos.to_play
    hand = pos.hands[role]
    if pos.lead >= 0 and hand & SUIT_MASKS[pos.lead >> 3]:
        hand &= SUIT_MASKS[pos.lead >> 3]
    t0, t1 = pos.tricks_won
    return {c: child(h0, h1, pos.leader, pos.lead, t0, t1, scored, pos.pique_need, c) for c in cards_of(hand)}


# ---------------------------------------------------------------- the player


class SearchPlayer(ElectsToDeal):
    """Monte Carlo search over consistent worlds, with the exact solver for the play."""

    def __init__(self, seed: int | None = None, strength: Strength = FULL) -> None:
        self.rng = random.Random(seed)
        self.strength = strength

    def worlds(self, obs: Observation, n: int) -> list[World]:
        """``n`` worlds consistent with ``obs``, drawn with the strength's prior from the player's generator."""
        return sample_worlds(obs, self.rng, n, prior=self.strength.prior)

    def choose(self, obs: Observation) -> Action:
        p = obs.phase
        if p in _DISCARDS:
            return Discard(self.choose_discard(obs))
        if p in _LOOKS:
            return LookAtLeft(True)
        if p in DECLARING:
            return self.choose_declaration(obs)
        if p == Phase.PLAY:
            return PLAYS[self.choose_card(obs)]
        raise IllegalAction("the deal is over")

    # ------------------------------------------------------------ exchange

    def choose_discard(self, obs: Observation) -> Mask:
        """The candidates (``every_count``: every count's best) tried in every world, or (``exchange_sims``)
        raced by successive halving."""
        s = self.strength
        start = time.process_time()
        elder = obs.role == ELDER
        if s.every_count:
            candidates = discard_shortlist(obs.hand, obs.max_discard, elder, obs.min_discard, s.discards_per_count)
        else:
            candidates = discard_candidates(obs.hand, obs.max_discard, elder, s.discards_per_count, obs.min_discard)
        if len(candidates) == 1:
            return candidates[0]
        worlds = self.worlds(obs, s.exchange_worlds)
        result = ExchangeResult(obs, s.partie_every_deal)
        first = s.first_worlds if s.exchange_sims else len(worlds)  # without a budget: every one in every world
        best = successive_halving(len(candidates), len(worlds), lambda i, j: result(j, worlds[j], candidates[i]),
                                  s.exchange_sims, first, _deadline(start, s.seconds))
        return candidates[best]

    # ------------------------------------------------------------ calls

    def choose_declaration(self, obs: Observation) -> Action:
        category = DECLARING[obs.phase]
        action = obs.lawful(full_declarations(obs.hand)[category])
        if obs.phase not in _ELDER_CALLS or not declaration_of(action):
            return action
        mine = declaration_key(category, declaration_of(action))
        worlds = self.worlds(obs, self.strength.call_worlds)
        if not worlds:
            return action
        score = 0.0
        for w in worlds:
            theirs = declaration_key(category, declaration_of(full_declarations(w.hand(YOUNGER, obs))[category]))
            score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        if score / len(worlds) < _SINK_BELOW:
            return _NOTHING[category]
        return action

    # ------------------------------------------------------------ play

    def choose_card(self, obs: Observation) -> Card:
        legal = cards_of(_playable(obs))
        if len(legal) == 1:
            return legal[0]
        start = time.process_time()
        s = self.strength
        stop = _deadline(start, s.seconds)
        worlds = self.worlds(obs, s.play_worlds)
        me = obs.role
        leader = me if obs.lead < 0 else 1 - me
        judge = Judge.of(obs, s.partie_every_deal)
        so_far = (sum(obs.scores[me]), sum(obs.scores[1 - me]))
        first_lead = obs.trick == 1 and obs.lead < 0
        race = isinstance(judge, GameJudge) and obs.hand.bit_count() <= RACE_TRICKS
        by_role = (sum(obs.scores[ELDER]), sum(obs.scores[YOUNGER]))
        totals = dict.fromkeys(legal, 0.0)
        seen: list[tuple[Position, dict[Card, float]]] = []  # for ``own_next``
        for w in worlds:
            if stop is not None and w is not worlds[0] and stop():
                break  # the safety cut: the worlds seen so far decide
            hands = [0, 0]
            hands[me] = obs.hand
            hands[1 - me] = w.hand(1 - me, obs)
            scored = so_far
            if first_lead and (isinstance(judge, GameJudge) or (s.reckon_first and judge is not None)):
                # The hands are reckoned after the first lead is named (Law 67): their scores come first.
                elder, younger, pos = hand_scores_and_play(rebuild(obs, w))
                scored = (elder, younger)
            else:
                need = pique_need(obs, hands[YOUNGER])
                pos = Position((hands[0], hands[1]), leader, obs.lead, obs.tricks_won, need, obs.rules.counting_cards)
            if race:
                assert isinstance(judge, GameJudge)
                for c, v in race_values(pos, me, by_role, judge).items():
                    totals[c] += v
                continue
            diff = card_values(pos)
            if judge is None:
                for c in legal:
                    totals[c] += diff[c]
                if s.own_next:
                    seen.append((pos, dict.fromkeys(legal, 1.0)))
                continue
            gain = card_values(pos, (1, 0))
            for c in legal:
                totals[c] += judge(scored[0] + gain[c], scored[1] + gain[c] - diff[c], scored)
            if s.own_next:
                seen.append((pos, _slope(judge, scored, gain, diff)))
        if s.own_next and not race and obs.hand.bit_count() > 2 and len(seen) > 1:
            best = sorted(legal, key=lambda c: (-totals[c], c))[:s.own_next]
            return max(best, key=lambda c: (totals[c] - fusion_regret(seen, c), -c))
        return max(legal, key=lambda c: (totals[c], -c))


def _slope(judge: DealJudge, scored: tuple[int, int], gain: dict[Card, int], diff: dict[Card, int]
           ) -> dict[Card, float]:
    """What a point of the difference is worth to ``judge`` at each card's result (a finite difference)."""
    out = {}
    for c, d in diff.items():
        mine, theirs = scored[0] + gain[c], scored[1] + gain[c] - d
        out[c] = (judge(mine + 5, theirs - 5, scored) - judge(mine - 5, theirs + 5, scored)) / 20
    return out


def after_card(pos: Position, c: Card) -> Position | None:
    """The position once ``c`` is played (Law 65's points counted against the pique still live), or None at the
    end of the play."""
    role = pos.to_play
    hands = (pos.hands[0] & ~(1 << c), pos.hands[1]) if role == ELDER else (pos.hands[0], pos.hands[1] & ~(1 << c))
    need = pos.pique_need
    if pos.lead < 0:
        winner, pts, leader, lead, won = role, pos.counting >> c & 1, pos.leader, c, pos.tricks_won
    else:
        if not hands[0] and not hands[1]:
            return None
        lead = pos.lead
        winner = role if c >> 3 == lead >> 3 and c > lead else pos.leader
        pts = pos.counting >> c & 1 if winner == role else 0
        leader, lead = winner, -1
        won = (pos.tricks_won[0] + 1, pos.tricks_won[1]) if winner == ELDER else (pos.tricks_won[0],
                                                                                  pos.tricks_won[1] + 1)
    if pts and need:
        need = 0 if winner == YOUNGER or pts >= need else need - pts
    return Position(hands, leader, lead, won, need, pos.counting)


def fusion_regret(seen: list[tuple[Position, dict[Card, float]]], c: Card) -> float:
    """What perfect-information sampling overvalues ``c`` by at the player's next card (strategy fusion).

    In each world (its position, the solver's values of its cards, and what a
    point is worth there) ``c`` is played, and the adversary answers as the
    solver would, until the player is to play again.  The sampled search gives
    him his best card in each world apart; but he cannot tell apart the worlds
    in which the adversary played the same cards, and must play one card in
    all of them.  For each such set, the card losing least over its worlds
    (in the solver's points, each world's loss weighed by its worth of a
    point) is his, and the loss is the regret.  By the telescoping of the
    solver's values, the result of the player's card in a world is the
    sampled value of ``c`` less that card's shortfall from his best there
    (Furtak and Buro's imperfect-information Monte Carlo, one card deep).
    """
    groups: dict[tuple[Card, ...], list[tuple[dict[Card, int], float]]] = {}
    for pos, slope in seen:
        me = pos.to_play
        nxt = after_card(pos, c)
        seq: list[Card] = []
        while nxt is not None and nxt.to_play != me:
            theirs = card_values(nxt)
            r = max(theirs, key=lambda x: (theirs[x], -x))
            seq.append(r)
            nxt = after_card(nxt, r)
        if nxt is None:
            continue
        groups.setdefault(tuple(seq), []).append((card_values(nxt), slope[c]))
    regret = 0.0
    for members in groups.values():
        if len(members) < 2:
            continue
        cards = members[0][0].keys()
        loss = {c2: sum(k * (max(v.values()) - v[c2]) for v, k in members) for c2 in cards}
        regret += min(loss.values())
    return regret


def _playable(obs: Observation) -> Mask:
    if obs.lead >= 0 and obs.hand & SUIT_MASKS[obs.lead >> 3]:
        return obs.hand & SUIT_MASKS[obs.lead >> 3]
    return obs.hand


def fast_player(seed: int | None = None) -> SearchPlayer:
    return SearchPlayer(seed, FAST)


def full_player(seed: int | None = None) -> SearchPlayer:
    return SearchPlayer(seed, FULL)


def deep_player(seed: int | None = None) -> SearchPlayer:
    return SearchPlayer(seed, DEEP)


__all__ = [
    "DEAL_SCORES", "DEEP", "FAST", "FULL", "RACE_TRICKS", "TRIED", "WITHOUT", "DealJudge", "ExchangeResult",
    "GameJudge", "GameModel", "Judge", "SearchPlayer", "Strength", "after_card", "deep_player", "discard_candidates",
    "discard_shortlist", "fast_player", "full_player", "fusion_regret", "game_model", "greedy_discard",
    "hand_scores_and_play", "last_deal", "pique_need", "race_values", "settlement_value", "simulate_exchange",
    "successive_halving",
]
