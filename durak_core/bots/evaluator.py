"""One judge of a seat's moves, asked by everything that explains them (the Hint, the review).

An :class:`Evaluator` scores every legal action of an :class:`~durak_core.Observation`:

- a two-player endgame (every card placed) that the solver finishes is **solved**: each action
  is a win, a draw or a loss against perfect play (:meth:`PIMCBot.solution`);
- elsewhere it samples worlds (the unseen cards dealt at random, among the deals that agree
  with what the seat knows) and plays every action out in each, as :class:`PIMCBot` does,
  keeping each world's result so that it can tell a real difference from the noise of the
  sample (:meth:`Assessment.clearly_better`: the paired differences' spread).

Its random stream comes from the evaluator's ``seed`` (e.g. the game's) and the position
(:func:`position_text`), never from who asks or when: the same position gets the same
numbers, and a cache per position (:attr:`Evaluator.cache_size`) hands the second asker what
the first one computed. The number of sampled worlds is fixed by the number of legal actions
(:meth:`Evaluator.samples_for`), not by a clock, so a seed gives the same judgement on any
machine.

>>> from durak_core import Game, Rules, observe
>>> game = Game.deal(Rules(), players=2, seed=3)
>>> judge = Evaluator(seed=1)
>>> found = judge.assess(observe(game, game.attacker))
>>> found is judge.assess(observe(game, game.attacker))
True
>>> found.best() in found.scores
True
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Final

from ..actions import Action
from ..observation import Observation
from ..solver import Value
from .heuristic import HeuristicBot
from .pimc import PIMCBot

__all__ = [
    "MAX_SAMPLES",
    "MIN_SAMPLES",
    "NOISE_Z",
    "PLAYOUT_BUDGET",
    "Assessment",
    "Evaluator",
    "hidden_cards",
    "position_text",
]

PLAYOUT_BUDGET: Final = 480
"""Playouts one assessment may cost (sampled worlds × legal actions): about 0.15–0.3 s."""
MIN_SAMPLES: Final = 12
MAX_SAMPLES: Final = 48
NOISE_Z: Final = 2.0
"""A difference counts as real when it is more than this many standard errors of the paired
differences (about 95% two-sided), and more than one sampled world's worth."""
_EXACT: Final = {Value.WIN: 1.0, Value.DRAW: 0.5, Value.LOSS: 0.0}
_TIE_BREAK: Final = 0.001
"""What a tie-breaking playout adds to an exact score: it orders moves of the same value and
never passes another value."""


def hidden_cards(obs: Observation) -> int:
    """How many cards in the other hands and the stock this seat cannot place (the turn-up
    while in the stock is seen): 0 when every world a sample could deal is the real deal."""
    others = sum(
        max(0, size - len(obs.known[s])) for s, size in enumerate(obs.hand_sizes) if s != obs.seat
    )
    return others + max(0, obs.stock_size - int(obs.turnup_in_stock))


def position_text(obs: Observation) -> str:
    """The position as this seat sees it, as text that is the same in every process (no
    set's iteration order in it): the key of the cache and of the random stream."""

    def cards(group: Collection[object]) -> str:
        return " ".join(sorted(str(c) for c in group))

    parts = [
        f"seat {obs.seat}/{obs.players}",
        "hand " + " ".join(str(c) for c in obs.hand),
        "sizes " + ",".join(map(str, obs.hand_sizes)),
        f"stock {obs.stock_size} {obs.turnup} {obs.turnup_in_stock} {obs.trump}",
        "table " + " ".join(f"{a}/{d}" for a, d in obs.table),
        "discard " + " ".join(str(c) for c in obs.discard),
        f"roles {obs.attacker} {obs.defender} {obs.lead_attacker} {obs.defender_hand_at_start}",
        f"phase {obs.phase} {obs.taking} {sorted(obs.passed)} {obs.active} {obs.out}",
        f"bouts {obs.bouts} {obs.turnup_holder} {obs.low_trump_origin}",
        "known " + "|".join(cards(k) for k in obs.known),
        "public " + "|".join(cards(k) for k in obs.public),
        "undealt " + cards(obs.undealt),
        "draws " + ",".join(map(str, obs.unseen_draws)),
        "flashed " + cards(obs.flashed),
        "legal " + " ".join(str(a) for a in obs.legal),
    ]
    return "\n".join(parts)


@dataclass(frozen=True, eq=False)
class Assessment:
    """What the evaluator found for one position: every legal action's ``scores`` (1 never
    the durak, ½ a draw, 0 the durak: the average over ``samples`` sampled worlds, or the
    exact value when ``exact`` holds the solved values)."""

    seat: int
    legal: tuple[Action, ...]
    scores: Mapping[Action, float]
    """When solved: 1, ½ or 0 by the exact value, plus a thousandth for a rule-of-thumb
    playout of the real deal that breaks ties between moves of the same value."""
    samples: int
    """Sampled worlds (0 when solved exactly)."""
    hidden: bool
    """Some cards were hidden from the seat (the worlds differ); else every world was the
    real deal."""
    exact: Mapping[Action, Value] | None = None
    results: Mapping[Action, tuple[float, ...]] = field(default_factory=dict)
    """Each action's result in each sampled world, in the same order of worlds."""
    preferred: Action | None = None
    """The rule of thumb's choice: breaks ties of score."""
    answers: Mapping[Action, Action] = field(default_factory=dict)
    """When solved: the other seat's best answer to each action that does not win (the
    first move of a principal line after it), where that seat moves next with a choice."""

    def ranked(self, among: Collection[Action] | None = None) -> list[Action]:
        """The legal actions (or those of ``among``), best first; ties: the rule of thumb's
        choice, then the engine's order."""
        order = {a: i for i, a in enumerate(self.legal)}
        pool = [a for a in self.legal if among is None or a in among]
        return sorted(pool, key=lambda a: (-self.scores[a], a != self.preferred, order[a]))

    def best(self, among: Collection[Action] | None = None) -> Action:
        """The best action (of ``among`` when given and it holds a legal one)."""
        ranked = self.ranked(among)
        return ranked[0] if ranked else self.ranked()[0]

    def margin(self, a: Action, b: Action) -> float:
        """How far apart ``a`` and ``b`` may score by the noise of the sample alone:
        :data:`NOISE_Z` standard errors of their paired differences, at least one world's
        worth (0 when solved exactly)."""
        if self.exact is not None or self.samples == 0:
            return 0.0
        n = self.samples
        ra, rb = self.results.get(a), self.results.get(b)
        if not ra or not rb:
            return 1.0 / n
        diffs = [x - y for x, y in zip(ra, rb, strict=True)]
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
        return max(NOISE_Z * spread / math.sqrt(n), 1.0 / n)

    def clearly_better(self, a: Action, b: Action) -> bool:
        """``a`` does better than ``b`` beyond doubt: a better exact value, or a difference
        of score larger than the noise of the sample (:meth:`margin`)."""
        if self.exact is not None:
            return self.exact[a] > self.exact[b]
        gap = self.scores[a] - self.scores[b]
        return gap > 0 and gap > self.margin(a, b)  # (the margin is never negative)

    def close(self, a: Action, b: Action) -> bool:
        """Neither ``a`` nor ``b`` is clearly better: too close to call."""
        return not self.clearly_better(a, b) and not self.clearly_better(b, a)

    def better_than(self, action: Action) -> Action | None:
        """The best-scored action clearly better than ``action``, or None when none is (the
        review's "better move")."""
        return next((a for a in self.ranked() if self.clearly_better(a, action)), None)


class Evaluator:
    """The judge of moves that the Hint and the review share (see the module docstring).

    ``seed``: the random stream's root (the game's seed); ``budget`` playouts per assessment,
    between ``min_samples`` and ``max_samples`` worlds; ``exact_node_budget``: positions the
    endgame solver may search before the evaluator samples instead; ``cache_size`` positions
    remembered."""

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: int = PLAYOUT_BUDGET,
        min_samples: int = MIN_SAMPLES,
        max_samples: int = MAX_SAMPLES,
        exact_node_budget: int | None = None,
        cache_size: int = 512,
    ) -> None:
        if not 1 <= min_samples <= max_samples:
            raise ValueError(f"need 1 <= min_samples <= max_samples: {min_samples}, {max_samples}")
        self.seed = seed
        self.budget = budget
        self.min_samples = min_samples
        self.max_samples = max_samples
        self.cache_size = cache_size
        self._solver = PIMCBot(1, name="evaluator", exact=True)
        if exact_node_budget is not None:
            self._solver.exact_node_budget = exact_node_budget
        self._sampler = PIMCBot(1, name="evaluator")
        self._prior = HeuristicBot()
        self._cache: OrderedDict[str, Assessment] = OrderedDict()

    def __repr__(self) -> str:
        return (
            f"Evaluator(seed={self.seed}, budget={self.budget}, "
            f"samples={self.min_samples}..{self.max_samples})"
        )

    def samples_for(self, legal: int) -> int:
        """Sampled worlds for a position with ``legal`` actions: the budget's playouts,
        between the bounds (a fixed number: the same seed, the same numbers anywhere)."""
        return max(self.min_samples, min(self.max_samples, self.budget // max(1, legal)))

    def rng(self, obs: Observation) -> random.Random:
        """The random stream of ``obs``'s position (the seed and the position only)."""
        return random.Random(f"{self.seed}\n{position_text(obs)}")

    def assess(self, obs: Observation, *, samples: int | None = None) -> Assessment:
        """Every legal action of ``obs`` scored (the cached assessment when this position,
        with this many samples, was assessed before). Raises ``ValueError`` without a legal
        action."""
        legal = tuple(obs.legal)
        if not legal:
            raise ValueError(f"seat {obs.seat} has no legal action")
        key = f"{samples}\n{position_text(obs)}"
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        found = self._assess(obs, legal, samples)
        self._cache[key] = found
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return found

    def _assess(
        self, obs: Observation, legal: tuple[Action, ...], samples: int | None
    ) -> Assessment:
        rng = self.rng(obs)
        preferred = self._prior.choose(obs, random.Random(0)) if len(legal) > 1 else None
        hidden = hidden_cards(obs) > 0
        if len(legal) == 1:
            return Assessment(obs.seat, legal, {legal[0]: 1.0}, 0, hidden, preferred=legal[0])
        solved = self._solver.solution(obs, random.Random(0))
        if solved is not None and solved.solved and all(a in solved.action_values for a in legal):
            values = {a: solved.action_values[a] for a in legal}
            # among moves of the same value, one playout of the real deal (the rule of thumb
            # on both sides) breaks the tie: the move that leaves the other more room to err
            tie = self._sampler.evaluate(obs, rng)
            return Assessment(
                obs.seat,
                legal,
                {a: _EXACT[v] + _TIE_BREAK * tie[a] for a, v in values.items()},
                0,
                False,
                exact=values,
                preferred=preferred,
                answers=self._solver.answers(obs, [a for a in legal if values[a] < Value.WIN]),
            )
        n = samples if samples is not None else self.samples_for(len(legal))
        if not hidden:
            n = 1  # every world is the real deal: one playout says all a sample would
        per_world: dict[Action, list[float]] = {a: [] for a in legal}
        for _ in range(n):
            one = self._sampler.evaluate(obs, rng)
            for a in legal:
                per_world[a].append(one[a])
        results = {a: tuple(r) for a, r in per_world.items()}
        scores = {a: sum(r) / n for a, r in results.items()}
        return Assessment(obs.seat, legal, scores, n, hidden, results=results, preferred=preferred)
