"""The exact endgame solver (issue 18, item 1): once the stock is empty, two-player Durak is a
game of perfect information, and :mod:`durak_core.solver` gives the value of a position and
of every action of the seat to move.

The values are checked against a plain minimax written here (no pruning, no table) over the
engine's own actions, on many small endgames of seeded games, under podkidnoy (S1, S3),
perevodnoy with and without the engine's repetition rule (S1, S2), Wikipedia's throw-ins at
any time with Flash (S2) and wikiHow's home rules (S0: the trump swap, and no draws: when both
run out at once the previous durak stays durak). The end of the game follows the sources
(shared/docs/rules-research.md, items 67–69): once the stock is empty a player without cards
is out (S0–S3), the last one holding cards is the durak, and when both run out in the same
bout nobody is (S1, S3) — unless draws are off (S0).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterator

import pytest

from durak_core import PRESETS, Action, Game, Rules
from durak_core.bots import HeuristicBot, RandomBot, next_seat
from durak_core.observation import observe
from durak_core.rules import FIELD_NAMES
from durak_core.solver import (  # _Search: the table's bounds, searched directly
    REPETITION,
    Solution,
    Solver,
    Value,
    _Search,
    is_solvable,
    position_key,
    seat_to_move,
    solve,
    unsolvable_reason,
)

ENGINE_REPETITION_RULE = "repetition_limit" in FIELD_NAMES
"""Whether the engine has a repetition rule (``Rules.repetition_limit``)."""


def _no_repetition_rule(rules: Rules) -> Rules:
    """``rules`` without the engine's repetition rule, so that the solver's own applies."""
    return rules.replace(repetition_limit=0) if ENGINE_REPETITION_RULE else rules


RULES: dict[str, Rules] = {
    "podkidnoy": Rules(),
    "perevodnoy": Rules(transfer=True),
    "perevodnoy-no-rule": _no_repetition_rule(Rules(transfer=True)),
    "wikipedia+flash": _no_repetition_rule(
        PRESETS["wikipedia"].rules.replace(transfer=True, flash=True)
    ),
    "wikihow_home": PRESETS["wikihow_home"].rules,
}
"""Rule sets of two-player games, with the solver's assumption where the engine has no rule."""


# ---------------------------------------------------------------- endgames of seeded games


def _play(game: Game, choose: Callable[[Game, int], Action], until: Callable[[Game], bool]) -> bool:
    """Play ``game`` with ``choose`` until ``until`` holds; False if the game ended first."""
    for _ in range(2000):
        if game.outcome is not None:
            return False
        if until(game):
            return True
        seat = next_seat(game)
        assert seat is not None
        game.push(choose(game, seat))
    raise AssertionError("a game that does not end")


def endgames(
    rules: Rules, count: int, *, seed: int, bot: str = "random", max_cards: int | None = None
) -> Iterator[Game]:
    """``count`` games of two, dealt and played by ``bot`` (seeded) until the stock is empty,
    then, with ``max_cards``, on at random until at most that many cards are in the hands and
    on the table, and up to three moves more."""
    rng = random.Random(seed)
    player = HeuristicBot() if bot == "heuristic" else RandomBot()
    made = 0
    for deal in range(count * 20):
        game = Game.deal(rules, 2, seed=seed * 1000 + deal, previous_durak=deal % 2)

        def by_bot(g: Game, seat: int) -> Action:
            return player.choose(observe(g, seat), rng)

        def at_random(g: Game, seat: int) -> Action:
            return rng.choice(list(g.legal_actions()))

        if not _play(game, by_bot, lambda g: not g.stock):
            continue
        if max_cards is not None:
            if not _play(game, at_random, lambda g: _cards(g) <= max_cards):
                continue
            if not _play(game, at_random, _moves_from_now(game, rng.randrange(4))):
                continue  # a few moves more: into a bout
        yield game
        made += 1
        if made == count:
            return
    raise AssertionError(f"only {made} of {count} endgames")


def _moves_from_now(game: Game, moves: int) -> Callable[[Game], bool]:
    """Holds once ``moves`` more actions have been played in ``game``."""
    end = len(game.history) + moves
    return lambda g: len(g.history) >= end


def _cards(game: Game) -> int:
    return sum(game.hand_sizes) + sum(1 + (d is not None) for _, d in game.table)


# ---------------------------------------------------------------- an independent plain minimax


def _plain_key(game: Game) -> Hashable:
    """A position for the plain minimax's own repetition check: finer than the solver's key
    (the table in order, who led the bout), which changes no value."""
    p = game.position()
    return (
        tuple(frozenset(h) for h in p.hands),
        p.table,
        p.attacker,
        p.defender,
        p.lead_attacker,
        p.defender_hand_at_start,
        p.taking,
        p.passed,
        p.flashed,
        p.low_trump_origin,
        p.turnup_holder,
        bool(p.discard),
    )


def minimax(game: Game, path: set[Hashable] | None = None) -> int:
    """The value for seat 0 (1 win, 0 draw, -1 loss) by trying every action of the seat to
    move (:func:`durak_core.bots.next_seat`) to the end. Without an engine repetition rule, a
    position that comes back on the line is a draw (the solver's assumption); with one, the
    engine ends such a game itself."""
    outcome = game.outcome
    if outcome is not None:
        return 0 if outcome.durak is None else -1 if outcome.durak == 0 else 1
    key = None
    if path is not None:
        key = _plain_key(game)
        if key in path:
            return REPETITION.value
        path.add(key)
    seat = next_seat(game)
    assert seat is not None
    values = []
    for action in game.legal_actions().for_seat(seat):
        game.push(action)
        values.append(minimax(game, path))
        game.undo()
    if path is not None:
        path.discard(key)
    return max(values) if seat == 0 else min(values)


def _loops(rules: Rules) -> bool:
    """Whether the plain minimax must cut repetitions itself."""
    return not getattr(rules, "repetition_limit", 0)


def _for(seat: int, value: int) -> int:
    return value if seat == 0 else -value


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("name", list(RULES))
def test_values_match_a_plain_minimax(name: str) -> None:
    rules = RULES[name]
    limit = 5 if rules.transfer and not _loops(rules) else 6
    seen = 0
    for game in endgames(rules, 14, seed=len(name), max_cards=limit):
        solution = solve(game)
        assert solution.solved and solution.mover == next_seat(game)
        assert solution.seat == solution.mover
        work = game.copy(events=False, history=False)
        legal = work.legal_actions().for_seat(solution.mover)
        assert list(solution.action_values) == legal  # every action, in the engine's order
        for action, value in solution.action_values.items():
            work.push(action)
            expected = minimax(work, set() if _loops(rules) else None)
            work.undo()
            assert value == _for(solution.seat, expected), (name, str(action), game.position())
        assert solution.value == max(solution.action_values.values())
        seen += 1
    assert seen == 14


def test_values_for_the_other_seat_are_flipped() -> None:
    for game in endgames(Rules(transfer=True), 6, seed=3, max_cards=8):
        mine = solve(game)
        assert mine.mover is not None
        theirs = solve(game, seat=1 - mine.mover)
        assert theirs.seat == 1 - mine.mover and theirs.mover == mine.mover
        assert theirs.value is not None and mine.value is not None
        assert theirs.value == mine.value.flipped
        assert theirs.action_values == {a: v.flipped for a, v in mine.action_values.items()}
        assert theirs.value == min(theirs.action_values.values())  # the other seat chooses


def test_the_seat_to_move_is_the_bots_next_seat() -> None:
    for name, rules in RULES.items():
        for game in endgames(rules, 4, seed=11, max_cards=9):
            rng = random.Random(name)
            for _ in range(500):
                assert seat_to_move(game) == next_seat(game)
                if game.outcome is not None:
                    break
                game.push(rng.choice(list(game.legal_actions())))


def test_a_simultaneous_empty_out_is_a_draw_or_the_previous_durak_loses() -> None:
    # seat 0 leads 7♣, seat 1 beats it with 8♣: both run out in the same bout; taking instead
    # leaves seat 1 the durak. A draw (S1, S3) — or, without draws, the previous durak (S0).
    hands = ["7C", "8C"]
    draw = solve(Game.from_position(Rules(), hands, trump="S"))
    assert draw.value is Value.DRAW and [str(a) for a in draw.line] == ["0:7C", "1:8C/7C"]
    no_draws = PRESETS["wikihow_home"].rules
    for previous, value in ((0, Value.LOSS), (1, Value.WIN)):
        game = Game.from_position(no_draws, hands, trump="S", previous_durak=previous)
        assert solve(game).value is value


def test_a_position_and_its_game_solve_alike() -> None:
    for game in endgames(Rules(), 5, seed=5, max_cards=10):
        position = game.position()
        by_game, by_position = solve(game), solve(position, rules=game.rules)
        assert by_game.value == by_position.value
        assert by_game.action_values == by_position.action_values
        with pytest.raises(ValueError, match="rules given"):
            solve(game, rules=Rules(transfer=True))


def test_the_key_ignores_the_order_of_hands() -> None:
    hands = ["7C 9H QS", "8C 10D"]
    game = Game.from_position(Rules(), hands, trump="D", discard="6S")
    shuffled = Game.from_position(Rules(), ["QS 7C 9H", "10D 8C"], trump="D", discard="6S")
    assert position_key(game) == position_key(shuffled)
    assert solve(game).action_values == solve(shuffled).action_values
    other = Game.from_position(Rules(), ["7C 9H QS", "8C 10D"], trump="D", attacker=1)
    assert position_key(game) != position_key(other)


# ---------------------------------------------------------------- consistency on larger endgames


def _replay(game: Game, line: tuple[Action, ...]) -> Game:
    """``game`` after ``line``, each action checked legal by ``play``."""
    end = game.copy(history=False)
    for action in line:
        assert action.seat == seat_to_move(end)
        end.play(action)
    return end


def _line_ends_as_stated(game: Game, solution: Solution) -> None:
    assert solution.value is not None
    end = _replay(game, solution.line)
    outcome = end.outcome
    if outcome is None:  # a line may only stop short at a position that came back
        assert solution.value is Value.DRAW
        keys = []
        probe = game.copy(events=False, history=False)
        for action in solution.line:
            keys.append(position_key(probe))
            probe.push(action)
        assert position_key(probe) in keys
        return
    durak = outcome.durak
    value = Value.DRAW if durak is None else Value.LOSS if durak == solution.seat else Value.WIN
    assert value is solution.value


@pytest.mark.parametrize("name", ["podkidnoy", "perevodnoy", "perevodnoy-no-rule"])
def test_a_value_is_the_best_of_its_actions_and_the_line_reaches_it(name: str) -> None:
    rules = RULES[name]
    solver = Solver()
    size = 10 if rules.transfer else 12  # podkidnoy: as the stock runs out (6 and 6)
    for game in endgames(rules, 4, seed=21, bot="heuristic", max_cards=size):
        solution = solver.solve(game)
        assert solution.solved and solution.value is not None
        assert solution.line and solution.line[0] in solution.best_actions
        _line_ends_as_stated(game, solution)
        for action, value in solution.action_values.items():
            child = game.copy(history=False)
            child.push(action)
            if child.outcome is not None:
                continue
            alone = solve(child, seat=solution.seat)  # a fresh table: no help from the first
            assert alone.value is value, (name, str(action))
            assert solver.solve(child, seat=solution.seat).value is value  # the shared table
            _line_ends_as_stated(child, alone)
        assert solution.value == max(solution.action_values.values())


def test_following_the_line_keeps_the_value_at_every_step() -> None:
    for game in endgames(Rules(transfer=True), 3, seed=8, bot="heuristic", max_cards=9):
        solution = solve(game, seat=0)
        walk = game.copy(history=False)
        solver = Solver()
        for action in solution.line:
            step = solver.solve(walk, seat=0)
            assert step.value is solution.value and step.keeps_value(action)
            walk.push(action)


def test_a_small_table_costs_only_time() -> None:
    for game in endgames(Rules(transfer=True), 3, seed=17, bot="heuristic", max_cards=10):
        roomy, cramped = solve(game), Solver(table_size=64).solve(game)
        assert cramped.solved and cramped.action_values == roomy.action_values


# ---------------------------------------------------------------- budgets


def _big() -> Game:
    return next(endgames(Rules(transfer=True), 1, seed=2, bot="heuristic"))


def test_a_tiny_node_budget_answers_not_solved() -> None:
    game = _big()
    solution = solve(game, node_budget=50)
    assert not solution.solved and solution.stopped == "nodes"
    assert solution.value is None and solution.line == () and solution.best_actions == ()
    assert solution.nodes <= 51
    assert not solution.keeps_value(next(iter(game.legal_actions())))


def test_a_budget_cut_keeps_only_exact_values() -> None:
    for game in endgames(Rules(), 6, seed=13, bot="heuristic", max_cards=10):
        full = solve(game)
        assert full.solved
        cuts = 0
        for budget in (full.nodes // 3, full.nodes // 2, full.nodes - 1):
            part = solve(game, node_budget=budget)
            if part.solved:  # the budget ran out only while the line was being traced
                assert part.action_values == full.action_values
                continue
            cuts += 1
            assert part.value is None
            for action, value in part.action_values.items():
                assert full.action_values[action] is value
        assert cuts


def test_a_time_budget_and_a_depth_limit_answer_not_solved() -> None:
    game = _big()
    ticks = iter(range(10**9))
    slow = solve(game, time_budget=0.5, clock=lambda: float(next(ticks)))
    assert not slow.solved and slow.stopped == "time" and slow.value is None
    shallow = solve(game, max_depth=3)
    assert not shallow.solved and shallow.stopped == "depth"


# ---------------------------------------------------------------- repetitions (perevodnoy)

# A transfer turns the attack round and a take brings the cards back: from here seat 0 leads
# 7♣, seat 1 transfers with 7♦, seat 0 takes both, seat 1 leads 7♥, seat 0 transfers with 7♦,
# seat 1 takes both — and the position is the same as at the start.
CYCLE = ["7C 9S 10S", "7D 7H JC QC"]
CYCLE_LINE = "0:7C 1:>7D 0:take 1:7H 0:>7D 1:take"
# Here neither seat can leave the round without losing: best play goes round for ever.
ROUND = ["JC JH KD", "KH JS KC QD"]


def test_a_position_that_comes_back_is_solved_without_looping() -> None:
    rules = _no_repetition_rule(Rules(transfer=True))
    game = Game.from_position(rules, CYCLE, trump="D")
    again = game.copy()
    for move in CYCLE_LINE.split():
        again.play(move)
    assert again.outcome is None and position_key(again) == position_key(game)
    solution = solve(game)
    assert solution.solved and 0 < solution.nodes < 10_000
    for action, value in solution.action_values.items():
        child = game.copy(events=False, history=False)
        child.push(action)
        assert value == _for(solution.seat, minimax(child, set()))
    _line_ends_as_stated(game, solution)


def test_going_round_for_ever_is_a_draw() -> None:
    game = Game.from_position(_no_repetition_rule(Rules(transfer=True)), ROUND, trump="D")
    solution = solve(game)
    assert solution.solved and solution.value is REPETITION is Value.DRAW
    end = _replay(game, solution.line)
    assert end.outcome is None  # the line stops where the position comes back
    _line_ends_as_stated(game, solution)


def test_the_engines_repetition_rule_is_followed() -> None:
    # with the engine's rule (the limit-th time a bout starts in the same position the game
    # is a draw) the engine ends the round itself; without one, the solver's assumption does
    limits: tuple[int | None, ...] = (2, 3) if ENGINE_REPETITION_RULE else (None,)
    for limit in limits:
        rules = Rules(transfer=True)
        if limit is not None:
            rules = rules.replace(repetition_limit=limit)
        game = Game.from_position(rules, ROUND, trump="D")
        solution = solve(game)
        assert solution.solved and solution.value is Value.DRAW
        end = _replay(game, solution.line)
        if limit is None:
            assert end.outcome is None
        else:
            assert end.outcome is not None and end.outcome.durak is None  # the engine's draw
            # what the rule has counted is part of the position: once round, the same hands
            # are a step nearer the draw
            cycle = Game.from_position(rules, CYCLE, trump="D")
            assert position_key(_replay(cycle, _actions(CYCLE_LINE))) != position_key(cycle)


def _actions(line: str) -> tuple[Action, ...]:
    return tuple(Action.parse(m) for m in line.split())


# ---------------------------------------------------------------- what cannot be solved


def test_only_two_player_games_with_an_empty_stock_are_solved() -> None:
    three = Game.deal(Rules(), 3, seed=1)
    assert not is_solvable(three) and "two players" in (unsolvable_reason(three) or "")
    fresh = Game.deal(Rules(), 2, seed=1)
    assert not is_solvable(fresh) and "stock" in (unsolvable_reason(fresh) or "")
    with pytest.raises(ValueError, match="stock"):
        solve(fresh)
    with pytest.raises(ValueError, match="no seat"):
        solve(Game.from_position(Rules(), ["7C", "8C"], trump="S"), seat=2)
    with pytest.raises(TypeError):
        solve("7C 8C")  # type: ignore[arg-type]
    over = Game.from_position(Rules(), ["7C", "8C"], trump="S")
    over.play("0:7C")
    over.play("1:take")
    assert over.outcome is not None and over.outcome.durak == 1
    done = solve(over, seat=1)
    assert done.solved and done.mover is None and done.value is Value.LOSS
    assert done.action_values == {} and done.line == ()
    assert is_solvable(over.position(), Rules())


# ---------------------------------------------------------------- partial results


def _spans_hold(solution: Solution, exact: dict[Action, Value]) -> None:
    """Every bound of ``solution`` holds for the exact values; what it calls exact is."""
    assert list(solution.bounds) == list(exact)
    for action, (low, high) in solution.bounds.items():
        assert low <= exact[action] <= high, (str(action), low, high, exact[action])
        if solution.proven(action) is not None:
            assert solution.action_values[action] is exact[action]
    assert set(solution.action_values) == {a for a in exact if solution.proven(a) is not None}
    best = max(exact.values()) if solution.seat == solution.mover else min(exact.values())
    low, high = solution.value_bounds
    assert low <= best <= high
    candidates = solution.candidates
    assert candidates and any(exact[a] is best for a in candidates)  # never only bad moves
    if solution.seat == solution.mover and low is Value.WIN:
        assert all(exact[a] is Value.WIN for a in candidates)  # a proven win is a win


@pytest.mark.parametrize("name", ["podkidnoy", "perevodnoy", "perevodnoy-no-rule"])
def test_a_budget_cut_proves_only_what_brute_force_confirms(name: str) -> None:
    rules = RULES[name]
    limit = 5 if rules.transfer and not _loops(rules) else 6
    partial = 0
    for game in endgames(rules, 10, seed=40 + len(name), max_cards=limit):
        full = solve(game)
        assert full.solved and full.bounds == {a: (v, v) for a, v in full.action_values.items()}
        exact = {}
        work = game.copy(events=False, history=False)
        for action in full.action_values:
            work.push(action)
            exact[action] = Value(_for(full.seat, minimax(work, set() if _loops(rules) else None)))
            work.undo()
        for seat in (full.seat, 1 - full.seat):
            for budget in (2, 5, 10, 20, 40, 80, 160):
                cut = solve(game, seat=seat, node_budget=budget)
                mine = exact if seat == full.seat else {a: v.flipped for a, v in exact.items()}
                _spans_hold(cut, mine)
                partial += not cut.solved and any(lo != hi for lo, hi in cut.bounds.values())
    assert partial >= 10


def test_a_budget_cut_on_larger_endgames_proves_only_true_values() -> None:
    proven_wins = excluded = 0
    for rules in (Rules(), Rules(transfer=True)):
        for game in endgames(rules, 4, seed=31, bot="heuristic", max_cards=10):
            full = solve(game)
            assert full.solved
            for budget in (full.nodes // 8, full.nodes // 4, full.nodes // 2):
                cut = Solver().solve(game, node_budget=budget)
                assert cut.nodes <= budget + 1
                _spans_hold(cut, full.action_values)
                if not cut.solved:
                    proven_wins += cut.value_bounds[0] is Value.WIN
                    excluded += len(cut.bounds) - len(cut.candidates)
    assert proven_wins and excluded  # the cut answers say something


def test_a_proven_win_needs_fewer_nodes_than_every_value() -> None:
    # the first tests of a round ask «does this win?» of every action, each with its share:
    # a budget too small for every value still finds the win
    wins = 0
    for game in endgames(Rules(), 6, seed=13, bot="heuristic", max_cards=12):
        full = solve(game)
        if full.value is not Value.WIN or len(full.action_values) < 3:
            continue
        cut = solve(game, node_budget=full.nodes // 2)
        assert not cut.solved and cut.value is None
        wins += cut.value_bounds[0] is Value.WIN
        assert all(full.action_values[a] is Value.WIN for a in cut.candidates)
    assert wins >= 2


def _positions(game: Game) -> Iterator[Game]:
    """Every position reachable from ``game`` (a working copy, each yielded once and left as
    it was found)."""
    work = game.copy(undo=True, events=False, history=False)
    seen: set[Hashable] = set()

    def walk() -> Iterator[Game]:
        key = position_key(work)
        if key in seen or work.outcome is not None:
            return
        seen.add(key)
        yield work
        for action in list(work.legal_actions()):
            work.push(action)
            yield from walk()
            work.undo()

    yield from walk()


def test_true_bounds_in_the_table_change_no_value() -> None:
    """A table entry may be a bound only («at least a draw», «at most a draw»), left by a
    null-window test or a search cut short. A full-window search that meets one narrows its
    window to it and must still find the exact value: every position of small podkidnoy
    endgames (no repetition, so a position's value is its own), given true but loose bounds
    in the table, is searched to its exact value, and a solve of the endgame finds what a
    fresh table finds."""
    rng = random.Random(5)
    narrowed = 0
    for game in endgames(Rules(), 5, seed=23, bot="heuristic", max_cards=6):
        exact: dict[Hashable, int] = {}
        table: dict[Hashable, tuple[int, int, None]] = {}
        for work in _positions(game):
            key = position_key(work)
            v = exact[key] = int(solve(work, seat=0).value)
            # no bound, «at least v or a draw», «at most v or a draw»
            bounds = [(-1, 1), (min(v, 0), max(v, 0) or 1), (min(v, 0) or -1, max(v, 0))]
            lo, hi = rng.choice(bounds)
            table[key] = (lo, hi, None)
            narrowed += lo != -1 or hi != 1
        for work in _positions(game):
            search = _Search(work, dict(table), 10**6, 10**6, None, 400, time.perf_counter)
            assert search.value() == exact[position_key(work)]
        solver = Solver()
        solver.solve(game, node_budget=1)  # the game's table (a new game clears it)
        solver._table.update(table)
        seeded, fresh = solver.solve(game), solve(game)
        assert seeded.action_values == fresh.action_values and seeded.value is fresh.value
    assert narrowed


def test_bounds_left_by_cut_solves_change_no_later_value() -> None:
    """A warm table holds what solves cut short by their node budget found, bounds among it;
    a later solve on the same table must find what a fresh table finds, at the root and
    after each of its actions (the order in which the Hint's solver meets an endgame)."""
    narrowed = 0
    for rules in (Rules(), Rules(transfer=True)):
        for game in endgames(rules, 4, seed=31, bot="heuristic", max_cards=10):
            fresh = solve(game)
            assert fresh.solved
            warm = Solver()
            for budget in (fresh.nodes // 8, fresh.nodes // 4, fresh.nodes // 2):
                warm.solve(game, node_budget=budget)
            narrowed += sum(lo != hi for lo, hi, _ in warm._table.values())
            again = warm.solve(game)
            assert again.action_values == fresh.action_values
            assert again.value is fresh.value
            work = game.copy(events=False, history=False)
            for action in fresh.action_values:
                work.push(action)
                if work.outcome is None:
                    seat = fresh.seat
                    assert warm.solve(work, seat=seat).value is solve(work, seat=seat).value
                work.undo()
    assert narrowed  # the warm tables did hold bounds, not only exact values
