"""Fuzzing ``Game.play`` with illegal actions: refused with a reason, state left untouched.

During seeded random games of every preset (and the transfer / trump-swap / deck-size variants
the presets' notes offer) with every valid player count, each position is probed with many
candidate actions: every kind × every seat (also seats that do not exist) × cards from the full
52-card deck (also cards not in the deck in use, and cards of the seat's own hand) × targets.
A candidate outside the legal set must be refused with an :class:`IllegalAction` carrying a
:class:`Reason` and a message, leaving the state and the event log exactly as they were; a
candidate inside it must be accepted (and is then undone). Across the run, and a few targeted
positions for the rare ones, every :class:`Reason` must be produced at least once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache

import pytest

from durak_core import (
    PRESETS,
    Action,
    ActionKind,
    Card,
    Game,
    IllegalAction,
    Reason,
    Rules,
    make_deck,
)

from . import corpus
from .helpers import card, check_invariants

FULL_DECK = make_deck(52)
SEEDS_PER_TABLE = 1
SIMPLE_KINDS = (ActionKind.TAKE, ActionKind.PASS, ActionKind.SWAP, ActionKind.REDEAL)
CARD_KINDS = (ActionKind.LEAD, ActionKind.THROW, ActionKind.TRANSFER, ActionKind.FLASH)


CONFIGS = corpus.CONFIGS


def _candidates(game: Game, rng: random.Random) -> Iterator[Action]:
    """Every kind × every seat (and two seats that do not exist), with random cards and targets.

    Cards come from the full 52-card deck (so also from outside a 24- or 36-card deck) or,
    to get past «not in hand», from the seat's own hand and the table; a beat's target is
    any card or one of the attack cards. Some candidates are malformed on purpose: a take,
    pass or swap with a card, a lead, throw or transfer with a target, a beat without one.
    """
    s = game.state
    table = s.attacks + [d for d in s.defences if d is not None]

    def any_card() -> Card:
        return rng.choice(FULL_DECK)

    for seat in range(-1, game.players + 1):
        hand = s.hands[seat] if 0 <= seat < game.players else []
        near = hand + table
        for kind in SIMPLE_KINDS:
            yield Action(kind, seat)
            if rng.random() < 0.1:
                yield Action(kind, seat, any_card(), rng.choice([None, any_card()]))
        for kind in rng.sample(CARD_KINDS, 2):
            yield Action(kind, seat, any_card())
            if near:
                yield Action(kind, seat, rng.choice(near))
            if rng.random() < 0.1:
                yield Action(kind, seat, rng.choice([None, *near]), rng.choice([None, any_card()]))
        c = rng.choice(near) if near and rng.random() < 0.7 else any_card()
        target = rng.choice(s.attacks) if s.attacks and rng.random() < 0.7 else any_card()
        yield Action(ActionKind.BEAT, seat, c, target)
        if rng.random() < 0.1:
            yield Action(ActionKind.BEAT, seat, rng.choice([None, c]), rng.choice([None, target]))


def _expect_refused(game: Game, action: Action, key: tuple[object, ...] | None = None) -> Reason:
    """``play(action)`` must raise IllegalAction(reason, message) and change nothing.

    ``key`` is ``game.state.key()`` taken before (passed in to save time when probing many
    actions in one position); the event log must keep its length and its last events.
    """
    if key is None:
        key = game.state.key()
    n_events = game.event_count
    tail = game.events_since(max(0, n_events - 3))
    try:
        game.play(action)
    except IllegalAction as exc:
        refused = exc
    else:
        pytest.fail(f"{action} is not a legal action, but play() accepted it")
    assert isinstance(refused.reason, Reason), (action, refused.reason)
    assert str(refused), action
    assert refused.action == action
    assert game.state.key() == key, f"{action} was refused ({refused.reason}) but changed the state"
    assert game.event_count == n_events, f"{action} was refused but added events"
    assert game.events_since(max(0, n_events - 3)) == tail, (
        f"{action} was refused but changed events"
    )
    why = game.why_illegal(action)
    assert why is not None and why.reason is refused.reason, (action, why, refused)
    return refused.reason


def _expect_accepted_and_undo(game: Game, action: Action) -> None:
    before = game.state.copy()
    events = game.events
    game.play(action)  # must not raise
    assert game.undo() == action
    assert game.state == before
    assert game.events == events


@cache
def fuzz_run(config: str) -> frozenset[Reason]:
    """Fuzz the first ``SEEDS_PER_TABLE`` corpus games of each player count of one
    configuration at every position; the reasons seen (cached per config)."""
    seen: set[Reason] = set()
    for corpus_game in corpus.games(config):
        if corpus_game.seed >= SEEDS_PER_TABLE:
            continue
        universe = make_deck(corpus_game.rules.deck_size)
        rng = random.Random(str(corpus_game))
        game = corpus_game.deal()
        for played in (*corpus_game.actions, None):
            legal = list(game.legal_actions())
            legal_set = set(legal)
            for action in legal:  # the converse: every generated action is accepted
                _expect_accepted_and_undo(game, action)
            key = game.state.key()
            events = game.events
            for action in _candidates(game, rng):
                if action in legal_set:
                    _expect_accepted_and_undo(game, action)
                else:
                    seen.add(_expect_refused(game, action, key))
            assert game.events == events
            if played is None:
                assert not legal and game.outcome is not None
                break
            game.play(played)
            check_invariants(game, universe)
    return frozenset(seen)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_illegal_actions_are_refused_without_side_effects(config: str) -> None:
    reasons = fuzz_run(config)
    assert Reason.CARD_NOT_IN_HAND in reasons
    assert Reason.NO_SUCH_SEAT in reasons
    assert Reason.GAME_OVER in reasons


def test_refusal_messages_name_the_reason() -> None:
    game = Game.deal(Rules(), 2, seed=3)
    action = Action.throw(game.attacker, game.hand(game.attacker)[0])
    exc = game.why_illegal(action)
    assert exc is not None and exc.reason is Reason.MUST_LEAD
    assert exc.reason.value in str(exc)
    assert str(action) in str(exc)


# ---------------------------------------------------------------- targeted positions
#
# Positions for reasons that random games reach rarely or never; each states the reason it
# must produce.


def _refusal(game: Game, action: Action | str) -> Reason:
    if isinstance(action, str):
        action = Action.parse(action)
    assert action not in set(game.legal_actions())
    return _expect_refused(game, action)


def _swap_not_ace() -> Reason:
    game = Game.from_position(
        Rules(trump_swap="ace_only"),
        ["6S 7H 8H 9H 10H JH", "7C 8C 9C 10C JC QC"],
        stock="7D 8D 9D",
        turnup="KS",
    )
    return _refusal(game, Action.swap(0))


def _swap_not_original_holder() -> Reason:
    # Seat 1 picked the lowest trump up from the table: it was not dealt or drawn to him.
    game = Game.from_position(
        PRESETS["wikihow_home"].rules,
        ["6S 7H 8H 9H 10H JH", "7C 8C 9C 10C JC QC"],
        stock="7D 8D 9D 10D 6D 6C 6H",
        turnup="KS",
    )
    game.play("0:6S")
    game.play("1:take")
    game.play("0:pass")
    assert card("6S") in game.hand(1)
    return _refusal(game, Action.swap(1))


def _swap_no_lowest_trump() -> Reason:
    game = Game.from_position(
        PRESETS["wikihow_home"].rules,
        ["6S 7H 8H 9H 10H JH", "7C 8C 9C 10C JC QC"],
        stock="7D 8D 9D",
        turnup="KS",
    )
    return _refusal(game, Action.swap(1))


def _swap_window_closed() -> Reason:
    # The stock is gone and nobody holds the turn-up as his last drawn card.
    game = Game.from_position(
        PRESETS["wikihow_home"].rules,
        ["6S 7H 8H", "7C 8C 9C"],
        turnup=None,
        trump="S",
    )
    return _refusal(game, Action.swap(0))


def _swap_disabled() -> Reason:
    game = Game.deal(Rules(), 2, seed=1)
    return _refusal(game, Action.swap(0))


def _transfer_no_room() -> Reason:
    # The next defender (seat 2) holds one card: he could not face two.
    game = Game.from_position(
        Rules(transfer=True),
        ["9C 10C", "8D JH QH", "KD"],
        trump="S",
        table=[("8C", None)],
    )
    return _refusal(game, "1:>8D")


def _transfer_after_beat() -> Reason:
    game = Game.from_position(
        Rules(transfer=True),
        ["8H 10C", "8D JH QH 10S", "KD QD JD"],
        trump="S",
        table=[("8C", "9C"), ("8S", None)],
    )
    return _refusal(game, "1:>8D")


def _transfer_rank_mismatch() -> Reason:
    game = Game.from_position(
        Rules(transfer=True),
        ["9C 10C", "7D JH QH", "KD QD JD"],
        trump="S",
        table=[("8C", None)],
    )
    return _refusal(game, "1:>7D")


def _transfer_disabled() -> Reason:
    game = Game.from_position(
        Rules(), ["9C 10C", "8D JH QH", "KD QD JD"], trump="S", table=[("8C", None)]
    )
    return _refusal(game, "1:>8D")


def _already_passed() -> Reason:
    # wikiHow: the attacker adds until he passes; his pass is final for the bout.
    game = Game.from_position(
        PRESETS["wikihow_home"].rules,
        ["8H 9D 10D", "JH QH KH", "8D 7S 6D"],
        trump="S",
        table=[("8C", "9C")],
    )
    game.play("0:pass")
    return _refusal(game, "0:+8H")


def _not_a_neighbour() -> Reason:
    # Dáme Karty with 5 players: only the attacker (0) and the defender's left (2) throw in.
    game = Game.from_position(
        PRESETS["dame_karty"].rules,
        ["8H 9D", "JH QH KH", "7D 7S", "8D 10S", "JD QD"],
        trump="S",
        table=[("8C", "9C")],
    )
    return _refusal(game, "3:+8D")


def _only_first_rank() -> Reason:
    # «Vecinos» with 4 players: seat 3 is neither the attacker nor the next defender, so he may
    # add only the first attack card's rank (8), not the 9 that beat it.
    game = Game.from_position(
        PRESETS["durak_live_vecinos"].rules,
        ["10H", "JH QH KH AH", "10D", "9D JD"],
        trump="S",
        table=[("8C", "9C")],
    )
    game.play("0:pass")
    game.play("2:pass")
    return _refusal(game, "3:+9D")


def _malformed_action() -> Reason:
    # A take names no card; one that does is refused, not half-applied.
    game = Game.from_position(
        Rules(), ["9C 10C", "8D JH QH", "KD QD JD"], trump="S", table=[("8C", None)]
    )
    return _refusal(game, Action(ActionKind.TAKE, 1, card("8D")))


def _no_such_seat() -> Reason:
    game = Game.deal(Rules(), 3, seed=5)
    return _refusal(game, Action.pass_(3))


def _nothing_to_pass() -> Reason:
    game = Game.from_position(Rules(), ["8H 9D", "JH QH KH", "10S 7S"], trump="S")
    return _refusal(game, "2:pass")


def _player_out() -> Reason:
    game = Game.from_position(
        Rules(), ["8H 9D", "JH QH KH", "", "10S 7S"], trump="S", out=[2], discard="6S"
    )
    return _refusal(game, "2:pass")


def _partner_defends() -> Reason:
    # 2v2 (S0, S2): seat 0 attacks seat 1; seat 3, seat 1's partner, may not add against him.
    game = Game.from_position(
        Rules(teams="2v2"),
        ["8H 9D", "JH QH KH", "8D 7S", "8S 10S"],
        trump="S",
        table=[("8C", "9C")],
    )
    return _refusal(game, "3:+8S")


def _transfer_to_partner() -> Reason:
    # S2 «pairs» with transfers, seat 2 out: seat 1's next player is his partner, seat 3.
    game = Game.from_position(
        Rules(teams="2v2", team_rotation="individual", transfer=True),
        ["10D 8D", "9C QH", "", "JH QS"],
        trump="S",
        out=[2],
        discard="6S",
        table=[("9H", None)],
    )
    return _refusal(game, "1:>9C")


def _flash_disabled() -> Reason:
    game = Game.from_position(
        Rules(transfer=True), ["8H 9D", "8S QH KH", "7D 7S"], trump="S", table=[("8C", None)]
    )
    return _refusal(game, "1:!8S")


def _flash_not_trump() -> Reason:
    game = Game.from_position(
        Rules(transfer=True, flash=True),
        ["8H 9D", "8D QH", "7D 7S"],
        trump="S",
        table=[("8C", None)],
    )
    return _refusal(game, "1:!8D")


def _flash_already_shown() -> Reason:
    # S2: each trump may be flashed once per game; seat 1 showed 8♠ already.
    game = Game.from_position(
        Rules(transfer=True, flash=True),
        ["8H 9D", "8S QH", "7D 7S"],
        trump="S",
        table=[("8C", None)],
        flashed="8S",
    )
    return _refusal(game, "1:!8S")


def _redeal_disabled() -> Reason:
    return _refusal(Game.deal(Rules(), 2, seed=3), "0:redeal")


def _misdeal_rules() -> Rules:
    return Rules(misdeal="four_of_a_suit", misdeal_mode="on_request", max_redeals=1)


def _redeal_not_misdealt() -> Reason:
    game = Game.from_position(
        _misdeal_rules(), ["6H 7C 8D 9S 10H JC", "6C 7H 8S 9D 10C JH"], turnup="QS", stock="QC"
    )
    return _refusal(game, "1:redeal")


def _redeal_too_late() -> Reason:
    game = Game.from_position(
        _misdeal_rules(), ["6H 7H 8H 9H 10C JC", "6C 7D 8S 9D 10D JD"], turnup="QS", stock="QC"
    )
    game.play("0:6H")
    return _refusal(game, "0:redeal")


def _redeal_cap() -> Reason:
    game = Game.from_position(
        _misdeal_rules(),
        ["6H 7H 8H 9H 10C JC", "6C 7D 8S 9D 10D JD"],
        turnup="QS",
        stock="QC",
        redeals=1,
    )
    return _refusal(game, "0:redeal")


TARGETED: dict[Reason, Callable[[], Reason]] = {
    Reason.PARTNER_DEFENDS: _partner_defends,
    Reason.TRANSFER_TO_PARTNER: _transfer_to_partner,
    Reason.FLASH_DISABLED: _flash_disabled,
    Reason.FLASH_NOT_TRUMP: _flash_not_trump,
    Reason.FLASH_ALREADY_SHOWN: _flash_already_shown,
    Reason.REDEAL_DISABLED: _redeal_disabled,
    Reason.REDEAL_NOT_MISDEALT: _redeal_not_misdealt,
    Reason.REDEAL_TOO_LATE: _redeal_too_late,
    Reason.REDEAL_CAP: _redeal_cap,
    Reason.SWAP_NOT_ACE: _swap_not_ace,
    Reason.SWAP_NOT_ORIGINAL_HOLDER: _swap_not_original_holder,
    Reason.SWAP_NO_LOWEST_TRUMP: _swap_no_lowest_trump,
    Reason.SWAP_WINDOW_CLOSED: _swap_window_closed,
    Reason.SWAP_DISABLED: _swap_disabled,
    Reason.TRANSFER_NO_ROOM: _transfer_no_room,
    Reason.TRANSFER_AFTER_BEAT: _transfer_after_beat,
    Reason.TRANSFER_RANK_MISMATCH: _transfer_rank_mismatch,
    Reason.TRANSFER_DISABLED: _transfer_disabled,
    Reason.ALREADY_PASSED: _already_passed,
    Reason.NOT_A_NEIGHBOUR: _not_a_neighbour,
    Reason.ONLY_FIRST_RANK: _only_first_rank,
    Reason.MALFORMED_ACTION: _malformed_action,
    Reason.NO_SUCH_SEAT: _no_such_seat,
    Reason.NOTHING_TO_PASS: _nothing_to_pass,
    Reason.PLAYER_OUT: _player_out,
}


@pytest.mark.parametrize("reason", list(TARGETED), ids=lambda r: r.value)
def test_targeted_position_produces_reason(reason: Reason) -> None:
    assert TARGETED[reason]() is reason


def test_every_reason_is_produced() -> None:
    produced: set[Reason] = set()
    for config in CONFIGS:
        produced |= fuzz_run(config)
    for make in TARGETED.values():
        try:
            produced.add(make())
        except (AssertionError, ValueError):
            continue  # reported by test_targeted_position_produces_reason
    missing = sorted(r.value for r in Reason if r not in produced)
    assert not missing, f"reasons never produced: {missing}"
