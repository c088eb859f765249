"""Every lesson completed by clicking in Chromium against real Voilà, once.

The walks, the index and the other pages follow each other in one tab, on one kernel, as a
learner's pages do (the ``tab`` fixture): the first loads, the next ones change page inside
the tab.

A shadow :class:`LessonController` in the test process walks the same lesson with the same
clicks; after every click the page must show exactly the message the shadow shows, so the
browser, the kernel and the controller agree step by step. Each walk also tries a listed
wrong answer and a wrong choice (and checks their explanations), switches language in the
middle and finishes; every fifth walk (one starting in each language) then reloads to check
that the stars were kept in the browser (one mechanism for every lesson: the progress store
keyed by the lesson's id).

Lesson ``i`` starts in ``SUPPORTED_LANGUAGES[i % 3]`` and switches to the language before it
in that list, so over the lessons every language is both a starting language and one switched
to (checked by :func:`test_the_walks_start_and_switch_in_every_language`).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from durak_core import Action
from tests.lesson_clicks import clicks_for, expected_action
from tutorial.controller import LessonController
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n, language_choices
from tutorial.index_page import notebook_name
from tutorial.lesson_view import panel_view, table_view
from tutorial.lessons import Lesson, load_lessons
from tutorial.view_model import Click

from .harness import CELL_ERROR, SiteTab, screenshot

LESSONS = load_lessons()
LANGS = SUPPORTED_LANGUAGES
#: One walk per lesson: (lesson, starting language, language switched to midway).
WALKS = [
    (lesson, LANGS[i % len(LANGS)], LANGS[(i - 1) % len(LANGS)]) for i, lesson in enumerate(LESSONS)
]
#: The walks that end with a reload: every fifth, so one starts in each language (a reload
#: costs a page load, about 3 s of Chromium's CPU and a kernel).
RELOADED = frozenset(lesson.id for lesson, _, _ in WALKS[::5])


class Walker:
    """Clicks in the page and in the shadow controller, and compares what they show."""

    def __init__(self, page: Page, lesson: Lesson, lang: str) -> None:
        self.page = page
        self.shadow = LessonController(lesson, I18n(lang))

    def expect_same(self) -> None:
        view = table_view(self.shadow)
        panel = panel_view(self.shadow)
        message = view["message"]
        locator = self.page.locator(".dt-message")
        if message is None:
            expect(locator).to_have_text(re.compile(r"^\s*$"))
        else:
            expect(locator).to_contain_text(message["text"])
        expect(self.page.locator(".durak-step")).to_have_text(panel["step_label"])
        next_button = self.page.locator("button.durak-next")
        if panel["can_next"]:
            expect(next_button).to_be_enabled()
        else:
            expect(next_button).to_be_disabled()

    def click(self, click: Click) -> None:
        if click["type"] == "action":
            selector = f"button[data-kind='action'][data-id='{click['id']}']"
        else:
            selector = (
                f"button[data-kind='card'][data-zone='{click['zone']}'][data-id='{click['id']}']"
            )
        self.page.locator(f".durak-table {selector}").first.click()
        self.shadow.click(click)
        self.expect_same()

    def play(self, action: Action) -> None:
        for click in clicks_for(self.shadow, action):
            self.click(click)

    def choose(self, index: int) -> None:
        self.page.locator("button.durak-choice").nth(index).click()
        self.shadow.answer_question(index)
        self.expect_same()

    def next(self) -> None:
        self.page.locator("button.durak-next").click()
        self.shadow.next()
        self.expect_same()

    def switch_language(self, lang: str) -> None:
        label = next(name for name, code in language_choices() if code == lang)
        self.page.locator(".durak-language select").select_option(label=label)
        self.shadow.i18n.set_language(lang)
        self.expect_same()


def test_the_walks_start_and_switch_in_every_language() -> None:
    assert [lesson for lesson, _, _ in WALKS] == LESSONS
    assert all(lang != switch_to for _, lang, switch_to in WALKS)
    assert {lang for _, lang, _ in WALKS} == set(LANGS)
    assert {switch_to for _, _, switch_to in WALKS} == set(LANGS)
    assert {lang for lesson, lang, _ in WALKS if lesson.id in RELOADED} == set(LANGS)


@pytest.mark.parametrize(
    ("lesson", "lang", "switch_to"),
    WALKS,
    ids=[f"{lesson.id}-{lang}-{switch_to}" for lesson, lang, switch_to in WALKS],
)
def test_lesson_completes_by_clicking(
    tab: SiteTab, lesson: Lesson, lang: str, switch_to: str
) -> None:
    tab.show(notebook_name(lesson), lang, selector=".durak-table .dt-hand")
    page, browser_log = tab.page, tab.log
    walker = Walker(page, lesson, lang)
    walker.expect_same()
    tried_wrong = tried_choice = switched = False
    middle = len(lesson.steps) // 2
    while not walker.shadow.completed:
        step = walker.shadow.step
        assert step is not None
        if not switched and walker.shadow.index >= middle:
            walker.switch_language(switch_to)
            switched = True
        if step.kind == "move":
            hand = walker.shadow.game.hand(walker.shadow.you)
            wrong = [w for w in step.wrong if w.play.card is None or w.play.card in hand]
            if wrong and not tried_wrong:
                tr = walker.shadow.i18n
                walker.play(wrong[0].play)
                expect(page.locator(".dt-message")).to_contain_text(tr.gettext(wrong[0].explain))
                tried_wrong = True
            walker.play(expected_action(walker.shadow, step))
        elif step.kind == "question":
            if not tried_choice:
                walker.choose(next(i for i, c in enumerate(step.choices) if not c.correct))
                tried_choice = True
            walker.choose(next(i for i, c in enumerate(step.choices) if c.correct))
        walker.next()
    assert switched, f"{lesson.id}: the walk never switched language"
    stars = walker.shadow.stars()
    assert stars < 3 if (tried_wrong or tried_choice) else stars == 3
    expect(page.locator(".durak-stars")).to_contain_text("★" * stars)
    screenshot(page, f"lesson-{lesson.id}-{lang}-done")

    if lesson.id in RELOADED:  # the stars are kept in the browser: a reload shows them again
        page.reload(wait_until="commit")
        page.locator(".durak-table .dt-hand").first.wait_for(state="visible")
        expect(page.locator(".durak-stars")).to_contain_text("★" * stars)
    assert CELL_ERROR not in page.content()
    browser_log.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_index_lists_every_lesson_with_links(tab: SiteTab, lang: str) -> None:
    tab.show("index.ipynb", lang, selector=".durak-index-item")
    page, browser_log = tab.page, tab.log
    items = page.locator(".durak-index-item")
    expect(items).to_have_count(len(LESSONS))
    tr = I18n(lang)
    for i, lesson in enumerate(LESSONS):
        expect(items.nth(i)).to_contain_text(tr.gettext(lesson.title))
        link = items.nth(i).locator("a")
        expect(link).to_have_attribute("href", f"{notebook_name(lesson)}?lang={lang}")
    screenshot(page, f"index-{lang}")
    browser_log.assert_clean()


@pytest.mark.parametrize("name", ["house-rules.ipynb", "play.ipynb"])
def test_other_pages_render(tab: SiteTab, name: str) -> None:
    tab.show(name, "ru", selector=".durak-lesson")
    page, browser_log = tab.page, tab.log
    assert CELL_ERROR not in page.content()
    screenshot(page, f"{name}-ru")
    browser_log.assert_clean()
