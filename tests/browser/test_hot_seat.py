"""Hot-seat in Chromium against real Voilà (S1: friends around one device): three people play
a whole game; between turns a cover hides every hand, and after the tap only the acting
player's hand is in the page. Checked in the DOM (every card id and every card's short name
in the page's text), not in pixels, at every cover and every turn.

``tests/data/notebooks/play-hotseat.ipynb`` deals a fixed game (three players, seed 3, the
second one named Zoé); a shadow page in the test process plays the same moves.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from durak_core import Card, Game, observe
from tests.lesson_clicks import clicks_for
from tutorial.game_page import GameApp
from tutorial.names import card_short
from tutorial.opponent import choose

from .harness import BrowserLog, open_notebook, screenshot
from .test_accessibility import axe_failures, axe_js, describe, settle
from .test_game_page import page_click

__all__ = ["axe_js"]  # the fixture, shared with test_accessibility.py

NOTEBOOK = "play-hotseat.ipynb"
#: Every card id in the page and the page's text (names like "9♠" included).
PAGE_CARDS = """() => ({
  ids: [...document.querySelectorAll("[data-id]")].map((e) => e.dataset.id),
  text: document.body.innerText,
})"""


def shadow_page() -> GameApp:
    return GameApp(players=3, seed=3, pace=0, hot_seat=True, names=["", "Zoé", ""], language="en")


def public(game: Game) -> set[Card]:
    """Cards everybody saw go into a hand (a take)."""
    seen: set[Card] = set()
    for seat in range(game.players):
        seen.update(observe(game, (seat + 1) % game.players).known[seat])
    return seen


def assert_no_hand_but(page: Page, shadow: GameApp, shown: int | None) -> None:
    """No card of a hand other than ``shown``'s (None: no hand at all) is in the page."""
    c = shadow.play
    game = c.game
    hidden = {
        card for seat, hand in enumerate(game.state.hands) if seat != shown for card in hand
    } - public(game)
    if shown is not None:
        hidden -= set(game.state.hands[shown])
    found = page.evaluate(PAGE_CARDS)
    leaked = {card for card in hidden if card.ascii() in found["ids"]}
    tr = c.i18n
    leaked |= {card for card in hidden if card_short(card, tr) in found["text"]}
    assert not leaked, (shown, sorted(map(str, leaked)))


def test_a_hot_seat_game_never_shows_a_hand_to_the_wrong_player(
    page: Page, browser_log: BrowserLog
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, NOTEBOOK, "en", selector=".durak-cover-ready")
    shadow = shadow_page()
    c = shadow.play
    tr = c.i18n
    names = c.names(tr)
    assert names == ["Ana", "Zoé", "Diana"]
    covers = moves = 0
    hand = page.locator(".durak-table .dt-hand button[data-kind='card']")
    while c.game.outcome is None:
        if c.covered:
            title = tr.gettext("Pass the device to {player}", player=names[c.you])
            expect(page.locator(".durak-hot-seat-cover .durak-cover-title")).to_have_text(title)
            expect(hand).to_have_count(0)
            expect(page.locator(".dt-seat-cards")).to_have_count(0)
            assert_no_hand_but(page, shadow, None)
            if covers in (0, 1):
                screenshot(page, f"hot-seat-cover-{covers}-1280", full_page=False)
            if covers == 2:
                page.set_viewport_size({"width": 375, "height": 800})
                screenshot(page, "hot-seat-cover-375", full_page=False)
                page.set_viewport_size({"width": 1280, "height": 720})
            page.locator(".durak-cover-ready").click()
            c.uncover()
            covers += 1
            expect(page.locator(".durak-hot-seat-cover")).to_be_hidden()
            expect(hand).to_have_count(len(c.game.state.hands[c.you]))
            assert_no_hand_but(page, shadow, c.you)
            if covers == 1:
                screenshot(page, "hot-seat-turn-1280", full_page=False)
                page.set_viewport_size({"width": 375, "height": 800})
                screenshot(page, "hot-seat-turn-375", full_page=True)
                page.set_viewport_size({"width": 1280, "height": 720})
            continue
        action = choose(observe(c.game, c.you), random.Random(moves))
        for click in clicks_for(c, action):
            page_click(page, click)
            c.click(click)
        moves += 1
        assert moves < 400
    assert covers > 20
    outcome = c.game.outcome
    assert outcome is not None and outcome.durak is not None
    result = page.locator(".durak-result h3")
    expect(result).to_have_text(tr.gettext("{player} is the durak.", player=names[outcome.durak]))
    expect(page.locator(".durak-review")).to_have_count(0)  # no single learner: no review
    screenshot(page, "hot-seat-result-1280", full_page=False)
    browser_log.assert_clean()


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_cover_and_the_hot_seat_options_are_accessible(
    page: Page, axe_js: Path, lang: str
) -> None:
    """axe (WCAG 2.1 A/AA) on the cover, and on the first player's turn with the names."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, NOTEBOOK, lang, selector=".durak-cover-ready")
    settle(page)
    failures = axe_failures(page, axe_js)
    assert not failures, describe(f"cover {lang}", failures)
    page.locator(".durak-cover-ready").click()
    expect(page.locator(".durak-hot-seat-cover")).to_be_hidden()
    settle(page)
    failures = axe_failures(page, axe_js)
    assert not failures, describe(f"turn {lang}", failures)
