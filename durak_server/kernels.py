"""Kernel manager: a cap on live kernels and a pool of pre-started ``_shell`` kernels.

* **Cap.** :meth:`KernelBudget.reserve` grants a slot while ``live kernels + reserved slots``
  is below ``max_kernels``; every kernel start (a page rendered cold, a pool refill) holds a
  slot until the kernel is registered, so concurrent requests cannot overshoot.
* **Pool.** Voilà's preheat machinery (``VoilaKernelManager``) runs for one notebook only, the
  page shell (``_shell.ipynb``): each pooled kernel has executed the shell and holds its HTML.
  Refills are serialized (one kernel starting and rendering at a time) and wait until
  ``refill_delay`` seconds passed since the last kernel was taken, so a burst of learners is
  not slowed by refills, and then, while a class keeps the processors busy, until they are
  idle enough (``refill_when_idle``, at most :data:`MAX_DEFERRAL` seconds); they never exceed
  the cap. Pooled kernels are never culled (Voilà).
* **Fair share.** Kernels are counted by client (:func:`client_key`: an IPv4 address, an IPv6
  /64). The last ``reserved_for_newcomers`` slots of the cap go only to a client holding no
  kernel (pool refills never take them either); and when the cap is reached and such a
  newcomer asks, the client holding the most kernels (at least two) gives up one, a kernel
  whose tab is gone first, else its least recently active (:meth:`Claims.reclaim`), instead
  of the newcomer being refused.

Log lines: ``Using pre-heated kernel: <id> for _shell.ipynb`` (a page served from the pool),
``Kernel pool of _shell.ipynb is filled with N kernel(s)``, ``Kernel cap reached``,
``Kernel cap reached: kernel <id> of <client> (holding N) shut down for a newcomer…``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from voila.notebook_renderer import NotebookRenderer
from voila.utils import ENV_VARIABLE
from voila.voila_kernel_manager import voila_kernel_manager_factory

from .cpu_idle import IdleMeter

#: Seconds to wait before trying a refill again when the cap leaves no room, or after a
#: refill failed.
RETRY_SECONDS = 10.0
#: Seconds over which the processors' idle share is measured before a refill.
IDLE_WINDOW = 2.0
#: Longest a refill waits for idle processors: then one kernel is started anyway (a machine
#: kept busy by something else would otherwise never refill its pool).
MAX_DEFERRAL = 60.0


@dataclass
class PooledPage:
    """A kernel taken from the pool, with what its pre-render has produced so far."""

    kernel_id: str
    renderer: NotebookRenderer
    render_task: asyncio.Task[tuple[list[str], Any]]


class Reservation:
    """One slot of the kernel cap, held until its kernel is registered (then the kernel
    itself counts); :meth:`release` is idempotent. ``after``: the shutdown of the kernel that
    gave this slot up (:meth:`Claims.reclaim`), which the start awaits first."""

    def __init__(self, budget: KernelBudget, after: asyncio.Future[Any] | None = None) -> None:
        self._budget: KernelBudget | None = budget
        self.after = after

    def release(self) -> None:
        budget, self._budget = self._budget, None
        if budget is not None:
            budget.reserved -= 1


class KernelBudget:
    """Counts live kernels plus kernels being started against ``max_kernels`` (0 = no cap).

    The last ``for_newcomers`` slots of the cap (``reserved_for_newcomers``, less than the cap)
    are only for a client holding no kernel (:meth:`Claims.holds_nothing`); at the cap such a
    newcomer is served by a :meth:`Claims.reclaim`. Without ``claims`` every asker is treated
    as a holder."""

    def __init__(
        self,
        manager: AsyncMappingKernelManager,
        max_kernels: int,
        reserved_for_newcomers: int = 0,
        claims: Claims | None = None,
    ) -> None:
        self.manager = manager
        self.max_kernels = max_kernels
        self.for_newcomers = max(0, min(reserved_for_newcomers, max_kernels - 1))
        self.claims = claims
        self.reserved = 0

    def live(self) -> int:
        """Kernels the manager knows (started or starting), less those reclaimed and on their
        way out."""
        kernels: dict[str, Any] = self.manager._kernels
        pending: dict[str, Any] = self.manager._pending_kernels
        known = kernels.keys() | pending.keys()
        if self.claims is not None:
            self.claims.leaving &= known
            known -= self.claims.leaving
        return len(known)

    def reserve(self, address: str) -> Reservation | None:
        """A slot for one more kernel for a page of ``address``, or ``None`` when the cap is
        reached for it."""
        if self.max_kernels <= 0:
            return self._grant()
        used = self.live() + self.reserved
        newcomer = self.claims is not None and self.claims.holds_nothing(address)
        if used < self.max_kernels - (0 if newcomer else self.for_newcomers):
            return self._grant()
        if newcomer and used >= self.max_kernels:
            assert self.claims is not None
            shutdown = self.claims.reclaim(address)
            if shutdown is not None:
                return self._grant(shutdown)
        return None

    def reserve_for_pool(self) -> Reservation | None:
        """A slot for a pooled kernel, or ``None``: the pool never takes the newcomers' part."""
        if self.max_kernels > 0 and self.live() + self.reserved >= (
            self.max_kernels - self.for_newcomers
        ):
            return None
        return self._grant()

    def _grant(self, after: asyncio.Future[Any] | None = None) -> Reservation:
        self.reserved += 1
        return Reservation(self, after)


def client_key(address: str) -> str:
    """The client an address counts for: an IPv4 address is one client (a /24 would lump a
    school with its neighbours, and a school's pupils share one address anyway); an IPv6
    address counts by its /64 (one customer's, or one host's, whole range); an IPv4-mapped
    IPv6 address is its IPv4 address; anything else (no address) stays as it is. Behind a
    trusted proxy (``DurakServer.trust_xheaders``) the address is the one Tornado took from
    ``X-Real-IP`` / ``X-Forwarded-For``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


#: The reservation of the kernel start running in this task (see :func:`holding`).
_RESERVATION: ContextVar[Reservation | None] = ContextVar("durak_reservation", default=None)


@contextmanager
def holding(reservation: Reservation | None) -> Iterator[None]:
    """Kernel starts inside this block consume ``reservation`` the moment the kernel is
    registered; the slot is released on exit in any case."""
    token = _RESERVATION.set(reservation)
    try:
        yield
    finally:
        _RESERVATION.reset(token)
        if reservation is not None:
            reservation.release()


class PageRequest:
    """A page request from ``address`` that may start a kernel: it counts against the
    address's waiting kernels (:class:`Claims`) from its start until its kernel is claimed or
    the request ends, so a burst of concurrent requests cannot slip past the limit. The
    kernel's time to connect starts when the request ends (its page has been sent)."""

    def __init__(self, claims: Claims, address: str) -> None:
        self.claims = claims
        self.address = address = client_key(address)
        self.starting = True
        self.kernel_id: str | None = None
        claims._starting[address] = claims._starting.get(address, 0) + 1

    def stop_starting(self) -> None:
        if self.starting:
            self.starting = False
            left = self.claims._starting[self.address] - 1
            if left:
                self.claims._starting[self.address] = left
            else:
                del self.claims._starting[self.address]

    def close(self) -> None:
        """The request ended: its kernel (if one started) must now connect in time."""
        self.stop_starting()
        kernel_id, self.kernel_id = self.kernel_id, None
        if kernel_id is not None:
            self.claims.start_clock(kernel_id, self.address)


#: The page request whose kernel may start in this task (see :func:`for_page`).
_REQUEST: ContextVar[PageRequest | None] = ContextVar("durak_page_request", default=None)


@contextmanager
def for_page(request: PageRequest) -> Iterator[None]:
    """A kernel started inside this block serves ``request``: it is claimed (:class:`Claims`)
    the moment it starts; the request stops counting on exit in any case."""
    token = _REQUEST.set(request)
    try:
        yield
    finally:
        _REQUEST.reset(token)
        request.close()


class Claims:
    """Kernels handed to pages, by the client address that asked.

    A page's browser connects to its kernel within seconds of receiving it. A kernel still
    without a connection ``connect_timeout`` seconds after it was handed out (a plain GET, a
    script, a browser that gave up) is shut down; and one address may have at most
    ``max_waiting`` such kernels at once: a flood of plain GETs from one client cannot fill the
    server's cap. A classroom behind one address is not held back by it: each learner's page
    connects, and stops counting, within seconds.

    One address may also hold at most ``max_held`` live kernels, connected or not (0: no
    limit): a client holding many silent websockets cannot fill the cap either while the
    culler waits for them to go quiet. A learner's one kernel serves every page they visit,
    so a few per address is room for a few tabs; a class behind one address needs more
    (:meth:`durak_server.app.DurakServer.kernels_per_address`).

    Every "address" here is a client key (:func:`client_key`): the addresses of one IPv6 /64
    share their limits. When the cap is reached, a client holding nothing may take a kernel
    from the client holding the most (:meth:`reclaim`).
    """

    def __init__(
        self,
        manager: AsyncMappingKernelManager,
        connect_timeout: float,
        max_waiting: int,
        max_held: int = 0,
    ) -> None:
        self.manager = manager
        self.connect_timeout = connect_timeout
        self.max_waiting = max_waiting
        self.max_held = max_held
        self._waiting: dict[str, set[str]] = {}
        self._held: dict[str, set[str]] = {}
        self._starting: dict[str, int] = {}
        self._shutting_down: set[asyncio.Future[Any]] = set()
        #: Kernels reclaimed for a newcomer whose shutdown has not finished: they no longer
        #: count against the cap (:meth:`KernelBudget.live`).
        self.leaving: set[str] = set()

    def _connected(self, kernel_id: str) -> bool:
        connections: dict[str, int] = self.manager._kernel_connections
        return connections.get(kernel_id, 0) > 0

    def waiting(self, address: str) -> int:
        """Kernels handed to ``address`` that are alive and still wait for their page."""
        address = client_key(address)
        kernels = self._waiting.get(address, set())
        kernels -= {k for k in kernels if k not in self.manager or self._connected(k)}
        if not kernels:
            self._waiting.pop(address, None)
        return len(kernels)

    def held(self, address: str) -> int:
        """Live kernels handed to ``address``, connected or not."""
        address = client_key(address)
        kernels = self._held.get(address, set())
        kernels -= {k for k in kernels if k not in self.manager}
        if not kernels:
            self._held.pop(address, None)
        return len(kernels)

    def full(self, address: str) -> bool:
        """Whether ``address`` may not be handed another kernel now: its waiting kernels, or
        all its kernels, with its requests still starting one, are at their limit."""
        address = client_key(address)
        starting = self._starting.get(address, 0)
        waiting = self.max_waiting > 0 and self.waiting(address) + starting >= self.max_waiting
        return waiting or (self.max_held > 0 and self.held(address) + starting >= self.max_held)

    def holds_nothing(self, address: str) -> bool:
        """Whether ``address`` holds no live kernel and has no request starting one: a
        newcomer (a burst of its requests is one newcomer, then a holder)."""
        address = client_key(address)
        return self._starting.get(address, 0) == 0 and self.held(address) == 0

    def reclaim(self, newcomer: str) -> asyncio.Future[Any] | None:
        """The cap is reached and ``newcomer`` holds nothing: the client holding the most
        kernels (at least two; the first to claim among equals) gives up one, whose shutdown
        (as culling does it) is returned; ``None`` if no client holds two. It gives up, first,
        a kernel whose browser has gone (not connected, no longer waiting for its page); then
        the least recently active."""
        counts = {key: self.held(key) for key in list(self._held)}
        if not counts:
            return None
        donor = max(counts, key=counts.__getitem__)
        if counts[donor] < 2:
            return None
        kernels = self._held[donor]
        waiting = self._waiting.get(donor, set())

        def order(kernel_id: str) -> tuple[bool, float]:
            kernel = self.manager._kernels.get(kernel_id)
            last = getattr(kernel, "last_activity", None)
            gone = not self._connected(kernel_id) and kernel_id not in waiting
            return not gone, last.timestamp() if last is not None else math.inf

        kernel_id = min(kernels, key=order)
        kernels.discard(kernel_id)
        waiting.discard(kernel_id)
        self.leaving.add(kernel_id)
        self.manager.log.info(
            "Kernel cap reached: kernel %s of %s (holding %d) shut down for a newcomer from %s",
            kernel_id,
            donor,
            counts[donor],
            client_key(newcomer),
        )
        shutdown = self._shut_down(kernel_id)
        # Gone, or (a failed shutdown) still there and counted again.
        shutdown.add_done_callback(lambda _: self.leaving.discard(kernel_id))
        return shutdown

    def _shut_down(self, kernel_id: str) -> asyncio.Future[Any]:
        shutdown: Any = self.manager.shutdown_kernel
        task: asyncio.Future[Any] = asyncio.ensure_future(shutdown(kernel_id))
        self._shutting_down.add(task)
        task.add_done_callback(self._shutting_down.discard)
        return task

    def request(self, address: str) -> PageRequest:
        """A page request from ``address`` (use it with :func:`for_page`)."""
        return PageRequest(self, address)

    def claim(self, kernel_id: str, address: str, request: PageRequest | None = None) -> None:
        """``kernel_id`` now serves a page of ``address``. Its time to connect starts now (a
        pooled page is sent at once), or, for ``request`` (a page still being rendered in
        it), when that request ends."""
        address = client_key(address)
        self._waiting.setdefault(address, set()).add(kernel_id)
        self._held.setdefault(address, set()).add(kernel_id)
        if request is None:
            self.start_clock(kernel_id, address)
        else:
            request.stop_starting()
            request.kernel_id = kernel_id

    def start_clock(self, kernel_id: str, address: str) -> None:
        """``kernel_id``'s page has been sent: shut it down if it has not connected after
        ``connect_timeout`` seconds."""
        if self.connect_timeout > 0:
            loop = asyncio.get_event_loop()
            loop.call_later(self.connect_timeout, self._check, kernel_id, address)

    def _check(self, kernel_id: str, address: str) -> None:
        self._waiting.get(address, set()).discard(kernel_id)
        if kernel_id not in self.manager or self._connected(kernel_id):
            return
        self.manager.log.warning(
            "Kernel %s: its page (from %s) did not connect within %g s: shutting it down",
            kernel_id,
            address,
            self.connect_timeout,
        )
        self._shut_down(kernel_id)


_VoilaPoolManager: Any = voila_kernel_manager_factory(AsyncMappingKernelManager, True, 0)


class DurakKernelManager(_VoilaPoolManager):  # type: ignore[misc]
    """Voilà's pooling kernel manager with a cap, one pooled notebook and paced refills.

    Configured by :class:`durak_server.app.DurakServer` (``pool_notebook``, ``pool_size``,
    ``refill_delay``, ``max_kernels``, ``reserved_for_newcomers``…) before Voilà's constructor
    fills the pool.
    """

    def __init__(
        self,
        *,
        pool_notebook: str,
        pool_size: int,
        refill_delay: float,
        max_kernels: int,
        refill_when_idle: float = 0.0,
        connect_timeout: float = 60.0,
        max_waiting_per_address: int = 8,
        max_kernels_per_address: int = 0,
        reserved_for_newcomers: int = 0,
        **kwargs: Any,
    ) -> None:
        self.pool_notebook = pool_notebook
        self.pool_size = pool_size
        self.refill_delay = refill_delay
        self.refill_when_idle = refill_when_idle
        self.claims = Claims(
            self, connect_timeout, max_waiting_per_address, max_kernels_per_address
        )
        self.budget = KernelBudget(self, max_kernels, reserved_for_newcomers, self.claims)
        self._last_pop = -math.inf
        self._refill_deferred: float | None = None  # since when a refill waits for idle CPUs
        self._refill_wanted: asyncio.Event | None = None
        self._refiller: asyncio.Task[None] | None = None
        # Voilà's constructor calls fill_if_needed() for every notebook _notebook_filter keeps.
        super().__init__(**kwargs)

    # ------------------------------------------------------------------ Voilà hooks

    def _notebook_filter(self, nb_path: Any) -> bool:
        """Only the shell is pre-heated (Voilà passes absolute paths)."""
        relative = os.path.relpath(str(nb_path), self.parent.root_dir)
        return self.pool_size > 0 and relative == self.pool_notebook

    def fill_if_needed(self, *args: Any, **kwargs: Any) -> None:
        """Wake the (single) refill task instead of starting kernels at once."""
        if self.pool_size <= 0:
            return
        if self._refiller is None:
            loop = asyncio.get_event_loop()
            self._refill_wanted = asyncio.Event()
            self._refiller = loop.create_task(self._refill_loop())
        assert self._refill_wanted is not None
        self._refill_wanted.set()

    def pre_start_kernel(self, kernel_name: str | None, kwargs: Any) -> Any:
        """Jupyter Client registers the kernel right after this (no await in between): the
        start's reservation is handed over to the kernel itself here."""
        reservation = _RESERVATION.get()
        if reservation is not None:
            reservation.release()
        return super().pre_start_kernel(kernel_name, kwargs)

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """Jupyter Server's start; a kernel started for a page (:func:`for_page`) is claimed.
        A start whose slot was reclaimed from another client waits for that kernel to go."""
        reservation = _RESERVATION.get()
        if reservation is not None and reservation.after is not None:
            await asyncio.wait([reservation.after])
        kernel_id: str = await super().start_kernel(*args, **kwargs)
        request = _REQUEST.get()
        if request is not None:
            self.claims.claim(kernel_id, request.address, request)
        return kernel_id

    def start_watching_activity(self, kernel_id: str) -> None:
        """Jupyter Server's activity record (``last_activity``, ``execution_state``: what the
        culler reads), without its cost: Jupyter Server checks the signature of every IOPub
        message and parses every date in it, a third of the server's time while a class
        changes pages. The socket is our own kernel's publisher, so reading the two headers
        (and a status message's small content) is enough."""
        kernel = self._kernels[kernel_id]
        kernel.reason = ""
        kernel.last_activity = utcnow()
        kernel._activity_stream = kernel.connect_iopub()
        tracked = self.track_message_type

        def record_activity(msg_list: list[bytes]) -> None:
            try:
                # after the identities: <IDS|MSG>, signature, header, parent, metadata, content
                start = msg_list.index(b"<IDS|MSG>") + 2
                msg_type = json.loads(msg_list[start]).get("msg_type")
                parent_type = json.loads(msg_list[start + 1]).get("msg_type")
                state = None
                if msg_type == "status":
                    state = json.loads(msg_list[start + 3]).get("execution_state")
            except (ValueError, AttributeError, IndexError, TypeError):
                self.log.debug("unreadable IOPub message from %s", kernel_id)
                return
            if tracked(msg_type) or tracked(parent_type) or kernel.execution_state == "busy":
                self.last_kernel_activity = kernel.last_activity = utcnow()
            if state is not None:
                if tracked(parent_type):
                    kernel.execution_state = state
                elif kernel.execution_state == "starting" and state != "starting":
                    kernel.execution_state = "idle"  # as Jupyter Server normalizes it

        kernel._activity_stream.on_recv(record_activity)

    def get_pool_size(self, notebook_name: str) -> int:
        """Voilà's own handler must never use the pool (the render handler does)."""
        return 0

    async def shutdown_all(self, *args: Any, **kwargs: Any) -> None:
        """Stop refilling, forget unfinished pool slots (their kernels, if any, are registered
        and shut down with the rest), then Voilà's shutdown. Voilà runs this on a new event
        loop after the server's has stopped: nothing of the old loop may be awaited here."""
        if self._refiller is not None:
            self._refiller.cancel()
        self._pool[:] = [future for future in self._pool if _succeeded(future)]
        await super().shutdown_all(*args, **kwargs)

    # ------------------------------------------------------------------ the pool

    @property
    def _pool(self) -> list[asyncio.Future[dict[str, Any]]]:
        pools: dict[str, list[asyncio.Future[dict[str, Any]]]] = self._pools
        return pools.setdefault(self.pool_notebook, [])

    def ready_count(self) -> int:
        """Pooled kernels that have started (their shell may still be rendering)."""
        return sum(1 for f in self._pool if _succeeded(f))

    def pop_ready(self) -> PooledPage | None:
        """Take a started pooled kernel, or ``None`` if none is ready."""
        for index, future in enumerate(self._pool):
            if _succeeded(future):
                del self._pool[index]
                content = future.result()
                renderer: NotebookRenderer = content["renderer"]
                renderer.stop_generator = True
                self._last_pop = asyncio.get_event_loop().time()
                # Its last activity dates from the pre-render, maybe minutes ago: without this
                # the culler may take it before the learner's page has connected.
                self.get_kernel(content["kernel_id"]).last_activity = utcnow()
                self.log.info(
                    "Using pre-heated kernel: %s for %s (%d left in the pool)",
                    content["kernel_id"],
                    self.pool_notebook,
                    self.ready_count(),
                )
                self.fill_if_needed()
                return PooledPage(content["kernel_id"], renderer, content["task"])
        return None

    async def _refill_loop(self) -> None:
        assert self._refill_wanted is not None
        loop = asyncio.get_event_loop()
        capped = False
        while True:
            await self._refill_wanted.wait()
            self._refill_wanted.clear()
            while len(self._pool) < self.pool_size:
                wait = self._last_pop + self.refill_delay - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)  # learners are still arriving: keep quiet
                    continue
                if self._last_pop > -math.inf and not await self._processors_idle():
                    continue  # a class is working: its clicks come first
                reservation = self.budget.reserve_for_pool()
                if reservation is None:
                    if not capped:
                        self.log.info("Kernel cap reached: the pool waits for a free slot")
                    capped = True
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                capped = False
                self._refill_deferred = None
                future = loop.create_task(self._start_pooled(reservation))
                self._pool.append(future)
                try:
                    content = await future
                    await content["task"]  # serialized: the shell has rendered
                except asyncio.CancelledError:
                    raise
                except Exception:
                    self.log.exception("Could not pre-start a kernel for %s", self.pool_notebook)
                    if future in self._pool:
                        self._pool.remove(future)
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                if len(self._pool) == self.pool_size and all(map(_succeeded, self._pool)):
                    self.log.info(
                        "Kernel pool of %s is filled with %s kernel(s)",
                        self.pool_notebook,
                        self.pool_size,
                    )

    async def _processors_idle(self) -> bool:
        """Whether the processors were idle at least ``refill_when_idle`` of a short window
        (:data:`IDLE_WINDOW` seconds; always, where that cannot be measured, with 0, or after
        waiting :data:`MAX_DEFERRAL` seconds). A refill takes a processor for about two
        seconds: while a class keeps them busy it waits, and a late arrival meanwhile gets a
        kernel of its own (started cold)."""
        if self.refill_when_idle <= 0:
            return True
        loop = asyncio.get_event_loop()
        if self._refill_deferred is not None and loop.time() - self._refill_deferred > MAX_DEFERRAL:
            return True
        meter = IdleMeter()
        await asyncio.sleep(IDLE_WINDOW)
        idle = meter.idle_since_last()
        if idle is None or idle >= self.refill_when_idle:
            return True
        if self._refill_deferred is None:
            self._refill_deferred = loop.time()
            self.log.info(
                "Pool refill waits: processors %.0f%% idle (below %.0f%%), at most %g s",
                100 * idle,
                100 * self.refill_when_idle,
                MAX_DEFERRAL,
            )
        return False

    async def _start_pooled(self, reservation: Reservation) -> dict[str, Any]:
        """Start one kernel and pre-render the shell in it (Voilà's ``_initialize``)."""
        parent = self.parent
        env = dict(os.environ)
        env[ENV_VARIABLE.VOILA_BASE_URL] = parent.base_url
        env[ENV_VARIABLE.VOILA_SERVER_URL] = parent.server_url
        env[ENV_VARIABLE.VOILA_APP_PORT] = str(parent.port)
        env[ENV_VARIABLE.VOILA_PREHEAT] = "True"
        with holding(reservation):
            content: dict[str, Any] = await self._initialize(
                self.pool_notebook, None, path=os.path.dirname(self.pool_notebook), env=env
            )
        return content


def _succeeded(future: asyncio.Future[dict[str, Any]]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None
