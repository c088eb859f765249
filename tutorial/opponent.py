"""The computer players of free play, as a thin adapter to :mod:`durak_core.bots`.

A bot sees only its seat's :class:`~durak_core.Observation`. :func:`choose` is the lessons'
free-play opponent (the rule of thumb: instant, and a fair sparring partner after a lesson);
:func:`page_bot` gives the play page's levels (:data:`PAGE_LEVELS`), lighter on the
browser-only static site (Pyodide runs the search several times slower) so that a move comes
within the page's pause. :func:`judge` is the one evaluator that the play page's Hint and its
end-of-game review both ask.
"""

from __future__ import annotations

import random
import sys
from typing import Final

from durak_core import Action, Observation
from durak_core.bots import DEFAULT_LEVEL, Bot, Evaluator, PIMCBot, make_bot

__all__ = [
    "BROWSER_BUDGET",
    "IN_BROWSER",
    "PAGE_LEVELS",
    "TIME_CAP",
    "choose",
    "judge",
    "page_bot",
]

IN_BROWSER: Final = sys.platform == "emscripten"
"""Running on Pyodide (the static site): the search gets fewer samples."""

PAGE_LEVELS: Final = ("newcomer", DEFAULT_LEVEL, "strong")
"""The levels the play page offers, weakest first."""

_BROWSER_SAMPLES: Final = {"newcomer": 6, DEFAULT_LEVEL: 24, "strong": 64}
"""Samples per decision on Pyodide (several times slower than a kernel)."""

TIME_CAP: Final = 0.9
"""Seconds a strong decision may take at most (fewer samples then), so the computer's move
comes within the page's pause; on Pyodide every search level has this cap."""

BROWSER_EXACT_NODES: Final = 10_000
"""Positions an exact endgame solve may search on Pyodide (a few times slower than a kernel)
before the bot samples instead."""

_LESSON_BOT: Final = make_bot("heuristic")


def choose(obs: Observation, rng: random.Random) -> Action:
    """The lessons' free-play opponent: one of ``obs.legal`` (which must not be empty)."""
    if not obs.legal:
        raise ValueError(f"seat {obs.seat} has no legal action")
    return _LESSON_BOT.choose(obs, rng)


def page_bot(level: str) -> Bot:
    """A new computer player of one of :data:`PAGE_LEVELS` (any level of
    :data:`durak_core.bots.LEVELS` works); lighter on Pyodide."""
    bot = make_bot(level)
    if not isinstance(bot, PIMCBot):
        return bot
    if IN_BROWSER and level in _BROWSER_SAMPLES:
        bot.samples = min(bot.samples or _BROWSER_SAMPLES[level], _BROWSER_SAMPLES[level])
    if IN_BROWSER:
        bot.exact_node_budget = min(bot.exact_node_budget, BROWSER_EXACT_NODES)
    if IN_BROWSER or level == "strong":
        # deterministic levels stay sample-bound (a seed replays a game); strong is capped
        bot.time_budget = TIME_CAP if bot.time_budget is None else min(bot.time_budget, TIME_CAP)
    return bot


BROWSER_BUDGET: Final = 240
"""Playouts one judgement of the Hint and the review may cost on Pyodide (half a kernel's)."""


def judge(seed: int) -> Evaluator:
    """The one judge of the learner's moves behind the play page's Hint and its end-of-game
    review (:class:`~durak_core.bots.Evaluator`: the same budget and random stream for the same
    position, so they agree; a two-player endgame solved exactly). Lighter on Pyodide."""
    if IN_BROWSER:
        return Evaluator(
            seed,
            budget=BROWSER_BUDGET,
            min_samples=8,
            max_samples=24,
            exact_node_budget=BROWSER_EXACT_NODES,
        )
    return Evaluator(seed)
