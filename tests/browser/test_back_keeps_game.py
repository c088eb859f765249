"""Back keeps the game, and a game is played in one tab (issue 37 items 4 and 2; security
review findings 4 and 2), in Chromium on the real server.

A card played on the play page, the in-tab link to the index, then the browser's Back: the same
hand and the same move log, no new deal. A second tab handed the sealed state the first tab had
before Back (the state Back resumed) is refused and freezes with the localized "this game
continues in another tab"; taking the game there freezes the first tab in turn.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import BrowserContext, Page, expect

from tutorial.i18n import translator

from .harness import BrowserLog, open_notebook

HAND = ".durak-table .dt-hand button[data-kind='card']"
TABLE = ".durak-table:not(.dt-feedback)"
LOG = ".durak-log .dl-entry"
COVER = ".durak-away"
#: Take, else Done, else the first card of the hand (as tests/browser/test_game_page.py).
CLICK_SOMETHING = """() => {
  const table = document.querySelector(".durak-table:not(.dt-feedback)");
  const button = table.querySelector("button[data-id='take']:not(.is-disabled)")
    || table.querySelector("button[data-id='pass']:not(.is-disabled)")
    || table.querySelector(".dt-hand button[data-kind='card']");
  if (button) button.click();
}"""
STORED = """() => Object.keys(sessionStorage)
  .filter((key) => key.startsWith("durak-state:") && key.endsWith("/play.ipynb"))
  .map((key) => [key, sessionStorage.getItem(key)])[0] || null"""


def settled(page: Page) -> None:
    """The computer has answered: the table is not busy."""
    expect(page.locator(TABLE)).not_to_have_class(re.compile(r"\bis-busy\b"), timeout=60_000)


def game_shown(page: Page) -> tuple[list[str | None], list[str]]:
    """The learner's hand and the moves in the log, as shown (not the log's first line, the
    deal, which a resumed game words more briefly)."""
    settled(page)
    hand = [b.get_attribute("data-id") for b in page.locator(HAND).all()]
    return hand, page.locator(LOG).all_inner_texts()[1:]


def play_a_move(page: Page) -> None:
    settled(page)
    before = page.locator(LOG).count()
    for _ in range(5):  # a refused card changes nothing: try the next thing
        page.evaluate(CLICK_SOMETHING)
        try:
            expect(page.locator(LOG)).not_to_have_count(before, timeout=10_000)
            break
        except AssertionError:
            continue
    settled(page)


def test_back_keeps_the_game_and_a_second_tab_on_the_same_state_freezes(
    page: Page, context: BrowserContext, browser_log: BrowserLog
) -> None:
    open_notebook(page, "play.ipynb", "en", selector=HAND)
    play_a_move(page)
    expect(page.locator(COVER)).to_be_hidden()
    before_back = page.evaluate(STORED)
    assert before_back is not None, "the play page stores its sealed state"
    shown = game_shown(page)
    assert shown[1], "the move log shows the move"

    page.locator("a[data-durak-page='index']").first.click()
    expect(page.locator(".durak-site h1")).to_have_text(translator("en").gettext("Learn Durak"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"/voila/render/play\.ipynb\?lang=en$"))
    expect(page.locator(HAND).first).to_be_visible(timeout=60_000)
    expect(page.locator(COVER)).to_be_hidden()
    assert game_shown(page) == shown, "Back shows the same game, not a new deal"

    # A second tab with the state the first had before Back: Back resumed it already.
    key, token = before_back
    second = context.new_page()
    second.add_init_script(
        f"sessionStorage.setItem({json.dumps(key)}, {json.dumps(token)});"
        f"sessionStorage.setItem({json.dumps(key.replace('durak-state:', 'durak-resume:'))}, '1');"
    )
    es = translator("es")
    open_notebook(second, "play.ipynb", "es", selector=COVER)
    expect(second.locator(COVER)).to_contain_text(es.gettext("This game continues in another tab"))
    take = second.locator("button.durak-away-main")
    expect(take).to_have_text(es.pgettext("button", "Take the game here"))
    take.click()  # the newest state: the first tab's game as it is now
    expect(second.locator(COVER)).to_be_hidden()
    hand, log = game_shown(second)  # (its log is in Spanish)
    assert hand == shown[0] and len(log) == len(shown[1])
    # the first tab, left behind, plays nothing more and says so
    page.evaluate(CLICK_SOMETHING)
    expect(page.locator(COVER)).to_contain_text(
        translator("en").gettext("This game continues in another tab")
    )
    assert game_shown(page) == shown
    second.close()
    browser_log.assert_clean()
