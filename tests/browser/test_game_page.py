"""The play page in Chromium against real Voilà: a whole game with its move log, the
computer's moves arriving one at a time, a click meanwhile told to wait, a language switch,
the result panel and "New game"; a whole game by clicking in es, en and ru with the review of
the learner's costliest moves; and "Play on from here" in a lesson.

``tests/data/notebooks/play-seeded.ipynb`` deals a fixed game (two players, seed 24, the
newcomer level) with the computer's moves 0.7 s apart (``play-quick.ipynb``: the same, no
pause). A shadow page in the test process (same seed, no pause) plays the same moves, so
after each of the learner's moves the browser must show the same log. No time is measured:
the page records every change of the log and of the feedback line, and the test reads that
record (each computer move is a change of its own). The static site's pacing is in
``test_game_page_static.py`` (its own Chromium, as test_static_site.py's).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from durak_core import Card, observe
from tests.lesson_clicks import clicks_for
from tutorial.game_page import GameApp, level_name, review
from tutorial.i18n import language_choices
from tutorial.move_log import log_lines, result_view
from tutorial.opponent import PAGE_LEVELS, choose
from tutorial.view_model import Click

from .harness import BrowserLog, open_notebook, screenshot

SEEDED = "play-seeded.ipynb"
QUICK = "play-quick.ipynb"
"""The same deal with no pause between the computer's moves."""
LOG = ".durak-log .dl-entry"
TABLE = ".durak-table:not(.dt-feedback)"
"""The table's root (the page shows its feedback line elsewhere, in an element of its own)."""
#: Record, in the page, each batch of entries the log added at once (one batch per update
#: from the kernel: the widget appends an update's new entries in one go) and each feedback
#: text.
RECORDER = """() => {
  const list = document.querySelector(".durak-log .dl-list");
  const message = document.querySelector(".dt-message");
  window.durakLog = { batches: [], messages: [] };
  new MutationObserver((records) => {
    for (const record of records) {
      const added = [...record.addedNodes].filter((x) => x.nodeName === "LI").length;
      if (added) window.durakLog.batches.push(added);
    }
  }).observe(list, { childList: true });
  new MutationObserver(() => window.durakLog.messages.push(message.textContent))
    .observe(message, { childList: true, subtree: true, characterData: true });
}"""

#: A click the learner could make: Take, else Done, else the first card of the hand.
CLICK_SOMETHING = """() => {
  const table = document.querySelector(".durak-table:not(.dt-feedback)");
  const button = table.querySelector("button[data-id='take']:not(.is-disabled)")
    || table.querySelector("button[data-id='pass']:not(.is-disabled)")
    || table.querySelector(".dt-hand button[data-kind='card']");
  if (button) button.click();
}"""


def seeded_shadow(lang: str) -> GameApp:
    """The same deal as the test notebook, the computer moving at once."""
    return GameApp(players=2, seed=24, language=lang, pace=0, level="newcomer")


def shadow_lines(shadow: GameApp) -> list[dict[str, Any]]:
    c = shadow.controller
    tr = c.i18n
    return list(log_lines(c.log, tr, players=c.names(tr), you=c.you, rules=c.game.rules))


def page_click(page: Page, click: Click) -> None:
    if click["type"] == "action":
        selector = f"button[data-kind='action'][data-id='{click['id']}']"
    else:
        selector = f"button[data-kind='card'][data-zone='{click['zone']}'][data-id='{click['id']}']"
    page.locator(f".durak-table {selector}").first.click()


def expect_log_like_shadow(page: Page, shadow: GameApp) -> None:
    lines = shadow_lines(shadow)
    entries = page.locator(LOG)
    expect(entries).to_have_count(len(lines), timeout=60_000)
    last = lines[-1]
    expect(entries.last.locator(".dl-text")).to_have_text(last["text"])
    if last["who"]:
        expect(entries.last.locator(".dl-who")).to_have_text(last["who"])
    expect(page.locator(TABLE)).not_to_have_class(re.compile(r"\bis-busy\b"))


def harmless_card(shadow: GameApp) -> Card | None:
    """A card of the learner's whose click the rules refuse in the shadow's position (so a
    click that comes too late for "wait" is a refusal, the same on both sides)."""
    c = shadow.controller
    for card in c.game.hand(c.you):
        if all(refusal is not None for _, refusal in c.game.card_actions(c.you, card)):
            return card
    return None


def test_a_whole_game_with_its_log_paced_moves_and_result(
    page: Page, browser_log: BrowserLog
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, SEEDED, "en", selector=".durak-table .dt-hand")
    shadow = seeded_shadow("en")
    c = shadow.controller
    expect_log_like_shadow(page, shadow)
    page.evaluate(RECORDER)
    rng = random.Random(0)
    waited = switched = False
    computer_moves = 0
    added_before_switch = 0
    for turn in range(200):
        if c.game.outcome is not None:
            break
        if turn == 8 and not switched:
            # another language mid-game: the whole log is worded again
            added_before_switch = page.evaluate("window.durakLog.batches.length")
            label = next(name for name, code in language_choices() if code == "ru")
            page.locator(".durak-language select").select_option(label=label)
            shadow.i18n.set_language("ru")
            expect(page.locator(LOG).first.locator(".dl-text")).to_have_text(
                shadow_lines(shadow)[0]["text"]
            )
            switched = True
        action = choose(observe(c.game, c.you), rng)
        before = len(c.log)
        for click in clicks_for(c, action):
            page_click(page, click)
            c.click(click)
        coming = len(c.log) - before - 1  # the computer's answers, one entry each
        computer_moves += coming
        card = harmless_card(shadow) if coming >= 2 and not waited else None
        if card is not None:
            click_card: Click = {"type": "card", "zone": "hand", "id": card.ascii()}
            page_click(page, click_card)  # while the computer is still moving
            page.wait_for_function(
                f"document.querySelectorAll({LOG!r}).length >= {len(c.log)}", timeout=60_000
            )
            expect(page.locator(TABLE)).not_to_have_class(re.compile(r"\bis-busy\b"))
            messages = page.evaluate("window.durakLog.messages")
            told = c.i18n.gettext("Wait: {player} is playing.", player=c.names(c.i18n)[1])
            waited = any(told in text for text in messages)
            if not waited:
                c.click(click_card)  # it came after the computer's moves: refused on both sides
        expect_log_like_shadow(page, shadow)
    outcome = c.game.outcome
    assert outcome is not None and switched and computer_moves >= 5
    # each move was its own change of the log: never a burst of moves at once
    batches: list[int] = page.evaluate("window.durakLog.batches")
    assert batches[:added_before_switch] == [1] * added_before_switch
    after_switch = batches[added_before_switch + 1 :]  # the switch redraws the list once
    assert after_switch and set(after_switch) == {1}
    assert waited, "a click while the computer moved was told to wait"

    # the result panel: who is the durak, and everybody's cards left
    tr = c.i18n
    result = result_view(outcome, c.game.hand_sizes, tr, players=c.names(tr), you=c.you)
    panel = page.locator(".durak-result")
    expect(panel.locator("h3")).to_have_text(result["title"])
    expect(panel.locator("tbody tr")).to_have_count(2)
    expect(page.locator(".durak-table button[data-kind='action']")).to_have_count(0)
    again = page.locator("button.durak-again")
    expect(again).to_have_text(tr.pgettext("button", "New game"))
    page.locator(".durak-result-box").scroll_into_view_if_needed()
    screenshot(page, "play-result-ru-1280", full_page=False)
    page.set_viewport_size({"width": 375, "height": 800})
    page.locator(".durak-result-box").scroll_into_view_if_needed()
    screenshot(page, "play-result-ru-375", full_page=False)
    page.locator(".durak-log").scroll_into_view_if_needed()
    screenshot(page, "play-log-ru-375", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 720})

    again.click()
    expect(panel).to_have_count(0)
    expect(page.locator(LOG).first).to_have_class(re.compile(r"\bkind-start\b"))
    expect(page.locator(".durak-table .dt-hand button")).to_have_count(6)
    browser_log.assert_clean()


@pytest.mark.parametrize("lang", ["es"])
def test_play_on_in_lesson_8_hides_the_hands_and_logs_the_moves(
    page: Page, browser_log: BrowserLog, lang: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, "08-transfer.ipynb", lang, selector=".durak-table .dt-hand")
    page.locator("button.durak-next").click()
    page.locator("button.durak-next").click()
    expect(page.locator(".dt-seat-cards").first).to_be_visible()  # the lesson shows them
    page.locator("button.durak-free").click()
    expect(page.locator(".durak-log")).to_be_visible()
    expect(page.locator(".dt-seat-cards")).to_have_count(0)  # a real game: hands hidden
    expect(page.locator(LOG).first).to_have_class(re.compile(r"\bkind-start\b"))
    # the computer's moves come into the log until the learner's turn
    expect(page.locator(TABLE)).not_to_have_class(re.compile(r"\bis-busy\b"), timeout=60_000)
    screenshot(page, f"lesson-8-play-on-{lang}", full_page=False)
    browser_log.assert_clean()


@pytest.mark.parametrize("lang", ["es", "en", "ru"])
def test_a_whole_game_against_the_computer_by_clicking(
    page: Page, browser_log: BrowserLog, lang: str
) -> None:
    """One computer opponent at the newcomer level (S1), the whole game by clicks, then the
    result and the review of the learner's costliest moves, in the page's language."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, QUICK, lang, selector=".durak-table .dt-hand")
    shadow = seeded_shadow(lang)
    c = shadow.controller
    tr = c.i18n
    options = page.locator(".durak-level select option")
    expect(options).to_have_text([level_name(level, tr) for level in PAGE_LEVELS])
    expect(page.locator(".durak-level select")).to_have_value(level_name("newcomer", tr))
    if lang == "es":
        screenshot(page, "play-options-es-1280", full_page=False)
        page.set_viewport_size({"width": 375, "height": 800})
        page.locator(".durak-options").scroll_into_view_if_needed()
        screenshot(page, "play-options-es-375", full_page=False)
        page.set_viewport_size({"width": 1280, "height": 720})
    rng = random.Random(1)
    for _ in range(300):
        expect_log_like_shadow(page, shadow)
        if c.game.outcome is not None:
            break
        action = choose(observe(c.game, c.you), rng)
        for click in clicks_for(c, action):
            page_click(page, click)
            c.click(click)
    outcome = c.game.outcome
    assert outcome is not None
    result = result_view(outcome, c.game.hand_sizes, tr, players=c.names(tr), you=c.you)
    expect(page.locator(".durak-result h3")).to_have_text(result["title"])
    worst = review(shadow.play.decisions)
    assert shadow.play.decisions
    expect(page.locator(".durak-review h4")).to_have_text(tr.gettext("Your costliest moves"))
    expect(page.locator(".durak-review li")).to_have_count(len(worst))
    page.locator(".durak-review").scroll_into_view_if_needed()
    screenshot(page, f"play-review-{lang}-1280", full_page=False)
    if lang == "ru":
        page.set_viewport_size({"width": 375, "height": 800})
        page.locator(".durak-review").scroll_into_view_if_needed()
        screenshot(page, "play-review-ru-375", full_page=False)
    browser_log.assert_clean()
