"""Presenter mode, deep links and navigation keys in the page bridge's JavaScript, in a real
browser without Voilà (the harness of tests/test_bridge_render.py): what the hello carries,
the address kept in step with the page, the zoom that fills a projector, and which keys
become navigation messages (never while the learner types in a form control or a menu)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests import test_bridge_render as harness

pytestmark = pytest.mark.browser

# the bridge harness's fixtures, shared
base_url = harness.base_url
browser = harness.browser
open_page = harness.open_page
sent = harness.sent
state = harness.state

LESSON_PAGE = """() => {
  const page = document.createElement("div");
  page.className = "durak-lesson durak-lesson-page";
  page.innerHTML = `<select id="menu"><option>es</option><option>en</option></select>
    <input id="field"><button id="button">Next</button>`;
  document.body.append(page);
}"""


def test_the_hello_carries_present_and_step_as_given(open_page: Callable[..., Any]) -> None:
    page = open_page("?lang=en&present=1&step=" + "7" * 40)
    hello = sent(page, "hello")[0]
    assert hello["present"] == "1" and hello["step"] == "7" * 32  # cut to 32 characters
    page = open_page("?lang=en")
    hello = sent(page, "hello")[0]
    assert hello["present"] is None and hello["step"] is None


def test_present_and_step_follow_the_page_in_the_address(open_page: Callable[..., Any]) -> None:
    page = open_page("?lang=xx&step=99#top")
    entries = page.evaluate("history.length")
    # not before the page is ready (lang set): the address stays as the learner typed it
    page.evaluate("window.model.set('step', 4)")
    assert page.evaluate("location.search") == "?lang=xx&step=99"
    page.evaluate("window.model.set('lang', 'ru'); window.model.set('present', true)")
    assert page.evaluate("location.search + location.hash") == "?lang=ru&step=4&present=1#top"
    page.evaluate("window.model.set('step', 0); window.model.set('present', false)")
    assert page.evaluate("location.search + location.hash") == "?lang=ru#top"
    assert page.evaluate("history.length") == entries  # replaced, never pushed


@pytest.mark.parametrize(
    ("width", "height", "zoom"), [(1920, 1080, 1.5), (1280, 720, 1.0), (1024, 768, 1.0)]
)
def test_the_zoom_fills_the_window(
    open_page: Callable[..., Any], width: int, height: int, zoom: float
) -> None:
    page = open_page("?present=1", width=width, height=height)
    value = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--durak-zoom')"
    )
    assert float(value) == pytest.approx(zoom)
    page.set_viewport_size({"width": 2560, "height": 1440})
    page.wait_for_function(
        "getComputedStyle(document.documentElement).getPropertyValue('--durak-zoom') === '2.000'"
    )


def _keys(page: Any, *keys: str, focus: str | None = None) -> list[str]:
    before = len(sent(page, "nav"))
    if focus:
        page.focus(focus)
    for key in keys:
        page.keyboard.press(key)
    return [m["to"] for m in sent(page, "nav")[before:]]


def test_keys_become_navigation_on_a_lesson_page(open_page: Callable[..., Any]) -> None:
    page = open_page("?lang=en", model=state("en"))
    assert _keys(page, "ArrowRight") == []  # not a lesson page
    page.evaluate(LESSON_PAGE)
    assert _keys(page, "ArrowRight", "PageDown", "Space", "ArrowLeft", "PageUp", "r") == [
        "next",
        "next",
        "next",
        "back",
        "back",
        "restart",
    ]
    assert _keys(page, "Control+ArrowRight", "Alt+ArrowLeft", "Shift+ArrowRight") == ["next"]
    # the menu, a text field: their keys are their own
    assert _keys(page, "ArrowRight", "ArrowLeft", "r", focus="#menu") == []
    assert _keys(page, "ArrowRight", "Space", "r", focus="#field") == []
    # on a button, Space presses the button; the arrows still step (a clicker after a click)
    assert _keys(page, "Space", focus="#button") == []
    assert _keys(page, "ArrowRight", "PageUp", focus="#button") == ["next", "back"]


def test_at_the_end_next_follows_the_link_to_the_next_lesson(
    open_page: Callable[..., Any],
) -> None:
    page = open_page("?lang=ru&present=1", model=state("ru", present=True))
    page.evaluate(LESSON_PAGE)
    page.evaluate(
        """() => {
          const a = document.createElement('a');
          a.className = 'durak-finish-next';
          a.dataset.durakPage = '02-bout';
          a.href = '02-bout.ipynb?lang=es';
          a.textContent = 'next';
          document.querySelector('.durak-lesson').append(a);
        }"""
    )
    with page.expect_navigation():
        page.keyboard.press("ArrowRight")
    assert page.url.endswith("/02-bout.ipynb?lang=ru&present=1")
