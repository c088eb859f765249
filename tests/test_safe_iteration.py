"""Iterating ``legal_actions()`` while pushing and undoing inside the loop (python-chess's
``test_stateful_move_generation_bug``) yields exactly the actions that were legal when the
iteration started."""

from __future__ import annotations

import random

import pytest

from durak_core import PRESETS, Game, Rules


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_push_and_undo_inside_the_loop(preset: str) -> None:
    rules = Rules.preset(preset)
    positions = 0
    for players in rules.player_counts():
        for seed in range(8):
            game = Game.deal(rules, players, seed)
            rng = random.Random(seed)
            while game.outcome is None and len(game.history) < 250:
                expected = list(game.legal_actions())
                seen = []
                for action in game.legal_actions():
                    seen.append(action)
                    game.push(action)  # the iterator's own state must not follow the game
                    for reply in list(game.legal_actions())[:2]:
                        game.push(reply)
                        game.undo()
                    game.undo()
                assert seen == expected
                positions += 1
                game.push(rng.choice(expected))
    assert positions > 300


def test_an_iterator_taken_before_a_push_lists_the_old_position() -> None:
    game = Game.deal(Rules(), 3, seed=4)
    before = list(game.legal_actions())
    iterator = iter(game.legal_actions())
    game.push(before[0])
    assert list(iterator) == before
    game.undo()
    assert list(game.legal_actions()) == before
