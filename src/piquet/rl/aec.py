"""Piquet as a PettingZoo AEC environment: two agents, one deal or a whole partie (docs/rl.md).

``player_0`` sits at seat A, ``player_1`` at B.  Each observation is a dict:
``observation``, the vector of ``piquet.rl.encoding`` (what that agent may
see, nothing more), and ``action_mask``, the action numbers allowed to him
now.  ``env.unwrapped.readable(agent)`` gives the same as a plain dict.  The
reward comes at the end: the deal's score difference, or the partie's
points won or lost at the settlement.

>>> e = PiquetEnv()
>>> e.reset(seed=3)
>>> e.agent_selection, int(e.observe(e.agent_selection)["action_mask"].sum())
('player_1', 12)
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from piquet.core.rules import rules_named
from piquet.rl.encoding import N_ACTIONS, OBS_SIZE
from piquet.rl.table import Table

AGENTS: Final = ("player_0", "player_1")
SEAT: Final = {"player_0": "A", "player_1": "B"}
AGENT: Final = {"A": "player_0", "B": "player_1"}


def observation_space() -> spaces.Dict:
    """The observation of one agent: the vector and the mask of allowed actions."""
    return spaces.Dict({
        "observation": spaces.Box(low=-10.0, high=10.0, shape=(OBS_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
    })


class PiquetEnv(AECEnv[str, dict[str, npt.NDArray[Any]], int | None]):
    """One deal (``partie=False``) or a whole partie of Piquet between two agents."""

    metadata: dict[str, Any] = {"name": "piquet_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, partie: bool = False, rules: str = "rubicon", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.partie = partie
        self.rules = rules_named(rules)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: observation_space() for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in AGENTS}
        self._seeds = random.Random()
        self.table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal or partie: from ``seed``, else the next of the seeds drawn since the last seeded reset."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.table = Table(self._seeds.randrange(1 << 31), self.rules, self.partie)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        to_act = self.table.to_act
        assert to_act is not None
        self.agent_selection = AGENT[to_act]

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        table = self._table()
        seat = SEAT[agent]
        return {"observation": table.vector(seat), "action_mask": np.array(table.mask(seat), dtype=np.int8)}

    def readable(self, agent: str) -> dict[str, Any]:
        """What ``agent`` may see, as a plain dict (``Table.readable``)."""
        return self._table().readable(SEAT[agent])

    def step(self, action: int | None) -> None:
        """The selected agent takes ``action``; a number the mask does not allow is a ``ValueError`` saying what
        is allowed, and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table()
        if action is None:
            raise ValueError(f"{agent} is to act: an action number is needed")
        table.act(SEAT[agent], int(action))
        self._cumulative_rewards[agent] = 0.0
        if table.is_over:
            for a in self.agents:
                self.rewards[a] = table.result(SEAT[a])
                self.terminations[a] = True
        else:
            to_act = table.to_act
            assert to_act is not None
            self.agent_selection = AGENT[to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        table = self._table()
        partie = table.state.partie
        if partie is None or not partie.deals:
            return f"partie: {table.state.stage.value}"
        deal = partie.deals[-1]
        return f"deal {len(partie.deals)}: {deal.phase.name.lower()}, scores {deal.totals}, to act {table.to_act}"

    def close(self) -> None:
        pass


def env(partie: bool = False, rules: str = "rubicon", render_mode: str | None = None) -> PiquetEnv:
    """The PettingZoo AEC environment: one deal, or with ``partie`` a whole partie, under the named rules."""
    return PiquetEnv(partie=partie, rules=rules, render_mode=render_mode)


__all__ = ["AGENTS", "PiquetEnv", "env", "observation_space"]
