"""The language handshake against the real server: the page's JavaScript tells the kernel the
language (``?lang=``, else the browser's), the page waits for it, and ``<html lang>``, the tab
title and the URL follow the page's language."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tutorial.app import find_lesson
from tutorial.i18n import translator

from .harness import BrowserLog, VoilaServer, close_context, new_context, open_notebook, screenshot

HAND = ".durak-table .dt-hand"


def tab_title(lang: str, page_title: str) -> str:
    return translator(lang).gettext("{page} — Learn Durak", page=page_title)


def test_lang_ru_gives_a_russian_page(page: Page, browser_log: BrowserLog) -> None:
    open_notebook(page, "03-growing-round.ipynb", "ru", selector=HAND)
    ru = translator("ru")
    title = ru.gettext(find_lesson("growing-round").title)
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page).to_have_title(tab_title("ru", title))
    expect(page.locator(".durak-title h1")).to_have_text(title)
    expect(page.locator(".durak-loading")).to_be_hidden()
    assert page.evaluate("location.search") == "?lang=ru"
    browser_log.assert_clean()


def test_without_lang_the_browser_language_decides(
    browser: Browser, voila_server: VoilaServer
) -> None:
    context, log = new_context(browser, voila_server.url, locale="en-US")
    try:
        page = context.new_page()
        open_notebook(page, "index.ipynb", selector=".durak-index-item")
        en = translator("en")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page).to_have_title(en.gettext("Learn Durak"))
        expect(page.locator(".durak-title h1")).to_have_text(en.gettext("Learn Durak"))
        expect(page).to_have_url(re.compile(r"/index\.ipynb\?lang=en$"))
        # The index links carry the language, to .ipynb pages on Voilà.
        expect(page.locator("a.durak-index-link").first).to_have_attribute(
            "href", "01-beating.ipynb?lang=en"
        )
        log.assert_clean()
    finally:
        close_context(context, log, voila_server)


def test_unknown_language_falls_back_visibly_and_the_menu_sets_the_url(
    page: Page, browser_log: BrowserLog
) -> None:
    open_notebook(page, "01-beating.ipynb", "xx", selector=HAND)
    es, en = translator("es"), translator("en")
    title = find_lesson("beating").title
    menu = page.locator(".durak-language select")
    expect(menu.locator("option:checked")).to_have_text("Español")
    note = page.locator(".durak-note")
    expect(note).to_contain_text("«xx»")
    expect(note).to_contain_text(es.language_name("es"))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page).to_have_title(tab_title("es", es.gettext(title)))
    expect(page).to_have_url(re.compile(r"\?lang=es$"))
    screenshot(page, "handshake-unknown-language", full_page=False)

    menu.select_option(label="English")
    expect(page).to_have_url(re.compile(r"\?lang=en$"))
    expect(page).to_have_title(tab_title("en", en.gettext(title)))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(note).to_be_hidden()

    page.reload(wait_until="commit")
    page.locator(HAND).wait_for(state="visible")
    expect(page.locator(".durak-title h1")).to_have_text(en.gettext(title))
    expect(menu.locator("option:checked")).to_have_text("English")
    expect(page).to_have_title(tab_title("en", en.gettext(title)))
    browser_log.assert_clean()
