"""Computer players behind one small interface: an :class:`~durak_core.Observation` in, one of
its legal actions out (:class:`Bot`). A bot never receives the game: only what its seat may
know.

Levels (:func:`make_bot`): ``random``; ``heuristic``, the seeds' advice as a rule of thumb;
``newcomer``, a gentle search that sometimes plays its second-best move (S1); ``pimc``, the
default, which samples the unseen cards and plays every move out (S1), racing the moves so
that the worlds go to those still in doubt; ``strong``, four times the worlds.
:meth:`PIMCBot.evaluate` gives every legal action's score (for hints).

>>> import random
>>> from durak_core import Game, Rules, observe
>>> game = Game.deal(Rules(), players=2, seed=3)
>>> obs = observe(game, game.attacker)
>>> make_bot("heuristic").choose(obs, random.Random(0)) in obs.legal
True
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, outcome_score
from .evaluator import Assessment as Assessment
from .evaluator import Evaluator as Evaluator
from .heuristic import HeuristicBot, card_value, decide
from .match import Decision, MatchResult, next_seat, play_game
from .pimc import PIMCBot, playout
from .random_bot import RandomBot

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Bot",
    "Decision",
    "HeuristicBot",
    "MatchResult",
    "PIMCBot",
    "RandomBot",
    "card_value",
    "decide",
    "make_bot",
    "next_seat",
    "outcome_score",
    "play_game",
    "playout",
]

LEVELS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "newcomer": lambda: PIMCBot(8, second_best=0.3, name="newcomer"),
    # benchmarks/ai_strength.py, seed 2024, heads-up against the heuristic: 64 worlds 0.786
    # (400 games), 256 worlds 0.902 but a median decision of 134 ms; racing 256 worlds (moves
    # clearly behind dropped) 0.850 (0.811-0.889, 300 games), median decision with a choice
    # 92-105 ms CPU on the shared 2-core machine (looking every 16 worlds: 0.828, 97 ms). From
    # the default up, a two-player endgame is solved exactly (durak_core.solver): 441 of 442
    # endgame decisions where the choice matters kept the exact value.
    "pimc": lambda: PIMCBot(256, name="pimc", exact=True, race=True),
    # strong vs pimc heads-up: 0.571 (0.487-0.655) over 120 games; median decision 222 ms
    # (on the play page capped at 0.9 s).
    "strong": lambda: PIMCBot(1024, name="strong", exact=True, race=True),
}
"""Every level by name, weakest first."""

DEFAULT_LEVEL = "pimc"


def make_bot(level: str = DEFAULT_LEVEL) -> Bot:
    """A new bot of the named level (see :data:`LEVELS`)."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}") from None
    return factory()
