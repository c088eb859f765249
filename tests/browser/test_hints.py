"""The Hint in Chromium against real Voilà (issue 11, 4): on a lesson's move step the panel's
Hint shows the computer's advice and why (a calm "hint" message, the advised card glowing)
without playing it; in free play the table's Hint button does the same."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tutorial.index_page import notebook_name
from tutorial.lesson_view import table_view
from tutorial.lessons import load_lessons

from .harness import CELL_ERROR, SiteTab, screenshot
from .test_lessons import Walker

LESSON = next(lesson for lesson in load_lessons() if lesson.id == "beating")


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_hint_says_why_and_plays_nothing(tab: SiteTab, lang: str) -> None:
    page, browser_log = tab.page, tab.log
    tab.show(notebook_name(LESSON), lang, selector=".durak-table .dt-hand")
    walker = Walker(page, LESSON, lang)
    shadow = walker.shadow
    while (step := shadow.step) is not None and step.kind != "move":
        if step.kind == "question":
            walker.choose(next(i for i, c in enumerate(step.choices) if c.correct))
        walker.next()
    played = len(shadow.game.history)

    page.locator("button.durak-hint").click()
    shadow.hint()
    walker.expect_same()
    advice = shadow.advice
    assert advice is not None and advice.action.card is not None
    message = page.locator(".dt-message.kind-hint")
    expect(message).to_be_visible()
    expect(message).to_contain_text(table_view(shadow)["message"]["label"])  # type: ignore[index]
    glowing = page.locator(".dt-hand .dt-card.mark-hint")
    expect(glowing).to_have_count(1)
    expect(glowing).to_have_attribute("data-id", advice.action.card.ascii())
    assert len(shadow.game.history) == played  # the hint played nothing
    screenshot(page, f"hint-lesson-{lang}")

    # free play: the table offers the Hint (the panel has none there)
    page.locator("button.durak-free").click()
    shadow.continue_free_play()
    button = page.locator(".durak-table button[data-kind='action'][data-id='hint']")
    expect(button).to_be_visible()
    assert shadow.can_advise()
    walker.click({"type": "action", "id": "hint"})
    expect(page.locator(".dt-message.kind-hint")).to_be_visible()
    assert shadow.advice is not None and shadow.message is not None
    assert shadow.message[0] == "hint"
    screenshot(page, f"hint-free-play-{lang}")
    assert CELL_ERROR not in page.content()
    browser_log.assert_clean()
