"""Flash (S2 item 60; rules-research C17), the misdeal on request (S2 item 66; C20) and who
starts a later game (S0 items 24–27, S2; C6)."""

from __future__ import annotations

import pytest

from durak_core import (
    Action,
    EventKind,
    Game,
    Reason,
    Rules,
    RulesError,
    dumps,
    is_misdeal,
    loads,
    replay,
)

from .helpers import card, play, refuse

FLASH = Rules(transfer=True, flash=True)


def _flash_game(rules: Rules = FLASH) -> Game:
    # Spades are trumps. Seat 0 leads 8♣ at seat 1, who holds the trump 8♠.
    return Game.from_position(
        rules, ["8C 9D 10D", "8S QH KH", "7D 7H JC", "AH AD"], trump="S", discard="6S"
    )


def test_flash_shows_a_trump_keeps_it_and_passes_the_attack_on_s2_item60() -> None:
    game = _flash_game()
    play(game, "0:8C 1:!8S")
    assert (game.attacker, game.defender) == (1, 2)
    assert card("8S") in game.hand(1)  # shown, not played
    assert len(game.table) == 1  # nothing was added to the table
    assert game.state.flashed == frozenset({card("8S")})
    event = game.events[-1]
    assert event.kind is EventKind.FLASH and event.other == 2
    assert card("8S") in game.known_cards()[1]  # everybody saw it


def test_flash_only_with_a_trump_of_the_attacks_rank_s2() -> None:
    game = Game.from_position(
        FLASH, ["8C 9D", "8H 9S QH", "7D 7H JC", "AH AD"], trump="S", discard="6S"
    )
    play(game, "0:8C")
    refuse(game, "1:!8H", Reason.FLASH_NOT_TRUMP, exact=False)
    refuse(game, "1:!9S", Reason.TRANSFER_RANK_MISMATCH, exact=False)


def test_no_flash_once_a_card_is_beaten_s2_item58() -> None:
    game = Game.from_position(
        FLASH, ["8C 8D", "8S QC KH", "7D 7H JC", "AH AD"], trump="S", discard="6S"
    )
    play(game, "0:8C 1:QC/8C 0:+8D")
    refuse(game, "1:!8S", Reason.TRANSFER_AFTER_BEAT)


def test_flash_needs_room_in_the_next_hand_s1_item58() -> None:
    # Two eights on the table; the next player holds one card: he could not face them.
    game = Game.from_position(
        FLASH, ["9C", "8S QH", "7D", "AH AD"], trump="S", table=[("8C", None), ("8D", None)]
    )
    refuse(game, "1:!8S", Reason.TRANSFER_NO_ROOM, exact=False)


def test_each_trump_is_flashed_once_per_game_s2_or_once_per_bout_c17() -> None:
    hands = ["8C 8D 9D 10D JD", "8S QH KH AH", "7D 7H JC QC", "AC AD KC KD"]
    for reuse, again in (("once_per_game", False), ("once_per_bout", True)):
        rules = FLASH.replace(flash_reuse=reuse)
        game = Game.from_position(rules, hands, trump="S", discard="6S")
        play(game, "0:8C 1:!8S 2:take 1:pass 3:pass 0:pass")
        # the bout is over: under once-per-game 8♠ stays shown for good, and a later try
        # to show it again is refused; under once-per-bout it may be shown again
        assert game.attacker == 3
        assert (card("8S") in game.state.flashed) is not again
        later = Game.from_position(
            rules,
            game.position().hands,
            trump="S",
            table=[("8H", None)],
            attacker=0,
            defender=1,
            flashed=game.position().flashed,
            discard=game.position().discard,
        )
        if again:
            assert later.is_legal(Action.flash(1, "8S"))
        else:
            refuse(
                later, "1:!8S", Reason.FLASH_ALREADY_SHOWN, card=card("8S"), reuse=rules.flash_reuse
            )


def test_flash_is_a_way_to_transfer() -> None:
    with pytest.raises(RulesError, match="transfer"):
        Rules(flash=True)
    game = _flash_game(Rules(transfer=True))
    play(game, "0:8C")
    refuse(game, "1:!8S", Reason.FLASH_DISABLED)


ON_REQUEST = Rules(misdeal="four_of_a_suit", misdeal_mode="on_request", max_redeals=2)
FOUR_HEARTS = ["6H 7H 8H 9H 10C JC", "6C 7D 8S 9D 10S JD"]


def test_a_misdealt_hand_may_ask_for_a_new_deal_before_the_first_lead_s2_item66() -> None:
    game = Game.from_position(ON_REQUEST, FOUR_HEARTS, turnup="QS", stock="QC KC")
    assert is_misdeal(game.hand(0), ON_REQUEST.misdeal)
    assert Action.redeal(0) in game.legal_actions()
    refuse(game, "1:redeal", Reason.REDEAL_NOT_MISDEALT, seat=1, rule=ON_REQUEST.misdeal)
    before = game.state.copy()
    play(game, "0:redeal")
    after = game.state
    assert after.redeals == 1
    assert after.hands != before.hands  # shuffled and dealt again, the same cards
    assert sorted([*(c for h in after.hands for c in h), *after.stock]) == sorted(
        [*(c for h in before.hands for c in h), *before.stock]
    )
    kinds = [e.kind for e in game.events]
    assert EventKind.MISDEAL in kinds and kinds[-1] is EventKind.BOUT_START
    assert game.undo() == Action.redeal(0)
    assert game.state == before


def test_no_new_deal_after_the_first_lead_or_beyond_the_cap_c20() -> None:
    game = Game.from_position(ON_REQUEST, FOUR_HEARTS, turnup="QS", stock="QC KC")
    play(game, "0:6H")
    refuse(game, "0:redeal", Reason.REDEAL_TOO_LATE)
    capped = Game.from_position(ON_REQUEST, FOUR_HEARTS, turnup="QS", stock="QC KC", redeals=2)
    refuse(capped, "0:redeal", Reason.REDEAL_CAP, max_redeals=2)
    off = Game.from_position(Rules(), FOUR_HEARTS, turnup="QS", stock="QC KC")
    refuse(off, "0:redeal", Reason.REDEAL_DISABLED)


def test_a_game_with_new_deals_replays_exactly_from_its_record() -> None:
    for seed in range(200):
        game = Game.deal(ON_REQUEST, 3, seed=seed)
        redeal = [a for a in game.legal_actions() if a.kind.value == "redeal"]
        if redeal:
            break
    else:
        pytest.fail("no misdealt hand in 200 deals (S2's rule fires in ~28% of them)")
    game.play(redeal[0])
    for _ in range(10):
        game.play(next(iter(game.legal_actions())))
    again = replay(loads(dumps(game)))
    assert again.state == game.state
    assert again.events == game.events


def test_mandatory_misdeal_deals_again_and_the_record_tells_it_s2() -> None:
    rules = Rules(misdeal="four_of_a_suit")
    game = next(g for g in (Game.deal(rules, 2, seed=s) for s in range(50)) if g.origin["redeals"])
    misdeals = [e for e in game.events if e.kind is EventKind.MISDEAL]
    assert len(misdeals) == game.origin["redeals"] == len(game.origin["misdealt"])
    for event in misdeals:
        assert is_misdeal(event.cards, rules.misdeal)
    again = replay(loads(dumps(game)))
    assert again.events == game.events and again.state == game.state


@pytest.mark.parametrize(
    ("start", "attacker", "defender"),
    [("left_of_durak", 3, 0), ("durak_attacked_first", 1, 2)],
)
def test_a_later_game_starts_left_of_the_durak_or_attacks_him_s0_s2_c6(
    start: str, attacker: int, defender: int
) -> None:
    # The previous durak is seat 2 of 4. S0/S2: the player on his left leads; S0's «the
    # fool is taught»: the player on his right attacks him first.
    game = Game.deal(Rules(next_game_start=start), 4, seed=7, previous_durak=2)
    assert (game.attacker, game.defender) == (attacker, defender)
    first = next(e for e in game.events if e.kind is EventKind.FIRST_ATTACKER)
    assert first.detail == start
    # the first game of a match still starts with the lowest trump
    assert Game.deal(Rules(next_game_start=start), 4, seed=7).events[2].detail in (
        "lowest_trump",
        "random",
    )


def test_wikihow_home_keeps_the_previous_durak_after_an_all_empty_finish_s0_item27() -> None:
    # S0: «El jugador durak anterior es el nuevo durak» (the preset used to declare a draw).
    game = Game.from_position(
        Rules.preset("wikihow_home"), ["7D", "8D"], trump="S", previous_durak=1
    )
    play(game, "0:7D 1:8D/7D")
    assert game.outcome is not None and game.outcome.durak == 1 and not game.outcome.is_draw
