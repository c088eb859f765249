"""The message budget at the server's websocket (issue 37, items 1 and 5; the 2026-12-07
review's finding 1): every message from the browser is charged by its cost as it arrives,
before the kernel works, per connection and per kernel; a burst of page changes collapses to
the newest, which is never lost; each burst is logged once. And in the kernel, a refused page
change is logged once per burst.

The unit tests drive a fake clock and a fake timer queue (no timing). The last test runs the
real server (``browser`` marker): 300 page changes over one websocket build a handful of pages.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from durak_server.websocket import (
    PAGE_COST,
    QUIET,
    Budget,
    Kind,
    MessageGate,
    TokenBucket,
    classify,
    kernel_bucket,
)
from tutorial.kernel_safety import OncePerBurst, harden_kernel

BUDGET = Budget()


class Loop:
    """A fake clock with a timer queue: ``schedule`` as MessageGate wants it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._timers: list[tuple[float, int, Callable[[], None]]] = []
        self._cancelled: set[int] = set()
        self._ids = itertools.count()

    def __call__(self) -> float:
        return self.now

    def schedule(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        key = next(self._ids)
        heapq.heappush(self._timers, (self.now + delay, key, callback))
        return lambda: self._cancelled.add(key)

    def advance(self, seconds: float) -> None:
        """Move the clock on, running every timer due meanwhile (in order)."""
        end = self.now + seconds
        while self._timers and self._timers[0][0] <= end:
            when, key, callback = heapq.heappop(self._timers)
            if key in self._cancelled:
                continue
            self.now = max(self.now, when)
            callback()
        self.now = end


class Kernel:
    """Records what the gate forwards; answers ``idle`` for a page change when told."""

    def __init__(self) -> None:
        self.got: list[Any] = []

    def __call__(self, message: Any) -> None:
        self.got.append(message)


def gate_for(
    loop: Loop, kernel: Kernel, logger: logging.Logger, bucket: TokenBucket | None = None
) -> MessageGate:
    shared = bucket or TokenBucket(BUDGET.rate * 1.5, BUDGET.burst * 1.5, loop.now)
    return MessageGate(
        BUDGET, shared, kernel, label=" on test", clock=loop, schedule=loop.schedule, log=logger
    )


_ids = itertools.count()


def go(page: str) -> tuple[str, Kind]:
    msg_id = f"go-{next(_ids)}"
    header = {"msg_id": msg_id, "msg_type": "comm_msg"}
    content = {
        "comm_id": "bridge",
        "data": {
            "method": "custom",
            "content": {"type": "go", "lang": "es", "page": page, "resume": None},
        },
    }
    return page, classify(header, content, BUDGET)


def ping() -> tuple[str, Kind]:
    header = {"msg_id": f"ping-{next(_ids)}", "msg_type": "comm_msg"}
    content = {"comm_id": "bridge", "data": {"method": "custom", "content": {"type": "ping"}}}
    return "ping", classify(header, content, BUDGET)


def click() -> tuple[str, Kind]:
    header = {"msg_id": f"click-{next(_ids)}", "msg_type": "comm_msg"}
    content = {"comm_id": "button", "data": {"method": "custom", "content": {"event": "click"}}}
    return "click", classify(header, content, BUDGET)


@pytest.fixture
def logger(caplog: pytest.LogCaptureFixture) -> Iterator[logging.Logger]:
    caplog.set_level(logging.INFO, logger="test.budget")
    yield logging.getLogger("test.budget")


def lines(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.name == "test.budget" and r.levelno == level
    ]


# ------------------------------------------------------------------------------- the costs


def test_a_page_change_costs_more_than_a_ping() -> None:
    _, page = go("index")
    _, beat = ping()
    _, press = click()
    assert page.page and page.cost == PAGE_COST and page.msg_id.startswith("go-")
    assert beat.cost == 1 and not beat.page
    assert press.cost == 1 and not press.page
    hello = {"type": "hello", "lang": "es", "page": "index", "resume": None}
    for content, cost in (
        ({"data": {"method": "custom", "content": hello}}, PAGE_COST),
        ({"data": {"method": "request_states"}}, PAGE_COST),
        ({"data": {"method": "update", "state": {"value": 1}}}, 1),
        ({"data": "not a dict"}, 1),
        ("not a dict", 1),
    ):
        kind = classify({"msg_type": "comm_msg"}, content, BUDGET)
        assert kind.cost == cost and not kind.page
    assert classify({"msg_type": "kernel_info_request"}, {}, BUDGET).cost == 1
    assert classify(None, None, BUDGET).cost == 1  # never raises


# ------------------------------------------------------------------------- the budget


def test_over_budget_messages_are_dropped_before_the_kernel(
    logger: logging.Logger, caplog: pytest.LogCaptureFixture
) -> None:
    loop, kernel = Loop(), Kernel()
    gate = gate_for(loop, kernel, logger)
    for _ in range(1000):
        gate.incoming(*click())
    assert len(kernel.got) == BUDGET.burst == 150
    assert gate.dropped == 850 and gate.bursts == 1
    loop.advance(1.0)  # 20 tokens more
    for _ in range(1000):
        gate.incoming(*click())
    assert len(kernel.got) == 170
    assert len(lines(caplog, logging.WARNING)) == 1  # one burst, one line
    assert lines(caplog, logging.INFO) == []
    loop.advance(2 * QUIET)  # quiet: the burst is over, with its count
    (summary,) = lines(caplog, logging.INFO)
    assert "comm_msg over budget: 1830" in summary
    for _ in range(200):  # a new burst: a new line
        gate.incoming(*click())
    assert len(lines(caplog, logging.WARNING)) == 2 and gate.bursts == 2


def test_a_burst_of_page_changes_collapses_to_the_newest(
    logger: logging.Logger, caplog: pytest.LogCaptureFixture
) -> None:
    """300 page changes at once (the review's repro): the first goes to the kernel, the others
    are held one at a time, each replacing the one before; once the kernel is done, the
    newest goes. Two pages built, not 295; one WARNING line; the count when it is over."""
    loop, kernel = Loop(), Kernel()
    gate = gate_for(loop, kernel, logger)
    gos = [go(f"page-{i}") for i in range(300)]
    for message, kind in gos:
        gate.incoming(message, kind)
    assert kernel.got == ["page-0"]
    assert gate.pending is not None and gate.pending[0] == "page-299"
    loop.advance(0.05)
    gate.kernel_idle("not-this-one")
    assert kernel.got == ["page-0"]
    gate.kernel_idle(gos[0][1].msg_id)  # the kernel built page 0: the newest goes at once
    assert kernel.got == ["page-0", "page-299"]
    assert gate.collapsed == 298 and gate.pending is None
    loop.advance(60)
    assert kernel.got == ["page-0", "page-299"]
    (warning,) = lines(caplog, logging.WARNING)
    assert "over budget on test" in warning and "only the newest page change is kept" in warning
    (summary,) = lines(caplog, logging.INFO)
    assert "page change over budget: 294" in summary  # all but the 6 the burst pays for
    assert "page changes replaced by a newer one: 294" in summary  # 4 within the budget


def test_a_flood_of_page_changes_builds_at_most_rate_over_cost_a_second(
    logger: logging.Logger, caplog: pytest.LogCaptureFixture
) -> None:
    """A minute of 100 page changes a second, the kernel done with each in 0.05 s: it builds
    one page every ``page_cost / rate`` seconds (1.25 s) after the burst, and the last one
    asked for is the last built."""
    loop, kernel = Loop(), Kernel()
    gate = gate_for(loop, kernel, logger)
    asked = []
    for tick in range(6000):
        message, kind = go(f"page-{tick}")
        asked.append(message)
        gate.incoming(message, kind)
        if gate.in_flight:
            in_flight = gate.in_flight
            loop.advance(0.005)
            if loop.now - gate._in_flight_at >= 0.05:
                gate.kernel_idle(in_flight)
            loop.advance(0.005)
        else:
            loop.advance(0.01)
    loop.advance(0.05)
    if gate.in_flight:
        gate.kernel_idle(gate.in_flight)
    loop.advance(5)
    built = len(kernel.got)
    assert built <= 60 * BUDGET.rate / PAGE_COST + BUDGET.burst / PAGE_COST + 2
    assert kernel.got[-1] == asked[-1]  # the newest is never lost
    assert len(lines(caplog, logging.WARNING)) == 1  # one flood, one line


def test_a_learner_is_never_refused(
    logger: logging.Logger, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten minutes of a busy learner: a ping every 3 s, bursts of 5 clicks in a second, a page
    change every 3 s, and now and then Back four times in a row (the kernel takes 0.3 s a
    page). Nothing is dropped, nothing logged, every last page change of a run is built."""
    loop, kernel = Loop(), Kernel()
    gate = gate_for(loop, kernel, logger)
    wanted = []
    for second in range(600):
        if second % 3 == 0:
            gate.incoming(*ping())
        for _ in range(5):
            gate.incoming(*click())
            loop.advance(0.02)
        if second % 3 == 1:
            run = 4 if second % 30 == 1 else 1
            for i in range(run):
                message, kind = go(f"page-{second}-{i}")
                gate.incoming(message, kind)
            wanted.append(message)
        for _ in range(9):  # the kernel answers within 0.3 s
            loop.advance(0.1)
            if gate.in_flight and loop.now - gate._in_flight_at >= 0.3:
                gate.kernel_idle(gate.in_flight)
    assert gate.bursts == 0 and lines(caplog, logging.WARNING) == []
    pages = [m for m in kernel.got if isinstance(m, str) and m.startswith("page-")]
    assert [p for p in pages if p in wanted] == wanted
    assert gate.dropped == gate.collapsed  # only page changes asked while one was built


def test_the_kernel_bucket_is_shared_by_its_connections(logger: logging.Logger) -> None:
    """A second socket on the same kernel (a forged one, or the page's own reconnecting)
    has its own bucket, but both draw on the kernel's: 225 at once, 30 a second."""
    loop = Loop()
    owner = object.__new__(type("KernelManager", (), {}))
    shared = kernel_bucket(owner, BUDGET, loop.now)
    assert kernel_bucket(owner, BUDGET, loop.now) is shared
    first, second = Kernel(), Kernel()
    a = gate_for(loop, first, logger, shared)
    b = gate_for(loop, second, logger, shared)
    for _ in range(200):
        a.incoming(*click())
    for _ in range(200):
        b.incoming(*click())
    assert len(first.got) == 150 and len(second.got) == 75
    loop.advance(1.0)
    for _ in range(200):
        a.incoming(*click())
        b.incoming(*click())
    assert len(first.got) + len(second.got) == 225 + 30


def test_a_lost_idle_and_a_closed_socket(
    logger: logging.Logger, caplog: pytest.LogCaptureFixture
) -> None:
    """Without the kernel's idle, a held page change goes after BUSY_MAX seconds; a socket that
    closes drops what is held, cancels its timers and ends its burst's log."""
    loop, kernel = Loop(), Kernel()
    gate = gate_for(loop, kernel, logger)
    gate.incoming(*go("a"))
    gate.incoming(*go("b"))
    loop.advance(4.9)
    assert kernel.got == ["a"]
    loop.advance(0.2)
    assert kernel.got == ["a", "b"]
    for i in range(20):
        gate.incoming(*go(f"c{i}"))
    gate.close()
    loop.advance(60)
    assert kernel.got == ["a", "b"]
    gate.incoming(*go("after"))
    assert kernel.got == ["a", "b"]
    assert len(lines(caplog, logging.WARNING)) == 1
    (summary,) = lines(caplog, logging.INFO)
    assert "page changes held when the socket closed: 1" in summary


def test_the_kernel_finishing_a_message_is_read_from_its_idle_status() -> None:
    """What frees the held page change: the kernel's ``status: idle`` for the forwarded one,
    read from the raw ZMQ parts as the connection receives them."""
    from types import SimpleNamespace

    from jupyter_client.session import Session

    from durak_server.websocket import FilteredWebsocketConnection

    session = Session(key=b"secret")
    parent = session.msg("comm_msg", {})
    connection = SimpleNamespace(session=session)

    def parts(msg_type: str, content: dict[str, Any]) -> list[bytes]:
        msg = session.msg(msg_type, content, parent=parent)
        return [b"kernel.status", *session.serialize(msg)]

    read = FilteredWebsocketConnection._idle_parent
    assert (
        read(connection, parts("status", {"execution_state": "idle"}))
        == (parent["header"]["msg_id"])
    )
    assert read(connection, parts("status", {"execution_state": "busy"})) is None
    assert read(connection, parts("comm_msg", {"data": {"idle": "status"}})) is None
    assert read(connection, [b"garbage"]) is None


def test_no_budget_when_the_rate_is_zero() -> None:
    assert not Budget(rate=0).enabled and Budget().enabled


# ------------------------------------------------------------------------- the kernel's log


def test_refused_page_changes_are_logged_once_per_burst(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The site's WARNING for a page change naming no page (tutorial.pages): once per burst;
    the next burst's line counts the ones not logged."""
    clock = Loop()
    pages_log = logging.getLogger("tutorial.pages")
    harden_kernel()
    harden_kernel()
    installed = [f for f in pages_log.filters if isinstance(f, OncePerBurst)]
    assert len(installed) == 1  # idempotent
    burst = OncePerBurst("refused a page change", quiet=10.0, clock=clock)
    pages_log.removeFilter(installed[0])
    pages_log.addFilter(burst)
    try:
        caplog.set_level(logging.WARNING, logger="tutorial.pages")
        before = len(caplog.records)
        for i in range(300):
            pages_log.warning("refused a page change to %r: not a page of the site", f"x{i}")
            clock.now += 0.01
        pages_log.warning("no page named %r", "other")  # other lines pass untouched
        clock.now += 30
        pages_log.warning("refused a page change to %r: not a page of the site", "y")
        got = [r.getMessage() for r in caplog.records[before:] if r.name == "tutorial.pages"]
        assert got == [
            "refused a page change to 'x0': not a page of the site",
            "no page named 'other'",
            "refused a page change to 'y': not a page of the site (299 more in the burst "
            "before, not logged)",
        ]
    finally:
        pages_log.removeFilter(burst)
        pages_log.addFilter(installed[0])


# ------------------------------------------------------------------------- the real server


@pytest.mark.browser
def test_300_page_changes_over_one_websocket_build_a_handful_of_pages(tmp_path: Path) -> None:
    """The review's repro, on the real server: a lesson opened by a client speaking the
    page's protocol, then 300 ``go`` messages in one burst. The kernel builds a handful of
    pages (it built 295 over a minute), the last one asked for among them; the server logs
    one WARNING for the burst and, once the socket is closed, one line with its counts."""
    from tornado.httpclient import AsyncHTTPClient

    from benchmarks.classroom import Learner
    from tests.browser.harness import VoilaServer

    pages = ["index", "02-bout", "01-beating", "sources"]
    last = "03-growing-round"

    class Flooder(Learner):
        async def walk_on(self) -> None:
            bridge = self.bridge()
            assert bridge is not None
            for i in range(299):
                go = {"type": "go", "lang": "es", "page": pages[i % 4], "resume": None}
                await self.custom(bridge, go)
            await self.custom(bridge, {"type": "go", "lang": "es", "page": last, "resume": None})
            # read until the kernel has said nothing for 3 s (at most 30 s)
            end = time.monotonic() + 30
            while time.monotonic() < end:
                seen = len(self.shown)
                await self.read_for(3.0)
                if len(self.shown) == seen:
                    break

    args = ["--classroom=0"]
    with VoilaServer(log_path=tmp_path / "server.log", extra_args=args) as server:

        async def flood() -> Flooder:
            flooder = Flooder(
                0,
                server.url,
                "01-beating",
                [],
                0.0,
                time.monotonic() + 120,
                AsyncHTTPClient(),
                lambda _kernel: None,
            )
            start = asyncio.Event()
            start.set()
            result = await flooder.run(start)
            assert result.error is None, (result.error, server.log_tail())
            return flooder

        flooder = asyncio.run(flood())
        shown = [said for said, _ in flooder.shown]
        assert 1 <= len(shown) <= 6, shown
        assert shown[-1] == f"shown:{last}", shown
        kernel = str(flooder.result.kernel_id)[:8]
        deadline = time.monotonic() + 15
        while "the burst is over" not in server.log_text():
            assert time.monotonic() < deadline, server.log_tail()
            time.sleep(0.2)
        log = server.log_text()
        warnings = re.findall(rf"Browser messages over budget on kernel {kernel}.*refusing", log)
        assert len(warnings) == 1, server.log_tail()
        (summary,) = re.findall(rf"over budget on kernel {kernel}.*the burst is over.*", log)
        over = re.search(r"page change over budget: (\d+)", summary)
        assert over is not None and 290 <= int(over.group(1)) < 300, summary
        built = re.findall(r"tab page \d+: ", log)
        assert len(built) == len(shown)
