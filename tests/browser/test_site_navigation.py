"""Pages follow each other inside the tab, on one kernel (issue 16).

A link between the explainer's pages is followed in the page: the address becomes exactly the
one a direct load uses, the kernel builds the next page and swaps it in, the title, ``<html
lang>`` and the focus follow, and Back/Forward, reload and "open in a new tab" behave as on
any site. The kernel-side counts of widgets and comms, logged at every page change, return to
their baseline: nothing of an old page is left behind.
"""

from __future__ import annotations

import os
import re
import signal

import pytest
from playwright.sync_api import Browser, Page, expect

from tutorial.app import find_lesson
from tutorial.i18n import translator
from tutorial.loading_screen import loading_script
from tutorial.page import overlay_texts

from .harness import QUIET, BrowserLog, VoilaServer, http_request, open_notebook, screenshot
from .test_connection import NOTICE_MS

HEADING = ".durak-site h1"
#: The kernel's log line for every page change (tutorial.pages.Site).
COUNTS = re.compile(r"tab page (\d+): (\S+) \((\d+) widgets, (\d+) comms in this kernel\)")


def heading_text(lang: str, page: str) -> str:
    tr = translator(lang)
    if page == "index":
        return tr.gettext("Learn Durak")
    lesson = {
        "01-beating": "beating",
        "02-bout": "bout",
        "03-growing-round": "growing-round",
        "14-flash": "flash",
    }
    return tr.gettext(find_lesson(lesson[page]).title)


def shown(page: Page, name: str, lang: str, **query: str) -> None:
    """The page ``name`` is shown at its own address, focused on its heading, with no Voilà
    loading screen, and the tab's title and language are the page's."""
    params = "".join(f"&{key}={value}" for key, value in query.items())
    expect(page).to_have_url(re.compile(rf"/voila/render/{name}\.ipynb\?lang={lang}{params}$"))
    title = heading_text(lang, name)
    heading = page.locator(HEADING)
    expect(heading).to_have_text(title)
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport()  # the new page is shown from its top
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("html.durak-navigating")).to_have_count(0)
    expect(page.locator("#loading")).to_have_count(0)
    tab = translator(lang)
    expect(page).to_have_title(
        tab.gettext("Learn Durak")
        if name == "index"
        else tab.gettext("{page} — Learn Durak", page=title)
    )


def follow(page: Page, target: str) -> None:
    page.locator(f"a[data-durak-page='{target}']").first.click()


def one_kernel(log: BrowserLog) -> None:
    page_kernels = set(log.kernels)
    assert len(page_kernels) == 1, page_kernels


def test_links_back_and_forward_on_one_kernel(page: Page, browser_log: BrowserLog) -> None:
    open_notebook(page, "01-beating.ipynb", "es", selector=HEADING)
    shown_first = page.evaluate("performance.getEntriesByType('navigation').length")
    follow(page, "02-bout")
    shown(page, "02-bout", "es")
    follow(page, "index")
    shown(page, "index", "es")
    follow(page, "14-flash")  # far down the list: the click scrolls the page first
    shown(page, "14-flash", "es")
    page.go_back()
    shown(page, "index", "es")
    follow(page, "03-growing-round")
    shown(page, "03-growing-round", "es")
    screenshot(page, "navigation-lesson-3-es-1280", full_page=False)
    page.go_back()
    shown(page, "index", "es")
    page.go_back()
    shown(page, "02-bout", "es")
    page.go_back()
    shown(page, "01-beating", "es")
    page.go_forward()
    shown(page, "02-bout", "es")
    page.go_forward()
    shown(page, "index", "es")
    # no page was loaded again: one document, one kernel
    assert page.evaluate("performance.getEntriesByType('navigation').length") == shown_first
    one_kernel(browser_log)
    browser_log.assert_clean()


def test_reload_on_a_page_reached_by_a_link_opens_it_directly(
    page: Page, browser_log: BrowserLog
) -> None:
    """In presenter mode the address names the step shown (a teacher reloads or shares it)."""
    open_notebook(page, "02-bout.ipynb", "en", selector=HEADING, present="1")
    follow(page, "03-growing-round")
    shown(page, "03-growing-round", "en", present="1")
    page.locator("button.durak-next").click()
    address = re.compile(r"/03-growing-round\.ipynb\?lang=en&present=1&step=2$")
    expect(page).to_have_url(address)
    step_text = page.locator(".durak-step").text_content() or ""
    with page.expect_navigation(wait_until="commit"):
        page.reload(wait_until="commit")
    expect(page.locator(HEADING)).to_have_text(heading_text("en", "03-growing-round"))
    expect(page).to_have_url(address)
    expect(page.locator(".durak-step")).to_have_text(step_text)
    browser_log.assert_clean()


def test_a_modified_click_opens_a_new_tab_and_leaves_this_one(
    page: Page, browser_log: BrowserLog
) -> None:
    open_notebook(page, "01-beating.ipynb", "ru", selector=HEADING)
    link = page.locator("a[data-durak-page='02-bout']").first
    with page.context.expect_page() as opened:
        link.click(modifiers=["Control"])
    other = opened.value
    other.locator(HEADING).wait_for(state="visible", timeout=60_000)
    expect(other).to_have_url(re.compile(r"/voila/render/02-bout\.ipynb\?lang=ru$"))
    expect(other.locator(HEADING)).to_have_text(heading_text("ru", "02-bout"))
    # this tab did not move
    expect(page).to_have_url(re.compile(r"/voila/render/01-beating\.ipynb\?lang=ru$"))
    expect(page.locator(HEADING)).to_have_text(heading_text("ru", "01-beating"))
    other.close()
    browser_log.assert_clean()


def test_language_and_presenter_mode_carry_over(page: Page, browser_log: BrowserLog) -> None:
    open_notebook(page, "01-beating.ipynb", "ru", selector=HEADING, present="1")
    follow(page, "02-bout")
    shown(page, "02-bout", "ru", present="1")
    expect(page.locator(".durak-present")).to_have_count(1)
    page.locator(".durak-language select").select_option(label="English")
    expect(page).to_have_url(re.compile(r"02-bout\.ipynb\?lang=en&present=1$"))
    follow(page, "03-growing-round")
    shown(page, "03-growing-round", "en", present="1")
    expect(page.locator(".durak-present")).to_have_count(1)
    follow(page, "index")  # the index has no presenter mode; the language stays
    shown(page, "index", "en")
    browser_log.assert_clean()


def test_a_link_to_a_private_notebook_is_refused_by_the_kernel(
    page: Page, browser_log: BrowserLog, voila_server: VoilaServer
) -> None:
    """A link the page never draws (added by hand) to the pool's shell: the kernel refuses
    to build it and keeps its page; the browser then asks the server for that address, which
    answers its own "page not found"."""
    open_notebook(page, "index.ipynb", "en", selector=HEADING)
    page.evaluate(
        """() => {
        const link = document.createElement("a");
        link.dataset.durakPage = "_shell";
        link.id = "forged";
        link.textContent = "forged";
        document.querySelector(".durak-site").prepend(link);
    }"""
    )
    with page.expect_navigation(wait_until="commit"):
        page.locator("#forged").click()
    expect(page.locator("h1")).to_have_text(translator("en").gettext("Page not found"))
    expect(page).to_have_url(re.compile(r"/voila/render/_shell\.ipynb\?lang=en$"))
    assert "refused a page change to '_shell'" in voila_server.log_text()
    browser_log.assert_clean(ignore=[re.compile("404")])


def test_twenty_page_changes_leave_the_kernel_as_they_found_it(
    page: Page, browser_log: BrowserLog, voila_server: VoilaServer
) -> None:
    start = len(voila_server.log_text())
    open_notebook(page, "index.ipynb", "es", selector=HEADING)
    walk = ["sources", "index"]
    walk += ["01-beating", "index", "02-bout", "index", "03-growing-round", "index"] * 3
    for target in walk:
        follow(page, target)
        expect(page.locator("html.durak-navigating")).to_have_count(0)
        expect(page).to_have_url(re.compile(rf"/{target}\.ipynb\?lang=es$"))
    counts = []
    for _ in range(100):
        counts = COUNTS.findall(voila_server.log_text()[start:])
        if len(counts) == len(walk):
            break
        page.wait_for_timeout(100)
    assert [name for _, name, _, _ in counts] == walk
    # Once each kind of page was shown (the sources, a lesson), the kernel holds each
    # front-end file's model and the shared layouts and styles for its life: from then on the
    # counts of a page are the same at every visit.
    settled = counts[walk.index("01-beating") :]
    index_counts = {(int(w), int(c)) for _, name, w, c in settled if name == "index"}
    assert len(index_counts) == 1, index_counts  # the same on every visit: nothing piles up
    lesson_counts = {(int(w), int(c)) for _, name, w, c in counts if name == "01-beating"}
    assert len(lesson_counts) == 1, lesson_counts
    one_kernel(browser_log)
    browser_log.assert_clean()


def test_a_kernel_lost_after_page_changes_resumes_the_page_and_step(
    page: Page, browser_log: BrowserLog, voila_server: VoilaServer
) -> None:
    open_notebook(page, "index.ipynb", "ru", selector=HEADING)
    follow(page, "03-growing-round")
    shown(page, "03-growing-round", "ru")
    step = page.locator(".durak-step")
    first = step.text_content() or ""
    page.locator("button.durak-next").click()
    expect(step).not_to_have_text(first)
    step_text = step.text_content() or ""

    os.kill(voila_server.kernel_pid(browser_log.kernels[-1]), signal.SIGKILL)
    texts = overlay_texts(translator("ru"))
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible(timeout=NOTICE_MS)
    with page.expect_navigation(wait_until="commit", timeout=60_000):
        dialog.get_by_role("button", name=texts["button"]).click()
    page.locator(HEADING).wait_for(state="visible", timeout=60_000)
    expect(page.locator(HEADING)).to_have_text(heading_text("ru", "03-growing-round"))
    expect(page.locator(".durak-step")).to_have_text(step_text)  # resumed, not started afresh
    expect(page).to_have_url(re.compile(r"/03-growing-round\.ipynb\?lang=ru$"))
    browser_log.assert_clean()


def test_every_page_starts_with_the_localized_waiting_screen(voila_server: VoilaServer) -> None:
    """Voilà's own "Running … / Executing 1 of 1" is in English: every page the server sends
    starts its <head> with the script that puts the learner's language there (and the tab
    title), pooled or not."""
    for name in ("01-beating.ipynb", "index.ipynb"):
        status, _headers, html = http_request(voila_server, f"/voila/render/{name}?lang=ru")
        assert status == 200
        assert html.split("<head>", 1)[1].lstrip().startswith(loading_script()[:40])
        assert html.count(loading_script()) == 1


@pytest.mark.parametrize(
    ("query", "locale", "lang"),
    [
        ("?lang=ru", "en-US", "ru"),
        ("", "en-GB", "en"),
        ("", "de-DE", "es"),
        ("?lang=xx", "ru", "es"),
    ],
)
def test_the_waiting_screen_speaks_the_page_language(
    browser: Browser, voila_server: VoilaServer, query: str, locale: str, lang: str
) -> None:
    """Voilà's spinner markup and its update_loading_text, as the page has them, with the
    script in front: the line and the tab title are the learner's, whatever Voilà writes."""
    context = browser.new_context(locale=locale, **QUIET)
    try:
        page = context.new_page()
        page.route(
            "**/voila/render/02-bout.ipynb*",
            lambda route: route.fulfill(
                content_type="text/html",
                body=(
                    f"<!DOCTYPE html><html lang='en'><head>{loading_script()}"
                    "<title>Durak: attack and defence</title></head><body>"
                    "<div id='loading'><h2 id='loading_text'>Running Durak...</h2></div>"
                    "<script>window.update_loading_text = function (i, n) {"
                    "document.getElementById('loading_text').innerHTML = "
                    "`Executing ${i} of ${n}`; };"
                    "window.update_loading_text(1, 1);</script></body></html>"
                ),
            ),
        )
        page.goto(voila_server.url + "/voila/render/02-bout.ipynb" + query)
        tr = translator(lang)
        expect(page.locator("#loading_text")).to_have_text(tr.gettext("Opening the page…"))
        expect(page.locator("html")).to_have_attribute("lang", lang)
        title = tr.gettext(find_lesson("bout").title)
        expect(page).to_have_title(tr.gettext("{page} — Learn Durak", page=title))
    finally:
        context.close()
