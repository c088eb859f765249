"""Free play on a page: the move log, the result panel, and the computer's moves one by one.

:class:`FreePlayPanel` shows a :class:`~tutorial.controller.LessonController`'s free play: the
move log (:class:`MoveLogWidget`, every move with whose it was, the learner's refused tries)
and, once the game is over, who is the durak with a button to play again. It is hidden
outside free play. :class:`Pacer` makes the others' moves follow each other with a pause, on
the kernel's event loop, so a person can see each one.

The move log costs the same for every new entry, however long the game (issue 19, item 4):
:class:`LogLines` words only the entries it has not worded yet (the log only grows, until a
new game or another language), and :class:`MoveLogWidget` sends the browser what changed,
not the whole log: its ``lines`` trait carries ``{"seq", "start", "lines", "total"}``, the
lines from place ``start`` on (``start`` 0: the whole log, a reset). The widget's full state
(a new view, ``request_states``) always holds the whole log; a browser that missed an update
(``seq`` not the next one) asks for the whole log again (``{"type": "resync"}``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Protocol, TypedDict

import anywidget
import ipywidgets as w
from traitlets import Dict

from durak_core import ActionKind, Game, Rules

from .assets import MODULE_LOADER, file_trait
from .browser_input import PythonOnlyTraits, validated
from .controller import LessonController
from .i18n import Gettext
from .lesson_view import last_out_together
from .move_log import LogLine, MoveLog, ResultView, log_lines, result_view
from .page import escape, set_shown

__all__ = [
    "DEFAULT_PACE",
    "PACE_ENV",
    "FreePlay",
    "FreePlayPanel",
    "LogLines",
    "LogView",
    "MoveLogWidget",
    "Pacer",
    "Schedule",
    "default_pace",
    "kernel_schedule",
    "learner_seat",
    "log_view",
    "result_html",
]

log = logging.getLogger(__name__)


DEFAULT_PACE: Final = 0.7
"""Seconds between two moves of the computer."""
PACE_ENV: Final = "DURAK_PACE"
"""Environment variable (in the kernel) for another pause, in seconds; 0 = no pause."""
_MAX_PACE: Final = 5.0
QUICK_FACTOR: Final = 0.5
"""A pass ("done adding") is a trivial move: it comes after half the pause."""


class LogView(TypedDict):
    """The move log widget's snapshot."""

    lang: str
    title: str
    empty: str
    hidden: bool
    lines: list[LogLine]


def learner_seat(ctl: LessonController) -> int:
    """The seat spoken to as "you": none (-1) in hot-seat, where every seat is a person."""
    learner = getattr(ctl, "learner", None)
    return int(learner()) if callable(learner) else ctl.you


class LogLines:
    """The move log's lines, worded once each: a new entry costs one line, however long the
    log (the others are kept, as long as the log, its language and the names are the same)."""

    def __init__(self) -> None:
        self._key: tuple[MoveLog, int, str, tuple[str, ...], int, Rules] | None = None
        self._lines: list[LogLine] = []

    def of(self, ctl: LessonController) -> list[LogLine]:
        """Every line of ``ctl``'s log (free play only), in the current language: the same
        list :func:`~tutorial.move_log.log_lines` gives, the older lines the same objects."""
        if not ctl.free_play:
            return []
        tr = ctl.i18n
        players = ctl.names(tr)
        you = learner_seat(ctl)
        rules = ctl.game.rules
        log = ctl.log
        key = (log, log.epoch, tr.language, tuple(players), you, rules)
        if key != self._key or len(log) < len(self._lines):
            self._key, self._lines = key, []
        if len(log) > len(self._lines):
            self._lines.extend(
                log_lines(log, tr, players=players, you=you, rules=rules, start=len(self._lines))
            )
        return list(self._lines)


def log_view(ctl: LessonController, lines: LogLines | None = None) -> LogView:
    """The move log of ``ctl``'s free play, in the current language (hidden outside it);
    ``lines`` keeps the lines already worded (else each is worded anew)."""
    tr = ctl.i18n
    return {
        "lang": tr.language,
        # TRANSLATORS: heading of the list of every move of a game played freely.
        "title": tr.gettext("Moves"),
        "empty": tr.gettext("No moves yet."),
        "hidden": not ctl.free_play,
        "lines": (lines or LogLines()).of(ctl),
    }


def _resync(content: object) -> bool | None:
    return True if content == {"type": "resync"} else None


def _same_prefix(old: Sequence[LogLine], new: Sequence[LogLine]) -> int:
    """How many lines at the start of ``new`` are those of ``old`` (the same object, or
    equal)."""
    n = 0
    for a, b in zip(old, new, strict=False):
        if a is not b and a != b:
            break
        n += 1
    return n


class MoveLogWidget(PythonOnlyTraits, anywidget.AnyWidget):
    """The move log: a numbered list, newest at the bottom and in view, new entries announced
    to screen readers. The browser can change nothing (``head`` and ``lines`` are Python's);
    it sends only ``{"type": "resync"}``, when it missed an update.

    ``head`` is ``{lang, title, empty, hidden}``; ``lines`` what changed in the list since
    the last update (see the module docstring). :attr:`view` is the whole :class:`LogView`."""

    _esm = MODULE_LOADER
    _module = file_trait("move_log.js")
    _style = file_trait("move_log.css")

    head = Dict().tag(sync=True)
    lines = Dict({"seq": 0, "start": 0, "lines": [], "total": 0}).tag(sync=True)
    _PYTHON_ONLY = frozenset({"head", "lines"})

    def __init__(self, **kwargs: Any) -> None:
        self._all: list[LogLine] = []  # (before the widget opens: its state holds them)
        self._seq = 0
        super().__init__(**kwargs)
        self.on_msg(self._handle_browser_msg)

    @property
    def view(self) -> LogView:
        """What the browser shows: the head and every line."""
        head = self.head
        return {
            "lang": str(head.get("lang", "")),
            "title": str(head.get("title", "")),
            "empty": str(head.get("empty", "")),
            "hidden": bool(head.get("hidden", False)),
            "lines": list(self._all),
        }

    def show(self, view: LogView) -> None:
        """Show ``view``: one update with what changed (nothing when nothing did)."""
        head = {k: v for k, v in view.items() if k != "lines"}
        lines = list(view["lines"])
        keep = _same_prefix(self._all, lines)
        same_lines = keep == len(lines) == len(self._all)
        if same_lines and head == self.head:
            return
        with self.hold_sync():
            if head != self.head:
                self.head = head
            if not same_lines:
                self._all = lines
                self._send_lines(keep)

    def _send_lines(self, start: int) -> None:
        self._seq += 1
        self.lines = self._delta(start)

    def _delta(self, start: int) -> dict[str, Any]:
        return {
            "seq": self._seq,
            "start": start,
            "lines": [dict(line) for line in self._all[start:]],
            "total": len(self._all),
        }

    def get_state(
        self, key: str | Iterable[str] | None = None, drop_defaults: bool = False
    ) -> dict[str, Any]:
        """The widget's state; the whole of it (``key`` ``None``: a new view, the browser's
        ``request_states``) holds the whole log, a change only what changed."""
        state: dict[str, Any] = super().get_state(key=key, drop_defaults=drop_defaults)
        if key is None and "lines" in state:
            state["lines"] = self._delta(0)
        return state

    def _handle_browser_msg(self, _widget: object, content: object, buffers: object) -> None:
        if validated(content, buffers, _resync, log, "move log"):
            self._send_lines(0)


def result_html(result: ResultView) -> str:
    """The result panel's HTML: a heading, a sentence, and the table of places."""
    head = "".join(f"<th scope='col'>{escape(h)}</th>" for h in result["headers"])
    rows = []
    for row in result["rows"]:
        classes = " ".join(
            c for c, on in (("is-you", row["you"]), ("is-durak", row["durak"])) if on
        )
        rows.append(
            f"<tr class='{classes}'><td>{escape(row['place'])}</td>"
            f"<th scope='row'>{escape(row['name'])}</th><td>{escape(row['cards'])}</td></tr>"
        )
    text = f"<p>{escape(result['text'])}</p>" if result["text"] else ""
    return (
        f"<section class='durak-result outcome-{result['outcome']}'>"
        f"<h3>{escape(result['title'])}</h3>{text}"
        f"<table class='durak-result-table'><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></section>"
    )


def tied_places(view: ResultView, game: Game) -> ResultView:
    """A draw: the players who ran out of cards together share their place (N19: "1 You,
    2 Ana" for two players who went out at once is no ranking)."""
    tied = last_out_together(game)
    places = [row["place"] for row in view["rows"] if row["seat"] in tied]
    if len(places) < 2 or not all(place.isdigit() for place in places):
        return view
    shared = min(places, key=int)
    rows = [{**row, "place": shared} if row["seat"] in tied else row for row in view["rows"]]
    return {**view, "rows": rows}  # type: ignore[typeddict-item]


class FreePlayPanel:
    """The result panel (once the game is over) and the move log, for free play.

    ``again`` is what the panel's button does ("play again" in a lesson, "new game" on the
    play page); ``again_label`` words it. ``widget`` is hidden outside free play."""

    def __init__(self, again: Callable[[], None], again_label: Callable[[Gettext], str]) -> None:
        self._again_label = again_label
        self.log = MoveLogWidget()
        self.log.add_class("durak-log-box")
        self._lines = LogLines()
        self.result = w.HTML()
        self.again = w.Button(button_style="primary", _dom_classes=("durak-nav", "durak-again"))
        self.again.on_click(lambda _b: self._press(again))
        self.result_box = w.VBox([self.result, self.again], _dom_classes=("durak-result-box",))
        self.widget = w.VBox([self.result_box, self.log], _dom_classes=("durak-freeplay",))
        self._over = False

    def _press(self, again: Callable[[], None]) -> None:
        if not self._over:
            return  # a forged click while the game goes on: the button is not there
        try:
            again()
        except Exception:
            log.exception("free play: the again button failed")

    def render(self, ctl: LessonController) -> None:
        tr = ctl.i18n
        self.log.show(log_view(ctl, self._lines))
        outcome = ctl.game.outcome if ctl.free_play else None
        self._over = outcome is not None
        with self.widget.hold_sync():
            set_shown(self.widget, ctl.free_play)
            if outcome is not None:
                view = result_view(
                    outcome, ctl.game.hand_sizes, tr, players=ctl.names(tr), you=learner_seat(ctl)
                )
                if outcome.durak is None and not outcome.repeated:
                    view = tied_places(view, ctl.game)
                self.result.value = result_html(view)
                self.again.description = self._again_label(tr)
                set_shown(self.result_box, True)
            else:
                self.result.value = ""
                set_shown(self.result_box, False)


# ---------------------------------------------------------------------------- pacing


_clock: Callable[[], float] = time.perf_counter
"""The clock that times the computer's thinking (the tests stop it)."""


class Handle(Protocol):
    def cancel(self) -> None: ...


Schedule = Callable[[float, Callable[[], None]], Handle]
"""``schedule(seconds, callback)``: run ``callback`` later, on the kernel's thread."""


def kernel_schedule() -> Schedule | None:
    """The running event loop's ``call_later``: ipykernel's asyncio loop under Voilà and
    JupyterLab, the browser's own loop under Pyodide (the static site). ``None`` when no loop
    runs (a script, the tests): the computer then moves at once."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        if sys.platform != "emscripten":
            return None
        loop = asyncio.get_event_loop()  # Pyodide's WebLoop: always running
    return loop.call_later


class Pacer:
    """Plays the computer's moves one at a time, ``delay`` seconds apart (half of it before
    a pass; the computer's thinking counts in it), whenever ``controller`` has some pending.
    ``alive()`` false: the page is gone,
    nothing more is played. With no ``schedule`` or no delay the controller plays them at
    once, as before."""

    def __init__(
        self,
        controller: LessonController,
        *,
        delay: float = DEFAULT_PACE,
        schedule: Schedule | None = None,
        alive: Callable[[], bool] = lambda: True,
    ) -> None:
        self.controller = controller
        self.delay = delay
        self._schedule = schedule
        self._alive = alive
        self._handle: Handle | None = None
        self._for: tuple[int, int] | None = None
        controller.paced = schedule is not None and delay > 0
        controller.on_change(self.check)

    @property
    def waiting(self) -> bool:
        """A move of the computer is scheduled."""
        return self._handle is not None

    def check(self) -> None:
        """Schedule the computer's next move if it has one and none is scheduled yet."""
        ctl = self.controller
        if not ctl.paced or self._schedule is None:
            return
        position = (id(ctl.game), len(ctl.game.history))
        if self._handle is not None:
            if self._for == position:
                return
            self.cancel()  # another position (a new game, a resume): its own pause
        start = _clock()
        action = ctl.next_opponent_action()  # the computer thinks now (a search: ~0.1 s)
        if action is None:
            return
        thought = _clock() - start
        # the pause counts from the learner's move: the thinking is part of it
        pause = self.delay * (QUICK_FACTOR if action.kind is ActionKind.PASS else 1.0)
        pause = max(0.0, pause - thought)
        self._for = position
        self._handle = self._schedule(pause, self._fire)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _fire(self) -> None:
        self._handle = None
        ctl = self.controller
        try:
            if not self._alive():
                return
            if self._for != (id(ctl.game), len(ctl.game.history)):
                self.check()  # the position changed meanwhile (a new game): pause again
                return
            ctl.opponent_step()  # its listeners redraw the page and call check() again
        except Exception:
            log.exception("free play: the computer's move failed")


def default_pace() -> float:
    """The pause between the computer's moves: :data:`PACE_ENV` when it holds a number of
    seconds (0 to 5), else :data:`DEFAULT_PACE`."""
    raw = os.environ.get(PACE_ENV, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_PACE
    except ValueError:
        return DEFAULT_PACE
    return min(max(value, 0.0), _MAX_PACE) if math.isfinite(value) else DEFAULT_PACE


class FreePlay:
    """Everything a page needs for free play: the panel (result and move log, ``widget``) and
    the pacing of the computer's moves (``pace`` seconds apart; 0, or no running event loop:
    all at once). ``alive()`` says whether the page is still shown."""

    def __init__(
        self,
        controller: LessonController,
        *,
        again: Callable[[], None],
        again_label: Callable[[Gettext], str],
        pace: float | None = None,
        alive: Callable[[], bool] = lambda: True,
    ) -> None:
        self.controller = controller
        self.panel = FreePlayPanel(again, again_label)
        self.widget = self.panel.widget
        delay = default_pace() if pace is None else pace
        schedule = kernel_schedule() if delay > 0 else None
        self.pacer = Pacer(controller, delay=delay, schedule=schedule, alive=alive)

    def render(self) -> None:
        self.panel.render(self.controller)
