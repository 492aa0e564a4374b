"""What is at stake: what each player needs, told to the viewer at the start of a deal when the score makes
it matter (issue 16, item 3).

When it is told:

- at a partie of deals (Rubicon Piquet, the four-deal partie): in the last deal (Law 71), and in the
  extra deals after a tie (Law 71); not before, when every figure could still change by a whole deal;
- at Piquet au cent: when either player stands within ``WITHIN`` (thirty, a pique's worth) of the game's
  hundred (p. 20).

What is told, every figure from the rules object: the points each needs to pass the rubicon (``Rules.line``,
Law 73) or to reach the game's hundred, in the deal's own points when it counts double
(``Rules.multiplier``); how much more than the other the one behind must score to win the partie, and when
the lead cannot be caught (``Rules.most_in_a_deal``); what a rubicon would be worth at these scores
(``Rules.settle``, Law 73); at Piquet au cent, the games each needs of three (``games_to_win``, a double
counting two, ``double_below``).

>>> from piquet.core.observation import PartieContext
>>> you = {"A": "You", "B": "Bob"}
>>> for line in stake_words(PartieContext("A", "B", 6, 6, "rubicon", {"A": 88, "B": 120}), you):
...     print(line)
You need 12 to pass the rubicon (100, Law 73).
Bob has passed the rubicon, with 120.
You need 33 more than Bob in this deal to win the partie; 32 more ties it, and each deals once more (Law 71).
A rubicon at these scores would be worth 308 to Bob: 120 + 88 + 100 (Law 73).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from piquet.core.observation import PartieContext
from piquet.core.rules import SEATS, Rules, rules_named
from piquet.talk.words import YOU, number_words, verb

#: Piquet au cent: the stake is told when a player stands within this many of the game's hundred (a pique).
WITHIN: Final = 30


@dataclass(frozen=True)
class Need:
    """What one seat needs, as the rules count it: ``to_line`` partie points to the hundred (0 when there),
    ``in_deal`` the deal's own points that make them (the four-deal partie's last deal counts double)."""

    seat: str
    score: int
    to_line: int
    in_deal: int


def _other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def _in_deal(points: int, multiplier: int) -> int:
    """The deal's own points that count ``points`` in the partie, the deal counting ``multiplier`` times."""
    return -(-points // multiplier)


def needs(context: PartieContext, rules: Rules | None = None) -> dict[str, Need]:
    """What each seat needs to reach the hundred: the rubicon (Law 73) or the game's goal (p. 20)."""
    rules = rules or rules_named(context.rules)
    m = rules.multiplier(context.deal_number - 1)
    out = {}
    for seat in SEATS:
        score = context.scores.get(seat, 0)
        short = max(0, rules.line - score)
        out[seat] = Need(seat, score, short, _in_deal(short, m))
    return out


def stake_matters(context: PartieContext, rules: Rules | None = None) -> bool:
    """Whether the score makes the stake worth telling at this deal (the module's rule)."""
    rules = rules or rules_named(context.rules)
    if rules.partie_of_games:
        return any(rules.line - context.scores.get(s, 0) <= WITHIN for s in SEATS)
    return (rules.is_last_deal(context.deal_number, context.deals_in_partie)
            or context.deal_number > rules.deals)


def stake_words(context: PartieContext, names: Mapping[str, str]) -> list[str]:
    """What each player needs, told to the viewer (``names`` by seat, ``"You"`` the viewer, told first):
    ``You need 12 to pass the rubicon (100, Law 73).``; none when the score does not make it matter
    (``stake_matters``)."""
    rules = rules_named(context.rules)
    if not stake_matters(context, rules):
        return []
    seats = sorted(SEATS, key=lambda s: names[s] != YOU)
    if rules.partie_of_games:
        return _games_words(context, rules, names, seats)
    return _partie_words(context, rules, names, seats)


def _partie_words(context: PartieContext, rules: Rules, names: Mapping[str, str], seats: list[str]) -> list[str]:
    """Rubicon Piquet and the four-deal partie, in the last deal or the extra deals (Laws 71-73)."""
    m = rules.multiplier(context.deal_number - 1)
    double = "double" if m == 2 else f"{number_words(m)} times"
    n, last = context.deal_number, rules.is_last_deal(context.deal_number, context.deals_in_partie)
    out = []
    for seat, need in ((s, needs(context, rules)[s]) for s in seats):
        if not need.to_line:
            out.append(f"{verb(names[seat], 'has')} passed the rubicon, with {need.score}.")
        elif m > 1:
            out.append(f"{verb(names[seat], 'needs')} {need.to_line} to pass the rubicon ({rules.line}, Law 73): "
                       f"{need.in_deal} in this deal, which counts {double}.")
        else:
            out.append(f"{verb(names[seat], 'needs')} {need.to_line} to pass the rubicon ({rules.line}, Law 73).")
    a, b = context.scores.get("A", 0), context.scores.get("B", 0)
    if not last:  # the first extra deal after a tie (Law 71): two to come
        out.append(f"The partie was tied after {number_words(rules.deals)} deals: each deals once more (Law 71), "
                   "and whoever scores more in the two deals wins it.")
    elif a == b:
        again = ("each deals once more (Law 71)" if n <= rules.deals
                 else "the partie is drawn (Law 71)")
        out.append(f"The scores are level, at {a}: whoever scores more in this deal wins the partie; "
                   f"level again, {again}.")
    else:
        leader = "A" if a > b else "B"
        behind = _other(leader)
        gap = abs(a - b)
        if gap > rules.most_in_a_deal * m:
            out.append(f"{verb(names[leader], 'cannot')} be caught: {_named(names[behind])} cannot make up {gap} in "
                       f"one deal (at most {rules.most_in_a_deal}{' a deal, counting ' + double if m > 1 else ''}).")
        else:
            win = _in_deal(gap + 1, m)
            text = (f"{verb(names[behind], 'needs')} {win} more than {_named(names[leader])} in this deal to win the "
                    "partie")
            if gap % m == 0:
                again = ("each deals once more (Law 71)" if n <= rules.deals else "the partie is drawn (Law 71)")
                text += f"; {gap // m} more ties it, and {again}"
            out.append(text + ".")
    settled = rules.settle({"A": a, "B": b})
    if settled.rubicon and settled.winner is not None:
        w, lose = context.scores.get(settled.winner, 0), context.scores.get(_other(settled.winner), 0)
        out.append(f"A rubicon at these scores would be worth {settled.points_won} to "
                   f"{_named(names[settled.winner])}: {w} + {lose} + {rules.bonus} (Law 73).")
    return out


def _games_words(context: PartieContext, rules: Rules, names: Mapping[str, str], seats: list[str]) -> list[str]:
    """Piquet au cent, when a player is within reach of the hundred: the points to it, and the games (p. 20)."""
    out = []
    tally = {s: context.games.get(s, 0) for s in SEATS}
    for seat, need in ((s, needs(context, rules)[s]) for s in seats):
        other = _other(seat)
        name = names[seat]
        double = context.scores.get(other, 0) < rules.double_below
        counts = 2 if double else 1
        text = (f"{verb(name, 'needs')} {need.to_line} to reach a hundred and win game {context.game_number}"
                + (f", a double while {_named(names[other])} {'have' if names[other] == YOU else 'has'} not "
                   f"{number_words(rules.double_below)}" if double else ""))
        left = rules.games_to_win - tally[seat]
        if counts >= left:
            text += ": that wins the partie"
        else:
            after = left - counts
            text += f"; then {_named(name)} would need {number_words(after)} more game{'s' if after != 1 else ''}"
        out.append(text + " (p. 20).")
    return out


def _named(name: str) -> str:
    return "you" if name == YOU else name


__all__ = ["WITHIN", "Need", "needs", "stake_matters", "stake_words"]
