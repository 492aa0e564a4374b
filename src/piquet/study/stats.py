"""The statistics of play: two players play many parties, and every deal is measured.

``piquet stats P1 P2 --deals N`` plays whole parties until at least N deals
are played.  Every partie has its own cards (no mirroring: the aim is the
distribution of what happens, not a comparison on the same cards); the first
player sits at A in the even parties and at B in the odd ones.  Each partie's
seeds come from the run's seed and its number alone, so a seed gives the same
report on any number of cores.

What is reported, each with a 95% interval:

- each hand's score per deal (the treatise's *show*: "the show of the elder
  hand is twenty-eight points ...; the show of the younger hand is fourteen",
  p. 148), its mean, its median and its distribution;
- how often the elder wins the cards, the younger wins them, or they divide;
- how often each hand piques, repiques, is capot or shows carte blanche;
- the rubicon rate, the average value of a partie, and the players' results;
  at Piquet au cent, whose partie is won in games (p. 20), the games and the
  double games per partie, the deals per partie, and the players' parties
  and games won instead.

Deals of one partie are not independent (the players play to the score), so
the intervals treat the partie as the unit: rates use Wilson's interval on the
effective number of deals (the count divided by the design effect measured
between parties), means a ratio estimator with the variance between parties,
and medians a bootstrap over parties.

>>> r = run_stats("simple", "random", deals=6, seed=1, workers=1)
>>> len(r.results), r.deals()
(1, 6)
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from piquet.core.events import ELDER, ROLES, S_CARTE_BLANCHE, S_PIQUE, S_REPIQUE, SCORE_KINDS, YOUNGER
from piquet.core.rules import rules_named
from piquet.odds.chances import wilson
from piquet.players.levels import level_named
from piquet.study.arena import DealResult, PartieResult, play_partie, rate_interval, ray_target, run_jobs

#: "The show of the elder hand is twenty-eight points ...; the show of the younger hand is fourteen" (p. 148).
TREATISE_SHOW = {"elder": 28, "younger": 14}
#: A partie of Piquet au cent runs to as many deals as it takes: ``--deals`` asks for about this many a partie.
DEALS_A_PARTIE_AU_CENT = 13

_Job = tuple[tuple[str, str], int, int, str]  # the levels, the run's seed, the partie's number, the rules


def _play(job: _Job) -> PartieResult:
    levels, seed, index, rules = job
    return play_partie(levels, seed, index, bool(index % 2), rules_named(rules))


# ---------------------------------------------------------------- intervals between parties


def ratio_interval(sums: Sequence[float], counts: Sequence[int]) -> tuple[float, float, float]:
    """A ratio Σsums/Σcounts over parties and its 95% interval, from the spread between parties.

    >>> ratio_interval([1, 3], [1, 1])
    (2.0, 0.04, 3.96)
    """
    n = sum(counts)
    if n == 0:
        return 0.0, 0.0, 0.0
    r = sum(sums) / n
    m = len(counts)
    if m < 2:
        return r, r, r
    var = m / (m - 1) * sum((s - r * c) ** 2 for s, c in zip(sums, counts, strict=True)) / (n * n)
    half = 1.96 * math.sqrt(var)
    return r, round(r - half, 6), round(r + half, 6)


def clustered_rate(hits: Sequence[int], counts: Sequence[int]) -> dict[str, Any]:
    """A rate over parties: the proportion and Wilson's 95% interval on the effective sample.

    The effective sample is the number of deals divided by the design effect,
    the variance between parties over the variance of independent deals (at
    least 1, so the interval is never narrower than Wilson's).
    """
    n, k = sum(counts), sum(hits)
    if n == 0:
        return {"rate": 0.0, "count": 0, "ci95": [0.0, 0.0]}
    p = k / n
    m = len(counts)
    deff = 1.0
    if m >= 2 and 0 < p < 1:
        between = m / (m - 1) * sum((h - p * c) ** 2 for h, c in zip(hits, counts, strict=True)) / (n * n)
        deff = max(1.0, between / (p * (1 - p) / n))
    lo, hi = wilson(p, n / deff)
    return {"rate": round(p, 5), "count": k,
            "ci95": [round(lo, 5), round(hi, 5)]}


def quantile(sorted_xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted data (the mean of the two middle values for the median of an even count)."""
    n = len(sorted_xs)
    if n == 0:
        return 0.0
    pos = q * (n - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def median_interval(groups: Sequence[Sequence[int]], rng: random.Random, resamples: int = 400) -> tuple[float, float]:
    """A 95% bootstrap interval for the median, resampling whole parties (``groups``)."""
    if len(groups) < 2:
        med = quantile(sorted(x for g in groups for x in g), 0.5)
        return med, med
    meds = []
    m = len(groups)
    for _ in range(resamples):
        xs: list[int] = []
        for _ in range(m):
            xs.extend(groups[rng.randrange(m)])
        xs.sort()
        meds.append(quantile(xs, 0.5))
    meds.sort()
    return quantile(meds, 0.025), quantile(meds, 0.975)


# ---------------------------------------------------------------- the report


@dataclass
class StatsReport:
    """The parties played and the statistics drawn from them."""

    levels: tuple[str, str]
    seed: int
    rules: str
    results: list[PartieResult] = field(default_factory=list)
    seconds: float = 0.0

    def deals(self) -> int:
        return sum(len(r.deal_results) for r in self.results)

    def _per_partie(self, f: Callable[[DealResult], int]) -> tuple[list[int], list[int]]:
        """For each partie: the sum of ``f`` over its deals, and its number of deals."""
        return [sum(f(d) for d in r.deal_results) for r in self.results], [len(r.deal_results) for r in self.results]

    def _rate(self, f: Callable[[DealResult], bool]) -> dict[str, Any]:
        return clustered_rate(*self._per_partie(lambda d: int(f(d))))

    def _mean(self, f: Callable[[DealResult], int], keep: Callable[[DealResult], bool] = lambda d: True
              ) -> dict[str, Any]:
        sums, counts = self._per_partie(lambda d: f(d) if keep(d) else 0)
        counts = [sum(1 for d in r.deal_results if keep(d)) for r in self.results]
        mean, lo, hi = ratio_interval(sums, counts)
        return {"mean": round(mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}

    def _scores(self, role: int, rng: random.Random) -> dict[str, Any]:
        groups = [[d.total(role) for d in r.deal_results] for r in self.results]
        xs = sorted(x for g in groups for x in g)
        lo, hi = median_interval(groups, rng)
        out = self._mean(lambda d: d.total(role))
        out.update({
            "median": quantile(xs, 0.5), "median_ci95": [lo, hi],
            "quantiles": {f"{q:g}": quantile(xs, q) for q in (0.1, 0.25, 0.5, 0.75, 0.9)},
            "nothing": self._rate(lambda d: d.total(role) == 0),
            "treatise_show": TREATISE_SHOW[ROLES[role]],
            "components": {k: self._mean(lambda d, j=j: d.scores[role][j])["mean"]  # type: ignore[misc]
                           for j, k in enumerate(SCORE_KINDS)},
            "distribution": _histogram(xs),
        })
        return out

    def summary(self) -> dict[str, Any]:
        """Everything the report prints, as plain data (``--json``)."""
        rng = random.Random(f"stats:{self.seed}:bootstrap")
        parties = len(self.results)
        hands: dict[str, Any] = {}
        for role, name in enumerate(ROLES):
            h = self._scores(role, rng)
            h["pique"] = self._rate(lambda d, r=role: d.scores[r][S_PIQUE] > 0)  # type: ignore[misc]
            h["repique"] = self._rate(lambda d, r=role: d.scores[r][S_REPIQUE] > 0)  # type: ignore[misc]
            h["capot"] = self._rate(lambda d, r=role: d.tricks[r] == 12)  # type: ignore[misc]
            h["carte_blanche"] = self._rate(lambda d, r=role: d.scores[r][S_CARTE_BLANCHE] > 0)  # type: ignore[misc]
            hands[name] = h
        cards = {
            "elder": self._rate(lambda d: d.tricks[ELDER] > d.tricks[YOUNGER]),
            "younger": self._rate(lambda d: d.tricks[YOUNGER] > d.tricks[ELDER]),
            "divided": self._rate(lambda d: d.tricks[ELDER] == d.tricks[YOUNGER]),
        }
        values = [abs(r.points) for r in self.results]
        value_sorted = sorted(values)
        players = {}
        for i, level in enumerate(self.levels):
            wins = sum(1 for r in self.results if r.winner == i)
            centre, half = rate_interval(wins, parties)
            decisions = sum(r.decisions[i] for r in self.results)
            secs = sum(r.seconds[i] for r in self.results)
            sign = 1 if i == 0 else -1
            pts, lo, hi = ratio_interval([sign * r.points for r in self.results], [1] * parties)
            players[f"player{i + 1}"] = {
                "level": level,
                "win_rate": {"rate": round(wins / parties, 4) if parties else 0.0,
                             "ci95": [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]},
                "points_per_partie": {"mean": round(pts, 2), "ci95": [round(lo, 2), round(hi, 2)]},
                "score_as_elder": self._mean(lambda d, i=i: d.total(ELDER), lambda d, i=i: d.elder == i),  # type: ignore[misc]
                "score_as_younger": self._mean(lambda d, i=i: d.total(YOUNGER),  # type: ignore[misc]
                                               lambda d, i=i: d.elder != i),  # type: ignore[misc]
                "ms_per_decision": round(1000 * secs / max(decisions, 1), 2),
            }
        if rules_named(self.rules).partie_of_games:
            for i in (0, 1):
                g, lo, hi = ratio_interval([r.games[i] for r in self.results], [1] * parties)
                players[f"player{i + 1}"]["games_per_partie"] = {"mean": round(g, 3), "ci95": [round(lo, 3),
                                                                                                round(hi, 3)]}
            return {
                "players": list(self.levels), "seed": self.seed, "rules": self.rules,
                "parties": parties, "deals": self.deals(), "seconds": round(self.seconds, 1),
                "hands": hands, "cards": cards, "partie": self._games(), **players,
            }
        rubicons = [int(r.rubicon) for r in self.results]
        rc, rh = rate_interval(sum(rubicons), parties)
        vmean, vlo, vhi = ratio_interval(values, [1] * parties)
        return {
            "players": list(self.levels), "seed": self.seed, "rules": self.rules,
            "parties": parties, "deals": self.deals(), "seconds": round(self.seconds, 1),
            "hands": hands,
            "cards": cards,
            "partie": {
                "rubicon_rate": {"rate": round(sum(rubicons) / parties, 4) if parties else 0.0,
                                 "ci95": [round(max(0.0, rc - rh), 4), round(min(1.0, rc + rh), 4)]},
                "draw_rate": round(sum(1 for r in self.results if r.winner is None) / max(parties, 1), 4),
                "value": {"mean": round(vmean, 2), "ci95": [round(vlo, 2), round(vhi, 2)],
                          "median": quantile(value_sorted, 0.5),
                          "distribution": _histogram(value_sorted, width=50)},
            },
            **players,
        }


    def _games(self) -> dict[str, Any]:
        """At Piquet au cent: games, double games and deals per partie (p. 20)."""
        ones = [1] * len(self.results)

        def per_partie(xs: list[int]) -> dict[str, Any]:
            mean, lo, hi = ratio_interval(xs, ones)
            return {"mean": round(mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}

        return {
            "in_games": True,
            "games_per_partie": per_partie([r.games_played for r in self.results]),
            "deals_per_partie": per_partie([len(r.deal_results) for r in self.results]),
            "doubles": clustered_rate([r.doubles[0] + r.doubles[1] for r in self.results],
                                      [r.games_played for r in self.results]),
        }


def _histogram(sorted_xs: Sequence[int], width: int = 10) -> dict[str, int]:
    """Counts in bins of ``width`` ("0-9": n, "10-19": n ...), the empty bins between kept."""
    if not sorted_xs:
        return {}
    counts: dict[int, int] = {}
    for x in sorted_xs:
        counts[x // width] = counts.get(x // width, 0) + 1
    return {f"{b * width}-{b * width + width - 1}": counts.get(b, 0)
            for b in range(min(counts), max(counts) + 1)}


# ---------------------------------------------------------------- playing, saving and loading


def _jobs(levels: tuple[str, str], seed: int, parties: int, rules: str) -> Iterable[_Job]:
    for i in range(parties):
        yield levels, seed, i, rules


def run_stats(p1: str, p2: str, deals: int, seed: int = 0, workers: int | None = None, rules: str = "rubicon",
              progress: Callable[[int, int], None] | None = None, save: TextIO | None = None,
              parties: int | None = None, ray: str | None = None) -> StatsReport:
    """Play whole parties until at least ``deals`` deals are played (or ``parties`` parties, when given).

    At Piquet au cent, where a partie runs to as many deals as it takes, ``deals`` asks for one partie
    for every ``DEALS_A_PARTIE_AU_CENT`` deals.

    ``save`` gets the run's header, each partie as a JSON line as it ends, and the run's time.

    Raises ``ValueError`` for an unknown level or rules, before anything is played.
    """
    p1, p2 = level_named(p1).name, level_named(p2).name
    r = rules_named(rules)
    parties = max(1, parties if parties is not None else -(-deals // (r.deals or DEALS_A_PARTIE_AU_CENT)))
    workers = max(1, min(workers or os.cpu_count() or 1, parties))
    report = StatsReport((p1, p2), seed, r.spec)
    if save is not None:
        save.write(json.dumps({"players": [p1, p2], "seed": seed, "rules": r.spec}) + "\n")
    start = time.perf_counter()
    for result in run_jobs(_play, _jobs((p1, p2), seed, parties, r.spec), parties, workers, progress, ray):
        report.results.append(result)
        if save is not None:
            save.write(json.dumps(dataclasses.asdict(result)) + "\n")
            save.flush()
    report.seconds = time.perf_counter() - start
    if save is not None:
        save.write(json.dumps({"seconds": round(report.seconds, 1)}) + "\n")
    return report


def _tuples(x: Any) -> Any:
    return tuple(_tuples(v) for v in x) if isinstance(x, list) else x


def load_stats(lines: Iterable[str], source: str = "the file") -> StatsReport:
    """A report from saved parties (``--save``); ``ValueError`` saying which line is wrong."""
    it = iter(enumerate(lines, 1))
    try:
        _, first = next(it)
        head = json.loads(first)
        report = StatsReport((str(head["players"][0]), str(head["players"][1])), int(head["seed"]),
                             str(head["rules"]))
    except (StopIteration, ValueError, KeyError, IndexError, TypeError) as e:
        raise ValueError(f"{source} does not start with a stats header ({e})") from None
    for number, line in it:
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            if isinstance(d, dict) and set(d) == {"seconds"}:  # the run's closing line: how long it took
                report.seconds = float(d["seconds"])
                continue
            d["deal_results"] = tuple(DealResult(**{k: _tuples(v) for k, v in x.items()}) for x in d["deal_results"])
            report.results.append(PartieResult(**{k: _tuples(v) if k != "deal_results" else v for k, v in d.items()}))
        except (ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{source}, line {number}: not a saved partie ({e})") from None
    if not report.results:
        raise ValueError(f"{source} holds no parties")
    return report


# ---------------------------------------------------------------- the command


def _rate_text(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:5.1f}% ({100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f})"


def format_stats(s: dict[str, Any]) -> str:
    """The report for a person."""
    took = f", {s['seconds']} s" if s["seconds"] else ""  # a run saved without its closing line has no time
    lines = [f"{s['players'][0]} against {s['players'][1]}: {s['parties']} parties, {s['deals']} deals "
             f"({s['rules']}, seed {s['seed']}{took}); 95% intervals in brackets", "",
             "Score per deal     mean                 median (the show)       treatise's show  nothing"]
    for name in ROLES:
        h = s["hands"][name]
        lines.append(f"  {name:<9} {h['mean']:7.2f} ({h['ci95'][0]:.2f}-{h['ci95'][1]:.2f})   "
                     f"{h['median']:6.1f} ({h['median_ci95'][0]:g}-{h['median_ci95'][1]:g})"
                     f"{'':>12}{h['treatise_show']:>4}           {_rate_text(h['nothing'])}")
    lines.append("  quantiles 10/25/50/75/90%: " + "; ".join(
        f"{name} " + " ".join(f"{v:g}" for v in s["hands"][name]["quantiles"].values()) for name in ROLES))
    lines.append("  per deal:   " + " ".join(f"{k[:9]:>9}" for k in SCORE_KINDS))
    for name in ROLES:
        lines.append(f"  {name:<10}" + " ".join(f"{s['hands'][name]['components'][k]:9.2f}" for k in SCORE_KINDS))
    lines += ["", "The cards", *(f"  {'divided' if k == 'divided' else 'won by the ' + k:<19}{_rate_text(v)}"
                                 for k, v in s["cards"].items())]
    lines += ["", "Each hand         pique             repique           capot (won)       carte blanche"]
    for name in ROLES:
        h = s["hands"][name]
        lines.append(f"  {name:<9} " + "  ".join(f"{_rate_text(h[k]):<17}"
                                                  for k in ("pique", "repique", "capot", "carte_blanche")))
    p = s["partie"]
    if p.get("in_games"):
        return "\n".join(lines + _format_games(s))
    lines += ["", "The partie",
              f"  rubicons {_rate_text(p['rubicon_rate'])}, drawn {100 * p['draw_rate']:.1f}%",
              f"  value of a partie (points won) {p['value']['mean']:.1f} ({p['value']['ci95'][0]:.1f}-"
              f"{p['value']['ci95'][1]:.1f}), median {p['value']['median']:g}"]
    for key in ("player1", "player2"):
        pl = s[key]
        pts = pl["points_per_partie"]
        lines.append(f"  {pl['level']:<12} wins {_rate_text(pl['win_rate'])}, {pts['mean']:+.1f} a partie "
                     f"({pts['ci95'][0]:+.1f} to {pts['ci95'][1]:+.1f}); scores {pl['score_as_elder']['mean']:.2f} "
                     f"a deal as elder, {pl['score_as_younger']['mean']:.2f} as younger; "
                     f"{pl['ms_per_decision']} ms a decision")
    return "\n".join(lines)


def _format_games(s: dict[str, Any]) -> list[str]:
    """The partie at Piquet au cent: games, doubles and deals per partie, parties and games won (p. 20)."""
    p = s["partie"]

    def span(x: dict[str, Any]) -> str:
        return f"{x['mean']:.2f} ({x['ci95'][0]:.2f}-{x['ci95'][1]:.2f})"

    lines = ["", "The partie (three games out of five, a double counting two)",
             f"  games a partie {span(p['games_per_partie'])}, deals a partie {span(p['deals_per_partie'])}, "
             f"double games {_rate_text(p['doubles'])} of the games"]
    for key in ("player1", "player2"):
        pl = s[key]
        lines.append(f"  {pl['level']:<12} wins {_rate_text(pl['win_rate'])} of the parties, "
                     f"{span(pl['games_per_partie'])} games a partie; scores {pl['score_as_elder']['mean']:.2f} "
                     f"a deal as elder, {pl['score_as_younger']['mean']:.2f} as younger; "
                     f"{pl['ms_per_decision']} ms a decision")
    return lines


def plot_stats(report: StatsReport, prefix: str) -> list[str]:
    """Draw the score distributions of each hand and of the value of a partie; the files written (PNG and SVG)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("plots need matplotlib: pip install 'piquet[plots]'") from None
    written: list[str] = []
    s = report.summary()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    top = max(d.total(role) for r in report.results for d in r.deal_results for role in (ELDER, YOUNGER))
    bins = list(range(0, top + 6, 5))
    for role, name in enumerate(ROLES):
        xs = [d.total(role) for r in report.results for d in r.deal_results]
        ax.hist(xs, bins=bins, histtype="step", linewidth=1.6, label=f"{name} (median {s['hands'][name]['median']:g})")
        ax.axvline(s["hands"][name]["median"], linestyle="--", linewidth=0.8, color=f"C{role}")
    ax.set_xlabel("points scored in a deal (bins of 5)")
    ax.set_ylabel("deals")
    ax.set_title(f"{report.levels[0]} v {report.levels[1]}: the score of each hand, {report.deals()} deals")
    ax.legend()
    written += _save(fig, f"{prefix}-scores")
    plt.close(fig)
    if s["partie"].get("in_games"):
        return written  # a partie au cent is won in games: no value in points to draw
    fig, ax = plt.subplots(figsize=(8, 4.5))
    values = [abs(r.points) for r in report.results]
    ax.hist([[v for r, v in zip(report.results, values, strict=True) if r.rubicon == rub] for rub in (False, True)],
            bins=list(range(0, max(values, default=0) + 26, 25)), stacked=True, label=["won", "rubicon"])
    ax.set_xlabel("points won by the winner of the partie (bins of 25)")
    ax.set_ylabel("parties")
    ax.set_title(f"{report.levels[0]} v {report.levels[1]}: the value of a partie, {len(report.results)} parties")
    ax.legend()
    written += _save(fig, f"{prefix}-parties")
    plt.close(fig)
    return written


def _save(fig: Any, stem: str) -> list[str]:
    fig.tight_layout()
    out = []
    for ext in ("png", "svg"):
        fig.savefig(f"{stem}.{ext}")
        out.append(f"{stem}.{ext}")
    return out


def _progress(out: TextIO) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        out.write(f"\r  {done}/{total} parties" + ("\n" if done == total else ""))
        out.flush()

    return show


def run_stats_command(ns: argparse.Namespace) -> int:
    """``piquet stats P1 P2 --deals N | --parties N [--seed S] [--plot PREFIX] [--save F | --load F] [--json]``."""
    try:
        if ns.load:
            try:
                opener: Any = gzip.open if ns.load.endswith(".gz") else open
                with opener(ns.load, "rt", encoding="utf-8") as f:
                    report = load_stats(f, ns.load)
            except (OSError, EOFError) as e:
                raise ValueError(f"cannot read {ns.load}: {getattr(e, 'strerror', None) or e}") from None
        else:
            if ns.p2 is None:
                raise ValueError("name two players (P1 P2), or --load a saved run")
            level_named(ns.p1), level_named(ns.p2), rules_named(ns.rules)
            if ns.deals < 1 or (ns.parties is not None and ns.parties < 1):
                raise ValueError("--deals and --parties must be at least 1")
            progress = _progress(sys.stderr) if not ns.json and sys.stderr.isatty() else None
            if ns.save:
                with open(ns.save, "w", encoding="utf-8") as out:
                    report = run_stats(ns.p1, ns.p2, ns.deals, ns.seed, ns.workers, ns.rules, progress, out, ns.parties,
                                           ray_target(ns))
            else:
                report = run_stats(ns.p1, ns.p2, ns.deals, ns.seed, ns.workers, ns.rules, progress, None, ns.parties,
                                   ray_target(ns))
        summary = report.summary()
        files = plot_stats(report, ns.plot) if ns.plot else []
    except (ValueError, OSError) as e:
        print(f"piquet stats: {e}", file=sys.stderr)
        return 2
    if ns.json:
        print(json.dumps(summary if not files else {**summary, "plots": files}, indent=1))
    else:
        print(format_stats(summary))
        for name in files:
            print(f"  drew {name}")
    return 0


__all__ = ["StatsReport", "TREATISE_SHOW", "clustered_rate", "format_stats", "load_stats", "median_interval",
           "plot_stats", "quantile", "ratio_interval", "run_stats", "run_stats_command"]
