"""The puzzle set (issue 39, item 1): ``tutorial/puzzles/puzzles.jsonl``, written by
``script/make_puzzles.py`` (regenerate it, never edit it).

Every puzzle is checked for form (its fields, its rules and position read back, its moves
legal, its level and cheapest-card claims), the set for size and spread (at least 300
puzzles, every level with a fair share, every rule set), and a seeded sample of
:data:`SAMPLE` puzzles is proven again from scratch by the solver, directly
(``durak_core.solver.solve``: the solutions are exactly the moves that keep the best value,
every tempting move loses value, the line is legal and ends in the stated value) and through
:func:`tutorial.puzzles.generate.prove` (each action of the line best play, level and themes).
No timing: the sample's solves search a few thousand positions each.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import cache
from typing import Any

from durak_core import Action, ActionKind, Game, Position, Rules, observe
from durak_core.bots import HeuristicBot, card_value
from durak_core.solver import Value, position_key, seat_to_move, solve
from tutorial.puzzles.generate import (
    LEVELS,
    MAX_SOLUTIONS,
    PUZZLES_PATH,
    RULE_SETS,
    THEMES,
    Puzzle,
    canonical_key,
    level,
    load_puzzles,
    prove,
    puzzle_id,
    value_of,
)

SAMPLE = 12
"""Puzzles proven from scratch on every run (a seeded sample)."""

KEYS = {
    "id",
    "level",
    "preset",
    "transfer",
    "rules",
    "position",
    "seat",
    "value",
    "solutions",
    "line",
    "tempting",
    "themes",
    "moves",
    "source",
}
VALUES = {"win": Value.WIN, "draw": Value.DRAW, "loss": Value.LOSS}


@cache
def stored() -> tuple[dict[str, Any], ...]:
    return tuple(load_puzzles(PUZZLES_PATH))


def game_of(data: dict[str, Any]) -> Game:
    rules = Rules.from_dict(data["rules"])
    return Game.from_position(rules, Position.from_dict(data["position"], rules), events=False)


def sample() -> list[dict[str, Any]]:
    return random.Random(39).sample(list(stored()), SAMPLE)


def test_the_file_is_jsonl_sorted_by_unique_ids() -> None:
    assert PUZZLES_PATH.name == "puzzles.jsonl"
    assert PUZZLES_PATH.parent.name == "puzzles"
    ids = [p["id"] for p in stored()]
    assert all(re.fullmatch(r"p[0-9a-f]{8}", i) for i in ids)
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)


def test_the_set_is_large_and_spread() -> None:
    puzzles = stored()
    assert len(puzzles) >= 300
    levels = Counter(p["level"] for p in puzzles)
    assert set(levels) == set(LEVELS)
    for count in levels.values():
        assert count >= len(puzzles) // 6, levels  # each level at least a sixth
    names = Counter(p["preset"] + ("+transfer" if p["transfer"] else "") for p in puzzles)
    assert set(names) == {r.name for r in RULE_SETS}
    themes = Counter(t for p in puzzles for t in p["themes"])
    assert len(themes) >= 5, themes
    assert Counter(p["value"] for p in puzzles)["draw"] > 0
    # distinct positions, also up to which plain suit is which
    keys = {canonical_key(Puzzle.from_dict(p).rule_set, game_of(p), p["seat"]) for p in puzzles}
    assert len(keys) == len(puzzles)


def test_every_puzzle_is_well_formed() -> None:
    for data in stored():
        check_form(data)


def check_form(data: dict[str, Any]) -> None:
    pid = data["id"]
    assert set(data) == KEYS, pid
    puzzle = Puzzle.from_dict(data)  # raises on a malformed puzzle
    assert puzzle.to_dict() == data, pid
    assert puzzle.id == puzzle_id(puzzle.rules, puzzle.position), pid
    assert data["rules"] == puzzle.rule_set.rules.to_dict(), pid
    game = game_of(data)
    assert game.position().to_dict() == data["position"], pid
    assert not game.stock and game.players == 2, pid
    seat = data["seat"]
    assert seat_to_move(game) == seat, pid
    mine = [a for a in game.legal_actions() if a.seat == seat]
    assert data["moves"] == len(mine) >= 2, pid
    assert data["value"] in ("win", "draw"), pid
    solutions = [Action.parse(s) for s in data["solutions"]]
    assert 1 <= len(solutions) <= MAX_SOLUTIONS and len(solutions) < len(mine), pid
    assert all(a in mine for a in solutions), pid
    assert [str(a) for a in solutions] == data["solutions"], pid  # the notation's own form
    line = [Action.parse(a) for a in data["line"]]
    assert line and line[0] in solutions, pid
    tempting = data["tempting"]
    assert tempting, pid
    low, trump = game.rules.lowest_rank, game.trump
    cards = [a for a in mine if a.kind is not ActionKind.FLASH and a.card is not None]
    cheapest = min((card_value(a.card, trump, low) for a in cards if a.card), default=None)
    for tempt in tempting:
        move = Action.parse(tempt["move"])
        assert move in mine and move not in solutions, pid
        assert VALUES[tempt["value"]] < VALUES[data["value"]], pid
        assert tempt["why"] and set(tempt["why"]) <= {"heuristic", "cheapest"}, pid
        if "cheapest" in tempt["why"]:
            assert move.card is not None and card_value(move.card, trump, low) == cheapest, pid
    assert data["level"] == level(len(line), len(mine) - len(solutions)), pid
    assert list(data["themes"]) == [t for t in THEMES if t in data["themes"]], pid


def test_a_sample_is_proven_from_scratch() -> None:
    """The solver, called directly on each sampled position: the stored value, solutions
    that are exactly the moves keeping it, tempting moves that lose it, and a legal line that
    ends in it (or goes round, for a draw)."""
    for data in sample():
        pid = data["id"]
        game = game_of(data)
        solution = solve(game)
        assert solution.solved and solution.mover == data["seat"], pid
        value = VALUES[data["value"]]
        assert solution.value == value, pid
        keep = [str(a) for a, v in solution.action_values.items() if v == value]
        assert keep == data["solutions"], pid
        assert all(v < value for a, v in solution.action_values.items() if str(a) not in keep)
        for tempt in data["tempting"]:
            found = solution.action_values[Action.parse(tempt["move"])]
            assert found < value and found == VALUES[tempt["value"]], pid
        seen = {position_key(game)}
        came_back = False
        for text in data["line"]:
            assert not came_back, pid
            action = Action.parse(text)
            assert game.is_legal(action), (pid, text)
            game.push(action)
            key = position_key(game)
            came_back = key in seen
            seen.add(key)
        if came_back:
            assert value is Value.DRAW, pid
        else:
            outcome = game.outcome
            assert outcome is not None, pid
            assert value_of(game, data["seat"]) == value, pid


def test_a_sample_passes_the_full_proof() -> None:
    for data in sample():
        proof = prove(data)
        assert proof.puzzle == data["id"]


def test_the_heuristic_still_plays_the_tempting_moves_it_is_said_to() -> None:
    """A ``heuristic`` tempting move is the computer level's choice (if the level changed,
    rebuild the set: ``script/make_puzzles.py``)."""
    bot = HeuristicBot()
    for data in sample():
        game = game_of(data)
        choice = str(bot.choose(observe(game, data["seat"]), random.Random(0)))
        said = [t["move"] for t in data["tempting"] if "heuristic" in t["why"]]
        assert said in ([], [choice]), data["id"]
        if not said:
            assert choice in data["solutions"], data["id"]
