"""Action notation and game records (durak_core.actions, durak_core.record)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from durak_core import (
    Action,
    ActionKind,
    Card,
    CardError,
    Game,
    NotationError,
    NoTrumpFallback,
    PositionError,
    RecordError,
    Rules,
    dumps,
    loads,
    make_deck,
    replay,
    to_record,
)
from durak_core.record import FORMAT, FORMAT_1, FORMATS

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


@pytest.mark.parametrize("tag", ["durak-record/3", "durak-record/0", "chess-pgn", None, 1])
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
        ({"seed": "abc"}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"players": 9}, "9"),
        ({"players": "many"}, "set-up"),
        ({"dealer": 7}, "dealer"),
        ({"dealer": None}, "dealer"),
        ({"dealer": "0"}, "dealer"),
        ({"first_attacker": 5}, "first_attacker"),
        ({"first_attacker": "1"}, "first_attacker"),
        ({"previous_durak": "1"}, "previous_durak"),
        ({"deck": None}, "deck"),
        ({"deck": ["6C", "7C"]}, "deck"),
        ({"deck": "6C 6C"}, "6C appears twice"),
        ({"deck": "2C"}, "2C is not in a 36-card deck"),
        ({"deck": "6C ZZ"}, "not a card: 'ZZ'"),
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


def test_missing_deck() -> None:
    record = good_record()
    del record["deck"]
    with pytest.raises(RecordError, match=r"^set-up: .*deck"):
        replay(record)


def test_seed_is_metadata_only() -> None:
    """A ``durak-record/2`` replays from its deck: the seed, even missing, changes nothing."""
    record = good_record()
    game = replay(record)
    for seed in (None, 0, 12345):
        other = dict(record, seed=seed)
        again = replay(other)
        assert_same_game(again, game)
        assert again.origin["seed"] == seed
    del record["seed"]
    assert_same_game(replay(record), game)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"seed": None}, "set-up"),
        ({"seed": "abc"}, "set-up"),
        ({"players": 9}, "9"),
        ({"dealer": 7}, "dealer"),
    ],
    ids=str,
)
def test_bad_version_1_setup(change: dict[str, Any], fragment: str) -> None:
    record = version_1_record()
    record.update(change)
    with pytest.raises(RecordError) as info:
        replay(record)
    message = str(info.value)
    assert message.startswith("set-up"), message
    assert fragment in message


def test_missing_seed_in_a_version_1_record() -> None:
    record = version_1_record()
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


# ---------------------------------------------------------------- action factories


def test_factories_accept_card_text() -> None:
    assert Action.lead(0, "9H") == Action.lead(0, card("9H"))
    assert isinstance(Action.lead(0, "9H").card, Card)
    assert Action.beat(1, "10H", "9H") == Action(ActionKind.BEAT, 1, card("10H"), card("9H"))
    assert Action.beat(1, "10♥", "9♥") == Action.beat(1, "10H", "9H")
    assert Action.throw(2, "th") == Action.throw(2, card("10H"))
    assert Action.transfer(1, "8D") == Action(ActionKind.TRANSFER, 1, card("8D"), None)
    beat = Action.beat(1, "10H", "9H")
    assert beat.card is card("10H") and beat.target is card("9H")  # interned cards


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Action.lead(0, "ZZ"), "'ZZ'"),
        (lambda: Action.lead(0, ""), "not a card"),
        (lambda: Action.throw(2, "1H"), "'1H'"),
        (lambda: Action.transfer(1, "9X"), "'9X'"),
        (lambda: Action.beat(1, "10H", "9"), "target"),
        (lambda: Action.beat(1, "10Q", "9H"), "card"),
    ],
)
def test_factories_refuse_bad_card_text(make: Any, fragment: str) -> None:
    with pytest.raises(CardError) as info:
        make()
    message = str(info.value)
    assert message.startswith("Action."), message
    assert fragment in message


@pytest.mark.parametrize("seat", ["0", 0.0, None, True, card("9H")])
def test_factories_refuse_a_seat_that_is_not_a_number(seat: Any) -> None:
    for make in (
        lambda: Action.lead(seat, "9H"),
        lambda: Action.beat(seat, "10H", "9H"),
        lambda: Action.throw(seat, "9H"),
        lambda: Action.transfer(seat, "9H"),
        lambda: Action.take(seat),
        lambda: Action.pass_(seat),
        lambda: Action.swap(seat),
    ):
        with pytest.raises(TypeError, match="seat must be a whole number"):
            make()


def test_factories_refuse_a_negative_seat() -> None:
    with pytest.raises(ValueError, match="0 or more, not -1"):
        Action.take(-1)
    with pytest.raises(ValueError, match="0 or more"):
        Action.lead(-2, "9H")


@pytest.mark.parametrize("value", [None, 9, ("9", "H"), [card("9H")]])
def test_factories_refuse_a_card_that_is_not_a_card(value: Any) -> None:
    with pytest.raises(TypeError, match="Card or card text"):
        Action.lead(0, value)
    with pytest.raises(TypeError, match="target must be a Card"):
        Action.beat(1, "10H", value)


def test_the_constructor_itself_stays_unchecked() -> None:
    """Malformed actions can still be built directly (the refusals are tested with them)."""
    assert Action(ActionKind.LEAD, -1, None).seat == -1


# ---------------------------------------------------------------- dealing from a given deck


def test_deal_from_a_given_deck_follows_the_dealing_order() -> None:
    """One card at a time from the dealer's left, then the turn-up, then the stock (S0)."""
    rules = Rules(deck_size=24)
    deck = make_deck(24)
    game = Game.deal(rules, 2, deck=deck, dealer=0, first_attacker=1)
    assert game.hand(1) == tuple(deck[0:12:2])
    assert game.hand(0) == tuple(deck[1:12:2])
    assert game.turnup is deck[12]
    assert game.stock == (*deck[13:], deck[12])  # top first, the turn-up last
    assert game.origin["deck"] == " ".join(map(str, deck))
    for spelled in (
        " ".join(map(str, deck)),
        ", ".join(c.unicode() for c in deck),
        [str(c) for c in deck],
        tuple(deck),
        iter(deck),
    ):
        again = Game.deal(rules, 2, deck=spelled, dealer=0, first_attacker=1)
        assert_same_game(again, game)


@pytest.mark.parametrize(
    ("preset", "players"), [("classic", 2), ("matsuri", 4), ("wikipedia", 6), ("wikihow_home", 3)]
)
def test_a_shuffled_deal_and_its_deck_deal_alike(preset: str, players: int) -> None:
    rules = Rules.preset(preset)
    for seed in range(25):
        game = Game.deal(rules, players, seed)
        origin = game.origin
        again = Game.deal(
            rules,
            players,
            deck=origin["deck"],
            dealer=origin["dealer"],
            first_attacker=origin.get("first_attacker"),
        )
        assert_same_game(again, game)


def _deck_error(deck: Any, rules: Rules | None = None) -> str:
    with pytest.raises(PositionError) as info:
        Game.deal(rules or Rules(), 2, deck=deck, dealer=0)
    return str(info.value)


def test_a_given_deck_must_be_the_whole_deck_once() -> None:
    deck = make_deck(36)
    assert _deck_error(deck[:-1]) == "deck: 35 cards, not 36 (missing AS)"
    assert _deck_error([*deck, card("6C")]) == "deck: 6C appears twice"
    assert _deck_error([*deck[:-1], deck[0]]) == "deck: 6C appears twice"
    assert "2C is not in a 36-card deck" in _deck_error([card("2C"), *deck[1:]])
    assert "not a card: 'XX'" in _deck_error("XX " + " ".join(map(str, deck[1:])))
    assert _deck_error([5, *deck[1:]]) == "deck: 5 is not a card"
    assert "not 5" in _deck_error(5)
    assert _deck_error("") == f"deck: 0 cards, not 36 (missing {' '.join(map(str, deck))})"
    assert "6C is not in a 24-card deck" in _deck_error(deck, Rules(deck_size=24))
    assert "36 cards, not 52" in _deck_error(deck, Rules(deck_size=52, hand_size=6))


def test_a_given_deck_checks_its_seats() -> None:
    deck = make_deck(36)
    with pytest.raises(PositionError, match=r"dealer must be a seat 0\.\.1, not 2"):
        Game.deal(Rules(), 2, deck=deck, dealer=2)
    with pytest.raises(PositionError, match="first_attacker must be a seat"):
        Game.deal(Rules(), 2, deck=deck, dealer=0, first_attacker=-1)


def test_first_attacker_must_agree_with_the_rules_when_they_decide() -> None:
    """Only the random draw of C4 can be given; the lowest trump decides otherwise (S0)."""
    game = Game.deal(Rules(), 3, seed=4)
    assert game.events[2].detail == "lowest_trump"
    origin = game.origin
    assert "first_attacker" not in origin
    same = Game.deal(
        Rules(), 3, deck=origin["deck"], dealer=origin["dealer"], first_attacker=game.attacker
    )
    assert same.attacker == game.attacker
    other = (game.attacker + 1) % 3
    with pytest.raises(PositionError, match=rf"rules choose seat {game.attacker} .*not {other}"):
        Game.deal(Rules(), 3, deck=origin["deck"], dealer=origin["dealer"], first_attacker=other)


def no_trump_deals(players: int = 2, count: int = 3) -> list[Game]:
    """Dealt games where nobody holds a trump and the first attacker is drawn (C4, RANDOM)."""
    rules = Rules(deck_size=24)
    assert rules.no_trump_fallback is NoTrumpFallback.RANDOM
    found = []
    for seed in range(400):
        game = Game.deal(rules, players, seed)
        if game.events[2].detail == "random":
            found.append(game)
            if len(found) == count:
                return found
    raise AssertionError("too few no-trump deals")


def test_a_random_first_attacker_is_recorded_and_can_be_given() -> None:
    for game in no_trump_deals():
        record = to_record(game)
        assert record["first_attacker"] == game.attacker
        for seat in range(game.players):
            chosen = Game.deal(
                game.rules, 2, deck=record["deck"], dealer=record["dealer"], first_attacker=seat
            )
            assert chosen.attacker == seat
            assert chosen.events[2].detail == "random"


# ---------------------------------------------------------------- records replay on any Python


class _NoRandom:
    """Stands in for the ``random`` module: any use fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"replay used random.{name}")


def test_dealt_record_stores_the_dealt_order() -> None:
    game = play_randomly(dealt_game("wikihow_home", {}, 4, 8), 8, limit=20)
    record = to_record(game)
    assert record["format"] == FORMAT == "durak-record/2"
    deck = cards(record["deck"])
    assert sorted(deck) == sorted(make_deck(36))
    assert record["dealer"] == game.origin["dealer"] and record["seed"] == 8
    assert "first_attacker" not in record  # the lowest trump decided it
    fresh = Game.deal(game.rules, 4, 8)
    dealt = [c for h in fresh.state.hands for c in h]
    assert sorted(deck[: len(dealt)]) == sorted(dealt)
    assert deck[len(dealt)] is fresh.turnup
    assert tuple(deck[len(dealt) + 1 :]) == fresh.stock[:-1]


@pytest.mark.parametrize(
    ("preset", "overrides", "players"), DEALT[:6], ids=[f"{p}-{n}p" for p, _, n in DEALT[:6]]
)
def test_dealt_record_replays_without_random_numbers(
    preset: str, overrides: dict[str, Any], players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import durak_core.setup

    games = [play_randomly(dealt_game(preset, overrides, players, seed), seed) for seed in (1, 2)]
    texts = [dumps(g) for g in games]
    monkeypatch.setattr(durak_core.setup, "random", _NoRandom())
    for game, text in zip(games, texts, strict=True):
        assert_same_game(replay(loads(text)), game)


def test_random_first_attacker_replays_without_random_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import durak_core.setup

    games = [play_randomly(g, 1, limit=10) for g in no_trump_deals(count=4)]
    records = [to_record(g) for g in games]
    monkeypatch.setattr(durak_core.setup, "random", _NoRandom())
    for game, record in zip(games, records, strict=True):
        assert_same_game(replay(record), game)


def test_a_different_shuffle_does_not_change_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """CPython does not promise ``random.shuffle`` sequences across versions: a record of the
    first format depends on them, one of the second does not."""
    game = play_randomly(dealt_game("classic", {}, 3, 21), 21, limit=30)
    record = to_record(game)
    old = dict(record, format=FORMAT_1)
    for key in ("deck", "first_attacker"):
        old.pop(key, None)
    assert_same_game(replay(old), game)

    def another_shuffle(self: random.Random, x: list[Any]) -> None:
        x.reverse()

    monkeypatch.setattr(random.Random, "shuffle", another_shuffle)
    assert_same_game(replay(record), game)
    try:
        changed = replay(old, upto=0)
    except RecordError:
        return
    assert changed.state != replay(record, upto=0).state


# ---------------------------------------------------------------- records of the first format

RECORDS = Path(__file__).parent / "data" / "records"
VERSION_1 = sorted(p.stem for p in RECORDS.glob("v1_*.json") if not p.stem.endswith(".expected"))


def version_1_record(name: str = "v1_dealt_wikihow_3p") -> dict[str, Any]:
    return loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def expected_state(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.expected.json").read_text("utf-8"))
    return data


def check_against(game: Game, expected: dict[str, Any]) -> None:
    s = game.state
    assert [h.split() for h in expected["hands"]] == [list(map(str, h)) for h in s.hands]
    assert game.stock == tuple(cards(expected["stock"]))
    assert (None if game.turnup is None else str(game.turnup)) == expected["turnup"]
    assert game.trump.letter == expected["trump"]
    assert game.discard == tuple(cards(expected["discard"]))
    assert [[str(a), None if d is None else str(d)] for a, d in game.table] == expected["table"]
    assert (s.attacker, s.defender, s.phase.value) == (
        expected["attacker"],
        expected["defender"],
        expected["phase"],
    )
    assert (s.taking, s.bouts, s.out_order, s.durak, s.active) == (
        expected["taking"],
        expected["bouts"],
        expected["out_order"],
        expected["durak"],
        expected["active"],
    )
    assert [a.notation() for a in game.history] == expected["history"]
    assert len(game.events) == expected["events"]
    assert [set(k.split()) for k in expected["setup_known"]] == [
        set(map(str, k)) for k in game.setup_known
    ]
    assert sorted(a.notation() for a in game.legal_actions()) == expected["legal"]


def test_the_old_records_are_there() -> None:
    assert VERSION_1 == ["v1_dealt_no_trump_random", "v1_dealt_wikihow_3p", "v1_position_known"]
    assert FORMATS == (FORMAT_1, FORMAT)
    for name in VERSION_1:
        assert version_1_record(name)["format"] == "durak-record/1"


@pytest.mark.parametrize("name", VERSION_1)
def test_a_record_of_the_first_format_replays(name: str) -> None:
    """Records written before the dealt order was stored (by the code of that time) still
    load and reach the state that code reached."""
    record = version_1_record(name)
    game = replay(record)
    check_against(game, expected_state(name))
    for k in (0, len(record["actions"]) // 2):
        assert replay(record, upto=k).history == game.history[:k]


@pytest.mark.parametrize("name", VERSION_1)
def test_a_record_of_the_first_format_is_saved_in_the_second(name: str) -> None:
    game = replay(version_1_record(name))
    record = to_record(game)
    assert record["format"] == FORMAT
    if "position" not in record:
        assert "deck" in record and record["seed"] == version_1_record(name)["seed"]
    again = replay(loads(dumps(game)))
    assert_same_game(again, game)
    assert to_record(again) == record
    check_against(again, expected_state(name))


def test_the_old_no_trump_record_keeps_its_random_first_attacker() -> None:
    game = replay(version_1_record("v1_dealt_no_trump_random"))
    assert game.events[2].detail == "random"
    assert to_record(game)["first_attacker"] == game.events[2].seat


# ---------------------------------------------------------------- positions with known cards


def lesson_with_known_cards() -> Game:
    return Game.from_position(
        Rules.preset("matsuri"),
        ["7C 9D KS QD 8H", "8D QC AS 10S", "6D 7S JH 9H JD"],
        turnup="JS",
        stock="8C 10D 6C 7D",
        known={1: "QC AS", 2: ["JH"]},
        discard="6H 7H",
        bouts=5,
    )


def test_a_position_with_known_cards_replays() -> None:
    for seed in range(4):
        game = play_randomly(lesson_with_known_cards(), seed, limit=12)
        text = dumps(game)
        data = json.loads(text)
        known = data["position"]["known"]  # JSON keys are text
        assert {seat: set(text.split()) for seat, text in known.items()} == {
            "1": {"QC", "AS"},
            "2": {"JH"},
        }
        again = replay(loads(text))
        assert_same_game(again, game)
        assert again.setup_known == game.setup_known
        assert again.setup_known[1] == frozenset(cards("QC AS"))


def test_from_position_accepts_a_records_position_as_it_is() -> None:
    game = lesson_with_known_cards()
    position = json.loads(dumps(game))["position"]
    again = Game.from_position(game.rules, **position)
    assert again.state == game.state
    assert again.setup_known == game.setup_known
    with pytest.raises(PositionError, match="known: no seat"):
        Game.from_position(game.rules, **dict(position, known={"seven": "QC"}))
