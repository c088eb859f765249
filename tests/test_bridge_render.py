"""The page bridge's JavaScript in a real browser (Debian's Chromium via Playwright), without
Voilà: tests/browser_harness/ serves ``tutorial/static/``; a stand-in anywidget model mounts
``bridge.js`` inside a pending page root, records what it sends and can answer pings.

The heartbeat runs on short periods here (``globalThis.durakBridgeTiming``); the Voilà tests
(tests/browser/test_connection.py) use the real ones. Screenshots of the pending state and the
overlay at 1280×720 and 375 px go to ``test-artifacts/bridge/``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser import conftest, harness
from tests.browser_harness.server import serve
from tutorial.bridge import PageBridge
from tutorial.i18n import translator
from tutorial.page import overlay_texts

# Chromium tests: `-m "not browser"` deselects them (they stay out of tests/browser/ because
# tests/test_presenter_render.py imports this module's fixtures as tests.test_bridge_render).
pytestmark = pytest.mark.browser
ARTIFACTS = harness.ARTIFACTS / "bridge"

# The browser tests' one Chromium (module scope; skips, saying why, without /usr/bin/chromium).
browser = conftest.browser

FAST = "globalThis.durakBridgeTiming = {tick: 50, every: 150, lostAfter: 400, hiddenEvery: 250};"

# A stand-in for anywidget's model, a pending page root, and the bridge mounted in it.
MOUNT = """async ([state, answer]) => {
  const bridge = (await import("/static/bridge.js")).default;
  const css = document.createElement("link");
  css.rel = "stylesheet"; css.href = "/static/bridge.css";
  const loaded = new Promise((ok) => { css.onload = ok; });
  document.head.append(css);
  await loaded;
  class FakeModel {
    constructor(state) { this.state = {...state}; this.listeners = new Map(); this.sent = []; }
    get(key) { return this.state[key]; }
    set(key, value) {
      this.state[key] = value;
      for (const cb of [...(this.listeners.get(`change:${key}`) || [])]) cb();
    }
    on(event, cb) {
      if (!this.listeners.has(event)) this.listeners.set(event, new Set());
      this.listeners.get(event).add(cb);
    }
    off(event, cb) { this.listeners.get(event)?.delete(cb); }
    send(content) {
      this.sent.push(JSON.parse(JSON.stringify(content)));
      if (window.answering && content.type === "ping") {
        setTimeout(() => {
          const pong = {type: "pong", n: content.n};
          for (const cb of [...(this.listeners.get("msg:custom") || [])]) cb(pong);
        }, 0);
      }
    }
  }
  window.answering = answer;
  const root = document.createElement("div");
  root.className = "durak-pending";
  root.id = "root";
  const host = document.createElement("div");
  host.className = "durak-bridge";
  const content = document.createElement("p");
  content.id = "content";
  content.textContent = "The lesson itself";
  root.append(host, content);
  document.getElementById("widget").append(root);
  window.model = new FakeModel(state);
  window.cleanup = bridge.render({model: window.model, el: host});
  return true;
}"""


def state(lang: str = "", **extra: Any) -> dict[str, Any]:
    tr = translator(lang or "es")
    langs = PageBridge().langs  # the Python side's one list of languages
    texts = overlay_texts(tr)
    return {"lang": lang, "title": "", "texts": texts, "resume": {}, "langs": langs, **extra}


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with serve() as url:
        yield url


@pytest.fixture
def open_page(browser: Any, base_url: str) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def make(
        query: str = "",
        *,
        width: int = 1280,
        height: int = 720,
        locale: str = "en-US",
        fast: bool = True,
        model: dict[str, Any] | None = None,
        answer: bool = True,
        session: dict[str, str] | None = None,
    ) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale=locale, **harness.QUIET
        )
        contexts.append(context)
        context.route(
            "**/*",
            lambda route: (
                route.continue_() if route.request.url.startswith(base_url) else route.abort()
            ),
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        if fast:
            page.add_init_script(FAST)
        page.goto(base_url + query)
        page.wait_for_function("window.harnessReady === true")
        for key, value in (session or {}).items():
            page.evaluate("([k, v]) => sessionStorage.setItem(k, v)", [key, value])
        page.evaluate(MOUNT, [model or state(), answer])
        return page

    yield make
    for context in contexts:
        context.close()


def sent(page: Any, kind: str) -> list[dict[str, Any]]:
    return [m for m in page.evaluate("window.model.sent") if m["type"] == kind]


def test_hello_carries_the_query_language_and_page(open_page: Callable[..., Any]) -> None:
    page = open_page("?lang=xx&x=1", locale="ru-RU")
    assert sent(page, "hello") == [
        {
            "type": "hello",
            "lang": "xx",
            "page": "index",
            "resume": None,
            "present": None,
            "step": None,
        }
    ]


@pytest.mark.parametrize(
    ("locale", "expected"), [("en-US", "en"), ("ru-RU", "ru"), ("de-DE", "es"), ("es-AR", "es")]
)
def test_without_lang_the_browser_language_is_used(
    open_page: Callable[..., Any], locale: str, expected: str
) -> None:
    page = open_page("", locale=locale)
    assert sent(page, "hello")[0]["lang"] == expected


def test_the_languages_are_the_ones_python_lists(open_page: Callable[..., Any]) -> None:
    """The bridge knows no language list of its own: a site with German would detect it."""
    page = open_page("", locale="de-DE", model=state(langs=["es", "en", "ru", "de"]))
    assert sent(page, "hello")[0]["lang"] == "de"
    page = open_page("", locale="ru-RU", model=state(langs=["en", "es"]))
    assert sent(page, "hello")[0]["lang"] == "en"  # the first is the default


@pytest.mark.parametrize("width", [1280, 375])
def test_pending_shows_only_a_labelled_indicator(open_page: Callable[..., Any], width: int) -> None:
    page = open_page("?lang=ru", model=state(""), width=width)
    indicator = page.locator(".durak-loading")
    assert indicator.is_visible()
    assert indicator.get_attribute("role") == "status"
    assert indicator.get_attribute("aria-label") == translator("ru").gettext("Opening the page…")
    assert not page.locator("#content").is_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"pending-{width}.png"))
    # Until Python says the page is ready (lang set), the URL, title and <html lang> stay.
    assert page.evaluate("[location.search, document.documentElement.lang]") == ["?lang=ru", "en"]
    page.evaluate("document.getElementById('root').classList.remove('durak-pending')")
    assert not indicator.is_visible() and page.locator("#content").is_visible()


def test_lang_and_title_go_to_the_document_and_url(open_page: Callable[..., Any]) -> None:
    page = open_page("?x=1&lang=xx#top")
    entries = page.evaluate("history.length")
    page.evaluate("window.model.set('title', 'Карты — Учимся'); window.model.set('lang', 'ru')")
    assert page.evaluate("document.title") == "Карты — Учимся"
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.evaluate("location.search + location.hash") == "?x=1&lang=ru#top"
    assert page.evaluate("history.length") == entries  # replaced, not pushed


def test_resume_is_kept_and_sent_only_after_the_button(
    open_page: Callable[..., Any], base_url: str
) -> None:
    stored = '{"v": 1, "step": 3}'
    # A state left from an earlier visit, without the flag: not sent.
    page = open_page("", session={"durak-state:/": stored})
    assert sent(page, "hello")[0]["resume"] is None
    # With the flag (set by the overlay's button): sent once, then the flag is gone.
    page = open_page("", session={"durak-state:/": stored, "durak-resume:/": "1"})
    assert sent(page, "hello")[0]["resume"] == {"v": 1, "step": 3}
    assert page.evaluate("sessionStorage.getItem('durak-resume:/')") is None
    page.evaluate("window.model.set('resume', {v: 1, step: 4})")
    assert page.evaluate("JSON.parse(sessionStorage.getItem('durak-state:/'))") == {
        "v": 1,
        "step": 4,
    }


def test_answered_pings_keep_the_page(open_page: Callable[..., Any]) -> None:
    page = open_page("", answer=True)
    page.wait_for_function("window.model.sent.filter((m) => m.type === 'ping').length >= 6")
    assert page.locator("[role=alertdialog]").count() == 0
    numbers = [m["n"] for m in sent(page, "ping")]
    assert numbers == list(range(1, len(numbers) + 1))


def test_a_hidden_tab_keeps_pinging_and_shows_no_overlay(open_page: Callable[..., Any]) -> None:
    """The server culls a kernel whose page goes silent (``cull_connected``): a hidden tab
    still pings, more slowly, and its throttled timers never count as a lost connection."""
    page = open_page("", answer=True)
    page.evaluate(
        """() => {
          Object.defineProperty(
            document, "visibilityState", {configurable: true, get: () => "hidden"}
          );
          document.dispatchEvent(new Event("visibilitychange"));
          window.answering = false;  // from now on no pong comes back
          window.pingsWhenHidden = window.model.sent.filter((m) => m.type === "ping").length;
        }"""
    )
    page.wait_for_function(
        "window.model.sent.filter((m) => m.type === 'ping').length >= window.pingsWhenHidden + 4"
    )
    assert page.locator("[role=alertdialog]").count() == 0  # unanswered, yet not "lost"


@pytest.mark.parametrize(("lang", "width"), [("ru", 1280), ("es", 375)])
def test_no_pong_shows_the_overlay_in_the_page_language(
    open_page: Callable[..., Any], lang: str, width: int
) -> None:
    tr = translator(lang)
    page = open_page("", model=state(lang), answer=False, width=width)
    dialog = page.locator("[role=alertdialog]")
    dialog.wait_for()
    texts = overlay_texts(tr)
    assert dialog.get_attribute("aria-modal") == "true"
    assert dialog.get_attribute("lang") == lang
    assert page.locator("#durak-connection-lost-title").inner_text() == texts["title"]
    assert page.locator("#durak-connection-lost-body").inner_text() == texts["body"]
    button = dialog.locator("button")
    assert button.inner_text() == texts["button"]
    assert page.evaluate("document.activeElement.className") == "durak-lost-button"
    page.keyboard.press("Tab")  # focus stays in the dialog
    assert page.evaluate("document.activeElement.className") == "durak-lost-button"
    assert page.evaluate("document.getElementById('widget').inert") is True
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"overlay-{lang}-{width}.png"))
    box = dialog.locator(".durak-lost-box").bounding_box()
    assert box is not None and box["width"] <= width


def test_the_button_reloads_and_resumes_when_the_server_answers(
    open_page: Callable[..., Any],
) -> None:
    page = open_page("?lang=en", model=state("en", resume={"v": 1, "step": 2}), answer=False)
    page.locator("[role=alertdialog] button").click()
    page.wait_for_function("window.harnessReady === true && !window.model")
    # After the reload the flag is set, so the next bridge will send the stored state.
    assert page.evaluate("sessionStorage.getItem('durak-resume:/')") == "1"
    assert page.evaluate("JSON.parse(sessionStorage.getItem('durak-state:/'))") == {
        "v": 1,
        "step": 2,
    }


def test_the_button_says_so_when_the_server_is_away(open_page: Callable[..., Any]) -> None:
    page = open_page("?lang=ru", model=state("ru"), answer=False)
    page.locator("[role=alertdialog]").wait_for()
    page.context.route("**/*", lambda route: route.abort())  # the server is gone
    page.locator("[role=alertdialog] button").click()
    status = page.locator(".durak-lost-status")
    unreachable = overlay_texts(translator("ru"))["unreachable"]
    page.wait_for_function(
        "(t) => document.querySelector('.durak-lost-status').textContent === t", arg=unreachable
    )
    assert status.get_attribute("role") == "status"
    assert page.evaluate("document.activeElement.className") == "durak-lost-button"
    assert page.evaluate("sessionStorage.getItem('durak-resume:/')") is None


@pytest.mark.parametrize(("path", "ext"), [("", ".ipynb"), ("static.html", ".html")])
def test_links_to_pages_follow_the_site(
    open_page: Callable[..., Any], base_url: str, path: str, ext: str
) -> None:
    page = open_page()
    if path:
        page.evaluate("(p) => history.replaceState(null, '', p)", "/" + path)
    page.evaluate("document.documentElement.lang = 'ru'")
    href = page.evaluate(
        """() => {
          const a = document.createElement('a');
          a.dataset.durakPage = 'index'; a.href = 'index.ipynb?lang=es'; a.textContent = 'i';
          document.body.append(a);
          a.addEventListener('click', (e) => e.preventDefault());
          a.click();
          return a.getAttribute('href');
        }"""
    )
    assert href == f"index{ext}?lang=ru"


INDEX_VIEW = {
    "lang": "ru",
    "not_done": "-",
    "lessons": [
        {
            "id": "beating",
            "order": 1,
            "title": "t",
            "summary": "s",
            "teaches": [],
            "page": "01-beating",
            "stars_label": "{n}",
        }
    ],
    "extras": [{"page": "play", "title": "p", "summary": "s"}],
}


@pytest.mark.parametrize(
    ("path", "ext"), [("/voila/render/index.ipynb", ".ipynb"), ("/i.html", ".html")]
)
def test_index_links_follow_the_site(open_page: Callable[..., Any], path: str, ext: str) -> None:
    page = open_page()
    page.evaluate("(p) => history.replaceState(null, '', p)", path)
    hrefs = page.evaluate(
        """async (view) => {
          const index = (await import("/static/index.js")).default;
          const host = document.createElement("div");
          document.body.append(host);
          index.render({model: {get: () => view, on() {}, off() {}}, el: host});
          return [...host.querySelectorAll("a")].map((a) => a.getAttribute("href"));
        }""",
        INDEX_VIEW,
    )
    assert hrefs == [f"01-beating{ext}?lang=ru", f"play{ext}?lang=ru"]
