"""The weakest level: a uniformly random legal action."""

from __future__ import annotations

import random

from ..actions import Action
from ..observation import Observation

__all__ = ["RandomBot"]


class RandomBot:
    """Plays one of ``observation.legal`` at random (the baseline of the benchmarks)."""

    name = "random"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """One of ``observation.legal``, uniformly."""
        if not observation.legal:
            raise ValueError(f"seat {observation.seat} has no legal action")
        return rng.choice(observation.legal)
