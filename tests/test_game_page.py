"""The play page and lessons' free play: the computer moves one move at a time on the kernel's
event loop, a click meanwhile is told to wait (and is neither lost nor queued), a move log
and a result panel with a working button, and no button that does nothing.

The event loop is a fake here (``FakeLoop``): the test runs each scheduled move itself, so
nothing depends on time. Rules behind the result: the last player holding cards is the durak
(S0-S4); the computer's moves are legal moves of the engine (S2's turn order: the defender
answers each attack card, then the attackers add or pass).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from durak_core import Action, ActionKind
from tests.lesson_clicks import clicks_for
from tutorial import free_play_view
from tutorial.app import LessonApp
from tutorial.controller import LessonController
from tutorial.free_play_view import QUICK_FACTOR, Pacer, default_pace
from tutorial.game_page import RESUME_KEY_ENV, GameApp
from tutorial.lesson_view import table_view
from tutorial.view_model import Click

PACE = 0.7


@dataclass
class FakeHandle:
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeLoop:
    """``call_later`` that only records; :meth:`run_next` runs the oldest live callback."""

    pending: list[tuple[float, Callable[[], None], FakeHandle]] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeHandle:
        handle = FakeHandle()
        self.pending.append((delay, callback, handle))
        return handle

    def live(self) -> int:
        return sum(not handle.cancelled for _, _, handle in self.pending)

    def run_next(self) -> None:
        while self.pending:
            delay, callback, handle = self.pending.pop(0)
            if not handle.cancelled:
                self.delays.append(delay)
                callback()
                return
        raise AssertionError("nothing is scheduled")


@pytest.fixture
def loop(monkeypatch: pytest.MonkeyPatch) -> FakeLoop:
    fake = FakeLoop()
    monkeypatch.setattr(free_play_view, "kernel_schedule", lambda: fake.call_later)
    return fake


def paced_game(seed: int, players: int = 2, **kwargs: Any) -> GameApp:
    return GameApp(players=players, language="en", seed=seed, pace=PACE, **kwargs)


def computer_first(loop: FakeLoop, players: int = 2) -> GameApp:
    """A paced game whose deal lets the computer move first."""
    for seed in range(100):
        app = paced_game(seed, players)
        if app.controller.opponents_pending():
            return app
        loop.pending.clear()
    raise AssertionError("no deal in 100 lets the computer start")


def click(app: LessonApp, content: Click) -> None:
    """A click exactly as the table's JavaScript sends it."""
    app.table._handle_browser_msg(None, dict(content), [])


def learner_plays(app: LessonApp, rng: random.Random) -> None:
    c = app.controller
    legal = [a for a in c.game.legal_actions() if a.seat == c.you]
    before = len(c.game.history)
    action = rng.choice(legal)
    for content in clicks_for(c, action):
        click(app, content)
    assert c.game.history[before] == action


def run_computer(loop: FakeLoop, controller: LessonController) -> int:
    """Run the scheduled moves until the learner's turn (or the end); how many were run."""
    steps = 0
    while controller.opponents_pending():
        before = len(controller.game.history)
        loop.run_next()
        assert len(controller.game.history) == before + 1, "one move per scheduled step"
        steps += 1
        assert steps < 200
    assert loop.live() == 0, "nothing left scheduled when the learner's turn comes"
    return steps


def test_the_computer_moves_one_move_at_a_time(loop: FakeLoop) -> None:
    app = computer_first(loop, players=3)
    c = app.controller
    assert c.paced and c.game.history == ()  # nothing played yet: the first move waits
    assert loop.live() == 1
    view = table_view(c)
    assert view["busy"] and view["actions"] == []
    log_sizes = []
    while c.opponents_pending():
        before = len(c.game.history)
        loop.run_next()
        assert len(c.game.history) == before + 1
        log_sizes.append(len(app.free_play.panel.log.view["lines"]))
        assert loop.live() <= 1
    assert log_sizes == sorted(set(log_sizes)) and len(log_sizes) >= 1  # grows move by move
    assert not table_view(c)["busy"] and table_view(c)["actions"]
    # the learner's move, then the computer's answer waits for its own step again
    learner_plays(app, random.Random(1))
    if c.opponents_pending():
        assert loop.live() == 1


def test_a_pass_comes_after_a_shorter_pause(loop: FakeLoop) -> None:
    app = computer_first(loop, players=3)
    c = app.controller
    rng = random.Random(4)
    expected: list[float] = []
    for _ in range(40):
        while c.opponents_pending():
            action = c.next_opponent_action()
            assert action is not None
            expected.append(PACE * (QUICK_FACTOR if action.kind is ActionKind.PASS else 1.0))
            loop.run_next()
            # the move played is the one announced
            assert c.game.history[-1] == action
        if c.game.outcome is not None:
            break
        learner_plays(app, rng)
    assert loop.delays == expected
    assert PACE in expected and PACE * QUICK_FACTOR in expected


def test_a_click_while_the_computer_moves_is_told_to_wait_not_queued(loop: FakeLoop) -> None:
    app = computer_first(loop)
    c = app.controller
    hand = c.game.hand(c.you)
    history = c.game.history
    for content in (
        {"type": "card", "zone": "hand", "id": hand[0].ascii()},
        {"type": "action", "id": "pass"},
        {"type": "action", "id": "take"},
    ):
        click(app, content)  # type: ignore[arg-type]
        message = table_view(c)["message"]
        mover = c.names(c.i18n)[c.opponent_to_move() or 0]
        assert message is not None and message["text"] == f"Wait: {mover} is playing."
        assert c.game.history == history and c.mistakes == 0
        assert [e.kind for e in c.log.entries] == ["start"]  # not a refusal: just wait
    run_computer(loop, c)
    # nothing was queued: the computer's moves only, and the wait message is gone
    assert all(a.seat != c.you for a in c.game.history)
    assert table_view(c)["message"] is None


def test_the_wait_message_is_localized(loop: FakeLoop) -> None:
    app = computer_first(loop)
    c = app.controller
    app.language.value = "ru"
    click(app, {"type": "action", "id": "pass"})
    message = table_view(c)["message"]
    assert message is not None
    assert message["text"] == c.i18n.gettext(
        "Wait: {player} is playing.", player=c.names(c.i18n)[c.opponent_to_move() or 0]
    )
    assert any("а" <= ch <= "я" for ch in message["text"].lower())


def test_a_new_game_while_a_move_is_scheduled_plays_nothing_stale(loop: FakeLoop) -> None:
    app = computer_first(loop)
    c = app.controller
    old_game = c.game
    app.deal.click()  # a new deal while the computer's first move waits
    assert c.game is not old_game
    # the old game's move is called off; the new game's first move waits its own pause
    assert loop.live() == int(c.opponents_pending())
    run_computer(loop, c)
    assert not c.opponents_pending()


def test_a_closed_page_stops_the_computer(loop: FakeLoop) -> None:
    app = computer_first(loop)
    app.table.close()
    loop.run_next()
    assert app.controller.game.history == ()


def test_resume_with_moves_pending_goes_on_paced(
    loop: FakeLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RESUME_KEY_ENV, "a server secret")
    app = computer_first(loop)
    state = app.resume_state()  # the computer's first move is still to come
    assert state and state["game"]["free"]
    second = FakeLoop()  # the reloaded page's kernel
    monkeypatch.setattr(free_play_view, "kernel_schedule", lambda: second.call_later)
    again = paced_game(12345)
    assert again.resume(state)
    c = again.controller
    assert c.game.history == () and c.opponents_pending()
    assert second.live() == 1  # the resumed game's move (its own deal's is called off)
    steps = run_computer(second, c)
    kinds = [line["kind"] for line in again.free_play.panel.log.view["lines"]]
    assert steps >= 1 and kinds[:2] == ["start", "move"]


def play_to_the_end(app: LessonApp, loop: FakeLoop | None, seed: int) -> None:
    c, rng = app.controller, random.Random(seed)
    for _ in range(400):
        if loop is not None:
            run_computer(loop, c)
        if c.game.outcome is not None:
            return
        learner_plays(app, rng)
    raise AssertionError("the game does not end")


def test_the_result_panel_and_its_new_game_button(loop: FakeLoop) -> None:
    app = paced_game(21, players=3)
    c = app.controller
    panel = app.free_play.panel
    assert panel.result_box.layout.display == "none"
    play_to_the_end(app, loop, 21)
    outcome = c.game.outcome
    assert outcome is not None
    names = c.names(c.i18n)
    assert panel.result_box.layout.display == ""
    if outcome.durak is None:
        assert "draw" in panel.result.value
    elif outcome.durak == c.you:
        assert "You are the durak this time." in panel.result.value
    else:
        assert f"{names[outcome.durak]} is the durak." in panel.result.value
    for seat in outcome.out_order:
        assert f"<th scope='row'>{names[seat]}</th>" in panel.result.value
    assert panel.again.description == "New game"
    assert table_view(c)["actions"] == []  # no dead Done button at the end
    # a click on a card now says the game is over
    click(app, {"type": "action", "id": "pass"})
    assert c.message is not None and "The game is over" in c.message[1](c.i18n)
    panel.again.click()
    assert c.game.outcome is None and panel.result_box.layout.display == "none"
    assert [line["kind"] for line in panel.log.view["lines"]] == ["start"]
    assert c.game.history == ()  # a fresh deal (the computer's first move, if any, waits)


def test_a_forged_again_click_during_the_game_does_nothing(loop: FakeLoop) -> None:
    app = paced_game(21)
    run_computer(loop, app.controller)
    learner_plays(app, random.Random(0))
    history = app.controller.game.history
    app.free_play.panel.again._handle_button_msg(None, {"event": "click"}, [])
    assert app.controller.game.history == history


def test_the_log_on_the_page_and_its_language_switch(loop: FakeLoop) -> None:
    app = paced_game(21, players=3)
    c = app.controller
    rng = random.Random(3)
    click(app, {"type": "action", "id": "take"})  # refused or "wait": never a crash
    for _ in range(3):
        run_computer(loop, c)
        if c.game.outcome is not None:
            break
        learner_plays(app, rng)
    view = app.free_play.panel.log.view
    assert not view["hidden"] and view["title"] == "Moves" and view["lang"] == "en"
    english = view["lines"]
    whose = {line["who"] for line in english if line["kind"] == "move"}
    assert "You" in whose and "Ana" in whose
    app.language.value = "es"
    spanish = app.free_play.panel.log.view["lines"]
    assert [line["key"] for line in spanish] == [line["key"] for line in english]
    assert app.free_play.panel.log.view["lang"] == "es"
    assert "Tú" in {line["who"] for line in spanish}
    assert [a["text"] for a in english] != [b["text"] for b in spanish]


def test_the_log_shows_the_learners_refusals(loop: FakeLoop) -> None:
    app = paced_game(21)
    c = app.controller
    run_computer(loop, c)
    # the Take or the Done button, whichever the rules refuse now
    wrong = next(a for a in (Action.take(c.you), Action.pass_(c.you)) if not c.game.is_legal(a))
    click(app, {"type": "action", "id": wrong.kind.value})  # type: ignore[typeddict-item]
    lines = app.free_play.panel.log.view["lines"]
    assert lines[-1]["kind"] == "refused" and lines[-1]["who"] == "You"
    assert lines[-1]["label"] == "Not allowed"
    message = table_view(c)["message"]
    assert message is not None and message["kind"] == "error"
    assert lines[-1]["text"] in message["text"]


def test_every_button_shown_in_free_play_does_something(loop: FakeLoop) -> None:
    """A shown button is enabled, or its click explains (in words) why not: none is dead."""
    app = paced_game(8, players=3)
    c = app.controller
    rng = random.Random(8)
    checked = 0
    for _ in range(400):
        run_computer(loop, c)
        if c.game.outcome is not None:
            break
        for button in table_view(c)["actions"]:
            if button["enabled"]:
                continue
            history = c.game.history
            click(app, {"type": "action", "id": button["id"]})
            assert c.game.history == history
            assert c.message is not None and c.message[0] == "error" and c.message[1](c.i18n)
            checked += 1
        learner_plays(app, rng)
    assert c.game.outcome is not None and checked > 0
    assert table_view(c)["actions"] == []


def test_lesson_free_play_is_paced_and_offers_play_again(loop: FakeLoop) -> None:
    app = LessonApp("transfer", language="en", pace=PACE)
    c = app.controller
    panel = app.free_play.panel
    assert panel.widget.layout.display == "none"  # no log during the lesson
    app.next.click()
    app.next.click()
    app.free.click()
    assert c.free_play and panel.widget.layout.display == ""
    start = c.game.history
    position = c.game.state.copy()
    assert table_view(c)["narration"] == ""  # the log tells it instead
    play_to_the_end(app, loop, 5)
    assert panel.result_box.layout.display == "" and panel.again.description == "Play again"
    panel.again.click()
    assert c.free_play and c.game.outcome is None
    # back where free play began (the others' moves from there wait for their steps)
    assert c.game.history[: len(start)] == start
    if not c.game.history[len(start) :]:
        assert c.game.state == position
    assert [line["kind"] for line in panel.log.view["lines"]] == ["start"]


def test_without_a_running_event_loop_the_computer_moves_at_once() -> None:
    """Tests, scripts: no loop runs, so nothing is scheduled and free play is as before."""
    assert free_play_view.kernel_schedule() is None
    app = GameApp(players=3, language="en", seed=4)
    assert not app.controller.paced and not app.controller.opponents_pending()


def test_the_pace_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(free_play_view.PACE_ENV, "1.5")
    assert default_pace() == 1.5
    default = free_play_view.DEFAULT_PACE
    for bad, expected in (("x", default), ("nan", default), ("-3", 0.0), ("99", 5.0)):
        monkeypatch.setenv(free_play_view.PACE_ENV, bad)
        assert default_pace() == expected
    monkeypatch.delenv(free_play_view.PACE_ENV)
    assert default_pace() == free_play_view.DEFAULT_PACE
    controller = GameApp(players=2, language="en", seed=1, pace=0).controller
    assert not controller.paced


def test_a_pacer_with_no_delay_leaves_the_controller_unpaced(loop: FakeLoop) -> None:
    controller = GameApp(players=2, language="en", seed=1, pace=0).controller
    Pacer(controller, delay=0, schedule=loop.call_later)
    assert not controller.paced


def test_on_a_running_event_loop_the_kernel_loop_plays_the_moves() -> None:
    """As in ipykernel (and Pyodide): the page schedules the moves on the running loop."""

    async def main() -> tuple[bool, int, int]:
        app = next(
            app
            for seed in range(100)
            if (
                app := GameApp(players=3, language="en", seed=seed, pace=0.01)
            ).controller.opponents_pending()
        )
        c = app.controller
        at_first = len(c.game.history)
        for _ in range(10_000):
            if not c.opponents_pending():
                break
            await asyncio.sleep(0.001)
        return c.paced, at_first, len(c.game.history)

    paced, at_first, after = asyncio.run(main())
    assert paced and at_first == 0 and after >= 1
