"""Pieces every page shares: the page style, HTML escaping, the language menu, and
:class:`BridgedPage`, the base of every page (the page bridge, the pending state until the
browser's hello, the language handshake, the tab title and resume after a lost connection)."""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from typing import Any, ClassVar, Final

import ipywidgets as w
from IPython.display import display

from .assets import PageStyle
from .bridge import Hello, PageBridge
from .i18n import (
    DEFAULT_LANGUAGE,
    SUPPORTED_LANGUAGES,
    Gettext,
    I18n,
    language_choices,
    normalize_language,
    translator,
)
from .kernel_safety import harden_kernel

__all__ = [
    "HIDDEN_CLASS",
    "PENDING_CLASS",
    "BridgedPage",
    "escape",
    "is_shown",
    "language_menu",
    "overlay_texts",
    "set_shown",
    "site_title",
]

log = logging.getLogger(__name__)

#: The class a page root carries until the browser's hello was handled: its content is hidden
#: and a small loading indicator shown (no flash of the wrong language).
PENDING_CLASS: Final = "durak-pending"

#: The class of a widget the page does not show now (``display: none`` in the page's style).
#: Showing and hiding by class, not by the widget's layout, lets widgets share one layout
#: model: each model is one more message to the browser at every page change.
HIDDEN_CLASS: Final = "durak-hidden"

_MAX_CODE_SHOWN: Final = 20


def set_shown(widget: w.DOMWidget, shown: bool) -> None:
    """Show or hide ``widget`` (nothing is sent if it already is)."""
    if shown:
        widget.remove_class(HIDDEN_CLASS)
    else:
        widget.add_class(HIDDEN_CLASS)


def is_shown(widget: w.DOMWidget) -> bool:
    """Whether :func:`set_shown` left ``widget`` shown."""
    return HIDDEN_CLASS not in widget._dom_classes


def escape(text: str) -> str:
    """Text safe to put between HTML tags or in a quoted attribute."""
    return html.escape(text, quote=True)


def title_html(title: str, subtitle: str = "") -> str:
    """A page's heading: its title (the page's one ``h1``) and a line under it."""
    line = f"<p>{escape(subtitle)}</p>" if subtitle else ""
    return f"<div class='durak-title'><h1>{escape(title)}</h1>{line}</div>"


def language_menu(i18n: I18n) -> w.Dropdown:
    """A language menu wired to ``i18n``: choosing switches the page's language (pages redraw
    through ``i18n.on_change``), and a switch made elsewhere (the browser's hello) shows in the
    menu. Label it with ``term(Term.LANGUAGE, tr)`` when rendering."""
    menu = w.Dropdown(
        options=language_choices(), value=i18n.language, layout=w.Layout(width="auto")
    )
    menu.add_class("durak-language")

    def switch(change: dict[str, Any]) -> None:
        try:
            i18n.set_language(str(change["new"]))
        except ValueError:
            log.warning("unsupported language %r", change["new"])

    def follow(code: str) -> None:
        if menu.value != code:
            menu.value = code

    menu.observe(switch, names="value")
    i18n.on_change(follow)
    return menu


def site_title(tr: Gettext, page: str | None = None) -> str:
    """The tab title: ``"Cards, trumps and beating — Learn Durak"`` (just the site's name
    for the index)."""
    if not page:
        return tr.gettext("Learn Durak")
    # TRANSLATORS: the browser tab's title; {page} is the page's own title.
    return tr.gettext("{page} — Learn Durak", page=page)


def overlay_texts(tr: Gettext) -> dict[str, Any]:
    """The words of the connection-lost overlay in ``tr``'s language, and the loading label
    in every language (the browser shows it before it knows the page's language)."""
    return {
        "title": tr.gettext("The connection to the lesson was lost"),
        "body": tr.gettext(
            "Don't worry: your progress is kept in this browser. Click the button to reload "
            "the page and carry on from where you were."
        ),
        "button": tr.pgettext("button", "Start again where I was"),
        "checking": tr.gettext("Checking the connection…"),
        "unreachable": tr.gettext("The server still does not answer. Wait a moment and try again."),
        "loading": {
            code: translator(code).gettext("Opening the page…") for code in SUPPORTED_LANGUAGES
        },
    }


class BridgedPage:
    """The base of every page.

    A page calls :meth:`_start_page` first (it makes ``i18n``, ``bridge`` and ``notice``) and
    :meth:`_finish_page` once ``widget`` is built. With ``language=None`` the page stays
    pending (class :data:`PENDING_CLASS`) until the browser's hello sets the language; an
    explicit ``language`` wins and the page is ready at once. A hello's ``resume`` goes to
    :meth:`resume`, its ``?present=``/``?step=`` to :meth:`open_with`; navigation keys go to
    :meth:`navigate`. After every change the page publishes :meth:`resume_state`,
    :meth:`presenting` and :meth:`url_step` to the bridge.
    """

    i18n: I18n
    bridge: PageBridge
    notice: w.HTML
    widget: w.Box

    hardens_kernel: ClassVar[bool] = True
    """Whether building the page hardens its kernel (:func:`~tutorial.kernel_safety.harden_kernel`):
    a page the site serves does; a table in someone's own notebook leaves their kernel alone."""

    def _start_page(self, language: str | None, bridge: PageBridge | None) -> None:
        if self.hardens_kernel:
            harden_kernel()
        self._explicit_language = language
        self._unknown_language: str | None = None
        self.ready = False
        self.i18n = I18n(language)
        # A page given a bridge is shown by a site, which holds the bridge beside it for the
        # tab's whole life (drawn once); a page on its own holds its bridge as first child.
        self.owns_bridge = bridge is None
        self.bridge = bridge if bridge is not None else PageBridge()
        self.notice = w.HTML()
        self.notice.add_class("durak-notice")

    def _build_page(
        self,
        *body: w.Widget,
        header: bool = True,
        styles: Sequence[str] = (),
        classes: Sequence[str] = (),
    ) -> None:
        """The usual page: the bridge, the shared style (plus the files ``styles`` of
        ``tutorial/static/``), a header with the page's heading (``self.heading``) and the
        language menu (``self.language``), the notice and ``body``. The page re-renders when
        the language changes."""
        children: list[w.Widget] = [*self.own_bridge(), PageStyle(*styles)]
        if header:
            self.heading = w.HTML()
            self.language = language_menu(self.i18n)
            top = w.HBox([self.heading, self.language])
            top.add_class("durak-header")
            children.append(top)
        self.widget = w.VBox([*children, self.notice, *body])
        for name in ("durak-lesson", *classes):
            self.widget.add_class(name)
        self.i18n.on_change(lambda _code: self.render())

    def _finish_page(self) -> None:
        """Call at the end of the constructor: wires the handshake, marks the page pending
        (or ready at once), and applies a hello that already arrived (the shell's case)."""
        self.i18n.on_change(self._language_changed)
        if self._explicit_language is None:
            self.widget.add_class(PENDING_CLASS)
        else:
            self._ready()
        if self.bridge.hello is not None:
            self._on_hello(self.bridge.hello)
        else:
            self.bridge.on_hello(self._on_hello)
        self.bridge.on_nav(self._on_nav)
        self.sync_bridge()

    def own_bridge(self) -> list[PageBridge]:
        """``[bridge]`` for the page's root children when the page holds its own bridge."""
        return [self.bridge] if self.owns_bridge else []

    # ------------------------------------------------------------------ to override

    def page_title(self) -> str:
        """This page's title in the current language (``""`` for the site's own name)."""
        return ""

    def render(self) -> None:
        """Redraw the page in the current language."""

    def resume_state(self) -> dict[str, Any]:
        """A small JSON object from which :meth:`resume` can rebuild this page's state."""
        return {}

    def resume(self, state: object) -> bool:
        """Continue from ``state`` (from the browser: validate everything). ``False``, with
        nothing changed, when it is not usable."""
        return False

    def offer_stored(self, state: dict[str, Any]) -> None:
        """The tab's stored sealed state (``{"sealed": str}``, unchecked), found when the page
        was opened afresh: the play page offers to continue its game. Nothing by default."""

    def open_with(self, *, present: bool, step: int | None, resumed: bool) -> None:
        """Apply the page address's ``?present=1`` and ``?step=N`` (already validated by the
        bridge: ``step`` is ``None`` or a whole number, not necessarily a step of this page).
        ``resumed``: the page just resumed a saved state, which wins over ``step``."""

    def navigate(self, to: str) -> None:
        """A navigation key from the browser: ``"next"``, ``"back"`` or ``"restart"``."""

    def stop(self) -> None:
        """The page is being closed (the learner went to another page of the tab): cancel
        whatever it scheduled in the kernel. Its widgets are closed by the site."""

    def presenting(self) -> bool:
        """Presenter mode is on (``?present=1`` in the address)."""
        return False

    def url_step(self) -> int:
        """The step the address names (``?step=``), 1-based; 0 for none."""
        return 0

    # ------------------------------------------------------------------ handshake

    def _on_hello(self, hello: Hello) -> None:
        if self._explicit_language is None:
            code = normalize_language(hello["lang"])
            unknown = None
            if code is None:
                code, unknown = DEFAULT_LANGUAGE, hello["lang"]
            try:
                self.i18n.set_language(code)
            except Exception:
                log.exception("page: switching to %r failed", code)
            self._unknown_language = unknown
        resume = hello["resume"]
        resumed = False
        if resume is not None:
            try:
                resumed = self.resume(resume)
                if not resumed:
                    log.info("page: ignored a resume state that does not fit this page")
            except Exception:
                log.exception("page: resuming failed")
        elif "stored" in hello:
            try:
                self.offer_stored(hello["stored"])
            except Exception:
                log.exception("page: offering the stored state failed")
        if "present" in hello or "step" in hello:
            try:
                self.open_with(
                    present=hello.get("present", False),
                    step=hello.get("step"),
                    resumed=resumed,
                )
            except Exception:
                log.exception("page: applying ?present= / ?step= failed")
        self._ready()

    def _on_nav(self, to: str) -> None:
        if not self.ready:
            return
        try:
            self.navigate(to)
        except Exception:
            log.exception("page: navigation key %r failed", to)

    def _ready(self) -> None:
        self.ready = True
        self._render_notice()
        self.widget.remove_class(PENDING_CLASS)
        self.sync_bridge()

    def _language_changed(self, _code: str) -> None:
        self._unknown_language = None
        self._render_notice()
        self.sync_bridge()

    def notices(self, tr: Gettext) -> list[str]:
        """Notes this page shows above its content (e.g. a saved state it could not use)."""
        return []

    def _render_notice(self) -> None:
        tr = self.i18n
        texts = []
        code = self._unknown_language
        if code is not None:
            shown = code.strip()[:_MAX_CODE_SHOWN] or "?"
            texts.append(
                tr.gettext(
                    "This page has no “{code}” version, so it is shown in {language}. "
                    "You can pick another language in the menu.",
                    code=shown,
                    language=tr.language_name(tr.language),
                )
            )
        try:
            texts += self.notices(tr)
        except Exception:
            log.exception("page: could not write its notes")
        self.notice.value = "".join(
            f"<p class='durak-note' role='status'>{escape(text)}</p>" for text in texts
        )
        set_shown(self.notice, bool(texts))

    def sync_bridge(self) -> None:
        """Send the language, tab title, overlay words and resume state to the browser
        (nothing is sent for values that did not change)."""
        bridge, tr = self.bridge, self.i18n
        with bridge.hold_sync():
            bridge.texts = overlay_texts(tr)
            if self.ready:
                bridge.title = site_title(tr, self.page_title())
                bridge.lang = tr.language
                try:
                    bridge.present = self.presenting()
                    bridge.step = self.url_step()
                except Exception:
                    log.exception("page: could not publish the address")
            try:
                bridge.resume = self.resume_state()
            except Exception:
                log.exception("page: could not save the resume state")

    def show(self) -> None:
        display(self.widget)

    def _ipython_display_(self) -> None:
        self.show()
