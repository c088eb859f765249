"""Rules, presets, validation and serialisation (durak_core.rules)."""

from __future__ import annotations

import dataclasses
import json
from enum import StrEnum

import pytest

from durak_core import (
    PRESETS,
    AttackerAfterDefenderOut,
    CapScope,
    FirstAttacker,
    FirstBoutCap,
    HandCap,
    NextGameStart,
    NoTrumpFallback,
    Preset,
    Rank,
    Rules,
    RulesError,
    ThrowInPriority,
    ThrowInRights,
    ThrowInTiming,
    TrumpSwap,
)

PRESET_NAMES = sorted(PRESETS)
SOURCES = {"S0", "S1", "S2", "S3", "S4"}

ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "first_attacker": FirstAttacker,
    "no_trump_fallback": NoTrumpFallback,
    "cap_scope": CapScope,
    "hand_cap": HandCap,
    "first_bout_cap": FirstBoutCap,
    "throw_in_rights": ThrowInRights,
    "throw_in_priority": ThrowInPriority,
    "throw_in_timing": ThrowInTiming,
    "attacker_after_defender_out": AttackerAfterDefenderOut,
    "trump_swap": TrumpSwap,
}

# What rules-research.md §2 ("Suggested presets") says distinguishes each preset from the
# defaults (the classic preset). Only these fields may differ from classic.
EXPECTED_DIFFERENCES: dict[str, dict[str, object]] = {
    "classic": {},
    "matsuri": {"max_players": 4},
    "dame_karty": {"neighbours_only_from": 5},
    "durak_live_vecinos": {
        "first_bout_cap": FirstBoutCap.UNTIL_FIRST_DISCARD,
        "throw_in_rights": ThrowInRights.VECINOS,
    },
    "durak_live_todos": {"first_bout_cap": FirstBoutCap.UNTIL_FIRST_DISCARD},
    "wikihow_home": {
        "first_bout_cap": FirstBoutCap.FIRST_BOUT_4PLUS,
        "neighbours_only_from": 5,
        "throw_in_priority": ThrowInPriority.ATTACKER_UNTIL_PASS,
        "attacker_after_defender_out": AttackerAfterDefenderOut.PREVIOUS_ATTACKER,
        "trump_swap": TrumpSwap.ANY,
        # S0: «El jugador durak anterior es el nuevo durak» when everyone empties at once
        "allow_draw": False,
        # S0: a later game starts from the player left of the previous durak
        "next_game_start": NextGameStart.LEFT_OF_DURAK,
    },
    "wikipedia": {
        "cap_scope": CapScope.UNBEATEN,
        "throw_in_priority": ThrowInPriority.FREE,
        "throw_in_timing": ThrowInTiming.ANY_TIME,
        "next_game_start": NextGameStart.LEFT_OF_DURAK,  # S2: the player left of the durak
    },
}

EXPECTED_SOURCES = {
    "matsuri": "S1",
    "dame_karty": "S3",
    "durak_live_vecinos": "S4",
    "durak_live_todos": "S4",
    "wikihow_home": "S0",
    "wikipedia": "S2",
}


# ---------------------------------------------------------------- defaults and presets


def test_defaults_equal_classic_preset() -> None:
    assert Rules() == Rules.preset("classic")
    assert PRESETS["classic"].rules == Rules()
    assert Rules().differences(Rules.preset("classic")) == {}


def test_default_values_follow_the_research_table() -> None:
    r = Rules()
    assert r.deck_size == 36 and r.lowest_rank is Rank.SIX
    assert r.hand_size == 6
    assert (r.min_players, r.max_players) == (2, 6)
    assert r.first_attacker is FirstAttacker.LOWEST_TRUMP
    assert r.no_trump_fallback is NoTrumpFallback.RANDOM
    assert r.attack_cap == 6
    assert r.cap_scope is CapScope.TOTAL
    assert r.hand_cap is HandCap.AT_DEFENCE_START
    assert r.first_bout_cap is FirstBoutCap.NONE
    assert r.throw_in_rights is ThrowInRights.ALL
    assert r.neighbours_only_from is None
    assert r.throw_in_priority is ThrowInPriority.ATTACKER_FIRST_RESET
    assert r.throw_in_timing is ThrowInTiming.AFTER_ALL_BEATEN
    assert r.throw_in_after_take is True
    assert r.transfer is False
    assert r.attacker_after_defender_out is AttackerAfterDefenderOut.NEXT_ACTIVE
    assert r.trump_swap is TrumpSwap.OFF
    assert r.allow_draw is True


def test_every_preset_is_covered() -> None:
    assert set(PRESETS) == set(EXPECTED_DIFFERENCES)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_constructs_and_cites_sources(name: str) -> None:
    preset = PRESETS[name]
    assert isinstance(preset, Preset)
    assert preset.name == name
    assert isinstance(preset.rules, Rules)
    assert Rules.preset(name) == preset.rules
    assert preset.sources and set(preset.sources) <= SOURCES
    assert preset.summary.strip()
    if name in EXPECTED_SOURCES:
        assert EXPECTED_SOURCES[name] in preset.sources
    # re-validating the preset's values gives the same rules
    assert Rules(**{f.name: getattr(preset.rules, f.name) for f in dataclasses.fields(Rules)}) == (
        preset.rules
    )


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_distinguishing_fields(name: str) -> None:
    rules = Rules.preset(name)
    expected = EXPECTED_DIFFERENCES[name]
    for field_name, value in expected.items():
        assert getattr(rules, field_name) == value, field_name
    assert set(Rules().differences(rules)) == set(expected)


def test_preset_specifics_from_the_brief() -> None:
    vecinos = Rules.preset("durak_live_vecinos")
    assert vecinos.first_bout_cap is FirstBoutCap.UNTIL_FIRST_DISCARD
    assert vecinos.throw_in_rights is ThrowInRights.VECINOS
    assert vecinos.first_bout_cap_value == 5 and vecinos.attack_cap == 6

    wiki = Rules.preset("wikipedia")
    assert wiki.cap_scope is CapScope.UNBEATEN
    assert wiki.throw_in_priority is ThrowInPriority.FREE
    assert wiki.throw_in_timing is ThrowInTiming.ANY_TIME

    assert Rules.preset("dame_karty").neighbours_only_from == 5
    assert Rules.preset("dame_karty").first_bout_cap is FirstBoutCap.NONE

    home = Rules.preset("wikihow_home")
    assert home.throw_in_priority is ThrowInPriority.ATTACKER_UNTIL_PASS
    assert home.attacker_after_defender_out is AttackerAfterDefenderOut.PREVIOUS_ATTACKER
    assert home.trump_swap is TrumpSwap.ANY
    assert home.first_bout_cap is FirstBoutCap.FIRST_BOUT_4PLUS

    assert Rules.preset("matsuri").max_players == 4


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="unknown preset 'nope'") as info:
        Rules.preset("nope")
    for name in PRESETS:
        assert name in str(info.value)


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.deck_size = 24  # type: ignore[misc]
    assert hash(Rules()) == hash(Rules.preset("classic"))
    assert len({Rules.preset(n) for n in PRESETS}) == len(PRESETS)


def test_docstring_examples() -> None:
    assert Rules.preset("durak_live_vecinos").throw_in_rights is ThrowInRights.VECINOS
    assert Rules(deck_size=24).lowest_rank is Rank.NINE
    assert Rules(deck_size=52).lowest_rank is Rank.TWO


# ---------------------------------------------------------------- validation


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize("size", [0, 20, 32, 40, 54, "36"])
def test_bad_deck_size(size: object) -> None:
    with pytest.raises(RulesError, match="deck_size must be one of") as info:
        Rules(deck_size=size)  # type: ignore[arg-type]
    message = str(info.value)
    assert "[24, 36, 52]" in message
    assert str(size) in message


@pytest.mark.parametrize("size", [24, 36])
def test_seven_card_hands_need_52_cards(size: int) -> None:
    with pytest.raises(RulesError, match=r"7-card hand.*52-card deck"):
        Rules(hand_size=7, deck_size=size)
    assert Rules(hand_size=7, deck_size=52).hand_size == 7


@pytest.mark.parametrize("hand", [0, 5, 8])
def test_bad_hand_size(hand: int) -> None:
    with pytest.raises(RulesError, match=f"hand_size must be 6 or 7, not {hand}"):
        Rules(hand_size=hand)


@pytest.mark.parametrize("field_name", sorted(ENUM_FIELDS))
def test_bad_enum_string_lists_allowed_values(field_name: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**{field_name: "bogus_value"})
    message = str(info.value)
    assert field_name in message
    assert "'bogus_value'" in message
    for member in ENUM_FIELDS[field_name]:
        assert repr(member.value) in message


@pytest.mark.parametrize("field_name", sorted(ENUM_FIELDS))
def test_enum_fields_accept_their_string_values(field_name: str) -> None:
    for member in ENUM_FIELDS[field_name]:
        value = getattr(Rules(**{field_name: member.value}), field_name)
        assert value is member
        assert type(value) is ENUM_FIELDS[field_name]


def test_neighbours_only_from_with_vecinos() -> None:
    with pytest.raises(RulesError, match="neighbours_only_from") as info:
        Rules(neighbours_only_from=5, throw_in_rights=ThrowInRights.VECINOS)
    assert "'vecinos'" in str(info.value)
    with pytest.raises(RulesError, match="'neighbours'"):
        Rules(neighbours_only_from=5, throw_in_rights="neighbours")
    with pytest.raises(RulesError, match="neighbours_only_from"):
        Rules.preset("durak_live_vecinos").replace(neighbours_only_from=5)


@pytest.mark.parametrize("value", [0, 1, 2, 7])
def test_neighbours_only_from_range(value: int) -> None:
    with pytest.raises(RulesError, match=f"neighbours_only_from must be None or 3..6, not {value}"):
        Rules(neighbours_only_from=value)


def test_first_bout_cap_value_bounds() -> None:
    with pytest.raises(RulesError, match=r"first_bout_cap_value.*attack_cap \(6\).*not 7"):
        Rules(first_bout_cap_value=7)
    with pytest.raises(RulesError, match=r"attack_cap \(4\).*not 5"):
        Rules(attack_cap=4)  # the default first_bout_cap_value 5 is now above the cap
    with pytest.raises(RulesError, match="first_bout_cap_value"):
        Rules(first_bout_cap_value=0)
    assert Rules(attack_cap=4, first_bout_cap_value=4).attack_cap == 4
    assert Rules(attack_cap=7, first_bout_cap_value=7).first_bout_cap_value == 7


@pytest.mark.parametrize("cap", [0, 8, -1])
def test_attack_cap_bounds(cap: int) -> None:
    with pytest.raises(RulesError, match=f"attack_cap must be between 1 and 7, not {cap}"):
        Rules(attack_cap=cap)


@pytest.mark.parametrize(("lo", "hi"), [(1, 6), (2, 7), (4, 3), (0, 0)])
def test_player_bounds(lo: int, hi: int) -> None:
    with pytest.raises(RulesError, match=f"min_players <= max_players <= 6.*{lo}..{hi}"):
        Rules(min_players=lo, max_players=hi)


def test_replace() -> None:
    rules = Rules.preset("matsuri").replace(transfer=True)
    assert rules.transfer is True and rules.max_players == 4
    assert Rules.preset("matsuri").transfer is False  # the preset is unchanged
    assert Rules().replace(throw_in_rights="neighbours").throw_in_rights is ThrowInRights.NEIGHBOURS
    assert Rules().replace() == Rules()


def test_replace_unknown_field() -> None:
    with pytest.raises(RulesError, match=r"unknown rules field.*colour"):
        Rules().replace(colour="red")
    with pytest.raises(RulesError, match="bogus, colour"):
        Rules().replace(colour="red", bogus=1, deck_size=24)


def test_replace_validates_again() -> None:
    with pytest.raises(RulesError, match="deck_size"):
        Rules().replace(deck_size=30)
    with pytest.raises(RulesError, match="7-card"):
        Rules(deck_size=52, hand_size=7).replace(deck_size=36)


# ---------------------------------------------------------------- players


def test_six_players_with_24_cards() -> None:
    with pytest.raises(RulesError) as info:
        Rules(deck_size=24).check_players(6)
    assert str(info.value) == "6 players need 36 cards (6 each) but a 24-card deck has only 24"
    with pytest.raises(RulesError, match="5 players need 30 cards"):
        Rules(deck_size=24).check_players(5)
    Rules(deck_size=24).check_players(4)  # 24 cards dealt, no stock


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_36_cards_take_two_to_six(players: int) -> None:
    Rules().check_players(players)


@pytest.mark.parametrize("players", [0, 1, 7, -2])
def test_player_count_out_of_range(players: int) -> None:
    with pytest.raises(RulesError, match=f"for 2 to 6 players, not {players}"):
        Rules().check_players(players)


def test_seven_card_hands_need_five_or_six_players() -> None:
    rules = Rules(deck_size=52, hand_size=7)
    for players in (2, 3, 4):
        with pytest.raises(RulesError, match=r"7-card hand.*5 or 6 players"):
            rules.check_players(players)
    rules.check_players(5)
    rules.check_players(6)


def test_matsuri_rejects_five_players() -> None:
    rules = Rules.preset("matsuri")
    for players in (2, 3, 4):
        rules.check_players(players)
    for players in (5, 6):
        with pytest.raises(RulesError, match=f"2 to 4 players, not {players}"):
            rules.check_players(players)


def test_min_players() -> None:
    with pytest.raises(RulesError, match="3 to 6 players, not 2"):
        Rules(min_players=3).check_players(2)


# ---------------------------------------------------------------- serialisation


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_dict_round_trip(name: str) -> None:
    rules = Rules.preset(name)
    data = rules.to_dict()
    assert set(data) == {f.name for f in dataclasses.fields(Rules)}
    assert Rules.from_dict(data) == rules
    text = json.dumps(data)
    assert Rules.from_dict(json.loads(text)) == rules
    for value in data.values():
        assert value is None or type(value) in (int, str, bool)
    for field_name, enum_type in ENUM_FIELDS.items():
        assert data[field_name] == getattr(rules, field_name).value
        assert enum_type(data[field_name]) is getattr(rules, field_name)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_dict_round_trip_with_variations(name: str) -> None:
    rules = Rules.preset(name).replace(deck_size=52, transfer=True, allow_draw=False)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_from_dict_does_not_modify_its_argument() -> None:
    data = {"preset": "wikipedia", "transfer": True}
    Rules.from_dict(data)
    assert data == {"preset": "wikipedia", "transfer": True}


def test_from_dict_with_preset_and_overrides() -> None:
    rules = Rules.from_dict({"preset": "wikipedia", "transfer": True, "deck_size": 24})
    assert rules == Rules.preset("wikipedia").replace(transfer=True, deck_size=24)
    assert Rules.from_dict({"preset": "matsuri"}) == Rules.preset("matsuri")
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"trump_swap": "ace_only"}).trump_swap is TrumpSwap.ACE_ONLY


def test_from_dict_errors() -> None:
    with pytest.raises(RulesError, match="unknown preset 'house'"):
        Rules.from_dict({"preset": "house"})
    with pytest.raises(RulesError, match=r"unknown rules field.*colour"):
        Rules.from_dict({"preset": "classic", "colour": "red"})
    with pytest.raises(RulesError, match="throw_in_rights must be one of"):
        Rules.from_dict({"throw_in_rights": "everyone"})
    with pytest.raises(RulesError, match="neighbours_only_from"):
        Rules.from_dict({"preset": "durak_live_vecinos", "neighbours_only_from": 5})


def test_differences() -> None:
    classic, wiki = Rules(), Rules.preset("wikipedia")
    assert classic.differences(wiki) == {
        "cap_scope": ("total", "unbeaten"),
        "throw_in_priority": ("attacker_first_reset", "free"),
        "throw_in_timing": ("after_all_beaten", "any_time"),
        "next_game_start": ("lowest_trump", "left_of_durak"),
    }
    assert wiki.differences(classic) == {
        k: (b, a) for k, (a, b) in classic.differences(wiki).items()
    }
    assert classic.differences(classic) == {}
    assert Rules().differences(Rules(deck_size=24)) == {"deck_size": (36, 24)}
    assert Rules().differences(Rules.preset("dame_karty")) == {"neighbours_only_from": (None, 5)}
    json.dumps(classic.differences(Rules.preset("wikihow_home")))
