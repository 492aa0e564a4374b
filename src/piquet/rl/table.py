"""A partie, or its first deal, driven by action numbers: what the PettingZoo and Gymnasium environments share.

The partie is the engine's state machine (``piquet.core.state.PartieState``)
from a seed: chance (the cut, each shuffle) acts by itself.  In a whole
partie the players make the choice of deal (Law 4) and of dealing by twos or
threes (Law 9); for a single deal the winner of the cut deals, by twos, as
in the arena.  Each seat sees ``vector(seat)`` and ``readable(seat)``, built
from its own observation only.

>>> t = Table(seed=7)
>>> t.to_act, sum(t.mask(t.to_act)), t.mask("B" if t.to_act == "A" else "A").count(1)
('A', 12, 0)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from piquet.core.actions import Action
from piquet.core.cards import Mask, card_name, cards_of
from piquet.core.deal import IllegalAction
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import Observation
from piquet.core.partie import other_seat
from piquet.core.rules import RUBICON, SEATS, Rules
from piquet.core.state import CHANCE, ChooseDeal, DealBy, PartieState, Stage
from piquet.rl.encoding import (
    BY_THREE,
    BY_TWO,
    DEAL,
    LET_DEAL,
    N_ACTIONS,
    EncodingError,
    deal_mask,
    deal_step,
    observation_vector,
    word_name,
)

#: The words of the partie's choices, and the choices they make.
_CHOICES: Final[dict[int, ChooseDeal | DealBy]] = {
    DEAL: ChooseDeal(True), LET_DEAL: ChooseDeal(False), BY_TWO: DealBy(2), BY_THREE: DealBy(3)}


class Table:
    """One partie (``whole_partie``) or its first deal, from ``seed``, under ``rules``."""

    def __init__(self, seed: int, rules: Rules = RUBICON, whole_partie: bool = False) -> None:
        self.seed = seed
        self.rules = rules
        self.whole_partie = whole_partie
        self.state = PartieState.from_seed(seed, rules)
        #: The cards the seat to act has picked so far for his discard or call (seen by him alone).
        self.selection: Mask = 0
        self._run_chance()

    # ------------------------------------------------------------ where it stands

    def _first_deal_over(self) -> bool:
        partie = self.state.partie
        return partie is not None and bool(partie.deals) and partie.deals[0].is_over

    @property
    def is_over(self) -> bool:
        return self.state.is_over or (not self.whole_partie and self._first_deal_over())

    @property
    def to_act(self) -> str | None:
        """The seat ("A" or "B") to act, or None when it is over."""
        if self.is_over:
            return None
        seat = self.state.to_act
        assert seat in SEATS
        return seat

    def observation(self, seat: str) -> Observation | None:
        """What ``seat`` knows of the deal in progress (or the last), None before the first deal."""
        partie = self.state.partie
        if partie is None or not partie.deals:
            return None
        return partie.observation(seat)

    def mask(self, seat: str) -> list[int]:
        """The action numbers ``seat`` may take now (all 0 when he is not to act)."""
        if self.to_act != seat:
            return [0] * N_ACTIONS
        stage = self.state.stage
        if stage is Stage.CHOICE:
            return [int(a in (DEAL, LET_DEAL)) for a in range(N_ACTIONS)]
        if stage is Stage.DEAL_BY:
            words = {BY_TWO if by == 2 else BY_THREE for by in self.rules.deal_modes}
            return [int(a in words) for a in range(N_ACTIONS)]
        obs = self.observation(seat)
        assert obs is not None
        return deal_mask(obs, self.selection)

    # ------------------------------------------------------------ acting

    def act(self, seat: str, a: int) -> None:
        """``seat`` takes action number ``a``; ``EncodingError`` (a ``ValueError``) saying what is allowed if it
        is not, nothing changed."""
        if self.to_act != seat:
            raise EncodingError(f"seat {seat} is not to act now" + (" (it is over)" if self.is_over else ""))
        stage = self.state.stage
        if stage is not Stage.DEALS:
            mask = self.mask(seat)
            if not (0 <= a < N_ACTIONS and mask[a]):
                allowed = ", ".join(word_name(i) for i in range(N_ACTIONS) if mask[i])
                raise EncodingError(f"action {a!r} is not allowed now ({stage.value}); allowed: {allowed}")
            self.state.apply(_CHOICES[a])
            self._run_chance()
            return
        obs = self.observation(seat)
        assert obs is not None
        selection, action = deal_step(obs, self.selection, a)
        if action is None:
            self.selection = selection
            return
        self.apply(seat, action)

    def apply(self, seat: str, action: Action | ChooseDeal | DealBy) -> None:
        """``seat`` makes an engine action whole (a computer level's choice); the engine's ``IllegalAction`` if
        the laws forbid it, nothing changed."""
        if self.to_act != seat:
            raise IllegalAction(f"seat {seat} is not to act now")
        self.state.apply(action)
        self.selection = 0
        self._run_chance()

    def _run_chance(self) -> None:
        """Chance acts (the cut, the shuffles); for a single deal, the winner of the cut deals by twos."""
        state = self.state
        while not self.is_over:
            if state.to_act == CHANCE:
                state.run_chance()
            elif not self.whole_partie and state.stage is Stage.CHOICE:
                state.apply(ChooseDeal(True))
            elif not self.whole_partie and state.stage is Stage.DEAL_BY:
                state.apply(DealBy(2))
            else:
                return

    # ------------------------------------------------------------ what a seat sees

    def _partie_scores(self, seat: str) -> tuple[int, int] | None:
        partie = self.state.partie
        if not self.whole_partie:
            return None
        if partie is None:
            return 0, 0
        scores = partie.scores
        return scores[seat], scores[other_seat(seat)]

    def _stage(self) -> str:
        stage = self.state.stage
        return stage.value if stage in (Stage.CHOICE, Stage.DEAL_BY) else ""

    def vector(self, seat: str) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` (``piquet.rl.encoding.observation_vector``)."""
        selection = self.selection if self.to_act == seat else 0
        return observation_vector(self.observation(seat), selection, stage=self._stage(),
                                  partie=self._partie_scores(seat))

    def readable(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see, as a plain dict: his observation in the engine's JSON form, the cards he has
        picked, the action numbers allowed with their names."""
        obs = self.observation(seat)
        mask = self.mask(seat)
        state = self.state
        return {
            "seat": seat,
            "stage": state.stage.value,
            "to_act": self.to_act,
            "cut": None if state.cut is None else {"A": card_name(state.cut[0]), "B": card_name(state.cut[1])},
            "dealer": state.dealer,
            "partie_scores": self._partie_scores(seat),
            "selection": [card_name(c) for c in cards_of(self.selection)] if self.to_act == seat else [],
            "allowed": {a: word_name(a) for a in range(N_ACTIONS) if mask[a]},
            "observation": None if obs is None else obs.to_json(),
        }

    def result(self, seat: str) -> float:
        """What ``seat`` won: in a single deal his score less his adversary's; in a partie the points won at the
        settlement (negative when lost), or at a game of so many up the games won less the games lost."""
        partie = self.state.partie
        if partie is None or not partie.deals:
            return 0.0
        if not self.whole_partie:
            deal = partie.deals[0]
            role = partie.role(0, seat)
            return float(deal.total(role) - deal.total(YOUNGER if role == ELDER else ELDER))
        s = partie.settlement()
        if s.points_won is None:
            return float(s.tally.get(seat, 0) - s.tally.get(other_seat(seat), 0))
        if s.winner is None:
            return 0.0
        return float(s.points_won if s.winner == seat else -s.points_won)


__all__ = ["Table"]
