"""Fixtures for end-to-end tests: one Voilà server for the whole session, one Chromium per test
module, a fresh browser context and page per test.

Fixtures (see ``harness.py`` for the helpers ``open_notebook`` and ``screenshot``):

``voila_server``  (session) a :class:`~tests.browser.harness.VoilaServer`: ``python -m
                  durak_server`` with ``voila.json``, serving ``notebooks/`` plus
                  ``tests/data/notebooks/`` (copied to a temporary root), on a free port of
                  127.0.0.1; ``.url``, ``.render_url()``, ``.log_text()``, ``.log_tail()``,
                  ``.kernel_pids()``. The log is copied to ``test-artifacts/voila.log`` at
                  the end of the session.
``browser``       (module) Playwright's ``Browser`` (Debian's ``/usr/bin/chromium``); tests using
                  it skip, saying why, when that file is missing. The one Chromium fixture:
                  tests outside this directory (tests/test_bridge_render.py) import it. One
                  Chromium serves the modules a process runs one after another
                  (``harness.SHARED_CHROMIUM``; stopped before a module without it).
``context``       a new ``BrowserContext`` per test, ``base_url`` = the server, outside requests
                  blocked. When it closes, the kernels its pages used are shut down.
``browser_log``   the :class:`~tests.browser.harness.BrowserLog` of that context (console errors,
                  page errors, blocked requests); call ``browser_log.assert_clean()``.
``page``          a new ``Page`` in that context. If the test fails, a screenshot is saved as
                  ``test-artifacts/screenshots/FAILED-<test>.png`` and the end of the Voilà
                  log is printed with the failure.
``tab``           a :class:`~tests.browser.harness.SiteTab` the tests of a module share: each
                  ``tab.show(name, lang)`` changes page inside the tab, on one kernel (a
                  fresh context after a failed test; the same screenshot and log on failure).
                  For tests that look at a page, not at how it was loaded.

Every test in this directory, and every test elsewhere that uses ``browser``, is marked
``browser``: ``script/test -m "not browser"`` skips them.
"""

from __future__ import annotations

import shutil
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .harness import (
    ARTIFACTS,
    SHARED_CHROMIUM,
    BrowserLog,
    SiteTab,
    VoilaServer,
    chromium_missing_reason,
    close_context,
    new_context,
    screenshot,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page


HERE = Path(__file__).resolve().parent
_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(HERE) or "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    # A private log while running (two sessions may run at once in one checkout), copied to
    # test-artifacts/voila.log at the end.
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    try:
        # Every test's browser comes from 127.0.0.1, and a closed test page holds its kernel
        # until culled: the per-client kernel limit is off here (tests/browser/test_server.py
        # tests it on servers of its own).
        args = ["--DurakServer.max_kernels_per_address=0"]
        with VoilaServer(log_path=log_path, extra_args=args) as server:
            yield server
    finally:
        if log_path.exists():
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(log_path, ARTIFACTS / "voila.log")


# Module scope over one Chromium per process (harness.SHARED_CHROMIUM): kept from module to
# module, stopped by tests/conftest.py before a module that does not use it.
@pytest.fixture(scope="module")
def browser() -> Browser:
    reason = chromium_missing_reason()
    if reason:
        pytest.skip(reason)
    return SHARED_CHROMIUM.get()


@pytest.fixture
def _context_and_log(
    browser: Browser, voila_server: VoilaServer
) -> Iterator[tuple[BrowserContext, BrowserLog]]:
    context, log = new_context(browser, voila_server.url)
    yield context, log
    close_context(context, log, voila_server)


@pytest.fixture
def context(_context_and_log: tuple[BrowserContext, BrowserLog]) -> BrowserContext:
    return _context_and_log[0]


@pytest.fixture
def browser_log(_context_and_log: tuple[BrowserContext, BrowserLog]) -> BrowserLog:
    return _context_and_log[1]


@pytest.fixture
def page(
    request: pytest.FixtureRequest, context: BrowserContext, voila_server: VoilaServer
) -> Iterator[Page]:
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    if request.node.stash.get(_FAILED, False) and not page.is_closed():
        _report_failure(screenshot(page, f"FAILED-{request.node.name}"), voila_server)
    page.close()


def _report_failure(shot: Path | None, server: VoilaServer) -> None:
    """Shown under "Captured stdout teardown" in a failed test's report."""
    print(f"screenshot: {shot}\nlast lines of the Voilà log ({server.log_path}):")
    print(server.log_tail(30))


@pytest.fixture(scope="module")
def _shared_tab(browser: Browser, voila_server: VoilaServer) -> Iterator[SiteTab]:
    tab = SiteTab(browser, voila_server)
    yield tab
    tab.close()


@pytest.fixture
def tab(request: pytest.FixtureRequest, _shared_tab: SiteTab) -> Iterator[SiteTab]:
    _shared_tab.begin()
    yield _shared_tab
    if request.node.stash.get(_FAILED, False):
        _report_failure(_shared_tab.spoil(request.node.name), _shared_tab.server)
