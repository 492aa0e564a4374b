"""The action encoding and the observation vector that learners see (docs/rl.md).

One fixed action space of ``N_ACTIONS`` numbers serves every decision of a
partie. Numbers 0-31 are the cards as the engine numbers them (0 the seven
of spades ... 31 the ace of diamonds): in the play a card number plays that
card (Laws 57-59); in the exchange and the calls it *picks* the card into
the selection being built, and ``DONE`` then makes the discard (Laws 21-22)
or the call (Laws 46-64) of exactly the cards picked. A discard of five
among twelve is thus five picks and ``DONE`` rather than one of 2^12
subsets. A pick is never taken back, so a decision takes at most thirteen
steps; the mask allows only picks that can still be completed into a lawful
action, and ``DONE`` only when the cards picked are one. ``SINK`` declares
nothing in the category being called (p. 93); ``LOOK`` and ``DONT_LOOK``
answer whether to look at the cards left (Laws 33, 36); ``DEAL`` and
``LET_DEAL`` are the choice of the winner of the cut (Law 4); ``BY_TWO`` and
``BY_THREE`` the first dealer's (Law 9).

A declaration is decoded from the cards picked: the point is the cards of
one suit (fewer than all of them sinks the rest), sequences are the
maximal runs among them, quatorzes and trios the cards of each rank.  Every
lawful declaration has exactly one set of picks, and every engine action
``encode`` gives back its steps, so a learner and a player of the engine
meet in the same space.

>>> [word_name(a) for a in (0, 31, DONE, SINK, LOOK, DEAL, BY_THREE)]
['7S', 'AD', 'done', 'sink', 'look', 'deal', 'by three']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from piquet.core.actions import (
    LOOK_CHOICES,
    PLAYS,
    Action,
    DeclarePoint,
    DeclareSequences,
    DeclareSets,
    Discard,
    LookAtLeft,
    Play,
)
from piquet.core.cards import Mask, card_name, cards_of
from piquet.core.deal import Phase, legal_iter
from piquet.core.events import (
    ELDER,
    SCORE_KINDS,
    CallPoint,
    CallSequence,
    CallSet,
    CallValue,
    Exchange,
    Look,
    OddExchange,
    Reply,
)
from piquet.core.observation import Observation

N_CARDS: Final = 32
DONE: Final = 32
SINK: Final = 33
LOOK: Final = 34
DONT_LOOK: Final = 35
DEAL: Final = 36
LET_DEAL: Final = 37
BY_TWO: Final = 38
BY_THREE: Final = 39
N_ACTIONS: Final = 40
_WORDS: Final = ("done", "sink", "look", "don't look", "deal", "let the other deal", "by two", "by three")

_DISCARDING: Final = (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD)
_LOOKING: Final = (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK)


class EncodingError(ValueError):
    """An action number that is not allowed now; the message says what is."""


def word_name(a: int) -> str:
    """The name of an action number: a card, or one of the words."""
    if 0 <= a < N_CARDS:
        return card_name(a)
    if N_CARDS <= a < N_ACTIONS:
        return _WORDS[a - N_CARDS]
    raise EncodingError(f"{a!r} is not an action number: 0-31 are the cards, 32-39 the words")


def picked(action: Action) -> Mask:
    """The cards an action of the exchange or the calls is made of: what its steps pick."""
    if isinstance(action, Discard | DeclarePoint):
        return action.cards
    if isinstance(action, DeclareSequences):
        return _union(action.runs)
    if isinstance(action, DeclareSets):
        return _union(action.sets)
    raise TypeError(f"{action!r} is not made of picked cards")


def _union(items: Sequence[Mask]) -> Mask:
    m = 0
    for item in items:
        m |= item
    return m


@lru_cache(maxsize=4096)
def _declarations(phase: Phase, hand: Mask, bar: tuple[int, int]) -> dict[Mask, Action]:
    """The lawful declarations of the phase, by the cards they are made of."""
    return {picked(a): a for a in legal_iter(phase, hand, -1, 0, 0, bar)}


def _declaring(obs: Observation) -> bool:
    return obs.phase not in _DISCARDING and obs.phase not in _LOOKING and obs.phase < Phase.PLAY


def deal_mask(obs: Observation, selection: Mask = 0) -> list[int]:
    """The action numbers allowed to the player to move, who has picked ``selection`` so far (all 0 when it is
    not his turn)."""
    mask = [0] * N_ACTIONS
    if not obs.my_turn:
        return mask
    phase = obs.phase
    if phase == Phase.PLAY:
        for action in obs.legal_actions():
            assert isinstance(action, Play)
            mask[action.card] = 1
    elif phase in _LOOKING:
        mask[LOOK] = mask[DONT_LOOK] = 1
    elif phase in _DISCARDING:
        n = selection.bit_count()
        if n < obs.max_discard:
            for c in cards_of(obs.hand & ~selection):
                mask[c] = 1
        if obs.min_discard <= n <= obs.max_discard:
            mask[DONE] = 1
    elif _declaring(obs):
        options = _declarations(phase, obs.hand, obs.bar)
        reach = 0
        for cards in options:
            if cards & selection == selection:
                reach |= cards
        for c in cards_of(reach & ~selection):
            mask[c] = 1
        if selection and selection in options:
            mask[DONE] = 1
        if not selection:
            mask[SINK] = 1
    return mask


def deal_step(obs: Observation, selection: Mask, a: int) -> tuple[Mask, Action | None]:
    """Take action number ``a``: the selection after it, and the engine's action once the decision is complete
    (else None).  ``EncodingError`` if ``a`` is not allowed, nothing changed."""
    mask = deal_mask(obs, selection)
    if not (isinstance(a, int | np.integer) and 0 <= a < N_ACTIONS and mask[a]):
        allowed = ", ".join(word_name(i) for i in range(N_ACTIONS) if mask[i]) or "nothing: it is not his turn"
        raise EncodingError(f"action {a!r} is not allowed now ({obs.phase.name.lower()}); allowed: {allowed}")
    a = int(a)
    phase = obs.phase
    if phase == Phase.PLAY:
        return 0, PLAYS[a]
    if phase in _LOOKING:
        return 0, LOOK_CHOICES[a == DONT_LOOK]
    if a < N_CARDS:
        return selection | 1 << a, None
    if phase in _DISCARDING:
        return 0, Discard(selection)
    options = _declarations(phase, obs.hand, obs.bar)
    return 0, options[0 if a == SINK else selection]


def encode(obs: Observation, action: Action) -> list[int]:
    """The steps that make an engine action: the inverse of ``deal_step``.

    >>> from piquet.core.actions import discard_of
    >>> encode(_any_observation(), discard_of("QS 8C"))
    [5, 17, 32]
    >>> encode(_any_observation(), LOOK_CHOICES[1]), word_name(DONT_LOOK)
    ([35], "don't look")
    """
    if isinstance(action, Play):
        return [action.card]
    if isinstance(action, LookAtLeft):
        return [LOOK if action.look else DONT_LOOK]
    cards = picked(action)
    if not cards and not isinstance(action, Discard):
        return [SINK]
    return [*cards_of(cards), DONE]


def _any_observation() -> Observation:
    from piquet.core.deal import Deal
    from piquet.core.observation import observe

    return observe(Deal.from_pack(list(range(32))), ELDER)


# ---------------------------------------------------------------- the observation vector

#: The card planes of the vector, 32 numbers each, in order.
PLANES: Final = ("hand", "dealt", "discard", "taken", "seen_left", "played_mine", "played_other", "shown_other",
                 "known_other", "lead", "selection")
#: The other features, one number each, in order, after the planes.
FEATURES: Final = (
    *(f"phase_{p.name.lower()}" for p in Phase), "stage_choice", "stage_deal_by",
    "elder", "my_turn", "stock_left", "max_discard", "min_discard", "trick", "tricks_mine", "tricks_other",
    *(f"score_mine_{k}" for k in SCORE_KINDS), *(f"score_other_{k}" for k in SCORE_KINDS), "total_mine",
    "total_other", "looked_elder", "looked_younger", "took_elder", "took_younger",
    *(f"{c}_{f}" for c in ("point", "sequences", "sets") for f in ("length", "value", "good", "equal", "not_good")),
    "partie", "partie_mine", "partie_other", "deal_number", "multiplier",
)
OBS_SIZE: Final = N_CARDS * len(PLANES) + len(FEATURES)
_FEATURE: Final = {name: N_CARDS * len(PLANES) + i for i, name in enumerate(FEATURES)}
_PLANE: Final = {name: N_CARDS * i for i, name in enumerate(PLANES)}
_SCORES: Final = 100.0


def _plane(v: npt.NDArray[np.float32], name: str, cards: Mask) -> None:
    base = _PLANE[name]
    for c in cards_of(cards):
        v[base + c] = 1.0


def observation_vector(obs: Observation | None, selection: Mask = 0, *, stage: str = "",
                       partie: tuple[int, int] | None = None) -> npt.NDArray[np.float32]:
    """The fixed-size vector (``OBS_SIZE`` numbers, most in 0-1) of what one player may see: ``obs`` (None before
    the first deal of a partie), the cards he has picked, the partie's ``stage`` ("choice" or "deal_by" while
    those are to be made) and the partie scores (his, his adversary's) in a partie.  Built from the observation
    alone, so it holds nothing of the adversary's hidden cards."""
    v = np.zeros(OBS_SIZE, dtype=np.float32)
    f = _FEATURE
    if stage in ("choice", "deal_by"):
        v[f[f"stage_{stage}"]] = 1.0
    if partie is not None:
        v[f["partie"]] = 1.0
        v[f["partie_mine"]], v[f["partie_other"]] = partie[0] / _SCORES, partie[1] / _SCORES
    if obs is None:
        return v
    me, other = obs.role, 1 - obs.role
    _plane(v, "hand", obs.hand)
    _plane(v, "dealt", obs.dealt)
    _plane(v, "discard", obs.discard)
    _plane(v, "taken", obs.taken)
    _plane(v, "seen_left", obs.seen_left)
    _plane(v, "played_mine", obs.played(me))
    _plane(v, "played_other", obs.played(other))
    _plane(v, "shown_other", obs.shown(other))
    _plane(v, "known_other", obs.adversary_known())
    if obs.lead >= 0:
        _plane(v, "lead", 1 << obs.lead)
    _plane(v, "selection", selection)
    v[f[f"phase_{obs.phase.name.lower()}"]] = 1.0
    v[f["elder"]] = float(me == ELDER)
    v[f["my_turn"]] = float(obs.my_turn)
    v[f["stock_left"]] = obs.stock_left / 8
    v[f["max_discard"]] = obs.max_discard / 8
    v[f["min_discard"]] = obs.min_discard / 8
    v[f["trick"]] = obs.trick / 12
    v[f["tricks_mine"]], v[f["tricks_other"]] = obs.tricks_won[me] / 12, obs.tricks_won[other] / 12
    for k, kind in enumerate(SCORE_KINDS):
        v[f[f"score_mine_{kind}"]] = obs.scores[me][k] / _SCORES
        v[f[f"score_other_{kind}"]] = obs.scores[other][k] / _SCORES
    v[f["total_mine"]], v[f["total_other"]] = sum(obs.scores[me]) / _SCORES, sum(obs.scores[other]) / _SCORES
    for e in obs.events:
        if type(e) is Look:
            v[f["looked_elder" if e.role == ELDER else "looked_younger"]] = float(e.looked)
        elif isinstance(e, Exchange | OddExchange):
            v[f["took_elder" if e.role == ELDER else "took_younger"]] = e.taken / 8
        elif type(e) is CallPoint:
            v[f["point_length"]] = e.length / 8
        elif type(e) is CallValue:
            v[f["point_value"]] = e.value / 80
        elif type(e) is CallSequence:
            v[f["sequences_length"]], v[f["sequences_value"]] = e.length / 8, e.head / 31
        elif type(e) is CallSet:
            v[f["sets_length"]], v[f["sets_value"]] = e.size / 4, e.rank / 7
        elif type(e) is Reply:
            name = ("point", "sequences", "sets")[e.category]
            v[f[f"{name}_{('good', 'equal', 'not_good')[e.outcome]}"]] = 1.0
    if obs.partie is not None:
        v[f["deal_number"]] = obs.partie.deal_number / 6
        v[f["multiplier"]] = obs.partie.multiplier / 2
    return v


__all__ = [
    "BY_THREE", "BY_TWO", "DEAL", "DONE", "DONT_LOOK", "EncodingError", "FEATURES", "LET_DEAL", "LOOK", "N_ACTIONS",
    "N_CARDS", "OBS_SIZE", "PLANES", "SINK", "deal_mask", "deal_step", "encode", "observation_vector", "picked",
    "word_name",
]
