"""Build ``tutorial/puzzles/puzzles.jsonl``: endgame puzzles proven by the solver (issue 39,
item 1).

    .venv/bin/python script/make_puzzles.py            # build the set, re-prove it, write it
    .venv/bin/python script/make_puzzles.py --check    # re-prove the stored set only

For every two-player preset, without and with transfer
(:data:`tutorial.puzzles.generate.RULE_SETS`), games between the computer levels are played
from seeded deals (game 0, 1, 2, ...: :func:`~tutorial.puzzles.generate.play`) until the rule
set has ``--quota`` distinct puzzles (or ``--max-games`` games were played); see
:mod:`tutorial.puzzles.generate` for what makes a puzzle, its level and its themes. Every
puzzle is then read back from its JSON line and proven again by a fresh solver
(:func:`~tutorial.puzzles.generate.prove`); a failure stops the build before anything is
written. The file holds one JSON object a line, sorted by ``id``; the same arguments give the
same file. The rule sets are played on ``--workers`` processes (default: the machine's CPUs,
at most 2). Printed: the counts per level, theme and rule set, and the build time last.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from tutorial.puzzles.generate import (
    PUZZLES_PATH,
    RULE_SETS,
    THEMES,
    Proof,
    Puzzle,
    PuzzleError,
    RuleSet,
    dump_line,
    load_puzzles,
    prove,
    rule_set_puzzles,
)

QUOTA = 24
"""Puzzles per rule set (14 rule sets: 336 puzzles)."""
MAX_GAMES = 400
"""Games per rule set at most (a rule set that yields few puzzles stops here)."""

T = TypeVar("T")
R = TypeVar("R")


def _build(args: tuple[RuleSet, int, int]) -> tuple[RuleSet, list[dict[str, Any]], int]:
    rule_set, quota, max_games = args
    found, games = rule_set_puzzles(rule_set, quota, max_games)
    return rule_set, [p.to_dict() for p in found], games


def _prove(line: str) -> Proof:
    return prove(Puzzle.from_dict(json.loads(line)))


def _map(workers: int, function: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """``function`` over ``items`` in order, on ``workers`` processes (1: in this one)."""
    if workers <= 1:
        return [function(item) for item in items]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(function, items, chunksize=max(1, len(items) // (8 * workers))))


def _cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def report(puzzles: Iterable[dict[str, Any]]) -> None:
    """Counts per level, theme and rule set."""
    puzzles = list(puzzles)
    levels = Counter(int(p["level"]) for p in puzzles)
    themes = Counter(t for p in puzzles for t in p["themes"])
    values = Counter(str(p["value"]) for p in puzzles)
    rule_sets = Counter(p["preset"] + ("+transfer" if p["transfer"] else "") for p in puzzles)
    print(f"{len(puzzles)} puzzles")
    print("  levels: " + ", ".join(f"{k}: {levels[k]}" for k in sorted(levels)))
    print("  values: " + ", ".join(f"{k}: {v}" for k, v in sorted(values.items())))
    print("  themes: " + ", ".join(f"{t}: {themes[t]}" for t in THEMES))
    print(f"  with no theme: {sum(1 for p in puzzles if not p['themes'])}")
    for name in [r.name for r in RULE_SETS]:
        print(f"  {name}: {rule_sets[name]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quota", type=int, default=QUOTA, help="puzzles per rule set")
    parser.add_argument("--max-games", type=int, default=MAX_GAMES, help="games per rule set")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--output", type=Path, default=PUZZLES_PATH)
    parser.add_argument("--check", action="store_true", help="re-prove the stored set only")
    args = parser.parse_args(argv)
    start, cpu = time.perf_counter(), _cpu_seconds()

    if args.check:
        stored = load_puzzles(args.output)
        lines = [json.dumps(p) for p in stored]
    else:
        jobs = [(rule_set, args.quota, args.max_games) for rule_set in RULE_SETS]
        built = _map(args.workers, _build, jobs)
        stored = []
        for rule_set, found, games in built:
            print(f"{rule_set.name}: {len(found)} puzzles from {games} games", file=sys.stderr)
            stored.extend(found)
        stored.sort(key=lambda p: str(p["id"]))
        lines = [dump_line(Puzzle.from_dict(p)) for p in stored]

    twice = sorted(i for i, n in Counter(p["id"] for p in stored).items() if n > 1)
    if twice:
        print(f"PROBLEM: ids used twice: {', '.join(twice)}", file=sys.stderr)
        return 1
    try:
        proofs = _map(args.workers, _prove, lines)
    except PuzzleError as exc:
        print(f"PROBLEM: {exc}", file=sys.stderr)
        return 1
    print(
        f"re-proved {len(proofs)} puzzles from scratch "
        f"(solver nodes: {sum(p.nodes for p in proofs)}, most {max(p.nodes for p in proofs)})"
    )
    if not args.check:
        args.output.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"wrote {args.output}")
    report(stored)
    print(
        f"build time: {time.perf_counter() - start:.0f} s wall, "
        f"{_cpu_seconds() - cpu:.0f} s CPU on {args.workers} worker(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
