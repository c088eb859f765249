"""Bulk random play: every preset (and the variants its notes offer) × every player count it
allows × many seeds, checking the card invariants after every action and the outcome of every
game, and collecting statistics: draws happen, transfers happen where allowed, swaps happen
where allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import pytest

from durak_core import (
    ActionKind,
    EventKind,
    Game,
    Misdeal,
    MisdealMode,
    TeamEnd,
    Teams,
    TrumpSwap,
    make_deck,
    team_of,
)

from . import corpus
from .helpers import check_invariants

CONFIGS = corpus.CONFIGS
SEEDS = corpus.SEEDS
MAX_ACTIONS = corpus.MAX_ACTIONS


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


def check_game(corpus_game: corpus.CorpusGame) -> Game:
    """Replay one game of the corpus with the checks after every action; the game at its end."""
    universe = make_deck(corpus_game.rules.deck_size)
    game = corpus_game.deal()
    check_invariants(game, universe)
    for action in corpus_game.actions:
        legal = list(game.legal_actions())
        assert action in legal, f"{corpus_game}: {action} is not legal at {game!r}"
        # whose turn it is, found without generating: the same seats, the same first
        assert game.acting_seats() == sorted({a.seat for a in legal})
        assert game.current_player() == legal[0].seat
        game.play(action)
        check_invariants(game, universe)
    check_outcome(game, universe)
    assert game.acting_seats() == [] and game.current_player() is None
    return game


@cache
def run(config: str) -> Stats:
    """Replay the corpus's random games of one configuration with the checks (cached)."""
    stats = Stats()
    for corpus_game in corpus.games(config):
        game = check_game(corpus_game)
        for action in corpus_game.actions:
            stats.kinds[action.kind] += 1
        steps = len(corpus_game.actions)
        stats.games += 1
        stats.actions += steps
        stats.longest = max(stats.longest, steps)
        assert game.outcome is not None
        if game.outcome.is_draw:
            stats.draws += 1
        else:
            players = corpus_game.players
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
    # a swap needs a stock: 36 cards dealt to six players leave none (the dealer keeps the
    # shown card)
    stock_left = any(rules.deck_size > n * rules.hand_size for n in rules.player_counts())
    if rules.trump_swap is not TrumpSwap.OFF and stock_left:
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


@pytest.mark.parametrize("config", corpus.CIRCLING)
def test_games_that_go_round_in_circles_end_in_a_draw_by_repetition(config: str) -> None:
    """Every seat takes whenever it may: with three or four players the same cards come back
    to the same hands, and the third time a bout starts from the same position the game is a
    draw (Rules.repetition_limit)."""
    ends = [check_game(corpus_game).outcome for corpus_game in corpus.games(config, takes=True)]
    assert any(outcome is not None and outcome.repeated for outcome in ends)
