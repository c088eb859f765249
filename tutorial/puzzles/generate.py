"""The puzzle set: empty-stock positions from games between the computer levels, each proven
by the exact two-player solver (:mod:`durak_core.solver`).

**Where positions come from.** :func:`play` deals a two-player game under one of
:data:`RULE_SETS` (every preset, with and without transfer) from a seed and lets two computer
levels (:data:`PAIRINGS`, :data:`PIMC_EVERY`) play it out; every decision after the stock has
run out, with two or more actions for the seat to move and at most :data:`MAX_CARDS` cards in
play (both hands and the table), is a :class:`Candidate`. Everything is seeded: the same
arguments give the same candidates.

**What makes a puzzle** (:func:`examine`). The solver (a :class:`~durak_core.solver.Solver`,
its default node budget) solves the position; the seat to move (its :func:`seat_to_move`)
must be able to win, or to draw where nothing wins; the moves that keep that value (the
``solutions``) must be one or a small set (at most :data:`MAX_SOLUTIONS`, and not every move);
and at least one *tempting* move must lose value. A move is tempting (:func:`natural_moves`)
when it is what a newcomer reaches for without reading the position:

* ``heuristic``: the choice of the ``heuristic`` computer level, the rule of thumb of the
  lessons (lead your cheapest card or pair, beat cheaply, keep trumps, dump low cards);
* ``cheapest``: the move that plays the cheapest card (a plain card before any trump, then by
  rank), whatever it does.

**Levels** (:func:`level`) by the principal line's length (actions of both seats, to the end
of the game) and the number of wrong moves (every move that loses value is one more way to
go wrong; the tempting ones are nearly always one: the ``heuristic`` level mostly plays the
cheapest card): 1 for a line of at most :data:`SHORT_LINE` actions with fewer than
:data:`MANY_WRONG` wrong moves, 3 for a line longer than :data:`LONG_LINE`, or longer than
:data:`MIDDLE_LINE` with :data:`MANY_WRONG` wrong moves or more, 2 otherwise.

**Themes** (:func:`themes`), each a check on the solutions, the line and the hands:

* ``last_trump``: the mover holds one trump, and either every solution plays it or a
  tempting move plays it and no solution does (spend it now, or keep it);
* ``trump_lead``: every solution leads a trump although the mover holds a plain card;
* ``pair_lead``: every solution leads, and on the line the mover throws in a card of the led
  rank in the same bout (drawing out a rank: the lead is followed up);
* ``take``: every solution takes although the mover could beat a card;
* ``transfer``: a solution passes the attack on (perevodnoy);
* ``hold_back``: every solution passes although the mover could throw in;
* ``repetition_draw``: a draw, and the line ends by the repetition rule (perevodnoy) or
  goes round to a position seen before;
* ``both_out``: a draw, and the line ends with both hands empty in the same bout.

**Proof** (:func:`prove`): a puzzle is solved again from its stored rules and position with a
fresh solver; its seat, value, solutions (exactly the moves that keep the value), tempting
moves (each loses value), line (legal, each action keeping the value for the seat that makes
it, ending in the value), level and themes must all come out as stored.

The set lives in :data:`PUZZLES_PATH` (JSON lines, one puzzle a line, sorted by ``id``);
``script/make_puzzles.py`` builds it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from durak_core import (
    PRESETS,
    Action,
    ActionKind,
    Card,
    Game,
    Position,
    Rules,
    Suit,
    observe,
)
from durak_core.bots import HeuristicBot, card_value, make_bot, next_seat
from durak_core.solver import (
    DEFAULT_NODE_BUDGET,
    Solution,
    Solver,
    Value,
    is_solvable,
    position_key,
    seat_to_move,
)

__all__ = [
    "LEVELS",
    "MAX_CARDS",
    "MAX_SOLUTIONS",
    "PAIRINGS",
    "PIMC_EVERY",
    "PUZZLES_PATH",
    "RULE_SETS",
    "THEMES",
    "Candidate",
    "Proof",
    "Puzzle",
    "PuzzleError",
    "RuleSet",
    "Tempting",
    "candidates",
    "canonical_key",
    "cards_in_play",
    "dump_line",
    "examine",
    "game_puzzles",
    "game_seed",
    "level",
    "load_puzzles",
    "natural_moves",
    "pairing",
    "play",
    "prove",
    "puzzle_id",
    "rule_set_puzzles",
    "themes",
    "value_of",
]

PUZZLES_PATH: Final = Path(__file__).resolve().parent / "puzzles.jsonl"
"""The puzzle set: one JSON object a line (:meth:`Puzzle.to_dict`), sorted by ``id``."""

MAX_CARDS: Final = 10
"""The most cards in play (both hands and the table) at a puzzle's position: more, and a
solve takes seconds (and a learner's line gets long)."""
MAX_SOLUTIONS: Final = 2
"""The most moves that may keep the value: one, or a pair (e.g. two equal ways to start)."""
SHORT_LINE: Final = 7
"""A principal line of at most this many actions is short: level 1 with few wrong moves."""
MIDDLE_LINE: Final = 9
"""A principal line longer than this is level 3 with many wrong moves."""
LONG_LINE: Final = 14
"""A principal line longer than this is long: level 3."""
MANY_WRONG: Final = 3
"""This many wrong moves (moves that lose value) or more are many."""
LEVELS: Final = (1, 2, 3)
THEMES: Final = (
    "last_trump",
    "trump_lead",
    "pair_lead",
    "take",
    "transfer",
    "hold_back",
    "repetition_draw",
    "both_out",
)
"""Every theme, in the order a puzzle lists them."""

_VALUE_NAMES: Final = {Value.WIN: "win", Value.DRAW: "draw", Value.LOSS: "loss"}
_NAMED_VALUES: Final = {name: value for value, name in _VALUE_NAMES.items()}
_CARD_KINDS: Final = frozenset(
    {ActionKind.LEAD, ActionKind.BEAT, ActionKind.THROW, ActionKind.TRANSFER}
)


class PuzzleError(ValueError):
    """A stored puzzle that is malformed or that the solver does not prove."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A preset, with or without transfer."""

    preset: str
    transfer: bool

    @property
    def name(self) -> str:
        """``classic`` or ``classic+transfer``."""
        return self.preset + ("+transfer" if self.transfer else "")

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset).replace(transfer=self.transfer)


RULE_SETS: Final = tuple(
    RuleSet(name, transfer)
    for name, preset in PRESETS.items()
    if preset.rules.min_players <= 2 <= preset.rules.max_players
    for transfer in (False, True)
)
"""Every two-player preset without and with transfer (the play page offers transfer as a
switch on every preset)."""

PAIRINGS: Final = (
    ("heuristic", "newcomer"),
    ("newcomer", "heuristic"),
    ("heuristic", "heuristic"),
    ("newcomer", "newcomer"),
    ("random", "heuristic"),
    ("newcomer", "random"),
    ("heuristic", "random"),
    ("random", "newcomer"),
    ("newcomer", "heuristic"),
    ("heuristic", "newcomer"),
    ("newcomer", "newcomer"),
    ("heuristic", "heuristic"),
    ("random", "random"),
    ("heuristic", "newcomer"),
    ("newcomer", "heuristic"),
    ("newcomer", "newcomer"),
)
"""The computer levels that meet, seat 0 first: game ``n`` of a rule set is played by
``PAIRINGS[n % 16]``, but see :data:`PIMC_EVERY`. ``random`` leaves odd positions."""
PIMC_EVERY: Final = 32
"""Game ``n`` with ``n % 32 == 31`` is ``pimc`` (the default level, which plays endgames
exactly) against ``newcomer``, ``pimc`` in seat 0 and 1 in turn: a ``pimc`` game takes about
5 seconds of CPU where the others take a fifth of one."""


def game_seed(rule_set: RuleSet, number: int) -> int:
    """The deal's seed of game ``number`` of ``rule_set`` (games of rule sets that deal alike
    for two, such as ``classic`` and ``dame_karty``, are still different games)."""
    digest = hashlib.sha256(f"{rule_set.name}/{number}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def pairing(number: int) -> tuple[str, str]:
    """The computer levels of game ``number`` (see :data:`PAIRINGS`), seat 0 first."""
    if number % PIMC_EVERY == PIMC_EVERY - 1:
        return ("pimc", "newcomer") if (number // PIMC_EVERY) % 2 == 0 else ("newcomer", "pimc")
    return PAIRINGS[number % len(PAIRINGS)]


@dataclass(frozen=True, slots=True)
class Candidate:
    """An empty-stock decision of a bot game."""

    rule_set: RuleSet
    position: Position
    game: int
    """The game's number in its rule set (:func:`game_seed`, :func:`pairing`)."""
    bots: tuple[str, str]
    ply: int
    """Actions played in the game before this position."""


@dataclass(frozen=True, slots=True)
class Tempting:
    """A natural-looking move that does not keep the value."""

    move: str
    value: str
    """Its value for the seat to move: ``draw`` or ``loss`` (or ``draw`` in a ``win``)."""
    why: tuple[str, ...]
    """``heuristic`` and/or ``cheapest`` (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One proven puzzle. ``to_dict`` is the stored form."""

    id: str
    level: int
    rule_set: RuleSet
    rules: Rules
    position: Position
    seat: int
    value: str
    solutions: tuple[str, ...]
    line: tuple[str, ...]
    tempting: tuple[Tempting, ...]
    themes: tuple[str, ...]
    moves: int
    """How many legal moves the seat to move has."""
    source: Mapping[str, Any] = field(default_factory=dict)
    """Where it came from: the game's number in its rule set, the bots, the ply (a record)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "level": self.level,
            "preset": self.rule_set.preset,
            "transfer": self.rule_set.transfer,
            "rules": self.rules.to_dict(),
            "position": self.position.to_dict(),
            "seat": self.seat,
            "value": self.value,
            "solutions": list(self.solutions),
            "line": list(self.line),
            "tempting": [
                {"move": t.move, "value": t.value, "why": list(t.why)} for t in self.tempting
            ],
            "themes": list(self.themes),
            "moves": self.moves,
            "source": dict(self.source),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Puzzle:
        """Read :meth:`to_dict`'s form; raises :class:`PuzzleError` if it is malformed."""
        try:
            rules = Rules.from_dict(dict(data["rules"]))
            rule_set = RuleSet(str(data["preset"]), bool(data["transfer"]))
            position = Position.from_dict(data["position"], rules)
            tempting = tuple(
                Tempting(str(t["move"]), str(t["value"]), tuple(str(w) for w in t["why"]))
                for t in data["tempting"]
            )
            puzzle = cls(
                id=str(data["id"]),
                level=int(data["level"]),
                rule_set=rule_set,
                rules=rules,
                position=position,
                seat=int(data["seat"]),
                value=str(data["value"]),
                solutions=tuple(str(s) for s in data["solutions"]),
                line=tuple(str(a) for a in data["line"]),
                tempting=tempting,
                themes=tuple(str(t) for t in data["themes"]),
                moves=int(data["moves"]),
                source=dict(data.get("source", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PuzzleError(f"puzzle {data.get('id')!r}: malformed: {exc}") from exc
        if puzzle.value not in ("win", "draw"):
            raise PuzzleError(f"puzzle {puzzle.id}: value {puzzle.value!r}, not win or draw")
        if puzzle.level not in LEVELS:
            raise PuzzleError(f"puzzle {puzzle.id}: level {puzzle.level}")
        if rule_set.rules != rules:
            raise PuzzleError(f"puzzle {puzzle.id}: rules are not {rule_set.name}'s")
        unknown = set(puzzle.themes) - set(THEMES)
        if unknown:
            raise PuzzleError(f"puzzle {puzzle.id}: unknown themes {sorted(unknown)}")
        return puzzle


@dataclass(frozen=True, slots=True)
class Proof:
    """What :func:`prove` checked."""

    puzzle: str
    nodes: int
    """Positions the solver searched (the root and every position of the line)."""


def value_of(game: Game, seat: int) -> Value:
    """A finished game's value for ``seat``."""
    outcome = game.outcome
    assert outcome is not None
    if outcome.durak is None:
        return Value.DRAW
    return Value.LOSS if outcome.durak == seat else Value.WIN


# ------------------------------------------------------------------------ games and candidates


def cards_in_play(game: Game) -> int:
    """Cards in both hands and on the table."""
    on_table = sum(1 + (d is not None) for _, d in game.table)
    return sum(game.hand_sizes) + on_table


def play(rule_set: RuleSet, number: int, *, max_actions: int = 2000) -> Iterator[Candidate]:
    """Deal game ``number`` of ``rule_set`` (:func:`game_seed`) and let its
    :func:`pairing` play it to the end, yielding each empty-stock decision with a choice and at
    most :data:`MAX_CARDS` cards in play, as it comes."""
    rules = rule_set.rules
    seed = game_seed(rule_set, number)
    levels = pairing(number)
    game = Game.deal(rules, 2, seed=seed)
    bots = [make_bot(levels[0]), make_bot(levels[1])]
    rngs = [random.Random(f"{rule_set.name}/{number}/{seat}") for seat in (0, 1)]
    for ply in range(max_actions):
        seat = next_seat(game)
        if seat is None:
            return
        obs = observe(game, seat)
        if (
            not game.stock
            and len(obs.legal) > 1
            and cards_in_play(game) <= MAX_CARDS
            and is_solvable(game)
        ):
            yield Candidate(rule_set, game.position(), number, levels, ply)
        game.push(bots[seat].choose(obs, rngs[seat]))


def candidates(rule_set: RuleSet, number: int) -> list[Candidate]:
    """:func:`play`'s candidates as a list."""
    return list(play(rule_set, number))


# ------------------------------------------------------------------------ selection


def _game(rules: Rules, position: Position) -> Game:
    return Game.from_position(rules, position, events=False)


def natural_moves(game: Game, seat: int) -> dict[Action, tuple[str, ...]]:
    """The moves a newcomer reaches for, with why (see the module docstring): the
    ``heuristic`` level's choice and the ``cheapest`` card's move."""
    found: dict[Action, list[str]] = {}
    obs = observe(game, seat)
    choice = HeuristicBot().choose(obs, random.Random(0))
    found.setdefault(choice, []).append("heuristic")
    low = game.rules.lowest_rank
    trump = game.trump
    cards = [a for a in obs.legal if a.kind in _CARD_KINDS and a.card is not None]
    if cards:
        cheapest = min(cards, key=lambda a: card_value(_card(a), trump, low))
        found.setdefault(cheapest, []).append("cheapest")
    return {a: tuple(why) for a, why in found.items()}


def _card(action: Action) -> Card:
    assert action.card is not None
    return action.card


def level(line_length: int, wrong_moves: int) -> int:
    """1, 2 or 3 from the principal line's length and the number of wrong moves (see the
    module docstring)."""
    if line_length > LONG_LINE or (wrong_moves >= MANY_WRONG and line_length > MIDDLE_LINE):
        return 3
    if line_length <= SHORT_LINE and wrong_moves < MANY_WRONG:
        return 1
    return 2


def _line_end(game: Game, line: Sequence[Action]) -> tuple[Game, bool]:
    """``game`` (not changed) after ``line`` (each action checked legal), and whether the
    line went round: the last position came up before on the line."""
    work = game.copy(undo=False, events=False, history=False)
    seen = {position_key(work)}
    came_back = False
    for action in line:
        if not work.is_legal(action):
            raise PuzzleError(f"line action {action} is not legal")
        work.push(action)
        key = position_key(work)
        came_back = key in seen
        seen.add(key)
    return work, came_back


def themes(
    game: Game,
    seat: int,
    value: Value,
    solutions: Sequence[Action],
    line: Sequence[Action],
    tempting: Sequence[Action],
) -> tuple[str, ...]:
    """The themes (see the module docstring) of a puzzle at ``game`` for ``seat``."""
    trump = game.trump
    hand = game.hand(seat)
    trumps = [c for c in hand if c.suit is trump]
    found: set[str] = set()

    def plays(action: Action, card: Card) -> bool:
        return action.kind in _CARD_KINDS and action.card == card

    if len(trumps) == 1:
        last = trumps[0]
        if all(plays(s, last) for s in solutions) or (
            any(plays(t, last) for t in tempting) and not any(plays(s, last) for s in solutions)
        ):
            found.add("last_trump")
    leads = all(s.kind is ActionKind.LEAD for s in solutions)
    plain = any(c.suit is not trump for c in hand)
    if leads and plain and all(_card(s).suit is trump for s in solutions):
        found.add("trump_lead")
    if leads and _follows_up(seat, line):
        found.add("pair_lead")
    actions = [a for a in game.legal_actions() if a.seat == seat]
    if all(s.kind is ActionKind.TAKE for s in solutions) and any(
        a.kind is ActionKind.BEAT for a in actions
    ):
        found.add("take")
    if any(s.kind in (ActionKind.TRANSFER, ActionKind.FLASH) for s in solutions):
        found.add("transfer")
    if all(s.kind is ActionKind.PASS for s in solutions) and any(
        a.kind is ActionKind.THROW for a in actions
    ):
        found.add("hold_back")
    if value is Value.DRAW:
        end, came_back = _line_end(game, line)
        if came_back or end.drawn_by_repetition:
            found.add("repetition_draw")
        elif end.outcome is not None and end.outcome.durak is None:
            found.add("both_out")
    return tuple(t for t in THEMES if t in found)


def _follows_up(seat: int, line: Sequence[Action]) -> bool:
    """Whether the line's first action (a lead) is followed, in the same bout, by a throw-in of
    the led rank by the same seat."""
    rank = _card(line[0]).rank
    for action in line[1:]:
        if action.kind is ActionKind.LEAD:
            return False  # a new bout
        if action.kind is ActionKind.THROW and action.seat == seat and _card(action).rank == rank:
            return True
        if action.kind is ActionKind.TRANSFER:
            return False  # the attack changed hands
    return False


def canonical_key(rule_set: RuleSet, game: Game, seat: int) -> str:
    """A key equal for positions that are the same puzzle up to which plain suit is which (and
    which seat is which): what decides the future of an empty-stock position, seen from the
    seat to move, with the plain suits named in the order that makes the key smallest."""
    trump = game.trump
    plain = [s for s in Suit if s is not trump]
    pos = game.position()

    def rel(other: int | None) -> int | None:
        return None if other is None else (other - seat) % 2

    best: str | None = None
    for order in itertools.permutations("abc"):
        names = dict(zip(plain, order, strict=True))
        names[trump] = "t"

        def text(card: Card | None, names: dict[Suit, str] = names) -> str:
            return "-" if card is None else f"{int(card.rank)}{names[card.suit]}"

        def cards(cs: Iterable[Card], text: Any = text) -> str:
            return " ".join(sorted(text(c) for c in cs))

        key = json.dumps(
            [
                rule_set.name,
                cards(pos.hands[seat]),
                cards(pos.hands[1 - seat]),
                [[text(a), text(d)] for a, d in pos.table],
                rel(pos.attacker),
                pos.defender_hand_at_start,
                pos.taking,
                sorted((p - seat) % 2 for p in pos.passed),
                bool(pos.discard),
                rel(pos.previous_durak),
                rel(pos.low_trump_origin),
                rel(pos.turnup_holder),
                text(pos.turnup),
                cards(pos.flashed),
                list(pos.seen) if seat == 0 else ["mirrored", *pos.seen],
            ]
        )
        if best is None or key < best:
            best = key
    assert best is not None
    return best


def puzzle_id(rules: Rules, position: Position) -> str:
    """A stable id: ``p`` and 8 hex digits of a hash of the rules and the position."""
    text = json.dumps([rules.to_dict(), position.to_dict()], sort_keys=True)
    return "p" + hashlib.sha256(text.encode()).hexdigest()[:8]


def examine(candidate: Candidate, solver: Solver | None = None) -> Puzzle | None:
    """The puzzle at ``candidate``'s position, or None if it does not make one (see the module
    docstring). ``solver``: one kept for the candidates of one game (its table is reused)."""
    rules = candidate.rule_set.rules
    game = _game(rules, candidate.position)
    solution = (solver or Solver()).solve(game)
    if not solution.solved or solution.value is None or solution.mover is None:
        return None
    value = solution.value
    if value is Value.LOSS:
        return None
    seat = solution.mover
    best = solution.best_actions
    if not 1 <= len(best) <= MAX_SOLUTIONS or len(best) == len(solution.action_values):
        return None
    natural = natural_moves(game, seat)
    wrong = [a for a in natural if a in solution.action_values and a not in best]
    if not wrong:
        return None
    line = solution.line
    tempting = tuple(
        Tempting(str(a), _VALUE_NAMES[solution.action_values[a]], natural[a]) for a in wrong
    )
    return Puzzle(
        id=puzzle_id(rules, candidate.position),
        level=level(len(line), len(solution.action_values) - len(best)),
        rule_set=candidate.rule_set,
        rules=rules,
        position=candidate.position,
        seat=seat,
        value=_VALUE_NAMES[value],
        solutions=tuple(str(a) for a in best),
        line=tuple(str(a) for a in line),
        tempting=tempting,
        themes=themes(game, seat, value, best, line, wrong),
        moves=len(solution.action_values),
        source={"game": candidate.game, "bots": list(candidate.bots), "ply": candidate.ply},
    )


def game_puzzles(rule_set: RuleSet, number: int, per_game: int = 2) -> list[Puzzle]:
    """Up to ``per_game`` puzzles of game ``number`` of ``rule_set``: its candidates examined
    in order with one solver, a later one only if its seat to move or its level differs from
    those taken (so that one endgame does not give the same lesson twice)."""
    found: list[Puzzle] = []
    solver = Solver()
    for candidate in play(rule_set, number):
        puzzle = examine(candidate, solver)
        if puzzle is None:
            continue
        if any((p.seat, p.level) == (puzzle.seat, puzzle.level) for p in found):
            continue
        found.append(puzzle)
        if len(found) >= per_game:
            break
    return found


def rule_set_puzzles(rule_set: RuleSet, quota: int, max_games: int) -> tuple[list[Puzzle], int]:
    """Puzzles of ``rule_set`` from its games 0, 1, 2, ... until ``quota`` distinct ones
    (by :func:`canonical_key`) or ``max_games`` games; and the games played."""
    keys: set[str] = set()
    found: list[Puzzle] = []
    number = 0
    while number < max_games and len(found) < quota:
        for puzzle in game_puzzles(rule_set, number):
            key = canonical_key(rule_set, _game(puzzle.rules, puzzle.position), puzzle.seat)
            if key not in keys and len(found) < quota:
                keys.add(key)
                found.append(puzzle)
        number += 1
    return found, number


# ------------------------------------------------------------------------ proof


def _action(text: str, where: str) -> Action:
    try:
        return Action.parse(text)
    except ValueError as exc:
        raise PuzzleError(f"{where}: {exc}") from exc


def prove(puzzle: Puzzle | Mapping[str, Any], *, node_budget: int | None = None) -> Proof:
    """Solve ``puzzle`` again from its stored rules and position with a fresh solver and check
    everything it claims (see the module docstring); raises :class:`PuzzleError` naming what
    does not hold."""
    if not isinstance(puzzle, Puzzle):
        puzzle = Puzzle.from_dict(puzzle)
    pid = puzzle.id
    game = _game(puzzle.rules, puzzle.position)
    if not is_solvable(game):
        raise PuzzleError(f"{pid}: the solver cannot solve this position")
    if seat_to_move(game) != puzzle.seat:
        raise PuzzleError(f"{pid}: seat {puzzle.seat} is not the one to move")
    solver = Solver()
    solution = solver.solve(game, node_budget=node_budget or DEFAULT_NODE_BUDGET)
    nodes = solution.nodes
    if not solution.solved or solution.value is None:
        raise PuzzleError(f"{pid}: not solved within the budget ({solution.stopped})")
    value = solution.value
    if _VALUE_NAMES[value] != puzzle.value:
        raise PuzzleError(f"{pid}: value {_VALUE_NAMES[value]}, stored {puzzle.value}")
    best = [str(a) for a in solution.best_actions]
    if best != list(puzzle.solutions):
        raise PuzzleError(f"{pid}: solutions {best}, stored {list(puzzle.solutions)}")
    if len(puzzle.solutions) >= len(solution.action_values):
        raise PuzzleError(f"{pid}: every move keeps the value")
    if puzzle.moves != len(solution.action_values):
        raise PuzzleError(f"{pid}: {len(solution.action_values)} moves, stored {puzzle.moves}")
    if not puzzle.tempting:
        raise PuzzleError(f"{pid}: no tempting move")
    for tempt in puzzle.tempting:
        action = _action(tempt.move, f"{pid}: tempting move")
        found = solution.action_values.get(action)
        if found is None or found >= value:
            raise PuzzleError(f"{pid}: tempting move {tempt.move} does not lose value")
        if _VALUE_NAMES[found] != tempt.value:
            raise PuzzleError(f"{pid}: tempting {tempt.move} is a {_VALUE_NAMES[found]}")
        if not tempt.why or set(tempt.why) - {"heuristic", "cheapest"}:
            raise PuzzleError(f"{pid}: tempting {tempt.move}: why {tempt.why}")
    line = [_action(a, f"{pid}: line") for a in puzzle.line]
    if not line or str(line[0]) not in puzzle.solutions:
        raise PuzzleError(f"{pid}: the line does not start with a solution")
    nodes += _prove_line(pid, solver, game, puzzle.seat, value, line)
    tempting = [_action(t.move, pid) for t in puzzle.tempting]
    expected = themes(game, puzzle.seat, value, solution.best_actions, line, tempting)
    if expected != puzzle.themes:
        raise PuzzleError(f"{pid}: themes {list(expected)}, stored {list(puzzle.themes)}")
    expected_level = level(len(line), puzzle.moves - len(puzzle.solutions))
    if expected_level != puzzle.level:
        raise PuzzleError(f"{pid}: level {expected_level}, not {puzzle.level}")
    if puzzle_id(puzzle.rules, puzzle.position) != pid:
        raise PuzzleError(f"{pid}: the id is not the position's")
    return Proof(pid, nodes)


def _prove_line(
    pid: str, solver: Solver, game: Game, seat: int, value: Value, line: Sequence[Action]
) -> int:
    """Check that ``line`` is best play from both seats: each action legal and keeping the
    value for the seat that makes it, to the end of the game (of ``value`` for ``seat``) or to
    a position that came back (a draw). Returns the nodes searched."""
    work = game.copy(undo=False, events=False, history=False)
    seen = {position_key(work)}
    nodes = 0
    for index, action in enumerate(line):
        if work.outcome is not None:
            raise PuzzleError(f"{pid}: the line goes on after the game ended")
        step: Solution = solver.solve(work, seat=seat)
        nodes += step.nodes
        if action.seat != step.mover or not step.keeps_value(action):
            raise PuzzleError(f"{pid}: line action {index + 1} ({action}) is not best play")
        if step.value != value:
            raise PuzzleError(f"{pid}: the line's value changed at action {index + 1}")
        work.push(action)
        key = position_key(work)
        if key in seen:
            if index + 1 != len(line) or value is not Value.DRAW:
                raise PuzzleError(f"{pid}: the line goes round before its end")
            return nodes
        seen.add(key)
    if work.outcome is None:
        raise PuzzleError(f"{pid}: the line stops before the game ends")
    if value_of(work, seat) != value:
        raise PuzzleError(f"{pid}: the line ends in a {_VALUE_NAMES[value_of(work, seat)]}")
    return nodes


# ------------------------------------------------------------------------ the stored set


def load_puzzles(path: Path = PUZZLES_PATH) -> list[dict[str, Any]]:
    """The stored puzzles, as dicts (:meth:`Puzzle.to_dict`'s form), in file order."""
    out: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as lines:
        for number, text in enumerate(lines, 1):
            if not text.strip():
                continue
            data = json.loads(text)
            if not isinstance(data, dict):
                raise PuzzleError(f"{path.name} line {number}: not a JSON object")
            out.append(data)
    return out


def dump_line(puzzle: Puzzle) -> str:
    """One line of the stored set (no newline): compact JSON, keys in :meth:`Puzzle.to_dict`
    order."""
    return json.dumps(puzzle.to_dict(), ensure_ascii=False, separators=(",", ":"))
