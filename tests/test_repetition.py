"""The repetition rule (``Rules.repetition_limit``, issue 18 item 2).

None of the sources (S0-S4) has one: without transfers a game always ends, since every bout
either beats cards off for good or moves them into a hand that must play them out. With
transfers (S1, S2) two players can go round: a leads, b transfers, a takes both; b leads the
same rank, a transfers back, b takes; and both hands are what they were. Like chess's
threefold repetition, the third time the same position starts a bout the game is a draw.
"""

from __future__ import annotations

import random

import pytest

from durak_core import Action, EventKind, Game, Position, PositionError, Rules, RulesError, observe
from durak_core.determinize import determinize
from tutorial.explain import narrate
from tutorial.i18n import SUPPORTED_LANGUAGES, translator

TRANSFER = Rules.preset("classic").replace(transfer=True)
#: Every card of the 36-card deck not in the two hands below.
DISCARD = (
    "6S 8S 10S QS KS AS 6D 8D 9D 10D JD QD KD AD 6C 8C 9C JC KC AC 6H 7H 8H 9H 10H JH QH KH AH"
)
#: One round of the cycle: back to the position it started from, both hands unchanged.
ROUND = ["0:7S", "1:>7D", "0:take", "1:7C", "0:>7D", "1:take"]


def cycle(rules: Rules = TRANSFER) -> Game:
    """Seat 0 (7S 9S JS) attacks seat 1 (7D 7C 10C QC); the stock is empty."""
    return Game.from_position(
        rules,
        ["7S 9S JS", "7D 7C 10C QC"],
        trump="H",
        turnup="6H",
        turnup_in_stock=False,
        discard=DISCARD,
        attacker=0,
        defender=1,
    )


def play(game: Game, actions: list[str]) -> None:
    for text in actions:
        game.play(Action.parse(text))


def repetitions(game: Game) -> list[int]:
    return [e.n for e in game.events if e.kind is EventKind.REPETITION]


def test_the_third_time_a_position_starts_a_bout_the_game_is_a_draw() -> None:
    game = cycle()
    play(game, ROUND)  # each position after a take is new (the set-up is not counted)
    assert repetitions(game) == [] and game.outcome is None
    play(game, ROUND)  # both come back: the second time each
    assert repetitions(game) == [2, 2] and game.outcome is None
    play(game, ROUND[:3])  # the position after seat 0's take, a third time
    outcome = game.outcome
    assert outcome is not None and outcome.repeated and outcome.is_draw
    assert outcome.durak is None and outcome.losers == () and game.drawn_by_repetition
    assert repetitions(game) == [2, 2, 3]
    last = game.events[-1]
    assert (last.kind, last.seat, last.n) == (EventKind.GAME_OVER, None, 3)
    assert last.detail == "repetition"
    assert not list(game.legal_actions())
    assert all(game.hand_sizes)  # both still hold cards: nobody loses


def test_a_limit_of_two_and_no_limit() -> None:
    game = cycle(TRANSFER.replace(repetition_limit=2))
    play(game, ROUND)
    play(game, ROUND[:3])
    assert game.outcome is not None and game.outcome.repeated
    endless = cycle(TRANSFER.replace(repetition_limit=0))
    for _ in range(10):
        play(endless, ROUND)
    assert endless.outcome is None and repetitions(endless) == []


@pytest.mark.parametrize("limit", [1, 10, -1])
def test_the_limit_is_zero_or_two_to_nine(limit: int) -> None:
    with pytest.raises(RulesError, match="repetition_limit"):
        TRANSFER.replace(repetition_limit=limit)


def test_a_beaten_off_bout_forgets_every_earlier_position() -> None:
    """Beaten cards leave the game: no position before a bito can come back."""
    game = Game.from_position(
        TRANSFER,
        ["7S 9S JS 8C", "7D 7C 10C QC"],
        trump="H",
        turnup="6H",
        turnup_in_stock=False,
        discard=DISCARD.replace("8C ", ""),
        attacker=0,
        defender=1,
    )
    play(game, [*ROUND[:3], "1:pass"])  # seat 1 could still add its 7C
    assert len(game.position().seen) == 1
    play(game, ["1:7C", "0:8C/7C"])  # beaten off
    if game.is_legal(Action.parse("1:pass")):
        play(game, ["1:pass"])
    seen = game.position().seen
    assert len(seen) == 1 and "|1>0|" not in seen[0]  # only the new bout's: seat 0 attacks
    assert repetitions(game) == []


def test_the_position_keeps_its_history_and_undo_restores_it() -> None:
    game = cycle()
    play(game, [*ROUND, *ROUND[:3]])
    position = game.position()
    assert len(position.seen) == 3 and "seen" in position.to_dict()
    again = Game.from_position(TRANSFER, position)
    assert Position.from_dict(position.to_dict(), TRANSFER) == position
    play(game, ROUND[3:])
    play(again, ROUND[3:])
    assert repetitions(again) == [2] and again.position() == game.position()
    play(again, ROUND[:2])
    before = again.position()
    play(again, ROUND[2:3])
    assert again.outcome is not None and again.outcome.repeated
    again.undo()
    assert again.outcome is None and again.position() == before


def test_a_seat_that_can_place_every_card_knows_the_history_and_so_do_its_worlds() -> None:
    game = cycle()
    play(game, [*ROUND, *ROUND[:3]])
    obs = observe(game, game.attacker)
    assert obs.seen == game.position().seen
    world = determinize(obs, random.Random(0))
    assert world.position().seen == obs.seen
    play(world, ROUND[3:])
    play(world, ROUND[:3])
    assert world.outcome is not None and world.outcome.repeated


def test_with_cards_in_the_stock_nothing_is_counted() -> None:
    game = Game.deal(TRANSFER, players=2, seed=5)

    def stock(game: Game) -> bool:
        position = game.position()
        return bool(position.stock) or position.turnup_in_stock

    while stock(game):
        assert game.position().seen == () and observe(game, 0).seen == ()
        game.play(next(iter(game.legal_actions())))


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_the_learner_is_told_each_time_and_why_the_game_ends(lang: str) -> None:
    game = cycle()
    play(game, [*ROUND, *ROUND, *ROUND[:3]])
    said = [e for e in game.events if e.kind is EventKind.REPETITION or e.detail == "repetition"]
    assert len(said) == 4

    def told(language: str) -> list[str]:
        tr = translator(language)
        return [narrate(e, tr, players=["Ana", "Luis"], you=0) for e in said]

    texts, english = told(lang), told("en")
    assert all(text and "{" not in text for text in texts)
    assert "If it comes up 1 more time, the game is a draw." in english[0]
    assert "more time" not in english[2]  # the limit: the game ends next
    assert english[3].startswith("Game over: the same position came up 3 times")
    if lang != "en":
        assert all(a != b for a, b in zip(texts, english, strict=True))


def test_where_no_position_can_come_back_the_positions_are_kept_unworded() -> None:
    """Issue 35, step 1: two players without transfers can never meet a position again (a
    take leaves the same attacker with fewer cards; a beaten-off bout discards), so the rule
    neither keys nor counts the positions there: it keeps each as a DeferredKey, and
    ``Position.seen`` words them exactly as before (the perft file pins that)."""
    from durak_core.state import DeferredKey, seen_keys

    classic = Rules.preset("classic")
    rng = random.Random(7)
    kept = 0
    for seed in range(40):
        game = Game.deal(classic, 2, seed=seed)
        while game.outcome is None:
            game.play(rng.choice(list(game.legal_actions())))
            s = game.state
            assert all(isinstance(key, DeferredKey) for key in s.seen)
            kept += len(s.seen)
            assert game.position().seen == seen_keys(s.seen, 2)
        assert not game.drawn_by_repetition
    assert kept


def test_positions_are_counted_as_integers_and_worded_at_the_position() -> None:
    """Issue 35, step 1: where positions can repeat (here a transfer round) the engine keys
    them as integers (no text at every bout); ``Position.seen`` words them, and a set-up reads
    the words back to the same integers, so a replayed game counts on where it was."""
    from durak_core.state import DeferredKey, bout_key, parse_bout_key, repetition_key

    game = cycle()
    for notation in ROUND:
        game.play(Action.parse(notation))
    seen = game.state.seen
    assert seen and all(type(key) is int for key in seen)
    words = game.position().seen
    assert [parse_bout_key(text, 2) for text in words] == list(seen)
    again = Game.from_position(game.rules, game.position())
    assert again.state.seen == seen and again.position() == game.position()
    hand = [list(game.hand(0)), list(game.hand(1))]
    flashed = frozenset(hand[0][:1])
    text = repetition_key(hand, 0, 1, flashed, 1)
    key = bout_key(hand, 0, 1, flashed, 1)
    assert parse_bout_key(text, 2) == key == DeferredKey(hand, 0, 1, flashed, 1)
    assert bout_key(hand, 1, 0, flashed, 1) != key != bout_key(hand, 0, 1, frozenset(), 1)


@pytest.mark.parametrize(
    "bad",
    [
        "6C|7C|0>1||None|extra",  # a hand too many
        "6C|XX|0>1||None",  # not a card
        "7C 6C|AH|0>1||None",  # cards not in the engine's order
        "6C|AH|0>9||None",  # no such seat
        "6C|AH|0-1||None",  # not "attacker>defender"
        "6C|AH|0>1||none",  # not a holder
    ],
)
def test_a_set_up_refuses_a_seen_key_the_engine_never_words(bad: str) -> None:
    """A position's ``seen`` is read back into the engine's keys: a key that is not how the
    engine words a position is refused with a clear error, not kept to never match."""
    position = cycle().position()
    data = position.to_dict()
    data["seen"] = [bad]
    with pytest.raises(PositionError, match="seen: not a position key"):
        Position.from_dict(data, TRANSFER)
