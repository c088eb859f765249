"""Iterating ``legal_actions()`` while pushing and undoing inside the loop (python-chess's
``test_stateful_move_generation_bug``) yields exactly the actions that were legal when the
iteration started. The games are the corpus's (tests/corpus.py): every configuration, the
first two seeds of each player count, their first 250 positions."""

from __future__ import annotations

from itertools import islice

import pytest

from durak_core import Game, Rules

from . import corpus

SEEDS = 2
POSITIONS = 250


@pytest.mark.parametrize("config", sorted(corpus.CONFIGS))
def test_push_and_undo_inside_the_loop(config: str) -> None:
    positions = 0
    for corpus_game in corpus.games(config):
        if corpus_game.seed >= SEEDS:
            continue
        for game in islice(corpus.replay(corpus_game), POSITIONS):
            expected = list(game.legal_actions())
            seen = []
            for action in game.legal_actions():
                seen.append(action)
                game.push(action)  # the iterator's own state must not follow the game
                for reply in list(game.legal_actions())[:2]:
                    game.push(reply)
                    game.undo()
                game.undo()
            assert seen == expected, corpus_game
            positions += 1
    assert positions > 200


def test_an_iterator_taken_before_a_push_lists_the_old_position() -> None:
    game = Game.deal(Rules(), 3, seed=4)
    before = list(game.legal_actions())
    iterator = iter(game.legal_actions())
    game.push(before[0])
    assert list(iterator) == before
    game.undo()
    assert list(game.legal_actions()) == before
