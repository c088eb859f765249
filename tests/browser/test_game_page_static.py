"""The play page on the static site (Voici: Python runs in the browser, on the browser's own
event loop): the computer's moves still come one at a time. The site and its offline Chromium
are test_static_site.py's fixtures (built when stale, every other host unreachable)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from playwright.sync_api import expect

from .test_game_page import CLICK_SOMETHING, LOG, RECORDER, TABLE
from .test_static_site import (
    COLD_PAGE_MS,
    NO_SERVICE_WORKER_ERROR,
    Traffic,
    offline,
    static_site_url,
)
from .test_static_site import PAGES as STATIC_PAGES

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

__all__ = ["offline", "static_site_url"]  # the static site's fixtures, used here too


def test_the_static_site_paces_the_computer_too(
    offline: tuple[BrowserContext, Traffic],
) -> None:
    """In Voici the kernel is Pyodide in the browser and its event loop is the browser's: the
    computer's moves still come one at a time, each its own change of the log. (The page's
    handshake and drawing are test_static_site.py's: here only the DOM is read.)"""
    context, traffic = offline
    page = context.new_page()
    page.goto(f"{STATIC_PAGES}play.html?lang=en", wait_until="commit", timeout=COLD_PAGE_MS)
    page.locator(".durak-log .dl-list").first.wait_for(state="attached", timeout=COLD_PAGE_MS)
    page.evaluate(RECORDER)
    computer = page.locator(f"{LOG}.kind-move:not(.is-you)")
    for _ in range(30):
        if computer.count() >= 3 or page.locator(".durak-result").count():
            break
        # Take, Done, or a card: whatever the learner may click (an answer of the kernel each)
        page.evaluate(CLICK_SOMETHING)
        expect(page.locator(TABLE)).not_to_have_class(
            re.compile(r"\bis-busy\b"), timeout=COLD_PAGE_MS
        )
    batches: list[int] = page.evaluate("window.durakLog.batches")
    assert computer.count() >= 3
    assert batches and set(batches) == {1}, batches
    page.close()
    errors = [e for e in traffic.errors if e != NO_SERVICE_WORKER_ERROR]
    assert not errors, "\n".join(errors)
    assert not traffic.outside()
