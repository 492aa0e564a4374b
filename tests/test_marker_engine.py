"""The marker against the engine: a deal played by the engine, entered into the marker by its calls and
replies (full form) or by its scores (quick form), with the play card by card or by its totals, scores the
same, heading by heading (Laws 61-69); and so when the players sink (p. 156-158), calling any lawful part of
what they hold, the younger's reckoning barred by the elder's cards shown as the engine bars it (Case IV)."""

from __future__ import annotations

import random

import pytest

from piquet.core.cards import POINT_VALUES
from piquet.core.combinations import Outcome, best_sequences, best_sets, sequence_key, set_key
from piquet.core.deal import Deal, Phase, full_declarations
from piquet.core.events import (
    ELDER,
    S_PIQUE,
    S_PLAY,
    YOUNGER,
    CallPoint,
    CallSequence,
    CallSet,
    CallValue,
    CarteBlancheShown,
    GameWon,
    NameSet,
    Play,
    Reply,
    Show,
)
from piquet.core.rules import FOUR_DEAL, RUBICON, Rules, rules_named
from piquet.marker.calls import Declared, PointCall, SequenceCall, SetCall, hand_fits, implied_bar
from piquet.marker.deal import CardPlay, FullCalls, MarkedDeal, PlayTotals, QuickScores, shown_by_elder

_OUTCOMES = (Outcome.GOOD, Outcome.EQUAL, Outcome.NOT_GOOD)


def engine_deal(seed: int, rules: Rules = RUBICON, game: tuple[int, int] | None = None, sink: bool = False) -> Deal:
    """A deal played by the engine: random discards and play, every declaration in full (``sink``: any lawful
    declaration, so that the players sink at random)."""
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, rules=rules, game=game)
    while not deal.is_over:
        p = deal.phase
        if not sink and Phase.ELDER_POINT <= p <= Phase.YOUNGER_RECKON_SETS:
            role = deal.to_move
            assert role is not None
            full = full_declarations(deal.hands[role])
            category = (p - Phase.ELDER_POINT) // 2 if p <= Phase.YOUNGER_SETS else p - Phase.YOUNGER_RECKON_POINT
            deal.apply(full[category])
        else:
            deal.apply(deal.legal_actions().sample(rng))
    return deal


def _point(cards: int, suits: bool = False) -> PointCall:
    suit = (cards.bit_length() - 1) >> 3
    b = cards >> (8 * suit) & 0xFF
    value = sum(POINT_VALUES[r] for r in range(8) if b >> r & 1)
    return PointCall(b.bit_count(), value, suit, b.bit_length() - 1) if suits else PointCall(b.bit_count(), value)


def full_form(deal: Deal, suits: bool = False) -> FullCalls:
    """The deal as the players spoke it, read from the engine's events (``suits``: with the suits and the
    point's top card as shown)."""
    point: list[PointCall | None] = [None, None]
    seqs: list[list[SequenceCall]] = [[], []]
    sets: list[list[SetCall]] = [[], []]
    shown_seq, shown_set = [False, False], [False, False]
    replies: list[Outcome | None] = [None, None, None]
    for e in deal.events:
        if isinstance(e, CallPoint):
            point[ELDER] = PointCall(e.length)
        elif isinstance(e, CallValue):
            assert point[ELDER] is not None
            point[ELDER] = PointCall(point[ELDER].cards, e.value)
        elif isinstance(e, CallSequence):
            seqs[ELDER] = [SequenceCall(e.length, e.head)]
        elif isinstance(e, CallSet):
            sets[ELDER] = [SetCall(e.size, e.rank)]
        elif isinstance(e, Reply):
            replies[e.category] = _OUTCOMES[e.outcome]
        elif isinstance(e, Show):
            r = e.role
            if e.category == 0:
                point[r] = _point(e.cards, suits) if r == YOUNGER or e.points else point[r]
                if r == ELDER and point[r] is not None and e.points == 0:
                    point[r] = _point(e.cards, suits)
            elif e.category == 1:
                if not shown_seq[r]:
                    seqs[r], shown_seq[r] = [], True
                seqs[r].append(SequenceCall(*sequence_key(e.cards), (e.cards.bit_length() - 1) >> 3 if suits else None))
            else:
                if not shown_set[r]:
                    sets[r], shown_set[r] = [], True
                sets[r].append(SetCall(*set_key(e.cards)))
        elif isinstance(e, NameSet):
            r = e.role
            if not shown_set[r]:
                sets[r], shown_set[r] = [], True
            sets[r].append(SetCall(e.size, e.rank))
    hands = [Declared(point[r], tuple(seqs[r]), tuple(sets[r])) for r in (ELDER, YOUNGER)]
    return FullCalls(hands[ELDER], (replies[0], replies[1], replies[2]), hands[YOUNGER])


def quick_form(deal: Deal) -> QuickScores:
    s = deal.scores
    return QuickScores((s[0][1], s[0][2], s[0][3]), (s[1][1], s[1][2], s[1][3]))


def carte_blanche(deal: Deal) -> int | None:
    return next((e.role for e in deal.events if isinstance(e, CarteBlancheShown)), None)


def totals(deal: Deal) -> PlayTotals:
    won = next((e.role for e in deal.events if isinstance(e, GameWon)), None)
    return PlayTotals(deal.tricks_won[ELDER], deal.scores[ELDER][S_PLAY], deal.scores[YOUNGER][S_PLAY],
                      pique=deal.scores[ELDER][S_PIQUE] > 0, first_to_goal=won)


def cards(deal: Deal) -> CardPlay:
    return CardPlay(tuple(e.card for e in deal.events if isinstance(e, Play)))


@pytest.mark.parametrize("rules", [RUBICON, FOUR_DEAL], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(150))
def test_full_and_quick_forms_score_as_the_engine(seed: int, rules: Rules) -> None:
    deal = engine_deal(seed, rules)
    expected = (tuple(deal.scores[ELDER]), tuple(deal.scores[YOUNGER]))
    for decl in (full_form(deal), quick_form(deal)):
        for play in (cards(deal), totals(deal)):
            marked = MarkedDeal("B", carte_blanche(deal), decl, play)
            got = marked.score(rules)
            assert got.scores == expected, (seed, type(decl).__name__, type(play).__name__)
            assert got.tricks == tuple(deal.tricks_won)


@pytest.mark.parametrize("spec", ["au-cent", "au-cent+small-cards+fours"])
@pytest.mark.parametrize("seed", range(60))
def test_au_cent_deals_stop_where_the_engine_stops(seed: int, spec: str) -> None:
    rules = rules_named(spec)
    rng = random.Random(seed)
    game = (rng.randrange(0, 100), rng.randrange(0, 100))
    deal = engine_deal(seed, rules, game)
    expected = (tuple(deal.scores[ELDER]), tuple(deal.scores[YOUNGER]))
    won = next(((e.role, e.double) for e in deal.events if isinstance(e, GameWon)), None)
    for decl in (full_form(deal), quick_form(deal)):
        got = MarkedDeal("B", carte_blanche(deal), decl, cards(deal)).score(rules, game)
        assert got.game_won == won
        if isinstance(decl, FullCalls):
            assert got.scores == expected
        else:  # a category's items are one score in quick form: only the goal and the play can be told
            assert got.game_won == won


@pytest.mark.parametrize("seed", range(200))
def test_deals_where_the_players_sink_score_as_the_engine(seed: int) -> None:
    """A player may call less than he holds, or nothing (p. 156-158): the marker refuses none of the engine's
    lawful calls, with or without their suits, and scores them as the engine does."""
    deal = engine_deal(seed, RUBICON, sink=True)
    expected = (tuple(deal.scores[ELDER]), tuple(deal.scores[YOUNGER]))
    for suits in (False, True):
        calls = full_form(deal, suits)
        for role in (calls.elder, calls.younger):
            assert hand_fits(role)
        got = MarkedDeal("B", carte_blanche(deal), calls, cards(deal)).score(RUBICON)
        assert got.scores == expected, (seed, suits)


@pytest.mark.parametrize("seed", range(200))
def test_the_marker_bars_no_more_than_the_cards_shown(seed: int) -> None:
    """What the marker takes the elder's shown cards to make is never more than they make (Case IV): it is
    their least wherever the calls leave them open, and with the suits and the point's top card entered the
    point's holdings include the one shown."""
    deal = engine_deal(seed, RUBICON, sink=True)
    shown = point = 0
    for e in deal.events:
        if isinstance(e, Show) and e.role == ELDER:
            shown |= e.cards
            point |= e.cards if e.category == 0 else 0
    runs, sets = best_sequences(shown), best_sets(shown)
    made = (sequence_key(runs[0]) if runs else (0, 0), set_key(sets[0]) if sets else (0, 0))
    for suits in (False, True):
        elder = shown_by_elder(full_form(deal, suits))
        if suits and elder.point is not None and elder.point.suit is not None:
            assert point >> (8 * elder.point.suit) & 0xFF in elder.point.bytes
        for c in (1, 2):
            assert implied_bar(elder, c) <= made[c - 1], (seed, suits, c)
