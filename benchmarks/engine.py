"""Engine throughput and memory benchmark for durak_core (not a test).

Measures, in one run:

(a) 2-player classic playouts taking the first legal action
    (``next(iter(game.legal_actions()))``, then ``game.push(action)``), in playout mode
    (``Game.deal(..., undo=False, events=False)``); also with undo snapshots on (as a search
    that takes moves back plays: ``undo=True, events=False``) and with events recorded;
(b) 2-player classic playouts taking a random legal action (``rng.choice(list(...))``);
(c) 4-player classic with ``transfer=True``, first-legal and random;
(r) refusal checks: ``game.is_legal(action)`` per second for legal and for illegal actions
    (positions and actions sampled from random games), and their ratio;
(d) the PyPI package ``durakgame`` (not a project dependency) under the same protocol, via
    ``benchmarks/durakgame_baseline.py``, measured alternately with ours, and the ratios;
(e) memory over ``--memory-games`` random games: the RSS and the interpreter's allocated blocks
    (and, with ``--tracemalloc``, traced bytes) after 1000 games and at the end; no game is kept;
(s) search: ``durak_core.determinize(observation, rng)`` of a seat's observation and a random
    playout of the world to the end, per second, 2 and 4 players.

Each throughput figure is the best of ``--repeat`` repetitions of the same games (seeds
``--seed`` .. ``--seed + games - 1``), by wall clock (``--clock cpu``: by this process's CPU
time, steadier on a shared machine); by default each repetition plays as many
games as take about ``--seconds`` seconds. The action record is always kept (durakgame keeps
its move history too). First-legal play can go round in circles for ever with 3 or more
players (everyone takes, the same cards go round the table), so a game is cut after
``--max-actions`` actions; cut games are counted and reported.

durakgame is found on the running interpreter's path, or in the virtual environment named by
``--durakgame-venv`` (default: ``$DURAKGAME_VENV``), e.g. a throwaway one made with
``python3 -m venv /tmp/dg && /tmp/dg/bin/pip install durakgame==1.0.4``.

Run: ``.venv/bin/python benchmarks/engine.py [--games N] [--seed S] [--memory-games M]``.
The last line printed is the headline figure, ``ours/durakgame 2p first-legal: N.NNx``
(actions per second, playout mode, side by side), or ``n/a`` without durakgame.

A/B mode, ``--baseline-tree PATH`` (another checkout of this project, e.g. ``git worktree add
/tmp/base HEAD~3``): measures only this tree ("after") against that one ("before") on 2-player
classic first-legal playouts, in playout mode (``undo=False, events=False``) and with undo
snapshots (``undo=True``), the same games (seeds) for both, by default on the CPU clock
(``time.process_time`` inside each measuring process). Both trees have a package
``durak_core``, so the baseline plays in a child process, ``engine.py --worker`` of *this*
file run with ``PYTHONPATH=PATH``: the code that plays the games (:func:`ab_playouts`) is the
same bytes for both engines; the child reports ``durak_core.__file__`` and the run stops with an
error if it is not the baseline's. An A/A run is always part of it: this tree in a child process
the same way (``PYTHONPATH`` = this tree) against this tree in the benchmark's own process, the
very mechanism of the A/B run with the same engine on both sides, so its spread is the noise an
after/before must exceed. Each of ``--repeat`` repetitions (default 5) starts fresh children
and runs, per workload, the pair baseline child / this tree and the pair A/A child / this tree
back to back (and durakgame, when available, next to this tree's run of the second pair); odd
repetitions run the whole sequence backwards. What counts is the median of the per-repetition
paired ratios (with their min-max), not the best of each side, as the two runs of a pair share
the machine's load. The last line is then
``after/before 2p first-legal: N.NNNx (A/A spread X.XXX-Y.YYY)`` (playout mode).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from durak_core import Action, Observation

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
"""This tree (the checkout this file belongs to)."""
if str(HERE) not in sys.path:  # for durakgame_baseline, also under ``python -m``
    sys.path.insert(0, str(HERE))

# Only long-standing names at import time: an ``--worker`` child imports this module against
# an older baseline tree.
import durak_core  # noqa: E402
from durak_core import Game, Rules  # noqa: E402

__version__: str = getattr(durak_core, "__version__", "?")
DURAKGAME_INSTALL = "pip install durakgame==1.0.4"
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter
"""What every measurement reads; set from ``--clock``."""


class Run(NamedTuple):
    games: int
    actions: int
    seconds: float
    """Seconds by ``clock()`` (``--clock``: wall clock or this process's CPU time)."""
    cut: int = 0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds


# ---------------------------------------------------------------- our playouts


def first_legal_playouts(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    *,
    undo: bool,
    max_actions: int,
    events: bool = False,
) -> Run:
    actions = cut = 0
    start = clock()
    for i in range(games):
        game = Game.deal(rules, players, seed + i, undo=undo, events=events)
        n = 0
        while game.outcome is None and n < max_actions:
            action = next(iter(game.legal_actions()))
            game.push(action)
            n += 1
        cut += game.outcome is None
        actions += n
    return Run(games, actions, clock() - start, cut)


def random_playouts(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    *,
    undo: bool,
    max_actions: int,
    events: bool = False,
) -> Run:
    rng = random.Random(seed)
    actions = cut = 0
    start = clock()
    for i in range(games):
        game = Game.deal(rules, players, seed + i, undo=undo, events=events)
        n = 0
        while game.outcome is None and n < max_actions:
            action = rng.choice(list(game.legal_actions()))
            game.push(action)
            n += 1
        cut += game.outcome is None
        actions += n
    return Run(games, actions, clock() - start, cut)


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


def load_durakgame(args: argparse.Namespace) -> Any | None:
    """``benchmarks/durakgame_baseline.py`` with durakgame importable, or None (and a line
    saying why)."""
    try:
        import durakgame_baseline as baseline
    except ImportError as exc:  # the file is missing
        print(f"(d) durakgame: comparison skipped, benchmarks/durakgame_baseline.py: {exc}")
        return None
    if args.durakgame_venv:
        baseline.use_venv(args.durakgame_venv)
    try:
        baseline.run_durakgame(1, args.seed)
    except RuntimeError:
        print(
            "(d) durakgame: not importable, comparison skipped "
            f"(it is no project dependency; to compare: {DURAKGAME_INSTALL}, "
            "or --durakgame-venv DIR)"
        )
        return None
    return baseline


def durakgame_comparison(
    args: argparse.Namespace, ours: Callable[[int], Run], ours_undo: Callable[[int], Run]
) -> float | None:
    """Ours and durakgame measured alternately, repetition by repetition, so that the load of
    a shared machine falls on both alike; the best repetition of each is compared. Returns
    ours/durakgame in actions per second (playout mode), or None without durakgame."""
    baseline = load_durakgame(args)
    if baseline is None:
        return None

    def theirs(games: int) -> Run:
        played, actions, seconds = baseline.run_durakgame(games, args.seed, clock=clock)
        return Run(played, actions, seconds)

    runs = {
        "ours (playout mode)": ours,
        "ours with undo snapshots": ours_undo,
        "durakgame": theirs,
    }
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
    for name in ("ours (playout mode)", "ours with undo snapshots"):
        print(
            f"(d) ratio {name}/durakgame 1.0.4, 2p first-legal: "
            f"{best[name].actions_per_s / base.actions_per_s:.2f}x actions/s, "
            f"{best[name].games_per_s / base.games_per_s:.2f}x games/s",
            flush=True,
        )
    print(
        "(d) note: durakgame plays 36-card 2-player rules and counts a multi-card throw-in "
        "after a take as one action; its playouts have no undo and record no events",
        flush=True,
    )
    if not args.durakgame_random:
        print(
            "(d) durakgame random: skipped (durakgame 1.0.4 duplicates thrown-in cards after a "
            "take and then enumerates every throw-in subset, so random games run out of "
            "memory; see benchmarks/DURAKGAME_NOTES.md; --durakgame-random runs it in a "
            "capped subprocess)"
        )
    else:
        durakgame_random(args)
    return best["ours (playout mode)"].actions_per_s / base.actions_per_s


def durakgame_random(args: argparse.Namespace) -> None:
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
    if args.durakgame_venv:
        command += ["--venv", args.durakgame_venv]
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


# ---------------------------------------------------------------- refusals


def refusal_samples(
    rules: Rules, players: int, games: int, seed: int
) -> tuple[list[tuple[Game, Action]], list[tuple[Game, Action]]]:
    """(game, action) pairs from random games: every legal action of each position, and as
    many refused ones (leads, throw-ins, beats, takes and passes by every seat)."""
    from durak_core import Action

    rng = random.Random(seed)
    legal: list[tuple[Game, Action]] = []
    illegal: list[tuple[Game, Action]] = []
    for i in range(games):
        game = Game.deal(rules, players, seed + i, undo=False, events=False)
        while game.outcome is None:
            actions = list(game.legal_actions())
            here = game.copy(undo=False, events=False)
            legal += [(here, a) for a in actions]
            candidates = []
            table = [a for a, _ in game.table]
            for seat in range(players):
                for card in game.hand(seat)[:3]:
                    candidates += [Action.lead(seat, card), Action.throw(seat, card)]
                    if table:
                        candidates.append(Action.beat(seat, card, table[0]))
                candidates += [Action.take(seat), Action.pass_(seat)]
            refused = [a for a in candidates if not game.is_legal(a)]
            illegal += [(here, a) for a in rng.sample(refused, min(len(refused), len(actions)))]
            game.push(rng.choice(actions))
    return legal, illegal


def refusal_cost(args: argparse.Namespace) -> None:
    """``is_legal`` per second on legal and on illegal actions (best of ``--repeat``)."""
    legal, illegal = refusal_samples(Rules.preset("classic"), 2, 60, args.seed)

    def rate(pairs: list[tuple[Game, Action]]) -> float:
        best = float("inf")
        for _ in range(max(args.repeat, 3)):
            start = clock()
            for game, action in pairs:
                game.is_legal(action)
            best = min(best, clock() - start)
        return len(pairs) / best

    ok, refused = rate(legal), rate(illegal)
    print(
        f"(r) refusal checks, 2p classic: is_legal {ok:,.0f}/s on {len(legal):,} legal actions, "
        f"{refused:,.0f}/s on {len(illegal):,} illegal ones (legal/illegal time "
        f"{ok / refused:.2f}x)",
        flush=True,
    )


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
    start = clock()
    for i in range(total):
        game = Game.deal(rules, 2, args.seed + i)
        while game.outcome is None:
            game.push(rng.choice(list(game.legal_actions())))
            actions += 1
        del game
        if i + 1 == checkpoint:
            first = snapshot()
    seconds = clock() - start
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


# ---------------------------------------------------------------- search


def search_playouts(
    observations: list[Observation], count: int, seed: int, max_actions: int
) -> Run:
    """``count`` searches: a world sampled from an observation (in turn), played out at
    random."""
    from durak_core import determinize

    rng = random.Random(seed)
    actions = cut = 0
    start = clock()
    for i in range(count):
        world = determinize(observations[i % len(observations)], rng, undo=False, events=False)
        n = 0
        while world.outcome is None and n < max_actions:
            world.push(rng.choice(list(world.legal_actions())))
            n += 1
        cut += world.outcome is None
        actions += n
    return Run(count, actions, clock() - start, cut)


def search_speed(args: argparse.Namespace) -> None:
    """Determinize a seat's observation and play the world out at random, per second: the
    inner loop of a search that "deals the unseen cards in its head in several ways and plays
    each out" (S1). Observations are taken once, after 10 random actions of each of 20 games,
    for the seat to move; the worlds are fast playout games (``undo=False, events=False``)."""
    try:
        from durak_core import determinize, observe  # noqa: F401 (determinize: its presence)
    except ImportError:
        print("(s) search: determinize not available", flush=True)
        return
    for label, rules, players in (
        ("2p classic", Rules.preset("classic"), 2),
        ("4p classic+transfer", Rules.preset("classic").replace(transfer=True), 4),
    ):
        rng = random.Random(args.seed)
        observations = []
        for i in range(20):
            game = Game.deal(rules, players, args.seed + i, undo=False, events=False)
            for _ in range(10):
                if game.outcome is not None:
                    break
                game.push(rng.choice(list(game.legal_actions())))
            if game.outcome is None:
                seat = game.current_player()
                assert seat is not None
                observations.append(observe(game, seat))

        def searches(count: int, observations: list[Observation] = observations) -> Run:
            return search_playouts(observations, count, args.seed, args.max_actions)

        count = games_for(searches, args.seconds, args.games)
        best = best_of(searches, count, args.repeat)
        cut = f", {best.cut} cut at {args.max_actions} actions" if best.cut else ""
        print(
            f"(s) search, {label}: determinize + random playout to the end: {best.games:,} "
            f"in {best.seconds:.2f} s -> {best.games_per_s:,.0f} per second "
            f"({best.actions / best.games:.1f} actions each, {best.actions_per_s:,.0f} "
            f"actions/s{cut})",
            flush=True,
        )


# ---------------------------------------------------------------- A/B: another checkout


AB_WORKLOADS: dict[str, tuple[str, bool]] = {
    "playout": ("playout mode (no undo, no events)", False),
    "undo": ("with undo snapshots (no events)", True),
}
"""The A/B workloads: 2-player classic first-legal playouts, name -> (label, ``undo``)."""


def ab_playouts(workload: str, games: int, seed: int, max_actions: int) -> Run:
    """One A/B measurement: ``games`` 2-player classic first-legal playouts (seeds ``seed``
    ..), of the workload ``workload`` (:data:`AB_WORKLOADS`). This tree (in the benchmark's
    process) and every worker (the baseline tree, the A/A child) run this very function, so
    only the engine under it differs; it uses long-standing API only (``Rules.preset``,
    ``Game.deal(..., undo=, events=)``, ``legal_actions``, ``push``, ``outcome``)."""
    undo = AB_WORKLOADS[workload][1]
    rules = Rules.preset("classic")
    return first_legal_playouts(rules, 2, games, seed, undo=undo, max_actions=max_actions)


def worker() -> int:
    """``engine.py --worker``: the child process of the A/B mode. Its first line on stdout is
    a JSON object naming the ``durak_core`` it imported (``PYTHONPATH`` chooses the tree) and
    any missing API; then, for every JSON request read from stdin (``workload``, ``games``,
    ``seed``, ``max_actions``, ``clock``), one line with the :class:`Run` as JSON, timed by
    this process's own clock. It ends at the end of its input."""
    import inspect

    global clock
    parameters = inspect.signature(Game.deal).parameters
    missing = [name for name in ("undo", "events") if name not in parameters]
    problem = (
        f"Game.deal has no {' or '.join(name + '=' for name in missing)} keyword "
        "(the A/B workloads need undo= and events=)"
        if missing
        else ""
    )
    hello = {"durak_core": durak_core.__file__, "version": __version__, "problem": problem}
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        clock = CLOCKS[request["clock"]]
        run = ab_playouts(
            request["workload"], request["games"], request["seed"], request["max_actions"]
        )
        print(json.dumps(run._asdict()), flush=True)
    return 0


def imported_from(tree: Path, file: str | None) -> str:
    """An error message if ``file`` (a ``durak_core.__file__``) is not ``tree``'s
    ``durak_core/__init__.py``, else ''."""
    expected = (tree / "durak_core" / "__init__.py").resolve()
    found = Path(file).resolve() if file else None
    if found == expected:
        return ""
    return f"durak_core was imported from {found}, not from {expected}"


class Worker:
    """A child ``engine.py --worker`` (this file) whose ``durak_core`` is ``tree``'s alone:
    ``PYTHONPATH=tree``, which comes before the virtual environment's editable install of
    this tree; what it imported is checked, and a wrong tree stops the run."""

    def __init__(self, tree: Path, label: str) -> None:
        self.tree = tree
        self.label = label
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "engine.py"), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=str(tree)),
            cwd=tree,
        )
        hello = self._read()
        wrong = imported_from(tree, hello.get("durak_core"))
        if wrong:
            self.close()
            raise SystemExit(
                f"error: the {label} worker (PYTHONPATH={tree}): {wrong}; "
                "its figures would not be that tree's"
            )
        if hello.get("problem"):
            self.close()
            raise SystemExit(f"error: the {label} tree {tree} is too old: {hello['problem']}")
        self.version = str(hello.get("version", "?"))
        self.file = str(hello["durak_core"])

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout

    def _read(self) -> dict[str, Any]:
        line = self._pipes()[1].readline()
        if not line:
            code = self.process.wait()
            raise SystemExit(
                f"error: the {self.label} worker (durak_core from {self.tree}) stopped with "
                f"exit code {code}; its error, if any, is above"
            )
        answer: dict[str, Any] = json.loads(line)
        return answer

    def run(self, workload: str, games: int, args: argparse.Namespace) -> Run:
        request = {
            "workload": workload,
            "games": games,
            "seed": args.seed,
            "max_actions": args.max_actions,
            "clock": args.clock,
        }
        stdin = self._pipes()[0]
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
        return Run(**self._read())

    def close(self) -> None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def commit_of(tree: Path) -> str:
    """``tree``'s commit (``git describe --always --dirty``), or '' outside git."""
    try:
        done = subprocess.run(
            ["git", "-C", str(tree), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def spread(values: list[float]) -> str:
    return f"{min(values):.3f}-{max(values):.3f}"


def ab_comparison(args: argparse.Namespace) -> int:
    """This tree (after) against ``--baseline-tree`` (before), and against itself (A/A):
    paired repetitions, median ratios; the last line is the headline."""
    base = Path(args.baseline_tree).expanduser().resolve()
    if not (base / "durak_core" / "__init__.py").is_file():
        raise SystemExit(
            f"error: --baseline-tree {base}: no durak_core/__init__.py there (make a baseline "
            f"tree with: git -C {ROOT} worktree add /tmp/base HEAD~1)"
        )
    wrong = imported_from(ROOT, durak_core.__file__)
    if wrong:  # e.g. PYTHONPATH set to the baseline for this process too
        raise SystemExit(f"error: this process (this tree, {ROOT}): {wrong}")
    repeat = args.repeat
    workers: list[Worker] = []

    def spawn() -> tuple[Worker, Worker]:
        """Fresh children, warmed up: the baseline's and this tree's (A/A)."""
        for child in workers:
            child.close()
        workers.clear()
        workers.append(Worker(base, "baseline"))
        workers.append(Worker(ROOT, "A/A"))
        for child in workers:
            for workload in AB_WORKLOADS:
                child.run(workload, 20, args)
        return workers[0], workers[1]

    try:
        before, same = spawn()
        ours_commit, base_commit = (f" at {c}" if c else "" for c in map(commit_of, (ROOT, base)))
        print(
            f"after: this tree{ours_commit}, durak_core {__version__} ({durak_core.__file__}), "
            f"in this process; before: baseline tree{base_commit}, durak_core {before.version} "
            f"({before.file}), in a child process; A/A: this tree in a child process (fresh "
            f"children every repetition). Python {platform.python_version()} "
            f"({platform.python_implementation()}), seed {args.seed}, {repeat} paired "
            f"repetitions, {args.clock} clock",
            flush=True,
        )
        if base == ROOT:
            print("(ab) note: the baseline tree is this tree: after/before is an A/A run too")

        sizes: dict[str, int] = {}
        for workload in AB_WORKLOADS:

            def ours(games: int, workload: str = workload) -> Run:
                return ab_playouts(workload, games, args.seed, args.max_actions)

            ours(20)  # warm-up, as for the children (games_for skips its own with --games)
            sizes[workload] = games_for(ours, args.seconds, args.games)
        dg: Any = load_durakgame(args)
        durakgame: Callable[[int], Run] | None = None
        dg_games = 0
        if dg is not None:

            def durakgame(games: int) -> Run:
                played, actions, seconds = dg.run_durakgame(games, args.seed, clock=clock)
                return Run(played, actions, seconds)

            dg_games = games_for(durakgame, args.seconds, args.games)

        pairs = ("before", "A/A")
        rates: dict[str, dict[str, list[float]]] = {
            w: {"after": [], "before": [], "A/A": []} for w in AB_WORKLOADS
        }
        ratios: dict[str, dict[str, list[float]]] = {
            w: {p: [] for p in pairs} for w in AB_WORKLOADS
        }
        runs: dict[str, dict[str, Run]] = {w: {} for w in AB_WORKLOADS}
        dg_rates: list[float] = []
        dg_ratios: list[float] = []
        for rep in range(repeat):
            if rep:
                before, same = spawn()
            children = {"before": before, "A/A": same}
            # A repetition runs, per workload, child then this tree for each pair (and
            # durakgame after the playout mode's); odd repetitions run it all backwards.
            steps: list[tuple[str, str, str]] = []
            for workload in AB_WORKLOADS:
                for pair in pairs:
                    steps += [(workload, pair, "theirs"), (workload, pair, "ours")]
                if workload == "playout" and durakgame is not None:
                    steps.append((workload, "durakgame", "theirs"))
            if rep % 2:
                steps.reverse()
            done: dict[tuple[str, str, str], Run] = {}
            for workload, who, side in steps:
                games = sizes[workload]
                if side == "ours":
                    result = ab_playouts(workload, games, args.seed, args.max_actions)
                elif who == "durakgame" and durakgame is not None:
                    result = durakgame(dg_games)
                else:
                    result = children[who].run(workload, games, args)
                done[workload, who, side] = result
            for workload in AB_WORKLOADS:
                for pair in pairs:
                    ours_run = done[workload, pair, "ours"]
                    theirs_run = done[workload, pair, "theirs"]
                    if pair == "A/A" and (theirs_run.actions, theirs_run.cut) != (
                        ours_run.actions,
                        ours_run.cut,
                    ):
                        raise SystemExit(
                            f"error: the A/A child played other games than this process "
                            f"({theirs_run.actions} vs {ours_run.actions} actions, "
                            f"{theirs_run.cut} vs {ours_run.cut} cut): the comparison is unsound"
                        )
                    runs[workload].setdefault("after", ours_run)
                    runs[workload].setdefault(pair, theirs_run)
                    rates[workload]["after"].append(ours_run.actions_per_s)
                    rates[workload][pair].append(theirs_run.actions_per_s)
                    ratios[workload][pair].append(ours_run.actions_per_s / theirs_run.actions_per_s)
            if durakgame is not None:  # next to it: this tree's run of the A/A pair
                dg_rates.append(done["playout", "durakgame", "theirs"].actions_per_s)
                dg_ratios.append(done["playout", "A/A", "ours"].actions_per_s / dg_rates[-1])

        headline = ""
        for workload, (label, _) in AB_WORKLOADS.items():
            after = runs[workload]["after"]
            cut = f", {after.cut} cut at {args.max_actions} actions" if after.cut else ""
            print(
                f"(ab) 2p classic first-legal, {label}: {after.games:,} games a run (seeds "
                f"{args.seed}..{args.seed + after.games - 1}), {after.actions:,} actions "
                f"({after.actions / after.games:.1f} a game{cut})",
                flush=True,
            )
            old = runs[workload]["before"]
            if (old.actions, old.cut) != (after.actions, after.cut):
                print(
                    f"(ab)   note: the baseline plays these deals differently ({old.actions:,} "
                    f"actions, {old.cut} cut): the ratios compare actions per second"
                )
            for name, where in (
                ("after", "this tree, this process"),
                ("before", "baseline tree, child process"),
                ("A/A", "this tree, child process"),
            ):
                values = rates[workload][name]
                print(
                    f"(ab)   {name + ':':7} {statistics.median(values):>11,.0f} actions/s median "
                    f"({min(values):,.0f}-{max(values):,.0f}; {where})",
                    flush=True,
                )
            ab, aa_ratios = ratios[workload]["before"], ratios[workload]["A/A"]
            median = statistics.median(ab)
            inside = min(aa_ratios) <= median <= max(aa_ratios)
            verdict = "within the A/A spread" if inside else "outside the A/A spread"
            print(
                f"(ab)   after/before {median:.3f}x (median of {len(ab)} paired ratios, "
                f"{spread(ab)}); A/A {statistics.median(aa_ratios):.3f}x ({spread(aa_ratios)}): "
                f"{verdict}",
                flush=True,
            )
            if workload == "playout":
                headline = (
                    f"after/before 2p first-legal: {median:.3f}x (A/A spread {spread(aa_ratios)})"
                )
        if dg_ratios:
            print(
                f"(ab) after/durakgame 1.0.4 2p first-legal, playout mode: "
                f"{statistics.median(dg_ratios):.2f}x (median of {len(dg_ratios)} paired "
                f"ratios, {min(dg_ratios):.2f}-{max(dg_ratios):.2f}; durakgame "
                f"{statistics.median(dg_rates):,.0f} actions/s median, {dg_games:,} games a run)",
                flush=True,
            )
    finally:
        for child in workers:
            child.close()
    print(headline)
    return 0


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
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="repetitions; the best counts (default 3; with --baseline-tree: paired "
        "repetitions, default 5, the median paired ratio counts)",
    )
    parser.add_argument("--max-actions", type=int, default=5000, help="cut a game after this")
    parser.add_argument(
        "--durakgame-random",
        action="store_true",
        help="also try durakgame's random playouts (in a memory-capped subprocess)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default=None,
        help="time by the wall clock, or by this process's CPU time (steadier on a loaded "
        "machine: it leaves out the time other processes hold the CPU); default: wall, and "
        "cpu with --baseline-tree",
    )
    parser.add_argument(
        "--baseline-tree",
        metavar="PATH",
        default="",
        help="A/B mode: measure only this tree against the durak_core of PATH, another "
        "checkout of this project (e.g. git worktree add /tmp/base HEAD~1), and against "
        "itself (A/A); see the module docstring",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--durakgame-venv",
        default=os.environ.get("DURAKGAME_VENV", ""),
        help="a virtual environment with durakgame installed (default: $DURAKGAME_VENV)",
    )
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="also trace allocated bytes in the memory measurement (about 5x slower)",
    )
    args = parser.parse_args(argv)
    if args.worker:
        return worker()
    if args.memory_games < 1:
        parser.error("--memory-games must be at least 1")
    if args.repeat is None:
        args.repeat = 5 if args.baseline_tree else 3
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.clock is None:
        args.clock = "cpu" if args.baseline_tree else "wall"
    global clock
    clock = CLOCKS[args.clock]
    if args.baseline_tree:
        return ab_comparison(args)

    print(
        f"durak_core {__version__}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), seed {args.seed}, best of {args.repeat}, "
        f"{args.clock} clock",
        flush=True,
    )
    classic = Rules.preset("classic")
    transfer = classic.replace(transfer=True)
    limit = args.max_actions

    def first2(games: int) -> Run:
        return first_legal_playouts(classic, 2, games, args.seed, undo=False, max_actions=limit)

    def first2_undo(games: int) -> Run:
        return first_legal_playouts(classic, 2, games, args.seed, undo=True, max_actions=limit)

    def first2_events(games: int) -> Run:
        return first_legal_playouts(
            classic, 2, games, args.seed, undo=False, max_actions=limit, events=True
        )

    def random2(games: int) -> Run:
        return random_playouts(classic, 2, games, args.seed, undo=False, max_actions=limit)

    def first4(games: int) -> Run:
        return first_legal_playouts(transfer, 4, games, args.seed, undo=False, max_actions=limit)

    def random4(games: int) -> Run:
        return random_playouts(transfer, 4, games, args.seed, undo=False, max_actions=limit)

    measure("(a) ours 2p classic first-legal, playout mode (no undo, no events)", first2, args)
    measure("(a) ours 2p classic first-legal, with undo snapshots (no events)", first2_undo, args)
    measure("(a) ours 2p classic first-legal, recording events (no undo)", first2_events, args)
    measure("(b) ours 2p classic random, playout mode", random2, args)
    measure("(c) ours 4p classic+transfer first-legal, playout mode", first4, args)
    measure("(c) ours 4p classic+transfer random, playout mode", random4, args)
    refusal_cost(args)
    ratio = durakgame_comparison(args, first2, first2_undo)
    memory_flatness(args)
    search_speed(args)
    if ratio is None:
        print("ours/durakgame 2p first-legal: n/a (durakgame not installed)")
    else:
        print(f"ours/durakgame 2p first-legal: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
