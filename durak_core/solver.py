"""An exact solver for two-player endgames: once the stock is empty, Durak is a game of
perfect information (every card not in your hand, on the table or beaten off is in the other
hand), and :func:`solve` finds its game-theoretic value by search.

**What is solved.** A two-seat game (any :class:`~durak_core.Rules` that deal for two:
podkidnoy, perevodnoy with ``transfer``, Flash, the late trump swap...) whose stock is empty.
The game ends when a bout ends with somebody out of cards: the one still holding cards is the
durak; when both run out in the same bout nobody is (a draw, S1, S3), unless ``allow_draw`` is
off, when the previous durak stays durak (S0). The value of a position for a seat is
:attr:`Value.WIN` (the other is the durak), :attr:`Value.DRAW` or :attr:`Value.LOSS`.

**Who moves.** Where both seats have a legal action (Wikipedia's throw-ins at any time, S2; a
swap demanded by the defender, S0), the seat to move is the one :func:`durak_core.bots.next_seat`
names, as in the bots' games and the game page: the seat of the first legal action (the
defender before the thrower); a seat whose only action is the swap only when nobody else can
act (so a defender's late swap is never played). See :func:`seat_to_move`.

**Repetitions.** With transfers (perevodnoy, S1, S2) a position can come back: a transfer
turns the attack round, and a take brings the cards back into the hand. Under the engine's
repetition rule (``Rules.repetition_limit``: the game is a draw the limit-th time a bout
starts in the same position) the solver follows the engine: what the rule has counted so far
is part of the position (:func:`position_key`), and the engine ends a game that goes round.
Without such a rule (``repetition_limit=0``, or an engine that has none) the solver assumes
that a game that can go round for ever is a draw: a position that comes back on the line
being searched scores :data:`REPETITION`. Every value is then the value of the position
itself, whatever led to it (the value of the game in which endless play is a draw; from the
position solved, the same as «the first repetition is a draw»): each root action is solved
as a position of its own, and a search result goes into the transposition table only when
every repetition it met came back to that position or to one searched below it; a result
that leaned on a position above it depends on the path and is not stored. With the draw in
the middle of the scale this keeps the table sound: a win never rests on a repetition (a
repetition is a draw), and a repetition that comes back to the position itself gives neither
seat more than it could force without it (a side that can force a win can do so without
ever coming back).

**Search.** Alpha-beta over the three values (for seat 0: max where seat 0 moves, min where
seat 1 does), a transposition table keyed by :func:`position_key`, the table's best action
first, then cheap cards before dear ones (:func:`_static_rank`). Moves come from the
engine's public API only:
``legal_actions()``, ``push`` and ``undo`` on a working copy (``events=False``).

**Beyond the budget.** Each action of the seat to move is solved as a position of its own by
null-window tests («does it win for the mover?», then «is it at least a draw?»), every action
with its own share of the nodes, the shares doubling from round to round (:func:`_root`).
When the budget runs out, :attr:`Solution.bounds` says what was proven of each action (e.g.
one a win, another a loss, a third at least a draw) and :attr:`Solution.candidates` which
actions are not proven worse than another; a value that was not proven is never claimed.

>>> from durak_core import Game, Rules
>>> g = Game.from_position(Rules(), ["7C 9C", "8C 10C"], trump="S", attacker=0)
>>> s = solve(g)
>>> s.solved, s.mover, s.value.name
(True, 0, 'LOSS')
>>> {str(a): v.name for a, v in s.action_values.items()}
{'0:7C': 'LOSS', '0:9C': 'LOSS'}
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import islice
from typing import Final

from .actions import FLASH, PASS, REDEAL, SWAP, TAKE, TRANSFER, Action
from .cards import Card, Suit
from .game import Game
from .position import Position
from .rules import Rules
from .state import Phase, State

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_TABLE_SIZE",
    "REPETITION",
    "Solution",
    "Solver",
    "Value",
    "is_solvable",
    "position_key",
    "seat_to_move",
    "solve",
    "unsolvable_reason",
]


class Value(IntEnum):
    """A game-theoretic value for one seat, ordered ``LOSS < DRAW < WIN``. (Not the game's
    :class:`~durak_core.Outcome`, which says how a finished game ended.)"""

    LOSS = -1
    """This seat is the durak."""
    DRAW = 0
    """Nobody is the durak: both run out in the same bout (S1, S3), or the game goes round
    for ever (:data:`REPETITION`)."""
    WIN = 1
    """The other seat is the durak."""

    @property
    def flipped(self) -> Value:
        """The same value for the other seat."""
        return Value(-self.value)


REPETITION: Final = Value.DRAW
"""What a position that comes back on the searched line is worth, for either seat, when the
rules have no repetition rule of the engine's: the solver's assumption (see the module
docstring). The transposition table's rule relies on it being the middle value, the same for
both seats; a different rule of the engine belongs in the engine, which the solver follows."""

DEFAULT_NODE_BUDGET: Final = 1_000_000
"""Positions one :meth:`Solver.solve` may search before it answers «not solved»."""
DEFAULT_MAX_DEPTH: Final = 600
"""The longest line searched (actions from the root); deeper, the solve is «not solved»
(well within Python's recursion limit)."""
DEFAULT_TABLE_SIZE: Final = 2_000_000
"""Transposition-table entries a :class:`Solver` keeps (about 150 bytes each); when it is
full, the older half goes."""

_TIME_CHECK: Final = 255
"""Look at the clock every 256 positions."""

_TRANSFER, _TAKE, _PASS, _SWAP, _FLASH, _REDEAL = TRANSFER, TAKE, PASS, SWAP, FLASH, REDEAL
_OVER = Phase.OVER
_NO_CUT: Final = 1 << 30
"""«No repetition met» as a path depth (deeper than any line)."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What :func:`solve` found. Every value is for :attr:`seat` (the seat to move unless
    another was asked for)."""

    solved: bool
    """Whether the search finished within its budget. If not, :attr:`value` is None,
    :attr:`action_values` holds only the actions solved before the budget ran out and
    :attr:`bounds` what was proven of the others."""
    seat: int
    """The seat whose values these are."""
    mover: int | None
    """The seat to move (:func:`seat_to_move`), whose actions are valued; None if the game
    is over."""
    value: Value | None
    """The position's value for :attr:`seat` with best play from both seats."""
    action_values: dict[Action, Value] = field(default_factory=dict)
    """The value for :attr:`seat` of each legal action of :attr:`mover`, in the engine's order
    of legal actions."""
    line: tuple[Action, ...] = ()
    """A principal variation: best play from both seats, to the end of the game, or up to a
    position that comes back (a draw by :data:`REPETITION`); shorter only if the budget ran
    out while it was traced (the values are exact all the same)."""
    nodes: int = 0
    """Positions searched (tracing the line included)."""
    seconds: float = 0.0
    """Wall-clock time the solve took."""
    stopped: str | None = None
    """Why the search stopped early: ``"nodes"``, ``"time"`` or ``"depth"`` (None if solved)."""
    bounds: dict[Action, tuple[Value, Value]] = field(default_factory=dict)
    """What is proven of each legal action of :attr:`mover`, for :attr:`seat`: the lowest
    and the highest value it can have (equal once it is solved; ``(LOSS, WIN)`` when nothing
    is known), in the engine's order of legal actions. Solved or not, every bound is proven:
    the value with best play from both seats lies between them."""

    def proven(self, action: Action) -> Value | None:
        """The exact value of ``action`` for :attr:`seat`, if proven, else None."""
        low, high = self.bounds.get(action, (Value.LOSS, Value.WIN))
        return low if low == high else None

    @property
    def value_bounds(self) -> tuple[Value, Value]:
        """The lowest and highest value the position can have for :attr:`seat`, by the
        actions' :attr:`bounds` (the mover chooses among them)."""
        if self.value is not None:
            return self.value, self.value
        if not self.bounds:
            return Value.LOSS, Value.WIN
        pick = max if self.seat == self.mover else min
        lows, highs = zip(*self.bounds.values(), strict=True)
        return pick(lows), pick(highs)

    @property
    def candidates(self) -> tuple[Action, ...]:
        """The mover's actions that no other action is proven at least as good as while it
        might be better: a proven win for the mover leaves only proven wins; a proven loss goes
        while some other action might be better. Solved, these are the :attr:`best_actions`;
        never empty while the mover has an action."""
        sign = 1 if self.seat == self.mover else -1
        # each action's span for the mover, (lowest, highest)
        spans = {
            a: (sign * low, sign * high) if sign == 1 else (sign * high, sign * low)
            for a, (low, high) in self.bounds.items()
        }
        return tuple(
            a
            for a, span in spans.items()
            if not any(span[1] <= other[0] and span != other for other in spans.values())
        )

    @property
    def best_actions(self) -> tuple[Action, ...]:
        """The mover's actions that keep the position's value (empty if not solved)."""
        if self.value is None:
            return ()
        return tuple(a for a, v in self.action_values.items() if v == self.value)

    def keeps_value(self, action: Action) -> bool:
        """Whether ``action`` (one of the mover's) keeps the position's value."""
        return self.value is not None and self.action_values.get(action) == self.value


class _OutOfBudget(Exception):
    """The search's budget ran out (``args[0]``: which one)."""


def seat_to_move(game: Game) -> int | None:
    """The seat whose move it is for the solver, as :func:`durak_core.bots.next_seat` says:
    the seat of the first legal action (the defender before the thrower); a seat whose only
    action is the swap only when nobody else can act. None once the game is over."""
    return _mover(list(game.legal_actions()))


def _mover(actions: list[Action]) -> int | None:
    swapper: int | None = None
    for action in actions:
        if action.kind is not _SWAP:
            return action.seat
        swapper = action.seat
    return swapper


def unsolvable_reason(game: Game | Position, rules: Rules | None = None) -> str | None:
    """Why :func:`solve` cannot solve ``game`` (a :class:`Game`, or a :class:`Position` under
    ``rules``, default ``Rules()``), or None if it can: it solves two-seat games whose stock
    is empty (the turn-up drawn too), before any new deal for a misdeal may be asked for."""
    if isinstance(game, Game):
        work = game
        if rules is not None and rules != game.rules:
            raise ValueError("rules given for a game that has its own")
    else:
        work = Game.from_position(rules or Rules(), game, events=False)
    if work.players != 2:
        return f"the solver is for two players, not {work.players}"
    if work.stock:
        return "the stock is not empty: the other hand is not known yet"
    if any(a.kind is _REDEAL for a in work.legal_actions()):
        return "a new deal for a misdeal may still be asked for (C20)"
    return None


def is_solvable(game: Game | Position, rules: Rules | None = None) -> bool:
    """Whether :func:`solve` can solve ``game``: two seats, an empty stock (see
    :func:`unsolvable_reason`)."""
    return unsolvable_reason(game, rules) is None


def position_key(game: Game) -> Hashable:
    """A canonical key of an empty-stock two-player position: two positions of the same game
    (same rules, trump, turn-up and previous durak) with equal keys have the same legal
    actions now and the same futures, whatever the order of their cards.

    It holds each hand as a set of cards (the order of a hand changes nothing but the order
    in which actions are listed), the table as the sets of attack cards, of defence cards and
    of unbeaten attack cards (which card beat which no longer matters) and the rank of the
    first attack card (the rank a transfer must match), who attacks and defends, the hand
    the cap counts (C8), the «take», who passed, the trumps shown for a Flash (S2), the swap
    right and the turn-up's holder (S0), whether anything was beaten off yet (the first cap,
    S4) and, under a repetition rule with transfers, how often each position has started a
    bout. It leaves out what cannot change the future of such a position: the order of hands
    and of the discard pile, who led the bout (it orders drawing, and there is nothing to
    draw), the bout count (only a new deal for a misdeal reads it), the known cards, and
    without transfers the repetition counts (without transfers no position comes back: after
    a take the same attacker attacks again with fewer cards, and a beaten-off bout discards).
    """
    return _state_key(game.live_state, _counts_repetitions(game.rules))


def _counts_repetitions(rules: Rules) -> bool:
    """Whether the engine's repetition rule can matter: a limit, and transfers to bring
    positions back. (Read defensively: an engine without the rule has no such field.)"""
    limit: int = getattr(rules, "repetition_limit", 0)
    return bool(limit) and rules.transfer


def _mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def _state_key(s: State, counts: bool) -> Hashable:
    """:func:`position_key` of a state snapshot: one int, in fields of bits (hands 0–103,
    attack / defence / unbeaten cards 104–259, the rest from 260, Flash trumps from 280); with
    ``counts`` and positions counted by the repetition rule, a pair (that int, the counts)."""
    attacks = s.attacks
    table = 0
    rank = 0
    if attacks:
        rank = attacks[0].rank
        for attack, cover in zip(attacks, s.defences, strict=True):
            if cover is None:
                table |= 1 << attack.index | 1 << (attack.index + 104)
            else:
                table |= 1 << attack.index | 1 << (cover.index + 52)
    hands = s.hands
    passed = s.passed
    origin = s.low_trump_origin
    holder = s.turnup_holder
    misc = (
        s.attacker
        | s.defender << 1
        | s.taking << 2
        | passed[0] << 3
        | passed[1] << 4
        | (not s.discard) << 5
        | rank << 6
        | s.defender_hand_at_start << 10
        | (3 if origin is None else origin) << 16
        | (3 if holder is None else holder) << 18
    )
    key = _mask(hands[0]) | _mask(hands[1]) << 52 | table << 104 | misc << 260
    if s.flashed:
        key |= _mask(s.flashed) << 280
    if counts:
        seen: object = getattr(s, "seen", None)
        if seen:
            return key, _tally(seen)
    return key


def _tally(seen: object) -> Hashable:
    """The repetition rule's record as (position, times) pairs, whatever its order: a mapping
    of counts or a sequence of positions."""
    if isinstance(seen, Mapping):
        return frozenset(seen.items())
    assert isinstance(seen, Iterable)
    try:
        return tuple(sorted(seen))  # e.g. positions as text: sorting is cheaper than counting
    except TypeError:
        return frozenset(Counter(seen).items())


def _terminal(game: Game) -> int:
    """The finished game's value for seat 0."""
    outcome = game.outcome
    assert outcome is not None
    durak = outcome.durak
    return 0 if durak is None else -1 if durak == 0 else 1


_Entry = tuple[int, int, Action | None]
"""A table entry: lower and upper bound of the value for seat 0, and the best action found."""


def _static_rank(action: Action, trump: Suit) -> int:
    """The order actions are tried in (smaller first), after the table's best action: the
    swap; leads, beats and throw-ins with the cheapest card first (trumps after plain cards);
    the pass; transfers, cheapest first; the take. (Measured on endgames of the heuristic
    bot: trying costly cards, the take or transfers first searches several times more.)"""
    kind = action.kind
    if kind is _SWAP:
        return 0
    if kind is _PASS:
        return 90
    if kind is _TAKE:
        return 95
    card = action.card
    value = 0 if card is None else card.rank + (13 if card.suit is trump else 0)
    if kind is _TRANSFER or kind is _FLASH:
        return 100 + value
    return 40 + value


def _forget_older_half(table: dict[Hashable, _Entry]) -> None:
    """Make room in a full table: drop the half stored first (a dict keeps the order)."""
    for key in list(islice(table, len(table) // 2 + 1)):
        del table[key]


class _Search:
    """One solve's search over a working game (``events=False``, with undo)."""

    def __init__(
        self,
        game: Game,
        table: dict[Hashable, _Entry],
        table_size: int,
        node_budget: int,
        deadline: float | None,
        max_depth: int,
        clock: Callable[[], float],
    ) -> None:
        self.game = game
        self.legal = game.legal_actions()
        self.table = table
        self.table_size = table_size
        self.node_budget = node_budget
        self.deadline = deadline
        self.max_depth = max_depth
        self.clock = clock
        self.path: dict[Hashable, int] = {}
        self.counts = _counts_repetitions(game.rules)
        self.nodes = 0
        self.trump = game.trump
        self.static: dict[Action, int] = {}

    def key(self) -> Hashable:
        """The working game's :func:`position_key`."""
        return _state_key(self.game.live_state, self.counts)

    def mover_actions(self) -> tuple[int, list[Action]]:
        """The seat to move and its legal actions, in the engine's order."""
        actions = list(self.legal)
        seat = actions[0].seat
        if actions[-1].seat != seat:
            mover = _mover(actions)
            assert mover is not None
            seat = mover
            actions = [a for a in actions if a.seat == seat]
        return seat, actions

    def ordered(self, actions: list[Action], hint: Action | None) -> list[Action]:
        """``actions`` best-looking first: the table's best action, then by
        :func:`_static_rank`."""
        if len(actions) > 1:
            static = self.static
            for action in actions:
                if action not in static:
                    static[action] = _static_rank(action, self.trump)
            actions = sorted(actions, key=static.__getitem__)
            if hint is not None and hint in actions and actions[0] != hint:
                actions.remove(hint)
                actions.insert(0, hint)
        return actions

    def value(self) -> int:
        """The exact value for seat 0 of the working game's position, searched as a root."""
        self.path.clear()
        return self.search(-1, 1, 0)[0]

    def probe(self, alpha: int, beta: int) -> int:
        """The working game's position searched as a root in the window (``alpha``,
        ``beta``): its value for seat 0 if inside, else a bound (at most ``alpha``: an upper
        bound; at least ``beta``: a lower one)."""
        self.path.clear()
        return self.search(alpha, beta, 0)[0]

    def restart(self, base: Game) -> None:
        """Work on a fresh copy of ``base`` (after a search stopped part-way down a line)."""
        self.game = base.copy(undo=True, events=False, history=False)
        self.legal = self.game.legal_actions()

    def search(self, alpha: int, beta: int, depth: int) -> tuple[int, int]:
        """Fail-soft alpha-beta for seat 0. Returns the value (a bound outside the window)
        and the shallowest path depth a repetition it relied on came back to (``_NO_CUT``:
        none)."""
        game = self.game
        nodes = self.nodes = self.nodes + 1
        if nodes > self.node_budget:
            raise _OutOfBudget("nodes")
        deadline = self.deadline
        if not nodes & _TIME_CHECK and deadline is not None and self.clock() > deadline:
            raise _OutOfBudget("time")
        if game.phase is _OVER:
            return _terminal(game), _NO_CUT
        key = self.key()
        path = self.path
        back = path.get(key)
        if back is not None:
            return REPETITION.value, back
        table = self.table
        entry = table.get(key)
        hint = None
        lo, hi = -1, 1
        if entry is not None:
            lo, hi, hint = entry
            if lo >= beta or lo == hi:
                return lo, _NO_CUT
            if hi <= alpha:
                return hi, _NO_CUT
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        if depth >= self.max_depth:
            raise _OutOfBudget("depth")
        mover, actions = self.mover_actions()
        actions = self.ordered(actions, hint)
        push = game.push
        undo = game.undo
        search = self.search
        path[key] = depth
        a0, b0 = alpha, beta
        cut = _NO_CUT
        best_action: Action | None = None
        if mover == 0:
            best = -2
            for action in actions:
                push(action)
                v, back_to = search(alpha, beta, depth + 1)
                undo()
                if v > best:
                    best, best_action = v, action
                    if v >= beta or v == 1:
                        cut = back_to  # the bound rests on this action alone
                        break
                    if v > alpha:
                        alpha = v
                if back_to < cut:
                    cut = back_to
        else:
            best = 2
            for action in actions:
                push(action)
                v, back_to = search(alpha, beta, depth + 1)
                undo()
                if v < best:
                    best, best_action = v, action
                    if v <= alpha or v == -1:
                        cut = back_to
                        break
                    if v < beta:
                        beta = v
                if back_to < cut:
                    cut = back_to
        del path[key]
        if cut >= depth:
            # no repetition above this position: the result is the position's own
            if best <= a0:
                hi = best
            elif best >= b0:
                lo = best
            else:
                lo = hi = best
            if len(table) >= self.table_size:
                _forget_older_half(table)
            table[key] = (lo, hi, best_action)
        return best, cut


class Solver:
    """Solves positions of one game after another, keeping its transposition table while
    they belong to the same game (same rules, trump, turn-up and previous durak): solving
    each decision of an endgame in turn reuses what the earlier solves found. The table holds
    at most ``table_size`` positions (when it is full, the older half goes)."""

    def __init__(self, *, table_size: int = DEFAULT_TABLE_SIZE) -> None:
        self.table_size = table_size
        self._table: dict[Hashable, _Entry] = {}
        self._game: tuple[object, ...] | None = None

    @property
    def entries(self) -> int:
        """Positions in the transposition table now."""
        return len(self._table)

    def clear(self) -> None:
        """Forget everything found so far."""
        self._table.clear()

    def solve(
        self,
        game: Game | Position,
        *,
        rules: Rules | None = None,
        seat: int | None = None,
        node_budget: int = DEFAULT_NODE_BUDGET,
        time_budget: float | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        clock: Callable[[], float] = time.perf_counter,
    ) -> Solution:
        """Solve ``game`` (a :class:`Game`, or a :class:`Position` under ``rules``): see
        :func:`solve`."""
        start = clock()
        if isinstance(game, Game):
            if rules is not None and rules != game.rules:
                raise ValueError("rules given for a game that has its own")
            # the whole state, also what the repetition rule has counted so far
            work = game.copy(undo=True, events=False, history=False)
            previous_durak = game.previous_durak
        elif isinstance(game, Position):
            work = Game.from_position(rules or Rules(), game, undo=True, events=False)
            previous_durak = game.previous_durak
        else:
            raise TypeError(f"solve a Game or a Position, not {type(game).__name__}")
        reason = unsolvable_reason(work)
        if reason is not None:
            raise ValueError(f"cannot solve this position: {reason}")
        mover = seat_to_move(work)
        if seat is None:
            seat = 0 if mover is None else mover
        if seat not in (0, 1):
            raise ValueError(f"no seat {seat!r} in a two-player game")
        sign = 1 if seat == 0 else -1
        if mover is None:
            value = Value(sign * _terminal(work))
            return Solution(True, seat, None, value, seconds=clock() - start)
        signature = (work.rules, work.trump, work.turnup, previous_durak)
        if signature != self._game:
            self.clear()
            self._game = signature
        deadline = None if time_budget is None else start + time_budget
        search = _Search(
            work, self._table, self.table_size, node_budget, deadline, max_depth, clock
        )
        _, actions = search.mover_actions()
        root = search.key()
        entry = self._table.get(root)
        order = search.ordered(actions, entry[2] if entry else None)
        low, high, stopped = _root(search, mover, order, node_budget)
        bounds = {
            a: (Value(low[a]), Value(high[a])) if sign == 1 else (Value(-high[a]), Value(-low[a]))
            for a in actions
        }
        exact = {a: bounds[a][0] for a in actions if low[a] == high[a]}
        if stopped is not None:
            return Solution(
                False,
                seat,
                mover,
                None,
                exact,
                nodes=search.nodes,
                seconds=clock() - start,
                stopped=stopped,
                bounds=bounds,
            )
        best = (max if mover == 0 else min)(low.values())
        first = next(a for a in search.ordered(actions, None) if low[a] == best)
        self._table[root] = (best, best, first)
        search.node_budget = node_budget
        line = _line(search, first, best, root)
        return Solution(
            True,
            seat,
            mover,
            Value(sign * best),
            exact,
            line,
            search.nodes,
            clock() - start,
            bounds=bounds,
        )


_FIRST_SHARE: Final = 4
"""A root action's first share of the node budget: 1 / (this x the number of actions)."""


def _root(
    search: _Search, mover: int, order: list[Action], node_budget: int
) -> tuple[dict[Action, int], dict[Action, int], str | None]:
    """Bound the value for seat 0 of each root action (``order``, tried in this order) by
    null-window searches, each searched as a position of its own, until every value is exact
    or the budget is spent. Returns the lower and upper bounds and why the search stopped
    (None: every value exact).

    Each action's value is known after at most two tests: «does it win for the mover?» and
    «is it at least a draw for him?». A round asks every open action the first of its open
    tests, the mover's win first, each with its own share of the nodes, then the second;
    shares double from round to round (the transposition table keeps what an interrupted
    test found below it), so an action that needs much does not use up the budget of the
    others: when the budget runs out, what was proven stays (e.g. one action proven a win,
    another a loss)."""
    base = search.game.copy(undo=True, events=False, history=False)  # the root, kept
    low = dict.fromkeys(order, -1)
    high = dict.fromkeys(order, 1)
    blocked: set[Action] = set()  # too deep for max_depth
    share = max(64, node_budget // (_FIRST_SHARE * len(order)))
    win = 0 if mover == 0 else -1  # the test (win, win + 1) tells a win for the mover
    other = -1 - win  # and this one a loss
    while True:
        for stage in (0, 1):
            for action in order:
                lo, hi = low[action], high[action]
                if lo == hi or action in blocked:
                    continue
                # a test (a, a + 1) tells something only if lo <= a < hi
                tests = (win,) if stage == 0 else (other, win)
                alpha = next((a for a in tests if lo <= a < hi), None)
                if alpha is None:
                    continue
                if search.nodes >= node_budget:
                    return low, high, "nodes"
                search.node_budget = min(node_budget, search.nodes + share)
                search.game.push(action)
                try:
                    v = search.probe(alpha, alpha + 1)
                except _OutOfBudget as exc:
                    reason = str(exc.args[0])
                    search.restart(base)
                    if reason == "time":
                        return low, high, "time"
                    if reason == "depth":
                        blocked.add(action)
                    continue
                search.game.undo()
                if v > alpha:
                    low[action] = max(lo, v)
                else:
                    high[action] = min(hi, v)
        if all(low[a] == high[a] for a in order):
            return low, high, None
        if all(low[a] == high[a] or a in blocked for a in order):
            return low, high, "depth"
        share *= 2


def _line(search: _Search, first: Action, value: int, root: Hashable) -> tuple[Action, ...]:
    """Best play from the root, whose value for seat 0 is ``value`` and whose best action is
    ``first``: at each position the action the table names (the one that proved the value),
    checked, else the first that keeps the value; to the end of the game, until a position
    comes back (a draw by repetition), or as far as the budget allows."""
    work = search.game
    line = [first]
    seen = {root}
    work.push(first)
    try:
        while work.phase is not _OVER and len(line) < search.max_depth:
            key = search.key()
            if key in seen:
                break  # it goes round: a draw by repetition
            seen.add(key)
            entry = search.table.get(key)
            _, actions = search.mover_actions()
            for action in search.ordered(actions, entry[2] if entry else None):
                work.push(action)
                if search.value() == value:
                    line.append(action)
                    break
                work.undo()
            else:
                raise AssertionError("no action keeps the value of a solved position")
    except _OutOfBudget:
        pass  # the values are exact; only the line stops short
    return tuple(line)


def solve(
    game: Game | Position,
    *,
    rules: Rules | None = None,
    seat: int | None = None,
    node_budget: int = DEFAULT_NODE_BUDGET,
    time_budget: float | None = None,
    max_depth: int = DEFAULT_MAX_DEPTH,
    clock: Callable[[], float] = time.perf_counter,
) -> Solution:
    """The exact value of an empty-stock two-player position and of each action of the seat
    to move (:func:`seat_to_move`), for ``seat`` (default: the seat to move), with a principal
    variation.

    ``game`` is a :class:`Game` or a :class:`Position` (under ``rules``, default ``Rules()``);
    it is not changed. The search stops after ``node_budget`` positions, ``time_budget``
    seconds (by ``clock``) or a line ``max_depth`` actions long, whichever comes first, and
    then answers ``solved=False`` with no value (never a guess), only what it proved: the
    values of the actions it solved and :attr:`Solution.bounds` of all. Raises
    ``ValueError`` for a position it cannot solve (:func:`unsolvable_reason`) or a seat that
    is not 0 or 1."""
    return Solver().solve(
        game,
        rules=rules,
        seat=seat,
        node_budget=node_budget,
        time_budget=time_budget,
        max_depth=max_depth,
        clock=clock,
    )
