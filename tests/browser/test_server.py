"""durak_server's HTTP surface, against the real server: redirects, 404s instead of 500s,
private notebooks, the kernel cap's 503 page, the shutdown endpoint's cross-site protection,
and pages served from the pool of pre-started kernels."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from durak_server.notices import RETRY_AFTER
from tutorial.i18n import translator

from .harness import VoilaServer, kernel_id_of, render_path
from .harness import http_request as request

FULL_TITLE = "The explainer is full right now"
NOT_FOUND_TITLE = "Page not found"
PREHEATED = re.compile(r"Using pre-heated kernel: ([0-9a-f-]{36})")


@pytest.fixture(scope="module")
def capped_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """No pool, at most one kernel."""
    log = tmp_path_factory.mktemp("capped") / "server.log"
    with VoilaServer(log_path=log, extra_args=["--classroom=0", "--max-kernels=1"]) as server:
        yield server


@pytest.fixture(scope="module")
def pooled_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """A pool of two that does not refill during the test."""
    log = tmp_path_factory.mktemp("pooled") / "server.log"
    args = ["--classroom=2", "--DurakServer.refill_delay=3600"]
    with VoilaServer(log_path=log, extra_args=args) as server:
        yield server


# ------------------------------------------------------------------ redirects and stray URLs


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/voila/tree",
        "/voila/tree/sub/x.ipynb",
        "/voila/",
        "/voila/render/",
        "/login",
        "/logout",
    ],
)
def test_entry_urls_redirect_to_the_index_keeping_lang(
    voila_server: VoilaServer, path: str
) -> None:
    status, headers, _ = request(voila_server, path + "?lang=ru")
    assert status == 302
    assert headers["location"] == "/voila/render/index.ipynb?lang=ru"
    status, headers, _ = request(voila_server, path)
    assert (status, headers["location"]) == (302, "/voila/render/index.ipynb")


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/nonexistent", "GET"),
        ("/api", "GET"),
        ("/api/kernels", "GET"),
        ("/api/sessions", "GET"),
        ("/voila/api/contents", "GET"),
        ("/voila/render/nope.ipynb", "GET"),
        ("/static/favicon.ico", "GET"),
        ("/tree", "GET"),
        ("/nonexistent", "POST"),
        ("/logout", "POST"),
    ],
)
def test_stray_urls_never_answer_500(voila_server: VoilaServer, path: str, method: str) -> None:
    status, _, body = request(voila_server, path, method=method)
    assert status in (302, 403, 404), (status, body[:300])
    if status == 404 and method == "GET":
        assert translator("es").gettext(NOT_FOUND_TITLE) in body  # Spanish by default
        assert 'href="/voila/render/index.ipynb"' in body


#: Where odd paths are tried: every kind of handler the server has (no real notebook name is
#: among the tails, so no kernel starts).
FUZZ_PREFIXES = (
    "/", "/voila/", "/voila/render/", "/voila/static/", "/voila/templates/",
    "/voila/templates/lab/static/", "/voila/api/themes/", "/voila/labextensions/",
    "/voila/files/", "/voila/api/shutdown/", "/api/kernels/", "/static/", "/login/",
    "/voila/tree/",
)  # fmt: skip
FUZZ_TAILS = (
    "", "x", "..", "../app.py", "..%2f..%2fapp.py", "%2e%2e/%2e%2e/etc/passwd", "%2e%2e%2fx",
    "%00", "x%00.py", "index.ipynb%00.py", "%ff", "%c3%28.ipynb", "%5c..%5capp.py", "a\\b",
    "a/b/../../c", "%252e%252e/x", "index.ipynb/", "lab/", "x.css", "a" * 300,
    "%e2%80%ae.ipynb", ".ipynb_checkpoints/x", "%0d%0aSet-Cookie:%20x=1", ";x", "x?lang=%ff",
    "x?lang=" + "y" * 40, "%", "%zz", "//x", "x/./y",
)  # fmt: skip


def test_a_few_hundred_odd_paths_get_no_500_and_log_no_traceback(
    voila_server: VoilaServer,
) -> None:
    """security-2026-12-01 finding 7: a NUL in a notebook name, ``..%2f`` or a bare folder under
    ``/voila/templates``, and 404s whose error page needed a missing setting answered 500 or
    logged ~40 lines of traceback each."""
    logged_before = voila_server.log_path.stat().st_size
    answers: dict[str, int] = {}
    for prefix in FUZZ_PREFIXES:
        for tail in FUZZ_TAILS:
            path = prefix + tail
            status, _, body = request(voila_server, path)
            answers[path] = status
            assert status != 500 and status < 600, (path, status, body[:300])
    for path in ("/voila/render/x%00.ipynb", "/voila/api/themes/x", "/nope"):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            status, _, body = request(voila_server, path, method=method, body="")
            assert status != 500, (method, path, status, body[:300])
    time.sleep(0.5)  # the server's log is written by another process
    with voila_server.log_path.open("rb") as log:
        log.seek(logged_before)
        new = log.read().decode("utf-8", "replace")
    assert "Traceback" not in new and "Uncaught exception" not in new, new[-3000:]
    assert len(answers) == len(FUZZ_PREFIXES) * len(FUZZ_TAILS) >= 400
    assert answers["/voila/render/index.ipynb%00.py"] == 404
    assert answers["/voila/templates/lab/static/"] == 404


def test_not_found_page_speaks_the_learners_language(voila_server: VoilaServer) -> None:
    _, _, body = request(voila_server, "/no/such/page?lang=ru")
    assert translator("ru").gettext(NOT_FOUND_TITLE) in body
    assert 'href="/voila/render/index.ipynb?lang=ru"' in body
    _, _, body = request(voila_server, "/no/such/page", headers={"Accept-Language": "en-GB"})
    assert '<html lang="en">' in body


@pytest.mark.parametrize("name", ["_shell.ipynb", ".hidden.ipynb", "_smoke.ipynb"])
def test_private_notebooks_are_not_rendered(voila_server: VoilaServer, name: str) -> None:
    assert voila_server.root is not None
    assert (Path(voila_server.root) / "_shell.ipynb").is_file()  # served tree has the shell
    before = voila_server.log_text().count("Kernel started")
    status, _, body = request(voila_server, render_path(name, "en"))
    assert status == 404
    assert translator("en").gettext(NOT_FOUND_TITLE) in body
    assert voila_server.log_text().count("Kernel started") == before


# ------------------------------------------------------------------ one client, many pages


def get_from(server: VoilaServer, source: str, path: str) -> int:
    """A plain GET (no browser: nothing ever connects to its kernel) from address ``source``."""
    return fetch_from(server, source, path)[0]


def fetch_from(server: VoilaServer, source: str, path: str) -> tuple[int, str]:
    """A plain GET from address ``source``: its status and body."""
    import http.client

    connection = http.client.HTTPConnection(
        server.host, server.port, timeout=120, source_address=(source, 0)
    )
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def test_plain_gets_from_one_client_leave_room_for_another(tmp_path: Path) -> None:
    """security-2026-12-01 finding 3: 35 plain GETs filled the kernel cap and everyone else got
    "full" for ~150 s. Now one address may hold only a few kernels whose page never connected,
    and those are shut down after ``connect_timeout``."""
    from concurrent.futures import ThreadPoolExecutor

    args = [
        "--classroom=0", "--max-kernels=10", "--DurakServer.connect_timeout=4",
        "--DurakServer.max_waiting_per_address=3",
    ]  # fmt: skip
    page = render_path("01-beating.ipynb", "es")
    with VoilaServer(log_path=tmp_path / "server.log", extra_args=args) as server:
        with ThreadPoolExecutor(6) as pool:  # a burst: all six arrive before any kernel runs
            first = sorted(pool.map(lambda _: get_from(server, "127.0.0.1", page), range(6)))
        assert first == [200, 200, 200, 503, 503, 503], (first, server.log_text()[-4000:])
        assert get_from(server, "127.0.0.2", page) == 200  # another client still gets in
        deadline = time.monotonic() + 60
        while server.log_text().count("did not connect within") < 3:
            assert time.monotonic() < deadline, server.log_text()[-3000:]
            time.sleep(0.5)
        assert get_from(server, "127.0.0.1", page) == 200  # its stale kernels are gone


def test_a_silent_websocket_does_not_hold_its_kernel(tmp_path: Path) -> None:
    """security-2026-12-01 finding 3: a kernel whose websocket was open but silent was never
    culled. Now a connected kernel goes too once silent for ``cull_idle_timeout`` (a real
    page's heartbeat keeps it active); here the timeout is seconds, not minutes."""
    import asyncio

    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    args = [
        "--classroom=0", "--MappingKernelManager.cull_idle_timeout=4",
        "--MappingKernelManager.cull_interval=1",
    ]  # fmt: skip
    with VoilaServer(log_path=tmp_path / "server.log", extra_args=args) as server:
        status, _, html = request(server, render_path("01-beating.ipynb", "es"))
        assert status == 200
        kernel_id = kernel_id_of(html)

        async def hold_silently() -> None:
            url = f"ws://{server.host}:{server.port}/api/kernels/{kernel_id}/channels"
            origin = f"http://{server.host}:{server.port}"
            socket = await websocket_connect(HTTPRequest(url, headers={"Origin": origin}))
            try:
                deadline = time.monotonic() + 60
                while f"Kernel shutdown: {kernel_id}" not in server.log_text():
                    assert time.monotonic() < deadline, server.log_text()[-3000:]
                    await asyncio.sleep(0.5)
            finally:
                socket.close()

        asyncio.run(hold_silently())
        assert re.search(
            rf"Culling .* kernel .*\({kernel_id}\) with 1 connections", server.log_text()
        )


def test_fifty_pages_holding_silent_websockets_leave_room_for_another_client(
    tmp_path: Path,
) -> None:
    """security-2026-12-01 finding 3 (issue 19, item 3): one client opens 50 pages and holds
    every kernel's websocket open and silent. It gets a few kernels (``max_kernels_per_address``)
    and then the "too many pages" page in its language; a second client still gets a lesson."""
    import asyncio

    from tornado.httpclient import HTTPRequest
    from tornado.websocket import WebSocketClientConnection, websocket_connect

    args = [
        "--classroom=0", "--max-kernels=12", "--DurakServer.max_kernels_per_address=3",
    ]  # fmt: skip
    page = render_path("01-beating.ipynb", "ru")
    with VoilaServer(log_path=tmp_path / "server.log", extra_args=args) as server:
        origin = f"http://{server.host}:{server.port}"

        async def one_client() -> tuple[list[int], str, int]:
            loop = asyncio.get_running_loop()
            sockets: list[WebSocketClientConnection] = []
            statuses, refused = [], ""
            try:
                for _ in range(50):
                    status, html = await loop.run_in_executor(
                        None, fetch_from, server, "127.0.0.1", page
                    )
                    statuses.append(status)
                    if status == 200:
                        url = f"ws://{server.host}:{server.port}/api/kernels/"
                        url += f"{kernel_id_of(html)}/channels"
                        request = HTTPRequest(url, headers={"Origin": origin})
                        sockets.append(await websocket_connect(request))
                    else:
                        refused = html
                # every socket still open and silent: another client is served
                other = await loop.run_in_executor(None, get_from, server, "127.0.0.2", page)
            finally:
                for socket in sockets:
                    socket.close()
            return statuses, refused, other

        statuses, refused, other = asyncio.run(one_client())
        assert statuses == [200] * 3 + [503] * 47, server.log_text()[-3000:]
        assert translator("ru").gettext("Too many pages open from your connection") in refused
        assert other == 200
        assert server.log_text().count("Kernel started") == 4


# ------------------------------------------------------------------ the kernel cap


@pytest.mark.parametrize(
    ("query", "accept", "language"),
    [
        ("?lang=es", None, "es"),
        ("?lang=en", "ru", "en"),
        ("?lang=ru", None, "ru"),
        ("", "ru-RU,ru;q=0.9,en;q=0.5", "ru"),
        ("", "de-DE, en;q=0.8", "en"),
        ("", None, "es"),
        ("?lang=xx", "fr", "es"),
    ],
)
def test_beyond_the_cap_a_localized_503_and_no_kernel(
    capped_server: VoilaServer, query: str, accept: str | None, language: str
) -> None:
    if not capped_server.kernel_pids():
        status, _, html = request(capped_server, "/voila/render/smoke.ipynb")
        assert status == 200 and kernel_id_of(html)
    assert len(capped_server.wait_for_kernels(1)) == 1
    started = capped_server.log_text().count("Kernel started")

    headers = {"Accept-Language": accept} if accept else {}
    status, got, body = request(capped_server, "/voila/render/empty.ipynb" + query, headers=headers)

    assert status == 503
    assert got["retry-after"] == str(RETRY_AFTER)
    tr = translator(language)
    assert f'<html lang="{language}">' in body
    assert tr.gettext(FULL_TITLE) in body
    assert tr.gettext("Try again now") in body
    assert f'http-equiv="refresh" content="{RETRY_AFTER};' in body  # retries by itself
    assert "<script" not in body and "http://" not in body and "https://" not in body
    assert capped_server.log_text().count("Kernel started") == started
    assert len(capped_server.kernel_pids()) == 1


def test_a_freed_slot_is_usable_again(capped_server: VoilaServer) -> None:
    status, _, html = request(capped_server, "/voila/render/smoke.ipynb")
    if status == 503:  # the module's first test left its kernel: free it through the API
        for line in re.findall(r"Kernel started: ([0-9a-f-]{36})", capped_server.log_text()):
            capped_server.shutdown_kernel(line)
        assert capped_server.wait_for_kernels(0) == []
        status, _, html = request(capped_server, "/voila/render/smoke.ipynb")
    assert status == 200
    assert capped_server.shutdown_kernel(kernel_id_of(html))
    assert capped_server.wait_for_kernels(0) == []


# ------------------------------------------------------------------ shutdown endpoint


def test_shutdown_needs_the_pages_xsrf_token(voila_server: VoilaServer) -> None:
    status, headers, html = request(voila_server, render_path("empty.ipynb"))
    assert status == 200
    kernel_id = kernel_id_of(html)
    cookie = re.search(r"_xsrf=([^;]+)", headers.get("set-cookie", ""))
    assert cookie, "the rendered page must set the _xsrf cookie (Voilà's beacon reads it)"
    token = cookie.group(1)
    path = f"/voila/api/shutdown/{kernel_id}"
    form = {"Content-Type": "application/x-www-form-urlencoded"}

    # Cross-site: no cookie, no token (a plain form from another site, or curl).
    assert request(voila_server, path, "POST", form, "")[0] == 403
    assert (
        request(voila_server, path, "POST", {**form, "Origin": "http://evil.example"}, "")[0] == 403
    )
    # A token that does not match the cookie.
    forged = {**form, "Cookie": f"_xsrf={token}"}
    assert request(voila_server, path, "POST", forged, "_xsrf=forged")[0] == 403
    assert kernel_id in voila_server.log_text()
    status, _, _ = request(voila_server, f"/api/kernels/{kernel_id}")
    assert status == 200  # still alive

    # What Voilà's page sends: the cookie's value as the form field.
    status, _, _ = request(voila_server, path, "POST", forged, f"_xsrf={token}")
    assert status == 204
    assert request(voila_server, f"/api/kernels/{kernel_id}")[0] == 404


# ------------------------------------------------------------------ the pool


def test_pages_are_served_from_the_pool(pooled_server: VoilaServer) -> None:
    filled = "Kernel pool of _shell.ipynb is filled with 2 kernel(s)"
    deadline = time.monotonic() + 120
    while filled not in pooled_server.log_text():
        assert time.monotonic() < deadline, pooled_server.log_tail()
        time.sleep(0.2)
    assert len(pooled_server.kernel_pids()) == 2

    # Two learners open lesson 3: both get a pre-started kernel (no kernel starts for them).
    started = pooled_server.log_text().count("Kernel started")
    first = kernel_id_of(request(pooled_server, render_path("03-growing-round.ipynb", "ru"))[2])
    second = kernel_id_of(request(pooled_server, render_path("03-growing-round.ipynb", "en"))[2])
    assert PREHEATED.findall(pooled_server.log_text()) == [first, second]
    assert pooled_server.log_text().count("Kernel started") == started

    # The pool is empty now (it does not refill in this test): the next page starts cold,
    # and a test notebook (not a page) never comes from the pool.
    cold = [render_path("index.ipynb", "es"), render_path("smoke.ipynb", "es")]
    cold_ids = [kernel_id_of(request(pooled_server, path)[2]) for path in cold]
    assert PREHEATED.findall(pooled_server.log_text()) == [first, second]
    assert pooled_server.log_text().count("Kernel started") == started + 2
    for kernel_id in (first, second, *cold_ids):
        assert pooled_server.shutdown_kernel(kernel_id)


def test_the_pool_stays_within_the_cap(tmp_path: Path) -> None:
    """classroom=3 but max_kernels=2: the pool holds 2; a page still comes from it, and the
    next new kernel would be one too many."""
    args = ["--classroom=3", "--max-kernels=2", "--DurakServer.refill_delay=0"]
    with VoilaServer(log_path=tmp_path / "server.log", extra_args=args) as server:
        deadline = time.monotonic() + 120
        while "Kernel cap reached: the pool waits" not in server.log_text():
            assert time.monotonic() < deadline, server.log_tail()
            time.sleep(0.2)
        assert len(server.kernel_pids()) == 2

        status, _, html = request(server, render_path("index.ipynb", "ru"))
        assert status == 200
        assert PREHEATED.findall(server.log_text()) == [kernel_id_of(html)]
        status, _, body = request(server, render_path("smoke.ipynb", "ru"))
        assert status == 503
        assert translator("ru").gettext(FULL_TITLE) in body
        assert len(server.kernel_pids()) == 2
