"""The page bridge: one small anywidget per page that links the kernel and the browser tab.

Its JavaScript (``static/bridge.js``) sends one ``hello`` when first drawn, telling the kernel
the language the page was opened with (``?lang=``, else the browser's language if it is one of
ours, else Spanish), which page it is, and — after "Start again where I was" — the state to
resume. It then sends a ``ping`` every few seconds; a missing ``pong`` shows the
connection-lost overlay, in the page's language.

Python talks back only through traits (``lang``, ``title``, ``texts``, ``resume``): the browser
applies them to ``<html lang>``, the tab title, the URL (``?lang=``) and sessionStorage. The
browser never writes these traits (see :meth:`PageBridge.set_state`).

Every message from the browser is validated here (:func:`validate_message`): only well-formed
hellos and pings reach the page; anything else is dropped and never raises.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypedDict, cast

import anywidget
from traitlets import Dict, Unicode

from .browser_input import PythonOnlyTraits, json_object_copy, notify, validated

__all__ = [
    "MAX_LANG",
    "MAX_PAGE",
    "RESUME_MAX_CHARS",
    "Hello",
    "PageBridge",
    "Ping",
    "validate_message",
]

log = logging.getLogger(__name__)

_STATIC = Path(__file__).parent / "static"

MAX_LANG: Final = 100
"""Longest language string accepted in a hello (``?lang=`` is sent raw)."""
MAX_PAGE: Final = 200
"""Longest page name accepted in a hello."""
RESUME_MAX_CHARS: Final = 65_536
"""Size of a resume state as compact JSON."""
_RESUME_MAX_DEPTH: Final = 8
_RESUME_MAX_NODES: Final = 20_000
_MAX_PING: Final = 2**53


class Hello(TypedDict):
    """The browser's first message: ``resume`` is ``None`` unless the learner asked to resume."""

    type: str
    lang: str
    page: str
    resume: dict[str, Any] | None


class Ping(TypedDict):
    type: str
    n: int


def _resume_copy(data: object) -> dict[str, Any] | None:
    """A fresh copy of a bounded JSON object, or ``None`` when ``data`` is not one."""
    return json_object_copy(
        data, max_chars=RESUME_MAX_CHARS, max_depth=_RESUME_MAX_DEPTH, max_nodes=_RESUME_MAX_NODES
    )


def validate_message(content: object) -> Hello | Ping | None:
    """A fresh, well-formed message built from ``content``, or ``None``.

    Accepted (exactly these keys):

    * ``{"type": "hello", "lang": str, "page": str, "resume": {...} | null}``: ``lang`` at most
      :data:`MAX_LANG` characters, ``page`` at most :data:`MAX_PAGE`, ``resume`` a JSON object
      of at most :data:`RESUME_MAX_CHARS` characters. An oversized or malformed ``resume``
      alone is dropped (the hello is kept, with ``resume=None``): the page still opens.
    * ``{"type": "ping", "n": int}`` with ``0 <= n < 2**53``.
    """
    if not isinstance(content, dict):
        return None
    kind = content.get("type")
    keys = set(content)
    if kind == "hello" and keys == {"type", "lang", "page", "resume"}:
        lang, page, resume = content["lang"], content["page"], content["resume"]
        if (
            isinstance(lang, str)
            and len(lang) <= MAX_LANG
            and isinstance(page, str)
            and len(page) <= MAX_PAGE
        ):
            return Hello(type="hello", lang=lang, page=page, resume=_resume_copy(resume))
    elif kind == "ping" and keys == {"type", "n"}:
        n = content["n"]
        if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < _MAX_PING:
            return Ping(type="ping", n=n)
    return None


HelloHandler = Callable[[Hello], object]


class PageBridge(PythonOnlyTraits, anywidget.AnyWidget):
    """The first child of every page's root widget.

    ``on_hello(callback)`` runs ``callback(hello)`` once, for the first valid hello; ``hello``
    keeps it for whoever comes later (the shell builds the page after the hello arrived).
    Pings are answered with ``{"type": "pong", "n": n}``.

    Traits (Python → browser only): ``lang`` (empty until the page is ready: the browser then
    leaves ``<html lang>``, the title and the URL alone), ``title``, ``texts`` (the overlay's
    words in the page's language, plus ``loading``: the pending label in every language) and
    ``resume`` (what to store in sessionStorage for "Start again where I was").
    """

    _esm = _STATIC / "bridge.js"
    _css = _STATIC / "bridge.css"

    lang = Unicode("").tag(sync=True)
    title = Unicode("").tag(sync=True)
    texts = Dict().tag(sync=True)
    resume = Dict().tag(sync=True)

    _PYTHON_ONLY = frozenset({"lang", "title", "texts", "resume"})

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("durak-bridge")
        self.hello: Hello | None = None
        self.pings = 0
        self._hello_handlers: list[HelloHandler] = []
        self.on_msg(self._handle_browser_msg)

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
        if self.hello is not None:
            log.debug("page bridge: ignored a second hello")
            return
        hello = cast(Hello, message)
        self.hello = hello
        notify(self._hello_handlers, hello, log, "page bridge: hello handler")
