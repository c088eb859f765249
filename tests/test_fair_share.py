"""Fair share of the kernel cap between clients (security-2026-12-07 finding 3, issue 37 item 3).

Five loopback addresses opened 8 pinging pages each and filled the cap of 40: a learner at a
sixth address got the "full" page for minutes. Now a client (an IPv4 address, an IPv6 /64) is
what counts, the last slots of the cap are kept for clients holding no kernel, and at the cap
such a newcomer takes the least active kernel of the client holding the most.

The unit tests drive :class:`~durak_server.kernels.Claims` and
:class:`~durak_server.kernels.KernelBudget` over Jupyter Server's own kernel manager whose
kernels are records (no process), the way the render handler does; the last two start the real
server and ask it from several loopback addresses, and through a trusted proxy.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets.config import Config

from durak_server.app import DurakServer
from durak_server.kernels import Claims, KernelBudget, client_key, for_page, holding

RECLAIMED = "shut down for a newcomer"


class RecordManager(AsyncMappingKernelManager):
    """Jupyter Server's kernel manager whose kernels are records: ``add`` registers one (each
    active later than the one before), ``shutdown_kernel`` forgets it."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.log = logging.getLogger("test_fair_share")
        self.shut_down: list[str] = []
        self._clock = datetime(2026, 12, 7, tzinfo=UTC)

    def add(self) -> str:
        kernel_id = f"k{len(self._kernels) + len(self.shut_down) + 1}"
        self._clock += timedelta(seconds=1)
        self._kernels[kernel_id] = SimpleNamespace(last_activity=self._clock)
        return kernel_id

    async def shutdown_kernel(  # type: ignore[override]
        self, kernel_id: str, now: bool = False, restart: bool = False
    ) -> None:
        await asyncio.sleep(0)  # a real shutdown takes a while
        del self._kernels[kernel_id]
        self.shut_down.append(kernel_id)

    def connect(self, kernel_id: str, connections: int = 1) -> None:
        self._kernel_connections[kernel_id] = connections


class Site:
    """The kernel cap and the claims of one server, as :class:`DurakKernelManager` builds
    them (no connect timeout: no timer runs)."""

    def __init__(self, cap: int, reserve: int, per_address: int = 0) -> None:
        self.manager = RecordManager()
        self.claims = Claims(self.manager, 0, 0, per_address)
        self.budget = KernelBudget(self.manager, cap, reserve, self.claims)

    async def ask(self, address: str) -> str | None:
        """A page that starts a kernel, asked from ``address`` as the render handler asks
        (``None``: a 503 page). Its kernel is registered only once a reclaimed one is gone."""
        if self.claims.full(address):
            return None
        reservation = self.budget.reserve(address)
        if reservation is None:
            return None
        request = self.claims.request(address)
        with holding(reservation), for_page(request):
            if reservation.after is not None:  # DurakKernelManager.start_kernel
                await asyncio.wait([reservation.after])
            assert len(self.manager._kernels) < self.budget.max_kernels  # never beyond the cap
            kernel_id = self.manager.add()
            reservation.release()  # DurakKernelManager.pre_start_kernel
            self.claims.claim(kernel_id, address, request)
        return kernel_id

    async def take(self, address: str) -> str:
        """A page that must be served."""
        kernel_id = await self.ask(address)
        assert kernel_id is not None, address
        return kernel_id

    def held(self, *addresses: str) -> list[int]:
        return [self.claims.held(address) for address in addresses]


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


# ----------------------------------------------------------------------------- client keys


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),  # IPv4: one address, one client (no /24)
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::1", "::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),  # IPv4-mapped: its IPv4 address
        ("fe80::1%eth0", "fe80::/64"),
        ("?", "?"),  # no address (a Unix socket): kept as it is
    ],
)
def test_a_client_is_an_ipv4_address_or_an_ipv6_64(address: str, key: str) -> None:
    assert client_key(address) == key
    assert client_key(key) == key


def test_the_addresses_of_one_ipv6_64_share_the_per_address_limits() -> None:
    async def scenario() -> None:
        site = Site(cap=40, reserve=0, per_address=2)
        assert await site.ask("2001:db8:1:2::1")
        assert await site.ask("2001:db8:1:2:ffff::9")
        assert await site.ask("2001:db8:1:2::abcd") is None  # the same /64: its limit is reached
        assert await site.ask("2001:db8:1:3::1")  # the next /64 is another client
        assert await site.ask("203.0.113.7")
        assert await site.ask("::ffff:203.0.113.7")
        assert await site.ask("203.0.113.7") is None  # with its IPv4-mapped form: 2
        assert await site.ask("203.0.113.8")  # the neighbour on the same /24 is not lumped

    run(scenario())


# ----------------------------------------------------------------------------- the probe


def test_a_learner_at_a_sixth_address_is_served_while_five_fill_the_cap(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The probe (t10_multi.py) with the defaults: cap 40, 8 kernels in force per address;
    five addresses each ask for 8, then learners at other addresses arrive one by one."""
    server = DurakServer()
    cap, reserve = server.max_kernels, server.reserved_for_newcomers
    assert (cap, reserve, server.kernels_per_address()) == (40, 5, 8)
    caplog.set_level(logging.INFO, logger="test_fair_share")

    async def scenario() -> None:
        site = Site(cap, reserve, server.kernels_per_address())
        hogs = [f"127.0.0.{n}" for n in range(1, 6)]
        served = [await site.ask(address) for address in hogs for _ in range(8)]
        assert sum(1 for kernel in served if kernel) == cap - reserve  # the reserve is kept
        assert site.held(*hogs) == [8, 8, 8, 8, 3]
        for hog in hogs:
            assert await site.ask(hog) is None  # holders get no more

        assert await site.ask("127.0.0.6")  # the learner is served, from the reserve
        assert site.manager.shut_down == []
        for n in range(7, 11):
            assert await site.ask(f"127.0.0.{n}")
        assert site.manager.shut_down == []  # the reserve is used up

        for n in range(11, 31):  # then each newcomer is served by the biggest holder
            assert await site.ask(f"127.0.0.{n}"), n
        assert len(site.manager.shut_down) == 20
        assert site.held(*hogs) == [3, 3, 3, 3, 3]
        assert len(site.manager._kernels) == cap
        for hog in hogs:
            assert await site.ask(hog) is None  # and cannot take them back

    run(scenario())
    reclaims = [r for r in caplog.records if RECLAIMED in r.getMessage()]
    assert len(reclaims) == 20 and all(r.levelno == logging.INFO for r in reclaims)


# ----------------------------------------------------------------------------- the reserve


def test_the_reserve_is_only_for_clients_holding_no_kernel() -> None:
    async def scenario() -> None:
        site = Site(cap=4, reserve=1)
        assert [bool(await site.ask("10.0.0.1")) for _ in range(4)] == [True] * 3 + [False]
        assert await site.ask("10.0.0.2")  # a newcomer takes the reserved slot
        assert await site.ask("10.0.0.2") is None  # now a holder: no reserve, no reclaim
        assert await site.ask("10.0.0.1") is None
        assert site.manager.shut_down == []
        assert site.held("10.0.0.1", "10.0.0.2") == [3, 1]

    run(scenario())


def test_the_pool_never_takes_the_reserved_slots() -> None:
    site = Site(cap=4, reserve=1)
    for _ in range(2):
        site.manager.add()
    pooled = site.budget.reserve_for_pool()
    assert pooled is not None  # 2 live + 1 starting: the reserve is left
    assert site.budget.reserve_for_pool() is None
    pooled.release()
    assert site.budget.reserve_for_pool() is not None


def test_a_reserve_never_takes_the_whole_cap() -> None:
    assert KernelBudget(RecordManager(), 3, 8).for_newcomers == 2
    assert KernelBudget(RecordManager(), 0, 8).for_newcomers == 0


# ----------------------------------------------------------------------------- reclaiming


def test_the_biggest_holder_gives_up_first_a_kernel_whose_page_is_gone_then_its_least_active(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="test_fair_share")

    async def scenario() -> None:
        site = Site(cap=6, reserve=0)
        a = [await site.take("10.0.0.1") for _ in range(4)]  # k1..k4, k1 the least active
        b = [await site.take("10.0.0.2") for _ in range(2)]
        for kernel_id in a[:3]:  # three tabs connected; k4's page is still loading
            site.manager.connect(kernel_id)
        assert site.claims.waiting("10.0.0.1") == 1
        site.manager.connect(a[1], 0)  # then k2's tab was closed: awaiting the culler
        site.manager.connect(b[0])

        assert await site.ask("10.0.0.3")
        assert site.manager.shut_down == [a[1]]  # the tab that is gone
        assert site.held("10.0.0.1", "10.0.0.2") == [3, 2]

        assert await site.ask("10.0.0.4")
        assert site.manager.shut_down == [a[1], a[0]]  # the least recently active
        assert site.held("10.0.0.1", "10.0.0.2") == [2, 2]

        assert await site.ask("10.0.0.5")  # equals: the first to have claimed gives
        assert site.manager.shut_down == [a[1], a[0], a[2]]  # k4, still loading, comes last

    run(scenario())
    messages = [r.getMessage() for r in caplog.records if RECLAIMED in r.getMessage()]
    assert len(messages) == 3
    assert messages[0].endswith("of 10.0.0.1 (holding 4) shut down for a newcomer from 10.0.0.3")


def test_a_client_holding_one_kernel_never_gives_it_up() -> None:
    async def scenario() -> None:
        site = Site(cap=3, reserve=0)
        for n in (1, 2, 3):
            assert await site.ask(f"10.0.0.{n}")
        assert await site.ask("10.0.0.4") is None  # the "full" page, as before
        assert site.manager.shut_down == []

    run(scenario())


def test_a_burst_from_a_new_client_is_one_newcomer() -> None:
    """Requests arriving together from one new address: the first is a newcomer (one kernel
    reclaimed for it), the others find it starting one and are holders."""

    async def scenario() -> None:
        site = Site(cap=4, reserve=0)
        for _ in range(4):
            assert await site.ask("10.0.0.1")
        first = asyncio.ensure_future(site.ask("10.0.0.2"))
        others = [asyncio.ensure_future(site.ask("10.0.0.2")) for _ in range(5)]
        assert await first
        assert await asyncio.gather(*others) == [None] * 5
        assert len(site.manager.shut_down) == 1
        assert site.held("10.0.0.1", "10.0.0.2") == [3, 1]

    run(scenario())


def test_a_class_behind_one_address_gets_its_kernels_and_a_newcomer_is_still_served() -> None:
    """``--classroom 30 --max-kernels 40``: a class of 30 behind a school's one NAT address
    opens its pages together; learners at home still get in, from the reserve first."""
    server = DurakServer(classroom=30, max_kernels=40)

    async def scenario() -> None:
        site = Site(server.max_kernels, server.reserved_for_newcomers, server.kernels_per_address())
        class_ = [await site.ask("198.51.100.1") for _ in range(30)]
        assert all(class_)
        others = [await site.ask(f"203.0.113.{n}") for n in range(1, 11)]
        assert all(others)  # 5 with room, 5 from the reserve
        assert site.manager.shut_down == []
        assert await site.ask("203.0.113.11")  # at the cap: the class gives one up
        assert site.held("198.51.100.1") == [29]

    run(scenario())


# ----------------------------------------------------------------------------- settings


def test_the_reserve_defaults_to_an_eighth_of_the_cap() -> None:
    assert DurakServer().reserved_for_newcomers == 5
    assert DurakServer(max_kernels=80).reserved_for_newcomers == 10
    assert DurakServer(max_kernels=0).reserved_for_newcomers == 0
    assert DurakServer(max_kernels=80, reserved_for_newcomers=2).reserved_for_newcomers == 2


def test_trusting_the_proxy_headers_is_one_setting_under_either_name() -> None:
    """The docs said ``--ServerApp.trust_xheaders=True``; the app is no ServerApp, so that
    alone was ignored and every learner behind a proxy counted as the proxy's address."""
    assert not DurakServer().trusts_xheaders()
    assert DurakServer(trust_xheaders=True).trusts_xheaders()
    config = Config({"ServerApp": {"trust_xheaders": True}})
    assert DurakServer(config=config).trusts_xheaders()


# ----------------------------------------------------------------------------- the real server


def _get(server: Any, path: str, source: str = "127.0.0.1", **headers: str) -> int:
    import http.client

    connection = http.client.HTTPConnection(
        server.host, server.port, timeout=120, source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


#: No timer of the server's may act during these tests: no connect timeout, no culling.
NO_TIMERS = ["--DurakServer.connect_timeout=0", "--MappingKernelManager.cull_idle_timeout=0"]


@pytest.mark.browser
def test_the_server_serves_a_newcomer_while_three_loopback_addresses_hold_the_cap(
    tmp_path: Path,
) -> None:
    from tests.browser.harness import VoilaServer, render_path

    args = ["--classroom=0", "--max-kernels=6", "--DurakServer.reserved_for_newcomers=1"]
    page = render_path("empty.ipynb")
    with VoilaServer(log_path=tmp_path / "server.log", extra_args=args + NO_TIMERS) as server:
        holders = [_get(server, page, f"127.0.0.{n}") for n in (1, 1, 2, 2, 3, 3)]
        assert holders == [200] * 5 + [503], server.log_text()[-3000:]  # one slot kept
        assert _get(server, page, "127.0.0.4") == 200  # a newcomer: the kept slot
        assert _get(server, page, "127.0.0.5") == 200  # a newcomer at the cap: reclaimed
        assert _get(server, page, "127.0.0.1") == 503  # it cannot take it back
        log = server.log_text()
        assert log.count(RECLAIMED) == 1, log[-3000:]
        assert "of 127.0.0.1 (holding 2) shut down for a newcomer from 127.0.0.5" in log
        assert log.count("Kernel started") == 7


@pytest.mark.browser
def test_behind_a_trusted_proxy_the_forwarded_address_is_the_client(tmp_path: Path) -> None:
    from tests.browser.harness import VoilaServer, render_path

    args = [
        "--classroom=0", "--DurakServer.trust_xheaders=True",
        "--DurakServer.max_kernels_per_address=1",
    ]  # fmt: skip
    page = render_path("empty.ipynb")
    with VoilaServer(log_path=tmp_path / "server.log", extra_args=args + NO_TIMERS) as server:
        assert _get(server, page, **{"X-Forwarded-For": "10.0.0.1"}) == 200
        assert _get(server, page, **{"X-Forwarded-For": "10.0.0.2"}) == 200
        assert _get(server, page, **{"X-Forwarded-For": "10.0.0.2"}) == 503
        assert _get(server, page, **{"X-Forwarded-For": "2001:db8::1"}) == 200
        assert _get(server, page, **{"X-Forwarded-For": "2001:db8::2"}) == 503  # its /64
        assert _get(server, page, **{"X-Forwarded-For": "2001:db8:0:1::1"}) == 200
        # Tornado takes the last address of the list: the one the proxy appended
        assert _get(server, page, **{"X-Forwarded-For": "10.0.0.1, 10.0.0.3"}) == 200
        assert _get(server, page, **{"X-Forwarded-For": "10.0.0.9, 10.0.0.3"}) == 503
