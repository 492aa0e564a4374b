"""The review of a whole partie (``piquet analyse``, and the browser's replay): the exchange, the calls, the play.

Each deal of a record is played again through the engine, and three kinds of decision are valued, each
by its *loss*: what the choice gave away, in points of the deal (the player's score less his
adversary's), against the best choice found.  0 is the best.

- **The exchange** (Laws 21-22): each player's discard against the best discards by what they keep
  (``search.discard_candidates``, the search player's short list), the one made added.  Each is valued
  as the search player values them, in the same worlds for all: deals sampled consistent with what the
  player knew when he discarded (``worlds.sample_worlds``), each played out (the adversary's exchange,
  every declaration in full, the play solved with both hands open: ``search.simulate_exchange``).  The
  worlds are drawn from a generator seeded by the review's seed, the deal and the role, so a review is
  the same again, and the same with ``--player``.  A discard's value is its mean over the worlds.
- **The calls** (Laws 45-57): a declaration of less than the player held (sinking, p. 93) is valued
  against declaring in full, with both hands open: each way, the rest of the calls as the record made
  them (as far as they stay lawful, else in full), the elder's first lead, then the play solved
  (``solver.value``).  What sinking hides from the adversary is not valued (the solver sees every card).
  Sinking is lawful (p. 93: what is sunk does not score); where the cards shown bar a reckoning (Case IV)
  less is all that may be declared, and the review says so.
- **The play** (Law 59): as ``piquet.study.analyse``, every legal card valued by the open-card solver.

The review opens with a legend and with each player's costliest decisions; ``player`` keeps one
player's mistakes only (a decision that cost a point or more).  Deals are numbered from 1, in the text
and in the JSON alike.  ``review_partie`` makes the data; ``write_text`` and ``Review.to_json`` render it
(the browser's replay renders the JSON).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, TextIO

from piquet.core.actions import Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import Mask, card_name, cards_of
from piquet.core.combinations import point_key
from piquet.core.deal import Deal, IllegalAction, Phase, declaration_items, full_declarations
from piquet.core.events import ELDER, ROLES, YOUNGER
from piquet.core.observation import observe
from piquet.core.partie import Partie
from piquet.players.base import DECLARING
from piquet.players.search import discard_candidates, simulate_exchange
from piquet.players.solver import Position, card_values, value
from piquet.players.worlds import game_of, sample_worlds
from piquet.talk.words import declaration_words

#: The review's defaults: worlds for each discard, discards tried for each number of cards, the seed.
WORLDS = 16
DISCARDS_PER_COUNT = 3
SEED = 1
#: A mistake: a decision that cost this much or more (points a deal).
MISTAKE = 1.0
#: How many decisions of each player open the review.
COSTLIEST = 3
#: How many discards the review lists for each exchange (the one made besides).
SHOWN = 4

KINDS = ("exchange", "call", "play")
_CATEGORY = ("point", "sequences", "quatorzes and trios")
_LOOKS = (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK)


@dataclass(frozen=True)
class ReviewOptions:
    """How much the review looks at: worlds for each discard, discards for each number of cards, the seed."""

    worlds: int = WORLDS
    discards_per_count: int = DISCARDS_PER_COUNT
    seed: int = SEED

    def __post_init__(self) -> None:
        if self.worlds < 1 or self.discards_per_count < 1:
            raise ValueError("the review needs at least one world and one discard for each number of cards")


@dataclass(frozen=True)
class Decision:
    """One decision of the partie and what it gave away.

    ``options`` are the choices valued, best first, as (words, value for the player); ``loss`` the best's
    value less the chosen's.  ``action`` is the decision's place in its deal's actions (from 0).
    """

    deal: int  # from 1
    kind: str  # "exchange", "call" or "play"
    seat: str
    role: int
    action: int
    chosen: str
    loss: float
    options: tuple[tuple[str, float], ...]
    trick: int = 0
    note: str = ""

    @property
    def is_mistake(self) -> bool:
        return self.loss >= MISTAKE

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "kind": self.kind, "seat": self.seat, "role": ROLES[self.role],
                "action": self.action, "trick": self.trick or None, "chosen": self.chosen,
                "loss": _num(self.loss), "mistake": self.is_mistake,
                "options": [{"choice": c, "value": _num(v)} for c, v in self.options], "note": self.note}


def _num(x: float) -> float | int:
    return round(x, 2) if isinstance(x, float) else x


@dataclass
class Review:
    """The decisions of a partie, deal by deal, and how they were valued."""

    names: dict[str, str]
    options: ReviewOptions
    decisions: list[Decision] = field(default_factory=list)
    deals: list[dict[str, Any]] = field(default_factory=list)  # number, elder and younger seats

    def shown(self, player: str | None = None) -> list[Decision]:
        """Every decision, or ``player``'s mistakes only."""
        if player is None:
            return list(self.decisions)
        return [d for d in self.decisions if d.seat == player and d.is_mistake]

    def costliest(self, seat: str, n: int = COSTLIEST) -> list[Decision]:
        """``seat``'s ``n`` costliest mistakes, the costliest first (in order of play when equal)."""
        mine = [d for d in self.decisions if d.seat == seat and d.is_mistake]
        return sorted(mine, key=lambda d: -d.loss)[:n]

    def totals(self, seat: str) -> dict[str, dict[str, float | int]]:
        """By kind of decision: the points given away and the mistakes."""
        out: dict[str, dict[str, float | int]] = {}
        for kind in KINDS:
            mine = [d for d in self.decisions if d.seat == seat and d.kind == kind]
            out[kind] = {"loss": _num(float(sum(d.loss for d in mine))) if kind == "exchange"
                         else int(sum(d.loss for d in mine)), "mistakes": sum(d.is_mistake for d in mine)}
        return out

    def legend(self) -> list[str]:
        o = self.options
        return [
            "Loss: the points of a deal (the player's score less his adversary's) given away against the best "
            "choice found; 0 is the best. A mistake costs a point or more.",
            f"Exchange: the discard made against the best discards by what they keep ({o.discards_per_count} for "
            f"each number of cards), each valued as the search player values it, over {o.worlds} "
            f"deal{'' if o.worlds == 1 else 's'} sampled "
            "consistent with what the player knew when he discarded (the same deals for every discard, seed "
            f"{o.seed}): the adversary's exchange, every call in full, the play solved with both hands open. "
            "A value is the mean over those deals.",
            "Calls: a declaration of less than the hand held (sinking, lawful: p. 93, what is sunk does not "
            "score), valued against declaring in full with both hands open, the rest of the calls as made and "
            "the play solved; what sinking hides from the adversary is not valued.",
            "Play: every card the player could have played, valued with both hands open (the open-card solver): "
            "his points still to come less his adversary's, a pique not counted.",
        ]

    def to_json(self, player: str | None = None) -> dict[str, Any]:
        """The review as the page and ``piquet analyse --json`` give it: deals numbered from 1."""
        seats = ("A", "B") if player is None else (player,)
        return {
            "legend": self.legend(),
            "worlds": self.options.worlds, "discards_per_count": self.options.discards_per_count,
            "seed": self.options.seed, "mistake": MISTAKE, "player": player,
            "names": self.names,
            "costliest": {s: [d.to_json() for d in self.costliest(s)] for s in seats},
            "totals": {s: self.totals(s) for s in seats},
            "deals": self.deals,
            "decisions": [d.to_json() for d in self.shown(player)],
        }


# ---------------------------------------------------------------- the decisions of a deal


def _cards(mask: Mask) -> str:
    return " ".join(card_name(c) for c in sorted(cards_of(mask), key=lambda c: (c >> 3, -c)))


def _again(deal: Deal, upto: int) -> Deal:
    """The deal dealt again from its cards and its first ``upto`` actions applied."""
    d = Deal(deal.dealt[ELDER], deal.dealt[YOUNGER], deal.stock, deal.rules, deal.game, limits=deal.limits)
    for a in deal.history[:upto]:
        d.apply(a)
    return d


def _exchange(live: Partie, index: int, deal: Deal, at: int, chosen: Mask, options: ReviewOptions) -> Decision:
    """The discard made at ``deal.history[at]`` against the best discards, over sampled worlds."""
    role = deal.to_move
    assert role is not None
    seat = live.seat(index, role)
    obs = observe(deal, role, live.context(seat))
    elder = role == ELDER
    candidates = discard_candidates(obs.hand, obs.max_discard, elder, options.discards_per_count, obs.min_discard)
    if chosen not in candidates:
        candidates.append(chosen)
    rng = random.Random(f"{options.seed}:{index + 1}:{role}")
    worlds = sample_worlds(obs, rng, options.worlds)
    game = game_of(obs)
    totals = [0.0] * len(candidates)
    for w in worlds:
        for i, d in enumerate(candidates):
            totals[i] += simulate_exchange(w, role, d, None, None, obs.rules, game)
    n = max(1, len(worlds))
    valued = sorted(((totals[i] / n, d) for i, d in enumerate(candidates)), key=lambda t: (-t[0], t[1]))
    mine = next(v for v, d in valued if d == chosen)
    shown = [(f"{_cards(d)}" if d else "none", v) for v, d in valued[:SHOWN]]
    if all(d != chosen for _, d in valued[:SHOWN]):
        shown.append((_cards(chosen) or "none", mine))
    note = f"{len(worlds)} worlds" if len(worlds) != options.worlds else ""
    return Decision(index + 1, "exchange", seat, role, at, _cards(chosen) or "none", valued[0][0] - mine,
                    tuple(shown), note=note)


def _items(action: Action) -> frozenset[Mask]:
    if isinstance(action, DeclarePoint):
        return frozenset(declaration_items(0, action.cards))
    if isinstance(action, DeclareSequences):
        return frozenset(action.runs)
    if isinstance(action, DeclareSets):
        return frozenset(action.sets)
    return frozenset()


def _less(action: Action, full: Action) -> bool:
    """Does ``action`` declare less than ``full`` (the whole of the category the hand holds)?"""
    if isinstance(action, DeclarePoint) and isinstance(full, DeclarePoint):
        return point_key(action.cards) < point_key(full.cards)
    return _items(action) != _items(full) and not _items(full) <= _items(action)


def _outcome(deal: Deal, at: int, instead: Action, role: int) -> int | None:
    """``role``'s points less his adversary's in the deal, with ``instead`` at ``deal.history[at]``: the rest
    of the calls as recorded (each role's in its category, while lawful; else in full), the elder's first
    lead as recorded, then the play solved with both hands open.  None if ``instead`` is not lawful."""
    made: dict[tuple[int, int], list[Action]] = {}
    looks: dict[Phase, Action] = {}
    first: Action | None = None
    again = _again(deal, at + 1)
    for a in deal.history[at + 1:]:
        p, r = again.phase, again.to_move
        if p in DECLARING and r is not None:
            made.setdefault((r, DECLARING[p]), []).append(a)
        elif p in _LOOKS:
            looks[p] = a
        elif isinstance(a, Play) and first is None:
            first = a
        again.apply(a)
        if first is not None and again.phase == Phase.PLAY:
            break
    d = _again(deal, at)
    try:
        d.apply(instead)
    except IllegalAction:
        return None
    while not d.is_over:
        p, r = d.phase, d.to_move
        assert r is not None
        if p == Phase.PLAY:
            if d.trick > 1 or d.lead >= 0 or first is None:
                break
            d.apply(first)
        elif p in _LOOKS:
            d.apply(looks.get(p, LookAtLeft(True)))
        else:
            category = DECLARING[p]
            queue = made.get((r, category), [])
            full = observe(d, r).lawful(full_declarations(d.hands[r])[category])
            for a in ([queue.pop(0)] if queue else []) + [full, (DeclarePoint(0), DeclareSequences(()),
                                                                   DeclareSets(()))[category]]:
                try:
                    d.apply(a)
                    break
                except IllegalAction:
                    continue
    net = d.total(role) - d.total(1 - role)
    if d.is_over or d.phase != Phase.PLAY:
        return net
    pos = Position.of_deal(d, pique=True)
    v = value(pos)
    return net + (v if pos.to_play == role else -v)


def _call(live: Partie, index: int, deal: Deal, played: Deal, at: int, action: Action) -> Decision | None:
    """A declaration of less than the hand held, valued against declaring in full; None for a full one.

    ``deal`` is at the declaration (``played.history[at]``), ``played`` the whole deal."""
    role = deal.to_move
    assert role is not None
    category = DECLARING[deal.phase]
    whole = full_declarations(deal.hands[role])[category]
    lawful = observe(deal, role).lawful(whole)
    if not _less(action, whole):
        return None
    assert isinstance(action, DeclarePoint | DeclareSequences | DeclareSets)
    assert isinstance(whole, DeclarePoint | DeclareSequences | DeclareSets)
    assert isinstance(lawful, DeclarePoint | DeclareSequences | DeclareSets)
    seat = live.seat(index, role)
    said, held = declaration_words(action), declaration_words(whole)
    if not _less(action, lawful):
        return Decision(index + 1, "call", seat, role, at, said, 0, ((said, 0),), note=(
            f"{_CATEGORY[category]}: held {held}; the elder's cards shown bar it (Case IV): less was all that "
            "might be declared"))
    chosen = _outcome(played, at, action, role)
    full = _outcome(played, at, lawful, role)
    if chosen is None or full is None:
        return None
    note = f"{_CATEGORY[category]}: held {held}; sinking is lawful (p. 93)"
    loss = full - chosen
    if loss < 0:
        note += f"; it gained {-loss}"
    options = sorted(((declaration_words(lawful), full), (said, chosen)), key=lambda t: -t[1])
    return Decision(index + 1, "call", seat, role, at, said, max(0, loss), tuple(options), note=note)


def review_deal(live: Partie, index: int, played: Deal, options: ReviewOptions) -> list[Decision]:
    """The decisions of ``played`` (deal ``index`` from 0), dealt again as the last deal of ``live``."""
    deal = live.deal_cards(played.dealt[ELDER], played.dealt[YOUNGER], played.stock, limits=played.limits)
    out: list[Decision] = []
    for at, action in enumerate(played.history):
        role = deal.to_move
        assert role is not None
        seat = live.seat(index, role)
        if isinstance(action, Discard) and deal.limits is None:
            out.append(_exchange(live, index, deal, at, action.cards, options))
        elif deal.phase in DECLARING:
            call = _call(live, index, deal, played, at, action)
            if call is not None:
                out.append(call)
        elif isinstance(action, Play):
            values = card_values(Position.of_deal(deal))
            ranked = sorted(values.items(), key=lambda cv: (-cv[1], cv[0]))
            best = ranked[0][1]
            out.append(Decision(index + 1, "play", seat, role, at, card_name(action.card), best - values[action.card],
                                tuple((card_name(c), v) for c, v in ranked), trick=deal.trick,
                                note="leads" if deal.lead < 0 else "plays"))
        deal.apply(action)
    return out


def review_partie(final: Partie, names: dict[str, str] | None = None,
                  options: ReviewOptions | None = None) -> Review:
    """The review of ``final`` (a partie as replayed from its record): every deal dealt again and valued."""
    options = options or ReviewOptions()
    names = {s: (names or {}).get(s) or s for s in ("A", "B")}
    review = Review(names, options)
    live = Partie(final.rules, final.first_dealer, final.deal_by)
    for index, played in enumerate(final.deals):
        review.decisions.extend(review_deal(live, index, played, options))
        review.deals.append({"number": index + 1, "elder": live.seat(index, ELDER),
                             "younger": live.seat(index, YOUNGER)})
    return review


# ---------------------------------------------------------------- the text


def _line(d: Decision, names: dict[str, str]) -> str:
    who = f"{names[d.seat]:<10}"
    if d.kind == "play":
        verdict = "best" if d.loss == 0 else f"cost {d.loss}"
        options = "  ".join(f"{c} {v:+d}" for c, v in d.options)
        return f"  trick {d.trick:2d}  {who} {d.note} {d.chosen:<3} ({verdict}):  {options}"
    if d.kind == "exchange":
        verdict = "best" if d.loss < 0.05 else f"loss {d.loss:.1f} a deal"
        options = ";  ".join(f"{c} {v:+.1f}" for c, v in d.options)
        extra = f" ({d.note})" if d.note else ""
        return f"  exchange  {who} discards {d.chosen} ({verdict}){extra}:  {options}"
    verdict = "no loss" if d.loss == 0 else f"cost {d.loss}"
    options = ";  ".join(f"{c} {v:+d}" for c, v in d.options)
    return f"  calls     {who} declares {d.chosen} ({verdict}): {d.note}:  {options}"


def _where(d: Decision) -> str:
    if d.kind == "play":
        return f"deal {d.deal}, trick {d.trick}: {d.note} {d.chosen}, cost {d.loss}"
    if d.kind == "exchange":
        return f"deal {d.deal}, exchange: discards {d.chosen}, loss {d.loss:.1f} a deal"
    return f"deal {d.deal}, calls: declares {d.chosen}, cost {d.loss}"


def write_text(review: Review, out: TextIO, player: str | None = None) -> None:
    """The review in words: the legend, the costliest decisions, then deal by deal (``player``: his mistakes)."""
    names = review.names
    seats = ("A", "B") if player is None else (player,)
    out.write("Legend\n")
    for line in review.legend():
        out.write(f"  {line}\n")
    out.write("\nCostliest decisions\n")
    for s in seats:
        worst = review.costliest(s)
        out.write(f"  {names[s]}: none (no mistake)\n" if not worst else f"  {names[s]}:\n")
        for d in worst:
            out.write(f"    {_where(d)}\n")
    shown = review.shown(player)
    if player is not None:
        out.write(f"\n{names[player]}'s mistakes (a point or more)\n")
    for deal in review.deals:
        mine = [d for d in shown if d.deal == deal["number"]]
        if player is not None and not mine:
            continue
        out.write(f"\nDeal {deal['number']}: {names[deal['elder']]} elder, {names[deal['younger']]} younger\n")
        for d in mine:
            out.write(_line(d, names) + "\n")
    out.write("\nPoints given away\n")
    for s in seats:
        t = review.totals(s)
        out.write(f"  {names[s]}: exchange {t['exchange']['loss']} a deal in all, calls {t['call']['loss']}, "
                  f"play {t['play']['loss']} in {t['play']['mistakes']} cards\n")


__all__ = ["COSTLIEST", "MISTAKE", "Decision", "Review", "ReviewOptions", "review_deal", "review_partie",
           "write_text"]
