"""The test notebook ``tests/data/notebooks/smoke.ipynb`` in a real browser: the page language
comes from ``?lang=``, a click goes to the kernel and back, and nothing errors."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .harness import CELL_ERROR, BrowserLog, open_notebook, screenshot

#: lang -> (the language's name in itself, from Babel; the button label in the notebook)
EXPECTED = {
    "es": ("español", "Pulsa aquí"),
    "en": ("English", "Click here"),
    "ru": ("русский", "Нажмите здесь"),
}


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_language_and_click_round_trip(page: Page, browser_log: BrowserLog, lang: str) -> None:
    name, label = EXPECTED[lang]
    button = open_notebook(page, "smoke.ipynb", lang, selector=".smoke-button")
    status = page.locator(".smoke-status")

    expect(button).to_have_text(label)
    expect(status.locator(".smoke-language")).to_have_text(name)
    expect(status.locator(".smoke-language")).to_have_attribute("lang", lang)
    expect(status.locator(".smoke-clicks")).to_have_text("0")

    for clicks in ("1", "2"):
        button.click()
        expect(status.locator(".smoke-clicks")).to_have_text(clicks)

    assert CELL_ERROR not in page.content()
    screenshot(page, f"smoke-{lang}")
    browser_log.assert_clean()


def test_default_language_is_spanish(page: Page, browser_log: BrowserLog) -> None:
    open_notebook(page, "smoke.ipynb", selector=".smoke-button")
    expect(page.locator(".smoke-language")).to_have_attribute("lang", "es")
    browser_log.assert_clean()


def test_two_visitors_get_separate_kernels(context: BrowserContext, page: Page) -> None:
    """One kernel per page: clicks on one page do not show on another."""
    first = open_notebook(page, "smoke.ipynb", "en", selector=".smoke-button")
    other = context.new_page()
    open_notebook(other, "smoke.ipynb", "ru", selector=".smoke-button")
    first.click()
    expect(page.locator(".smoke-clicks")).to_have_text("1")
    expect(other.locator(".smoke-clicks")).to_have_text("0")
    other.close()
