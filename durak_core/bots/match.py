"""Games between bots: who moves next at a table of computer players, and one whole game."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..game import Game
from ..observation import observe
from .base import Bot

__all__ = ["Decision", "MatchResult", "next_seat", "play_game"]


def next_seat(game: Game) -> int | None:
    """The seat that moves next when nobody waits for a person: the seat of the first legal
    action — the defender before the throwers, the throwers in their priority order. A seat
    whose only action is the swap moves only when nobody else can. None once the game is over
    (:meth:`Game.current_player <durak_core.Game.current_player>`, which generates nothing)."""
    return game.current_player()


class Decision(NamedTuple):
    """One call of a bot: the seat, the seconds it took (by the clock given to
    :func:`play_game`, and in CPU time of this process) and how many actions it had."""

    seat: int
    seconds: float
    cpu_seconds: float
    choices: int


class MatchResult(NamedTuple):
    """How a game between bots went. ``durak`` is None for a draw or an unfinished game."""

    durak: int | None
    finished: bool
    """False when the game was cut after ``max_actions`` (the bots went round in circles)."""
    actions: int
    decisions: list[Decision]


def play_game(
    game: Game,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    *,
    max_actions: int = 3000,
    clock: Callable[[], float] = time.perf_counter,
) -> MatchResult:
    """Play ``game`` to the end, seat ``i`` played by ``bots[i]`` with ``rngs[i]``; each bot
    sees only its seat's observation. Raises ``ValueError`` if a bot returns an action that is
    not legal."""
    decisions: list[Decision] = []
    for count in range(max_actions):
        seat = next_seat(game)
        if seat is None:
            outcome = game.outcome
            assert outcome is not None
            return MatchResult(outcome.durak, True, count, decisions)
        obs = observe(game, seat)
        start, cpu = clock(), time.process_time()
        action = bots[seat].choose(obs, rngs[seat])
        cpu = time.process_time() - cpu
        decisions.append(Decision(seat, clock() - start, cpu, len(obs.legal)))
        if action not in obs.legal:
            raise ValueError(f"{bots[seat].name} bot at seat {seat} chose {action}, not legal")
        game.push(action)
    outcome = game.outcome
    if outcome is not None:
        return MatchResult(outcome.durak, True, max_actions, decisions)
    return MatchResult(None, False, max_actions, decisions)
