"""The computer players of free play, as a thin adapter to :mod:`durak_core.bots`.

A bot sees only its seat's :class:`~durak_core.Observation`. :func:`choose` is the lessons'
free-play opponent (the rule of thumb: instant, and a fair sparring partner after a lesson);
:func:`page_bot` gives the play page's levels (:data:`PAGE_LEVELS`), with a time cap on the
browser-only static site (Pyodide runs the search about 1.8 times slower) so that a move
comes within the page's pause. :func:`judge` is the one evaluator that the play page's Hint and its
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
    "BROWSER_EXACT_NODES",
    "BROWSER_TIME_CAP",
    "IN_BROWSER",
    "PAGE_LEVELS",
    "TIME_CAP",
    "choose",
    "judge",
    "page_bot",
]

IN_BROWSER: Final = sys.platform == "emscripten"
"""Running on Pyodide (the static site): every search has a time cap."""

PAGE_LEVELS: Final = ("newcomer", DEFAULT_LEVEL, "strong")
"""The levels the play page offers, weakest first."""

TIME_CAP: Final = 0.9
"""Seconds a strong decision may take at most on a kernel (fewer samples then)."""

BROWSER_TIME_CAP: Final = 0.6
"""Seconds any search decision may take at most on Pyodide, so that the computer's move
comes within the page's pause (0.7 s, the thinking included). Pyodide runs the search about
1.8 times slower than CPython (``benchmarks/static_bots.py``): the default level's median
decision there is about 0.2 s, and only the longest ones are cut short."""

BROWSER_EXACT_NODES: Final = 30_000
"""Positions an exact endgame solve may search on Pyodide before the bot samples instead:
at most about 0.45 s on a kernel, 0.8 s on Pyodide (a kernel's bots search 100 000)."""

_LESSON_BOT: Final = make_bot("heuristic")


def choose(obs: Observation, rng: random.Random) -> Action:
    """The lessons' free-play opponent: one of ``obs.legal`` (which must not be empty)."""
    if not obs.legal:
        raise ValueError(f"seat {obs.seat} has no legal action")
    return _LESSON_BOT.choose(obs, rng)


def page_bot(level: str) -> Bot:
    """A new computer player of one of :data:`PAGE_LEVELS` (any level of
    :data:`durak_core.bots.LEVELS` works); capped in time on Pyodide."""
    bot = make_bot(level)
    if not isinstance(bot, PIMCBot):
        return bot
    cap = BROWSER_TIME_CAP if IN_BROWSER else TIME_CAP if level == "strong" else None
    if IN_BROWSER:
        bot.exact_node_budget = min(bot.exact_node_budget, BROWSER_EXACT_NODES)
    if cap is not None:
        # on a kernel the other levels stay sample-bound (a seed replays a game)
        bot.time_budget = cap if bot.time_budget is None else min(bot.time_budget, cap)
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
