"""The worlds a player cannot tell from the true deal: consistency, rebuilding, sampling.

Random deals are played through, and at every decision point each player's
observation is given to the sampler; every world it draws must be rebuilt
into a deal observed exactly as the observation (``rebuild`` replays it
through the engine), the true deal must never be excluded, and the
adversary's hand in each world is checked against the log by a reckoning
written here, apart from ``worlds.py``: his shown cards not yet played are
in it, none of the cards he cannot hold is, nor a card of a suit he showed
void in.  Uniformity is checked by enumerating every hand of a small case,
and the facts named in the laws by deals made for them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from itertools import combinations
from math import comb, sqrt

import pytest

from piquet import Deal, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Phase, Play, observe
from piquet.core.actions import Action
from piquet.core.cards import COURT_CARDS, FULL_PACK, SUIT_MASKS, CardSet, Mask, cards_of, parse_card, parse_cards
from piquet.core.combinations import point_key
from piquet.core.deal import full_declarations
from piquet.core.events import YOUNGER, Look, Score, Show
from piquet.core.events import Play as PlayEvent
from piquet.core.observation import Observation
from piquet.players.base import Player, RandomPlayer, SimplePlayer
from piquet.players.worlds import Knowledge, World, consistent, discard_likelihood, rebuild, sample_worlds

E, Y = 0, 1
DECLARING = {
    Phase.ELDER_POINT: (0, E), Phase.YOUNGER_POINT: (0, Y), Phase.ELDER_SEQUENCES: (1, E),
    Phase.YOUNGER_SEQUENCES: (1, Y), Phase.ELDER_SETS: (2, E), Phase.YOUNGER_SETS: (2, Y),
    Phase.YOUNGER_RECKON_POINT: (0, Y), Phase.YOUNGER_RECKON_SEQUENCES: (1, Y), Phase.YOUNGER_RECKON_SETS: (2, Y),
}


def cs(text: str) -> Mask:
    return CardSet.parse(text).mask


def true_world(deal: Deal) -> World:
    return World(deal.dealt, deal.stock, (deal.discards[0], deal.discards[1]))


def same(a: Observation, b: Observation) -> bool:
    return replace(a, partie=None) == replace(b, partie=None)


# ---------------------------------------------------------------- an independent reckoning of the log


def adversary_facts(obs: Observation) -> tuple[Mask, Mask, Mask]:
    """(cards he must hold now, cards he cannot hold now, suits he is void in), read from the log here."""
    adv = 1 - obs.role
    played = obs.played()
    shown = 0
    left_public = 0
    for e in obs.events:
        if e.role == adv and (type(e) is Show or (type(e) is Score and e.component != 0)):
            shown |= e.revealed
        if type(e) is Look and e.role == YOUNGER:
            left_public |= e.cards
    cannot = obs.hand | obs.discard | played | left_public
    voids = 0
    lead = -1
    for e in obs.events:
        if type(e) is not PlayEvent:
            continue
        c = e.card
        if lead < 0:
            lead = c
            continue
        if e.role == adv and c >> 3 != lead >> 3:
            voids |= SUIT_MASKS[lead >> 3]
        lead = -1
    return shown & ~played, cannot, voids


def check_hand(obs: Observation, world: World) -> None:
    adv = 1 - obs.role
    must, cannot, voids = adversary_facts(obs)
    hand = world.hand(adv, obs)
    assert world.hand(obs.role, obs) == obs.hand
    assert hand.bit_count() == 12 - obs.played(adv).bit_count()
    assert must & ~hand == 0, "a card he showed and has not played is missing"
    assert hand & cannot == 0, "he holds a card he cannot hold"
    assert hand & voids == 0, "he holds a card of a suit he showed void in"


def declares_in_full(obs: Observation, world: World) -> bool:
    """Replay the world with the adversary declaring everything he holds: are the events the same?

    Of two suits making the same point either is all he holds of it: the one rebuilt is kept then.
    """
    adv = 1 - obs.role
    history = rebuild(obs, world).history
    deal = Deal(world.dealt[0], world.dealt[1], world.stock)
    for action in history:
        spot = DECLARING.get(deal.phase)
        if spot is not None and spot[1] == adv:
            hand = deal.hands[adv]
            full = full_declarations(hand)[spot[0]]
            whole_suit = isinstance(action, DeclarePoint) and any(
                action.cards == hand & SUIT_MASKS[s] for s in range(4))
            if not (whole_suit and isinstance(full, DeclarePoint) and isinstance(action, DeclarePoint)
                    and point_key(action.cards) == point_key(full.cards)):
                action = full
        deal.apply(action)
    return tuple(deal.events) == obs.events


# ---------------------------------------------------------------- random deals


def walk(deal: Deal, players: tuple[Player, Player], visit: Callable[[Deal, Observation], None]) -> None:
    """Play the deal through, visiting both players' observations at every decision point and at the end."""
    while True:
        for role in (E, Y):
            visit(deal, observe(deal, role))
        if deal.is_over:
            return
        role = deal.to_move or 0
        deal.apply(players[role].choose(observe(deal, role)))


def check_point(deal: Deal, obs: Observation, rng: random.Random, full: bool, n: int = 2) -> None:
    truth = true_world(deal)
    assert consistent(obs, truth), "the true deal was excluded"
    assert Knowledge.of(obs).admits(truth)
    if full:
        assert consistent(obs, truth, honest=True), "the true deal of full declarations was excluded"
    for honest in (True, False):
        for w in sample_worlds(obs, rng, n, honest=honest):
            assert consistent(obs, w)
            assert same(observe(rebuild(obs, w), obs.role), obs)
            check_hand(obs, w)
            if honest and full:
                # The true deal is honest, so the honest worlds are not empty: no fallback.
                assert consistent(obs, w, honest=True)
                assert declares_in_full(obs, w)


@pytest.mark.parametrize("kind", ["simple", "random", "mixed"])
@pytest.mark.slow
def test_sampled_worlds_agree_with_every_observation(kind: str) -> None:
    deals = {"simple": 14, "random": 14, "mixed": 8}[kind]
    for seed in range(deals):
        rng = random.Random(seed)
        deal = Deal.shuffled(rng, by=2 + seed % 2)
        players: tuple[Player, Player]
        if kind == "simple":
            players = (SimplePlayer(), SimplePlayer())
        elif kind == "random":
            players = (RandomPlayer(seed), RandomPlayer(seed + 100))
        else:
            players = (SimplePlayer(), RandomPlayer(seed)) if seed % 2 else (RandomPlayer(seed), SimplePlayer())
        walk(deal, players, partial(check_point, rng=rng, full=kind == "simple"))


def carte_blanche_deal(younger: bool, seed: int) -> Deal:
    blanche = cs("AS 10S 9S 8S AH 10H 9H 8H AC 10C 9C 8C")
    rest = [c for c in range(32) if not blanche >> c & 1]
    random.Random(seed).shuffle(rest)
    other = sum(1 << c for c in rest[:12])
    stock = rest[12:]
    return Deal(other, blanche, stock) if younger else Deal(blanche, other, stock)


@pytest.mark.parametrize("younger", [False, True])
@pytest.mark.slow
def test_carte_blanche_shown_and_announced(younger: bool) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        players = (SimplePlayer(), RandomPlayer(seed)) if seed % 2 else (RandomPlayer(seed), SimplePlayer())
        walk(carte_blanche_deal(younger, seed), players, partial(check_point, rng=rng, full=False, n=4))


@pytest.mark.slow
def test_direct_check_agrees_with_replay() -> None:
    """``Knowledge.admits`` reads the facts off the log; ``consistent`` replays: they must agree."""
    agree = Counter[bool]()
    for seed in range(8):
        rng = random.Random(seed)
        players = (RandomPlayer(seed), RandomPlayer(seed + 7)) if seed % 2 else (SimplePlayer(), SimplePlayer())

        def visit(deal: Deal, obs: Observation, rng: random.Random = rng) -> None:
            k = Knowledge.of(obs)
            adv = 1 - obs.role
            for w in sample_worlds(obs, rng, 2, honest=False):
                # Swap a card of the adversary's with one of the stock, or with one of his discard.
                dealt = list(w.dealt)
                stock = list(w.stock)
                i = rng.randrange(8)
                a = rng.choice(cards_of(dealt[adv]))
                dealt[adv] = dealt[adv] & ~(1 << a) | 1 << stock[i]
                stock[i] = a
                discards = list(w.discards)
                if discards[adv] and not discards[adv] >> a & 1:
                    discards[adv] = discards[adv] & ~(discards[adv] & -discards[adv]) | 1 << stock[i]
                for cand in (w, World((dealt[0], dealt[1]), tuple(stock), (discards[0], discards[1]))):
                    replayed = consistent(obs, cand)
                    assert k.admits(cand) == replayed
                    agree[replayed] += 1
                    if replayed:
                        assert k.admits(cand, honest=True) == consistent(obs, cand, honest=True)

        walk(Deal.shuffled(rng), players, visit)
    assert agree[True] and agree[False]


# ---------------------------------------------------------------- uniformity


def split_weight(hand: Mask, rest: int, x: int, rest_court: int) -> int:
    """Worlds with this hand: ways to choose what he took in and what he put out, with a court card dealt."""
    total = comb(12, x) * comb(rest, x)
    court = (hand & COURT_CARDS).bit_count()
    no_court = comb(12 - court, x - court) * comb(rest - rest_court, x) if court <= x else 0
    return total - no_court


def world_for(obs: Observation, hand: Mask, x: int) -> World:
    """A world in which the adversary holds ``hand`` after taking in ``x`` cards, with a court card dealt if any."""
    look = sum(e.cards for e in obs.events if type(e) is Look)
    pool = FULL_PACK & ~obs.dealt & ~obs.taken & ~look
    by_court = sorted(cards_of(hand), key=lambda c: bool(COURT_CARDS >> c & 1))
    taken = sum(1 << c for c in by_court[:x])
    rest = sorted(cards_of(pool & ~hand), key=lambda c: not COURT_CARDS >> c & 1)
    discard = sum(1 << c for c in rest[:x])
    left = [c for c in rest[x:]] + cards_of(look)
    if obs.role == E:
        stock = cards_of(obs.taken) + cards_of(taken) + left
        return World((obs.dealt, hand & ~taken | discard), tuple(stock), (obs.discard, discard))
    stock = cards_of(taken) + cards_of(obs.taken) + left
    return World((hand & ~taken | discard, obs.dealt), tuple(stock), (discard, obs.discard))


def observation_at(seed: int, role: int, phase: Phase) -> Observation:
    deal = Deal.shuffled(random.Random(seed))
    players = (SimplePlayer(), SimplePlayer())
    while deal.phase != phase:
        r = deal.to_move or 0
        deal.apply(players[r].choose(observe(deal, r)))
    return observe(deal, role)


def chi_square(seen: Counter[object], expected: dict[object, float]) -> tuple[float, int]:
    big = [k for k, v in expected.items() if v >= 5]
    chi = sum((seen[k] - expected[k]) ** 2 / expected[k] for k in big)
    other_e = sum(v for k, v in expected.items() if v < 5)
    other_s = sum(v for k, v in seen.items() if k not in big)
    if other_e >= 5:
        chi += (other_s - other_e) ** 2 / other_e
        return chi, len(big)
    assert other_s <= 3 * other_e + 10
    return chi, len(big) - 1


@pytest.mark.parametrize(("role", "honest"), [(Y, False), (Y, True), (E, False), (E, True)])
def test_uniform_over_the_consistent_hands(role: int, honest: bool) -> None:
    """A point called and not good, before the calling goes on: every hand counted, then sampled."""
    obs = observation_at(0, role, Phase.ELDER_SEQUENCES)
    adv = 1 - role
    x = obs.exchanged(adv)
    assert x is not None
    look = sum(e.cards for e in obs.events if type(e) is Look)
    pool = FULL_PACK & ~obs.dealt & ~obs.taken & ~look
    assert not obs.seen_left  # the split below assumes no card seen left in the stock
    weights: dict[Mask, int] = {}
    for combo in combinations(cards_of(pool), 12):
        hand = sum(1 << c for c in combo)
        rest = pool & ~hand
        w = split_weight(hand, rest.bit_count(), x, (rest & COURT_CARDS).bit_count())
        if w and Knowledge.of(obs).admits(world_for(obs, hand, x), honest=honest):
            weights[hand] = w
    assert 20 < len(weights) < comb(pool.bit_count(), 12)
    for hand in list(weights)[:40]:  # the direct check agrees with the replay on these
        assert consistent(obs, world_for(obs, hand, x), honest=honest)

    def stat(hand: Mask) -> tuple[int, ...]:
        return tuple(sorted((hand & SUIT_MASKS[s]).bit_count() for s in range(4)))

    n = 3000
    total = sum(weights.values())
    expected: dict[object, float] = {}
    for hand, w in weights.items():
        expected[stat(hand)] = expected.get(stat(hand), 0.0) + n * w / total
    seen = Counter[object](stat(w.held(adv, obs)) for w in sample_worlds(obs, random.Random(5), n, honest=honest))
    chi, df = chi_square(seen, expected)
    assert chi < df + 6 * sqrt(2 * df) + 10, (chi, df, seen, expected)
    # And by the cards: each card's frequency in his hand.
    hands = [w.held(adv, obs) for w in sample_worlds(obs, random.Random(6), n, honest=honest)]
    for c in cards_of(pool):
        p = sum(w for h, w in weights.items() if h >> c & 1) / total
        got = sum(1 for h in hands if h >> c & 1) / n
        assert abs(got - p) < 5 * sqrt(p * (1 - p) / n) + 1e-9, (c, got, p)


def test_uniform_before_the_exchange() -> None:
    """The elder deciding his discard: the younger's twelve are any twelve of the twenty unseen, with a court card."""
    deal = Deal.shuffled(random.Random(11))
    obs = observe(deal, E)
    unseen = FULL_PACK & ~obs.dealt
    hearts = unseen & SUIT_MASKS[1]
    expected: dict[object, float] = {}
    count = 0
    for combo in combinations(cards_of(unseen), 12):
        hand = sum(1 << c for c in combo)
        if hand & COURT_CARDS:
            key = (hand & hearts).bit_count()
            expected[key] = expected.get(key, 0) + 1
            count += 1
    n = 3000
    expected = {k: n * v / count for k, v in expected.items()}
    worlds = sample_worlds(obs, random.Random(2), n)
    seen = Counter[object]((w.dealt[Y] & hearts).bit_count() for w in worlds)
    chi, df = chi_square(seen, expected)
    assert chi < df + 6 * sqrt(2 * df) + 10
    assert all(w.dealt[Y] & ~unseen == 0 and len(set(w.stock)) == 8 for w in worlds)


# ---------------------------------------------------------------- facts named by the laws


def play_through(deal: Deal, actions: list[Action]) -> None:
    for a in actions:
        deal.apply(a)


def point_deal() -> Deal:
    """The elder has five hearts; the younger six spades: "Five cards." "Not good." (Law 46)."""
    elder = cs("AH KH QH JH 9H AC KC QC 7D 8D 9D 7C")
    younger = cs("AS KS QS JS 10S 9S KD QD 10H 8C 9C 10C")
    stock = parse_cards("AD JD 8H 7H 8S 7S JC 10D")
    deal = Deal(elder, younger, stock)
    play_through(deal, [Discard(cs("7D 8D")), LookAtLeft(False), Discard(cs("8C"))])
    return deal


def test_a_point_not_good_is_held() -> None:
    deal = point_deal()
    deal.apply(DeclarePoint(cs("AH KH QH JH 9H")))
    deal.apply(DeclarePoint(cs("AS KS QS JS 10S 9S")))
    obs = observe(deal, E)
    assert obs.phase == Phase.ELDER_SEQUENCES
    k = Knowledge.of(obs)
    assert k.point_at_least == 6
    for honest in (False, True):
        worlds = sample_worlds(obs, random.Random(1), 200, honest=honest)
        for w in worlds:
            hand = w.held(Y, obs)
            assert max((hand & SUIT_MASKS[s]).bit_count() for s in range(4)) >= 6
            assert consistent(obs, w)
        # Spades are the only suit he can hold six of; but not always the same six (Law 46).
        assert all((w.held(Y, obs) & SUIT_MASKS[0]).bit_count() >= 6 for w in worlds)
        assert len({w.held(Y, obs) & SUIT_MASKS[0] for w in worlds}) > 1
    # The younger who declared only five clubs would have replied "What do they make?": not this world.
    assert consistent(obs, true_world(deal))


def trio_deal(declare_all: bool) -> Deal:
    """The younger scores a trio of kings; the fourth king is in his discard, or in his hand and sunk."""
    elder = cs("AH QH JH 9H 8H AC QC 7D 8D 9D 7C 7S")
    younger = cs("KS KH KC AS QS JS 10S QD 10D 8C 9C KD")
    stock = parse_cards("JD JC 10C AD 10H 7H 8S 9S")
    deal = Deal(elder, younger, stock)
    keep_king = not declare_all
    play_through(deal, [Discard(cs("7D 8D 9D 7C 7S")), Discard(cs("8C 9C" if keep_king else "KD 8C 9C"))])
    hand = deal.hands[Y]
    assert (hand >> parse_card("KD") & 1) == keep_king
    play_through(deal, [full_declarations(deal.hands[E])[0], full_declarations(hand)[0],
                        DeclareSequences(()), DeclareSets(()), Play(parse_card("AH"))])
    # The younger reckons his sequences and his trio (p. 93): three kings only.
    play_through(deal, [full_declarations(hand)[1], DeclareSets((cs("KS KH KC"),))])
    if deal.phase == Phase.YOUNGER_LOOK:
        deal.apply(LookAtLeft(False))
    return deal


def test_a_trio_without_its_fourth_card() -> None:
    deal = trio_deal(declare_all=True)
    obs = observe(deal, E)
    kd = 1 << parse_card("KD")
    assert consistent(obs, true_world(deal), honest=True)
    honest = sample_worlds(obs, random.Random(3), 300, honest=True)
    assert all(not w.held(Y, obs) & kd for w in honest), "he showed three kings and declared all he held"
    lawful = sample_worlds(obs, random.Random(3), 300, honest=False)
    assert any(w.held(Y, obs) & kd for w in lawful), "a trio may be reckoned out of a quatorze (p. 92)"
    assert all(w.held(Y, obs) & cs("KS KH KC") == cs("KS KH KC") for w in lawful)


def test_sinking_found_out_falls_back_to_the_lawful_worlds() -> None:
    deal = trio_deal(declare_all=False)  # he holds the fourth king and declares a trio
    # Play on until the younger plays his diamond king.
    kd = Play(parse_card("KD"))
    while kd not in deal.history:
        legal = list(deal.legal_actions())
        deal.apply(kd if deal.to_move == Y and kd in legal else legal[0])
    obs = observe(deal, E)
    truth = true_world(deal)
    assert consistent(obs, truth) and not consistent(obs, truth, honest=True)
    worlds = sample_worlds(obs, random.Random(4), 20, honest=True)
    assert len(worlds) == 20 and all(consistent(obs, w) for w in worlds)


def test_a_void_shown_in_play() -> None:
    for seed in range(40):
        deal = Deal.shuffled(random.Random(seed))
        players = (SimplePlayer(), SimplePlayer())
        while not deal.is_over:
            r = deal.to_move or 0
            deal.apply(players[r].choose(observe(deal, r)))
            plays = [e for e in deal.events if type(e) is PlayEvent]
            if isinstance(deal.history[-1], Play) and deal.lead < 0 and r == E:
                led = plays[-2].card
                if not 1 << plays[-1].card & SUIT_MASKS[led >> 3]:
                    obs = observe(deal, Y)
                    assert Knowledge.of(obs).voids & SUIT_MASKS[led >> 3]
                    for honest in (True, False):
                        for w in sample_worlds(obs, random.Random(seed), 100, honest=honest):
                            assert not w.hand(E, obs) & SUIT_MASKS[led >> 3]
                    return
    pytest.fail("no void shown in forty deals")


def test_discard_prior_favours_likely_discards() -> None:
    deal = Deal.shuffled(random.Random(21))
    players = (SimplePlayer(), SimplePlayer())
    deal.apply(players[E].choose(observe(deal, E)))
    if deal.phase == Phase.ELDER_LOOK:
        deal.apply(LookAtLeft(False))
    obs = observe(deal, Y)  # the younger deciding his discard: the elder's is drawn from the model itself
    rng = random.Random(1)
    for when in (obs, None):
        if when is None:
            deal.apply(players[Y].choose(obs))
            when = observe(deal, Y)
        uniform = sample_worlds(when, rng, 300, prior="uniform")
        likely = sample_worlds(when, rng, 300, prior="discard")
        assert all(consistent(when, w) for w in likely[:30])

        def mean(ws: list[World]) -> float:
            return sum(discard_likelihood(w.dealt[E], w.discards[E]) for w in ws) / len(ws)

        assert mean(likely) > mean(uniform)
    with pytest.raises(ValueError):
        sample_worlds(obs, rng, 1, prior="psychic")


def test_inconsistent_worlds_are_refused() -> None:
    deal = point_deal()
    obs = observe(deal, E)
    truth = true_world(deal)
    # The younger's hand and the stock swapped: the elder would have taken in other cards.
    stock = list(truth.stock)
    y = cards_of(truth.dealt[Y])
    moved = World((truth.dealt[E], truth.dealt[Y] & ~(1 << y[0]) | 1 << stock[0]),
                  (y[0], *stock[1:]), truth.discards)
    assert not consistent(obs, moved)
    with pytest.raises(ValueError):
        rebuild(obs, moved)
    # His discard is his own affair, but it is of one card, from his twelve.
    assert consistent(obs, World(truth.dealt, truth.stock, (truth.discards[E], cs("KD"))))
    for wrong in ("KD QD", "8H"):
        assert not consistent(obs, World(truth.dealt, truth.stock, (truth.discards[E], cs(wrong))))
        assert not Knowledge.of(obs).admits(World(truth.dealt, truth.stock, (truth.discards[E], cs(wrong))))
