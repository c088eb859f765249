"""Bulk random play: every preset (and the variants its notes offer) × every player count it
allows × many seeds, checking the card invariants after every action and the outcome of every
game, and collecting statistics: draws happen, transfers happen where allowed, swaps happen
where allowed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache

import pytest

from durak_core import (
    PRESETS,
    ActionKind,
    EventKind,
    Game,
    Misdeal,
    MisdealMode,
    Rules,
    TeamEnd,
    Teams,
    TrumpSwap,
    make_deck,
    team_of,
)

from .helpers import check_invariants

SEEDS = 40
#: Random games end long before this (6-player games take < 1000 actions).
MAX_ACTIONS = 5000


def _configs() -> dict[str, Rules]:
    configs = {name: preset.rules for name, preset in PRESETS.items()}
    variants = {
        "classic+transfer": ("classic", {"transfer": True}),
        "matsuri+transfer": ("matsuri", {"transfer": True}),
        "wikipedia+transfer": ("wikipedia", {"transfer": True}),
        "wikihow_home+ace_only": ("wikihow_home", {"trump_swap": "ace_only"}),
        "durak_live_vecinos+24": ("durak_live_vecinos", {"deck_size": 24}),
        "durak_live_vecinos+52": ("durak_live_vecinos", {"deck_size": 52}),
        "durak_live_todos+24": ("durak_live_todos", {"deck_size": 24}),
        # issue 12: teams (S0, S2), Flash (S2), the misdeal (S2), 52 cards × 7 (S0)
        "wikihow_home+2v2": ("wikihow_home", {"teams": "2v2"}),
        "wikihow_home+3v3": (
            "wikihow_home",
            {"teams": "3v3", "team_end": "single_loser", "deck_size": 52},
        ),
        "wikipedia+2v2v2": ("wikipedia", {"teams": "2v2v2"}),
        "wikipedia+pairs": ("wikipedia", {"teams": "2v2", "team_rotation": "individual"}),
        "wikipedia+flash": ("wikipedia", {"transfer": True, "flash": True}),
        "wikipedia+misdeal": (
            "wikipedia",
            {"misdeal": "four_of_a_suit", "misdeal_mode": "on_request"},
        ),
        "wikihow_home+52x7": ("wikihow_home", {"deck_size": 52, "hand_size": 7, "min_players": 5}),
    }
    for name, (preset, changes) in variants.items():
        configs[name] = PRESETS[preset].rules.replace(**changes)
    return configs


CONFIGS = _configs()


@dataclass
class Stats:
    games: int = 0
    draws: int = 0
    actions: int = 0
    longest: int = 0
    kinds: dict[ActionKind, int] = field(default_factory=lambda: dict.fromkeys(ActionKind, 0))
    duraks_by_players: dict[int, int] = field(default_factory=dict)


def check_outcome(game: Game, universe: list) -> None:
    """The game is over with a durak who holds cards while everybody else is out, or a draw."""
    outcome = game.outcome
    assert outcome is not None
    s = game.state
    assert not list(game.legal_actions())
    assert not s.stock and not s.attacks
    last = game.events[-1]
    assert last.kind is EventKind.GAME_OVER
    assert last.seat == outcome.durak
    if outcome.repeated:
        # the repetition rule (Rules.repetition_limit): a draw with cards still in hand
        assert outcome.is_draw and not outcome.losers and last.detail == "repetition"
        assert s.seen.count(s.seen[-1]) == game.rules.repetition_limit
        assert sum(map(bool, s.hands)) >= 2
    elif outcome.durak is None:
        assert outcome.is_draw
        assert not any(s.active), "a draw, but someone is still in"
        assert not any(s.hands)
        assert sorted(outcome.out_order) == list(range(game.players))
        assert sorted(s.discard) == sorted(universe)
    elif game.rules.teams is not Teams.NONE and game.rules.team_end is TeamEnd.TEAM_LOSES:
        # S0 (ii), S2: the game ends when only one team holds cards; that whole team loses
        team = team_of(game.rules.teams, game.players)
        assert team is not None
        durak = outcome.durak
        assert s.active[durak] and s.hands[durak], "the durak must be left holding cards"
        assert set(outcome.losers) == {i for i in range(game.players) if team[i] == team[durak]}
        holding = [seat for seat in range(game.players) if s.active[seat]]
        assert {team[seat] for seat in holding} == {team[durak]}
        assert sorted(outcome.out_order + tuple(holding)) == list(range(game.players))
    else:
        durak = outcome.durak
        assert 0 <= durak < game.players
        assert s.active[durak] and s.hands[durak], "the durak must be left holding cards"
        others = [seat for seat in range(game.players) if seat != durak]
        assert not any(s.active[seat] or s.hands[seat] for seat in others)
        assert sorted(outcome.out_order) == others
        assert outcome.losers == (durak,)


@cache
def run(config: str) -> Stats:
    """Play ``SEEDS`` random games per player count of one configuration (cached)."""
    rules = CONFIGS[config]
    universe = make_deck(rules.deck_size)
    stats = Stats()
    for players in rules.player_counts():
        for seed in range(SEEDS):
            game = Game.deal(rules, players, seed=seed)
            rng = random.Random(seed)
            check_invariants(game, universe)
            steps = 0
            while game.outcome is None:
                legal = list(game.legal_actions())
                assert legal, f"{config} {players}p seed {seed}: stuck at {game!r}"
                # whose turn it is, found without generating: the same seats, the same first
                assert game.acting_seats() == sorted({a.seat for a in legal})
                assert game.current_player() == legal[0].seat
                action = rng.choice(legal)
                game.play(action)
                check_invariants(game, universe)
                stats.kinds[action.kind] += 1
                steps += 1
                assert steps <= MAX_ACTIONS, f"{config} {players}p seed {seed}: no end"
            check_outcome(game, universe)
            assert game.acting_seats() == [] and game.current_player() is None
            stats.games += 1
            stats.actions += steps
            stats.longest = max(stats.longest, steps)
            if game.outcome.is_draw:
                stats.draws += 1
            else:
                stats.duraks_by_players[players] = stats.duraks_by_players.get(players, 0) + 1
    return stats


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_random_games_end_properly(config: str) -> None:
    rules = CONFIGS[config]
    stats = run(config)
    assert stats.games == SEEDS * len(rules.player_counts())
    assert stats.kinds[ActionKind.LEAD] > 0 and stats.kinds[ActionKind.TAKE] > 0
    assert stats.kinds[ActionKind.BEAT] > 0 and stats.kinds[ActionKind.THROW] > 0
    assert stats.kinds[ActionKind.PASS] > 0
    if rules.transfer:
        assert stats.kinds[ActionKind.TRANSFER] > 0, "transfer is on but nobody transferred"
    else:
        assert stats.kinds[ActionKind.TRANSFER] == 0
    if rules.flash:
        assert stats.kinds[ActionKind.FLASH] > 0, "Flash is on but nobody flashed"
    else:
        assert stats.kinds[ActionKind.FLASH] == 0
    if rules.misdeal is not Misdeal.OFF and rules.misdeal_mode is MisdealMode.ON_REQUEST:
        assert stats.kinds[ActionKind.REDEAL] > 0, "nobody asked for a new deal"
    else:
        assert stats.kinds[ActionKind.REDEAL] == 0
    if rules.trump_swap is not TrumpSwap.OFF:
        assert stats.kinds[ActionKind.SWAP] > 0, "the swap is on but nobody swapped"
    else:
        assert stats.kinds[ActionKind.SWAP] == 0


def test_across_the_run_draws_and_duraks_both_happen() -> None:
    total = Stats()
    for config in CONFIGS:
        stats = run(config)
        total.games += stats.games
        total.draws += stats.draws
        total.actions += stats.actions
        total.longest = max(total.longest, stats.longest)
    assert total.games > 1000
    assert 0 < total.draws < total.games, f"{total.draws} draws in {total.games} games"
    assert total.longest < MAX_ACTIONS
