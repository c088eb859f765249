"""Perfect-information Monte Carlo: S1's computer player, which «reparte en su cabeza las
cartas que no ha visto de varias maneras posibles y juega cada una hasta el final».

For each sampled world (:func:`~durak_core.determinize.determinize` of the bot's observation:
the unseen cards dealt at random among the deals that agree with everything the seat knows),
every legal action is played and the game is played out to its end by every seat following
the rule of thumb (:func:`~durak_core.bots.heuristic.decide`). An action scores 1 when the
bot is not the durak, ½ for a draw, 0 when it is; the bot plays the best average. All actions
are tried on the same worlds, so their differences are not noise of the deal.

Once the stock is empty and two players are left, every card is placed: there is one world,
the real deal, and sampling it again and again only plays one rule-of-thumb playout many
times. There the bot (``exact=True``, every level from the default up) solves the position
exactly (:mod:`durak_core.solver`): each action scores 1, ½ or 0 as it wins, draws or loses
against perfect play, and among actions of the same value the playouts break the tie (the
one that leaves the opponent most room to go wrong). Beyond the solver's budget the bot uses
what the solver proved before it stopped (:attr:`~durak_core.solver.Solution.bounds`): a
proven win is played; an action proven no better than another (a proven loss while another
action might do better) is never chosen; among the rest a playout in the one world decides,
each score kept within what is proven of its action.

With ``race`` (every level from the default up) the actions race over the worlds: the worlds
come in batches of :data:`RACE_BATCH`, and after each batch an action whose results fall
behind the leader's by more than :data:`RACE_Z` standard errors of their paired difference
(the same worlds, so the deal's luck cancels) stops being played out. The worlds saved go to
the actions still in doubt, so the same time buys a sharper choice between the close ones;
the race ends when one action is left, when those left have done exactly alike in every one
of at least :data:`RACE_SETTLED` worlds, or after ``samples`` worlds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Iterable

from ..actions import Action
from ..determinize import determinize
from ..game import Game
from ..observation import Observation
from ..solver import Solution, Solver, Value, is_solvable, position_key
from ..state import Phase
from .base import outcome_score
from .heuristic import HeuristicBot, decide

__all__ = ["PIMCBot", "playout"]

_OVER = Phase.OVER


def _still_in_doubt(results: list[list[float]], alive: list[int]) -> list[int]:
    """The actions of ``alive`` not clearly behind the leader: their results over the same
    worlds (the last ones, which every action alive has) trail the leader's by less than
    :data:`RACE_Z` standard errors of the paired difference, or not at all."""
    n = min(len(results[i]) for i in alive)
    if n < 2:
        return alive
    means = {i: sum(results[i][-n:]) / n for i in alive}
    lead = max(alive, key=lambda i: means[i])
    top = results[lead][-n:]
    kept = []
    for i in alive:
        gaps = [a - b for a, b in zip(top, results[i][-n:], strict=True)]
        mean = sum(gaps) / n
        spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1))
        if i == lead or mean <= 0 or mean <= RACE_Z * spread / math.sqrt(n) + 1e-12:
            kept.append(i)
    return kept


def playout(game: Game, seat: int, limit: int = 1000) -> float:
    """Play ``game`` (a playout game: ``undo=False, events=False``) to its end with every
    seat following the rule of thumb; return the result for ``seat`` (1, ½ or 0). A game
    still going after ``limit`` actions (players passing the same cards round) counts ½."""
    low = game.rules.lowest_rank
    legal = game.legal_actions()
    push = game.push
    for _ in range(limit):
        s = game.live_state
        if s.phase is _OVER:
            return outcome_score(s.durak, seat, game.switches.team)
        actions = list(legal)
        who = actions[0].seat
        if actions[-1].seat != who:
            actions = [a for a in actions if a.seat == who]
        if len(actions) == 1:
            push(actions[0])
            continue
        push(
            decide(
                actions,
                s.hands[who],
                s.trump,
                low,
                len(s.stock),
                s.attacks,
                s.defences,
                s.taking,
                len(s.hands[s.defender]),
            )
        )
    s = game.live_state
    return outcome_score(s.durak, seat, game.switches.team) if s.phase is _OVER else 0.5


#: Positions an exact endgame solve may search before the bot samples instead: a median
#: endgame takes about 5 500 (``benchmarks/endgame_solver.py``), and the table kept between
#: decisions solves most later ones at once. Measured on 24 seeded endgames (classic and
#: perevodnoy, the default level): decisions median 8 ms, p95 0.19 s, at most 1.3 s CPU
#: (30 000: at most 0.44 s, but fewer solved; 200 000: at most 2.9 s).
EXACT_NODE_BUDGET = 100_000
#: Transposition-table entries a bot keeps between its decisions of one game.
EXACT_TABLE_SIZE = 100_000
#: What a tie-breaking playout adds to an exact score: enough to order actions of the same
#: value, never enough to pass another value.
_TIE_BREAK = 0.001
_EXACT_SCORE = {Value.WIN: 1.0, Value.DRAW: 0.5, Value.LOSS: 0.0}
#: Where in its proven span an action not solved exactly scores (a playout's 0, ½ or 1 mapped
#: into ``[_SPAN_EDGE, 1 - _SPAN_EDGE]`` of it): off the ends, so that it never ties with an
#: action proven at an end of the span.
_SPAN_EDGE = 0.02
#: How far below the top of its span an action proven no better than another scores.
_DOMINATED = 0.005
#: Worlds a racing bot samples between two looks at the race.
RACE_BATCH = 32
#: How many standard errors of the paired difference an action must trail the leader by to
#: be dropped from the race (2.5: about one clear-looking gap in 160 is luck).
RACE_Z = 2.5
#: Worlds after which actions that did exactly alike in every one of them end the race.
RACE_SETTLED = 64


class PIMCBot:
    """Sample worlds, play every action out in each, choose the best average.

    ``samples`` worlds per decision, or, with ``time_budget`` (seconds), as many as fit in it
    (at least one; ``samples`` then caps them, None for no cap). With ``second_best`` > 0
    the bot plays its second-best action with that probability: a gentler opponent for
    newcomers (S1: «las dos primeras mesas de un recién llegado son algo más suaves»).
    With ``exact`` a two-player endgame is solved instead; with ``race`` actions clearly
    behind stop being played out, and ``samples`` caps the worlds (module docstring)."""

    def __init__(
        self,
        samples: int | None = 32,
        *,
        time_budget: float | None = None,
        second_best: float = 0.0,
        name: str = "pimc",
        playout_limit: int = 1000,
        clock: Callable[[], float] = time.perf_counter,
        exact: bool = False,
        exact_node_budget: int = EXACT_NODE_BUDGET,
        race: bool = False,
    ) -> None:
        if samples is None and time_budget is None:
            raise ValueError("give samples, a time_budget, or both")
        if samples is not None and samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.samples = samples
        self.time_budget = time_budget
        self.second_best = second_best
        self.name = name
        self.playout_limit = playout_limit
        self.clock = clock
        self.exact = exact
        self.exact_node_budget = exact_node_budget
        self.race = race
        self._prior = HeuristicBot()
        self._solver: Solver | None = None
        self._last: tuple[Hashable, Solution] | None = None

    def __repr__(self) -> str:
        return (
            f"PIMCBot(samples={self.samples}, time_budget={self.time_budget}, "
            f"second_best={self.second_best}, name={self.name!r}, exact={self.exact}, "
            f"race={self.race})"
        )

    def solution(self, observation: Observation, rng: random.Random) -> Solution | None:
        """The exact solution of ``observation``'s position when it is a two-player endgame
        (every card placed) that the solver finishes within ``exact_node_budget``, with the
        values for this seat; else None."""
        found = self.endgame(observation, rng)
        return found if found is not None and found.solved else None

    def endgame(self, observation: Observation, rng: random.Random) -> Solution | None:
        """What the solver proves of ``observation``'s position within ``exact_node_budget``
        when it is a two-player endgame (every card placed) where this seat moves: solved, or
        (``solved=False``) the :attr:`~durak_core.solver.Solution.bounds` proven before the
        budget ran out; else None. The last answer is kept, so asking again is free."""
        if observation.stock_size or observation.players - len(observation.out) != 2:
            return None
        seat = observation.seat
        others = sum(observation.hand_sizes) - len(observation.hand)
        known = sum(len(cards) for i, cards in enumerate(observation.known) if i != seat)
        if len(observation.unseen()) + known != others:
            return None  # a set-up without the whole deck: the other hand is not known
        world = determinize(observation, rng, undo=True, events=False)
        if not is_solvable(world):
            return None
        key = (
            world.rules,
            world.trump,
            world.turnup,
            world.previous_durak,
            position_key(world),
            observation.seat,
            self.exact_node_budget,
        )
        if self._last is not None and self._last[0] == key:
            found = self._last[1]
        else:
            if self._solver is None:
                self._solver = Solver(table_size=EXACT_TABLE_SIZE)
            found = self._solver.solve(
                world, seat=observation.seat, node_budget=self.exact_node_budget
            )
            self._last = (key, found)
        if found.mover != observation.seat or not found.bounds:
            return None
        return found

    def answers(self, observation: Observation, actions: Iterable[Action]) -> dict[Action, Action]:
        """In a two-player endgame that the solver finishes (:meth:`solution`), the other
        seat's best answer to each of ``actions`` (the first move of a principal line after
        it) where the other seat moves next with a choice of moves; the others are left out."""
        solved = self.solution(observation, random.Random(0))
        if solved is None or self._solver is None:
            return {}
        world = determinize(observation, random.Random(0), undo=True, events=False)
        seat = observation.seat
        found = {}
        for action in actions:
            game = world.copy(events=False, history=False)
            game.push(action)
            after = self._solver.solve(game, seat=seat, node_budget=self.exact_node_budget)
            if not after.solved or not after.line or (answer := after.line[0]).seat == seat:
                continue
            if sum(a.seat == answer.seat for a in game.legal_actions()) > 1:
                found[action] = answer
        return found

    def evaluate(self, observation: Observation, rng: random.Random) -> dict[Action, float]:
        """Each legal action's average result over the sampled worlds (1: not the durak,
        ½: a draw, 0: the durak), in the order of ``observation.legal``; in a two-player
        endgame (``exact``) its exact value or what is proven of it (module docstring). An
        action dropped from a race (``race``) scores its average less 1, below every action
        still in it."""
        legal = observation.legal
        if not legal:
            raise ValueError(f"seat {observation.seat} has no legal action")
        if self.exact and (found := self.endgame(observation, rng)) is not None:
            if found.solved:
                return self._exact_scores(observation, found)
            return self._proven_scores(observation, found)
        if self.race and len(legal) > 1:
            return self._race(observation, rng)
        seat = observation.seat
        limit = self.playout_limit
        totals = [0.0] * len(legal)
        cap = self.samples
        deadline = None if self.time_budget is None else self.clock() + self.time_budget
        worlds = 0
        while True:
            world = determinize(observation, rng, undo=False, events=False)
            for i, action in enumerate(legal):
                game = world.copy(undo=False, events=False)
                game.push(action)
                totals[i] += playout(game, seat, limit)
            worlds += 1
            if cap is not None and worlds >= cap:
                break
            if deadline is not None and self.clock() >= deadline:
                break
        return {action: total / worlds for action, total in zip(legal, totals, strict=True)}

    def _race(self, observation: Observation, rng: random.Random) -> dict[Action, float]:
        """Averages over shared worlds, actions clearly behind dropped (module docstring)."""
        legal = observation.legal
        seat = observation.seat
        limit = self.playout_limit
        cap = self.samples
        deadline = None if self.time_budget is None else self.clock() + self.time_budget
        results: list[list[float]] = [[] for _ in legal]
        alive = list(range(len(legal)))
        worlds = 0
        while len(alive) > 1:
            for _ in range(RACE_BATCH):
                world = determinize(observation, rng, undo=False, events=False)
                for i in alive:
                    game = world.copy(undo=False, events=False)
                    game.push(legal[i])
                    results[i].append(playout(game, seat, limit))
                worlds += 1
                if cap is not None and worlds >= cap:
                    break
            alive = _still_in_doubt(results, alive)
            if cap is not None and worlds >= cap:
                break
            if deadline is not None and self.clock() >= deadline:
                break
            lead = results[alive[0]]
            if len(lead) >= RACE_SETTLED and all(results[i] == lead for i in alive):
                break
        return {
            action: sum(results[i]) / len(results[i]) - (0.0 if i in alive else 1.0)
            for i, action in enumerate(legal)
        }

    def _exact_scores(self, observation: Observation, solved: Solution) -> dict[Action, float]:
        """1, ½ or 0 by the solved value, a playout in the one world breaking ties."""
        world = determinize(observation, random.Random(0), undo=False, events=False)
        scores = {}
        for action in observation.legal:
            game = world.copy(undo=False, events=False)
            game.push(action)
            tie = playout(game, observation.seat, self.playout_limit)
            scores[action] = _EXACT_SCORE[solved.action_values[action]] + _TIE_BREAK * tie
        return scores

    def _proven_scores(self, observation: Observation, found: Solution) -> dict[Action, float]:
        """Scores kept within what the solver proved (:attr:`Solution.bounds`): an exact
        value as :meth:`_exact_scores`; an open span by a playout in the one world, inside
        it; an action another is proven at least as good as, below every candidate."""
        world = determinize(observation, random.Random(0), undo=False, events=False)
        candidates = set(found.candidates)
        scores = {}
        for action in observation.legal:
            low, high = found.bounds[action]
            if action not in candidates:
                scores[action] = max(0.0, _EXACT_SCORE[high] - _DOMINATED)
                continue
            game = world.copy(undo=False, events=False)
            game.push(action)
            tie = playout(game, observation.seat, self.playout_limit)
            bottom, top = _EXACT_SCORE[low], _EXACT_SCORE[high]
            if low == high:
                scores[action] = bottom + _TIE_BREAK * tie
            else:
                scores[action] = bottom + (top - bottom) * (_SPAN_EDGE + (1 - 2 * _SPAN_EDGE) * tie)
        return scores

    def ranked(self, observation: Observation, rng: random.Random) -> list[tuple[Action, float]]:
        """The legal actions with their scores, best first (ties: the rule of thumb's choice,
        then the order of ``observation.legal``)."""
        scores = self.evaluate(observation, rng)
        preferred = self._prior.choose(observation, rng)
        order = {a: i for i, a in enumerate(observation.legal)}
        return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0] != preferred, order[kv[0]]))

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """The best action by :meth:`evaluate` (sometimes the second best, see the class)."""
        legal = observation.legal
        if not legal:
            raise ValueError(f"seat {observation.seat} has no legal action")
        if len(legal) == 1:
            return legal[0]
        ranked = self.ranked(observation, rng)
        if self.second_best and rng.random() < self.second_best:
            return ranked[1][0]
        return ranked[0][0]
