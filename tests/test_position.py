"""``Position``: a complete, frozen value. ``game.position()`` and
``Game.from_position(rules, position)`` round-trip exactly — the same state, the same legal
actions, the same future — and ``to_dict``/``from_dict`` are the one serializer."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from durak_core import PRESETS, Action, Card, Game, Phase, Position, PositionError, Rules
from durak_core.rules import TrumpSwap

from . import corpus
from .helpers import card, cards, play


def random_games(seeds: int, cut: int = 300, every: int = 1) -> Iterator[tuple[str, Game]]:
    """Every ``every``-th position (up to ``cut``) of the corpus's first ``seeds`` random games
    of every preset, each player count it allows."""
    for name in sorted(PRESETS):
        for corpus_game in corpus.games(name):
            if corpus_game.seed >= seeds:
                continue
            for game in corpus.replay(corpus_game):
                if len(game.history) >= cut:
                    break
                if len(game.history) % every == 0:
                    yield name, game


def test_positions_round_trip_exactly_in_random_games_of_every_preset() -> None:
    """Property test over thousands of positions: rebuilt from ``position()`` (and from its
    JSON text), the game has the same state and legal actions, and plays on identically."""
    checked = 0
    for name, game in random_games(4, every=2):  # neighbours differ by one action
        position = game.position()
        again = Game.from_position(game.rules, position)
        assert again.state == game.state, (name, game.state.differences(again.state))
        assert again.position() == position
        assert list(again.legal_actions()) == list(game.legal_actions())
        data = json.loads(json.dumps(position.to_dict()))
        assert Position.from_dict(data, game.rules) == position
        checked += 1
        if checked % 47 == 0:  # the same future: both play the same random moves to the end
            rng_a, rng_b = random.Random(checked), random.Random(checked)
            mine = game.copy(undo=False)
            while mine.outcome is None and len(mine.history) < len(game.history) + 200:
                a = rng_a.choice(list(mine.legal_actions()))
                b = rng_b.choice(list(again.legal_actions()))
                assert a == b
                mine.push(a)
                again.push(b)
                assert again.state == mine.state
            assert again.outcome == mine.outcome
    assert checked > 2_500


def test_position_is_a_frozen_hashable_value() -> None:
    game = Game.deal(Rules(), 3, seed=5)
    a, b = game.position(), game.copy().position()
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.attacker = 2  # type: ignore[misc]
    game.play(next(iter(game.legal_actions())))
    assert game.position() != a


def test_who_has_passed_survives_a_rebuild() -> None:
    """wikihow_home (S0): the attacker adds until he passes, then the others. After he passes
    he may not add again — in the rebuilt game too (before, a rebuilt position forgot it)."""
    rules = Rules.preset("wikihow_home")
    game = Game.from_position(rules, ["8C 8D 7H", "10C 9S 6H", "KD AD QH"], trump="S")
    play(game, "0:8C 1:10C/8C 0:pass")
    refusal = game.why_illegal(game_action("0:+8D"))
    assert refusal is not None
    again = Game.from_position(rules, game.position())
    assert again.position().passed == frozenset({0})
    rebuilt = again.why_illegal(game_action("0:+8D"))
    assert rebuilt is not None and rebuilt.reason is refusal.reason
    assert list(again.legal_actions()) == list(game.legal_actions())


def game_action(text: str) -> Action:
    return Action.parse(text)


def test_a_drawn_turnup_with_an_empty_stock_is_expressible() -> None:
    """The turn-up is drawn last (S0–S4) and stays shown; the position keeps it, out of the
    stock, with the seat that drew it (S0's late swap window)."""
    rules = Rules.preset("wikihow_home")
    game = Game.from_position(
        rules, ["7C", "9D"], stock="", turnup="AS", turnup_in_stock=False, trump="S"
    )
    assert game.turnup == card("AS") and not game.turnup_in_stock and game.stock == ()
    with pytest.raises(PositionError, match="turnup_holder"):
        Game.from_position(rules, ["7C", "9D"], turnup="AS", turnup_in_stock=False, turnup_holder=0)


def test_the_late_swap_window_round_trips() -> None:
    """S0: a player who got the lowest trump by deal may swap it for the turn-up even after
    another player drew it, until the next lead."""
    rules = Rules.preset("wikihow_home").replace(trump_swap=TrumpSwap.ANY)
    hands = ["6S 7D", "QS", "8H 9H"]
    game = Game.from_position(
        rules,
        hands,
        turnup="QS",
        turnup_in_stock=False,
        turnup_holder=1,
        low_trump_origin=0,
        attacker=2,
    )
    assert "0:swap" in [str(a) for a in game.legal_actions()]
    again = Game.from_position(rules, game.position())
    assert again.position() == game.position()
    assert list(again.legal_actions()) == list(game.legal_actions())
    picked = Game.from_position(
        rules,
        hands,
        turnup="QS",
        turnup_in_stock=False,
        attacker=2,
        low_trump_origin=None,
        turnup_holder=1,
    )
    assert "0:swap" not in [str(a) for a in picked.legal_actions()]  # 6♠ was picked up, not dealt


@pytest.mark.parametrize("seed", range(6))
def test_a_six_player_deal_where_the_dealer_keeps_the_shown_card(seed: int) -> None:
    """S0, S3: with six players all 36 cards are dealt and the dealer shows his last card,
    which fixes trumps and stays in his hand."""
    game = Game.deal(Rules(), 6, seed)
    position = game.position()
    assert position.stock == () and not position.turnup_in_stock
    dealer = game.origin["dealer"]
    assert position.turnup in position.hands[dealer]
    assert position.turnup in position.known[dealer]  # everybody saw it
    again = Game.from_position(game.rules, position)
    assert again.state == game.state and again.position() == position


def test_keyword_form_derives_what_it_leaves_out() -> None:
    """Lessons write short positions: the defender, the lead attacker, the hand cap and the
    lowest trump's origin are worked out (as before this type existed)."""
    rules = Rules.preset("wikihow_home")
    game = Game.from_position(
        rules, ["6S 10C", "9D 10D", "7D"], trump="S", table=[("8C", "9C")], attacker=2
    )
    position = game.position()
    assert position.defender == 0 and position.lead_attacker == 2
    assert position.defender_hand_at_start == 3  # 2 held + 1 already beaten
    assert position.low_trump_origin == 0
    assert position.phase is Phase.BOUT
    classic = Game.from_position(Rules(), ["6S 8C", "9C"], trump="S").position()
    assert classic.low_trump_origin is None  # tracked only where a swap rule can use it


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"passed": [7]}, "passed seats"),
        ({"low_trump_origin": 1}, "does not hold 6S"),
        ({"durak": 1}, "only once the game is over"),
        ({"bouts": 0}, "bouts must be"),
        ({"lead_attacker": 9}, "lead_attacker"),
        ({"turnup": "AS", "turnup_in_stock": True, "trump": "H"}, "does not match"),
    ],
    ids=["passed", "origin", "durak", "bouts", "lead", "trump"],
)
def test_bad_positions_are_refused_with_a_reason(keywords: dict[str, object], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Game.from_position(Rules(), ["6S 8C", "9C"], **{"trump": "S", **keywords})  # type: ignore[arg-type]


def test_a_forged_position_value_is_checked_like_keywords() -> None:
    good = Game.from_position(Rules(), ["6S 8C", "9C"], trump="S").position()
    duplicated = Position(
        **{**{f: getattr(good, f) for f in Position.__slots__}, "discard": (card("9C"),)}
    )
    with pytest.raises(PositionError, match="appears twice"):
        Game.from_position(Rules(), duplicated)


def test_a_finished_game_round_trips() -> None:
    for _, game in random_games(1, cut=10_000):
        if game.outcome is not None:
            again = Game.from_position(game.rules, game.position())
            assert again.outcome == game.outcome and again.position() == game.position()
            assert not list(again.legal_actions())
            return
    raise AssertionError("no game finished")


def test_old_short_dicts_still_load() -> None:
    """A lesson's or an older record's position (no passed, no lead attacker…) loads."""
    old = {
        "hands": ["7D 8S", "9C 10D QD"],
        "stock": "6H",
        "turnup": "KS",
        "trump": "S",
        "attacker": 0,
        "defender": 1,
        "discard": "",
        "table": [],
        "taking": False,
        "out": [],
        "bouts": 1,
        "previous_durak": None,
        "known": {"1": "QD"},
    }
    position = Position.from_dict(old)
    assert position.known[1] == frozenset(cards("QD"))
    assert position.turnup_in_stock and position.stock == (Card.parse("6H"),)


def test_a_redeal_from_a_rebuilt_position_is_dealt_by_the_same_dealer_s2_item66_s3() -> None:
    """S2 item 66: on a misdeal «La cubierta está mezclada, cada jugador recibe seis nuevas
    tarjetas», dealt as every deal is, «de una en una desde la izquierda de un repartidor»
    (S3): so the position carries the dealer, and ``0:redeal`` on a game rebuilt from it (as
    a value or as JSON) deals exactly like the original game (issue 17)."""
    rules = Rules(misdeal="four_of_a_suit", misdeal_mode="on_request")
    game = Game.deal(rules, 3, seed=3)
    redeal = Action.parse("0:redeal")
    assert game.is_legal(redeal)
    position = game.position()
    assert position.dealer == game.origin["dealer"] == 1
    assert position.to_dict()["dealer"] == 1
    rebuilt = [
        Game.from_position(rules, position),
        Game.from_position(rules, Position.from_dict(json.loads(json.dumps(position.to_dict())))),
    ]
    mark = [g.event_count for g in rebuilt]
    start = game.event_count
    game.play(redeal)
    for again, n in zip(rebuilt, mark, strict=True):
        again.play(redeal)
        assert again.state == game.state
        assert again.events[n:] == game.events[start:]
        assert again.position() == game.position()
    # a set-up with no dealer keeps the old behaviour: the seat before the attacker deals
    bare = Game.from_position(rules, **(position.to_dict() | {"dealer": None}))
    assert bare.position().dealer is None
    bare.play(redeal)
    deal = [e for e in bare.events if e.kind.value == "deal"][-1]
    assert deal.seat == (position.attacker - 1) % 3  # the new deal's dealer


def test_a_position_without_a_dealer_still_loads() -> None:
    """Positions written before the dealer was recorded (records, lessons) load with none."""
    rules = Rules(misdeal="four_of_a_suit", misdeal_mode="on_request")
    data = Game.deal(rules, 3, seed=3).position().to_dict()
    del data["dealer"]
    assert Position.from_dict(data, rules).dealer is None
    with pytest.raises(PositionError, match="dealer"):
        Game.from_position(rules, **{**data, "dealer": 5})
