"""Requests the server cannot serve get a short, plain answer: never a 500, never a traceback.

Three holes were left by Voilà and Jupyter Server's own handlers:

* odd paths reached their code and raised: a NUL in a notebook name (Voilà redirects to it,
  and Tornado refuses the header), ``..%2f`` and a bare folder under ``/voila/templates``
  (assertions and unpacking in Voilà's static handler). :data:`ODD_PATH` catches such paths
  before any handler: no page of the site has a control character, an encoded slash or
  backslash, or a ``..`` segment in its address, so they get the 404 page;
* a static-file handler that fails on its path for any other reason answers 404 too;
* Jupyter Server's ``write_error`` renders a template that needs a ``static_path`` setting the
  server does not have: every 404 under ``/voila/api/themes`` or ``/voila/labextensions``
  logged ~40 lines of traceback about it. :class:`PlainErrors` writes the localized 404 page,
  and a plain line of text for any other status, without templates.

:func:`guarded` gives every handler class of the app :class:`PlainErrors`.
"""

from __future__ import annotations

import logging
from typing import Any

from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web, websocket

from .notices import not_found_page, request_language, with_lang

log = logging.getLogger(__name__)

#: A raw (still percent-encoded) request path that no page of the site has: a control
#: character (``%00``-``%1f``, ``%7f``), an encoded slash or backslash, a backslash, or a
#: ``..`` segment, spelt out or encoded. Tornado matches its rules against the raw path.
ODD_PATH = (
    r"/(?:.*(?:%[01][0-9a-fA-F]|%7[fF]|%2[fF]|%5[cC]|\\).*"
    r"|(?:.*/)?(?:\.|%2[eE])(?:\.|%2[eE])(?:/.*)?)"
)

#: The page every redirect leads to, relative to the base URL.
INDEX = "voila/render/index.ipynb"
#: ``?lang=`` values longer than this are not carried over by redirects.
MAX_LANG = 16


def index_url(handler: web.RequestHandler) -> str:
    """The index page, keeping a short ``?lang=`` (an undecodable one is dropped)."""
    try:
        lang = handler.get_argument("lang", None)
    except web.HTTPError:
        lang = None
    if lang is not None and len(lang) > MAX_LANG:
        lang = None
    base: str = handler.settings.get("base_url", "/")
    return with_lang(url_path_join(base, INDEX), lang)


def write_not_found(handler: web.RequestHandler) -> None:
    """The localized 404 page (its language from ``?lang=``, then ``Accept-Language``)."""
    language = request_language(
        handler.request.query, handler.request.headers.get("Accept-Language")
    )
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    handler.set_header("Cache-Control", "no-store")
    handler.finish(not_found_page(language, index_url(handler)))


class PlainErrors(web.RequestHandler):
    """Errors without templates: the 404 page, else ``<status> <reason>`` as text; a
    static-file handler that fails on its path answers 404 with one log line."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code == 404:
            write_not_found(self)
            return
        self.set_header("Content-Type", "text/plain; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(f"{status_code} {self._reason}\n")

    def _handle_request_exception(self, e: BaseException) -> None:
        # Tornado's hook for an exception escaping a handler method (private, but the only
        # one): a static handler's bad path is the client's doing, not a server error.
        bad_path = isinstance(e, ValueError | AssertionError | UnicodeError | OSError)
        if isinstance(self, web.StaticFileHandler) and bad_path and not self._finished:
            log.warning(
                "404 for %s %r: %s", self.request.method, self.request.uri, type(e).__name__
            )
            self.clear()
            self.send_error(404)
            return
        super()._handle_request_exception(e)


class OddPathHandler(PlainErrors):
    """Every method of every :data:`ODD_PATH`: the 404 page."""

    def prepare(self) -> None:
        self.set_status(404)
        write_not_found(self)


_guarded: dict[type, type] = {}


#: Handlers whose errors are not pages: JSON for the API, a closed socket for websockets.
_OWN_ERRORS = (PlainErrors, APIHandler, websocket.WebSocketHandler)


def guarded(handler: type) -> type:
    """``handler`` with :class:`PlainErrors` first in its bases (one class per handler), unless
    it is an API or websocket handler or not a request handler at all."""
    if not issubclass(handler, web.RequestHandler) or issubclass(handler, _OWN_ERRORS):
        return handler
    if handler not in _guarded:
        _guarded[handler] = type(
            handler.__name__, (PlainErrors, handler), {"__module__": handler.__module__}
        )
    return _guarded[handler]
