"""Strength and speed of the computer players (issue 11, point 3; not a test).

Tournaments between the bots of :mod:`durak_core.bots` — PIMC (the default level unless
``--samples`` / ``--time-budget`` say otherwise), the heuristic and random play:

- heads-up: heuristic vs random, pimc vs random, newcomer (the gentle level) vs heuristic,
  pimc vs heuristic;
- three players: pimc, heuristic and random at one table; pimc against two heuristics.

Every deal is played once per seating: heads-up twice, the bots' seats swapped; with three
players three times, the seats rotated — so no bot profits from a lucky deal or seat. Each
tournament plays at least ``--games`` games (default 1000). A bot sees only its observation.

Printed per tournament and bot: games, losses (the durak) and the loss rate, draws, the win rate
(a draw counts half), each rate with a 95% confidence interval (normal approximation over
deals, since a deal's games are not independent), and the median and p95 time of a decision —
wall clock and this process's CPU time (they differ when other work shares the machine) — over
decisions with a real choice (two or more legal actions) and over all of them. A game still
going after ``--max-actions`` actions (bots passing the same cards round) is cut, counted a
draw, and reported.

Run: ``.venv/bin/python benchmarks/ai_strength.py`` (full: long; it plays in ``--jobs``
processes, the headline tournament first; Ctrl-C prints what was played so far),
``--games 40`` for a quick look, ``--only pimc-heuristic-2p`` for one tournament,
``--samples N`` or ``--time-budget S`` to set the PIMC level.
The last line printed is ``pimc vs heuristic heads-up win rate: X``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from durak_core import PRESETS, Game, Rules
from durak_core.bots import (
    DEFAULT_LEVEL,
    Bot,
    HeuristicBot,
    PIMCBot,
    RandomBot,
    make_bot,
    play_game,
)
from durak_core.bots.base import outcome_score


@dataclass(frozen=True)
class Tournament:
    key: str
    title: str
    lineup: tuple[str, ...]
    """The bots, by name, in the seats of the first seating."""

    @property
    def seatings(self) -> list[tuple[int, ...]]:
        """For each seating, which lineup entry sits at each seat: the seats rotated."""
        n = len(self.lineup)
        return [tuple((seat + shift) % n for seat in range(n)) for shift in range(n)]


TOURNAMENTS = [
    Tournament("heuristic-random-2p", "heuristic vs random, heads-up", ("heuristic", "random")),
    Tournament("pimc-random-2p", "pimc vs random, heads-up", ("pimc", "random")),
    Tournament(
        "mixed-3p", "pimc, heuristic and random, three players", ("pimc", "heuristic", "random")
    ),
    Tournament(
        "pimc-heuristic-3p",
        "pimc vs two heuristics, three players",
        ("pimc", "heuristic", "heuristic"),
    ),
    Tournament(
        "newcomer-heuristic-2p", "newcomer vs heuristic, heads-up", ("newcomer", "heuristic")
    ),
    Tournament("pimc-heuristic-2p", "pimc vs heuristic, heads-up", ("pimc", "heuristic")),
]
HEADLINE = "pimc-heuristic-2p"


class Game1(NamedTuple):
    """One game's result, by lineup entry: who was the durak (None: draw or cut)."""

    durak: int | None
    finished: bool
    actions: int
    decisions: list[tuple[int, float, float, int]]
    """(lineup entry, wall seconds, CPU seconds, legal actions)."""


@dataclass
class Tally:
    """Results of one tournament."""

    tournament: Tournament
    deals: dict[int, list[Game1]] = field(default_factory=dict)

    def games(self) -> Iterator[Game1]:
        for games in self.deals.values():
            yield from games


# ---------------------------------------------------------------- playing (in worker processes)

_BOTS: dict[str, Bot] = {}
_CONFIG: dict[str, object] = {}


def _init(config: dict[str, object]) -> None:
    _CONFIG.update(config)
    samples = config["samples"]
    budget = config["time_budget"]
    if samples is None and budget is None:
        pimc = make_bot(DEFAULT_LEVEL)
    else:
        assert samples is None or isinstance(samples, int)
        assert budget is None or isinstance(budget, float)
        pimc = PIMCBot(samples, time_budget=budget)
    _BOTS.update(
        pimc=pimc, newcomer=make_bot("newcomer"), heuristic=HeuristicBot(), random=RandomBot()
    )


def _play_deal(task: tuple[int, int]) -> tuple[int, int, list[Game1]]:
    """Play deal ``deal`` of tournament ``index`` once per seating."""
    index, deal = task
    tour = TOURNAMENTS[index]
    rules = _CONFIG["rules"]
    assert isinstance(rules, Rules)
    seed = _CONFIG["seed"]
    assert isinstance(seed, int)
    max_actions = _CONFIG["max_actions"]
    assert isinstance(max_actions, int)
    players = len(tour.lineup)
    results = []
    for s, seating in enumerate(tour.seatings):
        bots = [_BOTS[tour.lineup[entry]] for entry in seating]
        rngs = [random.Random(f"{seed}/{tour.key}/{deal}/{s}/{seat}") for seat in range(players)]
        game = Game.deal(rules, players, seed=seed * 100_003 + deal)
        result = play_game(game, bots, rngs, max_actions=max_actions)
        durak = None if result.durak is None else seating[result.durak]
        decisions = [
            (seating[d.seat], d.seconds, d.cpu_seconds, d.choices) for d in result.decisions
        ]
        results.append(Game1(durak, result.finished, result.actions, decisions))
    return index, deal, results


# ---------------------------------------------------------------- figures


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (normal approximation), clipped to [0, 1]."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0, 1.0
    sd = statistics.stdev(values)
    half = 1.96 * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def fmt_time(seconds: float) -> str:
    if math.isnan(seconds):
        return "-"
    if seconds < 0.001:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.0f} ms"
    return f"{seconds:.2f} s"


def report(tally: Tally) -> float:
    """Print a tournament's figures; return the first lineup entry's win rate."""
    tour = tally.tournament
    games = list(tally.games())
    deals = len(tally.deals)
    seatings = len(tour.seatings)
    print(f"\n== {tour.title}: {len(games)} games ({deals} deals x {seatings} seatings) ==")
    names = sorted(set(tour.lineup), key=tour.lineup.index)
    header = (
        f"{'bot':<10} {'games':>6} {'lost':>5} {'loss rate [95% CI]':>24} {'draws':>6} "
        f"{'win rate [95% CI]':>24}   decision time, choices: median / p95 (wall; CPU)"
        "   all decisions: median / p95 (wall)"
    )
    print(header)
    first_win = 0.0
    for name in names:
        entries = [i for i, n in enumerate(tour.lineup) if n == name]
        seats_per_game = len(entries)
        loss_by_deal: list[float] = []
        win_by_deal: list[float] = []
        lost = draws = 0
        for results in tally.deals.values():
            loss = win = 0.0
            for g in results:
                for entry in entries:
                    is_durak = g.durak == entry
                    lost += is_durak
                    draws += g.durak is None
                    loss += is_durak
                    win += outcome_score(g.durak, entry) if g.finished else 0.5
            count = len(results) * seats_per_game
            loss_by_deal.append(loss / count)
            win_by_deal.append(win / count)
        loss_rate, loss_lo, loss_hi = interval(loss_by_deal)
        win_rate, win_lo, win_hi = interval(win_by_deal)
        if name == tour.lineup[0]:
            first_win = win_rate
        chosen = [(w, c) for g in games for e, w, c, n in g.decisions if e in entries and n > 1]
        every = [w for g in games for e, w, _c, _n in g.decisions if e in entries]
        walls = [w for w, _ in chosen]
        cpus = [c for _, c in chosen]
        times = (
            f"{fmt_time(percentile(walls, 0.5))} / {fmt_time(percentile(walls, 0.95))}; "
            f"{fmt_time(percentile(cpus, 0.5))} / {fmt_time(percentile(cpus, 0.95))}"
            f" ({len(chosen)})"
        )
        every_times = f"{fmt_time(percentile(every, 0.5))} / {fmt_time(percentile(every, 0.95))}"
        label = name if seats_per_game == 1 else f"{name} x{seats_per_game}"
        print(
            f"{label:<10} {len(games) * seats_per_game:>6} {lost:>5} "
            f"{loss_rate:>7.3f} [{loss_lo:.3f}, {loss_hi:.3f}] {draws:>6} "
            f"{win_rate:>7.3f} [{win_lo:.3f}, {win_hi:.3f}]   {times}   {every_times}"
        )
    cut = sum(not g.finished for g in games)
    actions = statistics.mean(g.actions for g in games) if games else 0
    print(f"actions per game: {actions:.1f}; games cut (counted draws): {cut}")
    return first_win


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000, help="at least this many per tournament")
    parser.add_argument("--samples", type=int, default=None, help="PIMC worlds per decision")
    parser.add_argument(
        "--time-budget", type=float, default=None, help="PIMC seconds per decision (wall clock)"
    )
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--max-actions", type=int, default=3000)
    parser.add_argument(
        "--only",
        action="append",
        choices=[t.key for t in TOURNAMENTS],
        help="play only this tournament (repeatable)",
    )
    args = parser.parse_args(argv)
    rules = Rules.preset(args.preset)
    config: dict[str, object] = {
        "rules": rules,
        "seed": args.seed,
        "max_actions": args.max_actions,
        "samples": args.samples,
        "time_budget": args.time_budget,
    }
    _init(config)
    chosen = [t for t in TOURNAMENTS if not args.only or t.key in args.only]
    print(
        f"ai_strength: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {args.jobs} jobs, preset {args.preset}, seed {args.seed}"
    )
    print(f"pimc level: {_BOTS['pimc']!r}")
    tasks: list[tuple[int, int]] = []
    tallies = {}
    for tour in sorted(chosen, key=lambda t: t.key != HEADLINE):  # the headline first
        index = TOURNAMENTS.index(tour)
        tallies[index] = Tally(tour)
        deals = math.ceil(args.games / len(tour.seatings))
        tasks.extend((index, deal) for deal in range(deals))
    start = time.perf_counter()
    done = 0
    if args.jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(args.jobs, _init, (config,))
        results: Iterator[tuple[int, int, list[Game1]]] = pool.imap_unordered(_play_deal, tasks)
    else:
        pool = None
        results = map(_play_deal, tasks)
    try:
        for index, deal, games in results:
            tallies[index].deals[deal] = games
            done += 1
            if done % 25 == 0 or done == len(tasks):
                elapsed = time.perf_counter() - start
                print(f"  {done}/{len(tasks)} deals, {elapsed:.0f} s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {done}/{len(tasks)} deals: the figures below are partial")
    finally:
        if pool is not None:
            pool.terminate()
    elapsed = time.perf_counter() - start
    headline: float | None = None
    for index, tally in sorted(tallies.items(), key=lambda kv: TOURNAMENTS[kv[0]].key == HEADLINE):
        if not tally.deals:
            continue
        tally.deals = dict(sorted(tally.deals.items()))
        rate = report(tally)
        if TOURNAMENTS[index].key == HEADLINE:
            headline = rate
    print(f"\nplayed in {elapsed:.0f} s wall clock")
    shown = "not played" if headline is None else f"{headline:.3f}"
    print(f"pimc vs heuristic heads-up win rate: {shown}")


if __name__ == "__main__":
    main()
