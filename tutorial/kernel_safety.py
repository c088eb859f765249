"""Hardening inside the kernel that serves a page: nothing the learner's browser can send
creates widgets, and no log line or traceback reaches the page.

Pages call :func:`harden_kernel` (any number of times). What it does, checked against
ipykernel 7.4, comm 0.2 and ipywidgets 8.1:

* **Logs go to the server log only.** In an ipykernel, ``sys.stderr`` is forwarded to the
  browser as ``stream`` messages, and so is the process's file descriptor 2 itself
  (``capture_fd_output``): ``sys.__stderr__`` is not private either. The kernel keeps a copy
  of the original descriptor (``sys.stderr._original_stdstream_copy``, where its own log
  goes); the ``tutorial`` and ``durak_core`` loggers, Python's last-resort handler (used by
  every logger without a handler: ``Comm``, ``ipykernel.comm``…) and warnings write there.
  Outside a kernel that is plain ``sys.__stderr__``.
* **Widget exceptions are logged, not shown.** ipywidgets shows an exception raised in a
  widget's message handler or callback with ``get_ipython().showtraceback()``, which sends an
  ``error`` message with the traceback (and server paths) to the page. ipywidgets' widget
  module gets a ``get_ipython`` whose ``showtraceback`` logs instead.
* **The browser cannot create widgets.** A ``comm_open`` for the ``jupyter.widget`` target
  would build any registered widget class in the kernel (issue 8c: 3 000 forged widgets took
  +20 MB). The target now closes such a comm at once and creates nothing. The pages never
  need it: every widget is created by the kernel. ``jupyter.widget.control`` (the browser
  asking for the widgets' state) keeps working, with at most :data:`MAX_CONTROL_COMMS` of
  them open: a new one closes the oldest (ipywidgets answers on the newest only, and each
  open comm is kept by the comm manager, so a flood of forged ones would grow the kernel).
* **Browser messages are rate-limited** (issue 19, item 4). Every ``comm_msg`` from the
  browser (a click, a widget's state update, the control comm's ``request_states``, the
  bridge's messages) passes one token bucket per kernel, :data:`MESSAGE_LIMIT`: a burst of
  :data:`BURST` messages, refilled at :data:`RATE` a second (a learner clicks a few times a
  second at most). A message beyond it is dropped before any of its work (no comm lookup, no
  widget handler, no redraw), and the first drop of each burst is logged once on the server
  log (``tutorial.kernel``); nothing is raised and nothing is sent back. The hook is the comm
  layer, not a widget: ipykernel dispatches each ``comm_msg`` to the comm manager's
  ``comm_msg`` through its ``shell_handlers`` table (bound once, when the kernel starts), so
  both that entry and the manager's own method are replaced by the limited one; every widget
  of every page is then covered at once, the ones to come included. (ipykernel's own work
  for a message, reading it and publishing "busy"/"idle", comes before and cannot be
  avoided here.) ``comm_open`` and ``comm_close`` pass the same bucket: a page sends one of
  each at most when it opens or leaves. (The server charges every message before it reaches
  the kernel too, by its cost: :mod:`durak_server.websocket`.)
* **A refused page change is logged once per burst** (issue 37, item 5). The site logs a
  WARNING for each ``go`` naming no page of the site (``tutorial.pages``); a filter
  (:class:`OncePerBurst`) lets the first of a burst through and counts the rest; the first
  line of the next burst (after :data:`REFUSED_QUIET` seconds without one) says how many
  were not logged.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Final, TextIO

__all__ = [
    "BURST",
    "LOGGERS",
    "MAX_CONTROL_COMMS",
    "MESSAGE_LIMIT",
    "RATE",
    "REFUSED_QUIET",
    "OncePerBurst",
    "RateLimit",
    "harden_kernel",
    "limit_browser_messages",
    "refuse_widget_comm",
    "server_log_stream",
]

log = logging.getLogger("tutorial.kernel")

LOGGERS: Final = ("tutorial", "durak_core")
"""The project's loggers: they write to the server log only."""

_lock = threading.Lock()
_stream: TextIO | None = None


def server_log_stream() -> TextIO:
    """Where the kernel process's own log goes (the server's log), never to the page."""
    global _stream
    with _lock:
        if _stream is None:
            fd = getattr(sys.stderr, "_original_stdstream_copy", None)
            if isinstance(fd, int) and fd >= 0:
                try:
                    raw = os.fdopen(os.dup(fd), "wb", buffering=0)
                    _stream = io.TextIOWrapper(
                        raw, encoding="utf-8", errors="backslashreplace", line_buffering=True
                    )
                except OSError:
                    _stream = None
            if _stream is None:
                _stream = sys.__stderr__ or io.StringIO()
        return _stream


class ServerLogHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler writing to :func:`server_log_stream`."""

    def __init__(self, level: int = logging.NOTSET) -> None:
        super().__init__(server_log_stream())
        self.setLevel(level)
        self.setFormatter(logging.Formatter("[%(name)s] %(levelname)s | %(message)s"))


class BrowserConsoleHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Pyodide only (the static site): records below WARNING go to the browser's
    ``console.log`` (Pyodide's ``sys.__stdout__``); from WARNING up they stay on
    :func:`server_log_stream` (``console.error``), which is kept for what went wrong."""

    def __init__(self) -> None:
        super().__init__(sys.__stdout__ or io.StringIO())
        self.addFilter(lambda record: record.levelno < logging.WARNING)
        self.setFormatter(logging.Formatter("[%(name)s] %(levelname)s | %(message)s"))


def _in_kernel() -> bool:
    shell = _shell()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _shell() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    return get_ipython()


def _route_logs() -> None:
    # py.warnings: logging.captureWarnings sends warnings there (and would give it a
    # NullHandler, bypassing the last resort)
    for name in (*LOGGERS, "py.warnings"):
        logger = logging.getLogger(name)
        if not any(isinstance(h, ServerLogHandler) for h in logger.handlers):
            if sys.platform == "emscripten":
                logger.addHandler(ServerLogHandler(logging.WARNING))
                logger.addHandler(BrowserConsoleHandler())
            else:
                logger.addHandler(ServerLogHandler())
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.INFO)
        # The root logger may be given a handler on the page's streams: do not propagate.
        logger.propagate = False
    if not isinstance(logging.lastResort, ServerLogHandler):
        logging.lastResort = ServerLogHandler(logging.WARNING)
    logging.captureWarnings(True)
    threading.excepthook = _thread_exception


def _thread_exception(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return
    log.error(
        "uncaught exception in thread %s",
        args.thread.name if args.thread else "?",
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),  # type: ignore[arg-type]
    )


class _QuietShell:
    """What ipywidgets' widget module sees as ``get_ipython()``: tracebacks go to the log."""

    def showtraceback(self, *args: object, **kwargs: object) -> None:
        log.error("a widget handler failed", exc_info=sys.exc_info())


_QUIET: Final = _QuietShell()


def _quiet_get_ipython() -> _QuietShell:
    return _QUIET


def _quiet_widget_tracebacks() -> None:
    # ipywidgets 8.1's widget.py uses get_ipython() only to show a callback's or a message
    # handler's traceback (CallbackDispatcher.__call__ and _show_traceback).
    from ipywidgets.widgets import widget

    widget.get_ipython = _quiet_get_ipython


def refuse_widget_comm(comm: Any, msg: object) -> None:
    """The ``jupyter.widget`` comm target: a widget opened from the browser is closed at
    once; nothing is created in the kernel."""
    try:
        comm.close()
    except Exception:
        log.warning("could not close a refused widget comm", exc_info=True)
    log.debug("refused a widget comm opened by the browser")


MAX_CONTROL_COMMS: Final = 4
"""Control comms (``jupyter.widget.control``) a kernel keeps open at once."""

_control_comms: list[Any] = []


def bounded_control_comm(comm: Any, msg: dict[str, Any]) -> None:
    """The ``jupyter.widget.control`` comm target: ipywidgets' own, after closing the oldest
    open control comms beyond :data:`MAX_CONTROL_COMMS` (ipywidgets answers on the newest
    only; a closed comm leaves the comm manager)."""
    from ipywidgets import Widget

    _control_comms[:] = [c for c in _control_comms if not getattr(c, "_closed", False)]
    while len(_control_comms) >= MAX_CONTROL_COMMS:
        oldest = _control_comms.pop(0)
        try:
            oldest.close()
        except Exception:
            log.warning("could not close an old control comm", exc_info=True)
    _control_comms.append(comm)
    Widget.handle_control_comm_opened(comm, msg)


def _refuse_browser_widgets() -> None:
    import comm
    import ipywidgets  # registers its targets on import (in a kernel): then we replace them

    manager = comm.get_comm_manager()
    if manager is not None and manager.targets.get("jupyter.widget") is not refuse_widget_comm:
        ipywidgets.register_comm_target()  # the control target, in case it was never set
        manager.register_target("jupyter.widget", refuse_widget_comm)
    if manager is not None:
        manager.register_target("jupyter.widget.control", bounded_control_comm)


RATE: Final = 20.0
"""Browser messages a second a kernel handles, once a burst is spent."""
BURST: Final = 50
"""Browser messages a kernel handles at once (a page opening sends a handful)."""


class RateLimit:
    """A token bucket: :meth:`allow` says whether one more message may be handled now; at
    most ``burst`` at once, refilled at ``rate`` a second. ``enabled`` false lets all pass."""

    def __init__(
        self,
        rate: float = RATE,
        burst: int = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.enabled = True
        self.dropped = 0
        """Messages dropped so far (all bursts)."""
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()
        self._dropping = False
        self._lock = threading.Lock()

    def allow(self) -> bool:
        """One message more now? Never raises. The first drop of a burst is logged; the burst
        ends when the bucket is full again (no message for ``burst / rate`` seconds)."""
        if not self.enabled:
            return True
        with self._lock:
            now = self._clock()
            elapsed = max(0.0, now - self._at)
            self._at = now
            self._tokens = min(float(self.burst), self._tokens + elapsed * self.rate)
            if self._tokens >= self.burst:
                self._dropping = False  # the bucket refilled: a later drop is a new burst
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return True
            self.dropped += 1
            first = not self._dropping
            self._dropping = True
        if first:
            log.warning(
                "browser messages beyond %g a second (burst %d): dropping them until they stop "
                "(%d dropped in this kernel so far)",
                self.rate,
                self.burst,
                self.dropped,
            )
        return False


MESSAGE_LIMIT: Final = RateLimit()
"""The kernel's one bucket for every browser message (see the module docstring)."""

_LIMITED: Final = "_durak_rate_limited"


def _limited(handler: Callable[..., Any]) -> Callable[..., Any]:
    if getattr(handler, _LIMITED, False):
        return handler

    def limited(*args: Any, **kwargs: Any) -> Any:
        try:
            allowed = MESSAGE_LIMIT.allow()
        except Exception:  # pragma: no cover - allow() does not raise; never block on a bug
            allowed = True
        if not allowed:
            return None
        return handler(*args, **kwargs)

    setattr(limited, _LIMITED, True)
    return limited


#: The comm messages a browser sends a kernel, all behind :data:`MESSAGE_LIMIT`.
_COMM_MESSAGES: Final = ("comm_open", "comm_msg", "comm_close")


def limit_browser_messages() -> None:
    """Put :data:`MESSAGE_LIMIT` in front of every comm message from the browser (open,
    message, close): the comm manager's handlers and, in a kernel, the shell's. Idempotent."""
    import comm

    manager = comm.get_comm_manager()
    if manager is None:
        return
    shell = _shell()
    handlers = getattr(getattr(shell, "kernel", None), "shell_handlers", None)
    for name in _COMM_MESSAGES:
        current = getattr(manager, name)
        wrapped = _limited(current)
        if wrapped is not current:
            setattr(manager, name, wrapped)
        if isinstance(handlers, dict) and handlers.get(name) is not None:
            handlers[name] = _limited(handlers[name])


REFUSED_QUIET: Final = 10.0
"""Seconds without a refused page change that end a burst of them (for the log)."""
_REFUSED_PAGE: Final = "refused a page change"


class OncePerBurst(logging.Filter):
    """Lets through the first record of a burst whose message starts with ``prefix``; the
    others are counted, not logged, until ``quiet`` seconds pass without one. The first
    record of the next burst then carries the count. Other records pass untouched."""

    def __init__(
        self, prefix: str, quiet: float = REFUSED_QUIET, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.prefix = prefix
        self.quiet = quiet
        self.suppressed = 0
        """Records not logged in the current burst (the next burst's first line says so)."""
        self._clock = clock
        self._last: float | None = None
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str) or not record.msg.startswith(self.prefix):
            return True
        with self._lock:
            now = self._clock()
            last, self._last = self._last, now
            if last is not None and 0 <= now - last < self.quiet:
                self.suppressed += 1
                return False
            before, self.suppressed = self.suppressed, 0
        if before:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.msg = f"{record.msg} (%d more in the burst before, not logged)"
            record.args = (*args, before)
        return True


def _refused_pages_once_per_burst() -> None:
    logger = logging.getLogger("tutorial.pages")
    if not any(isinstance(f, OncePerBurst) for f in logger.filters):
        logger.addFilter(OncePerBurst(_REFUSED_PAGE))


def harden_kernel() -> None:
    """Make this kernel safe to serve a page (see the module docstring). Idempotent.

    In a plain Python process (tests, scripts) only the widget traceback and comm target
    changes apply; logging is left alone there.
    """
    if _in_kernel():
        _route_logs()
    _quiet_widget_tracebacks()
    _refuse_browser_widgets()
    limit_browser_messages()
    _refused_pages_once_per_burst()
