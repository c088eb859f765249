"""HTTP handlers that replace or add to Voilà's.

* :class:`RenderHandler` (``/voila/render/<name>``): sets the ``_xsrf`` cookie (so Voilà's own
  ``beforeunload`` shutdown beacon is accepted), refuses ``_``- and ``.``-prefixed names (404),
  serves a known page from the kernel pool when one is ready, and answers 503 ("the explainer
  is full") instead of starting a kernel beyond ``max_kernels``. Every page it sends starts
  with :func:`tutorial.loading_screen.loading_script`: Voilà's waiting screen speaks the
  learner's language.
* :class:`ShutdownHandler` (``/voila/api/shutdown/<id>``): Voilà's, but any failed cross-site
  check is a 403.
* :class:`IndexRedirectHandler` (``/``, ``/voila/tree…``, ``/login``, ``/logout``): a redirect to
  the index, keeping ``?lang=``.
* :class:`NotFoundHandler`: every unknown URL gets a small localized 404 page, never a 500
  (and :mod:`durak_server.request_guard` answers odd paths and errors of Voilà's own
  handlers the same way).
"""

from __future__ import annotations

import logging
import os
from typing import Any

from jupyter_server.base.handlers import JupyterHandler
from tornado import web
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.handler import TornadoVoilaHandler

from .kernels import DurakKernelManager, PooledPage, Reservation, for_page, holding
from .notices import RETRY_AFTER, full_page, request_language, too_many_pages_page
from .request_guard import index_url as _index_url
from .request_guard import write_not_found as _write_not_found


def is_private(name: str) -> bool:
    """Names never rendered directly: any part starting with ``_`` (the pool's shell, test
    helpers) or ``.`` (hidden files, checkpoints)."""
    return any(part.startswith(("_", ".")) for part in name.replace("\\", "/").split("/"))


class HeadInjector:
    """Puts ``script`` right after the first ``<head>`` of an HTML stream sent in chunks."""

    def __init__(self, script: str) -> None:
        self.script = script
        self.done = not script

    def __call__(self, html: str) -> str:
        if self.done:
            return html
        at = html.find("<head>")
        if at == -1:
            return html
        self.done = True
        at += len("<head>")
        return html[:at] + self.script + html[at:]


def _loading_script() -> str:
    try:
        from tutorial.loading_screen import loading_script

        return loading_script()
    except Exception:  # a broken lesson file: the page still opens, in Voilà's words
        logging.getLogger(__name__).exception("the localized loading screen failed")
        return ""


class RenderHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """``/voila/render/<name>``: Voilà's render handler with the pool, the cap and the cookie."""

    @property
    def durak_manager(self) -> DurakKernelManager:
        manager: DurakKernelManager = self.kernel_manager
        return manager

    @web.authenticated
    async def get(self, path: str | None = None) -> None:
        # Touching the token sets the _xsrf cookie, which Voilà's page reads for its
        # beforeunload beacon (POST voila/api/shutdown/<kernel id>).
        self.xsrf_token  # noqa: B018
        name = path or ""
        if not name:
            self.redirect(_index_url(self))
            return
        if is_private(name):
            raise web.HTTPError(404)
        address = self.request.remote_ip or "?"
        claims = self.durak_manager.claims
        starts = self._starts_kernel(name)
        if starts and claims.full(address):
            self._write_full(f"too many kernels held by {address}", one_client=True)
            return
        if self._is_pool_page(name):
            pooled = self.durak_manager.pop_ready()
            if pooled is not None:
                claims.claim(pooled.kernel_id, address)
                await self._write_pooled(pooled)
                return
        reservation: Reservation | None = None
        if starts:
            reservation = self.durak_manager.budget.reserve(address)
            if reservation is None:
                self._write_full("kernel cap reached")
                return
        inject = HeadInjector(_loading_script())
        with holding(reservation), for_page(claims.request(address)):
            async for html in self.get_generator(path=name):
                self.write(inject(html))
                self.flush()

    def _is_pool_page(self, name: str) -> bool:
        pages: frozenset[str] = self.settings.get("durak_pool_pages", frozenset())
        stem, ext = os.path.splitext(name)
        return ext == ".ipynb" and stem in pages

    def _starts_kernel(self, name: str) -> bool:
        root: str = self.settings["durak_root_dir"]
        return name.lower().endswith(".ipynb") and os.path.isfile(os.path.join(root, name))

    async def _write_pooled(self, pooled: PooledPage) -> None:
        """Send the pre-rendered shell, then whatever its render still produces (as Voilà)."""
        self.set_header("Content-Type", "text/html")
        self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        self.set_header("Pragma", "no-cache")
        self.set_header("Expires", "0")
        cache = pooled.renderer.rendered_cache
        sent = len(cache)
        inject = HeadInjector(_loading_script())
        if sent:
            self.write(inject("".join(cache[:sent])))
            self.flush()
        rendered, rendering = await pooled.render_task
        if len(rendered) > sent:
            self.write(inject("".join(rendered[sent:])))
            self.flush()
        async for html, _ in rendering:
            self.write(inject(html))
            self.flush()

    def _write_full(self, why: str, *, one_client: bool = False) -> None:
        language = request_language(self.request.query, self.request.headers.get("Accept-Language"))
        page = too_many_pages_page if one_client else full_page
        self.log.warning("%s: answered 503 to %s", why.capitalize(), self.request.path)
        self.set_status(503)
        self.set_header("Retry-After", str(RETRY_AFTER))
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(page(language, self.request.uri or _index_url(self)))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code == 404:
            _write_not_found(self)
            return
        super().write_error(status_code, **kwargs)


class ShutdownHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]
    """Voilà's beacon target; a request failing the cross-site checks gets 403 (Jupyter
    Server answers 404 when only the Origin is wrong)."""

    def check_xsrf_cookie(self) -> None:
        try:
            super().check_xsrf_cookie()
        except web.HTTPError as error:
            raise web.HTTPError(403, "cross-site request refused") from error


class IndexRedirectHandler(JupyterHandler):
    """Redirect to the index page, keeping ``?lang=`` (``/``, ``/voila/tree…``, ``/login``)."""

    def check_xsrf_cookie(self) -> None:
        """Nothing to protect: every method only redirects."""

    async def prepare(self, *args: Any, **kwargs: Any) -> None:
        self.redirect(_index_url(self))

    def get(self, *args: Any) -> None:
        """Handled in :meth:`prepare`."""

    post = head = get


class LogoutHandler(IndexRedirectHandler):
    """``/logout``: forget a login (only meaningful with ``--token``), then go to the index.
    Jupyter Server's own logout page cannot render under Voilà (it needs ``static_path``) and
    answered 500."""

    async def prepare(self, *args: Any, **kwargs: Any) -> None:
        self.identity_provider.clear_login_cookie(self)
        self.redirect(_index_url(self))


class NotFoundHandler(web.RequestHandler):
    """Any URL no handler claims: a localized 404 page with a link to the index."""

    def prepare(self) -> None:
        self.set_status(404)
        _write_not_found(self)
