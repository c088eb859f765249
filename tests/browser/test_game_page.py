"""The play page in Chromium against real Voilà: a whole game with its move log, the
computer's moves arriving one at a time, a click meanwhile told to wait, a language switch,
the result panel and "New game"; a whole game by clicking with the review of the learner's
costliest moves, read in es, en and ru; "Play on from here" in a lesson; and the house rules and
matches of the options (two against two, with its team dots, in a match to three losses).

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
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n, language_choices
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


def button_selector(click: Click) -> str:
    if click["type"] == "action":
        return f"button[data-kind='action'][data-id='{click['id']}']"
    return f"button[data-kind='card'][data-zone='{click['zone']}'][data-id='{click['id']}']"


def page_click(page: Page, click: Click) -> None:
    page.locator(f".durak-table {button_selector(click)}").first.click()


def expect_log_like_shadow(page: Page, shadow: GameApp) -> None:
    lines = shadow_lines(shadow)
    entries = page.locator(LOG)
    expect(entries).to_have_count(len(lines), timeout=60_000)
    last = lines[-1]
    # the name that starts the sentence is its chip (N21): the entry reads as the sentence
    expect(entries.last).to_contain_text(last["text"])
    if last["who"] and last["text"].startswith(last["who"] + " ") and not last["label"]:
        expect(entries.last.locator(".dl-text")).to_have_text(last["text"][len(last["who"]) + 1 :])
    if last["who"]:
        expect(entries.last.locator(".dl-who")).to_have_text(last["who"])
    expect(page.locator(TABLE)).not_to_have_class(re.compile(r"\bis-busy\b"))


def harmless_card(shadow: GameApp, among: set[Card]) -> Card | None:
    """A card of ``among`` (still in the learner's hand on the page), preferably one whose
    click the rules refuse in the shadow's position: a click that came too late for "wait"
    then does the same on both sides."""
    c = shadow.controller
    kept = [card for card in c.game.hand(c.you) if card in among]
    for card in kept:
        if all(r is not None for _, r in c.game.card_actions(c.you, card)):
            return card
    return kept[0] if kept else None  # a late click is then a move on both sides


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
            expect(page.locator(LOG).first).to_contain_text(shadow_lines(shadow)[0]["text"])
            switched = True
        action = choose(observe(c.game, c.you), rng)
        before = len(c.log)
        clicks = list(clicks_for(c, action))
        # cards on the page while the computer answers: the hand, less the card played
        kept = set(c.game.hand(c.you)) - {action.card}
        for click in clicks:  # the shadow first: it tells what the page will answer
            c.click(click)
        coming = len(c.log) - before - 1  # the computer's answers, one entry each
        computer_moves += coming
        card = harmless_card(shadow, kept) if coming >= 2 and not waited else None
        for click in clicks[:-1]:
            page_click(page, click)
        if card is None:
            page_click(page, clicks[-1])
        else:
            # The move and a card click in one browser task: the kernel takes them in order,
            # so the second arrives while the computer's answers are still paced, however
            # slow this machine is (a separate click could come after them under load).
            click_card: Click = {"type": "card", "zone": "hand", "id": card.ascii()}
            both = [f".durak-table {button_selector(x)}" for x in (clicks[-1], click_card)]
            for selector in both:  # drawn (after the clicks before) and enabled
                expect(page.locator(selector).first).to_be_enabled()
            page.evaluate(
                "(selectors) => selectors.forEach((s) => document.querySelector(s).click())", both
            )
            page.wait_for_function(
                f"document.querySelectorAll({LOG!r}).length >= {len(c.log)}", timeout=60_000
            )
            expect(page.locator(TABLE)).not_to_have_class(re.compile(r"\bis-busy\b"))
            messages = page.evaluate("window.durakLog.messages")
            told = c.i18n.gettext("Wait: {player} is playing.", player=c.names(c.i18n)[1])
            waited = any(told in text for text in messages)
            if not waited:
                c.click(click_card)  # it came after the computer's moves: the same on both sides
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


@pytest.mark.review  # the shadow page in this process scores the learner too
def test_a_whole_game_against_the_computer_by_clicking(page: Page, browser_log: BrowserLog) -> None:
    """One computer opponent at the newcomer level (S1), the whole game by clicks, then the
    result and the review of the learner's costliest moves, in the page's language and in
    the others chosen in its menu. (The same deal and the same clicks give the same game and
    the same review in every language: one game, read in three, instead of three games.)"""
    lang = SUPPORTED_LANGUAGES[0]
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, QUICK, lang, selector=".durak-table .dt-hand")
    shadow = seeded_shadow(lang)
    c = shadow.controller
    tr = c.i18n
    options = page.locator(".durak-level select option")
    expect(options).to_have_text([level_name(level, tr) for level in PAGE_LEVELS])
    expect(page.locator(".durak-level select")).to_have_value(level_name("newcomer", tr))
    screenshot(page, f"play-options-{lang}-1280", full_page=False)
    page.set_viewport_size({"width": 375, "height": 800})
    page.locator(".durak-options").scroll_into_view_if_needed()
    screenshot(page, f"play-options-{lang}-375", full_page=False)
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
    worst = review(shadow.play.decisions)
    assert shadow.play.decisions
    for lang in SUPPORTED_LANGUAGES:
        if lang != SUPPORTED_LANGUAGES[0]:
            label = next(name for name, code in language_choices() if code == lang)
            page.locator(".durak-language select").select_option(label=label)
            c.i18n.set_language(lang)
        tr = c.i18n
        result = result_view(outcome, c.game.hand_sizes, tr, players=c.names(tr), you=c.you)
        expect(page.locator(".durak-result h3")).to_have_text(result["title"])
        expect(page.locator(".durak-review h4")).to_have_text(tr.gettext("Your costliest moves"))
        expect(page.locator(".durak-review li")).to_have_count(len(worst))
        page.locator(".durak-review").scroll_into_view_if_needed()
        screenshot(page, f"play-review-{lang}-1280", full_page=False)
        if lang == "ru":
            page.set_viewport_size({"width": 375, "height": 800})
            page.locator(".durak-review").scroll_into_view_if_needed()
            screenshot(page, "play-review-ru-375", full_page=False)
            page.set_viewport_size({"width": 1280, "height": 720})
    browser_log.assert_clean()


def test_teams_and_a_match_switched_on_in_the_options(page: Page, browser_log: BrowserLog) -> None:
    """S0, S2: two against two (you and Bruno, opposite, against Ana and Diana: the table's
    team dots), in a match to three losses (S0): the game's result names the losing team,
    and the standings and "Next game" follow it."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, QUICK, "en", selector=".durak-table .dt-hand")
    tr = I18n("en")
    teams = page.locator(".durak-house-teams input[type='checkbox']")
    expect(teams).not_to_be_checked()
    expect(page.locator(".durak-house-about-teams")).to_contain_text("wikiHow")
    teams.check()
    players = page.locator(".durak-players select option")
    expect(players).to_have_text([tr.gettext("A computer partner and two computer opponents")])
    expect(page.locator(".durak-partner")).to_contain_text("Bruno")
    page.locator(".durak-match select").select_option(label="To three losses")
    expect(page.locator(".durak-match-about")).to_contain_text("wikiHow")
    page.locator(".durak-house-rules").scroll_into_view_if_needed()
    screenshot(page, "play-house-rules-en-1280", full_page=False)
    page.locator("button.durak-deal").click()
    # four seats in two teams: the learner and Bruno in one, Ana and Diana in the other
    expect(page.locator(".durak-table .dt-team")).to_have_count(4, timeout=60_000)
    expect(page.locator(".durak-table .dt-team.team-0")).to_have_count(2)
    expect(page.locator(".durak-table .dt-team.team-1")).to_have_count(2)
    screenshot(page, "play-teams-en-1280", full_page=False)
    # play on: take, else done, else the first card (always a legal move in these rules)
    result = page.locator(".durak-result")
    for _ in range(400):
        if result.count():
            break
        expect(page.locator(TABLE)).not_to_have_class(re.compile(r"\bis-busy\b"), timeout=60_000)
        count = page.locator(LOG).count()
        page.evaluate(CLICK_SOMETHING)
        page.wait_for_function(
            f"document.querySelectorAll({LOG!r}).length > {count} "
            "|| document.querySelector('.durak-result') !== null",
            timeout=60_000,
        )
    expect(result.locator("h3")).to_have_text(
        re.compile(
            r"^(Your team loses this time\.|Ana and Diana lose as a team\."
            r"|A draw: nobody is the durak\.)$"
        )
    )
    standings = page.locator(".durak-standings")
    expect(standings.locator("h4")).to_have_text("To three losses: standings after game 1")
    expect(standings.locator("tbody th")).to_have_text(["You and Bruno", "Ana and Diana"])
    expect(page.locator("button.durak-again")).to_have_text("Next game")
    page.locator(".durak-result-box").scroll_into_view_if_needed()
    screenshot(page, "play-teams-standings-en-1280", full_page=False)
    page.locator("button.durak-again").click()
    expect(result).to_have_count(0)
    expect(page.locator(".durak-table .dt-team")).to_have_count(4)
    browser_log.assert_clean()
