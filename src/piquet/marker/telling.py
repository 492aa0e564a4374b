"""A marked deal and partie in words: the calls and replies told by the narrator (``piquet.talk.words``),
then each score in Law 67's order, the running count, and the settlement."""

from __future__ import annotations

from dataclasses import replace

from piquet.core.combinations import Outcome
from piquet.core.events import AskValue, CallPoint, CallSequence, CallSet, CallValue, Event, Reply
from piquet.marker.calls import ELDER, YOUNGER
from piquet.marker.deal import CardPlay, FullCalls, MarkedDeal
from piquet.marker.partie import MarkedPartie
from piquet.talk.words import Narrator, reckoning_words, settlement_words, tricks_words

_OUTCOME_CODE = {Outcome.GOOD: 0, Outcome.EQUAL: 1, Outcome.NOT_GOOD: 2}


def call_events(calls: FullCalls, calls_state_value: bool) -> list[Event]:
    """The elder's calls and the younger's replies as the engine's events, for the narrator (Laws 46-49)."""
    out: list[Event] = []
    e, y = calls.elder, calls.younger
    if e.point is not None and calls.replies[0] is not None:
        out.append(CallPoint(ELDER, e.point.cards))
        asked = y.point is not None and y.point.cards == e.point.cards or calls.replies[0] is Outcome.EQUAL
        if calls_state_value and e.point.value is not None:
            out.append(CallValue(ELDER, e.point.value))
        elif asked and e.point.value is not None:
            out += [AskValue(YOUNGER, e.point.cards), CallValue(ELDER, e.point.value)]
        out.append(Reply(YOUNGER, 0, _OUTCOME_CODE[calls.replies[0]]))
    if e.sequences and calls.replies[1] is not None:
        best = max(e.sequences, key=lambda s: s.key)
        out += [CallSequence(ELDER, best.length, best.head), Reply(YOUNGER, 1, _OUTCOME_CODE[calls.replies[1]])]
    if e.sets and calls.replies[2] is not None:
        best_set = max(e.sets, key=lambda s: s.key)
        out += [CallSet(ELDER, best_set.size, best_set.rank), Reply(YOUNGER, 2, _OUTCOME_CODE[calls.replies[2]])]
    return out


def not_held_lines(calls: FullCalls, names: tuple[str, str]) -> list[str]:
    """Each call found to be of what the caller does not hold: void, his correct calls still barring (Law 54,
    Case II)."""
    out = []
    for role, decl in ((ELDER, calls.elder), (YOUNGER, calls.younger)):
        for c in range(3):
            for item in decl.items(c):
                if not item.held:
                    what = f"a point of {replace(item, held=True)}" if c == 0 else \
                        f"a {replace(item, held=True)}" if c == 1 else str(replace(item, held=True))
                    out.append(f"  {names[role]} called {what}, which he does not hold: the call is void, and the "
                               "adversary reckons what he has good against his correct calls (Law 54, Case II).")
    return out


def deal_lines(partie: MarkedPartie, index: int, number: int) -> list[str]:
    """Deal ``index`` of the entries told: who deals, the calls and replies, each score and the tricks."""
    d: MarkedDeal = partie.deals[index]
    names = (partie.name(partie.seat(d, ELDER)), partie.name(partie.seat(d, YOUNGER)))
    head = f"{partie.name(d.dealer)} deals; {names[ELDER]} is elder hand."
    if not d.counts:
        why = "annulled: the same dealer deals again (Laws 11-15)" if d.status == "annulled" else \
            "void: the deals before stand, and the right dealer deals (Laws 16, 75)"
        return [f"{head} The deal is {why}."]
    out = [f"Deal {number}: {head}" + (" Dealt out of turn, found too late (Law 16)." if d.out_of_turn else "")]
    if d.lost_by is not None:
        loser, winner = names[d.lost_by], names[1 - d.lost_by]
        stood = partie.scores_after[number - 1] if 0 < number <= len(partie.scores_after) else None
        at = "" if stood is None else \
            f" The game stood at {partie.players[0]} {stood['A']}, {partie.players[1]} {stood['B']}."
        out.append(f"  {loser} loses the game (p. 17 (3)): {winner} wins it, a single game, and nothing of the deal is "
                   f"scored.{at}")
        return out
    if isinstance(d.declarations, FullCalls):
        for line in Narrator(names).lines(call_events(d.declarations, partie.rules.calls_state_value)):
            out.append(f"  {names[line.speaker]}: \"{line.text}\"" if line.speaker is not None else f"  {line.text}")
        out += not_held_lines(d.declarations, names)
    score = partie.deal_scores[index]
    assert score is not None
    count = [0, 0]
    for s in score.order:
        count[s.role] += s.points
        out.append(f"  {names[s.role]}: {reckoning_words(s.kind, s.points, count[s.role])}")
    if d.play is not None:
        for r in (ELDER, YOUNGER):
            out.append(f"  {tricks_words(names[r], score.tricks[r])}")
    if isinstance(d.play, CardPlay):
        out.append(f"  The play: {len(d.play.cards)} cards, entered card by card.")
    for r in sorted(d.reckons_nothing):
        waived = " (the penalty is waived, Law 44)" if r in d.waived else ""
        out.append(f"  {names[r]} reckons nothing this deal; his calls still bar{waived}.")
    if d.corrected:
        out.append("  The score was put right (Law 70).")
    out.append(f"  Deal {number}: {names[ELDER]} {score.total(ELDER)}, {names[YOUNGER]} {score.total(YOUNGER)}.")
    if score.game_won is not None:
        double = ", a double game" if score.game_won[1] else ""
        out.append(f"  {names[score.game_won[0]]} reaches the goal: the game{double} (p. 20).")
    return out


def partie_text(partie: MarkedPartie) -> str:
    """The whole partie in words, then its scores and the settlement (Laws 71-73; au cent, p. 20)."""
    a, b = partie.players
    out = [f"{partie.rules.title}, marked: {a} (A) and {b} (B)."]
    number = 0
    for i, d in enumerate(partie.deals):
        number += d.counts
        out += deal_lines(partie, i, number)
    s = partie.scores
    out.append(f"The partie: {a} {s['A']}, {b} {s['B']}.")
    names = {"A": a, "B": b}
    out.append(settlement_words(partie.settlement(), s, partie.rules, names, len(partie.scores_after),
                                partie.deals_needed))
    return "\n".join(out)


__all__ = ["call_events", "deal_lines", "not_held_lines", "partie_text"]
