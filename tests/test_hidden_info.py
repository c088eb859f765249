"""Opponents' hidden cards and the stock never reach the browser.

Every comm message the kernel would send (every widget: the table, the panel's HTML, the
buttons, the bridge…) is recorded at the moment it is sent, and checked against what the
learner may know right then (the engine's observation for the learner's seat): no card of
an opponent's hidden hand, no stock card but the face-up turn-up. Face-up ``show`` seats
count as known only while the lesson shows them (not in free play).

Two whole games are played by clicks, as a browser sends them: a full game on the play page,
and lesson 8 to its end and then "play on from here" to the end of the deal.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from typing import Any, ClassVar

import comm
import pytest
from comm.base_comm import BaseComm

from durak_core import Card, observe
from tests.helpers import press
from tests.lesson_clicks import clicks_for, complete
from tests.transcript import Transcripts
from tutorial.app import LessonApp
from tutorial.controller import LessonController
from tutorial.lesson_view import table_view
from tutorial.lessons import Lesson, load_lessons
from tutorial.names import card_full, card_short

NOTATION = re.compile(r"^\d+:")
CARD_IN_NOTATION = re.compile(r"(?<![0-9])(10|[2-9JQKA])[CDHS]")


def hidden_cards(controller: LessonController) -> frozenset[Card]:
    """Cards the learner may not know now: opponents' unseen cards, the stock (turn-up
    excepted while it lies face up under it)."""
    game, you = controller.game, controller.you
    s = game.state
    known = observe(game, you).known
    shown = controller.visible_seats()
    hidden: set[Card] = set()
    for seat, hand in enumerate(s.hands):
        if seat != you and seat not in shown:
            hidden.update(c for c in hand if c not in known[seat])
    hidden.update(c for c in s.stock if not (c is s.turnup and c is s.stock[0]))
    return frozenset(hidden)


def strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


class Watcher:
    """Checks each message when it is sent against the controller's position then."""

    def __init__(self) -> None:
        self.controller: LessonController | None = None
        self.checked = 0
        self.cards_seen = 0
        self.leaks: list[str] = []
        """Recorded, not raised: a page's handlers catch exceptions (and log them)."""

    def check(self, msg_type: str, data: Any) -> None:
        leak = self._leak(msg_type, data)
        if leak:
            self.leaks.append(leak)

    def _leak(self, msg_type: str, data: Any) -> str:
        controller = self.controller
        if controller is None:
            return ""
        tr = controller.i18n
        hidden = hidden_cards(controller)
        if not hidden:
            return ""
        self.checked += 1
        ids = {c.ascii(): c for c in hidden}
        names = {card_full(c, tr).lower(): c for c in hidden}
        shorts = {card_short(c, tr): c for c in hidden}
        for text in strings(data):
            if text in ids:
                return f"{msg_type}: hidden card {text} sent as an id: {data!r:.400}"
            if NOTATION.match(text):
                for match in CARD_IN_NOTATION.finditer(text):
                    if match.group(0) in ids:
                        return f"{msg_type}: hidden card in the move {text}"
            lowered = text.lower()
            for name, c in names.items():
                if name in lowered:
                    return f"{msg_type}: hidden card {c} named in {text!r}"
            for short, c in shorts.items():
                if re.search(rf"(?<![0-9]){re.escape(short)}", text):
                    return f"{msg_type}: hidden card {c} shown as {short} in {text!r}"
        view = data.get("state", {}).get("view") if isinstance(data, dict) else None
        if isinstance(view, dict):
            self.cards_seen += len(view.get("hand", []))
        return ""


class RecordingComm(BaseComm):
    """A comm that checks every message it would publish."""

    watcher: ClassVar[Watcher] = Watcher()
    sent: ClassVar[list[str]] = []

    def publish_msg(self, msg_type: str, data: Any = None, *args: Any, **keys: Any) -> None:
        self.sent.append(msg_type)
        self.watcher.check(msg_type, copy.deepcopy(data))


@pytest.fixture
def watcher(monkeypatch: pytest.MonkeyPatch) -> Watcher:
    watcher = Watcher()
    monkeypatch.setattr(RecordingComm, "watcher", watcher)
    monkeypatch.setattr(RecordingComm, "sent", [])
    monkeypatch.setattr(comm, "create_comm", lambda **kwargs: RecordingComm(**kwargs))
    return watcher


def browser_click(app: Any, content: dict[str, Any]) -> None:
    """A click exactly as the table's JavaScript sends it (a custom comm message)."""
    app.table._handle_msg(
        {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
    )


def play_to_the_end(app: Any, rng: random.Random) -> int:
    """Click random legal moves of the learner until the game is over; the moves made."""
    controller: LessonController = app.controller
    moves = 0
    while controller.game.outcome is None:
        legal = [a for a in controller.game.legal_actions() if a.seat == controller.you]
        assert legal, "free play waits only for the learner"
        action = rng.choice(legal)
        before = len(controller.game.history)
        for click in clicks_for(controller, action):
            browser_click(app, dict(click))
        assert len(controller.game.history) > before, (action, controller.message)
        moves += 1
        assert moves < 500
    return moves


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 5)])
def test_a_whole_free_game_sends_no_hidden_card(watcher: Watcher, players: int, seed: int) -> None:
    from tutorial.game_page import GameApp

    app = GameApp(players=players, language="en", seed=seed, pace=0, level="newcomer")
    watcher.controller = app.controller
    moves = play_to_the_end(app, random.Random(seed))
    assert app.controller.game.outcome is not None and moves > 5
    # and a language switch re-renders everything once more
    app.language.value = "ru"
    assert watcher.checked > moves and watcher.cards_seen > 0
    assert watcher.leaks == []


def test_lesson_8_and_play_on_send_no_hidden_card(watcher: Watcher) -> None:
    from tutorial.app import LessonApp

    app = LessonApp("transfer", language="es")
    controller = app.controller
    watcher.controller = controller
    complete(controller)  # the lesson by clicks through the controller: every render checked
    assert controller.completed
    shown_before = [s for s in table_view(controller)["seats"] if "cards" in s]
    assert shown_before  # the lesson shows Bruno's and Diana's hands…
    press(app.free)
    assert controller.free_play
    assert not [s for s in table_view(controller)["seats"] if "cards" in s]  # …play on: not
    play_to_the_end(app, random.Random(8))
    assert controller.game.outcome is not None
    assert watcher.checked > 10
    assert watcher.leaks == []


def test_play_on_mid_lesson_sends_no_hidden_card(watcher: Watcher) -> None:
    from tutorial.app import LessonApp

    app = LessonApp("transfer", language="ru")
    controller = app.controller
    watcher.controller = controller
    press(app.next)
    press(app.next)  # Ana attacks with a nine
    press(app.free)
    assert controller.free_play
    play_to_the_end(app, random.Random(3))
    assert watcher.checked > 5
    assert watcher.leaks == []


def test_the_watcher_catches_a_leak(watcher: Watcher) -> None:
    """The check itself works: a hidden card put in a message is found."""
    from tutorial.game_page import GameApp

    app = GameApp(players=2, language="en", seed=11)
    watcher.controller = app.controller
    hidden = sorted(hidden_cards(app.controller), key=str)
    assert hidden
    assert watcher.leaks == []
    app.table.progress = {"x": hidden[0].ascii()}
    app.title.value = f"<p>{card_full(hidden[-1], app.i18n)}</p>"
    app.bridge.title = f"{card_short(hidden[1], app.i18n)} !"
    app.title.value = f"1:{hidden[2].ascii()}/6S"
    assert len(watcher.leaks) == 4, watcher.leaks


# ------------------------------------------------------------------ play on from any step


def opponent_card_ids(controller: LessonController) -> set[str]:
    """Every card in another seat's hand that the learner has not seen go there (a card
    picked up from the table or the turned-up trump drawn last are public)."""
    you = controller.you
    known = observe(controller.game, you).known
    return {
        card.ascii()
        for seat, hand in enumerate(controller.game.state.hands)
        if seat != you
        for card in hand
        if card not in known[seat]
    }


CODE = frozenset({"_esm", "_module", "_style", "_styles"})
"""The widget's JavaScript (the loader and its module) and CSS (their comments show example
ids)."""
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[CDHS](?![0-9A-Za-z])")


def leaked_ids(state: dict[str, Any], hidden: set[str]) -> set[str]:
    """Hidden card ids anywhere in a widget's state: as a value, or as a token in a text."""
    found = {text for text in strings(state) if text in hidden}
    for text in strings(state):
        found.update(token for token in CARD_TOKEN.findall(text) if token in hidden)
    return found


def step_states(transcripts: Transcripts, lesson: Lesson) -> list[dict[str, Any]]:
    """The resume state after every input of a clean walk through ``lesson`` (start, each
    step, end), from the lesson transcripts."""
    states = transcripts.states(lesson.id)
    unique = {json.dumps(state, sort_keys=True): state for state in states}
    return list(unique.values())


@pytest.mark.parametrize("lesson", load_lessons(), ids=lambda lesson: lesson.id)
def test_play_on_from_any_step_shows_no_opponent_card(
    transcripts: Transcripts, lesson: Lesson
) -> None:
    """From every step of every lesson (and its end), "Play on from here" sends no card of
    another player's hand in the table's or the move log's state, even when the presenter
    had switched on "show all hands"."""
    played_on = 0
    for state in step_states(transcripts, lesson):
        for show_all in (False, True):
            app = LessonApp(lesson, language="en", pace=0)
            assert app.resume(state)
            if show_all:
                app.set_presenting(True)
                app.show_all.value = True
            if not app.controller.can_free_play():
                continue
            press(app.free)
            controller = app.controller
            assert controller.free_play and not controller.visible_seats()
            hidden = opponent_card_ids(controller)
            for widget in (app.table, app.free_play.panel.log):
                synced = {k: v for k, v in widget.get_state().items() if k not in CODE}
                assert leaked_ids(synced, hidden) == set(), (lesson.id, state)
            assert all("cards" not in seat for seat in app.table.view["seats"])
            played_on += bool(hidden)  # a check that had something to find
    assert played_on >= 2


def test_a_paced_free_game_sends_no_hidden_card(
    watcher: Watcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer's moves one at a time (each a redraw of the table and the move log)."""
    from tutorial import free_play_view
    from tutorial.game_page import GameApp

    scheduled: list[Any] = []
    monkeypatch.setattr(
        free_play_view,
        "kernel_schedule",
        lambda: lambda _delay, callback: scheduled.append(callback) or _Handle(),
    )
    app = GameApp(players=3, language="ru", seed=2, pace=0.7, level="newcomer")
    controller = app.controller
    watcher.controller = controller
    rng = random.Random(2)
    steps = 0
    while controller.game.outcome is None:
        while scheduled:
            scheduled.pop(0)()
            steps += 1
        if controller.game.outcome is not None:
            break
        legal = [a for a in controller.game.legal_actions() if a.seat == controller.you]
        for click in clicks_for(controller, rng.choice(legal)):
            browser_click(app, dict(click))
        assert steps < 1000
    assert controller.paced and steps > 5 and watcher.checked > steps
    assert watcher.leaks == []


class _Handle:
    def cancel(self) -> None:
        pass
