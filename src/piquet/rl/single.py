"""Piquet as a Gymnasium environment: one seat against a computer level of the house (docs/rl.md).

The observation is the vector of ``piquet.rl.encoding``; the action numbers
are the same as the PettingZoo environment's, and ``info["action_mask"]``
(or ``action_masks()``, as sb3-contrib's MaskablePPO asks) says which are
allowed.  The level answers in between, by the engine's actions.  The
reward comes at the end: the deal's score difference, or the points won or
lost at the partie's settlement.

An action number the mask does not allow changes nothing in the game: by
default (``illegal="penalise"``) it costs ``illegal_penalty`` and
``info["illegal"]`` says what was allowed; with ``illegal="raise"`` it is an
``EncodingError`` (a ``ValueError``).  A number outside the action space is
always an error.

>>> e = SingleAgentEnv("random")
>>> obs, info = e.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum()) > 0
((419,), True)
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from piquet.core.partie import other_seat
from piquet.core.rules import SEATS, rules_named
from piquet.core.state import Stage
from piquet.players.levels import level_named, make_player
from piquet.players.runner import choice_of
from piquet.rl.encoding import N_ACTIONS, OBS_SIZE, EncodingError
from piquet.rl.table import Table

Obs = npt.NDArray[np.float32]


class SingleAgentEnv(gym.Env[Obs, np.int64]):
    """The learner at ``seat`` (A unless told; in a single deal the cut makes him elder or younger) against
    ``level``, for one deal or a whole ``partie``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, level: str = "cavendish", partie: bool = False, rules: str = "rubicon",
                 seat: str | None = None, illegal: str = "penalise", illegal_penalty: float = -1.0,
                 render_mode: str | None = None) -> None:
        if seat is not None and seat not in SEATS:
            raise ValueError(f"the seat is A or B, not {seat!r}")
        if illegal not in ("penalise", "raise"):
            raise ValueError(f"illegal is 'penalise' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.level = level_named(level).name
        self.partie = partie
        self.rules = rules_named(rules)
        self.seat = seat or "A"
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.observation_space = spaces.Box(low=-10.0, high=10.0, shape=(OBS_SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._seeds = random.Random()
        self.table: Table | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        self.table = Table(self._seeds.randrange(1 << 31), self.rules, self.partie)
        self.opponent = make_player(self.level, self._seeds.randrange(1 << 31))
        self._opponent_acts()
        return self._observe(), self._info()

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before step()")
        return self.table

    def _opponent_acts(self) -> None:
        table = self._table()
        other = other_seat(self.seat)
        while table.to_act == other:
            obs = table.observation(other)
            if obs is None or table.state.stage is not Stage.DEALS:
                table.apply(other, choice_of(self.opponent, table.state))
            else:
                table.apply(other, self.opponent.choose(obs))

    def _observe(self) -> Obs:
        return self._table().vector(self.seat)

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The action numbers allowed now (1) and not (0)."""
        return np.array(self._table().mask(self.seat), dtype=np.int8)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), **extra}

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        table = self._table()
        if not isinstance(action, int | np.integer) or not 0 <= int(action) < N_ACTIONS:
            raise EncodingError(f"{action!r} is not an action number 0-{N_ACTIONS - 1}")
        if table.is_over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            table.act(self.seat, int(action))
        except EncodingError as e:
            if self.illegal == "raise":
                raise
            return self._observe(), self.illegal_penalty, False, False, self._info(illegal=str(e))
        self._opponent_acts()
        over = table.is_over
        reward = table.result(self.seat) if over else 0.0
        return self._observe(), reward, over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return repr(self._table().readable(self.seat))


__all__ = ["SingleAgentEnv"]
