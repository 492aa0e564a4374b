"""The search player: Monte Carlo over the deals consistent with what it has seen.

It reads its observation only.  For each decision it samples deals that agree
with everything it knows (``piquet.worlds``) and looks at each with the exact
double-dummy solver (``piquet.solver``):

- **The exchange** (Laws 21-22): a short list of sensible discards (the best
  cards to keep, for each number it might take in), each played out in the
  same sampled worlds: the cards it would take, the adversary's exchange,
  every declaration, and the play solved with both hands open.  The discard
  with the best mean result is chosen.
- **Calls** (Laws 45-57): it declares everything, unless a category cannot
  win in any world it samples: then it sinks it, since calling it would score
  nothing and tell the adversary what it holds (p. 162-165).
- **Play** (Law 59): every legal card is valued in each sampled world by the
  solver (points in play, the cards, a pique still live) and the card with the
  best mean is played.
- **The score of the partie**: in the last deal the points are weighed by what
  they do to the settlement (Laws 72-73), so crossing or holding the rubicon
  line counts for what it is worth.

Sampling uses the player's own seeded generator, so a seed gives the same
choices again.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from .actions import PLAYS, Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft
from .cards import SUIT_MASKS, Card, Mask, cards_of
from .deal import Deal, IllegalAction, Phase, declaration_key, declaration_of, full_declarations
from .events import CALL_POINT, CALL_SEQUENCE, CALL_SET, ELDER, REPLY, YOUNGER
from .observation import Observation, first_card
from .players import DECLARING, keep_value
from .rules import rules_named
from .solver import Position, card_values, value
from .worlds import World, sample_worlds


@dataclass(frozen=True)
class Strength:
    """How much a search player looks at: worlds per card, discards tried, worlds per discard."""

    name: str
    play_worlds: int
    discards_per_count: int
    exchange_worlds: int
    call_worlds: int = 24


FAST = Strength("search-fast", play_worlds=6, discards_per_count=2, exchange_worlds=6)
FULL = Strength("search", play_worlds=20, discards_per_count=4, exchange_worlds=16)

_DISCARDS = (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD)
_LOOKS = (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK)
_ELDER_CALLS = {Phase.ELDER_POINT: 0, Phase.ELDER_SEQUENCES: 1, Phase.ELDER_SETS: 2}
_CALL_KINDS = (CALL_POINT, CALL_SEQUENCE, CALL_SET)
#: Declaring nothing in each category: sinking it whole.
_NOTHING: tuple[Action, ...] = (DeclarePoint(0), DeclareSequences(()), DeclareSets(()))
#: Below this chance of being good (or half of being equal), a call is sunk.
_SINK_BELOW = 0.02


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
            deal.apply(full_declarations(deal.hands[role])[DECLARING[p]])


def hand_scores_and_play(deal: Deal) -> tuple[int, int, Position]:
    """From the elder's first lead: what each scores for his hand, and the position of the play.

    The younger's reckoning waits for the elder's first lead (Law 67); it is
    taken here with a card led and then taken back, so the totals are the
    hands' scores alone and the pique still live is known (Law 68).
    """
    assert deal.phase == Phase.PLAY and deal.trick == 1 and deal.lead < 0
    hands = (deal.hands[0], deal.hands[1])
    mark = len(deal.history)
    deal.apply(PLAYS[first_card(hands[ELDER])])
    _declare_all(deal)
    elder = deal.total(ELDER) - 1  # less the point of the lead
    younger = deal.total(YOUNGER)
    while len(deal.history) > mark:
        deal.undo()
    need = 30 - elder if younger == 0 and elder < 30 else 0
    return elder, younger, Position(hands, ELDER, pique_need=need)


def simulate_exchange(world: World, role: int, discard: Mask, younger_discard: Mask | None = None,
                      judge: Judge | None = None) -> float:
    """The result for ``role`` of discarding ``discard`` in ``world``: hands scored, play solved open.

    The adversary's exchange is the world's (an elder's discard already made)
    or, for the younger after this elder, ``younger_discard`` or a quick
    sensible one of all the cards he may take (``greedy_discard``).  The
    result is the difference of the deal's scores, or what ``judge`` makes of
    the two scores.
    """
    deal = Deal(world.dealt[ELDER], world.dealt[YOUNGER], world.stock)
    deal.apply(Discard(discard if role == ELDER else world.discards[ELDER]))
    if deal.phase == Phase.ELDER_LOOK:
        deal.apply(LookAtLeft(True))
    if role == YOUNGER:
        deal.apply(Discard(discard))
    else:
        most = deal.max_discard(YOUNGER)
        if younger_discard is None or younger_discard.bit_count() != most:
            younger_discard = greedy_discard(deal.hands[YOUNGER], most, False)
        deal.apply(Discard(younger_discard))
    _declare_all(deal)
    elder, younger, pos = hand_scores_and_play(deal)
    diff = value(pos)
    if judge is None:
        net = elder - younger + diff
        return net if role == ELDER else -net
    gain = value(pos, (1, 0))  # what the elder makes for himself in play; the younger makes the rest of the difference
    scored = (elder + gain, younger + gain - diff)
    return judge(scored[role], scored[1 - role])


def discard_candidates(hand: Mask, most: int, elder: bool, per_count: int) -> list[Mask]:
    """The best discards by the value of what is kept, ``per_count`` of them for each number of cards.

    The elder tries taking five, four and three; the younger all he may and one fewer (p. 119).
    """
    counts = range(most, max(0, most - (3 if elder else 2)), -1)
    cards = cards_of(hand)
    out: list[Mask] = []
    for n in counts:
        scored = sorted(((keep_value(hand & ~m, elder), m) for m in _masks(cards, n)), key=lambda t: (-t[0], t[1]))
        out.extend(m for _, m in scored[:per_count])
    return out


def _masks(cards: list[Card], n: int) -> Iterator[Mask]:
    for combo in combinations(cards, n):
        m = 0
        for c in combo:
            m |= 1 << c
        yield m


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
        if any(e.kind == REPLY and e.value == 2 for e in obs.events):
            return 0
        called = {e.kind for e in obs.events if e.role == ELDER}
        uncalled = [c for c, kind in enumerate(_CALL_KINDS) if kind not in called]
        if uncalled and younger_hand is None:
            return 0
        if younger_hand is not None:
            full = full_declarations(younger_hand)
            if any(declaration_of(full[c]) for c in uncalled):
                return 0
    return 30 - elder


def settlement_value(me: int, them: int, rules_name: str) -> int:
    """What a partie ending ``me`` to ``them`` is worth to me (Laws 72-73; a tie counts nothing)."""
    rules = rules_named(rules_name)
    s = rules.settle({"A": me, "B": them})
    if s.winner is None or s.points_won is None:
        return 0
    return s.points_won if s.winner == "A" else -s.points_won


def last_deal(obs: Observation) -> bool:
    p = obs.partie
    return p is not None and p.deal_number >= p.deals_in_partie


class Judge:
    """What a deal's scores are worth in the last deal of a partie: the settlement they lead to (Laws 72-73).

    ``judge(mine, theirs)`` takes the points the player and his adversary
    score in the whole deal (so far and to come) and returns what the partie
    is then worth to the player.
    """

    def __init__(self, obs: Observation) -> None:
        p = obs.partie
        assert p is not None
        other = "B" if p.seat == "A" else "A"
        self.rules = p.rules
        self.multiplier = p.multiplier
        self.me = p.scores.get(p.seat, 0)
        self.them = p.scores.get(other, 0)

    def __call__(self, mine: int, theirs: int) -> float:
        m = self.multiplier
        return settlement_value(self.me + m * mine, self.them + m * theirs, self.rules)

    @staticmethod
    def of(obs: Observation) -> Judge | None:
        """A judge in the last deal of a partie; ``None`` elsewhere (then points are points)."""
        return Judge(obs) if last_deal(obs) else None


# ---------------------------------------------------------------- the player


class SearchPlayer:
    """Monte Carlo search over consistent worlds, with the exact solver for the play."""

    def __init__(self, seed: int | None = None, strength: Strength = FULL) -> None:
        self.rng = random.Random(seed)
        self.strength = strength

    def choose_deal(self, won_cut: bool) -> bool:
        """"The player who cuts the higher card should elect to deal" (p. 108)."""
        return True

    def deal_by(self) -> int:
        return 2

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
        elder = obs.role == ELDER
        s = self.strength
        candidates = discard_candidates(obs.hand, obs.max_discard, elder, s.discards_per_count)
        if len(candidates) == 1:
            return candidates[0]
        worlds = sample_worlds(obs, self.rng, s.exchange_worlds)
        judge = Judge.of(obs)
        totals = [0.0] * len(candidates)
        for w in worlds:
            # The younger's discard depends on his cards and how many he may take, not on which the elder put out.
            theirs: dict[int, Mask] = {}
            for i, d in enumerate(candidates):
                most = 8 - d.bit_count()
                if not elder:
                    theirs[most] = 0
                elif most not in theirs:
                    theirs[most] = greedy_discard(w.dealt[YOUNGER], most, False)
                totals[i] += simulate_exchange(w, obs.role, d, theirs[most] or None, judge)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    # ------------------------------------------------------------ calls

    def choose_declaration(self, obs: Observation) -> Action:
        category = DECLARING[obs.phase]
        action = full_declarations(obs.hand)[category]
        if obs.phase not in _ELDER_CALLS or not declaration_of(action):
            return action
        mine = declaration_key(category, declaration_of(action))
        worlds = sample_worlds(obs, self.rng, self.strength.call_worlds)
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
        worlds = sample_worlds(obs, self.rng, self.strength.play_worlds)
        me = obs.role
        leader = me if obs.lead < 0 else 1 - me
        judge = Judge.of(obs)
        so_far = (sum(obs.scores[me]), sum(obs.scores[1 - me]))
        totals = dict.fromkeys(legal, 0.0)
        for w in worlds:
            hands = [0, 0]
            hands[me] = obs.hand
            hands[1 - me] = w.hand(1 - me, obs)
            need = pique_need(obs, hands[YOUNGER])
            pos = Position((hands[0], hands[1]), leader, obs.lead, obs.tricks_won, need)
            diff = card_values(pos)
            if judge is None:
                for c in legal:
                    totals[c] += diff[c]
                continue
            gain = card_values(pos, (1, 0))
            for c in legal:
                totals[c] += judge(so_far[0] + gain[c], so_far[1] + gain[c] - diff[c])
        return max(legal, key=lambda c: (totals[c], -c))


def _playable(obs: Observation) -> Mask:
    if obs.lead >= 0 and obs.hand & SUIT_MASKS[obs.lead >> 3]:
        return obs.hand & SUIT_MASKS[obs.lead >> 3]
    return obs.hand


def fast_player(seed: int | None = None) -> SearchPlayer:
    return SearchPlayer(seed, FAST)


def full_player(seed: int | None = None) -> SearchPlayer:
    return SearchPlayer(seed, FULL)


__all__ = [
    "FAST", "FULL", "SearchPlayer", "Strength", "discard_candidates", "fast_player", "full_player", "greedy_discard",
    "hand_scores_and_play", "pique_need", "settlement_value", "simulate_exchange",
]
