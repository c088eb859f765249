"""The Game API (durak_core.game): legal-action views, play/push/undo/copy, explanations,
outcomes and the validation of explicit positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from durak_core import (
    PRESETS,
    Action,
    ActionKind,
    Cap,
    Card,
    Game,
    IllegalAction,
    LegalActions,
    NotationError,
    Outcome,
    Phase,
    PositionError,
    Reason,
    Rules,
    Suit,
)

from .helpers import card, cards


def four_player_bout(rules: Rules | None = None, *, beaten: bool = True, **kw: Any) -> Game:
    """Seat 0 attacks seat 1 (three cards); 8♣ is on the table, beaten by 10♣ or not."""
    return Game.from_position(
        rules or Rules(),
        ["7D 8S", "9C 10D QD", "JH QH", "6D KS"],
        table=[("8C", "10C" if beaten else None)],
        trump="S",
        **kw,
    )


def all_candidates(game: Game) -> set[Action]:
    """Every action of every kind a seat could name with the cards in play."""
    s = game.state
    out: set[Action] = set()
    for seat in range(game.players):
        out |= {Action.take(seat), Action.pass_(seat), Action.swap(seat)}
        for c in s.hands[seat]:
            out |= {Action.lead(seat, c), Action.throw(seat, c), Action.transfer(seat, c)}
            out |= {Action.beat(seat, c, a) for a in s.attacks}
    return out


def random_game(preset: str, players: int, seed: int, steps: int, **overrides: Any) -> Game:
    game = Game.deal(Rules.preset(preset).replace(**overrides), players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.outcome is not None:
            break
        game.play(rng.choice(list(game.legal_actions())))
    return game


# ---------------------------------------------------------------- construction


def test_game_cannot_be_constructed_directly() -> None:
    with pytest.raises(TypeError, match=r"Game\.deal.*Game\.from_position"):
        Game()


def test_deal_is_deterministic() -> None:
    a = Game.deal(Rules(), 4, seed=12)
    b = Game.deal(Rules(), 4, seed=12)
    assert a.state == b.state and a.events == b.events
    assert Game.deal(Rules(), 4, seed=13).state != a.state
    assert a.origin["seed"] == 12
    assert a.players == 4 and a.rules == Rules()


def test_deal_validation() -> None:
    with pytest.raises(ValueError, match="for 2 to 4 players, not 5"):
        Game.deal(Rules.preset("matsuri"), 5, seed=1)
    with pytest.raises(PositionError, match=r"dealer must be a seat 0\.\.2, not 3"):
        Game.deal(Rules(), 3, seed=1, dealer=3)


# ---------------------------------------------------------------- LegalActions


def test_legal_actions_view_basics() -> None:
    game = Game.deal(Rules(), 2, seed=7)
    legal = game.legal_actions()
    assert isinstance(legal, LegalActions)
    listed = list(legal)
    assert listed and len(set(listed)) == len(listed)
    assert bool(legal) is True
    assert legal.count() == len(listed)
    assert all(a in legal for a in listed)
    attacker = game.attacker
    assert all(a.kind is ActionKind.LEAD and a.seat == attacker for a in listed)
    assert {a.card for a in listed} == set(game.hand(attacker))
    assert legal.for_seat(attacker) == listed
    assert legal.for_seat(1 - attacker) == []
    assert "0:8C" not in legal  # only Action objects are members
    assert None not in legal
    assert ("lead", attacker, listed[0].card) not in legal
    assert repr(legal).startswith("<LegalActions (") and str(listed[0]) in repr(legal)


def test_legal_actions_view_re_evaluates_after_play() -> None:
    game = Game.deal(Rules(), 2, seed=7)
    legal = game.legal_actions()
    before = list(legal)
    first = before[0]
    game.play(first)
    after = list(legal)  # the same view object, iterated again
    assert after != before
    assert first not in legal
    assert after == list(game.legal_actions())
    assert legal.count() == len(after)
    game.undo()
    assert list(legal) == before
    assert first in legal


def test_legal_actions_empty_when_over() -> None:
    game = Game.from_position(Rules(), ["7D", "8D"], trump="S")
    game.play("0:7D")
    legal = game.legal_actions()
    game.play("1:8D/7D")
    assert game.outcome is not None
    assert not legal
    assert bool(legal) is False
    assert legal.count() == 0
    assert list(legal) == []
    assert legal.for_seat(0) == []
    assert game.acting_seats() == []
    assert game.current_player() is None


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_membership_agrees_with_generation(preset: str) -> None:
    """``in`` (the checker) and iteration (the generator) agree on every nameable action."""
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        game = Game.deal(
            Rules.preset(preset).replace(transfer=preset != "dame_karty"), players, seed
        )
        rng = random.Random(seed)
        steps = 0
        while game.outcome is None and steps < 60:
            legal = game.legal_actions()
            generated = set(legal)
            assert len(generated) == legal.count()
            candidates = all_candidates(game)
            assert generated <= candidates
            for action in candidates:
                assert (action in legal) == (action in generated), action
                assert game.is_legal(action) == (action in generated)
                assert (game.why_illegal(action) is None) == (action in generated)
            for seat in range(players):
                assert legal.for_seat(seat) == [a for a in legal if a.seat == seat]
            assert game.acting_seats() == sorted({a.seat for a in generated})
            game.play(rng.choice(sorted(generated, key=str)))
            steps += 1


# ---------------------------------------------------------------- play, push, undo


def test_play_accepts_notation_strings() -> None:
    by_string = Game.deal(Rules(), 3, seed=5)
    by_action = Game.deal(Rules(), 3, seed=5)
    rng = random.Random(5)
    for _ in range(25):
        if by_action.outcome is not None:
            break
        action = rng.choice(list(by_action.legal_actions()))
        by_action.play(action)
        by_string.play(action.notation(unicode=rng.random() < 0.5))
        assert by_string.state == by_action.state
    assert by_string.history == by_action.history
    assert by_string.events == by_action.events


def test_play_refuses_bad_notation_and_illegal_actions_without_change() -> None:
    game = Game.deal(Rules(), 2, seed=3)
    state, events = game.state.copy(), game.events
    with pytest.raises(NotationError):
        game.play("0:8X")
    defender = game.defender
    with pytest.raises(IllegalAction) as info:
        game.play(f"{defender}:take")
    assert info.value.reason is Reason.MUST_LEAD
    assert info.value.action == Action.take(defender)
    not_mine = game.hand(defender)[0]
    with pytest.raises(IllegalAction) as info:
        game.play(Action.lead(game.attacker, not_mine))
    assert info.value.reason is Reason.CARD_NOT_IN_HAND
    assert info.value.params == {"seat": game.attacker, "card": not_mine}
    assert game.state == state and game.events == events and game.history == ()


def test_push_applies_legal_actions_like_play() -> None:
    pushed = Game.deal(Rules.preset("wikipedia"), 4, seed=8)
    played = Game.deal(Rules.preset("wikipedia"), 4, seed=8)
    rng = random.Random(8)
    while played.outcome is None:
        action = rng.choice(list(played.legal_actions()))
        played.play(action)
        pushed.push(action)
        assert pushed.state == played.state
    assert pushed.history == played.history and pushed.events == played.events
    assert pushed.outcome == played.outcome
    pushed.undo()
    played.undo()
    assert pushed.state == played.state


def test_undo_restores_exact_state_and_events() -> None:
    game = Game.deal(Rules.preset("wikihow_home"), 3, seed=4)
    rng = random.Random(4)
    snapshots = []
    while game.outcome is None:
        action = rng.choice(list(game.legal_actions()))
        snapshots.append((game.state.copy(), game.events, game.history, action))
        game.play(action)
    assert len(snapshots) > 20
    for state, events, history, action in reversed(snapshots):
        assert game.undo() == action
        assert game.state == state
        assert game.events == events
        assert game.history == history
    with pytest.raises(IndexError, match="nothing to undo"):
        game.undo()
    assert game.state == Game.deal(Rules.preset("wikihow_home"), 3, seed=4).state


def test_undo_returns_the_action() -> None:
    game = Game.deal(Rules(), 2, seed=7)
    first = next(iter(game.legal_actions()))
    game.play(first)
    assert game.undo() == first


def test_undo_when_empty() -> None:
    game = Game.deal(Rules(), 2, seed=1)
    with pytest.raises(IndexError):
        game.undo()
    position = four_player_bout()
    with pytest.raises(IndexError):
        position.undo()


def test_undo_then_replay_is_stable() -> None:
    game = random_game("classic", 3, 6, 15)
    state, events = game.state.copy(), game.events
    action = next(iter(game.legal_actions()))
    for _ in range(3):
        game.play(action)
        game.undo()
        assert game.state == state and game.events == events


# ---------------------------------------------------------------- copy


def test_copy_is_independent() -> None:
    game = random_game("classic", 3, 2, 10)
    state, events, history = game.state.copy(), game.events, game.history
    clone = game.copy()
    assert clone.state == game.state and clone.state is not game.state
    # the copy keeps the record of actions and, by default, the undo snapshots
    assert clone.events == game.events and clone.history == game.history
    assert clone.rules == game.rules and clone.players == game.players
    assert clone.origin == game.origin
    rng = random.Random(2)
    while clone.outcome is None:
        clone.play(rng.choice(list(clone.legal_actions())))
    assert game.state == state and game.events == events and game.history == history
    with pytest.raises(IndexError, match="no snapshot"):
        game.copy(history=False).undo()
    with pytest.raises(RuntimeError, match="undo=False"):
        game.copy(undo=False).undo()
    # and the other way round
    clone = game.copy()
    game.play(next(iter(game.legal_actions())))
    assert clone.state == state


def test_copy_with_history_can_undo() -> None:
    game = random_game("classic", 3, 2, 10)
    clone = game.copy(history=True)
    assert clone.history == game.history
    clone.undo()
    assert clone.history == game.history[:-1]
    assert len(game.history) == 10


def test_copy_with_history_does_not_share_undo_snapshots() -> None:
    """Undoing and playing on a copy must not change what the original's undo restores."""
    game = Game.deal(Rules(), 2, seed=1)
    fresh = game.state.copy()
    first, other = list(game.legal_actions())[:2]
    game.play(first)
    clone = game.copy(history=True)
    assert clone.undo() == first
    assert clone.state == fresh
    clone.play(other)
    assert game.undo() == first
    assert game.state == fresh, "the copy's moves leaked into the original's undo snapshot"


# ---------------------------------------------------------------- explanations


def test_why_illegal() -> None:
    game = four_player_bout(beaten=False)
    assert game.why_illegal(Action.beat(1, card("9C"), card("8C"))) is None
    refusal = game.why_illegal(Action.beat(1, card("10D"), card("8C")))
    assert isinstance(refusal, IllegalAction)
    assert refusal.reason is Reason.CANNOT_BEAT
    assert refusal.params["why"] == "wrong_suit"
    assert refusal.params["card"] == card("10D") and refusal.params["target"] == card("8C")
    assert refusal.action == Action.beat(1, card("10D"), card("8C"))
    assert "cannot_beat" in str(refusal)
    with pytest.raises(IllegalAction) as info:
        game.play(Action.beat(1, card("10D"), card("8C")))
    assert info.value.reason is refusal.reason and info.value.params == refusal.params
    refusal = game.why_illegal(Action.throw(0, card("8S")))
    assert refusal is not None and refusal.reason is Reason.WAIT_FOR_DEFENCE
    assert refusal.params == {"unbeaten": 1}
    refusal = game.why_illegal(Action.pass_(1))
    assert refusal is not None and refusal.reason is Reason.DEFENDER_CANNOT_PASS
    refusal = game.why_illegal(Action.take(7))
    assert refusal is not None and refusal.reason is Reason.NO_SUCH_SEAT
    assert refusal.params == {"seat": 7, "players": 4}


def test_why_illegal_does_not_change_the_game() -> None:
    game = four_player_bout()
    state, events = game.state.copy(), game.events
    for action in all_candidates(game):
        game.why_illegal(action)
    assert game.state == state and game.events == events and game.history == ()


def test_acting_seats_and_throw_in_turn_attacker_first() -> None:
    game = four_player_bout()
    assert game.throw_in_turn() == [0]
    assert game.acting_seats() == [0]
    assert game.current_player() == 0
    game.play("0:pass")
    assert game.throw_in_turn() == [2]  # clockwise from the defender's left
    assert game.current_player() == 2
    game.play("2:pass")
    assert game.throw_in_turn() == [3]
    game.play("3:pass")
    assert game.phase is Phase.LEAD  # bito
    assert (game.attacker, game.defender) == (1, 2)
    assert game.throw_in_turn() == []
    assert game.acting_seats() == [1]
    assert game.current_player() == 1  # the new attacker leads


def test_throw_in_turn_free_priority() -> None:
    game = four_player_bout(Rules.preset("wikipedia"), beaten=False)
    assert game.throw_in_turn() == [0, 2, 3]  # any time, in no order
    assert game.acting_seats() == [0, 1, 2, 3]
    assert game.current_player() == 1  # the defender first, while a card is unbeaten
    game.play("2:pass")
    assert game.throw_in_turn() == [0, 3]


def test_throw_in_turn_waits_for_defence() -> None:
    game = four_player_bout(beaten=False)
    assert game.throw_in_turn() == []
    assert game.acting_seats() == [1]
    game.play("1:take")
    assert game.taking
    assert game.throw_in_turn() == [0]  # throw-ins after a take


def test_throw_in_turn_returns_a_copy() -> None:
    game = four_player_bout()
    game.throw_in_turn().append(3)
    assert game.throw_in_turn() == [0]


def test_cap_explanation_total_scope() -> None:
    game = four_player_bout()
    cap = game.cap()
    assert isinstance(cap, Cap)
    # the defender held four cards when the bout began: 10C (now on the table) and three more
    assert cap == Cap(
        room=3,
        cap=4,
        base_cap=6,
        first_bout_cap=False,
        defender_hand=4,
        hand_rule="at_defence_start",
        scope="total",
        on_table=1,
    )
    game.play("0:+8S")
    cap = game.cap()
    assert (cap.room, cap.on_table, cap.defender_hand) == (2, 2, 4)


def test_cap_explanation_unbeaten_scope() -> None:
    game = four_player_bout(Rules.preset("wikipedia"), beaten=False)
    assert game.cap() == Cap(2, 3, 6, False, 3, "current_hand", "unbeaten", 1)
    game.play("0:+8S")
    assert game.cap() == Cap(1, 3, 6, False, 3, "current_hand", "unbeaten", 2)
    game.play("1:9C/8C")
    assert game.cap() == Cap(1, 2, 6, False, 2, "current_hand", "unbeaten", 1)


def test_cap_explanation_first_bout_until_first_discard() -> None:
    rules = Rules.preset("durak_live_todos")
    game = Game.deal(rules, 2, seed=1)
    cap = game.cap()
    assert cap.first_bout_cap is True and cap.base_cap == 5 and cap.cap == 5
    later = four_player_bout(rules, discard="6C")
    assert later.cap().first_bout_cap is False and later.cap().base_cap == 6


def test_cap_explanation_first_bout_four_players() -> None:
    rules = Rules.preset("wikihow_home")
    assert four_player_bout(rules).cap().first_bout_cap is True
    assert four_player_bout(rules).cap().base_cap == 5
    assert four_player_bout(rules, bouts=2).cap().first_bout_cap is False
    assert Game.deal(rules, 3, seed=1).cap().first_bout_cap is False


def test_cap_reached_refusal_carries_the_explanation() -> None:
    game = Game.from_position(
        Rules.preset("wikipedia"), ["8S 8D 8H", "9D"], table=[("8C", None)], trump="S"
    )
    assert game.cap().room == 0
    refusal = game.why_illegal(Action.throw(0, card("8D")))
    assert refusal is not None and refusal.reason is Reason.CAP_REACHED
    assert set(refusal.params) == set(Cap._fields)


def test_outcome() -> None:
    game = Game.from_position(Rules(), ["7D", "8D 9D"], trump="S")
    assert game.outcome is None
    game.play("0:7D")
    assert game.outcome is None
    game.play("1:take")
    assert game.outcome == Outcome(1, (0,), (1,))
    assert game.outcome.durak == 1 and not game.outcome.is_draw
    assert game.phase is Phase.OVER


def test_outcome_draw() -> None:
    game = Game.from_position(Rules(), ["7D", "8D"], trump="S")
    game.play("0:7D")
    game.play("1:8D/7D")
    assert game.outcome == Outcome(None, (0, 1))
    assert game.outcome.is_draw
    with pytest.raises(IllegalAction) as info:
        game.play("0:pass")
    assert info.value.reason is Reason.GAME_OVER


def test_outcome_no_draw_keeps_previous_durak() -> None:
    game = Game.from_position(Rules(allow_draw=False), ["7D", "8D"], trump="S", previous_durak=1)
    game.play("0:7D")
    game.play("1:8D/7D")
    assert game.outcome == Outcome(1, (0, 1), (1,))  # S0: the previous durak stays durak
    assert not game.outcome.is_draw


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_outcome_of_random_games(preset: str) -> None:
    for seed in range(2):
        game = random_game(preset, 3, seed, 5000)
        outcome = game.outcome
        assert outcome is not None
        assert len(set(outcome.out_order)) == len(outcome.out_order)
        if outcome.durak is None:
            assert sorted(outcome.out_order) == [0, 1, 2]
        else:
            assert outcome.durak not in outcome.out_order
            assert sorted([*outcome.out_order, outcome.durak]) == [0, 1, 2]


# ---------------------------------------------------------------- from_position validation


def test_from_position_accepts_strings_cards_and_suits() -> None:
    a = Game.from_position(Rules(), ["7D 8S", "9C 10D"], trump="S", stock="6H", turnup="AS")
    b = Game.from_position(
        Rules(), [cards("7D 8S"), ["9C", "10♦"]], trump=Suit.SPADES, stock=["6H"], turnup=card("AS")
    )
    assert a.state == b.state
    assert a.stock == (card("6H"), card("AS"))
    assert a.trump is Suit.SPADES and a.turnup == card("AS")


def test_from_position_sets_up_the_bout() -> None:
    game = four_player_bout(beaten=False)
    assert game.phase is Phase.BOUT
    assert game.table == ((card("8C"), None),)
    assert (game.attacker, game.defender) == (0, 1)
    assert game.table_ranks() == [card("8C").rank]


def test_position_error_is_a_value_error() -> None:
    assert issubclass(PositionError, ValueError)


def position_error(**kw: Any) -> str:
    args: dict[str, Any] = {"rules": Rules(), "hands": ["7D 8S", "9C 10D"], "trump": "S"}
    args.update(kw)
    with pytest.raises(PositionError) as info:
        Game.from_position(**args)
    return str(info.value)


def test_duplicate_card_names_both_places() -> None:
    message = position_error(hands=["7D 8S", "9C 8S"])
    assert "8S" in message and "hand of seat 0" in message and "hand of seat 1" in message
    message = position_error(stock="9C")
    assert "9C" in message and "hand of seat 1" in message and "stock" in message
    message = position_error(table=[("JD", None)], discard="JD")
    assert "JD" in message and "discard" in message and "table" in message
    message = position_error(turnup="AS", stock="AS")
    assert "AS" in message and "stock" in message and "turnup" in message


def test_card_not_in_the_deck() -> None:
    message = position_error(hands=["7D 4♦", "9C 10D"])
    assert "4D" in message or "4♦" in message
    assert "36-card deck" in message and "hand of seat 0" in message
    message = position_error(rules=Rules(deck_size=24), hands=["9D JS", "QC"], stock="8H")
    assert "8H" in message and "24-card deck" in message and "stock" in message


def test_unparsable_card() -> None:
    message = position_error(hands=["7D ZZ", "9C 10D"])
    assert "hand of seat 0" in message and "ZZ" in message


def test_trump_and_turnup_mismatch() -> None:
    message = position_error(trump="S", turnup="7H")
    assert "7H" in message and "does not match" in message


def test_trump_and_turnup_mismatch_names_the_suit() -> None:
    """Given as a Suit, the trump must still be named as a suit, not as its number."""
    message = position_error(trump=Suit.SPADES, turnup="7H")
    assert "7H" in message
    assert any(name in message for name in (" S ", "♠", "SPADES", "spades")), message


def test_neither_trump_nor_turnup() -> None:
    message = position_error(trump=None)
    assert "turnup" in message and "trump" in message


def test_defender_is_the_attacker() -> None:
    message = position_error(attacker=0, defender=0)
    assert "defender 0" in message
    message = position_error(hands=["7D", "9C", "JH"], attacker=1, defender=7)
    assert "defender 7" in message


def test_defender_or_attacker_out() -> None:
    hands = ["7D", "", "JH"]
    assert "defender 1" in position_error(hands=hands, out=[1], defender=1)
    assert "attacker (seat 1) is out" in position_error(hands=hands, out=[1], attacker=1)
    assert "seat 0 cannot be out" in position_error(hands=hands, out=[0], attacker=2)
    assert "out seats" in position_error(hands=hands, out=[5])


def test_bad_attacker() -> None:
    assert "attacker must be a seat 0..1, not 2" in position_error(attacker=2)
    assert "has no card to lead" in position_error(hands=["", "9C"])


def test_table_defence_does_not_beat() -> None:
    message = position_error(table=[("8C", "7C")])
    assert "7C does not beat 8C" in message
    message = position_error(table=[("8C", "10C"), ("8H", "9D")])
    assert "9D does not beat 8H" in message


def test_table_rank_not_yet_on_the_table() -> None:
    message = position_error(table=[("8C", None), ("9H", None)])
    assert "9H" in message and "rank not yet on the table" in message
    # a defence card's rank counts as on the table
    game = Game.from_position(
        Rules(), ["7D 8S", "9C 10D"], trump="S", table=[("8C", "JC"), ("JH", None)]
    )
    assert game.table_ranks() == [card("8C").rank, card("JC").rank]


def test_table_pairs() -> None:
    assert "table pair 1" in position_error(table=[("8C",)])
    assert "more attack cards than the limit" in position_error(
        table=[("8C", None), ("8H", None), ("8D", None)]
    )
    assert "taking with an empty table" in position_error(taking=True)


def test_too_many_players_for_the_deck() -> None:
    message = position_error(rules=Rules(deck_size=24), hands=["9C", "9D", "9H", "9S", "10C"])
    assert "5 players" in message and "24-card deck" in message
    message = position_error(hands=["7D", "9C", "JH", "6D", "KS", "QH", "AC"])
    assert "not 7" in message
    message = position_error(hands=["7D"])
    assert "not 1" in message
    message = position_error(rules=Rules.preset("matsuri"), hands=["7D", "9C", "JH", "6D", "KS"])
    assert "2 to 4 players, not 5" in message


def test_record_of_a_copy_replays_to_the_copy() -> None:
    """A copy keeps the record of actions, so its record replays to its own position."""
    from durak_core.record import replay, to_record

    game = random_game("classic", 3, 2, 10)
    clone = game.copy(undo=False)
    clone.play(next(iter(clone.legal_actions())))
    assert replay(to_record(clone)).state == clone.state


@pytest.mark.parametrize(
    "action",
    [
        Action(ActionKind.LEAD, 0, None),
        Action(ActionKind.BEAT, 1, Card.parse("7H"), None),
        Action(ActionKind.THROW, 0, Card.parse("8C"), Card.parse("8C")),
        Action(ActionKind.TAKE, 1, Card.parse("7H")),
        Action(ActionKind.PASS, 0, None, Card.parse("8C")),
        Action("dance", 0, Card.parse("8C")),  # type: ignore[arg-type]
    ],
    ids=repr,
)
def test_malformed_actions_are_refused_not_crashing(action: Action) -> None:
    """A forged message lacking its card (or carrying one it must not) is a refusal."""
    game = Game.from_position(Rules(), ["8C 9C", "7H 10S"], trump="S")
    before = game.state.copy()
    assert action not in game.legal_actions()
    with pytest.raises(IllegalAction) as exc:
        game.play(action)
    assert exc.value.reason in (Reason.MALFORMED_ACTION, Reason.CARD_NOT_IN_HAND)
    assert game.state == before


def test_notation_strings_work_with_in() -> None:
    game = Game.from_position(Rules(), ["8C 9C", "7H 10S"], trump="S")
    assert "0:8C" in game.legal_actions()
    assert "1:8C" not in game.legal_actions()
    assert "nonsense" not in game.legal_actions()


def test_known_cards_of_a_set_up_position_reach_the_observation() -> None:
    from durak_core import observe

    game = Game.from_position(
        Rules(), ["8C 9C", "7H 10S QD"], trump="S", known={1: "QD"}, stock="6D", turnup="AS"
    )
    assert observe(game, 0).known[1] == {Card.parse("QD")}
    assert game.origin["position"]["known"] == {"1": "QD"}
    with pytest.raises(PositionError, match="not in that hand"):
        Game.from_position(Rules(), ["8C 9C", "7H 10S"], trump="S", known={1: "QD"})


# ---------------------------------------------------------------- position, card_actions


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_position_sets_the_same_position_up_again(preset: str) -> None:
    """``Game.position()`` is the one serializer: from_position(**position()) reproduces it."""
    rng = random.Random(preset)
    rules = Rules.preset(preset)
    for seed in range(40):
        game = Game.deal(rules, rng.choice(rules.player_counts()), seed)
        for _ in range(rng.randrange(80)):
            if game.outcome is not None:
                break
            game.play(rng.choice(list(game.legal_actions())))
        if game.outcome is not None:
            continue
        position = game.position().to_dict()
        again = Game.from_position(rules, **position)
        assert again.position().to_dict() == position
        assert again.hand_sizes == game.hand_sizes and again.table == game.table
        assert again.stock == game.stock and again.discard == game.discard


def test_origin_and_position_agree_at_the_start_and_known_seats_round_trip() -> None:
    game = Game.from_position(
        Rules(), ["7D 8S", "9C 10D QD"], stock="6H", turnup="KS", known={"1": "QD"}
    )
    assert game.origin["position"]["known"] == {"1": "QD"}
    assert game.setup_known[1] == frozenset({card("QD")})
    assert game.position().to_dict() == game.origin["position"]


def test_card_actions_list_every_meaning_of_a_card_with_the_engines_verdict() -> None:
    """A defender's card may beat any unbeaten attack card; an attacker's card is a throw-in;
    in the lead phase, a lead. Each candidate carries the refusal ``why_illegal`` gives."""
    game = Game.from_position(
        Rules(), ["7D 8S", "9D 10D QC"], table=[("8D", None), ("8C", None)], trump="S"
    )
    beats = game.card_actions(1, card("10D"))
    assert [str(a) for a, _ in beats] == ["1:10D/8D", "1:10D/8C"]
    assert beats[0][1] is None and beats[1][1] is not None
    assert beats[1][1].reason is Reason.CANNOT_BEAT
    for action, refusal in game.card_actions(1, card("QC")):
        again = game.why_illegal(action)
        assert (refusal and refusal.reason) == (again and again.reason)
    assert [str(a) for a, _ in game.card_actions(0, card("8S"))] == ["0:+8S"]
    assert game.defending(1) and not game.defending(0)
    lead = Game.from_position(Rules(), ["7D 8S", "9D"], trump="S")
    assert [(str(a), r) for a, r in lead.card_actions(0, card("7D"))] == [("0:7D", None)]


def test_card_actions_put_a_transfer_first_when_the_card_has_the_attacks_rank() -> None:
    """Perevodnoy (S1, S2): a card of the attack's rank is most likely meant as a transfer,
    also once a card is beaten (then the transfer's refusal, too late, is the one to hear)."""
    rules = Rules(transfer=True)
    game = Game.from_position(
        rules, ["7D 8S", "8H 9D", "6C 7C 10C"], table=[("8D", None)], trump="S"
    )
    assert [a.kind for a, _ in game.card_actions(1, card("8H"))] == [
        ActionKind.TRANSFER,
        ActionKind.BEAT,
    ]
    assert [a.kind for a, _ in game.card_actions(1, card("9D"))] == [
        ActionKind.BEAT,
        ActionKind.TRANSFER,
    ]
    late = Game.from_position(
        rules, ["7D 8S", "8H 9S", "6C 7C 10C"], table=[("8D", "9D"), ("8C", None)], trump="S"
    )
    first, refusal = late.card_actions(1, card("8H"))[0]
    assert first.kind is ActionKind.TRANSFER and refusal is not None
    assert refusal.reason is Reason.TRANSFER_AFTER_BEAT
    taking = Game.from_position(
        Rules(), ["7D 8S", "8H 9D"], table=[("8D", None)], trump="S", taking=True
    )
    assert not taking.defending(1)
    assert [a.kind for a, _ in taking.card_actions(1, card("9D"))] == [ActionKind.THROW]


def test_the_search_surface_is_public_live_and_keyed() -> None:
    """Issue 35, step 3: search reads the game's own state without a copy (``live_state``,
    read-only by contract, replaced by each push and undo), keys positions with an immutable
    ``key()``, and sets up trusted worlds with ``from_position(..., check=False)``; the bots,
    the solver and determinize use nothing private of the game."""
    import ast
    from pathlib import Path

    game = Game.deal(Rules(), 2, seed=3)
    live = game.live_state
    assert live is game.live_state and game.state is not live and game.state == live
    first = next(iter(game.legal_actions()))
    key = game.key()
    game.push(first)
    assert game.live_state is not live  # replaced: read it again after a move
    assert game.key() != key and hash(game.key()) == hash(game.copy().key())
    game.undo()
    assert game.key() == key and game.live_state == live
    # the same position by another road has the same key
    again = Game.from_position(game.rules, game.position())
    assert again.position() == game.position()
    trusted = Game.from_position(game.rules, game.position(), check=False)
    assert trusted.position() == game.position()
    with pytest.raises(PositionError):  # check=False skips only a Position's own checks
        Game.from_position(game.rules, [["6S"], ["6S"]], trump="S", check=False)
    # no private name of another module is read by search
    root = Path(__file__).parent.parent / "durak_core"
    for path in [*root.glob("bots/*.py"), root / "solver.py", root / "determinize.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            name = node.attr if isinstance(node, ast.Attribute) else ""
            if name.startswith("_") and not name.endswith("__"):
                assert isinstance(node, ast.Attribute)
                owner = node.value
                assert isinstance(owner, ast.Name) and owner.id in ("self", "cls"), (
                    f"{path.name}:{node.lineno} reads {ast.unparse(node)}"
                )
