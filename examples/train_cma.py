"""Train a small policy against the random level by CMA-ES (pycma), on the Gymnasium environment (docs/rl.md).

Neuroevolution, a standard baseline of reinforcement learning: CMA-ES
(``cma``, the ``rl`` extra) searches the weights of a linear policy that
scores every action number over the observation vector, and the policy
plays the best-scored action the mask allows.  Its fitness is the mean
score difference per deal against ``piquet.rl.single_agent_env(level="random")``,
every candidate of a generation on the same deals.

The policy shares its weights across the 32 cards (as a convolution shares
them across an image): a card's score is a linear function of that card's
column of the observation's card planes, its rank, and a few counts read
from the planes (cards of its suit in hand, higher cards of its suit not yet
seen, whether it follows or beats the card led), with one set of weights for
the discard, one for the calls and one for the play.  The words (done, sink,
look) are scored from a few of the vector's features.  With all weights zero
every allowed action scores alike and ties are broken at random: the
untrained policy is the uniformly random one, the baseline measured at the
end on the same deals as the trained policy.

    python examples/train_cma.py --minutes 3 --seed 1

At the end it plays the trained policy and the untrained one on the same
``--eval-deals`` deals (seeds no training deal used) and prints the mean
score difference per deal of each, with its 95% interval, and of the one
less the other.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

try:
    import cma
except ImportError:  # pragma: no cover - said plainly rather than as a traceback
    sys.exit("this example needs pycma, in the rl extra: pip install -e '.[rl]'")

import piquet.rl
from piquet.rl.encoding import DONE, DONT_LOOK, FEATURES, LOOK, N_ACTIONS, N_CARDS, PLANES, SINK
from piquet.study.arena import mean_interval

Vector = npt.NDArray[np.float64]

_F: Final = {name: N_CARDS * len(PLANES) + i for i, name in enumerate(FEATURES)}
_P: Final = {name: i for i, name in enumerate(PLANES)}
_DISCARDING: Final = [_F["phase_elder_discard"], _F["phase_younger_discard"]]
_DECLARING: Final = [_F[f"phase_{p}"] for p in (
    "elder_point", "younger_point", "elder_sequences", "younger_sequences", "elder_sets", "younger_sets",
    "younger_reckon_point", "younger_reckon_sequences", "younger_reckon_sets")]
_PLAYING: Final = _F["phase_play"]
_RANK: Final = np.eye(8)[np.arange(N_CARDS) % 8]  # the rank of each card, one-hot (seven ... ace)
_SUIT: Final = np.arange(N_CARDS) // 8

#: A card's inputs: its column of every plane, its rank, four counts, and a constant.
CARD_INPUTS: Final = len(PLANES) + 8 + 4 + 1
#: The words' inputs: a constant, elder, cards picked, most and least to discard, stock left, discarding, declaring.
WORD_INPUTS: Final = 8
#: The decisions with weights of their own for the cards: the discard, the calls, the play.
GROUPS: Final = ("discard", "calls", "play")
#: The words scored (DONT_LOOK scores zero, the reference for LOOK).
WORDS: Final = (DONE, SINK, LOOK)
N_WEIGHTS: Final = len(GROUPS) * CARD_INPUTS + len(WORDS) * WORD_INPUTS
#: The deals' seeds: training from 2 * seed * _RUN up, the evaluation from (2 * seed + 1) * _RUN, never the same.
_RUN: Final = 10_000_000


def card_inputs(obs: npt.NDArray[np.float32]) -> Vector:
    """The inputs of each card (32 rows of ``CARD_INPUTS``), read from the observation vector alone."""
    planes = obs[: N_CARDS * len(PLANES)].reshape(len(PLANES), N_CARDS).astype(np.float64)
    hand = planes[_P["hand"]]
    by_suit = hand.reshape(4, 8).sum(axis=1)[_SUIT] / 8
    gone = np.minimum(1.0, hand + planes[_P["discard"]] + planes[_P["played_mine"]] + planes[_P["played_other"]])
    out = (1.0 - gone).reshape(4, 8)
    higher_out = (np.cumsum(out[:, ::-1], axis=1)[:, ::-1] - out).reshape(N_CARDS) / 8
    lead = planes[_P["lead"]]
    follows = lead.reshape(4, 8).sum(axis=1)[_SUIT]
    beats = follows * (np.arange(N_CARDS) % 8 > int(np.argmax(lead)) % 8) if lead.any() else np.zeros(N_CARDS)
    return np.column_stack([planes.T, _RANK, by_suit, higher_out, follows, beats, np.ones(N_CARDS)])


def word_inputs(obs: npt.NDArray[np.float32]) -> Vector:
    """The words' inputs, read from the observation vector."""
    picked = obs[_P["selection"] * N_CARDS: (_P["selection"] + 1) * N_CARDS].sum() / 8
    return np.array([1.0, obs[_F["elder"]], picked, obs[_F["max_discard"]], obs[_F["min_discard"]],
                     obs[_F["stock_left"]], obs[_DISCARDING].sum(), obs[_DECLARING].sum()])


@dataclass(frozen=True)
class Policy:
    """The linear policy of ``weights`` (``N_WEIGHTS`` numbers): the best-scored action the mask allows."""

    weights: Vector

    def scores(self, obs: npt.NDArray[np.float32]) -> Vector:
        """A score for every action number (those the policy does not score get zero)."""
        cards = self.weights[: len(GROUPS) * CARD_INPUTS].reshape(len(GROUPS), CARD_INPUTS)
        words = self.weights[len(GROUPS) * CARD_INPUTS:].reshape(len(WORDS), WORD_INPUTS)
        s = np.zeros(N_ACTIONS)
        if obs[_DISCARDING].any():
            group = 0
        elif obs[_DECLARING].any():
            group = 1
        elif obs[_PLAYING]:
            group = 2
        else:
            group = -1
        if group >= 0:
            s[:N_CARDS] = card_inputs(obs) @ cards[group]
        s[list(WORDS)] = words @ word_inputs(obs)
        s[DONT_LOOK] = 0.0
        return s

    def act(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8], rng: np.random.Generator) -> int:
        """The best-scored allowed action, ties broken at random."""
        s = self.scores(obs)
        legal = np.flatnonzero(mask)
        best = legal[s[legal] >= s[legal].max() - 1e-9]
        return int(best[0] if len(best) == 1 else rng.choice(best))


@dataclass(frozen=True)
class Played:
    """The score differences of a policy's deals, in the order of the seeds, and what it chose."""

    results: tuple[float, ...]
    decisions: int
    illegal: int


def play(policy: Policy, seeds: Sequence[int], level: str = "random") -> Played:
    """``policy`` at seat A against ``level`` on the deal of each seed (the same deal and opponent for a seed)."""
    env = piquet.rl.single_agent_env(level=level)
    results: list[float] = []
    decisions = illegal = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        reward, over = 0.0, False
        while not over:
            obs, step_reward, over, _, info = env.step(policy.act(obs, info["action_mask"], rng))
            decisions += 1
            if "illegal" in info:
                illegal += 1
            reward = float(step_reward)
        results.append(reward)
    return Played(tuple(results), decisions, illegal)


def train(minutes: float, generations: int | None, deals: int, seed: int, popsize: int | None,
          say: Callable[[str], None] = print) -> Policy:
    """CMA-ES from all-zero weights; each generation's candidates play the same ``deals`` fresh deals."""
    opts: dict[str, object] = {"seed": seed + 1, "verbose": -9}
    if popsize:
        opts["popsize"] = popsize
    es = cma.CMAEvolutionStrategy(np.zeros(N_WEIGHTS), 0.5, opts)
    start = time.process_time()
    g = 0
    while not es.stop():
        if generations is not None and g >= generations:
            break
        if generations is None and time.process_time() - start >= 60 * minutes or (g + 1) * deals > _RUN:
            break
        seeds = range(2 * seed * _RUN + g * deals, 2 * seed * _RUN + (g + 1) * deals)
        candidates = es.ask()
        fitness = [sum(play(Policy(np.asarray(w)), seeds).results) / deals for w in candidates]
        es.tell(candidates, [-f for f in fitness])
        g += 1
        say(f"generation {g:3d}: mean {np.mean(fitness):+7.2f}  best {max(fitness):+7.2f} points a deal  "
            f"(sigma {es.sigma:.3f}, {time.process_time() - start:6.1f} s CPU)")
    return Policy(np.asarray(es.mean))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=3.0, help="CPU minutes of training (default 3)")
    ap.add_argument("--generations", type=int, help="train this many generations instead of --minutes")
    ap.add_argument("--deals", type=int, default=40, help="deals a candidate plays each generation (default 40)")
    ap.add_argument("--popsize", type=int, help="candidates a generation (pycma's default: 4 + 3 ln n)")
    ap.add_argument("--eval-deals", type=int, default=1000, help="deals of the final evaluation (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if (a.seed < 0 or a.deals < 1 or not 2 <= a.eval_deals <= _RUN or a.minutes <= 0
            or (a.generations is not None and a.generations < 1)):
        ap.error(f"--deals, --minutes and --generations must be positive, --seed not negative, --eval-deals 2-{_RUN}")
    print(f"CMA-ES (pycma {cma.__version__}) over {N_WEIGHTS} weights against the random level, seed {a.seed}")
    start, wall = time.process_time(), time.perf_counter()
    trained = train(a.minutes, a.generations, a.deals, a.seed, a.popsize)
    print(f"trained in {time.process_time() - start:.1f} s CPU ({time.perf_counter() - wall:.1f} s wall)")
    seeds = range((2 * a.seed + 1) * _RUN, (2 * a.seed + 1) * _RUN + a.eval_deals)
    mine = play(trained, seeds)
    untrained = play(Policy(np.zeros(N_WEIGHTS)), seeds)
    diff = [x - y for x, y in zip(mine.results, untrained.results, strict=True)]
    n = a.eval_deals
    for name, xs in (("trained policy", mine.results), ("untrained (uniform random)", untrained.results),
                     ("trained less untrained", diff)):
        m, half = mean_interval(xs)
        print(f"{name + ':':28s} {m:+7.2f} points a deal, 95% interval [{m - half:+.2f}, {m + half:+.2f}] ({n} deals)")
    print(f"illegal actions chosen: {mine.illegal + untrained.illegal} of {mine.decisions + untrained.decisions}")
    for what, xs in (("the random level", mine.results), ("the untrained policy", diff)):
        m, half = mean_interval(xs)
        lo = m - half
        print(f"beats {what}: {'yes' if lo > 0 else 'no'} (interval {'' if lo > 0 else 'not '}above zero)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
