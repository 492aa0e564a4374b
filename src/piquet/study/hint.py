"""Hints that explain themselves (issue 16): the advice for a player's decision, and why, in the treatise's terms.

A hint reads the player's observation only, as every computer player does: it names no card of the
adversary's that the player could not know.  At each decision:

- **The choice of deal** (Laws 4-5): the treatise's advice, "the player who cuts the higher card should
  elect to deal" (p. 108), with what the elder and the younger score a deal on average (measured:
  ``search.DEAL_SCORES``).
- **The exchange** (Laws 21-22): the Cavendish player's discard (p. 116-151), what it keeps for point,
  sequences, quatorzes and trios, and the chances of taking in what it needs, exact
  (``piquet.odds``: ``Drawing.chance`` for named cards, ``exchange_chances`` for the hand at the end of
  the exchange).
- **The calls** (Laws 45-57): whether to declare in full or to sink, by simple rules the cards justify:
  a Case IV bar, an elder's call already good, an equality against a point that must be good (p. 154),
  what is good against the cards (p. 116), what showing reveals against what it scores.
- **The play** (Law 59): every legal card valued by the open-card solver in deals sampled consistent
  with what the player knows (``worlds.sample_worlds``), the values averaged; the best is advised, and
  what it keeps said (the lead, a guard).

>>> from piquet.core.events import ELDER
>>> deal_hint().advice
'Deal first.'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from piquet.core.actions import PLAYS, Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft
from piquet.core.cards import (
    KING,
    QUEEN,
    RANK_MASKS,
    RANK_NAMES,
    SUIT_MASKS,
    SUIT_NAMES,
    Card,
    Mask,
    card_name,
    cards_of,
)
from piquet.core.combinations import best_point, best_sequences, best_sets, point_key, sequence_key
from piquet.core.deal import Phase, declaration_key, declaration_of, full_declarations
from piquet.core.events import (
    ELDER,
    EQUAL,
    NOT_GOOD,
    POINT,
    SEQUENCES,
    SETS,
    YOUNGER,
    CallPoint,
    CallSequence,
    CallSet,
    Reply,
)
from piquet.core.observation import Observation
from piquet.odds import Drawing, Need, exact_odds, exchange_chances, treatise_odds
from piquet.odds.chances import Against
from piquet.players.base import DECLARING
from piquet.players.cavendish import SCORE_LITTLE, CavendishPlayer, boldness, cavendish_discard, play_mode
from piquet.players.search import DEAL_SCORES, pique_need
from piquet.players.solver import Position, card_values
from piquet.players.worlds import sample_worlds
from piquet.talk.words import declaration_words, item_words

#: Deals sampled for a hint in the play (the search player's worlds).
PLAY_WORLDS = 12
_NUMBERS = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight")
_STEP = 5  # DEAL_SCORES counts points in steps of five
_CATEGORY = ("point", "sequence", "quatorze or trio")


@dataclass(frozen=True)
class Hint:
    """The advice and its reasons.

    ``action`` is the advised action (None at the choice of deal, where ``deal_first`` says it);
    ``chances`` the exact figures quoted, as (what, chance); ``values`` each legal card's mean value by the
    solver, best first, over ``worlds`` sampled deals; ``hoped`` the cards the exchange hopes to take in
    (cards the player has not seen: described, never named, as they may be the adversary's).
    """

    advice: str
    reasons: tuple[str, ...]
    action: Action | None = None
    deal_first: bool | None = None
    chances: tuple[tuple[str, Fraction], ...] = ()
    values: tuple[tuple[Card, float], ...] = ()
    worlds: int = 0
    hoped: Mask = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def lines(self) -> list[str]:
        return [self.advice, *self.reasons]

    def to_json(self) -> dict[str, Any]:
        return {"advice": self.advice, "reasons": list(self.reasons), "deal_first": self.deal_first,
                "chances": [{"what": w, "chance": float(p), "odds": exact_odds(p)} for w, p in self.chances],
                "values": [{"card": card_name(c), "value": round(v, 2)} for c, v in self.values],
                "worlds": self.worlds}


def _cards(mask: Mask) -> str:
    return " ".join(card_name(c) for c in sorted(cards_of(mask), key=lambda c: (c >> 3, -c)))


def _odds(p: Fraction) -> str:
    """``3 to 1 against (exactly 1/4)``: the treatise's rounded odds and the exact chance."""
    if p in (0, 1):
        return exact_odds(p)
    return f"{treatise_odds(p)} (exactly {p.numerator}/{p.denominator}, {float(p):.0%})"


# ---------------------------------------------------------------- the choice of deal (Laws 4-5)


def deal_hint(small_cards_count: bool = True) -> Hint:
    """Whether to deal first, having the choice (Laws 4-5, p. 108)."""
    elder, younger = (_STEP * sum(i * p for i, p in enumerate(d)) for d in DEAL_SCORES[small_cards_count])
    return Hint("Deal first.", (
        '"The player who cuts the higher card should elect to deal" (p. 108).',
        "The deal alternates (Law 16): the first dealer is younger hand in the first deal and elder hand in "
        "the last, when the score of the partie is known and the elder's advantage counts most.",
        f"The elder's advantage: the Cavendish level against itself over 10,000 deals, the elder scored about "
        f"{elder:.0f} points a deal and the younger {younger:.0f} (measured at Piquet au cent).",
    ), deal_first=True)


def deal_by_hint() -> Hint:
    """By two or by three (Law 9): the treatise's usual way."""
    return Hint("Deal by two.", (
        "Either is lawful for the whole partie (Law 9); by two is the usual way, and the cards fall no "
        "better for either player by three: the deal gives neither an advantage.",), deal_first=None)


# ---------------------------------------------------------------- the exchange (p. 116-151)


def _point_words(mask: Mask) -> str:
    n, value = point_key(mask)
    return f"the point of {_NUMBERS[n]} in {SUIT_NAMES[mask.bit_length() - 1 >> 3]} ({value})"


def _drawing(obs: Observation) -> Drawing:
    elder_left = 0
    if obs.role == YOUNGER:
        elder_left = max(0, obs.stock_left - 3)
    return Drawing(obs.role, hand=obs.hand, seen=obs.seen_left, elder_left=elder_left)


def exchange_hint(obs: Observation) -> Hint:
    """The Cavendish player's discard, what it keeps and the exact chances of taking in what it needs."""
    hand = obs.hand
    discard = cavendish_discard(hand, obs.max_discard, obs.role, boldness(obs), obs.min_discard)
    kept = hand & ~discard
    n = discard.bit_count()
    reasons: list[str] = []
    keeps: list[str] = []
    if pt := best_point(kept):
        keeps.append(_point_words(pt))
    keeps += [f"the {item_words(SEQUENCES, r)}" for r in best_sequences(kept)]
    keeps += [item_words(SETS, s) for s in best_sets(kept)]
    if keeps:
        reasons.append("It keeps " + (", ".join(keeps[:-1]) + " and " + keeps[-1] if len(keeps) > 1 else keeps[0])
                       + ".")
    out_suits = [SUIT_NAMES[s] for s in range(4) if discard & SUIT_MASKS[s]]
    if out_suits:
        reasons.append(f"It puts out {_cards(discard)}, from {', '.join(out_suits)}: "
                       + ("the elder attacks: he discards to take in for point and sequence (p. 117)."
                          if obs.role == ELDER else
                          "the younger guards: he keeps his guards and discards to defend (p. 117, 141)."))
    if obs.role == ELDER and n < obs.max_discard:
        left = obs.max_discard - n
        reasons.append(f"It leaves {_NUMBERS[left]} card{'s' if left > 1 else ''} rather than put out a card "
                       "worth keeping; the younger may take what is left (Law 32).")
    chances: list[tuple[str, Fraction]] = []
    hoped = 0
    drawing = _drawing(obs)
    if n:
        taken = Drawing(drawing.role, hand=hand, seen=drawing.seen, taken=n, elder_left=drawing.elder_left)
        unseen = ~(hand | obs.seen_left)
        # The cards that lengthen the best sequence kept, or a card to make it.
        runs = best_sequences(kept)
        if runs:
            run = runs[0]
            ends = ((run << 1) | (run >> 1)) & SUIT_MASKS[run.bit_length() - 1 >> 3] & ~run & unseen
            if ends:
                p = taken.chance([[Need(1 << c, 1)] for c in cards_of(ends)])
                either = "the card at either end of" if ends.bit_count() > 1 else "the card to lengthen"
                what = f"{either} the {item_words(SEQUENCES, run)}"
                chances.append((what, p))
                hoped |= ends
        for s in best_sets(kept):
            if s.bit_count() == 3:
                fourth = RANK_MASKS[(s.bit_length() - 1) & 7] & ~s & unseen
                if fourth:
                    p = taken.chance([[Need(fourth, 1)]])
                    rank = RANK_NAMES[(s.bit_length() - 1) & 7]
                    chances.append((f"the fourth {rank} to the {item_words(SETS, s)}", p))
                    hoped |= fourth
        if obs.stock_left >= n:
            x = exchange_chances(Drawing(drawing.role, hand=obs.dealt, discard=discard, seen=drawing.seen,
                                         taken=n, elder_left=drawing.elder_left))
            length = point_key(pt)[0] if pt else 0
            if length:
                better = sum((p for k, p in x.point.items() if k > length), Fraction(0))
                chances.append((f"a point of more than {_NUMBERS[length]} cards after the exchange", better))
            longest = sequence_key(runs[0])[0] if runs else 0
            if longest < 8:
                seq = sum((p for k, p in x.sequence.items() if k > max(longest, 2)), Fraction(0))
                chances.append((f"a sequence longer than {'a ' + str(longest) + '-card one' if longest else 'none'}"
                                " after the exchange", seq))
            if not any(m.bit_count() == 4 for m in best_sets(kept)):
                chances.append(("a quatorze after the exchange", x.quatorze))
        for what, p in chances:
            reasons.append(f"The chance of {what}: {_odds(p)}.")
    what = f"Discard {_cards(discard)}." if discard else "Discard nothing: keep the hand (p. 17)."
    return Hint(what, tuple(reasons), Discard(discard), chances=tuple(chances), hoped=hoped)


def look_hint(obs: Observation) -> Hint:
    """Whether to look at the cards left (Laws 33, 36)."""
    if obs.phase == Phase.ELDER_LOOK:
        return Hint("Look at the cards you left.", (
            "The elder alone sees them (Law 33): knowing what the younger may take costs nothing.",), LookAtLeft(True))
    return Hint("Do not look at the cards left.", (
        "If the younger looks, the elder sees them too (Law 36); the younger, who left them to keep his "
        "guards (p. 141), is the one whose hand is the easier to count.",), LookAtLeft(False))


# ---------------------------------------------------------------- the calls (p. 152-165)


def _elder_call(obs: Observation, category: int) -> tuple[int, int] | None:
    for e in obs.events:
        if e.role != ELDER:
            continue
        if category == POINT and isinstance(e, CallPoint):
            return (e.length, 0)
        if category == SEQUENCES and isinstance(e, CallSequence):
            return (e.length, e.head)
        if category == SETS and isinstance(e, CallSet):
            return (e.size, e.rank)
    return None


def call_hint(obs: Observation) -> Hint:
    """Whether to declare in full or to sink, and why."""
    category = DECLARING[obs.phase]
    full = full_declarations(obs.hand)[category]
    lawful = obs.lawful(full)
    advised = CavendishPlayer().choose(obs)
    assert isinstance(advised, DeclarePoint | DeclareSequences | DeclareSets)
    assert isinstance(lawful, DeclarePoint | DeclareSequences | DeclareSets)
    held, said = declaration_of(full), declaration_of(advised)
    mine = declaration_key(category, held)
    reasons: list[str] = []
    shown = _shown(advised)
    name = _CATEGORY[category]
    if not held:
        return Hint(f"Call: {declaration_words(advised)}.", (f"You hold no {name} to declare.",), advised)
    full_words = declaration_words(full)
    if declaration_of(lawful) != held:
        reasons.append(f"You hold {full_words}, but the cards the elder has shown bar a reckoning of it "
                       "(Case IV): less is all you may declare.")
    sinks = said != held
    mode = play_mode(obs)
    elder_call = _elder_call(obs, category) if obs.role == YOUNGER else None
    if mode == SCORE_LITTLE:
        reasons.append('The partie is lost whatever happens: "your object should be to score as little as '
                       'possible, to declare equalities" (p. 174).')
    if obs.role == YOUNGER and elder_call is not None and category == POINT and mine[0] < elder_call[0]:
        reasons.append(f"The elder called {_NUMBERS[elder_call[0]]} cards: his point is good against your "
                       f"{_NUMBERS[mine[0]]} anyway. Declaring scores nothing and only shows him your hand.")
    elif obs.role == YOUNGER and elder_call is not None and category != POINT and mine < elder_call:
        reasons.append("The elder's call is good against yours anyway: declaring scores nothing and only "
                       "shows him your hand.")
    against = Against.of(obs.hand | obs.discard)
    weakest = CavendishPlayer._weakest_point(against, mine[0]) if category == POINT else None
    if (obs.role == YOUNGER and elder_call is not None and category == POINT and mine[0] == elder_call[0]
            and sinks and weakest is not None and weakest > mine[1]):
        reasons.append('"You should not declare the equality if his point must be good" (p. 154): every point '
                       f"of {_NUMBERS[mine[0]]} he may hold makes {weakest} or more, yours {mine[1]}.")
    if not sinks:
        beaten = {POINT: against.point_beaten, SEQUENCES: against.sequence_beaten, SETS: against.set_beaten}
        if obs.role == ELDER or elder_call is None:
            if not beaten[category](mine):
                reasons.append(f"Your {name} is good against the cards: nothing he may hold beats it (p. 116).")
            else:
                reasons.append(f"He may hold a better {name}; declared, yours scores if it is good, and its "
                               "cards are shown only if it scores or is equal (Law 55).")
        reasons.append(f"Declare it in full: {declaration_words(advised)}.")
    elif obs.role == ELDER and not reasons:
        if category == SEQUENCES and not said and _point_answered(obs):
            reasons.append("Your point was answered equal or not good, so his point's cards hold a better "
                           'sequence than yours: "by calling it you only expose your hand" (p. 156).')
        else:
            reasons.append("The calls in full would show ten of your twelve cards and leave a king or queen "
                           "of a suit not shown unguarded: the treatise sinks a small item to hide it "
                           "(p. 156-158).")
    hidden = _shown(lawful) & ~shown & ~obs.shown(obs.role)
    if sinks and hidden:
        reasons.append(f"Sinking keeps {_cards(hidden)} hidden; what is sunk does not score (p. 93).")
    advice = f"Call: {declaration_words(advised)}." if not sinks else (
        f"Sink: {declaration_words(advised)} (you hold {full_words}).")
    return Hint(advice, tuple(reasons), advised)


def _point_answered(obs: Observation) -> bool:
    return any(isinstance(e, Reply) and e.category == POINT and e.outcome in (EQUAL, NOT_GOOD) for e in obs.events)


def _shown(action: DeclarePoint | DeclareSequences | DeclareSets) -> Mask:
    if isinstance(action, DeclarePoint):
        return action.cards
    m = 0
    for item in (action.runs if isinstance(action, DeclareSequences) else action.sets):
        m |= item
    return m


# ---------------------------------------------------------------- the play (p. 166-202)


def _playable(obs: Observation) -> Mask:
    if obs.lead >= 0 and obs.hand & SUIT_MASKS[obs.lead >> 3]:
        return obs.hand & SUIT_MASKS[obs.lead >> 3]
    return obs.hand


def play_values(obs: Observation, worlds: int = PLAY_WORLDS, seed: int = 1) -> tuple[dict[Card, float], int]:
    """Each legal card's mean value (the player's points to come less the adversary's) by the open-card
    solver, over ``worlds`` deals sampled consistent with the observation; and how many were sampled."""
    legal = cards_of(_playable(obs))
    me = obs.role
    leader = me if obs.lead < 0 else 1 - me
    sampled = sample_worlds(obs, random.Random(seed), worlds)
    totals = dict.fromkeys(legal, 0.0)
    for w in sampled:
        hands = [0, 0]
        hands[me] = obs.hand
        hands[1 - me] = w.hand(1 - me, obs)
        need = pique_need(obs, hands[YOUNGER])
        pos = Position((hands[0], hands[1]), leader, obs.lead, obs.tricks_won, need, obs.rules.counting_cards)
        for c, v in card_values(pos).items():
            totals[c] += v
    k = max(1, len(sampled))
    return {c: t / k for c, t in totals.items()}, len(sampled)


def _known_out(obs: Observation) -> Mask:
    """The cards the player knows are not the adversary's: his own, his discard, the cards played or seen."""
    return obs.hand | obs.discard | obs.played() | obs.seen_left


def _keeps(obs: Observation, c: Card) -> list[str]:
    """What playing ``c`` keeps or does: the lead, a guard (in the cards the player may see)."""
    out: list[str] = []
    suit = SUIT_MASKS[c >> 3]
    higher_out = suit & ~((2 << c) - 1) & ~_known_out(obs)
    if obs.lead < 0:
        if not higher_out:
            out.append(f"{card_name(c)} is the best card left in {SUIT_NAMES[c >> 3]}: it wins the trick and "
                       "keeps the lead.")
        else:
            out.append(f"{card_name(c)} gives up the lead unless he cannot win it; it keeps your higher "
                       "cards for later.")
    else:
        lead = obs.lead
        if c >> 3 == lead >> 3 and c > lead:
            out.append(f"{card_name(c)} wins the trick, and with it the lead.")
        elif c >> 3 == lead >> 3:
            out.append(f"{card_name(c)} does not win the trick: it keeps your better cards.")
        else:
            out.append(f"{card_name(c)} is thrown from {SUIT_NAMES[c >> 3]}: you cannot follow suit.")
    rest = obs.hand & suit & ~(1 << c)
    for g in cards_of(rest):
        if g & 7 not in (KING, QUEEN):
            continue
        needed = (suit & ~((2 << g) - 1) & ~_known_out(obs)).bit_count()  # the higher cards he may hold
        below = rest & ((1 << g) - 1)
        if not needed:
            continue
        if below.bit_count() >= needed:
            out.append(f"It keeps {card_name(g)} guarded ({_cards(below)} below it).")
        elif c < g and below.bit_count() + 1 >= needed:
            out.append(f"It unguards {card_name(g)}: the solver finds that costs less than the others.")
    return out


def play_hint(obs: Observation, worlds: int = PLAY_WORLDS, seed: int = 1) -> Hint:
    """The card with the best mean value by the open-card solver over sampled deals, and what it keeps."""
    legal = cards_of(_playable(obs))
    if len(legal) == 1:
        c = legal[0]
        return Hint(f"Play {card_name(c)}.", ("It is the only card you may play (Law 59).",), PLAYS[c],
                    values=((c, 0.0),))
    values, n = play_values(obs, worlds, seed)
    ranked = sorted(values.items(), key=lambda cv: (-cv[1], cv[0]))
    best = ranked[0][0]
    listed = ", ".join(f"{card_name(c)} {v:+.1f}" for c, v in ranked)
    reasons = [f"The open-card solver, over {n} sampled deals consistent with what you know, values each card "
               f"(your points to come less his): {listed}."]
    ties = [c for c, v in ranked if v == ranked[0][1]]
    if len(ties) > 1:
        reasons.append(f"{' '.join(card_name(c) for c in ties)} are worth the same: any of them will do.")
    reasons += _keeps(obs, best)
    return Hint(f"Play {card_name(best)}.", tuple(reasons), PLAYS[best], values=tuple(ranked), worlds=n)


# ---------------------------------------------------------------- any decision


def hint(obs: Observation, worlds: int = PLAY_WORLDS, seed: int = 1) -> Hint:
    """The hint for the decision the observation's player has to make."""
    p = obs.phase
    if p in (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD):
        return exchange_hint(obs)
    if p in (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK):
        return look_hint(obs)
    if p in DECLARING:
        return call_hint(obs)
    if p == Phase.PLAY:
        return play_hint(obs, worlds, seed)
    return Hint("Nothing to decide: the deal is over.", ())


__all__ = ["PLAY_WORLDS", "Hint", "call_hint", "deal_by_hint", "deal_hint", "exchange_hint", "hint", "look_hint",
           "play_hint", "play_values"]
