"""The top level, ``search-deep``: every discard ranked, the best raced by successive halving, a seed the same game."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from piquet.core.actions import Discard
from piquet.core.cards import CardSet, cards_of
from piquet.core.deal import Deal
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import observe
from piquet.players.base import SimplePlayer, keep_value
from piquet.players.levels import LEVEL_NAMES, level_named, make_player
from piquet.players.search import (
    DEEP,
    FULL,
    TRIED,
    WITHOUT,
    SearchPlayer,
    Strength,
    discard_shortlist,
    successive_halving,
)
from test_search import _play


def mask(text: str) -> int:
    return CardSet.parse(text).mask


# ---------------------------------------------------------------- the level


def test_search_deep_is_the_top_of_the_ladder() -> None:
    assert LEVEL_NAMES[-1] == "search-deep"
    assert level_named("5").name == "search-deep"
    player = make_player("search-deep", 1)
    assert isinstance(player, SearchPlayer) and player.strength == DEEP
    assert make_player("search", 1).strength == FULL  # the baseline is as it was


@pytest.mark.parametrize("seed", [3, 8])
def test_plays_whole_deals_legally_and_the_same_again_for_a_seed(seed: int) -> None:
    for elder in (True, False):
        deal, me = _play(seed, elder, DEEP)
        assert deal.is_over
        assert any(isinstance(a, Discard) for a in me.actions)
        again, twin = _play(seed, elder, DEEP)
        assert twin.actions == me.actions
        assert again.scores == deal.scores


def test_the_safety_cut_leaves_a_lawful_choice() -> None:
    """With a time limit too short to finish, every choice is still one of the legal ones."""
    rushed = Strength("rushed", play_worlds=32, discards_per_count=12, exchange_worlds=128, prior="discard",
                      exchange_sims=640, first_worlds=8, seconds=1e-9)
    for seed in (1, 2):
        deal = Deal.shuffled(random.Random(seed))
        while not deal.is_over:
            role = deal.to_move
            assert role is not None
            obs = observe(deal, role)
            player = SearchPlayer(seed, rushed) if role == ELDER else SimplePlayer()
            action = player.choose(obs)
            assert action in set(obs.legal_actions())
            deal.apply(action)


# ---------------------------------------------------------------- the candidates


HAND = mask("AS 9S  AH KH QH 10H 8H 7H  KC 8C  8D 7D")


def test_every_count_from_the_least_to_the_most_is_among_the_candidates() -> None:
    for most, least, elder in ((5, 1, True), (3, 1, False), (3, 0, False), (2, 1, False)):
        out = discard_shortlist(HAND, most, elder, least, per_count=12)
        counts = [m.bit_count() for m in out]
        assert set(counts) == set(range(least, most + 1))
        assert counts == sorted(counts, reverse=True)  # all he may take first (p. 119)
        assert len(set(out)) == len(out)
        assert all(m & ~HAND == 0 for m in out)
        assert counts.count(most) == 12
        assert all(counts.count(n) >= 2 or n == 0 for n in range(least, most))


def test_the_candidates_of_a_count_are_its_best_by_what_is_kept() -> None:
    out = discard_shortlist(HAND, 5, True, 1, per_count=8)
    cards = cards_of(HAND)
    for n in range(1, 6):
        mine = [m for m in out if m.bit_count() == n]
        every = sorted((keep_value(HAND & ~sum(1 << c for c in combo), True) for combo in combinations(cards, n)),
                       reverse=True)
        assert [keep_value(HAND & ~m, True) for m in mine] == every[:len(mine)]
    assert mask("9S KC 8C 8D 7D") in out  # the simple player's discard, keeping the point


# ---------------------------------------------------------------- successive halving


def test_halving_finds_the_best_arm_and_keeps_to_its_budget() -> None:
    rng = random.Random(4)
    means = [rng.uniform(0, 1) for _ in range(24)]
    noise = [[rng.gauss(0, 0.05) for _ in range(128)] for _ in range(24)]
    calls: list[tuple[int, int]] = []

    def result(i: int, j: int) -> float:
        calls.append((i, j))
        return means[i] + noise[i][j]

    best = successive_halving(24, 128, result, budget=640, first=8)
    assert best == max(range(24), key=lambda i: means[i])
    assert len(calls) <= 640
    assert len(set(calls)) == len(calls)  # no world is tried twice for one arm
    assert {i for i, j in calls if j < 8} == set(range(24))  # every arm is tried in the first worlds
    assert max(j for i, j in calls) >= 63  # the finalists are tried in many more


def test_halving_shares_the_worlds_so_a_noisy_world_does_not_decide() -> None:
    """Arm 1 is better by 0.1 in every world; the worlds differ by far more: the shared worlds cancel it."""
    world = [random.Random(j).uniform(-10, 10) for j in range(64)]
    assert successive_halving(3, 64, lambda i, j: world[j] + (0.1 if i == 1 else 0.0), budget=1000, first=2) == 1


def test_halving_stopped_early_chooses_on_the_last_round_completed() -> None:
    means = [0.0, 5.0, 1.0, 2.0]
    calls = 0

    def result(i: int, j: int) -> float:
        return means[i]

    def stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > 6  # the third round (two arms, worlds 3 and 4) is cut short

    assert successive_halving(4, 16, result, budget=100, first=1, stop=stop) == 1
    calls = 0
    assert successive_halving(4, 16, result, budget=100, first=4, stop=stop) == 0  # cut in the first: the first arm


def test_halving_with_one_arm_or_one_world() -> None:
    assert successive_halving(1, 8, lambda i, j: 0.0, budget=10) == 0
    assert successive_halving(3, 1, lambda i, j: float(i == 2), budget=10) == 2


def test_the_younger_reads_the_elders_discard() -> None:
    """The top level samples worlds weighted by the adversary's discard; the rest, as before, uniformly."""
    deal = Deal.shuffled(random.Random(5))
    deal.apply(Discard(_low(deal.hands[ELDER], 5)))
    obs = observe(deal, YOUNGER)
    assert DEEP.prior == "discard" and FULL.prior == "uniform"
    deep = SearchPlayer(1, DEEP).worlds(obs, 200)
    full = SearchPlayer(1, FULL).worlds(obs, 200)
    # The elder put out low cards: under the discard prior his discards hold fewer aces and kings.
    aces_kings = mask("AS KS AH KH AC KC AD KD")
    deep_high = sum((w.discards[ELDER] & aces_kings).bit_count() for w in deep)
    full_high = sum((w.discards[ELDER] & aces_kings).bit_count() for w in full)
    assert deep_high < full_high


def _low(hand: int, n: int) -> int:
    """The ``n`` lowest-ranked cards of a hand."""
    out = 0
    for c in sorted(cards_of(hand), key=lambda c: (c & 7, c))[:n]:
        out |= 1 << c
    return out


# ---------------------------------------------------------------- its parts, for the arena


def test_each_variant_takes_out_or_adds_only_its_part() -> None:
    """``WITHOUT``: the top level less one part each, differing from ``DEEP`` in that part's fields alone (the
    race's variant keeps the 400 deals: every candidate in 16 worlds); ``TRIED``: the part tried."""
    parts = {
        "every-count": {"every_count", "discards_per_count"},
        "halving": {"exchange_sims", "exchange_worlds", "play_worlds", "call_worlds"},
        "discard-prior": {"prior"},
        "reckoning": {"reckon_first"},
        "partie-score": {"partie_every_deal"},
    }
    assert set(WITHOUT) == set(parts)
    for part, fields in parts.items():
        variant = WITHOUT[part]
        changed = {f for f in vars(DEEP) if f != "name" and getattr(variant, f) != getattr(DEEP, f)}
        assert changed == fields, part
        assert variant.name == f"deep-without-{part}"
    assert WITHOUT["halving"].exchange_worlds * len(discard_shortlist(HAND, 5, True, 1, 12)) <= DEEP.exchange_sims
    assert {f for f in vars(DEEP) if getattr(TRIED["own-next"], f) != getattr(DEEP, f)} == {"name", "own_next"}
    assert DEEP.own_next == 0  # not kept: the arena did not show it stronger (docs/players.md)
