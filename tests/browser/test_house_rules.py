"""The house-rules page on a phone, the sources page and its anchors, and "reset my stars" on the
index, in Chromium against real Voilà.

Sources: the house-rules page opens on S4's example 1 (Durak Live «Todos» against «Vecinos»);
the sources page describes S0–S4.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from durak_core import PRESETS
from tutorial.house_rules import load_scenarios
from tutorial.i18n import translator
from tutorial.names import preset_name

from .harness import BrowserLog, SiteTab, open_notebook, screenshot

PHONE = {"width": 375, "height": 800}
STORAGE_KEY = "durak-explainer:progress:v1"

# Every element of the page that shows text or takes input, with what the check needs: its box,
# whether its content is wider than the box, and whether it contains (or is) another.
_LAYOUT_JS = """
(selector) => {
  // the table's heading row on a phone: kept for screen readers, clipped to nothing on screen
  const hiddenForScreenReadersOnly = (el) => {
    for (let node = el; node; node = node.parentElement) {
      if (getComputedStyle(node).clip === "rect(0px, 0px, 0px, 0px)") return true;
    }
    return false;
  };
  const root = document.querySelector(selector);
  const parts = [...root.querySelectorAll(
    "label, select, input, button, p, a, th, td, h1, h2, li, .durak-house-side"
  )].filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden"
    && !hiddenForScreenReadersOnly(el));
  const boxes = parts.map((el) => {
    const r = el.getBoundingClientRect();
    return { el, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
  const name = (el) => el.tagName.toLowerCase()
    + (el.className ? "." + String(el.className).split(" ")[0] : "")
    + ":" + (el.textContent || el.value || "").trim().slice(0, 40);
  const outside = boxes.filter((b) => b.left < -0.5 || b.right > innerWidth + 0.5)
    .map((b) => name(b.el));
  const clipped = parts.filter((el) => !["INPUT", "SELECT"].includes(el.tagName)
    && el.scrollWidth > el.clientWidth + 1).map(name);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i], b = boxes[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) overlaps.push(name(a.el) + " / " + name(b.el));
    }
  }
  return { count: parts.length, outside, clipped, overlaps,
    scrollWidth: document.documentElement.scrollWidth };
}
"""


def test_house_rules_in_russian_fits_a_phone(tab: SiteTab) -> None:
    """375 px, Russian: nothing wider than the screen, no text cut off, nothing on top of
    anything else; preset names and players' names in Russian (S4's Ana → «Ана»)."""
    page, browser_log = tab.page, tab.log
    page.set_viewport_size(PHONE)
    tab.show("house-rules.ipynb", "ru", selector=".durak-house-table")
    ru = translator("ru")
    expect(page.locator(".durak-house-table")).to_contain_text("Ана ходит")
    expect(page.locator(".durak-house-table")).not_to_contain_text("Ana")
    options = page.locator(".durak-house-side select").first.locator("option")
    expect(options).to_have_count(len(PRESETS))
    # ipywidgets writes menu items with no-break spaces
    shown = [text.replace("\xa0", " ") for text in options.all_text_contents()]
    assert shown == [preset_name(p, ru) for p in PRESETS]
    for preset in PRESETS:
        expect(page.locator(".durak-house")).not_to_contain_text(preset)
    layout = page.evaluate(_LAYOUT_JS, ".durak-house")
    assert layout["count"] > 40
    assert layout["scrollWidth"] <= PHONE["width"]
    assert layout["outside"] == []
    assert layout["clipped"] == []
    assert layout["overlaps"] == []
    screenshot(page, "house-rules-ru-375")
    browser_log.assert_clean()


def test_changing_the_situation_shows_a_pair_that_differs(tab: SiteTab) -> None:
    """«Todos» and «Vecinos» (S4) agree on the sixth card: the page says so and switches to
    the classic rules against Durak Live «Todos», which part ways there (S4's five cards)."""
    page, browser_log = tab.page, tab.log
    tab.show("house-rules.ipynb", "es", selector=".durak-house-table")
    es = translator("es")
    ids = [scenario.id for scenario in load_scenarios()]
    page.locator(".durak-house-situation select").select_option(index=ids.index("sixth-card"))
    note = page.locator(".durak-note[role='status']")
    expect(note).to_contain_text(preset_name("durak_live_vecinos", es))
    sides = page.locator(".durak-house-side select")
    presets = list(PRESETS)
    expect(sides.nth(0)).to_have_js_property("selectedIndex", presets.index("classic"))
    expect(sides.nth(1)).to_have_js_property("selectedIndex", presets.index("durak_live_todos"))
    expect(page.locator(".durak-house-table tr.durak-diverge")).to_have_count(1)
    browser_log.assert_clean()


def test_a_source_link_opens_the_sources_page_at_that_source(tab: SiteTab) -> None:
    """The growing round is S4's example: its link leads to Durak Live on the sources page,
    which scrolls there once drawn."""
    page, browser_log = tab.page, tab.log
    page.set_viewport_size(PHONE)
    tab.show("house-rules.ipynb", "ru", selector=".durak-house-summary a")
    page.locator(".durak-house-summary a").click()
    expect(page).to_have_url(re.compile(r"/sources\.ipynb\?lang=ru#s4$"))
    section = page.locator("section#s4")
    expect(section).to_be_visible(timeout=30_000)
    expect(section.locator("h3")).to_have_text("S4 Durak Live")
    expect(section).to_be_in_viewport()
    expect(page.locator("section.durak-src-card")).to_have_count(5)
    layout = page.evaluate(_LAYOUT_JS, ".durak-sources")
    assert layout["scrollWidth"] <= PHONE["width"] and layout["outside"] == []
    screenshot(page, "sources-ru-375-s4")
    browser_log.assert_clean()


def test_the_sources_page_opens_from_the_index(tab: SiteTab) -> None:
    page, browser_log = tab.page, tab.log
    tab.show("index.ipynb", "es", selector=".durak-index-item")
    es = translator("es")
    page.locator(".durak-index-extra", has_text=es.gettext("Where the rules come from")).click()
    expect(page).to_have_url(re.compile(r"/sources\.ipynb\?lang=es$"))
    expect(page.locator(".durak-title h1")).to_have_text(es.gettext("Where the rules come from"))
    for code, name in (("s0", "wikiHow"), ("s2", "Wikipedia"), ("s3", "Dáme Karty")):
        expect(page.locator(f"section#{code} h3")).to_contain_text(name)
    screenshot(page, "sources-es-1280")
    browser_log.assert_clean()


def test_reset_my_stars_asks_first(page: Page, browser_log: BrowserLog) -> None:
    """One click only asks; "keep" keeps; Escape keeps; "yes" deletes, and a reload shows no
    stars and no reset button."""
    es = translator("es")
    open_notebook(page, "index.ipynb", "es", selector=".durak-index-item")
    stored = '{"beating": {"stars": 3}, "bout": {"stars": 2}}'
    page.evaluate(f"localStorage.setItem('{STORAGE_KEY}', '{stored}')")
    open_notebook(page, "index.ipynb", "es", selector=".durak-index-item")
    on = page.locator(".durak-index-stars .on")
    expect(on).to_have_count(5)
    reset = page.locator(".durak-index-reset-open")
    keep = page.locator(".durak-index-reset-keep")
    yes = page.locator(".durak-index-reset-yes")

    reset.click()
    expect(page.locator(".durak-index-reset-ask")).to_contain_text(
        es.gettext(
            "Delete the stars of every lesson? They are kept only in this browser, "
            "so this cannot be undone."
        )
    )
    expect(keep).to_be_focused()  # the safe answer takes the click's place
    keep.click()
    expect(on).to_have_count(5)
    expect(reset).to_be_focused()
    assert page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')") == stored

    reset.click()
    page.keyboard.press("Escape")
    expect(yes).to_have_count(0)
    expect(on).to_have_count(5)

    reset.click()
    yes.click()
    status = page.locator(".durak-index-reset-status[role='status']")
    expect(status).to_have_text(es.gettext("Your stars were deleted. Every lesson starts afresh."))
    expect(on).to_have_count(0)
    expect(reset).to_have_count(0)
    assert page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')") is None

    open_notebook(page, "index.ipynb", "es", selector=".durak-index-item")
    expect(page.locator(".durak-index-stars .off").first).to_be_visible()
    expect(on).to_have_count(0)
    expect(reset).to_have_count(0)
    browser_log.assert_clean()
