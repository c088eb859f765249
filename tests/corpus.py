"""One seeded corpus of games for the engine's property loops.

:data:`CONFIGS` names every rule set the loops cover: every preset of
:data:`durak_core.PRESETS` (one per source, S0–S4) and the variants their notes offer —
perevodnoy (S1, S2), the late swap rule, other deck sizes, teams of every shape and rotation
(S0, S2), Flash (S2), the misdeal on request (S2), 52 cards × 7 (S0), the dealer's left
leading (S0). :func:`games` plays
``SEEDS`` games of a configuration at every player count it allows, a seeded random legal
action at a time, and keeps each one's actions (cached: a test process plays each game once,
however many loops read it). :data:`CIRCLING` adds games where every seat takes whenever it
may: with three or four players the same cards go round the table until the repetition rule
(``Rules.repetition_limit``) calls a draw, which random play almost never reaches.

The loops replay a game with :func:`replay` (the actions through ``Game.play``) and check
their property at every position: the invariants (``tests/test_random_play.py``), refusals
without side effects (``tests/test_fuzz.py``), positions that round-trip
(``tests/test_position.py``), what each seat may know (``tests/test_observation.py``),
iterating while pushing (``tests/test_safe_iteration.py``), read-only views
(``tests/test_api_views.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Final

from durak_core import PRESETS, Action, ActionKind, Game, Rules

__all__ = ["CIRCLING", "CONFIGS", "SEEDS", "CorpusGame", "games", "replay"]

SEEDS: Final = 20
"""Random games per configuration and player count (1 880 games in all: every rule the
loops check comes up hundreds of times)."""
MAX_ACTIONS: Final = 5000
"""Random games end long before this (6-player games take < 1000 actions)."""

_VARIANTS: Final[dict[str, tuple[str, dict[str, object]]]] = {
    "classic+transfer": ("classic", {"transfer": True}),
    "matsuri+transfer": ("matsuri", {"transfer": True}),
    "wikipedia+transfer": ("wikipedia", {"transfer": True}),
    "wikihow_home+ace_only": ("wikihow_home", {"trump_swap": "ace_only"}),
    "durak_live_vecinos+24": ("durak_live_vecinos", {"deck_size": 24}),
    "durak_live_vecinos+52": ("durak_live_vecinos", {"deck_size": 52}),
    "durak_live_todos+24": ("durak_live_todos", {"deck_size": 24}),
    "durak_live_todos+52": ("durak_live_todos", {"deck_size": 52}),
    # teams (S0, S2), Flash (S2), the misdeal (S2), 52 cards × 7 (S0)
    "wikihow_home+2v2": ("wikihow_home", {"teams": "2v2"}),
    "wikihow_home+3v3": (
        "wikihow_home",
        {"teams": "3v3", "team_end": "single_loser", "deck_size": 52},
    ),
    "classic+3v3+single_loser": ("classic", {"teams": "3v3", "team_end": "single_loser"}),
    "wikipedia+2v2v2": ("wikipedia", {"teams": "2v2v2"}),
    "wikipedia+pairs": ("wikipedia", {"teams": "2v2", "team_rotation": "individual"}),
    "wikipedia+flash": ("wikipedia", {"transfer": True, "flash": True}),
    "matsuri+flash_per_bout": (
        "matsuri",
        {"transfer": True, "flash": True, "flash_reuse": "once_per_bout"},
    ),
    "wikipedia+misdeal": (
        "wikipedia",
        {"misdeal": "four_of_a_suit", "misdeal_mode": "on_request"},
    ),
    "wikipedia+misdeal_once": (
        "wikipedia",
        {"misdeal": "four_of_a_suit", "misdeal_mode": "on_request", "max_redeals": 1},
    ),
    # «pairs» with transfers (no transfer onto one's partner, S2) and S0's team turns
    "wikipedia+pairs+transfer": (
        "wikipedia",
        {"teams": "2v2", "team_rotation": "individual", "transfer": True, "flash": True},
    ),
    "wikihow_home+3v3+team_turns": (
        "wikihow_home",
        {"teams": "3v3", "team_rotation": "team_turns"},
    ),
    "wikihow_home+52x7": ("wikihow_home", {"deck_size": 52, "hand_size": 7, "min_players": 5}),
    # S0's option: the player on the dealer's left leads the first bout
    "wikihow_home+left_of_dealer": ("wikihow_home", {"first_attacker": "left_of_dealer"}),
}


def _configs() -> dict[str, Rules]:
    configs = {name: preset.rules for name, preset in PRESETS.items()}
    for name, (preset, changes) in _VARIANTS.items():
        configs[name] = PRESETS[preset].rules.replace(**changes)
    return configs


CONFIGS: Final = _configs()

CIRCLING: Final = ("classic",)
"""Configurations whose "takes" games (:func:`games` with ``takes=True``) are in the corpus
too: 3 and 4 players, every seat taking whenever it may and otherwise playing its first legal
action, so that the same cards go round the table until the repetition rule
(``Rules.repetition_limit``) calls a draw."""
_TAKES_CUT: Final = 1000
"""A "takes" game still going after this many actions is left out (most circle longer)."""


@dataclass(frozen=True)
class CorpusGame:
    """One game of the corpus: how it was dealt and every action played."""

    config: str
    players: int
    seed: int
    actions: tuple[Action, ...]

    @property
    def rules(self) -> Rules:
        return CONFIGS[self.config]

    def deal(self) -> Game:
        return Game.deal(self.rules, self.players, seed=self.seed)

    def __str__(self) -> str:
        return f"{self.config} {self.players}p seed {self.seed}"


@cache
def games(config: str, *, takes: bool = False) -> tuple[CorpusGame, ...]:
    """``SEEDS`` seeded games of ``config`` at each player count it allows, a random legal
    action at a time; or with ``takes`` (:data:`CIRCLING`) the "takes" games of 3 and 4
    players, seeds 0-5, that end within a thousand actions. Played once per process."""
    rules = CONFIGS[config]
    played: list[CorpusGame] = []
    counts = [n for n in (3, 4) if n in rules.player_counts()] if takes else None
    for players in counts or rules.player_counts():
        for seed in range(6 if takes else SEEDS):
            game = Game.deal(rules, players, seed=seed, undo=False, events=False)  # playouts
            rng = random.Random(f"{config}/{players}/{seed}")
            while game.outcome is None:
                legal = list(game.legal_actions())
                assert legal, f"{config} {players}p seed {seed}: stuck at {game!r}"
                game.play(_take_first(legal) if takes else rng.choice(legal))
                if takes and len(game.history) > _TAKES_CUT:
                    break
                assert len(game.history) <= MAX_ACTIONS, f"{config} {players}p seed {seed}"
            if game.outcome is not None:
                played.append(CorpusGame(config, players, seed, tuple(game.history)))
    return tuple(played)


def _take_first(legal: list[Action]) -> Action:
    return next((a for a in legal if a.kind is ActionKind.TAKE), legal[0])


def replay(corpus_game: CorpusGame) -> Iterator[Game]:
    """The game at each position, from the deal to the end (the same ``Game``, moved on
    after each yield: read it, or copy it, before asking for the next)."""
    game = corpus_game.deal()
    yield game
    for action in corpus_game.actions:
        game.play(action)
        yield game
