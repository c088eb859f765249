"""Read-only views, copies that can undo (or say why not), documented API (durak_core.game).

Issue 10, point 4: a caller must not be able to corrupt a game through what it reads, and a
copy either takes moves back like the original or refuses with a message that says why.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from durak_core import Action, Card, Game, Outcome, Rules, State, to_record
from durak_core.state import Phase

from . import corpus
from .helpers import card

PRESETS = [
    ("classic", 2),
    ("matsuri", 3),
    ("wikihow_home", 4),
    ("wikipedia", 5),
    ("durak_live_vecinos", 6),
    ("dame_karty", 3),
]


def random_games(preset: str, players: int, seed: int) -> Iterator[Game]:
    """The positions of one random game of the corpus (tests/corpus.py; the same game
    object, moving on)."""
    [found] = [g for g in corpus.games(preset) if g.players == players and g.seed == seed]
    return corpus.replay(found)


def fingerprint(game: Game) -> tuple[object, ...]:
    """Everything a caller could see change, read from the game's own objects."""
    s = game._state
    return (
        s.key(),
        tuple(s.throw_in_turn),
        tuple(game._events),
        tuple(game._actions),
        sorted(map(str, game.legal_actions())),
        repr(game._origin),
        game.setup_known,
    )


def vandalize(value: object, depth: int = 0) -> None:
    """Change everything reachable from ``value`` that can be changed in place."""
    if depth > 4:
        return
    if isinstance(value, State):
        for name in ("hands", "stock", "discard", "attacks", "defences", "active", "passed"):
            vandalize(getattr(value, name), depth + 1)
        vandalize(value.out_order, depth + 1)
        vandalize(value.throw_in_turn, depth + 1)
        value.attacker = value.defender = 99
        value.phase = Phase.OVER
        value.bouts = -1
        return
    if isinstance(value, list):
        for item in value:
            vandalize(item, depth + 1)
        value.append(card("AS"))
        value.reverse()
        del value[:1]
    elif isinstance(value, dict):
        for item in list(value.values()):
            vandalize(item, depth + 1)
        value["vandal"] = 1
        value.pop(next(iter(value)))
    elif isinstance(value, set):
        value.add(card("AS"))
        value.clear()
    elif isinstance(value, tuple):
        for item in value:
            vandalize(item, depth + 1)


VIEWS: dict[str, Callable[[Game], object]] = {
    "state": lambda g: g.state,
    "hand": lambda g: [g.hand(i) for i in range(g.players)],
    "hand_sizes": lambda g: g.hand_sizes,
    "stock": lambda g: g.stock,
    "discard": lambda g: g.discard,
    "table": lambda g: g.table,
    "table_ranks": lambda g: g.table_ranks(),
    "active_seats": lambda g: g.active_seats(),
    "acting_seats": lambda g: g.acting_seats(),
    "throw_in_turn": lambda g: g.throw_in_turn(),
    "history": lambda g: g.history,
    "events": lambda g: g.events,
    "events_since": lambda g: g.events_since(0),
    "setup_known": lambda g: g.setup_known,
    "known_cards": lambda g: g.known_cards(),
    "origin": lambda g: g.origin,
    "position": lambda g: g.position(),
    "outcome": lambda g: g.outcome,
    "cap": lambda g: g.cap(),
    "for_seat": lambda g: [g.legal_actions().for_seat(i) for i in range(g.players)],
    "card_actions": lambda g: [g.card_actions(0, c) for c in g.hand(0)],
}


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_changing_what_a_view_returns_leaves_the_game_unchanged(preset: str, players: int) -> None:
    for step, game in enumerate(random_games(preset, players, 3)):
        if step % 4:
            continue
        before = fingerprint(game)
        for name, view in VIEWS.items():
            vandalize(view(game))
            assert fingerprint(game) == before, f"changing {name} changed the game"


def test_views_are_tuples() -> None:
    game = Game.from_position(
        Rules(),
        ["7C 9H KS QD", "8D QC AS 10S 9S", "6D 7S JH"],
        table=[("8C", "10C"), ("8H", None)],
        turnup="JS",
        stock="9C 10D",
        discard="6C 6H",
        known={1: "QC"},
    )
    assert isinstance(game.hand(0), tuple)
    assert isinstance(game.hand_sizes, tuple)
    assert isinstance(game.stock, tuple)
    assert isinstance(game.discard, tuple)
    assert isinstance(game.table, tuple) and all(isinstance(p, tuple) for p in game.table)
    assert isinstance(game.history, tuple)
    assert isinstance(game.events, tuple)
    assert isinstance(game.setup_known, tuple)
    assert all(isinstance(k, frozenset) for k in game.setup_known)
    with pytest.raises(AttributeError):
        game.hand(0).append(card("AS"))  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        game.table[1][1] = card("9H")  # type: ignore[index]


def test_appending_to_a_hand_read_from_state_does_not_corrupt_the_game() -> None:
    """The bug of the issue: ``game.state`` was the live state."""
    game = Game.deal(Rules(), 2, seed=7)
    hand = game.hand(0)
    legal = list(game.legal_actions())
    game.state.hands[0].append(card("AS") if card("AS") not in hand else card("6C"))
    game.state.stock.clear()
    assert game.hand(0) == hand
    assert len(game.stock) == 36 - 12
    assert list(game.legal_actions()) == legal


def test_state_is_a_snapshot_that_does_not_follow_later_moves() -> None:
    game = Game.deal(Rules(), 3, seed=5)
    before = game.state
    assert before is not game.state  # a new snapshot on each access
    assert before == game.state and before.key() == game.state.key()
    assert before.copy() == before
    game.play(next(iter(game.legal_actions())))
    assert before != game.state
    assert game.state.hands == [list(game.hand(i)) for i in range(3)]
    game.undo()
    assert game.state == before


def test_origin_is_a_deep_copy() -> None:
    game = Game.from_position(Rules(), ["7C 9H", "8C 6D"], trump="S", known={0: "7C"})
    record = to_record(game)
    origin = game.origin
    origin["position"]["hands"].append("AS")
    origin["position"]["known"].clear()
    origin.clear()
    assert to_record(game) == record
    dealt = Game.deal(Rules(), 2, seed=1)
    assert isinstance(dealt.origin["deck"], str) and len(dealt.origin["deck"].split()) == 36


# ---------------------------------------------------------------- copy and undo


def played(seed: int = 2, steps: int = 12, **deal: Any) -> Game:
    game = Game.deal(Rules.preset("classic"), 3, seed, **deal)
    rng = random.Random(seed)
    for _ in range(steps):
        game.play(rng.choice(list(game.legal_actions())))
    return game


def test_a_copy_undoes_like_the_original() -> None:
    game = played()
    clone = game.copy()
    assert clone.state == game.state and clone.history == game.history
    while game.history:
        assert clone.undo() == game.undo()
        assert clone.state == game.state
        assert clone.events == game.events
        assert clone.throw_in_turn() == game.throw_in_turn()
    with pytest.raises(IndexError, match="nothing to undo"):
        clone.undo()


def test_a_copy_and_the_original_undo_independently() -> None:
    """Undoing and playing on the copy leaves the original (and its snapshots) alone."""
    game = played()
    now = game.state
    clone = game.copy()
    last = clone.undo()
    earlier = clone.state
    others = [a for a in clone.legal_actions() if a != last]
    clone.play(others[0] if others else last)
    clone.play(next(iter(clone.legal_actions())))
    assert game.state == now
    assert game.undo() == last
    assert game.state == earlier
    game.play(last)
    assert game.state == now
    assert clone.undo() is not None and clone.undo() in (last, *others)
    assert clone.state == earlier


def test_a_copy_made_without_undo_refuses_and_says_why() -> None:
    game = played()
    clone = game.copy(undo=False)
    with pytest.raises(RuntimeError, match=r"cannot undo.*undo=False") as info:
        clone.undo()
    assert "playouts" in str(info.value)
    clone.play(next(iter(clone.legal_actions())))
    with pytest.raises(RuntimeError, match="undo=False"):
        clone.undo()
    with pytest.raises(RuntimeError, match="undo=False"):
        Game.deal(Rules(), 2, seed=1, undo=False).undo()


def test_a_copy_without_history_undoes_only_later_moves() -> None:
    game = played()
    clone = game.copy(history=False)
    with pytest.raises(IndexError, match=r"no snapshot to undo to.*history=False"):
        clone.undo()
    before = clone.state
    action = next(iter(clone.legal_actions()))
    clone.play(action)
    assert clone.undo() == action
    assert clone.state == before
    with pytest.raises(IndexError, match="no snapshot"):
        clone.undo()


def test_a_copy_of_a_playout_game_can_undo_its_own_moves() -> None:
    game = played(undo=False)
    clone = game.copy()
    before = clone.state
    action = next(iter(clone.legal_actions()))
    clone.play(action)
    assert clone.undo() == action and clone.state == before
    with pytest.raises(IndexError, match="copied"):
        clone.undo()


def test_a_playout_copy_is_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    """``copy(undo=False, events=False)`` copies the state once, not the undo snapshots."""
    game = played(steps=30)
    copies = 0
    original = State.copy

    def counting(self: State) -> State:
        nonlocal copies
        copies += 1
        return original(self)

    monkeypatch.setattr(State, "copy", counting)
    clone = game.copy(undo=False, events=False)
    assert copies == 1
    assert clone.events == () and clone.event_count == 0
    assert clone.history == game.history
    copies = 0
    game.copy()
    assert copies == 1 + len(game.history)  # the default copies every undo snapshot
    monkeypatch.undo()
    rng = random.Random(1)
    while clone.outcome is None:
        clone.push(rng.choice(list(clone.legal_actions())))
    assert clone.events == ()
    assert isinstance(clone.outcome, Outcome)


# ---------------------------------------------------------------- documentation


def public_members() -> Iterator[tuple[str, object]]:
    for name in sorted(dir(Game)):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(Game, name)
        if type(attr).__name__ == "member_descriptor":
            continue  # rules, players, previous_durak: listed in the class docstring
        yield name, attr


def test_every_public_method_of_game_is_documented() -> None:
    undocumented = []
    for name, attr in public_members():
        target = attr.__func__ if isinstance(attr, classmethod | staticmethod) else attr
        doc = getattr(target, "__doc__", None)
        if not (doc and doc.strip()):
            undocumented.append(name)
    assert undocumented == []
    class_doc = Game.__doc__ or ""
    for name in ("rules", "players", "previous_durak"):
        assert f"``{name}``" in class_doc
    assert Outcome.is_draw.__doc__


def test_every_action_factory_is_documented() -> None:
    for name in ("lead", "beat", "throw", "transfer", "take", "pass_", "swap", "parse"):
        assert getattr(Action, name).__doc__, name


def test_copy_keeps_the_record_of_a_set_up_position() -> None:
    game = Game.from_position(Rules(), ["7C 9H", "8C 6D"], trump="S", known={1: "6D"})
    clone = game.copy()
    assert clone.origin == game.origin and clone.setup_known == game.setup_known
    assert isinstance(clone.hand(1)[0], Card)
