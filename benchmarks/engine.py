"""Engine throughput and memory benchmark for durak_core (not a test).

Measures, in one run:

(a) 2-player classic playouts taking the first legal action
    (``next(iter(game.legal_actions()))``, then ``game.push(action)``);
(b) 2-player classic playouts taking a random legal action (``rng.choice(list(...))``);
(c) 4-player classic with ``transfer=True``, first-legal and random;
(d) the PyPI package ``durakgame`` (not a project dependency) under the same protocol, via
    ``benchmarks/durakgame_baseline.py``, and the ratio ours/durakgame;
(e) memory over ``--memory-games`` random games: the RSS and the interpreter's allocated blocks
    (and, with ``--tracemalloc``, traced bytes) after 1000 games and at the end; no game is kept.

Each throughput figure is the best of ``--repeat`` repetitions of the same games (seeds
``--seed`` .. ``--seed + games - 1``), by wall clock; by default each repetition plays as many
games as take about ``--seconds`` seconds. Playouts deal with ``undo=False`` (playouts never
undo; the action record is still kept, as durakgame keeps its move history); (a) is also
measured with the default undo snapshots for reference. First-legal play can go round in
circles for ever with 3 or more players (everyone takes, the same cards go round the table), so
a game is cut after ``--max-actions`` actions; cut games are counted and reported.

Run: ``.venv/bin/python benchmarks/engine.py [--games N] [--seed S] [--memory-games M]``.
The last line printed is the headline figure, ``actions/s: N``, for (a).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # for durakgame_baseline, also under ``python -m``
    sys.path.insert(0, str(HERE))

from durak_core import Game, Rules, __version__  # noqa: E402

DURAKGAME_INSTALL = "pip install durakgame==1.0.4"


class Run(NamedTuple):
    games: int
    actions: int
    seconds: float
    """Wall-clock time (``perf_counter``), as the playout functions measure it."""
    cut: int = 0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds


# ---------------------------------------------------------------- our playouts


def first_legal_playouts(
    rules: Rules, players: int, games: int, seed: int, *, undo: bool, max_actions: int
) -> Run:
    actions = cut = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.deal(rules, players, seed + i, undo=undo)
        n = 0
        while game.outcome is None and n < max_actions:
            action = next(iter(game.legal_actions()))
            game.push(action)
            n += 1
        cut += game.outcome is None
        actions += n
    return Run(games, actions, time.perf_counter() - start, cut)


def random_playouts(
    rules: Rules, players: int, games: int, seed: int, *, undo: bool, max_actions: int
) -> Run:
    rng = random.Random(seed)
    actions = cut = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.deal(rules, players, seed + i, undo=undo)
        n = 0
        while game.outcome is None and n < max_actions:
            action = rng.choice(list(game.legal_actions()))
            game.push(action)
            n += 1
        cut += game.outcome is None
        actions += n
    return Run(games, actions, time.perf_counter() - start, cut)


# ---------------------------------------------------------------- measuring


def best_of(run: Callable[[int], Run], games: int, repeat: int) -> Run:
    """The fastest of ``repeat`` runs of the same ``games`` games."""
    runs = [run(games) for _ in range(repeat)]
    for r in runs[1:]:
        assert (r.games, r.actions, r.cut) == (runs[0].games, runs[0].actions, runs[0].cut)
    return min(runs, key=lambda r: r.seconds)


def games_for(run: Callable[[int], Run], seconds: float, fixed: int) -> int:
    """``fixed`` if given, else about as many games as take ``seconds`` (from a warm-up and a
    trial of at least a quarter of a second)."""
    if fixed > 0:
        return fixed
    run(20)  # warm-up
    games = 20
    trial = run(games)
    while trial.seconds < 0.25:
        games *= 2
        trial = run(games)
    return max(20, round(seconds * trial.games / trial.seconds))


def measure(label: str, run: Callable[[int], Run], args: argparse.Namespace) -> Run:
    games = games_for(run, args.seconds, args.games)
    best = best_of(run, games, args.repeat)
    cut = f", {best.cut} cut at {args.max_actions} actions" if best.cut else ""
    print(
        f"{label}: {best.games:,} games, {best.actions:,} actions, "
        f"best of {args.repeat} {best.seconds:.2f} s -> {best.games_per_s:,.0f} games/s, "
        f"{best.actions_per_s:,.0f} actions/s ({best.actions / best.games:.1f} actions/game{cut})",
        flush=True,
    )
    return best


# ---------------------------------------------------------------- durakgame


def durakgame_comparison(
    args: argparse.Namespace, ours: Callable[[int], Run], ours_undo: Callable[[int], Run]
) -> None:
    """Ours and durakgame measured alternately, repetition by repetition, so that the load of
    a shared machine falls on both alike; the best repetition of each is compared."""
    try:
        import durakgame_baseline as baseline
    except ImportError as exc:  # the file is missing
        print(f"(d) durakgame: comparison skipped, benchmarks/durakgame_baseline.py: {exc}")
        return
    try:
        baseline.run_durakgame(1, args.seed)
    except RuntimeError:
        print(
            "(d) durakgame: not importable, comparison skipped "
            f"(it is no project dependency; to compare: {DURAKGAME_INSTALL})"
        )
        return

    def theirs(games: int) -> Run:
        played, actions, seconds = baseline.run_durakgame(games, args.seed)
        return Run(played, actions, seconds)

    runs = {"ours": ours, "ours with undo": ours_undo, "durakgame": theirs}
    sizes = {name: games_for(run, args.seconds, args.games) for name, run in runs.items()}
    repeat = max(args.repeat, 5)
    best: dict[str, Run] = {}
    for _ in range(repeat):
        for name, run in runs.items():
            result = run(sizes[name])
            if name not in best or result.seconds < best[name].seconds:
                best[name] = result
    for name, result in best.items():
        print(
            f"(d) side by side, {name} 2p first-legal: {result.games:,} games, "
            f"best of {repeat} alternating -> {result.actions_per_s:,.0f} actions/s, "
            f"{result.games_per_s:,.0f} games/s ({result.actions / result.games:.1f} actions/game)",
            flush=True,
        )
    base = best["durakgame"]
    for name in ("ours", "ours with undo"):
        print(
            f"(d) ratio {name}/durakgame 1.0.4, 2p first-legal: "
            f"{best[name].actions_per_s / base.actions_per_s:.2f}x actions/s, "
            f"{best[name].games_per_s / base.games_per_s:.2f}x games/s",
            flush=True,
        )
    print(
        "(d) note: durakgame plays 36-card 2-player rules and counts a multi-card throw-in "
        "after a take as one action; its playouts have no undo either",
        flush=True,
    )
    if not args.durakgame_random:
        print(
            "(d) durakgame random: skipped (durakgame 1.0.4 duplicates thrown-in cards after a "
            "take and then enumerates every throw-in subset, so random games run out of "
            "memory; see benchmarks/DURAKGAME_NOTES.md; --durakgame-random runs it in a "
            "capped subprocess)"
        )
        return
    command = [
        sys.executable,
        str(HERE / "durakgame_baseline.py"),
        "--games",
        str(args.games or 2000),
        "--seed",
        str(args.seed),
        "--random",
        "--budget",
        str(args.seconds * 5),
        "--mem-cap-mb",
        "2048",
    ]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=args.seconds * 5 + 120, check=False
        )
        lines = done.stdout.splitlines()
    except subprocess.TimeoutExpired:
        lines = ["durakgame random: timed out"]
    for line in lines:
        if "random" in line or "abandoned" in line or "MemoryError" in line:
            print(f"(d) {line}")


# ---------------------------------------------------------------- memory


def rss_kib() -> int | None:
    """The resident set size now, in KiB (Linux), or None."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def memory_flatness(args: argparse.Namespace) -> None:
    """Play ``--memory-games`` random 2-player classic games (default deal, with undo
    snapshots), keeping none, and compare memory after 1000 games and at the end: the RSS, the
    interpreter's allocated blocks, and (with ``--tracemalloc``, about 5x slower) traced bytes."""
    rules = Rules()
    total = args.memory_games
    checkpoint = min(1000, total)
    rng = random.Random(args.seed)

    def snapshot() -> tuple[int | None, int, int]:
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] if args.tracemalloc else 0
        return rss_kib(), sys.getallocatedblocks(), traced

    gc.collect()
    if args.tracemalloc:
        tracemalloc.start()
    first = snapshot()
    actions = 0
    start = time.perf_counter()
    for i in range(total):
        game = Game.deal(rules, 2, args.seed + i)
        while game.outcome is None:
            game.push(rng.choice(list(game.legal_actions())))
            actions += 1
        del game
        if i + 1 == checkpoint:
            first = snapshot()
    seconds = time.perf_counter() - start
    last = snapshot()
    parts = []
    if first[0] is not None and last[0] is not None:
        parts.append(
            f"RSS {first[0] / 1024:.1f} MiB after {checkpoint:,} games, "
            f"{last[0] / 1024:.1f} MiB after {total:,}, growth {last[0] - first[0]:+,} KiB"
        )
    parts.append(f"allocated blocks {first[1]:,} -> {last[1]:,} ({last[1] - first[1]:+,})")
    if args.tracemalloc:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        parts.append(
            f"traced {first[2] / 1024:.1f} KiB -> {last[2] / 1024:.1f} KiB "
            f"({(last[2] - first[2]) / 1024:+.1f} KiB, peak {peak / 1024:.1f} KiB)"
        )
    print(
        f"(e) memory, {total:,} random 2p classic games, none kept ({actions:,} actions, "
        f"{seconds:.1f} s): " + "; ".join(parts),
        flush=True,
    )


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=int,
        default=0,
        help="games per repetition of each measurement (default: about --seconds' worth)",
    )
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--memory-games", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=2.0, help="target time per repetition")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions; the best counts")
    parser.add_argument("--max-actions", type=int, default=5000, help="cut a game after this")
    parser.add_argument(
        "--durakgame-random",
        action="store_true",
        help="also try durakgame's random playouts (in a memory-capped subprocess)",
    )
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="also trace allocated bytes in the memory measurement (about 5x slower)",
    )
    args = parser.parse_args(argv)
    if args.memory_games < 1:
        parser.error("--memory-games must be at least 1")

    print(
        f"durak_core {__version__}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), seed {args.seed}, best of {args.repeat}",
        flush=True,
    )
    classic = Rules.preset("classic")
    transfer = classic.replace(transfer=True)
    limit = args.max_actions

    def first2(games: int) -> Run:
        return first_legal_playouts(classic, 2, games, args.seed, undo=False, max_actions=limit)

    def first2_undo(games: int) -> Run:
        return first_legal_playouts(classic, 2, games, args.seed, undo=True, max_actions=limit)

    def random2(games: int) -> Run:
        return random_playouts(classic, 2, games, args.seed, undo=False, max_actions=limit)

    def first4(games: int) -> Run:
        return first_legal_playouts(transfer, 4, games, args.seed, undo=False, max_actions=limit)

    def random4(games: int) -> Run:
        return random_playouts(transfer, 4, games, args.seed, undo=False, max_actions=limit)

    headline = measure("(a) ours 2p classic first-legal", first2, args)
    measure("(a) ours 2p classic first-legal, with undo snapshots", first2_undo, args)
    measure("(b) ours 2p classic random", random2, args)
    measure("(c) ours 4p classic+transfer first-legal", first4, args)
    measure("(c) ours 4p classic+transfer random", random4, args)
    durakgame_comparison(args, first2, first2_undo)
    memory_flatness(args)
    print(f"actions/s: {headline.actions_per_s:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
