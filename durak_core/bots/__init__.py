"""Computer players behind one small interface: an :class:`~durak_core.Observation` in, one of
its legal actions out (:class:`Bot`). A bot never receives the game: only what its seat may
know.

Levels (:func:`make_bot`): ``random``; ``heuristic``, the seeds' advice as a rule of thumb;
``newcomer``, a gentle search that sometimes plays its second-best move (S1); ``pimc``, the
default, which samples the unseen cards and plays every move out (S1); ``strong``, more
samples. :meth:`PIMCBot.evaluate` gives every legal action's score (for hints).

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
    # benchmarks/ai_strength.py, 400 games heads-up: 0.786 (0.750-0.822) against the
    # heuristic (a draw half); median decision with a choice 35 ms CPU (48 ms wall, p95
    # 0.19 s) on the shared 2-core development machine. From the default up, a two-player
    # endgame is solved exactly (durak_core.solver): 99.9% of 792 endgame decisions where
    # the choice matters kept the exact value.
    "pimc": lambda: PIMCBot(64, name="pimc", exact=True),
    "strong": lambda: PIMCBot(256, name="strong", exact=True),
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
