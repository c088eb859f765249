"""Action notation and game records (durak_core.actions, durak_core.record)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from durak_core import (
    Action,
    ActionKind,
    Card,
    Game,
    NotationError,
    RecordError,
    Rules,
    dumps,
    loads,
    make_deck,
    replay,
    to_record,
)
from durak_core.record import FORMAT

from .helpers import card, cards

SAMPLE_CARDS = [card(t) for t in ("6C", "10H", "QS", "AD", "2C", "9S", "TD")]


def every_kind(seat: int, a: Card, b: Card) -> list[Action]:
    return [
        Action.lead(seat, a),
        Action.beat(seat, a, b),
        Action.throw(seat, a),
        Action.transfer(seat, a),
        Action.take(seat),
        Action.pass_(seat),
        Action.swap(seat),
    ]


# ---------------------------------------------------------------- notation


def test_constructors_set_kind_seat_and_cards() -> None:
    c8, c10 = card("8C"), card("10C")
    assert Action.lead(0, c8) == Action(ActionKind.LEAD, 0, c8, None)
    assert Action.beat(1, c10, c8) == Action(ActionKind.BEAT, 1, c10, c8)
    assert Action.throw(2, c8) == Action(ActionKind.THROW, 2, c8, None)
    assert Action.transfer(1, c8) == Action(ActionKind.TRANSFER, 1, c8, None)
    assert Action.take(1) == Action(ActionKind.TAKE, 1, None, None)
    assert Action.pass_(0) == Action(ActionKind.PASS, 0, None, None)
    assert Action.swap(3) == Action(ActionKind.SWAP, 3, None, None)


@pytest.mark.parametrize(
    ("action", "ascii_text", "unicode_text"),
    [
        (Action.lead(0, card("8C")), "0:8C", "0:8♣"),
        (Action.beat(1, card("10C"), card("8C")), "1:10C/8C", "1:10♣/8♣"),
        (Action.throw(2, card("10H")), "2:+10H", "2:+10♥"),
        (Action.transfer(1, card("8D")), "1:>8D", "1:>8♦"),
        (Action.take(1), "1:take", "1:take"),
        (Action.pass_(0), "0:pass", "0:pass"),
        (Action.swap(0), "0:swap", "0:swap"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_notation_table(action: Action, ascii_text: str, unicode_text: str) -> None:
    assert action.notation() == ascii_text
    assert str(action) == ascii_text
    assert action.notation(unicode=True) == unicode_text
    assert Action.parse(ascii_text) == action
    assert Action.parse(unicode_text) == action


@pytest.mark.parametrize("seat", [0, 1, 5, 12])
def test_round_trip_every_kind(seat: int) -> None:
    for a in SAMPLE_CARDS:
        for b in SAMPLE_CARDS:
            for action in every_kind(seat, a, b):
                for unicode in (False, True):
                    text = action.notation(unicode=unicode)
                    parsed = Action.parse(text)
                    assert parsed == action, text
                    assert parsed.kind is action.kind
                    assert all(
                        x is y for x, y in zip(parsed[2:], action[2:], strict=True) if x is not None
                    )


def test_round_trip_every_card_as_lead_and_beat() -> None:
    deck = make_deck(52)
    for a, b in zip(deck, reversed(deck), strict=True):
        for action in (Action.lead(3, a), Action.beat(4, a, b), Action.throw(0, b)):
            assert Action.parse(action.notation()) == action
            assert Action.parse(action.notation(unicode=True)) == action


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (" 1 : take ", Action.take(1)),
        ("1:TAKE", Action.take(1)),
        ("0:Pass", Action.pass_(0)),
        ("2:SWAP", Action.swap(2)),
        ("1:th/8♤", Action.beat(1, card("10H"), card("8S"))),
        ("2:+q♠", Action.throw(2, card("QS"))),
        ("0:t♢", Action.lead(0, card("10D"))),
        ("1:>8d", Action.transfer(1, card("8D"))),
        ("03:6C", Action.lead(3, card("6C"))),
    ],
)
def test_lenient_spellings(text: str, expected: Action) -> None:
    assert Action.parse(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "take",
        "8C",
        ":take",
        "1:",
        "1:  ",
        "x:take",
        "-1:take",
        "1.0:take",
        "1:taken",
        "1:+",
        "1:>",
        "1:/",
        "1:10C/",
        "1:/8C",
        "1:10C/8C/9C",
        "1:+1H",
        "1:>ZZ",
        "1:8X",
        "1:2:take",
        "one:pass",
        "²:take",
        "1:take me",
    ],
)
def test_malformed_notation(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Action.parse(text)
    assert repr(text) in str(info.value)


def test_notation_error_is_a_value_error() -> None:
    assert issubclass(NotationError, ValueError)


def _check_parse_or_notation_error(text: str) -> None:
    try:
        action = Action.parse(text)
    except NotationError:
        return
    assert isinstance(action.seat, int) and action.seat >= 0
    assert Action.parse(action.notation()) == action
    assert Action.parse(action.notation(unicode=True)) == action


@given(st.text(max_size=12))
@example("²:take")
@example("١:take")
def test_random_text_raises_notation_error_or_round_trips(text: str) -> None:
    _check_parse_or_notation_error(text)


_pieces = st.sampled_from(
    [
        *"0123456789:+>/ TJQKACDHS♣♦♥♠♧♢♡♤",
        "10",
        "take",
        "pass",
        "swap",
        "١",
        "\t",
    ]
)


@given(st.lists(_pieces, max_size=8).map("".join))
def test_notation_like_text_raises_notation_error_or_round_trips(text: str) -> None:
    _check_parse_or_notation_error(text)


# ---------------------------------------------------------------- records: helpers


def play_randomly(game: Game, seed: int, limit: int | None = None) -> Game:
    rng = random.Random(seed)
    steps = 0
    while game.outcome is None and (limit is None or steps < limit):
        game.play(rng.choice(list(game.legal_actions())))
        steps += 1
        assert steps < 3000
    return game


def assert_same_game(a: Game, b: Game) -> None:
    assert a.state == b.state
    assert a.history == b.history
    assert a.events == b.events
    assert a.rules == b.rules
    assert a.players == b.players
    assert a.outcome == b.outcome


DEALT = [
    ("classic", {}, 2),
    ("classic", {"deck_size": 24}, 4),
    ("classic", {"deck_size": 52, "hand_size": 7}, 5),
    ("matsuri", {"transfer": True}, 3),
    ("matsuri", {}, 4),
    ("dame_karty", {}, 5),
    ("durak_live_vecinos", {}, 6),
    ("durak_live_todos", {"deck_size": 24}, 3),
    ("wikihow_home", {}, 4),
    ("wikihow_home", {"trump_swap": "ace_only", "allow_draw": False}, 2),
    ("wikipedia", {"transfer": True}, 5),
]


def dealt_game(preset: str, overrides: dict[str, Any], players: int, seed: int) -> Game:
    rules = Rules.preset(preset).replace(**overrides)
    return Game.deal(rules, players, seed, previous_durak=0 if not rules.allow_draw else None)


def lesson_bout_in_progress() -> Game:
    return Game.from_position(
        Rules(),
        ["7C 9H KS QD", "8D QC AS 10S 9S", "6D 7S JH"],
        table=[("8C", "10C"), ("8H", None)],
        turnup="JS",
        stock="9C 10D",
        discard="6C 6H",
        bouts=4,
    )


def lesson_taking_defender() -> Game:
    return Game.from_position(
        Rules(),
        ["7C 9D KS QD", "8D QC AS 10S", "6D 7S JH 9H"],
        table=[("9S", None), ("9C", "JC")],
        taking=True,
        turnup="JS",
        stock="8C 10D",
    )


def lesson_endgame_no_turnup() -> Game:
    return Game.from_position(
        Rules.preset("wikipedia"),
        ["7C 9D", "8D QC AS", "", "6D KH"],
        trump="H",
        out=[2],
        attacker=3,
        previous_durak=1,
    )


def lesson_swap() -> Game:
    return Game.from_position(
        Rules.preset("wikihow_home"),
        ["6H 7C 8C", "9D 10D JD", "QC KC AC"],
        turnup="AH",
        stock="6S 7S 8S",
    )


def lesson_transfer() -> Game:
    return Game.from_position(
        Rules.preset("matsuri").replace(transfer=True),
        ["7C 9D KS QD", "8D 7D AS 10S", "6D 7S JH 9H"],
        table=[("7H", None)],
        trump="S",
        attacker=0,
    )


LESSONS = {
    "bout_in_progress": lesson_bout_in_progress,
    "taking_defender": lesson_taking_defender,
    "endgame_no_turnup": lesson_endgame_no_turnup,
    "swap": lesson_swap,
    "transfer": lesson_transfer,
}


# ---------------------------------------------------------------- records: round trips


@pytest.mark.parametrize(
    ("preset", "overrides", "players"), DEALT, ids=[f"{p}-{n}p" for p, _, n in DEALT]
)
def test_dealt_game_record_replays_identically(
    preset: str, overrides: dict[str, Any], players: int
) -> None:
    for seed in (1, 2):
        game = play_randomly(dealt_game(preset, overrides, players, seed), seed)
        record = to_record(game)
        assert record["format"] == FORMAT
        assert record["players"] == players
        assert record["seed"] == seed
        assert record["actions"] == [a.notation() for a in game.history]
        assert all(isinstance(a, str) for a in record["actions"])
        text = dumps(game)
        assert loads(text) == json.loads(json.dumps(record))
        assert_same_game(replay(loads(text)), game)
        assert_same_game(replay(record), game)


@pytest.mark.parametrize("seed", [3, 4])
def test_unfinished_game_record_replays_identically(seed: int) -> None:
    game = play_randomly(dealt_game("wikihow_home", {}, 3, seed), seed, limit=17)
    assert game.outcome is None
    assert_same_game(replay(loads(dumps(game, indent=2))), game)


def test_record_without_explicit_seed_replays_identically() -> None:
    game = play_randomly(Game.deal(Rules(), 3), 5)
    assert isinstance(to_record(game)["seed"], int)
    assert_same_game(replay(loads(dumps(game))), game)


def test_record_of_a_dealt_game_replays_identically_when_nobody_has_a_trump() -> None:
    """The random first-attacker fallback (C4) must come out the same on replay.

    Game.deal draws the dealer from the seed when none is given; the record stores the
    drawn dealer, so the replay must not depend on whether the dealer was drawn.
    """
    rules = Rules(deck_size=24)
    checked = mismatched = 0
    for seed in range(120):
        game = Game.deal(rules, 2, seed)
        if game.events[2].detail != "random":
            continue
        checked += 1
        again = replay(to_record(game))
        if again.state != game.state or again.events != game.events:
            mismatched += 1
    assert checked >= 2
    assert mismatched == 0, f"{mismatched} of {checked} no-trump deals replayed differently"


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_position_record_replays_identically(name: str) -> None:
    for seed in range(4):
        game = play_randomly(LESSONS[name](), seed)
        record = to_record(game)
        assert "position" in record and "seed" not in record
        json.dumps(record)
        assert_same_game(replay(loads(dumps(game))), game)


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_position_record_before_any_action(name: str) -> None:
    game = LESSONS[name]()
    assert to_record(game)["actions"] == []
    assert_same_game(replay(loads(dumps(game))), game)


def test_taking_defender_position_is_kept() -> None:
    game = lesson_taking_defender()
    assert game.taking
    again = replay(loads(dumps(game)))
    assert again.taking and again.table == game.table
    assert again.state == game.state


def test_replay_upto() -> None:
    game = play_randomly(dealt_game("classic", {}, 3, 9), 9)
    record = to_record(game)
    n = len(record["actions"])
    assert n > 10
    for k in (0, 1, 5, n - 1, n):
        partial = replay(record, upto=k)
        assert partial.history == game.history[:k]
        expected = dealt_game("classic", {}, 3, 9)
        for action in game.history[:k]:
            expected.play(action)
        assert_same_game(partial, expected)
    assert_same_game(replay(record, upto=None), game)
    assert_same_game(replay(record, upto=n + 10), game)


def test_replay_upto_on_a_position() -> None:
    game = play_randomly(lesson_bout_in_progress(), 1)
    record = to_record(game)
    for k in range(len(game.history) + 1):
        partial = replay(record, upto=k)
        assert partial.history == game.history[:k]
    assert replay(record, upto=0).state == lesson_bout_in_progress().state


def test_record_does_not_depend_on_undone_actions() -> None:
    game = play_randomly(dealt_game("matsuri", {}, 3, 4), 4, limit=12)
    fresh = replay(to_record(game))
    game.undo()
    game.undo()
    assert_same_game(replay(loads(dumps(game))), replay(to_record(fresh), upto=10))


# ---------------------------------------------------------------- records: errors


def good_record() -> dict[str, Any]:
    return json.loads(dumps(play_randomly(dealt_game("classic", {}, 3, 2), 2, limit=8)))


def test_record_error_is_a_value_error() -> None:
    assert issubclass(RecordError, ValueError)


@pytest.mark.parametrize("tag", ["durak-record/2", "chess-pgn", None, 1])
def test_wrong_format_tag(tag: object) -> None:
    record = good_record()
    record["format"] = tag
    with pytest.raises(RecordError, match="format") as info:
        replay(record)
    assert repr(tag) in str(info.value)
    assert FORMAT in str(info.value)


def test_missing_format_tag() -> None:
    record = good_record()
    del record["format"]
    with pytest.raises(RecordError, match="format"):
        replay(record)


@pytest.mark.parametrize(
    ("rules", "fragment"),
    [
        ({"colour": "red"}, "colour"),
        ({"deck_size": 32}, "deck_size"),
        ({"throw_in_rights": "everyone"}, "throw_in_rights"),
        ({"preset": "house"}, "house"),
        ({"hand_size": 7}, "7-card"),
        ({"attack_cap": "six"}, ""),
        (5, ""),
        (["deck_size"], ""),
        ("classic", ""),
    ],
    ids=str,
)
def test_bad_rules(rules: object, fragment: str) -> None:
    record = good_record()
    record["rules"] = rules
    with pytest.raises(RecordError) as info:
        replay(record)
    message = str(info.value)
    assert message.startswith("rules"), message
    assert fragment in message


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"seed": None}, "set-up"),
        ({"seed": "abc"}, "set-up"),
        ({"players": 9}, "9"),
        ({"players": "many"}, "set-up"),
        ({"dealer": 7}, "dealer"),
    ],
    ids=str,
)
def test_bad_dealt_setup(change: dict[str, Any], fragment: str) -> None:
    record = good_record()
    record.update(change)
    with pytest.raises(RecordError) as info:
        replay(record)
    message = str(info.value)
    assert message.startswith("set-up"), message
    assert fragment in message


def test_missing_seed() -> None:
    record = good_record()
    del record["seed"]
    with pytest.raises(RecordError, match=r"^set-up: .*seed"):
        replay(record)


def position_record() -> dict[str, Any]:
    return json.loads(dumps(lesson_bout_in_progress()))


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"stock": "9C 9C"}, "9C appears twice"),
        ({"stock": "4D"}, "4D is not in a 36-card deck"),
        ({"turnup": "JH"}, "does not match"),
        ({"turnup": None, "trump": None}, "trump"),
        ({"defender": 0}, "defender"),
        ({"table": [["8C", "7D"]]}, "does not beat"),
        ({"table": [["8C", None], ["KC", None]]}, "rank not yet on the table"),
        ({"hands": ["7C", "8D", "6D", "", "", "", "", ""]}, "players"),
        ({"hands": "7C 8D"}, "set-up"),
        ({"colour": "red"}, "set-up"),
        ({"table": 5}, "set-up"),
    ],
    ids=str,
)
def test_bad_position_setup(change: dict[str, Any], fragment: str) -> None:
    record = position_record()
    record["position"].update(change)
    with pytest.raises(RecordError) as info:
        replay(record)
    message = str(info.value)
    assert message.startswith("set-up"), message
    assert fragment in message


def test_missing_hands_in_position() -> None:
    record = position_record()
    del record["position"]["hands"]
    with pytest.raises(RecordError, match=r"^set-up: .*hands"):
        replay(record)


def test_illegal_action_names_its_index() -> None:
    record = good_record()
    game = replay(record, upto=2)
    # seat 0 leads a card that another seat holds: never legal
    stranger = game.hand(1)[0]
    illegal = Action.lead(0, stranger).notation()
    record["actions"][2] = illegal
    refusal = game.why_illegal(Action.parse(illegal))
    assert refusal is not None and refusal.reason.value == "card_not_in_hand"
    with pytest.raises(RecordError) as info:
        replay(record)
    message = str(info.value)
    assert message.startswith("action 3 "), message  # the third action, counted from 1
    assert repr(illegal) in message
    assert "card_not_in_hand" in message
    assert replay(record, upto=2).history == game.history  # the actions before it are fine


def test_malformed_action_names_its_index() -> None:
    record = good_record()
    record["actions"].insert(4, "0:8X")
    with pytest.raises(RecordError, match=r"^action 5 \('0:8X'\)"):
        replay(record)
    record["actions"][4] = 17
    with pytest.raises(RecordError, match=r"^action 5 "):
        replay(record)


def test_actions_must_be_a_list() -> None:
    record = good_record()
    record["actions"] = "0:8C 1:take"
    with pytest.raises(RecordError, match="actions"):
        replay(record)


def test_actions_after_the_end_are_refused() -> None:
    game = play_randomly(dealt_game("classic", {}, 2, 6), 6)
    record = to_record(game)
    record["actions"].append(record["actions"][-1])
    n = len(record["actions"])
    with pytest.raises(RecordError, match=rf"^action {n} .*game_over"):
        replay(record)


@pytest.mark.parametrize("text", ["{", "", "not json", '{"format": ', "{'format': 1}", "[1,"])
def test_malformed_json(text: str) -> None:
    with pytest.raises(RecordError, match="not JSON"):
        loads(text)


@pytest.mark.parametrize("text", ["[]", "1", '"record"', "null", "true"])
def test_json_that_is_not_an_object(text: str) -> None:
    with pytest.raises(RecordError, match="object"):
        loads(text)


def test_dumps_is_json_with_unicode_intact() -> None:
    game = lesson_bout_in_progress()
    text = dumps(game)
    data = json.loads(text)
    assert data["format"] == FORMAT
    assert data["rules"] == Rules().to_dict()
    assert data["position"]["hands"][0] == "7C 9H KS QD"
    assert data["position"]["table"] == [["8C", "10C"], ["8H", None]]
    assert cards(data["position"]["stock"]) == cards("9C 10D")
