"""The arena: computer levels play mirrored pairs of parties, and the results are measured.

A *mirrored pair* is two parties on the same seed, so the same cut and the
same cards in every deal, with the players' seats swapped: whatever luck the
cards bring one player in the first partie, the other has in the second.  The
first dealer is the winner of the cut in both (every computer level elects to
deal, p. 108), or at Piquet au cent the lower cut (p. 16), and the deal is by
twos, so only the players differ.

The unit of measurement is the pair: the mean points won per partie, its 95%
interval (normal, from the spread of the pairs), win, draw and rubicon rates,
and what each player scored per deal in each part of the game (point,
sequences, sets, play, cards, pique, repique, and carte blanche).  A partie of
Piquet au cent is won in games, not points (p. 20): there the report gives
the parties won, the games won per partie (a double counting two) and their
margin, the double games, and the deals per partie, each with its 95%
interval.  Pairs are shared among worker processes; each pair's seeds come
from the arena seed and the pair's number alone, so a seed gives the same
report on any number of cores.

>>> r = run_arena("simple", "random", parties=2, seed=1, workers=1)
>>> r.pairs, len(r.results)
(1, 2)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, TextIO, TypeVar

from piquet.core.events import ELDER, SCORE_KINDS, YOUNGER
from piquet.core.rules import RUBICON, Rules, rules_named
from piquet.core.state import CHANCE, ChooseDeal, DealBy, PartieState, Stage
from piquet.odds.chances import wilson
from piquet.players.levels import level_named, make_player
from piquet.players.runner import PartieRunner

#: Seats: the first player of a pair sits at A in the pair's first partie and at B in its second.
_SEATINGS = (("A", "B"), ("B", "A"))


@dataclass(frozen=True)
class DealResult:
    """One deal of a partie: which player was elder, and what each hand scored and won, as dealt (no multiplier)."""

    elder: int  # 0 the first player, 1 the second
    scores: tuple[tuple[int, ...], tuple[int, ...]]  # by hand (elder, younger), per SCORE_KINDS
    tricks: tuple[int, int]  # by hand

    def total(self, role: int) -> int:
        return sum(self.scores[role])


@dataclass(frozen=True)
class PartieResult:
    """One partie, from the first player's side: points won (negative when lost), the winner, the rubicon."""

    pair: int
    mirrored: bool  # False: the first player sat at A; True: at B
    points: int  # what the first player won (+) or paid (-) at the settlement
    winner: int | None  # 0 the first player, 1 the second, None drawn
    rubicon: bool
    deals: int
    components: tuple[tuple[int, ...], tuple[int, ...]]  # by player, summed over the deals, per SCORE_KINDS
    decisions: tuple[int, int] = (0, 0)  # actions chosen by each player
    seconds: tuple[float, float] = (0.0, 0.0)  # time each player spent choosing
    deal_results: tuple[DealResult, ...] = ()
    games: tuple[int, int] = (0, 0)  # au cent: games won by each player, a double counting two (p. 20)
    doubles: tuple[int, int] = (0, 0)  # au cent: double games won by each player
    games_played: int = 0  # au cent: games played in the partie


class _Timed:
    """Wraps a player to count its decisions and the time it spends on them."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, obs: Any) -> Any:
        t = time.perf_counter()
        action = self.player.choose(obs)
        self.seconds += time.perf_counter() - t
        self.decisions += 1
        return action

    def choose_deal(self, won_cut: bool) -> bool:
        return True

    def deal_by(self) -> int:
        return 2


def pair_seed(seed: int, pair: int) -> int:
    """The partie seed of pair number ``pair`` in an arena run on ``seed``."""
    return random.Random(f"arena:{seed}:{pair}").randrange(1 << 31)


def player_seed(seed: int, pair: int, player: int, mirrored: bool) -> int:
    return random.Random(f"arena:{seed}:{pair}:{player}:{int(mirrored)}").randrange(1 << 31)


def play_partie(levels: tuple[str, str], seed: int, pair: int, mirrored: bool, rules: Rules = RUBICON) -> PartieResult:
    """Play one partie of a pair: the first level at seat A (or at B when ``mirrored``)."""
    pseed = pair_seed(seed, pair)
    seat_of = _SEATINGS[int(mirrored)]  # seat_of[player]
    players = {seat_of[i]: _Timed(make_player(levels[i], player_seed(seed, pair, i, mirrored))) for i in (0, 1)}
    # The cut from the pair's seed; its winner deals, by twos, in both parties of the pair (Laws 4, 9).
    state = PartieState.from_seed(pseed, rules)
    while state.partie is None:
        if state.to_act == CHANCE:
            state.run_chance()
        else:
            state.apply(ChooseDeal(True) if state.stage is Stage.CHOICE else DealBy(2))
    partie = state.partie
    PartieRunner(players, pseed, rules, partie).run()
    comps = [[0] * len(SCORE_KINDS), [0] * len(SCORE_KINDS)]
    deal_results = []
    for index, deal in enumerate(partie.deals):
        mult = rules.multiplier(index)
        deal_results.append(DealResult(
            elder=seat_of.index(partie.seat(index, ELDER)),
            scores=(tuple(deal.scores[ELDER]), tuple(deal.scores[YOUNGER])),
            tricks=(deal.tricks_won[ELDER], deal.tricks_won[YOUNGER]),
        ))
        for role in (ELDER, YOUNGER):
            who = seat_of.index(partie.seat(index, role))
            for k, v in enumerate(deal.scores[role]):
                comps[who][k] += v * mult
    s = partie.settlement()
    won = s.points_won or 0
    winner = None if s.winner is None else seat_of.index(s.winner)
    points = 0 if winner is None else (won if winner == 0 else -won)
    timed = [players[seat_of[i]] for i in (0, 1)]
    games = tuple(s.tally.get(seat_of[i], 0) for i in (0, 1))
    doubles = tuple(sum(1 for g in s.games if g.double and g.winner == seat_of[i]) for i in (0, 1))
    return PartieResult(
        pair=pair, mirrored=mirrored, points=points, winner=winner, rubicon=s.rubicon, deals=len(partie.deals),
        components=(tuple(comps[0]), tuple(comps[1])),
        decisions=(timed[0].decisions, timed[1].decisions), seconds=(timed[0].seconds, timed[1].seconds),
        deal_results=tuple(deal_results), games=(games[0], games[1]), doubles=(doubles[0], doubles[1]),
        games_played=len(s.games),
    )


_Job = tuple[tuple[str, str], int, int, str]  # the levels, the arena seed, the pair, the rules


def _play_pair(job: _Job) -> tuple[PartieResult, PartieResult]:
    levels, seed, pair, rules = job
    r = rules_named(rules)
    return play_partie(levels, seed, pair, False, r), play_partie(levels, seed, pair, True, r)


# ---------------------------------------------------------------- statistics


def mean_interval(xs: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation; 0 for fewer than two).

    >>> mean_interval([1.0, 3.0])
    (2.0, 1.96)
    """
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, round(1.96 * math.sqrt(var / n), 3)


def rate_interval(k: int, n: int) -> tuple[float, float]:
    """A proportion and the half-width of its 95% (Wilson) interval, as (centre, half-width)."""
    if n == 0:
        return 0.0, 0.0
    lo, hi = wilson(k / n, n)
    return (lo + hi) / 2, (hi - lo) / 2


@dataclass
class ArenaReport:
    """The results of an arena run and the figures drawn from them."""

    levels: tuple[str, str]
    seed: int
    rules: str
    results: list[PartieResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def pairs(self) -> int:
        return len(self.results) // 2

    @property
    def in_games(self) -> bool:
        """Whether the partie is won in games (Piquet au cent, p. 20), not settled in points."""
        return rules_named(self.rules).partie_of_games

    def pair_means(self, f: Callable[[PartieResult], float]) -> list[float]:
        """The mean of ``f`` over the parties of each mirrored pair, one figure per pair."""
        by_pair: dict[int, list[float]] = {}
        for r in self.results:
            by_pair.setdefault(r.pair, []).append(f(r))
        return [sum(v) / len(v) for _, v in sorted(by_pair.items())]

    def pair_points(self) -> list[float]:
        """Mean points per partie of the first player, one figure per mirrored pair."""
        return self.pair_means(lambda r: r.points)

    def points(self) -> tuple[float, float]:
        """Mean points won per partie by the first player, with the half-width of the 95% interval."""
        return mean_interval(self.pair_points())

    def games(self) -> tuple[float, float]:
        """Au cent: the first player's games won less the second's per partie (a double two), and the 95% half-width."""
        return mean_interval(self.pair_means(lambda r: r.games[0] - r.games[1]))

    def margin(self) -> float:
        """What the first player wins per partie: points, or at Piquet au cent games (the ladder's rating)."""
        return self.games()[0] if self.in_games else self.points()[0]

    def count(self, predicate: Callable[[PartieResult], bool]) -> int:
        return sum(1 for r in self.results if predicate(r))

    def summary(self) -> dict[str, Any]:
        """Everything the report prints, as plain data (``--json``)."""
        if self.in_games:
            return self._games_summary()
        n = len(self.results)
        deals = sum(r.deals for r in self.results)
        mean, half = self.points()
        out: dict[str, Any] = {
            "players": list(self.levels), "seed": self.seed, "rules": self.rules,
            "pairs": self.pairs, "parties": n, "deals": deals,
            "points_per_partie": {"mean": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)]},
            "seconds": round(self.seconds, 1),
        }
        for i, level in enumerate(self.levels):
            wins = self.count(lambda r, i=i: r.winner == i)  # type: ignore[misc]
            rubicons = self.count(lambda r, i=i: r.winner == i and r.rubicon)  # type: ignore[misc]
            decisions = sum(r.decisions[i] for r in self.results)
            secs = sum(r.seconds[i] for r in self.results)
            out[f"player{i + 1}"] = {
                "level": level,
                "win_rate": _rate(wins, n),
                "rubicon_rate": _rate(rubicons, n),
                "per_deal": {k: round(sum(r.components[i][j] for r in self.results) / max(deals, 1), 3)
                             for j, k in enumerate(SCORE_KINDS)},
                "ms_per_decision": round(1000 * secs / max(decisions, 1), 2),
            }
        out["draw_rate"] = _rate(self.count(lambda r: r.winner is None), n)
        return out

    def _games_summary(self) -> dict[str, Any]:
        """The report at Piquet au cent: parties won, games won per partie and their margin, doubles, deals."""
        n = len(self.results)
        deals = sum(r.deals for r in self.results)
        out: dict[str, Any] = {
            "players": list(self.levels), "seed": self.seed, "rules": self.rules, "in_games": True,
            "pairs": self.pairs, "parties": n, "deals": deals, "games": sum(r.games_played for r in self.results),
            "games_per_partie": _interval(*self.games()),
            "deals_per_partie": _interval(*mean_interval(self.pair_means(lambda r: r.deals))),
            "seconds": round(self.seconds, 1),
        }
        for i, level in enumerate(self.levels):
            decisions = sum(r.decisions[i] for r in self.results)
            secs = sum(r.seconds[i] for r in self.results)
            out[f"player{i + 1}"] = {
                "level": level,
                "win_rate": _rate(self.count(lambda r, i=i: r.winner == i), n),  # type: ignore[misc]
                "games_per_partie": _interval(*mean_interval(self.pair_means(lambda r, i=i: r.games[i]))),  # type: ignore[misc]
                "doubles_per_partie": _interval(*mean_interval(self.pair_means(lambda r, i=i: r.doubles[i]))),  # type: ignore[misc]
                "doubles": sum(r.doubles[i] for r in self.results),
                "per_deal": {k: round(sum(r.components[i][j] for r in self.results) / max(deals, 1), 3)
                             for j, k in enumerate(SCORE_KINDS)},
                "ms_per_decision": round(1000 * secs / max(decisions, 1), 2),
            }
        return out


def _interval(mean: float, half: float) -> dict[str, Any]:
    """A mean and its 95% interval, rounded (``+ 0.0``: no "-0.0")."""
    return {"mean": round(mean, 3) + 0.0, "ci95": [round(mean - half, 3) + 0.0, round(mean + half, 3) + 0.0]}


def _rate(k: int, n: int) -> dict[str, Any]:
    centre, half = rate_interval(k, n)
    return {"rate": round(k / n, 4) if n else 0.0, "ci95": [round(max(0.0, centre - half), 4),
                                                             round(min(1.0, centre + half), 4)]}


def _jobs(levels: tuple[str, str], seed: int, pairs: int, rules: str) -> Iterator[_Job]:
    for i in range(pairs):
        yield levels, seed, i, rules


_J = TypeVar("_J")
_R = TypeVar("_R")


def run_jobs(work: Callable[[_J], _R], jobs: Iterable[_J], total: int, workers: int,
             progress: Callable[[int, int], None] | None = None, ray: str | None = None) -> Iterator[_R]:
    """``work`` on each job, in order, among ``workers`` forked processes, or with ``ray`` as Ray tasks ("local":
    a Ray of ``workers`` cores started here; else the address of a cluster to join); ``progress(done, total)`` as
    each ends.  Each job's result depends on the job alone, so every way gives the same results."""
    results: Iterable[_R]
    with contextlib.ExitStack() as stack:
        if ray is not None:
            results = _on_ray(work, jobs, workers, ray)
        elif workers <= 1:
            results = map(work, jobs)
        else:
            results = stack.enter_context(get_context("fork").Pool(workers)).imap(work, jobs)
        for done, result in enumerate(results, 1):
            if progress:
                progress(done, total)
            yield result


def _on_ray(work: Callable[[_J], _R], jobs: Iterable[_J], workers: int, address: str) -> Iterator[_R]:
    """The jobs as Ray tasks (docs/rl.md: running on a cluster), their results in the jobs' order."""
    try:
        import ray
    except ImportError as e:
        raise ValueError("running on Ray needs the rl extra: pip install -e '.[rl]'") from e
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    task = ray.remote(work)
    refs = [task.remote(job) for job in jobs]
    for ref in refs:
        yield ray.get(ref)


def run_arena(p1: str, p2: str, parties: int, seed: int = 0, workers: int | None = None,
              rules: str = "rubicon", progress: Callable[[int, int], None] | None = None,
              ray: str | None = None) -> ArenaReport:
    """Play ``parties`` parties (rounded up to whole mirrored pairs) between two levels.

    Raises ``ValueError`` for an unknown level or rules, before anything is played.
    """
    p1, p2 = level_named(p1).name, level_named(p2).name
    rules_named(rules)
    pairs = max(1, (parties + 1) // 2)
    workers = max(1, min(workers or os.cpu_count() or 1, pairs))
    report = ArenaReport((p1, p2), seed, rules)
    start = time.perf_counter()
    for pair in run_jobs(_play_pair, _jobs((p1, p2), seed, pairs, rules), pairs, workers, progress, ray):
        report.results.extend(pair)
    report.seconds = time.perf_counter() - start
    return report


# ---------------------------------------------------------------- ratings


def elo_ratings(levels: Sequence[str], scores: dict[tuple[str, str], tuple[float, int]],
                anchor: str | None = None, iterations: int = 2000) -> dict[str, float]:
    """Elo ratings fitted to partie results (Bradley-Terry by maximum likelihood, draws half a win).

    ``scores[(a, b)] = (points a scored out of n, n)``.  The first level (or
    ``anchor``) is rated 0.  A level that won or lost everything has no finite
    rating; the fit is damped by a prior of one draw against each opponent so
    every rating stays finite.

    >>> r = elo_ratings(["x", "y"], {("y", "x"): (3.0, 4)})
    >>> round(r["y"])
    147
    """
    strength = {lv: 1.0 for lv in levels}
    games: dict[tuple[str, str], tuple[float, float]] = {}
    for pair, (points, played) in scores.items():
        games[pair] = (points + 0.5, played + 1.0)
    for _ in range(iterations):
        new: dict[str, float] = {}
        for lv in levels:
            won = 0.0
            denom = 0.0
            for (a, b), (s, n) in games.items():
                if lv == a:
                    won += s
                    denom += n / (strength[a] + strength[b])
                elif lv == b:
                    won += n - s
                    denom += n / (strength[a] + strength[b])
            new[lv] = won / denom if denom else strength[lv]
        strength = new
    base = strength[anchor or levels[0]]
    return {lv: 400.0 * math.log10(strength[lv] / base) for lv in levels}


def points_ratings(levels: Sequence[str], margins: dict[tuple[str, str], float],
                   iterations: int = 500) -> dict[str, float]:
    """Ratings in points per partie: least squares on ``rating[a] - rating[b] = margins[(a, b)]``, the first 0.

    For a ladder of adjacent matches they are the margins added up the steps.

    >>> points_ratings(["x", "y", "z"], {("y", "x"): 400.0, ("z", "y"): 50.0})
    {'x': 0.0, 'y': 400.0, 'z': 450.0}
    """
    rating = dict.fromkeys(levels, 0.0)
    for _ in range(iterations):
        for lv in levels[1:]:
            pulls = [rating[b] + m for (a, b), m in margins.items() if a == lv]
            pulls += [rating[a] - m for (a, b), m in margins.items() if b == lv]
            if pulls:
                rating[lv] = sum(pulls) / len(pulls)
    return {lv: round(r, 6) for lv, r in rating.items()}


@dataclass
class LadderReport:
    levels: list[str]
    reports: dict[tuple[str, str], ArenaReport]

    def elo(self) -> dict[str, float]:
        scores: dict[tuple[str, str], tuple[float, int]] = {}
        for (a, b), rep in self.reports.items():
            s = rep.count(lambda r: r.winner == 0) + 0.5 * rep.count(lambda r: r.winner is None)
            scores[(a, b)] = (s, len(rep.results))
        return elo_ratings(self.levels, scores)

    def points_rating(self) -> dict[str, float]:
        """Ratings fitted to the margin of each match: points per partie, or at Piquet au cent games."""
        return points_ratings(self.levels, {pair: rep.margin() for pair, rep in self.reports.items()})

    def summary(self) -> dict[str, Any]:
        elo = self.elo()
        pts = self.points_rating()
        unit = "games" if any(rep.in_games for rep in self.reports.values()) else "points"
        digits = 2 if unit == "games" else 1
        return {
            "levels": [{"level": lv, "elo": round(elo[lv]), unit: round(pts[lv], digits)} for lv in self.levels],
            "matches": [rep.summary() for rep in self.reports.values()],
        }


def run_ladder(levels: Sequence[str], parties: int, seed: int = 0, workers: int | None = None,
               rules: str = "rubicon", adjacent: bool = False,
               progress: Callable[[str, str, int, int], None] | None = None, ray: str | None = None) -> LadderReport:
    """Every level against every other (or, ``adjacent``, each against the next), the stronger named first."""
    levels = list(levels)
    matches = [(levels[j], levels[i]) for i in range(len(levels)) for j in range(i + 1, len(levels))
               if not adjacent or j == i + 1]
    reports: dict[tuple[str, str], ArenaReport] = {}
    for a, b in matches:
        def tell(done: int, total: int, a: str = a, b: str = b) -> None:
            if progress:
                progress(a, b, done, total)
        reports[(a, b)] = run_arena(a, b, parties, seed, workers, rules, progress=tell, ray=ray)
    return LadderReport(levels, reports)


# ---------------------------------------------------------------- the commands


def ray_target(ns: argparse.Namespace) -> str | None:
    """Where ``--ray`` and ``--address`` send the parties: a cluster's address, "local", or None (forked)."""
    address: str | None = getattr(ns, "address", None)
    return address or ("local" if getattr(ns, "ray", False) else None)


def _progress_printer(out: TextIO, enabled: bool) -> Callable[[int, int], None] | None:
    if not enabled:
        return None

    def show(done: int, total: int) -> None:
        out.write(f"\r  {done}/{total} pairs")
        if done == total:
            out.write("\n")
        out.flush()

    return show


def format_arena(summary: dict[str, Any]) -> str:
    """The arena report for a person."""
    if summary.get("in_games"):
        return _format_games(summary)
    p1, p2 = summary["player1"], summary["player2"]
    pts = summary["points_per_partie"]
    lines = [
        f"{p1['level']} against {p2['level']}: {summary['pairs']} mirrored pairs, {summary['parties']} parties, "
        f"{summary['deals']} deals ({summary['rules']}, seed {summary['seed']}, {summary['seconds']} s)",
        f"  points per partie to {p1['level']}: {pts['mean']:+.1f}  (95% interval {pts['ci95'][0]:+.1f} "
        f"to {pts['ci95'][1]:+.1f})",
    ]
    for p in (p1, p2):
        w, r = p["win_rate"], p["rubicon_rate"]
        lines.append(f"  {p['level']:<12} wins {100 * w['rate']:5.1f}% ({100 * w['ci95'][0]:.1f}-"
                     f"{100 * w['ci95'][1]:.1f}), rubicons the other {100 * r['rate']:5.1f}%, "
                     f"{p['ms_per_decision']} ms a decision")
    lines.append(f"  drawn {100 * summary['draw_rate']['rate']:.1f}%")
    return "\n".join(lines + _per_deal_lines(p1, p2))


def _per_deal_lines(p1: dict[str, Any], p2: dict[str, Any]) -> list[str]:
    """Each player's points per deal in each part of the game."""
    lines = ["  per deal:      " + " ".join(f"{k[:9]:>9}" for k in SCORE_KINDS)]
    for p in (p1, p2):
        lines.append(f"  {p['level']:<14}" + " ".join(f"{p['per_deal'][k]:9.2f}" for k in SCORE_KINDS))
    return lines


def _span(x: dict[str, Any], sign: str = "") -> str:
    """A mean with its 95% interval: ``2.31 (2.12 to 2.50)``."""
    lo, hi = x["ci95"]
    return f"{x['mean']:{sign}.2f} ({lo:{sign}.2f} to {hi:{sign}.2f})"


def _format_games(summary: dict[str, Any]) -> str:
    """The arena report at Piquet au cent, whose partie is won in games (p. 20)."""
    p1, p2 = summary["player1"], summary["player2"]
    lines = [
        f"{p1['level']} against {p2['level']}: {summary['pairs']} mirrored pairs, {summary['parties']} parties, "
        f"{summary['games']} games, {summary['deals']} deals ({summary['rules']}, seed {summary['seed']}, "
        f"{summary['seconds']} s)",
        f"  games per partie to {p1['level']}, less the other's: {_span(summary['games_per_partie'], '+')}",
    ]
    for p in (p1, p2):
        w = p["win_rate"]
        g, d = p["games_per_partie"], p["doubles_per_partie"]
        lines.append(f"  {p['level']:<12} wins {100 * w['rate']:5.1f}% ({100 * w['ci95'][0]:.1f}-"
                     f"{100 * w['ci95'][1]:.1f}) of the parties; {g['mean']:.2f} games a partie ({g['ci95'][0]:.2f} "
                     f"to {g['ci95'][1]:.2f}), {d['mean']:.2f} doubles ({d['ci95'][0]:.2f} to {d['ci95'][1]:.2f}); "
                     f"{p['ms_per_decision']} ms a decision")
    lines.append(f"  deals per partie: {_span(summary['deals_per_partie'])}")
    return "\n".join(lines + _per_deal_lines(p1, p2))


def run_arena_command(ns: argparse.Namespace) -> int:
    """``piquet arena P1 P2 --parties N --seed S [--json]``: 0 when played, 2 for bad options."""
    try:
        report = run_arena(ns.p1, ns.p2, ns.parties, ns.seed, ns.workers, ns.rules,
                           progress=_progress_printer(sys.stderr, not ns.json and sys.stderr.isatty()),
                           ray=ray_target(ns))
    except ValueError as e:
        print(f"piquet arena: {e}", file=sys.stderr)
        return 2
    summary = report.summary()
    print(json.dumps(summary, indent=1) if ns.json else format_arena(summary))
    return 0


def format_ladder(summary: dict[str, Any]) -> str:
    if summary["levels"] and "games" in summary["levels"][0]:
        lines = ["Ratings (Elo fitted to parties won; games fitted to the mean margin in games per partie of each "
                 "match; the first level 0):"]
        for row in sorted(summary["levels"], key=lambda r: -r["elo"]):
            lines.append(f"  {row['level']:<12} Elo {row['elo']:6d}   games {row['games']:+8.2f}")
    else:
        lines = ["Ratings (Elo fitted to parties won; points fitted to the mean points per partie of each match; "
                 "the first level 0):"]
        for row in sorted(summary["levels"], key=lambda r: -r["elo"]):
            lines.append(f"  {row['level']:<12} Elo {row['elo']:6d}   points {row['points']:+8.1f}")
    lines.append("")
    for m in summary["matches"]:
        lines.append(format_arena(m))
    return "\n".join(lines)


def run_ladder_command(ns: argparse.Namespace) -> int:
    """``piquet ladder [--levels a,b,...] --parties N --seed S [--adjacent] [--json]``."""
    from piquet.players.levels import LEVEL_NAMES

    try:
        levels = [level_named(x).name for x in ns.levels.split(",")] if ns.levels else list(LEVEL_NAMES)
        rules_named(ns.rules)
    except ValueError as e:
        print(f"piquet ladder: {e}", file=sys.stderr)
        return 2
    tty = not ns.json and sys.stderr.isatty()

    def tell(a: str, b: str, done: int, total: int) -> None:
        if tty:
            sys.stderr.write(f"\r  {a} against {b}: {done}/{total} pairs" + ("\n" if done == total else ""))
            sys.stderr.flush()

    report = run_ladder(levels, ns.parties, ns.seed, ns.workers, ns.rules, ns.adjacent, tell, ray_target(ns))
    summary = report.summary()
    print(json.dumps(summary, indent=1) if ns.json else format_ladder(summary))
    return 0


__all__ = [
    "ArenaReport", "DealResult", "LadderReport", "PartieResult", "elo_ratings", "mean_interval", "play_partie",
    "points_ratings", "rate_interval", "ray_target", "run_arena", "run_arena_command", "run_jobs", "run_ladder",
    "run_ladder_command",
]
