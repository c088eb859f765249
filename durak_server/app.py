"""``DurakServer``: Voilà's standalone app with the explainer's classroom settings.

Settings (``voila.json`` section ``"DurakServer"``, or ``--DurakServer.<name>=…``; the short
forms ``--classroom N`` and ``--max-kernels N`` exist too):

``classroom``      pre-started kernels kept ready for the pages (the pool size); 0 turns the
                   pool off.
``max_kernels``    at most this many kernels at once (pool included); beyond it a page gets a
                   503 "full, try again in a minute" page; 0 = no cap.
``refill_delay``   seconds of quiet (no kernel taken from the pool) before the pool refills.
``refill_when_idle``  the share of the processors that must have been idle (over 2 s) for a
                   refill to start once learners have taken kernels (0: never wait).
``pool_notebook``  the page shell every pooled kernel runs (``_shell.ipynb``).
``pool_pages``     notebook stems served from the pool; empty = the pages registered in
                   ``tutorial.pages.PAGES``.
``max_waiting_per_address``  kernels one client address may hold whose browsers have not
                   connected yet (a flood of plain GETs); ``classroom`` more than that, since a
                   class arriving at once often shares one address (a school's NAT).
``max_kernels_per_address``  live kernels one client address may hold, connected or not
                   (many silent websockets); ``classroom`` more than that, as above.
``reserved_for_newcomers``  the last slots of ``max_kernels`` that only a client holding no
                   kernel may take (default: an eighth of ``max_kernels``, 5 of 40); at the
                   cap such a newcomer takes the least active kernel of the client holding
                   the most (two or more) instead of the "full" page. A client is an IPv4
                   address or an IPv6 /64 (:func:`durak_server.kernels.client_key`).
``trust_xheaders`` behind a reverse proxy: the client's address is taken from ``X-Real-IP`` /
                   ``X-Forwarded-For`` (``--ServerApp.trust_xheaders=True`` is read too).
``max_message_bytes``, ``ws_ping_interval``, ``ws_ping_timeout``: the kernel websocket.
``message_rate``, ``message_burst``, ``page_change_cost``: the budget of each page's messages,
                   charged as they arrive at the server (:class:`durak_server.websocket.Budget`).

Everything else is Voilà's: the standalone protections stay (only comm and info messages
reach the kernel), and :mod:`durak_server.handlers` / :mod:`durak_server.websocket` add theirs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, ClassVar

from jupyter_server.base.handlers import path_regex
from jupyter_server.utils import url_path_join
from traitlets import Bool, Float, Integer, List, Unicode, default
from voila.app import Voila
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from . import resume_key
from .handlers import (
    IndexRedirectHandler,
    LogoutHandler,
    NotFoundHandler,
    RenderHandler,
    ShutdownHandler,
)
from .kernels import DurakKernelManager
from .request_guard import ODD_PATH, OddPathHandler, guarded
from .websocket import (
    MAX_MESSAGE_BYTES,
    PAGE_COST,
    Budget,
    FilteredKernelWebsocketHandler,
    FilteredWebsocketConnection,
)

_REPLACED: dict[type, type] = {
    TornadoVoilaHandler: RenderHandler,
    VoilaShutdownKernelHandler: ShutdownHandler,
    VoilaKernelWebsocketHandler: FilteredKernelWebsocketHandler,
}
_DROPPED = (TornadoVoilaTreeHandler, VoilaContentsHandler)


#: Our page templates (ahead of Voilà's in the template path).
TEMPLATES = Path(__file__).resolve().parent / "templates"


class DurakServer(Voila):  # type: ignore[misc]
    """Voilà standalone with a kernel cap, a page pool and classroom-safe handlers."""

    kernel_manager: Any  # set by Voilà's init_settings, then replaced below
    template_paths: list[str]  # Voilà's trait, set by its setup_template_dirs

    description = Unicode("durak_server [OPTIONS] NOTEBOOK_DIRECTORY: the Durak explainer.")

    classroom = Integer(
        2, config=True, help="Pre-started kernels kept ready for the pages (0: no pool)."
    )
    max_kernels = Integer(
        40, config=True, help="Most kernels alive at once, pool included (0: no cap)."
    )
    refill_delay = Float(
        20.0, config=True, help="Seconds without a page taken from the pool before it refills."
    )
    refill_when_idle = Float(
        0.5,
        config=True,
        help="Share of the processors idle (over 2 s) that a pool refill waits for, once pages "
        "took kernels from it (0: refill regardless).",
    )
    pool_notebook = Unicode(
        "_shell.ipynb", config=True, help="The page shell pooled kernels pre-render."
    )
    pool_pages = List(
        Unicode(),
        config=True,
        help="Notebook stems served from the pool (empty: tutorial.pages.PAGES).",
    )
    max_message_bytes = Integer(
        MAX_MESSAGE_BYTES, config=True, help="Largest websocket message accepted from a page."
    )
    message_rate = Float(
        Budget.rate,
        config=True,
        help="Tokens a second each page's websocket earns for its messages, charged as they "
        "arrive, before the kernel works (a click or a ping costs 1, a page change "
        "page_change_cost); the kernel's share is 1.5 times that (0: no budget).",
    )
    message_burst = Float(
        Budget.burst,
        config=True,
        help="Tokens a page's websocket may spend at once (its bucket's size).",
    )
    page_change_cost = Float(
        float(PAGE_COST),
        config=True,
        help="Tokens a page change (and a page's first hello, and the widgets' request_states) "
        "costs. Over budget, page changes collapse to the newest, which is sent on later.",
    )
    ws_ping_interval = Integer(
        10_000, config=True, help="Milliseconds between websocket pings to each page."
    )
    ws_ping_timeout = Integer(
        30_000, config=True, help="Milliseconds without a pong before a page's socket is closed."
    )
    connect_timeout = Float(
        60.0,
        config=True,
        help="Seconds a page's browser has, once the page was sent, to connect to its kernel; "
        "a kernel still without a connection then is shut down (0: never).",
    )
    max_waiting_per_address = Integer(
        8,
        config=True,
        help="Most kernels handed to one client address whose browsers have not connected yet "
        "(0: no limit), plus classroom (a class may arrive at once behind one address); "
        "beyond it that address gets the 'full' page for a while.",
    )
    max_kernels_per_address = Integer(
        6,
        config=True,
        help="Most live kernels one client address may hold, connected or not (0: no limit), "
        "plus classroom; beyond it that address gets the 'too many pages' page for a while.",
    )
    reserved_for_newcomers = Integer(
        config=True,
        help="Slots of max_kernels only a client holding no kernel may take (default: "
        "max_kernels // 8). At the cap, such a newcomer takes the least active kernel of the "
        "client holding the most (two or more) instead of being refused.",
    )
    trust_xheaders = Bool(
        False,
        config=True,
        help="Take the client's address from X-Real-IP / X-Forwarded-For (behind a reverse "
        "proxy that sets them; never when clients can reach the server directly). "
        "--ServerApp.trust_xheaders=True has the same effect.",
    )
    resume_key_file = Unicode(
        "",
        config=True,
        help="File with this server's resume key (32 random bytes, created when missing, empty "
        "or damaged; default: durak-resume-<folder digest>.key in Jupyter's runtime folder). "
        "DURAK_RESUME_KEY in the environment takes its place (at least 32 random characters).",
    )

    aliases: ClassVar[dict[str, Any]] = {
        **Voila.aliases,
        "classroom": "DurakServer.classroom",
        "max-kernels": "DurakServer.max_kernels",
    }

    @default("reserved_for_newcomers")
    def _eighth_of_the_cap(self) -> int:
        return max(0, self.max_kernels) // 8

    def trusts_xheaders(self) -> bool:
        """``trust_xheaders``, or Jupyter Server's own name for it (the app is no ServerApp,
        so that setting alone would be silently ignored)."""
        server_app: Any = self.config.get("ServerApp", {})
        return bool(self.trust_xheaders or server_app.get("trust_xheaders", False))

    def listen(self) -> None:
        """Voilà's, with Tornado's ``xheaders`` when the proxy's headers are trusted: the
        client's address (``request.remote_ip``) is then the one the proxy saw."""
        if self.trusts_xheaders():
            listen = self.app.listen

            def listen_trusting(port: int, address: str = "", **kwargs: Any) -> Any:
                return listen(port, address, xheaders=True, **kwargs)

            self.app.listen = listen_trusting
            self.log.info("Client addresses: from X-Real-IP / X-Forwarded-For (trust_xheaders)")
        super().listen()

    def _with_classroom(self, limit: int) -> int:
        """A per-address limit in force: a classroom of N may arrive at once from one
        address (a school behind NAT), so it is ``classroom`` more (0 stays off)."""
        return 0 if limit <= 0 else limit + max(0, self.classroom)

    def waiting_per_address(self) -> int:
        """The limit in force on kernels of one address waiting for their browser."""
        return self._with_classroom(self.max_waiting_per_address)

    def kernels_per_address(self) -> int:
        """The limit in force on live kernels of one address."""
        return self._with_classroom(self.max_kernels_per_address)

    def setup_template_dirs(self) -> None:
        """Voilà's template folders, with ours first for its "lab" template: the page without
        the Font Awesome links to another host (templates/index.html.j2 says why)."""
        super().setup_template_dirs()
        if self.voila_configuration.template == "lab":
            self.template_paths = [str(TEMPLATES), *self.template_paths]

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        # Before any kernel starts: each inherits the key from this process's environment.
        source = resume_key.install(self.resume_key_file, self.root_dir, self.log)
        self.log.info("Resume key: %s", source)
        pool_file = os.path.join(self.root_dir, self.pool_notebook)
        pool_size = self.classroom if os.path.isfile(pool_file) else 0
        if self.classroom > 0 and pool_size == 0:
            self.log.warning("No %s in %s: no kernel pool", self.pool_notebook, self.root_dir)
        # Voilà built a plain kernel manager (no preheat in voila.json); replace it before any
        # kernel starts. The section "MappingKernelManager" (culling) still applies.
        voila_manager = self.kernel_manager
        self.kernel_manager = DurakKernelManager(
            parent=self,
            connection_dir=self.connection_dir,
            kernel_spec_manager=self.kernel_spec_manager,
            allowed_message_types=list(voila_manager.allowed_message_types),
            pool_notebook=self.pool_notebook,
            pool_size=pool_size,
            refill_delay=self.refill_delay,
            refill_when_idle=self.refill_when_idle,
            max_kernels=self.max_kernels,
            connect_timeout=self.connect_timeout,
            max_waiting_per_address=self.waiting_per_address(),
            max_kernels_per_address=self.kernels_per_address(),
            reserved_for_newcomers=self.reserved_for_newcomers,
        )
        self.log.info(
            "Kernel pool: %d x %s; at most %s kernels, the last %d for newcomers",
            pool_size,
            self.pool_notebook,
            self.max_kernels or "unlimited",
            self.kernel_manager.budget.for_newcomers,
        )
        return {
            **settings,
            "kernel_manager": self.kernel_manager,
            "kernel_websocket_connection_class": FilteredWebsocketConnection,
            "default_handler_class": guarded(NotFoundHandler),
            "durak_root_dir": self.root_dir,
            "durak_pool_pages": frozenset(self._pool_pages()) if pool_size else frozenset(),
            "durak_max_message_bytes": self.max_message_bytes,
            "durak_message_budget": Budget(
                rate=self.message_rate, burst=self.message_burst, page_cost=self.page_change_cost
            ),
            # Tornado reads a whole frame before handing it over: beyond this it closes the
            # socket instead of buffering (its default is 10 MiB).
            "websocket_max_message_size": max(16 * self.max_message_bytes, 1 << 20),
            "ws_ping_interval": self.ws_ping_interval,
            "ws_ping_timeout": self.ws_ping_timeout,
        }

    def _pool_pages(self) -> list[str]:
        if self.pool_pages:
            return list(self.pool_pages)
        try:
            from tutorial.pages import PAGES
        except ImportError as error:
            self.log.warning("tutorial.pages not importable (%s): pages are not pooled", error)
            return []
        return sorted(PAGES)

    def init_handlers(self) -> list[Any]:
        if self.notebook_path:
            raise ValueError("durak_server serves a directory of notebooks, not one notebook")
        handlers: list[Any] = []
        for rule in super().init_handlers():
            pattern, handler, *rest = rule
            if handler in _DROPPED:
                continue
            if pattern in ("/login", "/logout"):
                continue  # Jupyter Server's login/logout pages; ours are below
            handlers.append((pattern, _REPLACED.get(handler, handler), *rest))
        base = self.server_url
        own: list[Any] = [
            (base, IndexRedirectHandler),
            (url_path_join(base, r"/voila/?"), IndexRedirectHandler),
            (url_path_join(base, r"/voila/tree" + path_regex), IndexRedirectHandler),
            (url_path_join(base, r"/login"), IndexRedirectHandler),
            (url_path_join(base, r"/logout"), LogoutHandler),
        ]
        if self.identity_provider.auth_enabled:  # --token: Voilà's login form stays
            own = [rule for rule in own if not rule[0].endswith("/login")]
            own += [rule for rule in self.identity_provider.get_handlers() if rule[0] == "/login"]
        # Odd paths first (no handler ever sees them); no handler's error renders a template.
        guard: list[Any] = [(url_path_join(base, ODD_PATH.removeprefix("/")), OddPathHandler)]
        return [
            (pattern, guarded(handler), *rest) for pattern, handler, *rest in guard + own + handlers
        ]


def main() -> None:
    """Entry point of ``python -m durak_server``."""
    try:
        DurakServer.launch_instance()
    except resume_key.WeakKeyError as error:
        print(f"durak_server: {error}", file=sys.stderr)
        raise SystemExit(2) from None
