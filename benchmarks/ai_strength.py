"""Strength and speed of the computer players (issue 11, point 3; not a test).

Tournaments between the bots of :mod:`durak_core.bots` — PIMC (the default level unless
``--samples`` / ``--time-budget`` say otherwise), the heuristic and random play:

- heads-up: heuristic vs random, pimc vs random, newcomer (the gentle level) vs heuristic,
  pimc vs heuristic, strong vs pimc;
- three players: pimc, heuristic and random at one table; pimc against two heuristics;
- two-player endgames (issue 18): ``--endgames`` seeded games, half under ``--preset`` and half
  the same with transfers (perevodnoy), are played by the heuristic until the stock is empty;
  then the default level plays both seats to the end, and every decision with two or more
  legal actions is solved exactly by an independent :class:`~durak_core.solver.Solver`
  (``--judge-nodes`` per solve). Printed: the share of decisions where the choice matters
  (not every action has the same value) at which the bot kept the exact value, and the share
  of all decisions with a choice, each with a 95% Wilson interval, and the decisions the
  judge could not solve (left out);
- three-player endgames: ``--endgames3`` seeded three-player games played by the heuristic
  until the stock is empty (all three still in); from that position three heuristics play it
  out, and then the default level in each seat in turn against two heuristics. Printed: how
  often the seat is the durak with the heuristic and with the default level in it (the same
  positions), the heuristic's losses the default level saved and the reverse.

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
Before it, a block compares the figures with issue 18's targets (endgame decisions ≥ 99%
optimal, pimc vs heuristic ≥ 0.85, strong vs pimc ≥ 0.60, median decision of the default
level ≤ 100 ms). ``--strong-games`` sets the games of strong vs pimc (slow: up to 1 024
worlds a decision; ``--strong-samples N`` tries another number), ``--endgames 0`` and
``--endgames3 0`` skip the endgames.
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

from durak_core import PRESETS, Action, Game, Observation, Rules, observe
from durak_core.bots import (
    DEFAULT_LEVEL,
    Bot,
    HeuristicBot,
    PIMCBot,
    RandomBot,
    make_bot,
    next_seat,
    play_game,
)
from durak_core.bots.base import outcome_score
from durak_core.solver import Solver


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
    Tournament("strong-pimc-2p", "strong vs pimc, heads-up", ("strong", "pimc")),
    Tournament("pimc-heuristic-2p", "pimc vs heuristic, heads-up", ("pimc", "heuristic")),
]
HEADLINE = "pimc-heuristic-2p"
STRONG = "strong-pimc-2p"
JUDGE_NODES = 3_000_000
"""Positions the judge's exact solve of one endgame decision may search."""


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
        pimc = PIMCBot(samples, time_budget=budget, exact=True, race=True)
    strong_samples = config["strong_samples"]
    assert strong_samples is None or isinstance(strong_samples, int)
    strong = (
        make_bot("strong")
        if strong_samples is None
        else PIMCBot(strong_samples, name="strong", exact=True, race=True)
    )
    _BOTS.update(
        pimc=pimc,
        strong=strong,
        newcomer=make_bot("newcomer"),
        heuristic=HeuristicBot(),
        random=RandomBot(),
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


class Endgame(NamedTuple):
    """One endgame's decisions, judged exactly."""

    variant: str
    decisions: int
    """Decisions of the bot with two or more legal actions."""
    judged: int
    """... that the judge solved."""
    matter: int
    """... where not every action has the same value."""
    kept: int
    """... at which the bot kept the exact value."""
    optimal: int
    """Judged decisions at which the bot kept the value (whether or not the choice mattered)."""


def _play_endgame(number: int) -> Endgame:
    """Endgame ``number``: the heuristic to the empty stock, the default level from there,
    every decision with a choice solved by a judge whose table is kept through the game."""
    rules = _CONFIG["rules"]
    seed = _CONFIG["seed"]
    judge_nodes = _CONFIG["judge_nodes"]
    max_actions = _CONFIG["max_actions"]
    assert isinstance(rules, Rules) and isinstance(seed, int)
    assert isinstance(judge_nodes, int) and isinstance(max_actions, int)
    variant = "perevodnoy" if number % 2 else "podkidnoy"
    if number % 2:
        rules = rules.replace(transfer=True)
    game = Game.deal(rules, 2, seed=seed * 7919 + number, previous_durak=number // 2 % 2)
    heuristic, rng = HeuristicBot(), random.Random(f"{seed}/endgame/{number}")
    bots = [make_bot(DEFAULT_LEVEL), make_bot(DEFAULT_LEVEL)]
    judge = Solver()
    decisions = judged = matter = kept = optimal = 0
    for _ in range(max_actions):
        seat = next_seat(game)
        if seat is None:
            break
        obs = observe(game, seat)
        if game.stock:
            game.push(heuristic.choose(obs, rng))
            continue
        choice = bots[seat].choose(obs, rng)
        if len(obs.legal) > 1:
            decisions += 1
            exact = judge.solve(game, seat=seat, node_budget=judge_nodes)
            if exact.solved:
                judged += 1
                keeps = exact.keeps_value(choice)
                optimal += keeps
                if len(set(exact.action_values.values())) > 1:
                    matter += 1
                    kept += keeps
        game.push(choice)
    return Endgame(variant, decisions, judged, matter, kept, optimal)


class Endgame3(NamedTuple):
    """One three-player endgame (the stock just empty), played from the same position with the
    default level in each seat in turn against two heuristics, and by three heuristics."""

    baseline: int | None
    """The durak when three heuristics play it out (None: a draw)."""
    duraks: tuple[int | None, ...]
    """For each seat, the durak when the default level sits there."""
    solved: int
    """The default level's decisions solved exactly (two players left, the stock empty)."""
    decisions: int
    """The default level's decisions with two or more legal actions."""


def _play_out(game: Game, bots: Sequence[Bot], rng: random.Random, limit: int) -> Game:
    for _ in range(limit):
        seat = next_seat(game)
        if seat is None:
            break
        game.push(bots[seat].choose(observe(game, seat), rng))
    return game


def _play_endgame3(number: int) -> Endgame3:
    """Three-player endgame ``number``: three heuristics to the empty stock, then (from that
    position) three heuristics, and the default level in each seat against two heuristics."""
    rules = _CONFIG["rules"]
    seed = _CONFIG["seed"]
    max_actions = _CONFIG["max_actions"]
    assert isinstance(rules, Rules) and isinstance(seed, int) and isinstance(max_actions, int)
    heuristic = HeuristicBot()
    while True:  # a deal whose game reaches the empty stock with all three still playing
        game = Game.deal(rules, 3, seed=seed * 104729 + number, undo=False)
        rng = random.Random(f"{seed}/endgame3/{number}")
        for _ in range(max_actions):
            seat = next_seat(game)
            if seat is None or not game.stock:
                break
            game.push(heuristic.choose(observe(game, seat), rng))
        if game.outcome is None and not game.stock and not game.position().out:
            break
        number += 1_000_000
    start = game.copy(undo=False)

    def outcome(bots: Sequence[Bot]) -> int | None:
        end = start.copy(undo=False)
        end = _play_out(end, bots, random.Random(number), max_actions)
        return end.outcome.durak if end.outcome is not None else None

    baseline = outcome([heuristic] * 3)
    duraks = []
    solved = decisions = 0
    for seat in range(3):
        bot = make_bot(DEFAULT_LEVEL)
        assert isinstance(bot, PIMCBot)
        counted = _Counting(bot, seat)
        duraks.append(outcome([counted if s == seat else heuristic for s in range(3)]))
        solved += counted.solved
        decisions += counted.decisions
    return Endgame3(baseline, tuple(duraks), solved, decisions)


class _Counting:
    """A PIMC bot that counts its decisions with a choice and those it solved exactly."""

    def __init__(self, bot: PIMCBot, seat: int) -> None:
        self.bot, self.seat, self.name = bot, seat, bot.name
        self.solved = self.decisions = 0

    def choose(self, obs: Observation, rng: random.Random) -> Action:
        if len(obs.legal) > 1:
            self.decisions += 1
            self.solved += self.bot.solution(obs, random.Random(0)) is not None
        return self.bot.choose(obs, rng)


def report_endgames3(games: Sequence[Endgame3]) -> None:
    """Print how often the default level is the durak from three-player endgames, against the
    heuristic in the same seat of the same positions."""
    seats = [(g.baseline == s, g.duraks[s] == s) for g in games for s in range(3)]
    heuristic = sum(h for h, _ in seats)
    pimc = sum(p for _, p in seats)
    saved = sum(h and not p for h, p in seats)
    lost = sum(p and not h for h, p in seats)
    h, h_lo, h_hi = wilson(heuristic, len(seats))
    p, p_lo, p_hi = wilson(pimc, len(seats))
    decisions = sum(g.decisions for g in games)
    solved = sum(g.solved for g in games)
    print(f"\n== {DEFAULT_LEVEL} in three-player endgames (the stock just empty): {len(games)} ==")
    print(
        f"the durak from {len(seats)} seat-positions: heuristic {heuristic} = {h:.1%} "
        f"[{h_lo:.1%}, {h_hi:.1%}], {DEFAULT_LEVEL} in the same seat {pimc} = {p:.1%} "
        f"[{p_lo:.1%}, {p_hi:.1%}] (fair share 33.3%); {DEFAULT_LEVEL} saved {saved} of the "
        f"heuristic's losses and lost {lost} it had not; {solved} of its {decisions} decisions "
        f"with a choice were solved exactly (two players left)"
    )


# ---------------------------------------------------------------- figures


def wilson(part: int, whole: int) -> tuple[float, float, float]:
    """A share and its 95% Wilson interval."""
    if not whole:
        return float("nan"), 0.0, 1.0
    z = 1.96
    p = part / whole
    centre = (p + z * z / (2 * whole)) / (1 + z * z / whole)
    half = z * math.sqrt(p * (1 - p) / whole + z * z / (4 * whole * whole)) / (1 + z * z / whole)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def report_endgames(games: Sequence[Endgame]) -> tuple[float, float, float, int]:
    """Print the endgame figures; return the share of decisions that matter kept, its
    interval and how many decisions it counts."""
    print(f"\n== {DEFAULT_LEVEL} in two-player endgames, judged exactly: {len(games)} games ==")
    result = (float("nan"), 0.0, 1.0, 0)
    for variant in ("podkidnoy", "perevodnoy", None):
        chosen = [g for g in games if variant is None or g.variant == variant]
        decisions = sum(g.decisions for g in chosen)
        judged = sum(g.judged for g in chosen)
        matter = sum(g.matter for g in chosen)
        kept = sum(g.kept for g in chosen)
        optimal = sum(g.optimal for g in chosen)
        share, lo, hi = wilson(kept, matter)
        every, every_lo, every_hi = wilson(optimal, judged)
        print(
            f"{variant or 'together':<11} {len(chosen):>4} games: {decisions} decisions with a "
            f"choice, {judged} solved by the judge ({decisions - judged} left out); "
            f"the choice matters at {matter}: kept the value at {kept} = {share:.1%} "
            f"[{lo:.1%}, {hi:.1%}]; all judged decisions optimal: {every:.1%} "
            f"[{every_lo:.1%}, {every_hi:.1%}]"
        )
        if variant is None:
            result = (share, lo, hi, matter)
    return result


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


class Figures(NamedTuple):
    """The first lineup entry's win rate with its 95% interval, and its median decision
    time over decisions with a choice (wall, CPU)."""

    win: float
    low: float
    high: float
    wall: float
    cpu: float


def report(tally: Tally) -> Figures:
    """Print a tournament's figures; return the first lineup entry's."""
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
    first = Figures(float("nan"), 0.0, 1.0, float("nan"), float("nan"))
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
        chosen = [(w, c) for g in games for e, w, c, n in g.decisions if e in entries and n > 1]
        every = [w for g in games for e, w, _c, _n in g.decisions if e in entries]
        walls = [w for w, _ in chosen]
        cpus = [c for _, c in chosen]
        if name == tour.lineup[0]:
            first = Figures(win_rate, win_lo, win_hi, percentile(walls, 0.5), percentile(cpus, 0.5))
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
    return first


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000, help="at least this many per tournament")
    parser.add_argument(
        "--strong-games", type=int, default=200, help="games of strong vs pimc (slow)"
    )
    parser.add_argument(
        "--endgames", type=int, default=200, help="two-player endgames judged exactly (0: none)"
    )
    parser.add_argument(
        "--endgames3", type=int, default=100, help="three-player endgames played out (0: none)"
    )
    parser.add_argument(
        "--judge-nodes", type=int, default=JUDGE_NODES, help="positions per exact judge solve"
    )
    parser.add_argument("--samples", type=int, default=None, help="PIMC worlds per decision")
    parser.add_argument(
        "--strong-samples", type=int, default=None, help="the strong level's worlds per decision"
    )
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
        choices=[t.key for t in TOURNAMENTS] + ["endgames", "endgames3"],
        help="play only this tournament, or the endgames (repeatable)",
    )
    args = parser.parse_args(argv)
    rules = Rules.preset(args.preset)
    config: dict[str, object] = {
        "rules": rules,
        "seed": args.seed,
        "max_actions": args.max_actions,
        "samples": args.samples,
        "strong_samples": args.strong_samples,
        "time_budget": args.time_budget,
        "judge_nodes": args.judge_nodes,
    }
    _init(config)
    chosen = [t for t in TOURNAMENTS if not args.only or t.key in args.only]
    endgames = args.endgames if not args.only or "endgames" in args.only else 0
    print(
        f"ai_strength: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {args.jobs} jobs, preset {args.preset}, seed {args.seed}"
    )
    print(f"pimc level: {_BOTS['pimc']!r}; strong level: {_BOTS['strong']!r}")
    endgames3 = args.endgames3 if not args.only or "endgames3" in args.only else 0
    tasks: list[tuple[int, int]] = [(-1, number) for number in range(endgames)]
    tasks.extend((-2, number) for number in range(endgames3))
    tallies = {}
    for tour in sorted(chosen, key=lambda t: t.key != HEADLINE):  # the headline first
        index = TOURNAMENTS.index(tour)
        tallies[index] = Tally(tour)
        wanted = args.strong_games if tour.key == STRONG else args.games
        deals = math.ceil(wanted / len(tour.seatings))
        tasks.extend((index, deal) for deal in range(deals))
    start = time.perf_counter()
    done = 0
    judged: list[Endgame] = []
    three: list[Endgame3] = []
    if args.jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(args.jobs, _init, (config,))
        results: Iterator[Endgame | Endgame3 | tuple[int, int, list[Game1]]] = pool.imap_unordered(
            _play_task, tasks
        )
    else:
        pool = None
        results = map(_play_task, tasks)
    try:
        for result in results:
            if isinstance(result, Endgame):
                judged.append(result)
            elif isinstance(result, Endgame3):
                three.append(result)
            else:
                index, deal, games = result
                tallies[index].deals[deal] = games
            done += 1
            if done % 25 == 0 or done == len(tasks):
                elapsed = time.perf_counter() - start
                print(f"  {done}/{len(tasks)} tasks, {elapsed:.0f} s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {done}/{len(tasks)} tasks: the figures below are partial")
    finally:
        if pool is not None:
            pool.terminate()
    elapsed = time.perf_counter() - start
    figures: dict[str, Figures] = {}
    for index, tally in sorted(tallies.items(), key=lambda kv: TOURNAMENTS[kv[0]].key == HEADLINE):
        if not tally.deals:
            continue
        tally.deals = dict(sorted(tally.deals.items()))
        figures[TOURNAMENTS[index].key] = report(tally)
    endgame = report_endgames(judged) if judged else None
    if three:
        report_endgames3(three)
    print(f"\nplayed in {elapsed:.0f} s wall clock")
    print("\nissue 18 targets:")
    if endgame is not None:
        share, lo, hi, matter = endgame
        print(
            f"  {DEFAULT_LEVEL} endgame decisions optimal (where the choice matters): "
            f"{share:.1%} [{lo:.1%}, {hi:.1%}] of {matter}; target >= 99%: "
            f"{'met' if share >= 0.99 else 'NOT met'}"
        )
    for key, label, target in (
        (HEADLINE, "pimc vs heuristic heads-up", 0.85),
        (STRONG, "strong vs pimc heads-up", 0.60),
    ):
        if key in figures:
            f = figures[key]
            print(
                f"  {label}: {f.win:.3f} [{f.low:.3f}, {f.high:.3f}]; target >= {target:.2f}: "
                f"{'met' if f.win >= target else 'NOT met'}"
            )
    if HEADLINE in figures:
        f = figures[HEADLINE]
        print(
            f"  {DEFAULT_LEVEL} median decision with a choice (vs heuristic): "
            f"{fmt_time(f.wall)} wall, {fmt_time(f.cpu)} CPU; target <= 100 ms: "
            f"{'met' if f.wall <= 0.1 else 'NOT met'}"
        )
    headline = figures.get(HEADLINE)
    shown = "not played" if headline is None else f"{headline.win:.3f}"
    print(f"pimc vs heuristic heads-up win rate: {shown}")


def _play_task(task: tuple[int, int]) -> Endgame | Endgame3 | tuple[int, int, list[Game1]]:
    """A deal of a tournament, or (index -1) a two-player, (-2) a three-player endgame."""
    if task[0] == -1:
        return _play_endgame(task[1])
    if task[0] == -2:
        return _play_endgame3(task[1])
    return _play_deal(task)


if __name__ == "__main__":
    main()
