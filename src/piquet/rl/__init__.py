"""Piquet for game-AI research: PettingZoo, Gymnasium and OpenSpiel environments (the ``rl`` extra; docs/rl.md).

``env()`` is the PettingZoo AEC environment (``piquet.rl.aec``),
``single_agent_env()`` the Gymnasium one against a level of the house
(``piquet.rl.single``), and importing ``piquet.rl.openspiel`` registers the
OpenSpiel game ``python_piquet`` and the arena level ``openspiel-ismcts``.
Nothing below this package imports it: the core needs none of these
libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from piquet.rl.aec import PiquetEnv
    from piquet.rl.single import SingleAgentEnv


def env(partie: bool = False, rules: str = "rubicon", render_mode: str | None = None) -> PiquetEnv:
    """The PettingZoo AEC environment: one deal, or with ``partie`` a whole partie (``piquet.rl.aec``)."""
    from piquet.rl.aec import env as make

    return make(partie=partie, rules=rules, render_mode=render_mode)


def single_agent_env(level: str = "cavendish", partie: bool = False, rules: str = "rubicon",
                     seat: str | None = None) -> SingleAgentEnv:
    """The Gymnasium environment: one seat against a level of the house (``piquet.rl.single``)."""
    from piquet.rl.single import SingleAgentEnv

    return SingleAgentEnv(level=level, partie=partie, rules=rules, seat=seat)


__all__ = ["env", "single_agent_env"]
