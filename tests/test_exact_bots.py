"""Computer players solve two-player endgames exactly (issue 18, item 3): from the default
level up, once the stock is empty and two players are left, the bot's move keeps the value
of the position against perfect play (durak_core.solver)."""

from __future__ import annotations

import random

import pytest

from durak_core import Game, Rules, observe
from durak_core.bots import DEFAULT_LEVEL, PIMCBot, make_bot, next_seat
from durak_core.solver import solve

RULES = {"classic": Rules(), "perevodnoy": Rules(transfer=True)}


def endgame(rules: Rules, seed: int) -> Game | None:
    """A seeded heuristic game played until the stock is empty (None if it ended first)."""
    game = Game.deal(rules, players=2, seed=seed)
    bot, rng = make_bot("heuristic"), random.Random(seed)
    while game.outcome is None:
        position = game.position()
        if not position.stock and not position.turnup_in_stock:
            return game
        seat = next_seat(game)
        game.play(bot.choose(observe(game, seat), rng))
    return None


@pytest.mark.parametrize(
    ("variant", "level", "seeds"),
    [("classic", DEFAULT_LEVEL, 6), ("perevodnoy", DEFAULT_LEVEL, 3), ("classic", "strong", 3)],
)
def test_every_endgame_decision_keeps_the_exact_value(variant: str, level: str, seeds: int) -> None:
    decisions = solved = 0
    for seed in range(seeds):
        game = endgame(RULES[variant], seed)
        if game is None:
            continue
        bot, rng = make_bot(level), random.Random(seed)
        assert isinstance(bot, PIMCBot) and bot.exact
        while game.outcome is None:
            seat = next_seat(game)
            obs = observe(game, seat)
            # within the bot's budget (else it samples, as before the stock ran out)
            within = bot.solution(obs, random.Random(0)) is not None
            choice = bot.choose(obs, rng)
            if len(obs.legal) > 1:
                decisions += 1
                if within:
                    exact = solve(game, seat=seat)  # a fresh search of the real position
                    assert exact.solved
                    assert exact.keeps_value(choice), (seed, str(choice), exact.action_values)
                    solved += 1
            game.play(choice)
    # most first decisions of a fresh endgame need more than the budget (33 of 69 solved in
    # the classic case): then the bot samples; once solved, every decision is exact
    assert decisions >= 5 and solved >= decisions // 3, (solved, decisions)


def test_the_bot_says_when_it_solved_and_the_newcomer_does_not_solve() -> None:
    game = endgame(RULES["classic"], 1)
    assert game is not None
    seat = next_seat(game)
    obs = observe(game, seat)
    bot = make_bot(DEFAULT_LEVEL)
    assert isinstance(bot, PIMCBot)
    found = bot.solution(obs, random.Random(0))
    assert found is not None and found.seat == seat
    scores = bot.evaluate(obs, random.Random(0))
    for action, value in found.action_values.items():
        assert abs(scores[action] - (value.value + 1) / 2) < 0.01  # 1, ½, 0 (+ a tie-break)
    newcomer = make_bot("newcomer")
    assert isinstance(newcomer, PIMCBot) and not newcomer.exact


def test_with_cards_in_the_stock_the_bot_samples() -> None:
    game = Game.deal(Rules(), players=2, seed=3)
    bot = make_bot(DEFAULT_LEVEL)
    assert isinstance(bot, PIMCBot)
    assert bot.solution(observe(game, next_seat(game)), random.Random(0)) is None
