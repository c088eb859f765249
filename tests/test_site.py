"""One Python per tab: the site swaps pages in place and leaves nothing of the old one behind.

A link followed inside the tab (or Back/Forward) arrives at the page bridge as a ``go``
message (:func:`tutorial.bridge.validate_message`); :class:`tutorial.pages.Site` builds that
page in the same kernel, with the same bridge, and closes every widget the old page made. A
name that is not a page of the site is refused and changes nothing.
"""

from __future__ import annotations

import gc
import logging
import weakref
from typing import Any

import pytest
from ipywidgets.widgets.widget import _instances

from tests.helpers import say
from tutorial.app import PRESENT_CLASS, LessonApp
from tutorial.assets import FrontEndFile
from tutorial.bridge import validate_message
from tutorial.deferred_open import kept_ids
from tutorial.game_page import GameApp
from tutorial.index_page import IndexApp
from tutorial.kernel_safety import OncePerBurst
from tutorial.page import PENDING_CLASS, BridgedPage
from tutorial.pages import PAGES, MessagePage, Site, kernel_counts, shell, site

pytestmark = pytest.mark.usefixtures("no_server_language")

#: A walk through every kind of page, as a learner clicking links would make it.
WALK = ["02-bout", "index", "play", "house-rules", "sources", "14-flash", "index", "01-beating"]


def hello(lang: str = "en", page: str = "01-beating", **extra: object) -> dict[str, Any]:
    return {"type": "hello", "lang": lang, "page": page, "resume": None, **extra}


def go(page: str, lang: str = "en", **extra: object) -> dict[str, Any]:
    return {"type": "go", "lang": lang, "page": page, "resume": None, **extra}


def opened(name: str = "01-beating", lang: str = "en") -> Site:
    tab = Site(name)
    say(tab.bridge, hello(lang, name))
    return tab


def test_a_go_message_is_a_hello_without_resume() -> None:
    message = validate_message(go("02-bout", present="1", step="3") | {"resume": {"v": 1}})
    assert message == {
        "type": "go",
        "lang": "en",
        "page": "02-bout",
        "resume": None,
        "present": True,
        "step": 3,
    }
    assert validate_message({"type": "go", "page": "index"}) is None  # no lang, no resume
    assert validate_message(go("x" * 201)) is None


def test_a_notebook_shows_its_page_inside_the_site() -> None:
    tab = site("03-growing-round")
    assert isinstance(tab, Site) and isinstance(tab.page, LessonApp)
    assert tab.widget.children == (tab.bridge, tab.page.widget)
    assert tab.page.bridge is tab.bridge
    assert PENDING_CLASS in tab.widget._dom_classes
    assert PENDING_CLASS in tab.page.widget._dom_classes  # waits for the browser's hello
    say(tab.bridge, hello("ru", "03-growing-round"))
    assert tab.bridge.lang == "ru" and PENDING_CLASS not in tab.page.widget._dom_classes
    assert PENDING_CLASS not in tab.widget._dom_classes


@pytest.mark.parametrize("name", [n for n in PAGES if n != "01-beating"])
def test_every_page_can_be_reached_from_a_lesson(name: str) -> None:
    tab = opened("01-beating", "en")
    say(tab.bridge, go(name, "ru"))
    built = tab.page
    assert isinstance(built, BridgedPage) and not isinstance(built, MessagePage)
    # the bridge stays beside the page: the browser draws it once for the tab's life
    assert tab.widget.children == (tab.bridge, built.widget)
    assert tab.bridge not in built.widget.children
    assert built.ready and PENDING_CLASS not in built.widget._dom_classes
    assert built.i18n.language == "ru" and tab.bridge.lang == "ru"
    assert tab.bridge.title.endswith("Учимся играть в дурака")


def test_the_page_change_is_announced_and_the_old_page_stops(
    messages: list[tuple[str, Any]],
) -> None:
    tab = opened("play", "en")
    old = tab.page
    assert isinstance(old, GameApp)
    cancelled: list[bool] = []
    old.free_play.pacer.cancel = lambda: cancelled.append(True)  # type: ignore[method-assign]
    say(tab.bridge, go("index", "en"))
    assert cancelled == [True]
    assert isinstance(tab.page, IndexApp)
    sent = [data for kind, data in messages if kind == "comm_msg"]
    custom = [d["content"] for d in sent if d.get("method") == "custom"]
    assert {"type": "shown", "page": "index"} in custom
    assert old.table.comm is None and old.widget.comm is None  # closed
    assert old.table not in _instances.values() and old.widget not in _instances.values()


def test_language_presenter_mode_and_step_carry_over() -> None:
    tab = opened("01-beating", "es")
    say(tab.bridge, go("03-growing-round", "ru", present="1", step="2"))
    lesson = tab.page
    assert isinstance(lesson, LessonApp)
    assert lesson.i18n.language == "ru"
    assert PRESENT_CLASS in lesson.widget._dom_classes and tab.bridge.present
    assert lesson.controller.index == 1 and tab.bridge.step == 2
    say(tab.bridge, go("index", "ru", present="1"))
    assert tab.bridge.step == 0 and tab.bridge.lang == "ru"


def test_a_page_reached_by_a_link_starts_afresh_whatever_the_browser_sends() -> None:
    tab = opened("03-growing-round", "en")
    lesson = tab.page
    assert isinstance(lesson, LessonApp)
    stored = dict(tab.bridge.resume)
    say(tab.bridge, go("index"))
    say(tab.bridge, go("03-growing-round") | {"resume": stored})
    assert isinstance(tab.page, LessonApp) and tab.page.controller.index == 0


@pytest.mark.parametrize(
    "name", ["_shell", "smoke", "empty", "../index", "index.ipynb", "", "INDEX", "nope"]
)
def test_a_forged_page_change_is_refused_and_changes_nothing(
    name: str, messages: list[tuple[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    tab = opened("02-bout", "en")
    shown, children, title = tab.page, tab.widget.children, tab.bridge.title
    before = set(_instances)
    bursts = [f for f in logging.getLogger("tutorial.pages").filters if isinstance(f, OncePerBurst)]
    unlogged = sum(f.suppressed for f in bursts)
    with caplog.at_level(logging.WARNING, logger="tutorial"):
        say(tab.bridge, go(name))
    assert tab.page is shown and tab.widget.children == children
    assert tab.bridge.title == title and set(_instances) == before
    custom = [
        data["content"]
        for kind, data in messages
        if kind == "comm_msg" and data.get("method") == "custom"
    ]
    assert custom[-1] == {"type": "refused", "page": name}
    # logged, or counted as one more of a burst whose first was logged (issue 37 item 5)
    logged = any("refused a page change" in r.getMessage() for r in caplog.records)
    assert logged or sum(f.suppressed for f in bursts) == unlogged + 1


def test_a_page_change_before_the_hello_is_ignored() -> None:
    tab = Site()
    say(tab.bridge, go("index"))
    assert tab.page is None and PENDING_CLASS in tab.widget._dom_classes
    say(tab.bridge, hello("en", "02-bout"))
    say(tab.bridge, go("index"))
    assert isinstance(tab.page, IndexApp) and PENDING_CLASS not in tab.widget._dom_classes


def test_the_pool_shell_is_a_site_that_waits_for_its_page() -> None:
    tab = shell()
    assert isinstance(tab, Site) and tab.page is None
    say(tab.bridge, hello("ru", "index"))
    say(tab.bridge, go("05-draw-order", "ru"))
    assert isinstance(tab.page, LessonApp) and tab.pages_shown == 2


def test_page_changes_leave_no_widget_comm_or_page_behind(
    messages: list[tuple[str, Any]],
) -> None:
    """The kernel-side counts come back to their baseline, and every old page object (its
    controller, table, timers' callbacks) is garbage: nothing keeps a reference to it."""
    before_test = set(_instances)
    tab = opened("index", "en")
    for name in WALK:  # each kind of page once: the kernel keeps each front-end file's model
        say(tab.bridge, go(name))
    gc.collect()
    kept = kept_ids()
    files = [_instances[key] for key in kept if isinstance(_instances[key], FrontEndFile)]
    assert len(files) == len({file.name for file in files}) >= 10  # one model per file
    baseline = kernel_counts()
    assert baseline[0] > 20 and baseline[1] > 20
    widgets_baseline = len(_instances)
    old_pages: list[weakref.ref[Any]] = []
    for name in WALK * 3:  # 24 changes, back to the first lesson
        old_pages.append(weakref.ref(tab.page))
        say(tab.bridge, go(name))
    assert tab.pages_shown == 33 and isinstance(tab.page, LessonApp)
    gc.collect()
    assert kernel_counts() == baseline and kept_ids() == kept
    assert len(_instances) == widgets_baseline
    assert [ref() for ref in old_pages if ref() is not None] == []
    # every comm the test opened is either a widget still shown or was closed
    opened_comms = sum(kind == "comm_open" for kind, _ in messages)
    closed_comms = sum(kind == "comm_close" for kind, _ in messages)
    assert opened_comms - closed_comms == len(set(_instances) - before_test)
