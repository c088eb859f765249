"""Property tests (hypothesis): whatever the rules, the seat count, the deal and the choices,
the engine keeps its invariants, undoes and replays exactly, and generates only legal actions.

A game is drawn as a preset (optionally with ``transfer=True``, a trump swap, or a 24/52-card
deck), a player count valid for it, a seed and a list of choice indices; it is played by taking
``legal[i % len(legal)]`` for the choice indices in turn, cycling through the list (so ``[1]``
means "always the second legal action") for ``CHOSEN_ACTIONS`` actions, then random legal
actions (from a generator seeded with the game's seed) until the game ends.

Why not cycle through the choices for ever: Durak does not always end. With three or more
players a fixed policy can pass the same cards round the table for ever (everyone takes, or
first-legal play from some deals: classic, 3 players, seed 2733772639 repeats its position every
54 actions). That is the game, not the engine; so the bound below is checked for play that
ends up random, and every single bout must end within a bound whatever is chosen.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak_core import (
    PRESETS,
    Action,
    Game,
    Phase,
    Rules,
    State,
    dumps,
    loads,
    make_deck,
    replay,
)

from .helpers import check_invariants

#: How many actions follow the drawn choices (cycled) before random play takes over.
CHOSEN_ACTIONS = 300
#: No game may take more actions than this (random 6-player games take < 1000).
MAX_ACTIONS = 5000
#: No bout may take more actions than this, whatever is chosen: at most 52 cards go to the table,
#: and between two of them each of at most 6 seats passes once (a take or a swap aside):
#: 53 x 7 < 400.
MAX_BOUT_ACTIONS = 400


@dataclass(frozen=True)
class Setup:
    preset: str
    rules: Rules
    players: int
    seed: int
    choices: tuple[int, ...]

    def deal(self) -> Game:
        return Game.deal(self.rules, self.players, self.seed)


@st.composite
def setups(draw: st.DrawFn, max_choices: int = 200) -> Setup:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    changes: dict[str, object] = {}
    if draw(st.booleans()):
        changes["transfer"] = True
    swap = draw(st.sampled_from([None, "any", "ace_only"]))
    if swap is not None:
        changes["trump_swap"] = swap
    if changes.get("transfer") and draw(st.booleans()):
        changes["flash"] = True  # S2
        changes["flash_reuse"] = draw(st.sampled_from(["once_per_game", "once_per_bout"]))
    misdeal = draw(st.sampled_from([None, "four_of_a_suit", "five_of_a_suit"]))
    if misdeal is not None:  # S2, C20
        changes["misdeal"] = misdeal
        changes["misdeal_mode"] = draw(st.sampled_from(["mandatory", "on_request"]))
    teams = draw(st.sampled_from([None, None, "2v2", "3v3", "2v2v2"]))
    deck = draw(st.sampled_from([None, 24, 52]))
    if teams is not None:  # S0, S2: 4 or 6 players, so a deck that seats them
        changes["teams"] = teams
        changes["team_end"] = draw(st.sampled_from(["team_loses", "single_loser"]))
        changes["team_rotation"] = draw(st.sampled_from(["skip_partners", "individual"]))
        if teams != "2v2" and deck == 24:
            deck = None
        if preset == "matsuri":  # 2–4 players
            preset = "classic"
    if deck is not None:
        changes["deck_size"] = deck
    rules = PRESETS[preset].rules.replace(**changes)
    players = draw(st.sampled_from(rules.player_counts()))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    choices = draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=max_choices))
    return Setup(preset, rules, players, seed, tuple(choices))


def choices(game: Game, setup: Setup) -> Iterator[Action]:
    """The actions ``setup`` chooses in ``game``, one at a time, until the game is over (the
    caller plays each). Fails if the game or one bout goes on past its bound."""
    rng = random.Random(setup.seed)
    bout, bout_start = game.state.bouts, 0
    for step in range(MAX_ACTIONS):
        if game.outcome is not None:
            return
        if game.state.bouts != bout:
            bout, bout_start = game.state.bouts, step
        assert step - bout_start < MAX_BOUT_ACTIONS, f"bout {bout} does not end: {setup}"
        legal = list(game.legal_actions())
        assert legal, f"no legal action, yet the game is not over: {game!r}"
        if step < CHOSEN_ACTIONS:
            yield legal[setup.choices[step % len(setup.choices)] % len(legal)]
        else:
            yield rng.choice(legal)
    raise AssertionError(f"no end after {MAX_ACTIONS} actions: {setup}")


def check_legal_actions(game: Game) -> list[Action]:
    """Generation is stable, duplicate-free, agrees with ``is_legal``/``in``/``bool``/``count``,
    and is empty exactly when the game is over."""
    view = game.legal_actions()
    first = list(view)
    second = list(view)
    assert first == second, "two iterations of legal_actions() differ"
    assert len(set(first)) == len(first), "legal_actions() yields an action twice"
    for action in first:
        assert game.is_legal(action), f"generated {action} but is_legal says no"
        assert action in view
        assert game.why_illegal(action) is None
    assert bool(view) == bool(first)
    assert view.count() == len(first)
    if game.outcome is None:
        assert first, f"no legal action but the game is not over: {game!r}"
    else:
        assert not first, "legal actions after the game is over"
    return first


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_every_action_keeps_invariants_and_undoes_exactly(setup: Setup) -> None:
    universe = make_deck(setup.rules.deck_size)
    hand_size = setup.rules.hand_size
    game = setup.deal()
    check_invariants(game, universe)
    for action in choices(game, setup):
        check_legal_actions(game)
        before: State = game.state.copy()
        before_turn = game.throw_in_turn()
        before_events = game.events
        before_history = game.history

        game.play(action)
        check_invariants(game, universe)
        s = game.state
        # The stock only shrinks (a swap exchanges its bottom card); the discard only grows.
        assert len(s.stock) <= len(before.stock)
        assert s.discard[: len(before.discard)] == before.discard
        # Events are only ever appended.
        assert game.events[: len(before_events)] == before_events
        assert game.history == (*before_history, action)
        # After the draw, while stock remains, every hand still in is filled up (or fuller).
        if s.phase is Phase.LEAD and s.stock:
            short = [i for i, h in enumerate(s.hands) if s.active[i] and len(h) < hand_size]
            assert not short, f"seats {short} hold fewer than {hand_size} with stock left"

        # Undo restores the exact previous state and event log; replaying is deterministic.
        after = s.copy()
        after_turn = game.throw_in_turn()
        after_events = game.events
        assert game.undo() == action
        assert game.state == before
        assert game.throw_in_turn() == before_turn
        assert game.events == before_events
        assert game.history == before_history
        game.play(action)
        assert game.state == after
        assert game.throw_in_turn() == after_turn
        assert game.events == after_events
    assert game.outcome is not None
    check_legal_actions(game)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.floats(min_value=0.0, max_value=1.0))
def test_records_replay_to_the_identical_state(setup: Setup, where: float) -> None:
    states: list[State] = []
    event_counts: list[int] = []
    game = setup.deal()
    for action in choices(game, setup):
        states.append(game.state.copy())
        event_counts.append(game.event_count)
        game.play(action)
    states.append(game.state.copy())
    event_counts.append(game.event_count)

    # Dealing is deterministic.
    again = setup.deal()
    assert again.state == states[0]
    assert again.events == game.events[: event_counts[0]]

    record = loads(dumps(game))
    full = replay(record)
    assert full.state == game.state
    assert full.events == game.events
    assert full.history == game.history
    assert full.outcome == game.outcome

    upto = round(where * (len(states) - 1))
    part = replay(record, upto=upto)
    assert part.state == states[upto]
    assert part.events == game.events[: event_counts[upto]]
    assert loads(dumps(part)) == {**record, "actions": record["actions"][:upto]}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(max_choices=50))
def test_undo_all_the_way_back_to_the_deal(setup: Setup) -> None:
    fresh = setup.deal()
    game = setup.deal()
    played = []
    for action in choices(game, setup):
        game.play(action)
        played.append(action)
    while played:
        assert game.undo() == played.pop()
    assert game.state == fresh.state
    assert game.events == fresh.events
    assert game.history == ()
