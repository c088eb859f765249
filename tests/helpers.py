"""Shared test helpers: invariant checks and position shorthands."""

from __future__ import annotations

import io
import re
import reprlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from durak_core import (
    Action,
    CapScope,
    Card,
    Event,
    EventKind,
    Game,
    IllegalAction,
    Phase,
    Reason,
    parse_cards,
)
from durak_core.rules import TeamEnd, TeamRotation, team_of


def cards(text: str) -> list[Card]:
    """``cards("8C 10H")`` → the cards (ASCII or Unicode notation)."""
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


def all_cards(game: Game) -> list[Card]:
    """Every card the game holds, wherever it lies (with repetitions, if any)."""
    s = game.state
    return [
        *(c for h in s.hands for c in h),
        *s.stock,
        *s.discard,
        *s.attacks,
        *(d for d in s.defences if d is not None),
    ]


def check_invariants(game: Game, universe: Iterable[Card]) -> None:
    """Every card in exactly one place, nothing lost or duplicated; seats and table sane."""
    placed = all_cards(game)
    assert len(placed) == len(set(placed)), "a card is in two places"
    assert set(placed) == set(universe), "cards were lost or created"
    s = game.state
    rules = game.rules
    for seat, hand in enumerate(s.hands):
        if not s.active[seat]:
            assert not hand, f"seat {seat} is out but holds cards"
    assert len(s.attacks) == len(s.defences)
    if s.stock:
        assert all(s.active), "nobody goes out while the stock has cards"
    team = team_of(rules.teams, game.players)
    if s.phase is Phase.OVER:
        assert not s.attacks
        limit = rules.repetition_limit
        if limit and s.seen and s.seen.count(s.seen[-1]) >= limit:
            assert s.durak is None, "a repeated position ends the game in a draw"
            return
        holding = [seat for seat, on in enumerate(s.active) if on]
        if team is not None and rules.team_end is TeamEnd.TEAM_LOSES:
            assert len({team[seat] for seat in holding}) <= 1, "two teams still hold cards"
        else:
            assert len(holding) <= 1
        return
    if team is not None and rules.team_rotation is TeamRotation.SKIP_PARTNERS:
        holding = [seat for seat, on in enumerate(s.active) if on]
        if len({team[seat] for seat in holding}) > 1:
            assert team[s.attacker] != team[s.defender], "a partner attacks his partner"
    assert s.active[s.attacker] and s.active[s.defender]
    assert s.attacker != s.defender
    if s.phase is Phase.LEAD:
        assert not s.attacks and not s.taking
        assert s.hands[s.attacker], "the attacker must have a card to lead"
    else:
        assert s.attacks
    if rules.cap_scope is CapScope.TOTAL:
        assert len(s.attacks) <= min(rules.attack_cap, s.h0)
    else:
        assert s.defences.count(None) <= rules.attack_cap


def play(game: Game, moves: str) -> None:
    """Play space-separated notations, e.g. ``play(g, "0:8C 1:10C/8C 0:pass")``."""
    for move in moves.split():
        game.play(move)


def refuse(
    game: Game, action: Action | str, reason: Reason, *, exact: bool = True, **params: Any
) -> IllegalAction:
    """Assert ``action`` is refused with ``reason`` and ``params`` (the whole dict when
    ``exact``, else at least these keys), and that neither the state nor the events changed."""
    before = game.state.copy()
    n_events = game.event_count
    history = game.history
    if isinstance(action, str):
        action = Action.parse(action)
    assert not game.is_legal(action)
    assert action not in game.legal_actions()
    with pytest.raises(IllegalAction) as exc:
        game.play(action)
    assert exc.value.reason is reason, exc.value
    if exact:
        assert exc.value.params == params
    else:
        for key, value in params.items():
            assert exc.value.params[key] == value, (key, exc.value.params)
    assert game.state == before
    assert game.event_count == n_events
    assert game.history == history
    return exc.value


def of_kind(game: Game, kind: EventKind, since: int = 0) -> list[Event]:
    return [e for e in game.events_since(since) if e.kind is kind]


def stable_id(value: object, width: int) -> str:
    """A parametrize id from ``repr(value)`` without memory addresses (they differ between
    pytest-xdist workers, which must collect the same ids)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # very deep nesting, a huge number
        text = reprlib.repr(value)
    return re.sub(r" at 0x[0-9a-f]+|0x[0-9a-f]+", "", text)[:width]


def say(bridge: Any, content: object) -> None:
    """Deliver ``content`` as the browser's custom message to a widget (what ipywidgets does)."""
    bridge._handle_custom_msg(content, [])


def press(button: Any) -> None:
    """Click an ipywidgets Button as the browser does."""
    button._handle_button_msg(None, {"event": "click"}, [])


class RecordingTranslations(Translations):
    """Translations that remember which (context, msgid) were looked up."""

    def __init__(self, fp: io.BytesIO) -> None:
        super().__init__(fp)
        self.used: set[tuple[str | None, str]] = set()

    def gettext(self, message: str) -> str:
        self.used.add((None, message))
        return super().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.used.add((None, singular))
        return super().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        self.used.add((context, message))
        return super().pgettext(context, message)


def recording_catalog(lang: str) -> tuple[Catalog, RecordingTranslations]:
    """``lang``'s catalog as read from its .po file, and translations compiled from it that
    remember every (context, msgid) looked up."""
    path = Path(__file__).resolve().parent.parent / "locales" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fp:
        catalog = read_po(fp, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return catalog, RecordingTranslations(buffer)


def defending_play_page(language: str = "en") -> tuple[Any, list[str]]:
    """A play page (``GameApp``, two players) where the learner defends against one card and
    two hand cards cannot beat it, with those two cards in notation (for floods of refused
    tries: tests/test_message_flood.py, benchmarks/message_flood.py)."""
    from tutorial.game_page import GameApp

    for seed in range(200):
        app = GameApp(players=2, language=language, seed=seed, pace=0)
        game, you = app.controller.game, app.controller.you
        if game.outcome is None and game.defending(you) and len(game.table) == 1:
            attack = game.table[0][0]
            wrong = [
                c.ascii()
                for c in game.hand(you)
                if game.why_illegal(Action.beat(you, c, attack)) is not None
            ]
            if len(wrong) >= 2 and game.is_legal(Action.take(you)):
                return app, wrong[:2]
    raise AssertionError("no deal in 200 seeds where two hand cards cannot beat")
