"""Bounded work per browser message (issue 19, item 4; the 2026-12-01 probe's finding 4).

* The move log keeps a few refused tries between two real moves, not every one: thousands of
  forged tries leave it as long as a few.
* The log widget sends the browser what changed: one refused try is one line, however long
  the log; the browser's list, rebuilt from those updates as move_log.js does, is exactly the
  log as it was shown before (every line, in order, worded the same), also after a new game
  and a language switch; the widget's full state (a new view) holds the whole log, and a
  browser that missed an update gets the whole log again when it asks.
* Every ``comm_msg`` from the browser passes one token bucket per kernel: beyond the burst
  the messages are dropped before any work, logged once per burst, and it recovers.

No timing: counts of lines, messages and bytes only (the clock of the limiter is a fake).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from typing import Any

import comm
import ipywidgets
import pytest
from comm.base_comm import BaseComm

from durak_core import Action
from tests.helpers import defending_play_page
from tutorial import kernel_safety
from tutorial.free_play_view import MoveLogWidget
from tutorial.game_page import GameApp
from tutorial.kernel_safety import RateLimit, harden_kernel
from tutorial.move_log import MAX_TRIES, log_lines

SENT: list[tuple[str, str, Any]] = []
"""Every comm message the widgets send: (comm id, message type, data)."""


class RecordingComm(BaseComm):
    def publish_msg(self, msg_type: str, data: Any = None, *args: Any, **keys: Any) -> None:
        SENT.append((self.comm_id, msg_type, json.loads(json.dumps(data))))


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str, Any]]]:
    monkeypatch.setattr(comm, "create_comm", lambda *a, **k: RecordingComm(*a, **k))
    SENT.clear()
    yield SENT
    SENT.clear()


@pytest.fixture
def no_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_safety.MESSAGE_LIMIT, "enabled", False)


def browser_msg(widget: Any, content: dict[str, Any]) -> None:
    """A custom message from the widget's JavaScript, through the comm manager's
    ``comm_msg``: what ipykernel calls for every ``comm_msg`` from the browser."""
    msg = {
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": "comm_msg"},
        "parent_header": {},
        "metadata": {},
        "content": {
            "comm_id": widget.comm.comm_id,
            "data": {"method": "custom", "content": content},
        },
        "buffers": [],
    }
    comm.get_comm_manager().comm_msg(None, None, msg)  # type: ignore[arg-type]


class Browser:
    """The log as move_log.js keeps it from the widget's state and its updates."""

    def __init__(self, widget: MoveLogWidget) -> None:
        self.id = widget.comm.comm_id
        state = widget.get_state()
        self.head = state["head"]
        self.lines: list[dict[str, Any]] = list(state["lines"]["lines"])
        self.seq = state["lines"]["seq"]
        self.seen = len(SENT)  # what was sent before: in the state already
        self.missed = 0

    def follow(self, sent: list[tuple[str, str, Any]]) -> list[dict[str, Any]]:
        """Apply the updates sent since the last call; the updates of ``lines``."""
        updates = []
        for comm_id, _type, data in sent[self.seen :]:
            if comm_id != self.id or data.get("method") != "update":
                continue
            state = data["state"]
            self.head = state.get("head", self.head)
            if "lines" in state:
                update = state["lines"]
                updates.append(update)
                if update["start"] == 0 or (
                    update["seq"] == self.seq + 1 and update["start"] <= len(self.lines)
                ):
                    self.lines = self.lines[: update["start"]] + update["lines"]
                    self.seq = update["seq"]
                    assert len(self.lines) == update["total"]
                else:
                    self.missed += 1
        self.seen = len(sent)
        return updates


def shown(app: GameApp) -> list[dict[str, Any]]:
    """The log as the page showed it before this change: every line, worded now."""
    c = app.controller
    tr = c.i18n
    return [
        dict(line)
        for line in log_lines(c.log, tr, players=c.names(tr), you=c.you, rules=c.game.rules)
    ]


# ------------------------------------------------------------------------- the move log


def test_thousands_of_forged_refused_tries_keep_the_log_short(
    sent: list[tuple[str, str, Any]], no_limit: None
) -> None:
    harden_kernel()
    app, wrong = defending_play_page()
    log = app.free_play.panel.log
    browser = Browser(log)
    before = len(app.controller.log)
    for i in range(3000):
        browser_msg(app.table, {"type": "card", "zone": "hand", "id": wrong[i % 2]})
    assert len(app.controller.log) == before + MAX_TRIES
    assert len(log.view["lines"]) == before + MAX_TRIES
    updates = browser.follow(sent)
    assert len(updates) == MAX_TRIES  # the tries beyond the bound send the log nothing
    assert all(len(u["lines"]) == 1 for u in updates)
    assert browser.lines == shown(app) == log.view["lines"]
    # a real move (the computer answers it at once) is shown, like the lines before
    moves = len(app.controller.game.history)
    browser_msg(app.table, {"type": "action", "id": "take"})
    assert len(app.controller.game.history) > moves
    assert browser.follow(sent) and browser.lines == shown(app) and browser.missed == 0


def test_one_refused_try_sends_one_line_however_long_the_log(
    sent: list[tuple[str, str, Any]], no_limit: None
) -> None:
    """The size of a try's update does not grow with the log (it did: the whole log each)."""
    harden_kernel()
    costs = []
    for moves in (0, 12):
        app = GameApp(players=2, language="en", seed=5, pace=0)
        c = app.controller
        log = app.free_play.panel.log
        for _ in range(moves):
            if c.game.outcome is not None:
                break
            legal = [a for a in c.game.legal_actions() if a.seat == c.you]
            c._try(legal[0])
            c._changed()
        browser = Browser(log)
        wrong = next(a for a in (Action.take(c.you), Action.pass_(c.you)) if not c.game.is_legal(a))
        c._try(wrong)
        c._changed()
        (update,) = browser.follow(sent)
        assert update["start"] == update["total"] - 1 and len(update["lines"]) == 1
        assert update["lines"][0]["kind"] == "refused"
        costs.append(
            (len(browser.lines), len(json.dumps(update)) - len(json.dumps(update["lines"])))
        )
        assert browser.lines == shown(app)
    (short, overhead_short), (long, overhead_long) = costs
    assert long > short + 10  # a longer log…
    assert abs(overhead_long - overhead_short) <= 4  # …the same cost (a few more digits)


def test_the_browser_shows_the_same_log_through_a_whole_game(
    sent: list[tuple[str, str, Any]], no_limit: None
) -> None:
    """A normal game, a language switch and a new game: after every update the browser's list
    is the log exactly as it was shown before (the whole list every time)."""
    import random

    app = GameApp(players=3, language="en", seed=8, pace=0, level="newcomer")
    c = app.controller
    log = app.free_play.panel.log
    browser = Browser(log)
    rng = random.Random(8)
    checks = 0
    for turn in range(400):
        if c.game.outcome is not None:
            break
        legal = [a for a in c.game.legal_actions() if a.seat == c.you]
        if turn % 5 == 0:
            wrong = next(
                (a for a in (Action.take(c.you), Action.pass_(c.you)) if a not in legal), None
            )
            if wrong is not None:
                c._try(wrong)
                c._changed()
        c._try(rng.choice(legal))
        c._changed()
        if turn == 6:
            app.language.value = "ru"
        browser.follow(sent)
        assert browser.lines == shown(app) == log.view["lines"]
        assert browser.head["lang"] == c.i18n.language
        checks += 1
    assert c.game.outcome is not None and checks > 5
    assert any(line["kind"] == "refused" for line in browser.lines)
    resets = sum(1 for _c, _t, d in sent if d.get("state", {}).get("lines", {}).get("start") == 0)
    app.new_game()
    browser.follow(sent)
    assert browser.lines == shown(app) and browser.lines[0]["kind"] == "start"
    assert browser.missed == 0
    assert resets <= 3  # the language switch (and the first lines): not one per move


def test_a_new_view_gets_the_whole_log_and_a_lost_update_is_asked_again(
    sent: list[tuple[str, str, Any]], no_limit: None
) -> None:
    harden_kernel()
    app, wrong = defending_play_page()
    log = app.free_play.panel.log
    full = log.get_state()["lines"]
    assert full["start"] == 0 and full["lines"] == shown(app) == log.view["lines"]
    browser = Browser(log)
    browser_msg(app.table, {"type": "card", "zone": "hand", "id": wrong[0]})
    browser.seen = len(sent)  # the browser missed that update…
    browser_msg(app.table, {"type": "card", "zone": "hand", "id": wrong[1]})
    browser.follow(sent)
    assert browser.missed == 1 and browser.lines != shown(app)
    browser_msg(log, {"type": "resync"})  # …and asks for the whole log (move_log.js)
    (update,) = browser.follow(sent)
    assert update["start"] == 0 and browser.lines == shown(app)
    # nothing else the browser sends changes the log
    for forged in ({"type": "resync", "x": 1}, {"lines": []}, {"type": "other"}):
        browser_msg(log, forged)
    assert browser.follow(sent) == []


# ------------------------------------------------------------------------- the rate limit


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_rate_limit_drops_beyond_the_burst_and_recovers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    limit = RateLimit(rate=20.0, burst=50, clock=clock)
    caplog.set_level(logging.WARNING, logger="tutorial.kernel")
    assert [limit.allow() for _ in range(50)] == [True] * 50
    assert [limit.allow() for _ in range(1000)] == [False] * 1000
    assert limit.dropped == 1000
    clock.now += 0.5  # ten more tokens
    assert sum(limit.allow() for _ in range(100)) == 10
    for _ in range(100):  # a flood that goes on: a token now and then
        clock.now += 0.05
        limit.allow()
        limit.allow()
    warnings = [r for r in caplog.records if r.name == "tutorial.kernel"]
    assert len(warnings) == 1  # one burst, logged once
    clock.now += 10  # quiet: the bucket is full again
    assert [limit.allow() for _ in range(50)] == [True] * 50
    assert not limit.allow()
    assert len([r for r in caplog.records if r.name == "tutorial.kernel"]) == 2  # a new burst
    clock.now -= 1_000  # a clock going back never raises nor refills
    assert not limit.allow()


def test_the_limit_stands_before_every_widget_message(
    monkeypatch: pytest.MonkeyPatch, sent: list[tuple[str, str, Any]]
) -> None:
    """Through the comm manager's ``comm_msg`` (ipykernel's path for the browser's messages):
    a flood of clicks beyond the burst does nothing; after a pause a click works."""
    clock = Clock()
    limit = RateLimit(rate=20.0, burst=50, clock=clock)
    monkeypatch.setattr(kernel_safety, "MESSAGE_LIMIT", limit)
    harden_kernel()
    harden_kernel()  # idempotent: one limit, not two
    app, wrong = defending_play_page()
    handled: list[Any] = []
    app.table.on_click(handled.append)
    for i in range(500):
        browser_msg(app.table, {"type": "card", "zone": "hand", "id": wrong[i % 2]})
    assert len(handled) == 50 and limit.dropped == 450
    moves = len(app.controller.game.history)
    browser_msg(app.table, {"type": "action", "id": "take"})
    assert len(app.controller.game.history) == moves  # dropped: the bucket is empty
    clock.now += 1.0
    browser_msg(app.table, {"type": "action", "id": "take"})
    assert len(app.controller.game.history) > moves  # the learner's click again: played


def control_comm_open(comm_id: str) -> None:
    """What ipywidgets' manager in the browser sends to ask for the widgets' state."""
    msg = {
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": "comm_open"},
        "parent_header": {},
        "metadata": {"version": "1.0.0"},
        "content": {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
        "buffers": [],
    }
    comm.get_comm_manager().comm_open(None, None, msg)  # type: ignore[arg-type]


def test_forged_control_comms_do_not_pile_up_and_the_newest_answers(
    monkeypatch: pytest.MonkeyPatch, sent: list[tuple[str, str, Any]]
) -> None:
    """A ``comm_open`` for ``jupyter.widget.control`` is allowed (the page's widget manager
    sends one), and the comm manager keeps every open comm: 10 000 forged ones kept 10 000.
    Now the oldest are closed beyond MAX_CONTROL_COMMS, the opens pass the rate limit, and the
    newest control comm is the one ipywidgets answers on."""
    clock = Clock()
    limit = RateLimit(rate=20.0, burst=50, clock=clock)
    monkeypatch.setattr(kernel_safety, "MESSAGE_LIMIT", limit)
    harden_kernel()
    app, _ = defending_play_page()
    manager = comm.get_comm_manager()
    before = len(manager.comms)
    ids = [uuid.uuid4().hex for _ in range(2_000)]
    for i, comm_id in enumerate(ids):
        if i % 40 == 0:
            clock.now += 2.0  # within the rate: every open is handled
        control_comm_open(comm_id)
    assert limit.dropped == 0
    assert len(manager.comms) <= before + kernel_safety.MAX_CONTROL_COMMS
    closed = {c for c, kind, _ in sent if kind == "comm_close"}
    assert set(ids[: -kernel_safety.MAX_CONTROL_COMMS]) <= closed  # the browser is told
    newest = ids[-1]
    assert newest in manager.comms
    # ipywidgets answers request_states on the newest (a real kernel answers it:
    # tests/test_kernel_safety.py::test_the_widget_control_channel_still_works)
    assert ipywidgets.Widget._control_comm is manager.comms[newest]
    assert app.table.comm is not None and app.table.comm.comm_id in manager.comms


def test_a_flood_of_opens_and_closes_passes_the_rate_limit(
    monkeypatch: pytest.MonkeyPatch, sent: list[tuple[str, str, Any]]
) -> None:
    """comm_open and comm_close share the bucket of comm_msg: beyond the burst, dropped."""
    clock = Clock()
    limit = RateLimit(rate=20.0, burst=50, clock=clock)
    monkeypatch.setattr(kernel_safety, "MESSAGE_LIMIT", limit)
    harden_kernel()
    for _ in range(300):
        control_comm_open(uuid.uuid4().hex)
    for _ in range(300):
        comm.get_comm_manager().comm_close(  # type: ignore[arg-type]
            None,
            None,
            {
                "header": {"msg_id": uuid.uuid4().hex, "msg_type": "comm_close"},
                "parent_header": {},
                "metadata": {},
                "content": {"comm_id": uuid.uuid4().hex, "data": {}},
                "buffers": [],
            },
        )
    assert limit.dropped == 550
