"""The lesson page's layout in Chromium against real Voilà: what a learner or a class sees.

* On a laptop (1280×720, 1280×800, 1366×768) and wider, the task, the feedback line, Next and
  the whole hand are inside the window without scrolling, beside the table.
* At 375 px (a phone) nothing overflows sideways.
* Presenter mode fills a 1920×1080 projector: cards and text readable from the back of a room.
* The three kinds of feedback on a move look different (colour, icon, label) and keep their
  text readable (WCAG AA contrast).
* Keys step through a lesson and ``?step=N`` opens step N; the address follows the page.
* Finishing lesson 1 by clicking shows the stars, why, and the way on.

Screenshots go to ``test-artifacts/screenshots/layout-*.png``. The pages follow each other in
one tab (the ``tab`` fixture): the first is loaded, the next ones are shown inside the tab.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from durak_core import Action
from tests.lesson_clicks import expected_action
from tutorial.i18n import translator
from tutorial.lessons import Lesson, load_lessons

from .harness import SiteTab, open_notebook, screenshot
from .test_lessons import Walker

BY_ID = {lesson.id: lesson for lesson in load_lessons()}
GROWING = "03-growing-round.ipynb"
HAND = ".durak-table .dt-hand"
KIND = {"illegal": "error", "detour": "detour", "costly": "costly"}


def _wrong_moves(lesson: Lesson) -> dict[str, tuple[int, Action]]:
    """The first listed wrong move of each feedback kind: (step number, move)."""
    found: dict[str, tuple[int, Action]] = {}
    for number, step in enumerate(lesson.steps, start=1):
        for wrong in step.wrong if step.kind == "move" else ():
            found.setdefault(KIND[wrong.feedback], (number, wrong.play))
    return found


#: S4's example 1 (lesson 3) has a refusal, a costly trump and a sensible detour.
WRONG = _wrong_moves(BY_ID["growing-round"])
STEPS = len(BY_ID["growing-round"].steps)


def _open_at(tab: SiteTab, lang: str, number: int, *, present: bool = False) -> Walker:
    """Lesson 3 at step ``number`` (the address of a deep link, shown in the module's tab),
    with a shadow controller there too."""
    tab.show(GROWING, lang, selector=HAND, step=str(number), present=present)
    walker = Walker(tab.page, BY_ID["growing-round"], lang)
    assert walker.shadow.go_to(number)
    walker.expect_same()
    return walker


#: The boxes of what must be visible, and whether the page scrolled to show them.
BOXES = """(selectors) => {
  const scroller = document.getElementById("rendered_cells") || document.scrollingElement;
  return {
    scrolled: scroller.scrollTop,
    width: window.innerWidth,
    height: window.innerHeight,
    boxes: selectors.map((s) => {
      const nodes = [...document.querySelectorAll(s)].filter((n) => n.getClientRects().length);
      return nodes.map((n) => {
        const r = n.getBoundingClientRect();
        return [s, r.left, r.top, r.right, r.bottom];
      });
    }).flat(),
  };
}"""


def _outside(page: Page, selectors: list[str]) -> tuple[list[Any], int]:
    seen = page.evaluate(BOXES, selectors)
    found = {box[0] for box in seen["boxes"]}
    missing = [s for s in selectors if s not in found]
    width, height = seen["width"], seen["height"]
    outside = [
        box
        for box in seen["boxes"]
        if box[1] < -0.5 or box[2] < -0.5 or box[3] > width + 0.5 or box[4] > height + 0.5
    ]
    return [*missing, *outside], seen["scrolled"]


def _rgb(colour: str) -> tuple[float, float, float]:
    found = re.fullmatch(r"rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)", colour)
    assert found, colour
    assert found.group(4) in (None, "1"), f"translucent colour {colour}"
    return float(found.group(1)), float(found.group(2)), float(found.group(3))


def _contrast(a: str, b: str) -> float:
    def lum(colour: str) -> float:
        def channel(v: float) -> float:
            c = v / 255
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(v) for v in _rgb(colour))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_task_feedback_next_and_hand_fit_beside_the_table(tab: SiteTab) -> None:
    """Lesson 3 (S4 example 1): a refused move's explanation, then a long Russian task with
    a long answer."""
    page, browser_log = tab.page, tab.log
    page.set_viewport_size({"width": 1280, "height": 720})
    number, move = WRONG["error"]
    walker = _open_at(tab, "en", number)
    expect(page.locator(".durak-step")).to_have_text(f"Step {number} of {STEPS}")
    walker.play(move)
    expect(page.locator(".dt-message.kind-error")).to_be_visible()
    must_show = [".durak-say", ".dt-message", "button.durak-next", f"{HAND} .dt-card"]
    for width, height in ((1280, 720), (1280, 800), (1366, 768), (1920, 1080), (1100, 700)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # the table fits its cards on resize
        outside, scrolled = _outside(page, must_show)
        assert outside == [] and scrolled == 0, (width, height, outside)
        # beside the table, not under it
        table = page.locator(".dt-felt").bounding_box()
        say = page.locator(".durak-say").bounding_box()
        assert table and say and say["x"] > table["x"] + table["width"] - 1
        if (width, height) == (1280, 720):
            screenshot(page, "layout-1280x720", full_page=False)
    # a long task and a long answer (Russian): the panel scrolls, Next never does
    page.set_viewport_size({"width": 1280, "height": 720})
    number, move = WRONG["detour"]
    _open_at(tab, "ru", number).play(move)
    expect(page.locator(".dt-message.kind-detour")).to_be_visible()
    outside, scrolled = _outside(page, ["button.durak-next", ".dt-message", f"{HAND} .dt-card"])
    assert outside == [] and scrolled == 0, outside
    screenshot(page, "layout-1280x720-ru-detour", full_page=False)
    browser_log.assert_clean()


def test_three_kinds_of_feedback_look_different(tab: SiteTab) -> None:
    """Lesson 3 (S4 example 1): a move the rules refuse, a costly trump, and a sensible
    detour from the example."""
    page, browser_log = tab.page, tab.log
    en = translator("en")
    seen: dict[str, dict[str, str]] = {}
    assert set(WRONG) == {"error", "costly", "detour"}
    for kind, (number, move) in WRONG.items():
        _open_at(tab, "en", number).play(move)
        message = page.locator(f".dt-message.kind-{kind}")
        expect(message).to_be_visible()
        seen[kind] = message.evaluate(
            """(m) => {
              const s = (e) => getComputedStyle(e);
              const label = m.querySelector('.dt-message-label');
              const icon = m.querySelector('.dt-message-icon');
              return {
                label: label.textContent, labelColour: s(label).color,
                textColour: s(m).color, background: s(m).backgroundColor,
                border: s(m).borderLeftColor, icon: icon.textContent,
                iconColour: s(icon).color, iconBackground: s(icon).backgroundColor,
                live: m.getAttribute('role') + ' ' + m.getAttribute('aria-live'),
              };
            }"""
        )
    assert seen["error"]["label"] == en.pgettext("feedback", "Not allowed")
    assert seen["detour"]["label"] == en.pgettext("feedback", "Allowed, but…")
    assert seen["costly"]["label"] == en.pgettext("feedback", "Allowed, but costly")
    for field in ("label", "background", "border", "icon", "iconBackground"):
        assert len({look[field] for look in seen.values()}) == 3, field
    for kind, look in seen.items():
        assert look["live"] == "status polite", kind  # announced as before
        assert _contrast(look["labelColour"], look["background"]) >= 4.5, kind
        assert _contrast(look["textColour"], look["background"]) >= 4.5, kind
        assert _contrast(look["iconColour"], look["iconBackground"]) >= 4.5, kind
    screenshot(page, "layout-feedback-detour", full_page=False)
    browser_log.assert_clean()


@pytest.mark.parametrize(("name", "step"), [("01-beating.ipynb", "1"), (GROWING, str(STEPS))])
def test_a_phone_has_no_sideways_scrolling(tab: SiteTab, name: str, step: str) -> None:
    page, browser_log = tab.page, tab.log
    page.set_viewport_size({"width": 375, "height": 740})
    tab.show(name, "es", selector=HAND, step=step)
    widths = page.evaluate(
        """() => {
          const scroller = document.getElementById("rendered_cells");
          const right = Math.max(...[...document.querySelectorAll(".durak-lesson *")]
            .filter((n) => n.getClientRects().length)
            .map((n) => n.getBoundingClientRect().right));
          return [document.scrollingElement.scrollWidth, scroller.scrollWidth,
                  scroller.clientWidth, right];
        }"""
    )
    document, scrolled, visible, right = widths
    assert document <= 375 and scrolled <= visible and right <= 375.5, widths
    # the task before the table, on the first screen (N20); the feedback and the step buttons
    # under it, Next reachable, no presenter button
    task = page.locator(".durak-say").first.bounding_box()
    table = page.locator(".durak-table .dt-felt").first.bounding_box()
    assert task is not None and table is not None
    assert task["y"] + task["height"] <= table["y"] and task["y"] < 740, (task, table)
    expect(page.locator("button.durak-next")).to_be_visible()
    expect(page.locator(".durak-present-toggle")).to_be_hidden()
    screenshot(page, f"layout-phone-{name}", full_page=True)
    browser_log.assert_clean()


def test_presenter_mode_fills_a_projector(tab: SiteTab) -> None:
    page, browser_log = tab.page, tab.log
    page.set_viewport_size({"width": 1920, "height": 1080})
    number, move = WRONG["costly"]
    _open_at(tab, "en", number, present=True).play(move)
    expect(page.locator(".dt-message.kind-costly")).to_be_visible()
    sizes = page.evaluate(
        """() => {
          const visual = (s) => {
            const n = document.querySelector(s);
            return parseFloat(getComputedStyle(n).fontSize) * (n.currentCSSZoom || 1);
          };
          const card = document.querySelector(".dt-hand .dt-card").getBoundingClientRect();
          const page = document.querySelector(".durak-lesson").getBoundingClientRect();
          return {card: card.height, say: visual(".durak-say"),
                  message: visual(".dt-message-text"), next: visual("button.durak-next"),
                  step: visual(".durak-step"), width: page.width};
        }"""
    )
    assert sizes["card"] >= 120 and sizes["width"] >= 1800, sizes
    assert sizes["say"] >= 24 and sizes["message"] >= 24 and sizes["next"] >= 22, sizes
    outside, scrolled = _outside(page, [".durak-say", ".dt-message", "button.durak-next"])
    assert outside == [] and scrolled == 0
    assert "present=1" in page.url and f"step={number}" in page.url
    screenshot(page, "layout-present-1920x1080", full_page=False)
    # the button leaves presenter mode, and the address follows
    toggle = page.locator(".durak-present-toggle")
    toggle.click()
    expect(page).not_to_have_url(re.compile(r"present=1"))
    card = page.locator(f"{HAND} .dt-card").first.bounding_box()
    assert card and card["height"] < sizes["card"]
    browser_log.assert_clean()


SEATS_AND_HAND = """() => ({
  seats: [...document.querySelectorAll('.dt-opponents .dt-seat')].map((n) => {
    const r = n.getBoundingClientRect();
    return [n.getAttribute('aria-label'), Math.round(r.top), Math.round(r.left + r.width / 2)];
  }),
  hand: document.querySelector('.dt-hand .dt-card').getBoundingClientRect().height,
  faceUp: document.querySelectorAll('.dt-seat-cards .dt-card').length,
})"""


def test_presenter_space_goes_on_whatever_has_focus_and_all_hands_keep_the_seats(
    tab: SiteTab,
) -> None:
    """N8: in presenter mode Space is the clicker's "next", even after a click on Back or on
    "Show all hands" (which would otherwise take the Space). N9: showing every hand keeps
    the seats in one row, in their order, and the learner's cards readable."""
    page, browser_log = tab.page, tab.log
    page.set_viewport_size({"width": 1920, "height": 1080})
    _open_at(tab, "en", 2, present=True)
    before = page.evaluate(SEATS_AND_HAND)
    show_all = page.locator(".durak-show-all")
    show_all.click()
    expect(page.locator(".dt-seat-cards").first).to_be_visible()
    after = page.evaluate(SEATS_AND_HAND)
    assert after["faceUp"] > 0
    assert [name for name, _, _ in after["seats"]] == [name for name, _, _ in before["seats"]]
    assert len({top for _, top, _ in after["seats"]}) == 1, after  # one row, as before
    assert after["hand"] >= 0.9 * before["hand"], (before, after)
    screenshot(page, "layout-present-all-hands-1920x1080", full_page=False)
    step = page.locator(".durak-step")
    expect(step).to_have_text(f"Step 2 of {STEPS}")
    page.keyboard.press("Space")  # focus is on "Show all hands": it stays on
    expect(step).to_have_text(f"Step 3 of {STEPS}")
    expect(show_all).to_have_class(re.compile(r"\bmod-active\b"))
    page.locator("button.durak-back").click()
    expect(step).to_have_text(f"Step 2 of {STEPS}")
    page.keyboard.press("Space")  # focus is on Back: Space still goes on
    expect(step).to_have_text(f"Step 3 of {STEPS}")
    browser_log.assert_clean()


def test_keys_step_through_and_a_deep_link_opens_its_step(tab: SiteTab) -> None:
    page, browser_log = tab.page, tab.log
    lesson = BY_ID["growing-round"]
    # a step that is done on entry, followed by a move step
    first = next(
        n
        for n in range(2, STEPS)
        if lesson.steps[n - 1].kind in ("say", "auto") and lesson.steps[n].kind == "move"
    )
    walker = _open_at(tab, "en", first)
    step = page.locator(".durak-step")
    expect(step).to_have_text(f"Step {first} of {STEPS}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step {first + 1} of {STEPS}")
    # outside presenter mode the address keeps no step: a learner's reload starts afresh
    expect(page).not_to_have_url(re.compile(r"[?&]step="))
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step {first} of {STEPS}")
    page.keyboard.press("PageDown")
    walker.shadow.next()
    walker.expect_same()
    # a move step: → waits for the learner (outside presenter mode); the hint's answer
    # comes after the key was handled
    page.keyboard.press("ArrowRight")
    page.locator("button.durak-hint").click()
    walker.shadow.hint()
    walker.expect_same()
    # a deep link to no step opens the first one (a link: the page is loaded)
    open_notebook(page, GROWING, "en", selector=HAND, step="99")
    expect(step).to_have_text(f"Step 1 of {STEPS}")
    expect(page).not_to_have_url(re.compile(r"step="))
    browser_log.assert_clean()


def test_finishing_lesson_1_by_clicks_shows_stars_why_and_the_way_on(tab: SiteTab) -> None:
    page, browser_log = tab.page, tab.log
    lesson = BY_ID["beating"]
    page.set_viewport_size({"width": 1280, "height": 720})
    tab.show("01-beating.ipynb", "en", selector=HAND)
    walker = Walker(page, lesson, "en")
    while not walker.shadow.completed:
        step = walker.shadow.step
        assert step is not None
        if step.kind == "move":
            walker.play(expected_action(walker.shadow, step))
        elif step.kind == "question":
            walker.choose(next(i for i, c in enumerate(step.choices) if c.correct))
        walker.next()
    finish = page.locator(".durak-finish")
    expect(finish).to_be_visible()
    expect(finish.locator(".durak-finish-stars")).to_have_text("★★★")
    expect(finish).to_contain_text("No mistakes and no hints")
    link = finish.locator("a.durak-finish-next")
    expect(link).to_contain_text("Attack, defence, take and bito")
    expect(link).to_have_attribute("href", "02-bout.ipynb?lang=en")
    expect(page.locator("button.durak-next")).to_be_hidden()
    expect(page.locator("button.durak-hint")).to_be_hidden()
    expect(page.locator("button.durak-restart")).to_have_text("Try again")
    expect(page.locator("button.durak-free")).to_be_visible()
    outside, _ = _outside(page, [".durak-finish", "button.durak-restart", "button.durak-free"])
    assert outside == []
    screenshot(page, "layout-finish-1280x720", full_page=False)
    page.locator("button.durak-restart").click()
    expect(page.locator(".durak-step")).to_have_text(f"Step 1 of {len(lesson.steps)}")
    expect(finish).to_be_hidden()
    browser_log.assert_clean()
