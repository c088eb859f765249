"""The one interface every computer player meets: an :class:`Observation` in, an action out.

A bot never receives the :class:`~durak_core.game.Game`: it sees exactly what its seat may
know (:func:`~durak_core.observation.observe`) and must return one of ``observation.legal``.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..observation import Observation

__all__ = ["Bot", "outcome_score"]


@runtime_checkable
class Bot(Protocol):
    """A computer player. ``choose`` must return one of ``observation.legal`` (never empty
    when a bot is asked) and may use only ``observation`` and ``rng``."""

    name: str
    """The level's name, e.g. ``"heuristic"`` or ``"pimc"``."""

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """One of ``observation.legal``."""
        ...


def outcome_score(durak: int | None, seat: int, team: tuple[int, ...] | None = None) -> float:
    """How a finished game counts for ``seat``: 1 if someone else is the durak, 0.5 for a
    draw (nobody is, S1), 0 if ``seat`` is — or, in team play (``team``: each seat's team),
    his partner: a team loses together (S0, S2)."""
    if durak is None:
        return 0.5
    if team is not None:
        return 0.0 if team[durak] == team[seat] else 1.0
    return 0.0 if durak == seat else 1.0
