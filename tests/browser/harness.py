"""Server + Playwright harness shared by the browser tests and ``benchmarks/voila_render.py``.

* :class:`VoilaServer` runs ``python -m durak_server`` exactly as ``script/server`` does
  (standalone Voilà with ``voila.json`` from the repository root) on a free port of 127.0.0.1,
  in its own process group, logging to a file. It serves a test root assembled in a temporary
  directory (:func:`assemble_root`): copies of ``notebooks/*.ipynb`` plus the test-only
  notebooks of ``tests/data/notebooks/``. :meth:`VoilaServer.kernel_pids` lists its live
  kernels (from ``/proc``: Voilà exposes no kernel list), :func:`pss_kib` their memory.
* :func:`launch_chromium` starts Debian's ``/usr/bin/chromium`` through Playwright (no browser
  download); :func:`new_context` gives an isolated context whose relative URLs go to the server
  and whose requests to other hosts are blocked and recorded.
* :class:`BrowserLog` collects console errors, uncaught page errors and blocked requests.
* :func:`open_notebook` loads ``/voila/render/<name>?lang=..`` and waits for the first widget;
  :func:`screenshot` saves a PNG under ``test-artifacts/screenshots/``.

Playwright is imported lazily so that importing this module costs nothing.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Locator,
        Page,
        Playwright,
        Route,
        ViewportSize,
        WebSocket,
    )

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
#: Notebooks only the tests serve (``smoke``, ``empty``, ``stderr``), next to the site's own.
TEST_NOTEBOOKS = REPO / "tests" / "data" / "notebooks"
ARTIFACTS = REPO / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",  # we run as root (CI and dev containers)
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

#: Context options every test page gets unless it is about motion: the page prefers reduced
#: motion, so the table's endless pulses (the acting seat's dot, a hinted card's glow) stop.
#: Chromium repaints them every frame in software: 0.26 s of CPU per second a lesson page is
#: open, against 0.007 s without them (measured on the 2-core CI machine, 2026-12-07).
QUIET: dict[str, Any] = {"reduced_motion": "reduce"}

#: The window of a new context (a laptop), unless a test asks for another size.
DEFAULT_VIEWPORT: ViewportSize = {"width": 1280, "height": 800}

#: What Voilà prints instead of a traceback when a cell fails (``show_tracebacks`` is false).
CELL_ERROR = "There was an error when executing cell"
#: The first widget view on a page (ipywidgets 8 gives every view this class).
FIRST_WIDGET = ".jupyter-widgets"

#: Console errors the server itself causes, ignored (none: durak_server accepts Voilà's
#: shutdown beacon, which Voilà alone refused with 403, voila-dashboards/voila#1458).
KNOWN_CONSOLE_ERRORS: tuple[re.Pattern[str], ...] = ()
_KERNEL_CHANNELS = re.compile(r"/api/kernels/([0-9a-f-]{36})/channels")
_EXTERNAL_URL = re.compile(r"^(?:https?|wss?)://(?!(?:127\.0\.0\.1|localhost|\[::1\])(?:[:/]|$))")


def chromium_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or ``None`` when they can."""
    if CHROMIUM.exists():
        return None
    return (
        f"{CHROMIUM} not found: the browser tests drive Debian's Chromium through Playwright. "
        "Install it with `apt-get install chromium` (.ci/run does this on CI)."
    )


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (Voilà is started with ``port_retries=0``, so a
    lost race fails loudly instead of silently serving elsewhere)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def server_command(
    port: int, host: str = "127.0.0.1", extra: Sequence[str] = (), root: Path = NOTEBOOKS
) -> list[str]:
    """``python -m durak_server ROOT ...``, with the same arguments ``script/server`` passes,
    run by this interpreter (the venv's), so kernels run the venv's Python too."""
    return [
        sys.executable,
        "-m",
        "durak_server",
        str(root),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        "--base_url=/",
        "--Voila.port_retries=0",
        # voila.json is read from here only (not from ~/.jupyter or /etc/jupyter).
        f"--Voila.config_file_paths={REPO}",
        *extra,
    ]


def assemble_root(dest: Path) -> Path:
    """Fill ``dest`` with what the test server serves: ``notebooks/*.ipynb`` (the site, its
    ``_shell`` included) and ``tests/data/notebooks/*.ipynb``; returns ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    for source in (NOTEBOOKS, TEST_NOTEBOOKS):
        for path in sorted(source.glob("*.ipynb")):
            shutil.copyfile(path, dest / path.name)
    return dest


def pss_kib(pid: int) -> int:
    """Proportional set size of a process in KiB (``/proc/<pid>/smaps_rollup``), 0 if gone."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    found = re.search(r"^Pss:\s+(\d+) kB", text, re.MULTILINE)
    return int(found.group(1)) if found else 0


def child_kernel_pids(parent: int) -> list[int]:
    """Pids of the ipykernel processes whose parent is ``parent`` (Linux ``/proc``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"ipykernel" in cmdline:
            found.append(int(entry.name))
    return sorted(found)


def _die_with_parent() -> None:
    """In the child before exec: get SIGTERM when the parent dies, so a killed test run
    (timeout, ``kill``) does not leave Voilà and its kernels behind. Linux only."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


def stop_process_group(process: subprocess.Popen[bytes] | None, timeout: float = 15.0) -> None:
    """SIGTERM to ``process``'s group (a server then shuts its kernels down), SIGKILL if it
    lingers; nothing when it has already exited."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


@dataclass
class VoilaServer:
    """``python -m durak_server`` (standalone Voilà) on ``host:port``, as a process group.

    ``root`` is the directory served; by default a temporary :func:`assemble_root`, removed
    by :meth:`stop`. ``extra_args`` go to the server after the usual ones, e.g.
    ``["--classroom=0", "--max-kernels=3"]``. Use as a context manager, or call :meth:`start`
    and :meth:`stop`.
    """

    port: int = field(default_factory=free_port)
    host: str = "127.0.0.1"
    log_path: Path = field(default_factory=lambda: ARTIFACTS / "voila.log")
    extra_args: Sequence[str] = ()
    root: Path | None = None
    startup_timeout: float = 60.0
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _own_root: Path | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        """The server root, without a trailing slash: ``http://127.0.0.1:PORT``."""
        return f"http://{self.host}:{self.port}"

    def render_url(self, name: str, lang: str | None = None, **query: str) -> str:
        return self.url + render_path(name, lang, **query)

    def start(self) -> VoilaServer:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        if self.root is None:
            self._own_root = Path(tempfile.mkdtemp(prefix="durak-root-"))
            self.root = assemble_root(self._own_root)
        command = server_command(self.port, self.host, self.extra_args, self.root)
        with open(self.log_path, "wb") as log:
            log.write(("$ " + " ".join(command) + "\n").encode())
            log.flush()
            self.process = subprocess.Popen(
                command,
                cwd=REPO,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() signals the group
                preexec_fn=_die_with_parent,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        self._wait_until_ready()
        return self

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"Voilà exited with code {self.process.returncode} while starting:\n"
                    + self.log_tail()
                )
            # Any answer will do, and "/" is only a redirect: following it would start a kernel.
            connection = http.client.HTTPConnection(self.host, self.port, timeout=2)
            try:
                connection.request("GET", "/")
                if connection.getresponse().status < 500:
                    return
            except (OSError, http.client.HTTPException):
                pass
            finally:
                connection.close()
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"Voilà did not answer on {self.url} within {self.startup_timeout:.0f} s:\n"
                    + self.log_tail()
                )
            time.sleep(0.1)

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM to the process group (Voilà then shuts its kernels down), SIGKILL if it
        lingers. Kernels live in their own sessions but exit when Voilà dies (their parent
        poller), so nothing outlives the server."""
        process, self.process = self.process, None
        own_root, self._own_root = self._own_root, None
        if own_root is not None:
            self.root = None
            shutil.rmtree(own_root, ignore_errors=True)
        stop_process_group(process, timeout)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def kernel_pid(self, kernel_id: str) -> int:
        """The pid of the live kernel with this id (its connection file is named by it)."""
        for pid in self.kernel_pids():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if f"kernel-{kernel_id}".encode() in cmdline:
                return pid
        raise AssertionError(f"no live kernel process for {kernel_id}")

    def kernel_pids(self) -> list[int]:
        """Pids of the server's live kernels (pooled ones included)."""
        return [] if self.process is None else child_kernel_pids(self.process.pid)

    def wait_for_kernels(self, count: int, timeout: float = 30.0) -> list[int]:
        """Wait until exactly ``count`` kernels live; returns their pids (the last ones seen
        if the timeout passes first)."""
        deadline = time.monotonic() + timeout
        while True:
            pids = self.kernel_pids()
            if len(pids) == count or time.monotonic() > deadline:
                return pids
            time.sleep(0.2)

    def shutdown_kernel(self, kernel_id: str) -> bool:
        """Stop one kernel now (``DELETE /api/kernels/<id>``), without waiting for the page's
        own ``beforeunload`` beacon. Jupyter Server wants an XSRF token: the double-submit
        form (the same value as cookie and header) satisfies it. False if it was gone already.
        """
        request = urllib.request.Request(
            f"{self.url}/api/kernels/{kernel_id}",
            method="DELETE",
            headers={"Cookie": "_xsrf=harness", "X-XSRFToken": "harness"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30):
                return True
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return False
            raise

    def __enter__(self) -> VoilaServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def http_request(
    server: VoilaServer,
    path: str,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: str | None = None,
) -> tuple[int, dict[str, str], str]:
    """One HTTP request, redirects not followed: (status, headers, body)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=120)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text
    finally:
        connection.close()


def kernel_id_of(html: str) -> str:
    """The kernel id in a rendered page's ``jupyter-config-data``."""
    found = re.search(
        r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.DOTALL
    )
    assert found, "no page config in the rendered page"
    kernel_id: str = json.loads(found.group(1))["kernelId"]
    return kernel_id


def render_path(name: str, lang: str | None = None, **query: str) -> str:
    """``/voila/render/<name>?lang=<lang>&...`` (``name`` relative to the served root)."""
    params = {"lang": lang, **query} if lang is not None else dict(query)
    path = "/voila/render/" + quote(name)
    return path + ("?" + urlencode(params) if params else "")


# ----------------------------------------------------------------------------------- browser


def launch_chromium(playwright: Playwright, **kwargs: Any) -> Browser:
    """Debian's Chromium, headless. Playwright gives each launch a fresh temporary profile
    (user-data dir) and deletes it on close; every test then gets its own context."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS), **kwargs
    )


class SharedChromium:
    """One Chromium (and its sync Playwright) for the browser tests of one pytest process,
    launched on first use and kept from module to module: a launch costs about a second of CPU
    (Playwright's driver and Chromium's own processes), and a run has some twenty modules that
    use it. :meth:`stop` ends both before a module that does not use it, since a running sync
    Playwright leaves its event loop marked as running in the thread (code that paces moves on
    a running loop would then wait for it) and refuses a second sync Playwright
    (tests/browser/test_static_site.py starts its own)."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def get(self) -> Browser:
        if self._browser is None or not self._browser.is_connected():
            self.stop()
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            self._browser = launch_chromium(self._playwright)
        return self._browser

    def stop(self) -> None:
        browser, playwright = self._browser, self._playwright
        self._browser, self._playwright = None, None
        if browser is not None:
            with contextlib.suppress(Exception):  # a Chromium that died is closed already
                browser.close()
        if playwright is not None:
            playwright.stop()


#: The process's one :class:`SharedChromium` (tests/conftest.py stops it between modules).
SHARED_CHROMIUM = SharedChromium()


@dataclass
class BrowserLog:
    """What a context's pages reported: console messages, uncaught errors, blocked requests."""

    console: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    #: Ids of the kernels the pages connected to, in order (one per page load).
    kernels: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        """Everything that should fail a test: console errors, page errors, any request to
        another host (durak_server's page template asks none; issue 34)."""
        outside = [f"request to another host (blocked): {url}" for url in self.blocked]
        return [*self.console_errors, *self.page_errors, *outside]

    def assert_clean(self, ignore: Sequence[str | re.Pattern[str]] = ()) -> None:
        """Fail if any :attr:`errors` remain after dropping those matching ``ignore``."""
        patterns = [re.compile(re.escape(p)) if isinstance(p, str) else p for p in ignore]
        left = [e for e in self.errors if not any(p.search(e) for p in patterns)]
        assert not left, "browser errors:\n" + "\n".join(left)

    def clear(self) -> None:
        """Forget what was reported so far (not the kernels): the next test of a shared tab
        answers only for its own errors."""
        for entries in (self.console, self.console_errors, self.page_errors, self.blocked):
            entries.clear()

    def watch(self, page: Page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.page_errors.append(f"page error: {error}"))
        page.on("websocket", self._on_websocket)

    def _on_websocket(self, websocket: WebSocket) -> None:
        found = _KERNEL_CHANNELS.search(websocket.url)
        if found and found.group(1) not in self.kernels:
            self.kernels.append(found.group(1))

    def _on_console(self, message: ConsoleMessage) -> None:
        source = message.location.get("url", "") if message.location else ""
        line = f"console.{message.type}: {message.text}" + (f" ({source})" if source else "")
        self.console.append(line)
        if message.type == "error" and not any(p.search(line) for p in KNOWN_CONSOLE_ERRORS):
            self.console_errors.append(line)

    def block_outside_requests(self, context: BrowserContext) -> None:
        """Abort every request to a host other than the local server, and record it. The test
        machines have no internet anyway; blocking makes pages load the same everywhere."""

        def abort(route: Route) -> None:
            self.blocked.append(route.request.url)
            route.abort()

        context.route(_EXTERNAL_URL, abort)


def new_context(
    browser: Browser, base_url: str, **kwargs: Any
) -> tuple[BrowserContext, BrowserLog]:
    """A fresh context (own cookies, storage, cache) whose relative URLs go to ``base_url``,
    with outside requests blocked, and the :class:`BrowserLog` that watches its pages. Its
    pages prefer reduced motion (:data:`QUIET`) unless ``reduced_motion`` says otherwise."""
    options: dict[str, Any] = {"viewport": DEFAULT_VIEWPORT, **QUIET, **kwargs}
    context = browser.new_context(base_url=base_url, **options)
    log = BrowserLog()
    log.block_outside_requests(context)
    context.on("page", log.watch)
    return context, log


def close_context(context: BrowserContext, log: BrowserLog, server: VoilaServer) -> None:
    """Close the context, then stop the kernels its pages used (otherwise each lives until
    culled, ~60 MB apiece, and a long session piles them up)."""
    context.close()
    for kernel_id in log.kernels:
        server.shutdown_kernel(kernel_id)


def open_notebook(
    page: Page,
    name: str,
    lang: str | None = None,
    *,
    selector: str = FIRST_WIDGET,
    timeout: float = 60_000,
    allow_cell_errors: bool = False,
    **query: str,
) -> Locator:
    """Open ``/voila/render/<name>?lang=<lang>`` and wait until ``selector`` is visible.

    The page's context must have a ``base_url`` (see :func:`new_context`). Returns the first
    element matching ``selector``. Raises ``AssertionError`` at once if Voilà reports a failed
    cell (instead of waiting for a widget that will never come); the kernel's traceback is in
    the Voilà log (the ``page`` fixture prints its end with a failure; the whole log is copied
    to ``test-artifacts/voila.log`` after the session), and ``tests/test_notebooks.py`` shows it
    too.
    """
    page.goto(render_path(name, lang, **query), wait_until="commit", timeout=timeout)
    target = page.locator(selector).first
    failed = page.get_by_text(CELL_ERROR)
    target.or_(failed.first).first.wait_for(state="visible", timeout=timeout)
    # In non-progressive mode the whole HTML (every cell's output) has arrived before the first
    # widget is drawn, so a failed cell is visible by now.
    if not allow_cell_errors and failed.count():
        raise AssertionError(
            f"{name}: {failed.first.inner_text()} (the traceback is in the Voilà log)"
        )
    return target


#: Back/Forward to the address ``url`` (pushed first): the bridge's ``popstate`` handler asks
#: the tab's kernel for that page, as it does when a learner goes back. True if it did (the
#: page is marked as changing); false if the bridge left it to the browser (the same page).
_GO_IN_TAB = """url => {
    history.pushState({durak: true}, "", url);
    dispatchEvent(new PopStateEvent("popstate", {state: {durak: true}}));
    return document.documentElement.classList.contains("durak-navigating");
}"""

#: The page changed inside the tab is drawn: its own heading (not ``old``), its language.
_SHOWN_IN_TAB = """([old, lang]) => {
    const root = document.documentElement;
    const heading = document.querySelector(".durak-site h1");
    return !root.classList.contains("durak-navigating") && root.lang === lang
        && heading !== null && heading !== old && heading.isConnected;
}"""


@dataclass
class SiteTab:
    """One tab for the tests of a module that each show a page of the site and look at it.

    The first :meth:`show` loads its page; the next ones change page inside the tab, the way
    a learner's Back or a link does (tests/browser/test_site_navigation.py checks that the
    result is the page a load gives), so one kernel serves them all instead of a page load
    and a kernel each (a load costs about 3 s of Chromium's CPU and 1 s of a kernel's). To
    show the page already shown (another language, step or presenter mode), the tab goes by
    another page first, as Back would. After a failed test (:meth:`spoil`) the next one
    starts over in a fresh context."""

    browser: Browser
    server: VoilaServer
    context: BrowserContext | None = None
    log: BrowserLog = field(default_factory=BrowserLog)
    _page: Page | None = None

    @property
    def page(self) -> Page:
        if self._page is None or self._page.is_closed():
            self.close()
            self.context, self.log = new_context(self.browser, self.server.url)
            self._page = self.context.new_page()
            self._page.set_default_timeout(30_000)
        return self._page

    def begin(self) -> None:
        """A test starts: the size of window a new context has, and an empty log."""
        if self._page is not None and not self._page.is_closed():
            self._page.set_viewport_size(DEFAULT_VIEWPORT)
        self.log.clear()

    def show(
        self,
        name: str,
        lang: str,
        *,
        selector: str = FIRST_WIDGET,
        step: str | None = None,
        present: bool = False,
    ) -> Locator:
        """Show page ``name`` (``index.ipynb``) in ``lang`` (at ``step``, in presenter mode);
        returns its first ``selector``."""
        page = self.page
        query = {"step": step} if step is not None else {}
        if present:
            query["present"] = "1"
        on_site = page.url.startswith(self.server.url + "/voila/render/")
        if not on_site or page.query_selector(".durak-site h1") is None:
            return open_notebook(
                page,
                name,
                lang,
                selector=selector,
                timeout=60_000,
                allow_cell_errors=False,
                **query,
            )
        if page.url.split("?")[0].endswith("/" + quote(name)):
            self._go(render_path("sources.ipynb" if name == "index.ipynb" else "index.ipynb", lang))
        self._go(render_path(name, lang, **query))
        target = page.locator(selector).first
        target.wait_for(state="visible")
        return target

    def _go(self, path: str) -> None:
        page = self.page
        old = page.query_selector(".durak-site h1")
        lang = parse_qs(urlsplit(path).query)["lang"][0]
        assert page.evaluate(_GO_IN_TAB, self.server.url + path), f"{path}: not inside the tab"
        page.wait_for_function(_SHOWN_IN_TAB, arg=[old, lang], timeout=60_000)

    def spoil(self, test: str) -> Path | None:
        """The test ``test`` failed: keep a screenshot of its page (returns the path), and
        start the next test in a fresh context."""
        page, self._page = self._page, None
        if page is None or page.is_closed():
            return None
        path = screenshot(page, f"FAILED-{test}")
        page.close()
        return path

    def close(self) -> None:
        if self.context is not None:
            close_context(self.context, self.log, self.server)
        self.context, self._page = None, None


def screenshot(page: Page, name: str, *, full_page: bool = True) -> Path:
    """Save a PNG of the page as ``test-artifacts/screenshots/<name>.png``; returns the path."""
    safe = re.sub(r"[^\w.-]+", "_", name).strip("_") or "page"
    path = SCREENSHOTS / f"{safe}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)
    return path
