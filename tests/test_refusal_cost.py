"""Search speed without changed behaviour (issue 10, point 6).

- A refusal costs no formatting: checking an illegal action (``is_legal``, ``why_illegal``,
  ``in legal_actions()``) builds its :class:`IllegalAction` with the reason and parameters
  only; the message is formatted when it is asked for, and reads exactly as before.
- The throw-in order is cached on the state (it changes only with the attacker, the defender
  and the players still in) and the engine keeps it up to date: it always equals a
  from-scratch computation of the rules C10 (who may throw in: everyone but the defender, or
  only his neighbours, S0 optional, S3 with five or more players) and C11 (the attacker first,
  then clockwise from the defender's left, S1, S3; «until pass», S0; free, S2), over random
  games of every preset and 2–6 players, with undos and copies mixed in.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

import durak_core.reasons as reasons
from durak_core import PRESETS, Action, Game, IllegalAction, Reason, Rules
from durak_core.bout import throw_order
from durak_core.rules import ThrowInPriority, ThrowInRights, ThrowInTiming
from durak_core.state import Phase

# ---------------------------------------------------------------- refusals format lazily


def _old_message(exc: IllegalAction) -> str:
    """The message as ``IllegalAction.__init__`` formatted it eagerly before this change."""

    def show(value: Any) -> str:
        if isinstance(value, list | tuple):
            return "[" + " ".join(str(v) for v in value) + "]"
        return str(value)

    detail = ", ".join(f"{k}={show(v)}" for k, v in exc.params.items())
    what = f"{exc.action}: " if exc.action is not None else ""
    return f"{what}{exc.reason.value}" + (f" ({detail})" if detail else "")


def _candidates(game: Game) -> list[Action]:
    """Actions of every kind by every seat, most of them illegal now."""
    table = [attack for attack, _ in game.table]
    actions: list[Action] = []
    for seat in range(game.players):
        for card in game.hand(seat)[:4]:
            actions += [Action.lead(seat, card), Action.throw(seat, card)]
            actions.append(Action.transfer(seat, card))
            actions += [Action.beat(seat, card, target) for target in table]
        actions += [Action.take(seat), Action.pass_(seat), Action.swap(seat)]
    return actions


def _refusals(games: int = 12) -> list[tuple[Game, Action]]:
    """(game, refused action) pairs from random games of every preset."""
    found: list[tuple[Game, Action]] = []
    for preset in sorted(PRESETS):
        rules = Rules.preset(preset)
        for seed in range(games // 4):
            game = Game.deal(rules, 3, seed, undo=False, events=False)
            rng = random.Random(seed)
            while game.outcome is None and len(game.history) < 80:
                legal = list(game.legal_actions())
                here = game.copy(undo=False, events=False)
                found += [(here, a) for a in _candidates(game) if a not in legal]
                game.push(rng.choice(legal))
    return found


def _counted(function: Any, calls: list[int]) -> Any:
    """``function``, counting its calls in ``calls[0]`` (a plain function: it binds as a
    method when set on a class)."""

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return function(*args, **kwargs)

    return counted


def test_refusal_checks_format_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """is_legal, why_illegal and ``in legal_actions()`` on thousands of refused actions never
    format a parameter, an action or a card."""
    pairs = _refusals()
    assert len(pairs) > 2000
    shown, notated = [0], [0]
    monkeypatch.setattr(reasons, "_show", _counted(reasons._show, shown))
    monkeypatch.setattr(Action, "notation", _counted(Action.notation, notated))
    refused = []
    for game, action in pairs:
        assert not game.is_legal(action)
        assert action not in game.legal_actions()
        refusal = game.why_illegal(action)
        assert refusal is not None
        refused.append(refusal)
    assert shown == [0] and notated == [0]
    assert len({r.reason for r in refused}) >= 15  # many kinds of refusal were built
    with_params = next(r for r in refused if r.params)
    assert str(with_params)  # formatted when asked for
    assert shown[0] == len(with_params.params) and notated == [1]


def test_constructing_a_refusal_calls_str_on_nothing() -> None:
    class Loud:
        calls = 0

        def __str__(self) -> str:
            Loud.calls += 1
            return "loud"

    exc = IllegalAction(Reason.CARD_NOT_IN_HAND, None, seat=Loud(), card=[Loud(), Loud()])
    assert Loud.calls == 0
    assert str(exc) == "card_not_in_hand (seat=loud, card=[loud loud])"
    assert Loud.calls == 3


def test_refusal_messages_read_as_before() -> None:
    """``str``, ``args`` and ``repr`` of every refusal read exactly as the eager message did."""
    pairs = _refusals(8)
    reasons_seen = set()
    for game, action in pairs[::7]:
        exc = game.why_illegal(action)
        assert exc is not None
        reasons_seen.add(exc.reason)
        expected = _old_message(exc)
        assert str(exc) == exc.message == expected
        assert exc.args == (expected,)
        assert repr(exc) == f"IllegalAction({expected!r})"
    assert len(reasons_seen) >= 10


def test_refusal_messages_pinned() -> None:
    game = Game.deal(Rules(), 2, seed=3)
    exc = game.why_illegal(Action.throw(game.attacker, game.hand(game.attacker)[0]))
    assert str(exc) == "0:+QD: must_lead (attacker=0)"
    beat = Game.from_position(Rules(), ["7C 9H", "8C 6D"], trump="S", table=[("6C", None)])
    assert str(beat.why_illegal(Action.parse("1:6D/6C"))) == (
        "1:6D/6C: cannot_beat (card=6D, target=6C, trump=S, why=wrong_suit)"
    )
    assert str(beat.why_illegal(Action.parse("0:+9H"))) == "0:+9H: wait_for_defence (unbeaten=1)"


def test_a_raised_refusal_reads_and_pickles_as_before() -> None:
    game = Game.deal(Rules(), 2, seed=3)
    action = Action.throw(game.attacker, game.hand(game.attacker)[0])
    with pytest.raises(IllegalAction, match=r"^0:\+QD: must_lead \(attacker=0\)$") as info:
        game.play(action)
    clone = pickle.loads(pickle.dumps(info.value))
    assert (clone.reason, clone.action, clone.params) == (
        Reason.MUST_LEAD,
        action,
        {"attacker": 0},
    )
    assert str(clone) == str(info.value)


# ---------------------------------------------------------------- throw-in order


def _next_active(active: list[bool], seat: int) -> int:
    n = len(active)
    nxt = (seat + 1) % n
    while not active[nxt]:
        nxt = (nxt + 1) % n
    return nxt


def _scratch_order(game: Game) -> list[int]:
    """Eligible throwers from scratch, as the engine computed them before the cache (C10)."""
    s = game._state
    rules = game.rules
    if game.players == 2:
        a = s.attacker
        return [a] if a != s.defender and s.hands[a] else []
    active = s.active
    limit = rules.neighbours_only_from
    neighbours_only = rules.throw_in_rights is ThrowInRights.NEIGHBOURS or (
        limit is not None and sum(active) >= limit
    )
    neighbours = (s.attacker, _next_active(active, s.defender))

    def may_throw(seat: int) -> bool:
        if seat == s.defender or not active[seat] or not s.hands[seat]:
            return False
        return seat in neighbours if neighbours_only else True

    order = [s.attacker] if may_throw(s.attacker) else []
    seat = _next_active(active, s.defender)
    while seat != s.defender:
        if seat != s.attacker and may_throw(seat):
            order.append(seat)
        seat = _next_active(active, seat)
    return order


def _scratch_turn(game: Game) -> list[int]:
    """Who may add a card or pass now, from scratch (C11, C12)."""
    s = game._state
    rules = game.rules
    all_beaten = None not in s.defences
    if s.taking:
        if not rules.throw_in_after_take:
            return []
    elif not all_beaten and rules.throw_in_timing is not ThrowInTiming.ANY_TIME:
        return []
    if game.cap().room <= 0 and (s.taking or all_beaten):
        return []
    order = [seat for seat in _scratch_order(game) if not s.passed[seat]]
    if rules.throw_in_priority is ThrowInPriority.FREE:
        return order
    return order[:1]


def _check(game: Game) -> None:
    if game.phase is not Phase.BOUT:
        return
    assert throw_order(game.switches, game.state) == _scratch_order(game)
    assert game.throw_in_turn() == _scratch_turn(game)


RULES = {
    **{name: Rules.preset(name) for name in sorted(PRESETS)},
    "classic+neighbours": Rules.preset("classic").replace(throw_in_rights="neighbours"),
    "wikipedia+transfer": Rules.preset("wikipedia").replace(transfer=True),
    "wikihow+transfer": Rules.preset("wikihow_home").replace(transfer=True),
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_incremental_throw_in_order_equals_a_fresh_computation(name: str) -> None:
    rules = RULES[name]
    checked = 0
    for players in rules.player_counts():
        for seed in range(4):
            game = Game.deal(rules, players, seed)
            rng = random.Random(seed * 100 + players)
            _check(game)
            while game.outcome is None and len(game.history) < 300:
                game.push(rng.choice(list(game.legal_actions())))
                _check(game)
                checked += 1
                roll = rng.random()
                if roll < 0.1:
                    game.undo()
                    _check(game)
                elif roll < 0.15:
                    game = game.copy()
                    _check(game)
    assert checked > 1000
