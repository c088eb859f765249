"""The offline static site (``script/build-static``: Voici + Pyodide) in real Chromium.

The site is built when missing or stale (``script/build-static --if-stale``; from a fresh clone
that downloads from PyPI and npm), served from ``build/static/`` by a plain static file server on
127.0.0.1, and opened in Chromium whose resolver maps every other host to nothing: every request
the pages make is recorded, and none may leave 127.0.0.1. The kernel runs in the browser, so a
cold page takes seconds of CPU (Pyodide boots, loads the wheels, runs the notebook): the waits
are long, and one browser context is reused so the HTTP cache serves the files after the first
page. Lesson 1 is walked (a refused card with its Spanish explanation, a correct move, the
language menu to Russian); every page is drawn in Russian, reached from the index (opened
through the site's root) by its link inside the tab, and one page is opened through a name
for 127.0.0.1 that makes it an insecure context (no service worker), as a classroom laptop
serving the site over plain http:// on its LAN address would. Every page's file is checked to
differ from the others only in its notebook's name, title and cell id, so these few cold
loads stand for all of them.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from static_site.config import SITE
from static_site.serve import serving
from tests.lesson_clicks import expected_action
from tutorial.app import find_lesson
from tutorial.i18n import translator
from tutorial.index_page import notebook_name
from tutorial.lessons import load_lessons

from .harness import CHROMIUM, CHROMIUM_ARGS, QUIET, REPO, chromium_missing_reason, screenshot
from .test_game_page import CLICK_SOMETHING, LOG, RECORDER, TABLE
from .test_lessons import Walker

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request

BUILD_SCRIPT = REPO / "script" / "build-static"
#: Where Voici puts the pages (``<notebook stem>.html``).
PAGES = "/voici/render/"
#: A name for 127.0.0.1 that is not "localhost": pages opened through it are an insecure
#: context, as on a laptop serving a classroom over plain http:// on its LAN address.
LAN_NAME = "lan.durak.test"
#: Chromium resolves no host but 127.0.0.1 (and LAN_NAME, to it): anything else fails.
OFFLINE_ARGS = (
    *CHROMIUM_ARGS,
    f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1 , MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
)
#: A cold page boots Pyodide, loads the wheels and runs the notebook, all in the browser.
COLD_PAGE_MS = 120_000
HAND = ".durak-table .dt-hand"
#: The kernel's line at every page change (tutorial.pages.Site), in the browser's console.
COUNTS = re.compile(r"tab page (\d+): (\S+) \((\d+) widgets, (\d+) comms in this kernel\)")
#: What shows that each kind of page has drawn its content.
DRAWN = {
    "index": ".durak-index-item",
    "house-rules": ".durak-title h1",
    "play": HAND,
    "sources": ".durak-src-card",
}


@pytest.fixture(scope="session")
def static_site_url() -> Iterator[str]:
    """Build the site if needed, serve it on a free port of 127.0.0.1; yields the base URL."""
    reason = chromium_missing_reason()
    if reason:
        pytest.skip(reason)
    started = time.monotonic()
    # Every static-site test lives in this file, so with pytest -n --dist loadfile a single
    # worker builds and serves the site.
    result = subprocess.run(
        [str(BUILD_SCRIPT), "--if-stale"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert result.returncode == 0, (
        f"script/build-static failed (exit {result.returncode}):\n"
        + (result.stdout + result.stderr)[-6000:]
    )
    print(f"script/build-static --if-stale: {time.monotonic() - started:.1f} s")
    with serving(SITE) as url:
        yield url


@dataclass
class Traffic:
    """Every request the context's pages, workers and service worker made, and the errors."""

    urls: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def on_request(self, request: Request) -> None:
        self.urls.append(request.url)

    def watch(self, page: Page) -> None:
        page.on("console", self.on_console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console.error: {message.text}")

    def outside(self) -> list[str]:
        """Requests to any host but 127.0.0.1 and its alias :data:`LAN_NAME`
        (``data:``/``blob:`` URLs have none)."""
        return [
            url
            for url in self.urls
            if urlsplit(url).scheme in ("http", "https", "ws", "wss")
            and urlsplit(url).hostname not in ("127.0.0.1", LAN_NAME)
        ]


@pytest.fixture(scope="module")
def offline(static_site_url: str) -> Iterator[tuple[BrowserContext, Traffic]]:
    """One Chromium context for the module (its HTTP cache serves later pages), with every host
    but 127.0.0.1 unresolvable, and the record of its traffic."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(OFFLINE_ARGS))
        context = browser.new_context(
            base_url=static_site_url,
            viewport={"width": 1280, "height": 800},
            locale="es-ES",
            **QUIET,
        )
        traffic = Traffic()
        context.on("request", traffic.on_request)
        context.on("page", traffic.watch)
        try:
            yield context, traffic
        finally:
            with contextlib.suppress(Exception):
                context.close()
            browser.close()


def open_page(page: Page, path: str, selector: str) -> float:
    """Go to ``path`` and wait until ``selector`` is visible; returns the seconds it took."""
    started = time.monotonic()
    page.goto(path, wait_until="commit", timeout=COLD_PAGE_MS)
    page.locator(selector).first.wait_for(state="visible", timeout=COLD_PAGE_MS)
    return time.monotonic() - started


def test_lesson_one_refuses_explains_plays_and_switches_language(
    offline: tuple[BrowserContext, Traffic],
) -> None:
    context, traffic = offline
    page = context.new_page()
    page.set_default_timeout(30_000)
    lesson = find_lesson("beating")
    stem = Path(notebook_name(lesson)).stem
    seconds = open_page(page, f"{PAGES}{stem}.html?lang=es", HAND)
    print(f"{stem}: first table after {seconds:.1f} s (cold)")

    walker = Walker(page, lesson, "es")
    walker.expect_same()
    es = translator("es")
    refused = played = False
    while not played:
        step = walker.shadow.step
        assert step is not None, "lesson 1 ended before a move with a listed wrong answer"
        if step.kind == "move":
            hand = walker.shadow.game.hand(walker.shadow.you)
            wrong = [w for w in step.wrong if w.play.card is not None and w.play.card in hand]
            if wrong and not refused:
                walker.play(wrong[0].play)  # refused: the kernel explains, in Spanish
                expect(page.locator(".dt-message")).to_contain_text(es.gettext(wrong[0].explain))
                screenshot(page, "static-lesson-01-es-refused", full_page=False)
                refused = True
            walker.play(expected_action(walker.shadow, step))  # the page agrees at each click
            played = refused
        elif step.kind == "question":
            walker.choose(next(i for i, c in enumerate(step.choices) if c.correct))
        walker.next()

    walker.switch_language("ru")  # the menu: every text of the page in Russian
    ru = translator("ru")
    expect(page.locator(".durak-title h1")).to_have_text(ru.gettext(lesson.title))
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert re.search(r"[?&]lang=ru\b", page.evaluate("location.search"))
    screenshot(page, "static-lesson-01-ru", full_page=False)
    page.close()
    # The record holds the kernel's own requests too (Pyodide runs in a worker): the wheels.
    assert any(url.endswith(".whl") for url in traffic.urls), traffic.urls
    assert not traffic.errors, "\n".join(traffic.errors)
    assert not traffic.outside(), f"requests left 127.0.0.1: {traffic.outside()}"


#: What makes one page's ``.html`` file differ from another's: the notebook it runs
#: (``site("<stem>")``, its path), its title and its cell's id.
PAGE_SPECIFIC = (
    (re.compile(r'site\(\\"[^"\\]+\\"\)'), 'site(\\"<page>\\")'),
    (re.compile(r'"notebookPath": "[^"]+"'), '"notebookPath": "<page>"'),
    (re.compile(r"<title>[^<]*</title>"), "<title></title>"),
    (re.compile(r'"title": "[^"]*"'), '"title": "<title>"'),
    (re.compile(r'("id": "|cell-id=)[0-9a-f]+'), r"\1<id>"),
)


def page_template(html: str) -> str:
    """A page's file with what is its own (:data:`PAGE_SPECIFIC`) taken out."""
    for pattern, placeholder in PAGE_SPECIFIC:
        html = pattern.sub(placeholder, html)
    return html


def test_every_page_draws_offline_in_russian(
    offline: tuple[BrowserContext, Traffic], static_site_url: str
) -> None:
    """Every page's file is the same but for its notebook's name, title and cell id (read
    here), so the two files opened cold below (the site's root, and a lesson through the LAN
    name) stand for the boot of every page; every page is then drawn in Russian in the tab's
    own Pyodide, reached by its link on the index (and Back to the index) as a learner does."""
    context, traffic = offline
    page = context.new_page()
    page.set_default_timeout(30_000)
    ru = translator("ru")
    lessons = load_lessons()
    stems = sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb") if p.name[0] != "_")
    files = {
        p.stem: p.read_text(encoding="utf-8") for p in (SITE / PAGES.strip("/")).glob("*.html")
    }
    assert sorted(files) == stems
    template = page_template(files["index"])
    for stem, html in files.items():
        assert f'site(\\"{stem}\\")' in html, f"{stem}.html does not run its own page"
        assert page_template(html) == template, f"{stem}.html differs from index.html"
    times: dict[str, float] = {}

    # The site's root opens the index, keeping ?lang=; the index's links are .html pages (with
    # ?lang=) on the static site: its first link leads to lesson 1.
    times["index"] = open_page(page, "/?lang=ru", DRAWN["index"])
    expect(page).to_have_url(re.compile(rf"{PAGES}index\.html\?lang=ru$"))
    expect(page.locator(".durak-title h1")).to_have_text(ru.gettext("Learn Durak"))
    links = page.locator(".durak-index-item a")
    expect(links).to_have_count(len(lessons))
    for i, lesson in enumerate(lessons):
        href = f"{Path(notebook_name(lesson)).stem}.html?lang=ru"
        expect(links.nth(i)).to_have_attribute("href", href)
    titles = {Path(notebook_name(lesson)).stem: lesson.title for lesson in lessons}
    for stem in stems:
        if stem == "index":
            continue
        started = time.monotonic()
        page.locator(f".durak-index a[data-durak-page='{stem}']").first.click()
        expect(page).to_have_url(re.compile(rf"{PAGES}{stem}\.html\?lang=ru$"))
        page.locator(DRAWN.get(stem, HAND)).first.wait_for(state="visible", timeout=COLD_PAGE_MS)
        times[stem] = time.monotonic() - started
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        if stem in titles:
            expect(page.locator(".durak-title h1")).to_have_text(ru.gettext(titles[stem]))
        page.go_back()
        page.locator(DRAWN["index"]).first.wait_for(state="visible", timeout=COLD_PAGE_MS)
    print("seconds to draw each page:", ", ".join(f"{k} {v:.1f}" for k, v in times.items()))
    assert sorted(times) == stems

    # A lesson opened cold through the LAN name: an insecure context, no service worker.
    lan_page = stems[-1]
    lan_url = static_site_url.replace("127.0.0.1", LAN_NAME, 1)
    seconds = open_page(page, f"{lan_url}{PAGES}{lan_page}.html?lang=ru", DRAWN.get(lan_page, HAND))
    print(f"{lan_page} through {LAN_NAME}: {seconds:.1f} s (cold)")
    assert page.evaluate("window.isSecureContext") is False
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.close()
    assert not traffic.errors, "\n".join(traffic.errors)
    assert not traffic.outside(), f"requests left 127.0.0.1: {traffic.outside()}"


def test_the_static_site_paces_the_computer_too(
    offline: tuple[BrowserContext, Traffic],
) -> None:
    """In Voici the kernel is Pyodide in the browser and its event loop is the browser's: the
    computer's moves still come one at a time, each its own change of the log. (The page's
    handshake and drawing are test_static_site.py's: here only the DOM is read.)"""
    context, traffic = offline
    page = context.new_page()
    page.goto(f"{PAGES}play.html?lang=en", wait_until="commit", timeout=COLD_PAGE_MS)
    page.locator(".durak-log .dl-list").first.wait_for(state="attached", timeout=COLD_PAGE_MS)
    page.evaluate(RECORDER)
    computer = page.locator(f"{LOG}.kind-move:not(.is-you)")
    # The computer thinks in the browser's Pyodide and moves a pause apart: on a loaded
    # machine that can outlast any fixed number of clicks, so the test gives it time instead.
    deadline = time.monotonic() + COLD_PAGE_MS / 1000
    while time.monotonic() < deadline:
        if computer.count() >= 3 or page.locator(".durak-result").count():
            break
        # Take, Done, or a card: whatever the learner may click (an answer of the kernel each)
        page.evaluate(CLICK_SOMETHING)
        expect(page.locator(TABLE)).not_to_have_class(
            re.compile(r"\bis-busy\b"), timeout=COLD_PAGE_MS
        )
        page.wait_for_timeout(250)  # poll: the computer's paced moves arrive on their own
    batches: list[int] = page.evaluate("window.durakLog.batches")
    assert computer.count() >= 3
    assert batches and set(batches) == {1}, batches
    page.close()
    assert not traffic.errors, "\n".join(traffic.errors)
    assert not traffic.outside()


def test_pages_follow_each_other_inside_the_tab_offline(
    offline: tuple[BrowserContext, Traffic],
) -> None:
    """Issue 16 on the static site: a link is followed in the page by the tab's own Pyodide
    (no new boot), the address is the ``.html`` one a direct load uses, Back and Forward
    work, and after 20 page changes the kernel's counts of widgets and comms (logged to the
    browser's console at each change) are back where they were."""
    context, traffic = offline
    page = context.new_page()
    page.set_default_timeout(30_000)
    counts: list[tuple[str, int, int]] = []

    def on_console(message: ConsoleMessage) -> None:
        found = COUNTS.search(message.text)
        if found:
            counts.append((found.group(2), int(found.group(3)), int(found.group(4))))

    page.on("console", on_console)
    es = translator("es")
    open_page(page, f"{PAGES}index.html?lang=es", DRAWN["index"])
    documents = page.evaluate("performance.getEntriesByType('navigation').length")

    def follow(target: str, heading: str) -> None:
        page.locator(f"a[data-durak-page='{target}']").first.click()
        at(target, heading)

    def at(target: str, heading: str) -> None:
        expect(page).to_have_url(re.compile(rf"{PAGES}{target}\.html\?lang=es$"))
        expect(page.locator(".durak-site h1")).to_have_text(heading)
        expect(page.locator(".durak-site h1")).to_be_focused()
        expect(page.locator("html.durak-navigating")).to_have_count(0)

    lessons = {Path(notebook_name(lesson)).stem: lesson for lesson in load_lessons()}
    title = {stem: es.gettext(lesson.title) for stem, lesson in lessons.items()}
    title["index"] = es.gettext("Learn Durak")
    follow("01-beating", title["01-beating"])
    follow("02-bout", title["02-bout"])
    follow("index", title["index"])
    page.go_back()
    at("02-bout", title["02-bout"])
    page.go_back()
    at("01-beating", title["01-beating"])
    page.go_forward()
    at("02-bout", title["02-bout"])
    expect(page).to_have_title(es.gettext("{page} — Learn Durak", page=title["02-bout"]))

    walk = ["index", "03-growing-round", "index", "01-beating"] * 5
    for target in walk:
        follow(target, title[target])
    assert page.evaluate("performance.getEntriesByType('navigation').length") == documents
    for _ in range(50):  # the last console line reaches the test on Playwright's next turn
        if len(counts) >= len(walk) + 5:
            break
        page.wait_for_timeout(100)
    assert [name for name, _, _ in counts[-len(walk) :]] == walk
    for name in ("index", "01-beating"):
        seen = {(w, c) for n, w, c in counts if n == name}
        assert len(seen) == 1, (name, seen)  # nothing of the old pages piles up
    screenshot(page, "static-navigation-02-bout-es", full_page=False)
    page.close()
    assert not traffic.errors, "\n".join(traffic.errors)
    assert not traffic.outside()
