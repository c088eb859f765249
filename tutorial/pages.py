"""Every page of the site by name, the safe builder notebooks use, and the shell.

:data:`PAGES` maps a notebook stem (``"index"``, ``"03-growing-round"``, ``"house-rules"``,
``"play"``) to a factory. A notebook is two lines::

    from tutorial.pages import site
    site("03-growing-round")

:func:`page` never raises: a page that fails to build is replaced by a localized panel ("This
page could not be opened", with a link to the index), and the exception goes to the server's
log only — never Voilà's English cell error.

:class:`Site` is what a notebook displays (``site("03-growing-round")``): the tab's root, which
swaps in the next page when the learner follows a link, in the same kernel.
:func:`shell` is the pre-started pool's notebook (``notebooks/_shell.ipynb``): a site that shows
only the page bridge until the browser's hello names the page (and its language); the page then
behaves exactly like one built directly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Final, Literal

import ipywidgets as w
from IPython.display import display

# ipywidgets 8 deprecates Widget.widgets and offers no public registry instead.
from ipywidgets.widgets.widget import _instances

from .bridge import MAX_PAGE, Go, Hello, PageBridge
from .deferred_open import built_then_opened, kept_ids
from .i18n import I18n
from .kernel_safety import harden_kernel
from .lessons import LESSON_DIR
from .page import PENDING_CLASS, BridgedPage, escape, overlay_texts

__all__ = [
    "PAGES",
    "MessagePage",
    "PageFactory",
    "Site",
    "kernel_counts",
    "page",
    "shell",
    "site",
    "warm_up",
]

log = logging.getLogger(__name__)

PageFactory = Callable[[str | None, PageBridge | None], BridgedPage]
"""``factory(language, bridge)`` builds one page."""


def _index(language: str | None, bridge: PageBridge | None) -> BridgedPage:
    from .index_page import IndexApp

    return IndexApp(language, bridge=bridge)


def _house_rules(language: str | None, bridge: PageBridge | None) -> BridgedPage:
    from .house_rules import HouseRulesApp

    return HouseRulesApp(language, bridge=bridge)


def _sources(language: str | None, bridge: PageBridge | None) -> BridgedPage:
    from .sources_page import SourcesApp

    return SourcesApp(language, bridge=bridge)


def _play(language: str | None, bridge: PageBridge | None) -> BridgedPage:
    from .game_page import GameApp

    return GameApp(language=language, bridge=bridge)


def _lesson(stem: str) -> PageFactory:
    def build(language: str | None, bridge: PageBridge | None) -> BridgedPage:
        from .app import LessonApp
        from .index_page import page_name
        from .lessons import load_lessons

        lesson = next(lesson for lesson in load_lessons() if page_name(lesson) == stem)
        return LessonApp(lesson, language=language, bridge=bridge)

    return build


def _registry() -> dict[str, PageFactory]:
    # Lesson pages are named by their files (nothing is parsed here: a broken lesson fails
    # when its page is built, where it is caught).
    pages: dict[str, PageFactory] = {"index": _index}
    for path in sorted(LESSON_DIR.glob("*.toml")):
        pages[path.stem] = _lesson(path.stem)
    pages["house-rules"] = _house_rules
    pages["play"] = _play
    pages["sources"] = _sources
    return pages


PAGES: Final[dict[str, PageFactory]] = _registry()
"""Notebook stem -> page factory, for every page of the site."""


class MessagePage(BridgedPage):
    """A page that only says something: the page was not found, or could not be opened.
    Either way it links to the index, in the page's language."""

    def __init__(
        self,
        kind: Literal["not-found", "failed"],
        language: str | None = None,
        *,
        bridge: PageBridge | None = None,
    ) -> None:
        self._start_page(language, bridge)
        self.kind = kind
        self.body = w.HTML()
        self._build_page(self.body, header=False, classes=[f"durak-{kind}"])
        self.render()
        self._finish_page()

    def page_title(self) -> str:
        if self.kind == "not-found":
            return self.i18n.gettext("Page not found")
        return self.i18n.gettext("This page could not be opened")

    def render(self) -> None:
        tr = self.i18n
        if self.kind == "not-found":
            title = tr.gettext("Page not found")
            text = tr.gettext(
                "There is no page with this address. The lessons are all on the index."
            )
        else:
            title = tr.gettext("This page could not be opened")
            text = tr.gettext(
                "Something went wrong on our side while preparing this page. "
                "Your progress is safe. Try again later, or pick another lesson."
            )
        link = tr.gettext("Go to the list of lessons")
        href = f"index.ipynb?lang={tr.language}"
        self.body.value = (
            f"<div class='durak-failure' role='alert'><h2>{escape(title)}</h2>"
            f"<p>{escape(text)}</p>"
            f"<p><a href='{escape(href)}' data-durak-page='index'>{escape(link)}</a></p></div>"
        )


def _last_resort() -> w.HTML:
    # Not even the panel could be built (the catalogs are broken?): no words, just a way out.
    return w.HTML(
        "<div class='durak-failure' role='alert'>"
        "<p><a href='index.ipynb' data-durak-page='index'>⌂ ↩</a></p></div>"
    )


def page(
    name: str, language: str | None = None, *, bridge: PageBridge | None = None
) -> BridgedPage | w.HTML:
    """Build page ``name`` (a key of :data:`PAGES`); never raises.

    An unknown name gives the "page not found" panel; a page that raises while building
    gives the "could not be opened" panel, and the exception is logged (server log only).
    """
    try:
        harden_kernel()
        factory = PAGES.get(name) if isinstance(name, str) else None
        if factory is None:
            log.warning("no page named %r", name)
            return MessagePage("not-found", language, bridge=bridge)
        return factory(language, bridge)
    except Exception:
        log.exception("page %r could not be built", name)
    try:
        return MessagePage("failed", language, bridge=bridge)
    except Exception:
        log.exception("the failure panel could not be built either")
        return _last_resort()


class Site:
    """One browser tab's pages: a root widget holding the page bridge and the page shown,
    which lives as long as the tab does. Each page the learner opens inside the tab is built
    in this same Python and swapped in; the old page is stopped and every widget it made is
    closed.

    ``Site(name)`` builds page ``name`` at once (a page's notebook: it then waits for the
    browser's hello like any page); ``Site()`` shows only the bridge until the hello names the
    page (the pool's shell). A ``go`` message (a link followed inside the tab, Back, Forward)
    names the next page (with the sealed state the tab stored for it, if any); a name that is
    not a page of :data:`PAGES` is refused and nothing changes. ``page`` is the page shown,
    ``pages_shown`` how many were built so far.
    """

    def __init__(self, name: str | None = None) -> None:
        harden_kernel()
        self.bridge = PageBridge()
        self.bridge.texts = overlay_texts(I18n())
        self.widget = w.VBox([self.bridge])
        self.widget.add_class("durak-site")
        self.page: BridgedPage | w.HTML | None = None
        self.pages_shown = 0
        # Every widget that exists now outlives the pages (the root, the bridge, their
        # layouts, and whatever the notebook made before): only newer ones belong to a page.
        self._mark = set(_instances)
        self.bridge.on_go(self._go)
        # Pending (the page hidden, a spinner shown) until the browser's hello is handled.
        self.widget.add_class(PENDING_CLASS)
        if name is None:
            self.bridge.on_hello(self._first)
        else:
            self._show(self._build(name))  # the page applies the hello first
            self.bridge.on_hello(lambda _hello: self.widget.remove_class(PENDING_CLASS))

    def _build(self, name: str) -> BridgedPage | w.HTML:
        """Page ``name`` with this tab's bridge, its widgets opened once they are complete."""
        with built_then_opened():
            return page(name, bridge=self.bridge)

    def _first(self, hello: Hello) -> None:
        self._show(self._build(hello["page"]))
        self.widget.remove_class(PENDING_CLASS)

    def _go(self, go: Go) -> None:
        name = go["page"]
        if name not in PAGES:
            log.warning("refused a page change to %r: not a page of the site", name)
            self.bridge.send({"type": "refused", "page": name[:MAX_PAGE]})
            return
        old, stale = self.page, set(_instances) - self._mark
        if isinstance(old, BridgedPage):
            try:
                old.stop()
            except Exception:
                log.exception("page: stopping %r failed", type(old).__name__)
        self._mark = set(_instances)
        # a sealed state the tab stored for that page (Back to the play page): the page checks
        # it and goes on with its game; anything else was dropped by the bridge
        hello = Hello(type="hello", lang=go["lang"], page=name, resume=go["resume"])
        if "present" in go:
            hello["present"] = go["present"]
        if "step" in go:
            hello["step"] = go["step"]
        self.bridge.hand_over(hello)
        self._show(self._build(name))
        # The browser has all it needs to draw the new page (and has dropped the old one's
        # views): it may move the focus now, while the old page's models are closed.
        self.bridge.send({"type": "shown", "page": name})
        close_widgets(stale)
        widgets, comms = kernel_counts()
        log.info(
            "tab page %d: %s (%d widgets, %d comms in this kernel)",
            self.pages_shown,
            name,
            widgets,
            comms,
        )

    def _show(self, built: BridgedPage | w.HTML) -> None:
        self.page = built
        self.pages_shown += 1
        # The bridge stays where it is (its view is drawn once per tab); the page beside it
        # changes.
        self.widget.children = (
            self.bridge,
            built.widget if isinstance(built, BridgedPage) else built,
        )

    def show(self) -> None:
        display(self.widget)

    def _ipython_display_(self) -> None:
        self.show()


def close_widgets(keys: Iterable[str]) -> None:
    """Close the widgets with these model ids that still exist (their comms close too),
    except the models kept for the kernel's life (:func:`tutorial.deferred_open.keep`: the
    front-end files, the shared layouts and styles)."""
    kept = kept_ids()
    for key in keys:
        if key in kept:
            continue
        widget = _instances.get(key)
        if widget is not None:
            widget.close()


def kernel_counts() -> tuple[int, int]:
    """How many widgets and how many comms this kernel holds (the site's page changes must
    bring both back to where they were: nothing of an old page is left behind)."""
    try:
        from comm import get_comm_manager

        comms = len(get_comm_manager().comms)
    except Exception:  # no comm manager (a plain script)
        comms = 0
    return len(_instances), comms


def site(name: str) -> Site | w.HTML:
    """The page a notebook shows: ``site("03-growing-round")``, the tab's root from which the
    learner moves to any other page without a new Python. Never raises."""
    try:
        return Site(name)
    except Exception:
        log.exception("the site could not be built for %r", name)
    return _last_resort()


def warm_up() -> None:
    """Do now, in a pooled kernel waiting for its learner, the work every first page pays
    once per process: import the page modules, load and check the lessons, read the
    catalogs of every language, and build one page of each kind (then close its widgets).
    A class arriving at once then spends its kernels' time only on its own pages."""
    from .i18n import SUPPORTED_LANGUAGES, translator

    for code in SUPPORTED_LANGUAGES:
        translator(code)
    before = set(_instances)
    for name in ("index", next(n for n in PAGES if n[:1].isdigit()), "house-rules", "play"):
        page(name, "es")
    # all of it, the models kept for the kernel's life too: the learner's first page makes
    # (and its browser receives) only those it needs
    for key in set(_instances) - before:
        _instances[key].close()


def shell() -> Site | BridgedPage | w.HTML:
    """The shell page (``notebooks/_shell.ipynb``); displayed as the cell's result. Never
    raises: if even the shell fails, the failure panel is shown."""
    try:
        warm_up()
    except Exception:
        log.exception("warming up the pooled kernel failed (pages still work, slower)")
    try:
        return Site()
    except Exception:
        log.exception("the shell could not be built")
    return _failed()


def _failed() -> BridgedPage | w.HTML:
    try:
        return MessagePage("failed")
    except Exception:
        log.exception("the failure panel could not be built either")
        return _last_resort()
