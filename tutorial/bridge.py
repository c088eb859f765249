"""The page bridge: one small anywidget per page that links the kernel and the browser tab.

Its JavaScript (``static/bridge.js``) sends one ``hello`` when first drawn, telling the kernel
the language the page was opened with (``?lang=``, else the browser's language if it is one of
ours, else Spanish), which page it is, ``?present=`` and ``?step=`` as given, and — after
"Start again where I was" — the state to resume; otherwise the tab's stored sealed state, if
any, as ``stored`` (the play page offers to continue it). It then sends a ``ping`` every few
seconds; a missing ``pong`` shows the connection-lost overlay, in the page's language.
Keyboard and presenter-clicker navigation arrives as ``nav`` messages (next, back, restart). A
link to another page of the site followed inside the tab (or Back/Forward) arrives as a ``go``
message, shaped like a hello and naming the new page (its ``resume``: the tab's stored state
for that page when it is a sealed one, which the page checks; the play page's game goes on):
the site (:class:`tutorial.pages.Site`) builds that page in the same kernel and swaps it in,
so the tab keeps one Python across pages.

Python talks back only through traits (``lang``, ``title``, ``texts``, ``resume``, ``present``,
``step``): the browser applies them to ``<html lang>``, the tab title, the URL (``?lang=``,
``?present=1``, ``?step=``) and sessionStorage. The browser never writes these traits (see
:meth:`PageBridge.set_state`).

Every message from the browser is validated here (:func:`validate_message`): only well-formed
hellos, pings and navigation keys reach the page; anything else is dropped and never raises.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final, Literal, NotRequired, TypedDict, cast

import anywidget
from traitlets import Bool, Dict, Int, List, Unicode

from .assets import MODULE_LOADER, file_trait
from .browser_input import PythonOnlyTraits, json_object_copy, notify, validated
from .i18n import SUPPORTED_LANGUAGES

__all__ = [
    "MAX_LANG",
    "MAX_PAGE",
    "MAX_PARAM",
    "MAX_STEP",
    "NAV_KEYS",
    "RESUME_MAX_CHARS",
    "Go",
    "Hello",
    "Nav",
    "PageBridge",
    "Ping",
    "sealed_copy",
    "validate_message",
]

log = logging.getLogger(__name__)


MAX_LANG: Final = 100
"""Longest language string accepted in a hello (``?lang=`` is sent raw)."""
MAX_PAGE: Final = 200
"""Longest page name accepted in a hello."""
RESUME_MAX_CHARS: Final = 65_536
"""Size of a resume state as compact JSON."""
MAX_PARAM: Final = 32
"""Longest ``?present=`` / ``?step=`` value accepted in a hello (longer ones mean nothing)."""
MAX_STEP: Final = 9_999
"""Largest ``?step=`` read as a number (the lesson then checks it names one of its steps)."""
NAV_KEYS: Final = frozenset({"next", "back", "restart"})
"""What a ``nav`` message may ask for (keyboard and presenter-clicker navigation)."""
_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_RESUME_MAX_DEPTH: Final = 8
_RESUME_MAX_NODES: Final = 20_000
_MAX_PING: Final = 2**53


class Hello(TypedDict):
    """The browser's first message: ``resume`` is ``None`` unless the learner asked to resume.

    ``present`` (``?present=1``: presenter mode) and ``step`` (``?step=N``, 1-based; ``None``
    when absent or not a number) are there when the browser sent them."""

    type: str
    lang: str
    page: str
    resume: dict[str, Any] | None
    present: NotRequired[bool]
    step: NotRequired[int | None]
    stored: NotRequired[dict[str, Any]]


Go = Hello
"""A page change inside the tab: the same fields as a hello (``type`` is ``"go"``), with
``resume`` ``None`` unless the tab stored a sealed state for that page (``{"sealed": str}``,
issue 37 item 4: Back to the play page goes on with its game); a lesson reached by a link
starts afresh, like a direct load."""


class Nav(TypedDict):
    """A navigation key: ``to`` is ``"next"``, ``"back"`` or ``"restart"``."""

    type: str
    to: Literal["next", "back", "restart"]


class Ping(TypedDict):
    type: str
    n: int


def _resume_copy(data: object) -> dict[str, Any] | None:
    """A fresh copy of a bounded JSON object, or ``None`` when ``data`` is not one."""
    return json_object_copy(
        data, max_chars=RESUME_MAX_CHARS, max_depth=_RESUME_MAX_DEPTH, max_nodes=_RESUME_MAX_NODES
    )


def sealed_copy(data: object) -> dict[str, Any] | None:
    """``{"sealed": token}`` when ``data`` is exactly that (a string of at most
    :data:`RESUME_MAX_CHARS`), else ``None``: the only resume a ``go`` carries, and the only
    stored state a hello mentions. Whoever reads it still checks the token."""
    if not isinstance(data, dict) or set(data) != {"sealed"}:
        return None
    token = data["sealed"]
    if not isinstance(token, str) or len(token) > RESUME_MAX_CHARS:
        return None
    return {"sealed": token}


def _flag(raw: str | None) -> bool:
    return raw is not None and raw.strip().lower() in _TRUE


def _step(raw: str | None) -> int | None:
    """``?step=`` as a number from 1 to :data:`MAX_STEP`, or ``None``."""
    if raw is None:
        return None
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or len(text) > len(str(MAX_STEP)):
        return None
    number = int(text)
    return number if 1 <= number <= MAX_STEP else None


def validate_message(content: object) -> Hello | Go | Ping | Nav | None:
    """A fresh, well-formed message built from ``content``, or ``None``.

    Accepted (exactly these keys):

    * ``{"type": "hello", "lang": str, "page": str, "resume": {...} | null}``: ``lang`` at most
      :data:`MAX_LANG` characters, ``page`` at most :data:`MAX_PAGE`, ``resume`` a JSON object
      of at most :data:`RESUME_MAX_CHARS` characters. An oversized or too deep ``resume``
      object alone is dropped (the hello is kept, with ``resume={}``, which no page can use:
      it opens afresh and may say so); anything else that is not an object is ``None``.
      Optionally ``"present"`` and ``"step"``: the raw ``?present=`` and ``?step=`` (a string
      or null); the hello then carries ``present`` (``True`` for ``1``/``true``/``yes``/``on``)
      and ``step`` (a whole number from 1 to :data:`MAX_STEP`, else ``None``). Optionally
      ``"stored"``: the tab's stored state, kept only when sealed (:func:`sealed_copy`).
    * ``{"type": "go", ...}``: the same fields as a hello (a page change inside the tab); its
      ``resume`` is kept only when sealed (:func:`sealed_copy`), and it has no ``stored``.
    * ``{"type": "ping", "n": int}`` with ``0 <= n < 2**53``.
    * ``{"type": "nav", "to": "next" | "back" | "restart"}``.
    """
    if not isinstance(content, dict):
        return None
    kind = content.get("type")
    keys = set(content)
    base = {"type", "lang", "page", "resume"}
    extra = {"present", "step", "stored"} if kind == "hello" else {"present", "step"}
    if kind in ("hello", "go") and base <= keys <= base | extra:
        lang, page, resume = content["lang"], content["page"], content["resume"]
        # A parameter that is not a string counts as absent: JSON null, and also Pyodide's
        # ``jsnull``, which is how the static site's kernel receives the browser's null.
        params = {
            key: value if isinstance(value, str) else None
            for key, value in content.items()
            if key not in base and key != "stored"
        }
        if (
            isinstance(lang, str)
            and len(lang) <= MAX_LANG
            and isinstance(page, str)
            and len(page) <= MAX_PAGE
        ):
            if kind != "hello":
                resume = sealed_copy(resume)
            else:
                copied = _resume_copy(resume)
                # a state that was sent but cannot be used (too large, too deep) is still an
                # ask to resume: {} lets the page say it could not continue
                resume = {} if copied is None and isinstance(resume, dict) else copied
            hello = Hello(type=kind, lang=lang, page=page, resume=resume)
            raw = {
                key: value if value is None or len(value) <= MAX_PARAM else ""
                for key, value in params.items()
            }
            if "present" in raw:
                hello["present"] = _flag(raw["present"])
            if "step" in raw:
                hello["step"] = _step(raw["step"])
            stored = sealed_copy(content.get("stored")) if resume is None else None
            if stored is not None:
                hello["stored"] = stored
            return hello
    elif kind == "nav" and keys == {"type", "to"}:
        to = content["to"]
        if isinstance(to, str) and to in NAV_KEYS:
            return Nav(type="nav", to=cast(Literal["next", "back", "restart"], to))
    elif kind == "ping" and keys == {"type", "n"}:
        n = content["n"]
        if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < _MAX_PING:
            return Ping(type="ping", n=n)
    return None


HelloHandler = Callable[[Hello], object]
GoHandler = Callable[[Go], object]
NavHandler = Callable[[str], object]


class PageBridge(PythonOnlyTraits, anywidget.AnyWidget):
    """The first child of every page's root widget.

    ``on_hello(callback)`` runs ``callback(hello)`` once, for the first valid hello; ``hello``
    keeps it for whoever comes later (the shell builds the page after the hello arrived).
    Pings are answered with ``{"type": "pong", "n": n}``.

    Traits (Python → browser only): ``lang`` (empty until the page is ready: the browser then
    leaves ``<html lang>``, the title and the URL alone), ``title``, ``texts`` (the overlay's
    words in the page's language, plus ``loading``: the pending label in every language),
    ``resume`` (what to store in sessionStorage for "Start again where I was"), ``present``
    (presenter mode: ``?present=1`` in the URL, the page scaled to the screen) and ``step``
    (``?step=`` in the URL; 0: none), ``langs`` (the site's languages, default first: the
    browser's choice before Python has spoken).

    ``on_nav(callback)`` runs ``callback(to)`` for each navigation key (``"next"``,
    ``"back"``, ``"restart"``); ``on_go(callback)`` runs ``callback(go)`` for each page change
    asked after the hello. :meth:`hand_over` passes the bridge to the next page of the tab.
    """

    _esm = MODULE_LOADER
    _module = file_trait("bridge.js")
    _style = file_trait("bridge.css")

    lang = Unicode("").tag(sync=True)
    title = Unicode("").tag(sync=True)
    texts = Dict().tag(sync=True)
    resume = Dict().tag(sync=True)
    present = Bool(False).tag(sync=True)
    step = Int(0).tag(sync=True)
    langs = List(Unicode(), default_value=list(SUPPORTED_LANGUAGES)).tag(sync=True)

    _PYTHON_ONLY = frozenset({"lang", "title", "texts", "resume", "present", "step", "langs"})

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("durak-bridge")
        self.hello: Hello | None = None
        self.pings = 0
        self._hello_handlers: list[HelloHandler] = []
        self._nav_handlers: list[NavHandler] = []
        self._go_handlers: list[GoHandler] = []
        self.on_msg(self._handle_browser_msg)

    def on_go(self, callback: GoHandler) -> None:
        """Call ``callback(go)`` for every page change the browser asks for (after the hello)."""
        if callback not in self._go_handlers:
            self._go_handlers.append(callback)

    def hand_over(self, hello: Hello) -> None:
        """Forget the page handlers (hello and navigation keys) of the page that was shown and
        keep ``hello`` as the one the next page reads: that page is then built as if the
        browser had opened it directly. The ``go`` handlers (the site's) stay."""
        self._hello_handlers.clear()
        self._nav_handlers.clear()
        self.hello = hello

    def on_nav(self, callback: NavHandler) -> None:
        """Call ``callback(to)`` for every navigation key from the browser."""
        if callback not in self._nav_handlers:
            self._nav_handlers.append(callback)

    def on_hello(self, callback: HelloHandler) -> None:
        """Call ``callback(hello)`` when the first valid hello arrives (not for one that
        already arrived: read :attr:`hello` for that)."""
        if callback not in self._hello_handlers:
            self._hello_handlers.append(callback)

    def _handle_browser_msg(self, _widget: object, content: object, buffers: object) -> None:
        message = validated(content, buffers, validate_message, log, "page bridge")
        if message is None:
            return
        if message["type"] == "ping":
            self.pings += 1
            self.send({"type": "pong", "n": cast(Ping, message)["n"]})
            return
        if message["type"] == "nav":
            notify(self._nav_handlers, cast(Nav, message)["to"], log, "page bridge: nav handler")
            return
        if message["type"] == "go":
            if self.hello is None:
                log.debug("page bridge: ignored a page change before the hello")
                return
            notify(self._go_handlers, cast(Go, message), log, "page bridge: go handler")
            return
        if self.hello is not None:
            log.debug("page bridge: ignored a second hello")
            return
        hello = cast(Hello, message)
        self.hello = hello
        notify(self._hello_handlers, hello, log, "page bridge: hello handler")
