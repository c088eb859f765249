"""Fixtures shared by the widget tests (no kernel, no browser)."""

from __future__ import annotations

import copy
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any, ClassVar

import comm
import pytest
from comm.base_comm import BaseComm

#: A translation that declines a name given as plain text is an error here, in this process
#: and in the servers and kernels the tests start (tutorial.i18n.STRICT_ENV).
os.environ.setdefault("DURAK_STRICT_MESSAGES", "1")


class RecordingComm(BaseComm):
    """A comm that keeps every message it would publish, instead of sending it."""

    log: ClassVar[list[tuple[str, Any]]] = []

    def publish_msg(self, msg_type: str, data: Any = None, *args: Any, **keys: Any) -> None:
        self.log.append((msg_type, copy.deepcopy(data)))


@pytest.fixture(autouse=True)
def resume_ledger_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Each test's resume ledger (:mod:`tutorial.resume_ledger`) is its own, in a temporary
    folder: no test writes to the user's Jupyter runtime folder."""
    from tutorial import resume_ledger

    saved = resume_ledger._LEDGER
    resume_ledger._LEDGER = resume_ledger.Ledger(str(tmp_path_factory.mktemp("ledger")))
    yield resume_ledger._LEDGER
    resume_ledger._LEDGER = saved


@pytest.fixture(autouse=True)
def fresh_kept_models() -> None:
    """Each test starts without the models a kernel keeps for its life (front-end files,
    shared layouts and styles: :func:`tutorial.deferred_open.keep`): closed, they are made
    again when needed, as in a new kernel."""
    from tutorial import deferred_open

    for widget in list(deferred_open._KEPT.values()):
        widget.close()


@pytest.fixture
def messages(monkeypatch: pytest.MonkeyPatch, fresh_kept_models: None) -> list[tuple[str, Any]]:
    """Every widget created during the test gets a :class:`RecordingComm`; the list holds
    ``(msg_type, data)`` of everything they would have sent to the browser, in order."""
    log: list[tuple[str, Any]] = []
    monkeypatch.setattr(RecordingComm, "log", log)
    monkeypatch.setattr(comm, "create_comm", lambda **kwargs: RecordingComm(**kwargs))
    return log


#: Test files with a test that uses the ``browser`` fixture (see below).
_CHROMIUM_FILES: set[Path] = set()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    _CHROMIUM_FILES.clear()
    _CHROMIUM_FILES.update(
        item.path for item in items if "browser" in getattr(item, "fixturenames", ())
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The browser tests' one Chromium (tests/browser/harness.py ``SHARED_CHROMIUM``) is kept
    from one of their files to the next, and stopped before a file that has no use for it."""
    if item.path not in _CHROMIUM_FILES:
        from tests.browser.harness import SHARED_CHROMIUM

        SHARED_CHROMIUM.stop()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On CI (``CI`` set) a skipped test fails the run: a missing Chromium, npm or git must
    not turn browser or catalog tests into silent skips. Locally a skip stays a skip."""
    if _CHROMIUM_FILES:
        from tests.browser.harness import SHARED_CHROMIUM

        SHARED_CHROMIUM.stop()
    if not os.environ.get("CI") or exitstatus not in (0, 5):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped:
        reasons = sorted({str(report.longrepr[-1]) for report in skipped})
        if reporter is not None:
            reporter.write_line(
                f"CI: {len(skipped)} test(s) skipped, which CI does not allow: "
                + "; ".join(reasons),
                red=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def no_server_language(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A pre-started kernel knows nothing of the page's URL or the browser's languages; the
    machine's resume key (play page) is kept in a private runtime directory. Page tests use it
    with ``pytestmark = pytest.mark.usefixtures("no_server_language")``."""
    from tutorial.game_page import RESUME_KEY_ENV

    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("HTTP_ACCEPT_LANGUAGE", raising=False)
    monkeypatch.delenv(RESUME_KEY_ENV, raising=False)
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "jupyter-runtime"))


@pytest.fixture(autouse=True)
def review_off_unless_under_test(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The play page's end-of-game review asks the judge's search about every decision the
    learner makes (``PlayController.scoring``): most of the cost of a test that plays a
    whole game on the page. It is switched off (no decision is scored, the review stays
    empty) except in tests marked ``review``. (A page served by Voilà, in the browser tests,
    runs in its own kernel and keeps it.)"""
    if request.node.get_closest_marker("review") is not None:
        return
    from tutorial.game_page import PlayController

    monkeypatch.setattr(
        PlayController,
        "scoring",
        property(lambda _self: False, lambda _self, _on: None, doc="off: tests/conftest.py"),
        raising=False,
    )


@pytest.fixture(scope="session")
def transcripts() -> Any:
    """The lesson transcripts (``tests/data/transcripts.json``, :class:`tests.transcript.
    Transcripts`), read once: tests that need a lesson walked read its walk here instead of
    walking it again."""
    from tests.transcript import shared

    return shared()


_FILE_SECONDS: dict[str, list[float]] = {}
_CPU_START = pytest.StashKey[float]()


def _tree_cpu() -> float:
    """CPU seconds (user + system) of this process and every process under it, alive or
    reaped: the Voilà server, its kernels, Chromium."""
    import psutil

    total = 0.0
    me = psutil.Process()
    for process in (me, *me.children(recursive=True)):
        try:
            times = process.cpu_times()
        except psutil.Error:  # gone meanwhile
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Each test's CPU, from its setup to its teardown, whatever process spent it (a kernel
    started for a page, Chromium drawing it), in the teardown report (xdist passes it on)."""
    report = yield
    if call.when == "setup":
        item.stash[_CPU_START] = _tree_cpu()
    elif call.when == "teardown" and _CPU_START in item.stash:
        report.user_properties.append(("cpu", _tree_cpu() - item.stash[_CPU_START]))
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add each test's setup, call and teardown time, and its CPU, to its file's (on the main
    process, also for the tests xdist's workers ran)."""
    path = report.nodeid.split("::", 1)[0]
    spent = _FILE_SECONDS.setdefault(path, [0.0, 0.0])
    spent[0] += report.duration
    spent[1] += sum(float(v) for k, v in report.user_properties if k == "cpu")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The ten test files that cost the most CPU (with their time), so that each file's cost
    can be weighed against what it catches; ``DURAK_COSTLIEST=N`` lists N of them."""
    if len(_FILE_SECONDS) < 2:
        return
    shown = int(os.environ.get("DURAK_COSTLIEST", "10"))
    costliest = sorted(_FILE_SECONDS.items(), key=lambda item: -item[1][1])[:shown]
    wall = sum(spent[0] for spent in _FILE_SECONDS.values())
    cpu = sum(spent[1] for spent in _FILE_SECONDS.values())
    terminalreporter.write_sep(
        "-", f"costliest test files: CPU of every process, of {cpu:.0f} s ({wall:.0f} s of tests)"
    )
    for path, (seconds, spent) in costliest:
        terminalreporter.write_line(
            f"{spent:8.1f} s CPU {100 * spent / max(cpu, 1e-9):5.1f}%  {seconds:7.1f} s  {path}"
        )
