"""Leaving a page frees its kernel within seconds (Voilà's beforeunload beacon is accepted),
long before culling would: open and leave 20 pages in Chromium, then count live kernels.
Culling, the safety net, never takes the pool's kernels."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .harness import VoilaServer, kernel_id_of, new_context, open_notebook, render_path
from .harness import http_request as request

#: Pages visited in turn: lessons (served from the pool when it has a kernel) and a test page.
TOUR = ("smoke.ipynb", "01-beating.ipynb", "index.ipynb", "smoke.ipynb", "02-bout.ipynb")
POOL = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    log = tmp_path_factory.mktemp("lifecycle") / "server.log"
    # refills at once, whatever the machine's load (Chromium keeps it busy here)
    args = [
        f"--classroom={POOL}", "--DurakServer.refill_delay=1",
        "--DurakServer.refill_when_idle=0",
    ]  # fmt: skip
    with VoilaServer(log_path=log, extra_args=args) as server:
        yield server


def test_leaving_twenty_pages_leaves_only_the_pool(browser: Browser, server: VoilaServer) -> None:
    assert len(server.wait_for_kernels(POOL, timeout=120)) == POOL
    context, log = new_context(browser, server.url)
    try:
        page = context.new_page()
        for visit in range(20):
            name = TOUR[visit % len(TOUR)]
            selector = ".smoke-button" if name == "smoke.ipynb" else ".jupyter-widgets"
            if visit % 5 == 4:
                # Close the tab instead of navigating away (beforeunload runs too).
                page.close(run_before_unload=True)
                page = context.new_page()
            open_notebook(page, name, "en", selector=selector, timeout=60_000)
        page.close(run_before_unload=True)
        assert len(set(log.kernels)) == 20  # every visit had its own kernel

        # Culling would take a minute (voila.json: 50 s idle); the beacons take seconds.
        pids = server.wait_for_kernels(POOL, timeout=30)
        assert len(pids) == POOL, f"{len(pids)} kernels alive:\n{server.log_tail()}"
        text = server.log_text()
        assert "Culling 'idle' kernel" not in text
        assert " 403 POST /voila/api/shutdown/" not in text
        log.assert_clean()  # no refused beacon in the console either
    finally:
        context.close()


def test_leaving_an_untouched_page_for_another_site_frees_its_kernel(
    browser: Browser, server: VoilaServer
) -> None:
    """Chrome skips ``beforeunload`` (Voilà's beacon) for a page the learner never touched, and
    a phone closing a tab fires only ``pagehide``: the bridge's own ``pagehide`` beacon frees
    the kernel. Going elsewhere right after the page is drawn, the way a learner follows an
    outside link, leaves only the pool."""
    assert len(server.wait_for_kernels(POOL, timeout=120)) == POOL
    context, log = new_context(browser, server.url)
    try:
        page = context.new_page()
        for name in ("index.ipynb", "01-beating.ipynb"):
            open_notebook(page, name, "es", selector=".durak-title h1", timeout=60_000)
            kernel = page.evaluate(
                "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
            )
            pid = server.kernel_pid(kernel)
            page.goto("about:blank")
            deadline = time.monotonic() + 10
            while pid in server.kernel_pids():
                assert time.monotonic() < deadline, f"{name}: kernel still alive after leaving"
                time.sleep(0.2)
        text = server.log_text()
        assert " 403 POST /voila/api/shutdown/" not in text
        assert "Culling 'idle' kernel" not in text
        log.assert_clean()
    finally:
        context.close()


def test_culling_spares_the_pool(tmp_path: Path) -> None:
    """A kernel nobody connected to is culled; the pooled kernel, idle for longer, is not."""
    args = [
        "--classroom=1",
        "--MappingKernelManager.cull_idle_timeout=2",
        "--MappingKernelManager.cull_interval=1",
    ]
    with VoilaServer(log_path=tmp_path / "server.log", extra_args=args) as server:
        deadline = time.monotonic() + 120
        while "Kernel pool of _shell.ipynb is filled" not in server.log_text():
            assert time.monotonic() < deadline, server.log_tail()
            time.sleep(0.2)
        [pooled] = server.kernel_pids()

        status, _, html = request(server, render_path("smoke.ipynb", "en"))  # never connected
        assert status == 200
        culled = f"Culling 'idle' kernel 'python3' ({kernel_id_of(html)})"
        while culled not in server.log_text():
            assert time.monotonic() < deadline, server.log_tail()
            time.sleep(0.2)

        assert server.wait_for_kernels(1) == [pooled]
        assert "Using pre-heated kernel" not in server.log_text()
