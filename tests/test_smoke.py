"""A first end-to-end check: seeded games of every preset finish with every card accounted for."""

from __future__ import annotations

import random

import pytest

from durak_core import PRESETS, Game, Rules, make_deck

from .helpers import check_invariants


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_seeded_random_games_finish(preset: str) -> None:
    rules = Rules.preset(preset)
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(3):
            game = Game.deal(rules, players, seed)
            rng = random.Random(seed)
            universe = make_deck(rules.deck_size)
            steps = 0
            while game.outcome is None:
                game.play(rng.choice(list(game.legal_actions())))
                check_invariants(game, universe)
                steps += 1
                assert steps < 2000
