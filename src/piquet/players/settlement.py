"""What a partie of so many deals is worth from any score, with deals still to come (Laws 71-73).

A partie of Rubicon Piquet (six deals; by agreement four, the first and last
counting double) is settled at its end: the winner scores the difference and
a hundred (Law 72), or, when the loser has not reached a hundred, the sum of
both scores and a hundred (Law 73, the rubicon).  So a point is not worth a
point: near the line, or near a tie, it is worth far more; far ahead, a
little less.  The search player weighs every deal by the settlement its
scores are likely to lead to (``PartieModel.value``), not by its points.

The deals to come are drawn, each apart, from what a deal of Rubicon Piquet
scores by role (``RUBICON_DEAL_SCORES``, measured): the player's score, the
adversary's, and the difference of the two (whose spread, the scores of one
deal being far from independent, is larger than the two apart would make).
With ``X`` and ``Y`` what the player and his adversary score in the deals to
come and ``D = X - Y``, a partie at ``m`` to ``h`` is worth

    E[S(m + X, h + Y)] = m - h + E[D] + 100 (P(D > h - m) - P(D < h - m))
                         + E[2(h + Y); h + Y < 100, m + X > h + Y]
                         - E[2(m + X); m + X < 100, h + Y > m + X]

(the difference and the hundred of Law 72; the loser's score counted twice
more when he is rubiconed, Law 73), the two rubicon terms taken with ``X``
and ``Y`` apart.  A tie after the last deal, which the extra deals of Law 71
settle, is taken as even.  With no deal to come it is the settlement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache

from piquet.core.rules import RUBICON, rules_named

#: The chance that the elder scores 0-2, 3-7, 8-12, ... points in a deal of Rubicon Piquet (steps of five,
#: rounded; the last 173 or more), that the younger does, and that the elder's score less the younger's is
#: -175 (or less), -170, ..., +175 (or more): the cavendish level against itself over 10,000 deals, measured
#: by ``bench/rubicon_deals.py --deals 10000``.
RUBICON_DEAL_SCORES: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]] = (
    # elder: mean 31.58, sd 24.66
    (0.0076, 0.0906, 0.0980, 0.0934, 0.1051, 0.1411, 0.1440, 0.0768, 0.0604, 0.0346, 0.0052, 0.0053, 0.0109, 0.0081,
     0.0138, 0.0513, 0.0155, 0.0003, 0.0000, 0.0006, 0.0050, 0.0042, 0.0069, 0.0124, 0.0067, 0.0003, 0.0001, 0.0000,
     0.0000, 0.0006, 0.0010, 0.0002, 0.0000, 0.0000, 0.0000, 0.0000),
    # younger: mean 19.49, sd 17.49
    (0.0291, 0.2438, 0.1571, 0.0854, 0.1255, 0.1368, 0.0829, 0.0465, 0.0350, 0.0245, 0.0067, 0.0010, 0.0004, 0.0025,
     0.0018, 0.0023, 0.0012, 0.0001, 0.0003, 0.0017, 0.0049, 0.0017, 0.0016, 0.0034, 0.0026, 0.0003, 0.0000, 0.0000,
     0.0000, 0.0001, 0.0008, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000),
    # elder less younger: mean 12.09, sd 36.62 (30.23 were the two scores independent)
    (0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0006, 0.0003, 0.0000, 0.0000, 0.0000, 0.0000, 0.0006, 0.0030, 0.0025,
     0.0016, 0.0004, 0.0010, 0.0005, 0.0014, 0.0037, 0.0022, 0.0011, 0.0005, 0.0005, 0.0016, 0.0017, 0.0102, 0.0166,
     0.0177, 0.0291, 0.0367, 0.0388, 0.0442, 0.0576, 0.0656, 0.0632, 0.0684, 0.0674, 0.0590, 0.0688, 0.0688, 0.0611,
     0.0463, 0.0201, 0.0066, 0.0026, 0.0071, 0.0036, 0.0131, 0.0399, 0.0247, 0.0047, 0.0013, 0.0002, 0.0025, 0.0018,
     0.0037, 0.0141, 0.0074, 0.0020, 0.0001, 0.0000, 0.0000, 0.0000, 0.0006, 0.0010, 0.0002, 0.0000, 0.0000, 0.0000,
     0.0000),
)
#: The tables count in steps of five points.
STEP = 5
#: Law 73: the line under which the loser is rubiconed; Law 72: what the winner adds to the difference (the same
#: for the four-deal partie).
_LINE = RUBICON.rubicon
_BONUS = RUBICON.bonus


def _convolve(a: list[float], b: list[float], shift: int = 0) -> list[float]:
    """The distribution of a sum: ``a`` and ``b`` by index, the result by index (``shift`` moves its origin)."""
    out = [0.0] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b):
                if q:
                    out[i + j] += p * q
    return out[shift:] if shift >= 0 else [0.0] * -shift + out


def _scaled(dist: list[float], times: int) -> list[float]:
    """A distribution by index, its values multiplied (a deal counting double moves every step twice as far)."""
    if times == 1:
        return dist
    out = [0.0] * ((len(dist) - 1) * times + 1)
    for i, p in enumerate(dist):
        out[i * times] = p
    return out


def _points(steps: list[float], origin: int) -> tuple[list[float], int]:
    """A distribution in steps of five, spread evenly over the points of each step: (by point, origin point).

    ``origin`` is the index of the step of nothing; the result's origin is the index of the point nothing.
    """
    half = STEP // 2
    out = [0.0] * (len(steps) * STEP)
    for i, p in enumerate(steps):
        for k in range(STEP):
            out[i * STEP + k] = p / STEP
    return out, origin * STEP + half


@dataclass(frozen=True)
class PartieModel:
    """The deals still to come of a partie, and what the partie is worth from any score (``value``).

    ``deals``: for each deal to come, in order, whether the player is elder
    in it and how it counts (its multiplier).
    """

    deals: tuple[tuple[bool, int], ...]
    _mine: list[float] = field(init=False, repr=False, compare=False)
    _his: list[float] = field(init=False, repr=False, compare=False)
    _beats_his: list[float] = field(init=False, repr=False, compare=False)  # P(X > t) by t
    _beats_mine: list[float] = field(init=False, repr=False, compare=False)  # P(Y > t) by t
    _below: list[float] = field(init=False, repr=False, compare=False)  # P(D < t) by t + _d0
    _above: list[float] = field(init=False, repr=False, compare=False)  # P(D > t) by t + _d0
    _d0: int = field(init=False, repr=False, compare=False)
    _mean: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        elder, younger, diff = (list(t) for t in RUBICON_DEAL_SCORES)
        top = len(elder) - 1
        mine, his, d = [1.0], [1.0], [1.0]
        d_origin = 0  # the index of the step of nothing in ``d``
        for is_elder, times in self.deals:
            m, h = (elder, younger) if is_elder else (younger, elder)
            mine = _convolve(mine, _scaled(m, times))
            his = _convolve(his, _scaled(h, times))
            dd = diff if is_elder else diff[::-1]
            d = _convolve(d, _scaled(dd, times))
            d_origin += top * times
        mine_p, origin = _points(mine, 0)
        his_p, _ = _points(his, 0)
        # The step of nothing covers -2..2: its first points are below nothing; a score is never negative.
        mine_p = [sum(mine_p[: origin + 1])] + mine_p[origin + 1:]
        his_p = [sum(his_p[: origin + 1])] + his_p[origin + 1:]
        d_p, d0 = _points(d, d_origin)
        object.__setattr__(self, "_mine", mine_p)
        object.__setattr__(self, "_his", his_p)
        object.__setattr__(self, "_beats_his", _survival(mine_p))
        object.__setattr__(self, "_beats_mine", _survival(his_p))
        below, run = [], 0.0
        for p in d_p:
            below.append(run)
            run += p
        object.__setattr__(self, "_below", below)
        object.__setattr__(self, "_above", [run - b - p for b, p in zip(below, d_p, strict=True)])
        object.__setattr__(self, "_d0", d0)
        object.__setattr__(self, "_mean", sum((i - d0) * p for i, p in enumerate(d_p)))

    def _d_above(self, t: int) -> float:
        i = t + self._d0
        return 1.0 if i < 0 else 0.0 if i >= len(self._above) else self._above[i]

    def _d_below(self, t: int) -> float:
        i = t + self._d0
        return 0.0 if i < 0 else 1.0 if i >= len(self._below) else self._below[i]

    def value(self, mine: int, his: int) -> float:
        """What the partie is worth to the player, at ``mine`` to ``his`` before the deals to come (points)."""
        return _value(self, mine, his)

    def _rubicon(self, m: int, h: int, his: list[float], beats: list[float]) -> float:
        """E[2(h + Y); h + Y < 100, m + X > h + Y]: the adversary rubiconed, his score counted twice more."""
        total = 0.0
        n = len(beats)
        for y in range(max(0, _LINE - h)):
            if y >= len(his):
                break
            q = his[y]
            if q:
                t = h - m + y  # X must exceed this
                total += q * 2 * (h + y) * (1.0 if t < 0 else 0.0 if t >= n else beats[t])
        return total


def _survival(pmf: list[float]) -> list[float]:
    """P(X > t) for t = 0, 1, ...: from a distribution by point from nothing."""
    out = [0.0] * len(pmf)
    run = 0.0
    for t in range(len(pmf) - 1, -1, -1):
        out[t] = run
        run += pmf[t]
    return out


@lru_cache(maxsize=1 << 16)
def _value(model: PartieModel, mine: int, his: int) -> float:
    if not model.deals:
        return settlement_value(mine, his, RUBICON.name)
    t = his - mine
    win = model._d_above(t) - model._d_below(t)
    return (mine - his + model._mean + _BONUS * win
            + model._rubicon(mine, his, model._his, model._beats_his)
            - model._rubicon(his, mine, model._mine, model._beats_mine))


def settlement_value(me: int, them: int, rules_name: str) -> int:
    """What a partie ending ``me`` to ``them`` is worth to me (Laws 72-73; a tie counts nothing).

    A partie of Piquet au cent is won in games, not points: ``ValueError``
    (its deals are weighed by ``search.GameJudge``).
    """
    rules = rules_named(rules_name)
    if rules.partie_of_games:
        raise ValueError(f"a partie of {rules.title} is won in games, not settled by points: see GameJudge")
    s = rules.settle({"A": me, "B": them})
    if s.winner is None or s.points_won is None:
        return 0
    return s.points_won if s.winner == "A" else -s.points_won


@cache
def partie_model(deals: tuple[tuple[bool, int], ...]) -> PartieModel:
    """The model of the deals to come (``PartieModel``), built once for each order of roles and multipliers."""
    return PartieModel(deals)


__all__ = ["RUBICON_DEAL_SCORES", "STEP", "PartieModel", "partie_model", "settlement_value"]
