"""The exact endgame solver against the default-level bot (issue 18, item 1; not a test).

Two-player games, half podkidnoy (``classic``, S1, S3) and half perevodnoy (``classic`` with
``transfer=True``, S1, S2), are dealt from seeds and played by the default-level bot
(:data:`durak_core.bots.DEFAULT_LEVEL`) in both seats. At the moment the stock becomes empty
the position is solved exactly (a fresh :class:`~durak_core.solver.Solver`: the solve time,
its nodes, solved or not within the budget). Play then goes on with the bots; every decision
of the endgame with two or more legal actions is solved too (by the same solver, its table
kept from decision to decision), and a
decision counts when the choice matters — not every action has the same value: did the bot's
action keep the exact value of the position?

Printed, per rule set and together: endgames, the share solved within the budget, median and
p95 solve time and median nodes at the moment the stock runs out, the decisions solved and
their median solve time, and the share of decisions where the choice matters at which the bot
kept the value. Times are wall clock on a possibly shared machine.

Run: ``.venv/bin/python benchmarks/endgame_solver.py`` (200 games: long, the bots' play
included), ``--games 20`` for a quick look, ``--node-budget N`` / ``--time-budget S`` per
solve, ``--level`` another bot level. The last line printed is
``<level> keeps the exact value: X% of N decisions``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from durak_core import Game, Rules, observe
from durak_core.bots import DEFAULT_LEVEL, LEVELS, make_bot, next_seat
from durak_core.solver import Solver

NODE_BUDGET = 300_000
"""Positions one solve may search (about 3 to 6 seconds) before it answers «not solved»."""

RULE_SETS: dict[str, Rules] = {
    "podkidnoy": Rules(),
    "perevodnoy": Rules(transfer=True),
}


@dataclass
class Tally:
    """What one rule set's games gave."""

    endgames: int = 0
    solved: int = 0
    seconds: list[float] = field(default_factory=list)
    """Solve time at the moment the stock ran out, solved or not."""
    nodes: list[int] = field(default_factory=list)
    decisions: int = 0
    """Endgame decisions with two or more actions."""
    decisions_solved: int = 0
    decision_seconds: list[float] = field(default_factory=list)
    matter: int = 0
    """Solved decisions where not every action has the same value."""
    kept: int = 0
    """... and the bot's action kept the value."""
    cut: int = 0
    """Games cut after ``--max-actions``."""

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            mine = getattr(self, name)
            setattr(self, name, mine + value)


def play(
    rules: Rules,
    seed: int,
    level: str,
    node_budget: int,
    time_budget: float | None,
    max_actions: int,
) -> Tally:
    """One game: bots to the empty stock, the solve there, then every endgame decision."""
    tally = Tally()
    game = Game.deal(rules, 2, seed=seed)
    bots = [make_bot(level), make_bot(level)]
    rngs = [random.Random(seed * 2 + seat) for seat in range(2)]
    solver: Solver | None = None
    for _ in range(max_actions):
        seat = next_seat(game)
        if seat is None:
            return tally
        if not game.stock and solver is None:
            solver = Solver()  # a fresh table: the first solve finds everything itself
            start = time.perf_counter()
            first = solver.solve(game, node_budget=node_budget, time_budget=time_budget)
            tally.seconds.append(time.perf_counter() - start)
            tally.nodes.append(first.nodes)
            tally.endgames += 1
            tally.solved += first.solved
        obs = observe(game, seat)
        action = bots[seat].choose(obs, rngs[seat])
        if solver is not None and len(obs.legal) > 1:
            tally.decisions += 1
            start = time.perf_counter()
            exact = solver.solve(game, node_budget=node_budget, time_budget=time_budget)
            tally.decision_seconds.append(time.perf_counter() - start)
            if exact.solved:
                assert exact.mover == seat
                tally.decisions_solved += 1
                if len(set(exact.action_values.values())) > 1:
                    tally.matter += 1
                    tally.kept += exact.keeps_value(action)
        game.push(action)
    tally.cut += 1
    return tally


def _ms(values: Sequence[float], q: float) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f} ms"


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def report(name: str, t: Tally, level: str) -> None:
    print(f"{name}:")
    print(
        f"  endgames {t.endgames}: solved within the budget {t.solved} "
        f"({_pct(t.solved, t.endgames)}){f', {t.cut} games cut' if t.cut else ''}"
    )
    if t.endgames:
        median_nodes = statistics.median(t.nodes)
        print(
            f"  solve as the stock runs out: median {_ms(t.seconds, 0.5)}, "
            f"p95 {_ms(t.seconds, 0.95)}, median nodes {median_nodes:.0f}"
        )
    print(
        f"  endgame decisions {t.decisions}: solved {t.decisions_solved} "
        f"({_pct(t.decisions_solved, t.decisions)}), median solve {_ms(t.decision_seconds, 0.5)}, "
        f"p95 {_ms(t.decision_seconds, 0.95)}"
    )
    print(
        f"  the choice matters at {t.matter}: {level} keeps the exact value at {t.kept} "
        f"({_pct(t.kept, t.matter)})"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="games, half of each rule set")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--level", default=DEFAULT_LEVEL, choices=list(LEVELS))
    parser.add_argument("--node-budget", type=int, default=NODE_BUDGET, help="positions per solve")
    parser.add_argument("--time-budget", type=float, default=None, help="seconds per solve")
    parser.add_argument("--max-actions", type=int, default=3000)
    args = parser.parse_args(argv)
    print(
        f"endgame_solver: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {args.games} games, seed {args.seed}, level {args.level}, "
        f"node budget {args.node_budget}, time budget {args.time_budget}"
    )
    tallies = {name: Tally() for name in RULE_SETS}
    names = list(RULE_SETS)
    start = time.perf_counter()
    done = 0
    try:
        for i in range(args.games):
            name = names[i % len(names)]
            tallies[name].add(
                play(
                    RULE_SETS[name],
                    args.seed + i,
                    args.level,
                    args.node_budget,
                    args.time_budget,
                    args.max_actions,
                )
            )
            done += 1
            if done % 10 == 0:
                elapsed = time.perf_counter() - start
                print(f"  {done}/{args.games} games, {elapsed:.0f} s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {done}/{args.games} games: the figures below are partial")
    print(f"{done} games in {time.perf_counter() - start:.0f} s")
    total = Tally()
    for name, tally in tallies.items():
        report(name, tally, args.level)
        total.add(tally)
    report("together", total, args.level)
    print(
        f"{args.level} keeps the exact value: {_pct(total.kept, total.matter)} "
        f"of {total.matter} decisions"
    )


if __name__ == "__main__":
    main()
