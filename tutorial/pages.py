"""Every page of the site by name, the safe builder notebooks use, and the shell.

:data:`PAGES` maps a notebook stem (``"index"``, ``"03-growing-round"``, ``"house-rules"``,
``"play"``) to a factory. A notebook is two lines::

    from tutorial.pages import page
    page("03-growing-round")

:func:`page` never raises: a page that fails to build is replaced by a localized panel ("This
page could not be opened", with a link to the index), and the exception goes to the server's
log only — never Voilà's English cell error.

:func:`shell` is the pre-started pool's notebook (``notebooks/_shell.ipynb``): it shows only
the page bridge; the browser's hello names the page (and its language), and the shell builds
that page with the same bridge and swaps it in. The page then behaves exactly like one built
directly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Final, Literal

import ipywidgets as w
from IPython.display import display

from .bridge import Hello, PageBridge
from .i18n import I18n
from .kernel_safety import harden_kernel
from .lessons import LESSON_DIR
from .page import PENDING_CLASS, BridgedPage, escape, overlay_texts

__all__ = ["PAGES", "MessagePage", "PageFactory", "Shell", "page", "shell", "warm_up"]

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


class Shell:
    """The pre-started kernel's page: a root with only the bridge, until the hello names
    the page to build. ``page`` is that page once built."""

    def __init__(self) -> None:
        harden_kernel()
        self.bridge = PageBridge()
        self.bridge.texts = overlay_texts(I18n())
        self.widget = w.VBox([self.bridge])
        self.widget.add_class(PENDING_CLASS)
        self.page: BridgedPage | w.HTML | None = None
        self.bridge.on_hello(self._build)

    def _build(self, hello: Hello) -> None:
        built = page(hello["page"], bridge=self.bridge)
        self.page = built
        self.widget.children = (built.widget if isinstance(built, BridgedPage) else built,)
        self.widget.remove_class(PENDING_CLASS)

    def show(self) -> None:
        display(self.widget)

    def _ipython_display_(self) -> None:
        self.show()


def warm_up() -> None:
    """Do now, in a pooled kernel waiting for its learner, the work every first page pays
    once per process: import the page modules, load and check the lessons, read the
    catalogs of every language, and build one page of each kind (then close its widgets).
    A class arriving at once then spends its kernels' time only on its own pages."""
    from .i18n import SUPPORTED_LANGUAGES, translator

    for code in SUPPORTED_LANGUAGES:
        translator(code)
    # ipywidgets 8 deprecates Widget.widgets and offers no public registry instead.
    from ipywidgets.widgets.widget import _instances

    before = set(_instances)
    for name in ("index", next(n for n in PAGES if n[:1].isdigit()), "house-rules", "play"):
        page(name, "es")
    for key in set(_instances) - before:
        widget = _instances.get(key)
        if widget is not None:
            widget.close()


def shell() -> Shell | BridgedPage | w.HTML:
    """The shell page (``notebooks/_shell.ipynb``); displayed as the cell's result. Never
    raises: if even the shell fails, the failure panel is shown."""
    try:
        warm_up()
    except Exception:
        log.exception("warming up the pooled kernel failed (pages still work, slower)")
    try:
        return Shell()
    except Exception:
        log.exception("the shell could not be built")
    return _failed()


def _failed() -> BridgedPage | w.HTML:
    try:
        return MessagePage("failed")
    except Exception:
        log.exception("the failure panel could not be built either")
        return _last_resort()
