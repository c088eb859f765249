"""Baseline throughput of the PyPI package ``durakgame`` (version 1.0.4).

``durakgame`` is *not* a dependency of this project; it is only used here as a
point of comparison for ``durak_core``.  Install it into whatever environment
runs the benchmark::

    pip install durakgame==1.0.4

Protocol (see ``DURAKGAME_NOTES.md`` for the measured figures):

* 2 players, 36-card deck, 6-card hands (``durakgame`` defaults).
* Each game gets a fresh deck ``durakgame.standardDeck()`` shuffled by a
  private ``random.Random(seed)`` and passed in via ``DeckShuffle.custom``, so
  runs are deterministic for a given seed and the global ``random`` module is
  never touched.
* Each game is played with ``durakgame.play(p1, p2, ...)``, i.e. the library's
  own game loop (``Game.kickoff``).
* An *action* is one decision: one call of ``Player.nextMove(state, options)``
  that picks one option.  ``kickoff`` appends exactly one move to the game
  history per call, so actions per game = ``len(h.p1Moves) + len(h.p2Moves)``.
* "first legal" = the library's ``MrFirst`` agent (always option index 0).
  "random" = MrRandom's rule (``randint(0, len(options) - 1)``) but drawn from
  the private seeded RNG instead of the global one.
* Elapsed time is wall-clock ``time.perf_counter()`` (or the ``clock`` passed in)
  around the whole loop (deck construction + shuffle + game setup + playout).

WARNING for random play: durakgame 1.0.4 has a card-duplication bug -- its
``FinishingMove`` (throwing extra cards at a defender who took) adds the tossed
cards to the defender's hand but never removes them from the attacker's hand.
In random play hands therefore grow past 36 cards, and because the attacker's
legal moves after a take are *every subset* (up to 5 cards) of its matching
cards, the option list explodes combinatorially (hundreds of thousands to
millions of ``FinishingMove`` objects per decision).  Random playouts thus
slow down and eat memory without bound; ``run_durakgame_random`` takes a
``time_budget_s`` to stop early, but a single ``generateOptions`` call cannot
be interrupted, so run it in a separate process with a timeout / memory limit.
First-legal play is unaffected (option 0 of a throw-in is the empty toss).
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable
from typing import Any

DURAKGAME_REQUIREMENT = "durakgame==1.0.4"
_EXPECTED_VERSION = "1.0.4"

__all__ = [
    "DURAKGAME_REQUIREMENT",
    "durakgame_random_stats",
    "run_durakgame",
    "run_durakgame_random",
    "use_venv",
]


class _BudgetExceeded(Exception):
    """Raised from inside a player to abandon the current game."""


def use_venv(venv: str) -> None:
    """Also look for durakgame in the virtual environment ``venv`` (e.g. a throwaway one:
    ``python3 -m venv /tmp/dg && /tmp/dg/bin/pip install durakgame==1.0.4``), or in ``venv``
    itself when it is a ``site-packages`` directory. Its Python must match ours (X.Y)."""
    import sys
    from pathlib import Path

    root = Path(venv)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for site in (root, root / "lib" / version / "site-packages"):
        if (site / "durakgame").is_dir() and str(site) not in sys.path:
            sys.path.append(str(site))
            return


def _import_durakgame() -> Any:
    """Import durakgame lazily; raise a clear RuntimeError if it is missing."""
    try:
        import durakgame
    except ImportError as exc:
        raise RuntimeError(
            "The comparison baseline needs the PyPI package durakgame, which is "
            "not a dependency of this project. Install it with: "
            f"pip install {DURAKGAME_REQUIREMENT}"
        ) from exc
    try:
        from importlib.metadata import version

        installed = version("durakgame")
    except Exception:  # pragma: no cover - metadata missing (vendored copy?)
        installed = None
    if installed is not None and installed != _EXPECTED_VERSION:
        warnings.warn(
            f"durakgame {installed} is installed; the baseline was written for "
            f"{_EXPECTED_VERSION} (pip install {DURAKGAME_REQUIREMENT})",
            RuntimeWarning,
            stacklevel=3,
        )
    return durakgame


def _shuffled_deck(dg: Any, rng: random.Random) -> list:
    deck = dg.standardDeck()
    rng.shuffle(deck)
    return deck


def run_durakgame(
    games: int, seed: int, *, clock: Callable[[], float] = time.perf_counter
) -> tuple[int, int, float]:
    """Play ``games`` 2-player games where every decision takes option 0.

    Uses durakgame's own ``MrFirst`` agent for both seats.  The only
    randomness is the deck order, drawn from ``random.Random(seed)``.

    Returns ``(games_played, total_actions, elapsed_seconds)``, elapsed by ``clock``.
    """
    dg = _import_durakgame()
    play, MrFirst = dg.play, dg.MrFirst
    custom = dg.DeckShuffle.custom
    rng = random.Random(seed)

    actions = 0
    start = clock()
    for _ in range(games):
        deck = _shuffled_deck(dg, rng)
        history = play(MrFirst(), MrFirst(), custom, customDeck=deck)
        actions += len(history.p1Moves) + len(history.p2Moves)
    elapsed = clock() - start
    return games, actions, elapsed


def durakgame_random_stats(
    games: int,
    seed: int,
    *,
    time_budget_s: float | None = None,
    move_limit: int | None = None,
) -> dict[str, Any]:
    """Random-choice playouts with diagnostics (see module docstring warning).

    Both seats pick ``rng.randint(0, len(options) - 1)`` (MrRandom's rule)
    from one ``random.Random(seed)`` that also shuffles the decks.

    ``time_budget_s``: checked before every decision; when exceeded the game
    in progress is abandoned (not counted) and the run stops.
    ``move_limit``: forwarded to ``durakgame.play(moveLimit=...)``; games cut
    by it are counted as ``truncated_games`` (durakgame stops after
    ``2 * move_limit`` decisions).

    Returns a dict with games_played (completed or move-limit-truncated
    games), total_actions (in those games), elapsed_s (including any
    abandoned game), abandoned (bool), truncated_games, max_options (largest
    option list offered at one decision), max_hand (largest hand seen by a
    deciding player) and max_actions_in_game.
    """
    dg = _import_durakgame()
    play, Player = dg.play, dg.Player
    custom = dg.DeckShuffle.custom
    GameResult = dg.GameResult
    rng = random.Random(seed)
    randint = rng.randint
    perf_counter = time.perf_counter
    stats = {"max_options": 0, "max_hand": 0}
    deadline: list[float | None] = [None]

    class _SeededRandom(Player):  # MrRandom, but with a private RNG
        def nextMove(self, state: Any, options: list) -> int:
            n = len(options)
            if n > stats["max_options"]:
                stats["max_options"] = n
            if len(self.hand) > stats["max_hand"]:
                stats["max_hand"] = len(self.hand)
            if deadline[0] is not None and perf_counter() > deadline[0]:
                raise _BudgetExceeded
            return randint(0, n - 1)

    played = actions = truncated = max_in_game = 0
    abandoned = False
    start = perf_counter()
    if time_budget_s is not None:
        deadline[0] = start + time_budget_s
    for _ in range(games):
        deck = _shuffled_deck(dg, rng)
        try:
            history = play(
                _SeededRandom(),
                _SeededRandom(),
                custom,
                customDeck=deck,
                moveLimit=move_limit,
            )
        except _BudgetExceeded:
            abandoned = True
            break
        n = len(history.p1Moves) + len(history.p2Moves)
        actions += n
        played += 1
        max_in_game = max(max_in_game, n)
        if history.result is GameResult.Unfinished:
            truncated += 1
    elapsed = perf_counter() - start
    return {
        "games_played": played,
        "total_actions": actions,
        "elapsed_s": elapsed,
        "abandoned": abandoned,
        "truncated_games": truncated,
        "max_options": stats["max_options"],
        "max_hand": stats["max_hand"],
        "max_actions_in_game": max_in_game,
    }


def run_durakgame_random(
    games: int,
    seed: int,
    *,
    time_budget_s: float | None = None,
    move_limit: int | None = None,
) -> tuple[int, int, float]:
    """Random-choice counterpart of :func:`run_durakgame`.

    Returns ``(games_played, total_actions, elapsed_seconds)``; with a
    ``time_budget_s`` the run may stop early, so ``games_played`` can be
    smaller than ``games``.  Read the module docstring before running this
    without a budget: durakgame 1.0.4 can blow up in random play.
    """
    s = durakgame_random_stats(games, seed, time_budget_s=time_budget_s, move_limit=move_limit)
    return s["games_played"], s["total_actions"], s["elapsed_s"]


def _report(label: str, games: int, actions: int, elapsed: float) -> None:
    print(
        f"{label}: {games} games, {actions} actions in {elapsed:.3f}s -> "
        f"{games / elapsed:,.0f} games/s, {actions / elapsed:,.0f} actions/s, "
        f"{actions / max(games, 1):.1f} actions/game"
    )


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--random",
        action="store_true",
        help="also run random-choice playouts (bounded by --budget seconds)",
    )
    parser.add_argument("--budget", type=float, default=30.0)
    parser.add_argument("--venv", default="", help="a virtual environment with durakgame")
    parser.add_argument(
        "--mem-cap-mb",
        type=int,
        default=2048,
        help="RLIMIT_AS cap applied before random playouts (0 = none)",
    )
    args = parser.parse_args(argv)
    if args.venv:
        use_venv(args.venv)

    try:
        g, a, t = run_durakgame(args.games, args.seed)
    except RuntimeError as exc:
        print(exc)
        return 2
    _report("durakgame first-legal", g, a, t)
    if args.random:
        if args.mem_cap_mb > 0:
            try:
                import resource

                cap = args.mem_cap_mb * 2**20
                resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            except (ImportError, ValueError, OSError) as exc:
                print(f"  (could not cap memory: {exc})")
        try:
            s = durakgame_random_stats(args.games, args.seed, time_budget_s=args.budget)
        except MemoryError:
            print(
                f"durakgame random: MemoryError (cap {args.mem_cap_mb} MiB) -- "
                "durakgame 1.0.4 duplicates thrown-in cards and then enumerates "
                "every throw-in subset; see DURAKGAME_NOTES.md"
            )
            s = None
        if s is not None:
            _report(
                "durakgame random",
                s["games_played"],
                s["total_actions"],
                s["elapsed_s"],
            )
            print(
                f"  abandoned={s['abandoned']} max_options={s['max_options']} "
                f"max_hand={s['max_hand']} (a legal game never exceeds 36 cards)"
            )
    # Headline figure last (benchmarks/README.md convention).
    print(f"durakgame first-legal actions/s: {a / t:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
