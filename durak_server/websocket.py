"""Filters on the kernel websocket, both ways.

* Kernel -> browser (:class:`FilteredKernelWebsocketHandler`): ``error``, ``stream``,
  ``execute_input`` and ``execute_result`` messages are dropped, so a traceback, a stray
  ``print`` or a server path never reaches the page. Widgets only need comm, display and status
  messages.
* Browser -> kernel (:class:`FilteredWebsocketConnection`): besides Voilà's list of allowed
  message types (no ``execute_request``), a message larger than ``max_message_bytes`` is
  dropped, and ``comm_open`` is forwarded only for the widget manager's control channel
  (``jupyter.widget.control``), so the browser cannot create widgets in the kernel.

Every dropped message is logged at debug level (warning for refused browser messages).

**A budget counted where messages arrive** (issue 37, items 1 and 5): the kernel's own rate
limit (:mod:`tutorial.kernel_safety`) counts a message only when the kernel gets to it, so
while it builds one page (about 50 ms of CPU) the bucket refills and a queued burst of page
changes all ran. Here every message from the browser is charged *on arrival*, before the
kernel sees it, to two token buckets (:class:`TokenBucket`): the connection's own, and the
kernel's, shared by every connection to that kernel (a page may hold a second socket for a
moment while it reconnects; a forged one cannot take more than the kernel's share). The cost
follows the kernel's work (:func:`classify`): a page change (the bridge's ``go``), a
``hello`` (it builds the first page) and the widget manager's ``request_states`` (the state
of every widget) cost :data:`PAGE_COST`; a click, a ping, anything else 1. Defaults
(:class:`Budget`): 20 tokens a second, 150 at once, per connection; 1.5 times that per kernel.
So a connection may change page 6 times at once and then once every 1.25 s, and click 150 times
at once and then 20 times a second (the kernel's own limit, which stays, is 50 at once and 20 a
second: a click costs no more here than there). A learner (a few clicks a second, a page change
every few seconds, Back four times in a row, a ping every 3 s) never comes near it; a page
opening spends about 55 (its ``request_states`` and ``hello``).

Over budget a message is dropped before the kernel works, except a page change: a burst of
them **collapses to the newest** (:class:`MessageGate`). One page change is held per
connection; a newer one replaces it (the older is dropped: navigation is idempotent, only
the last address matters). The held one goes to the kernel once the buckets can pay for it
and the kernel has finished the page change before it (its ``status: idle`` for that message,
or :data:`BUSY_MAX` seconds), so the learner's last page change is never lost, and a flood
builds one page at a time, at most ``rate / PAGE_COST`` a second.

Each burst of refused messages is logged once: one WARNING when it starts, one INFO line
with the counts when it ends (:data:`QUIET` seconds without a refusal, or the socket closing).
"""

from __future__ import annotations

import json
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
)
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
from tornado.ioloop import IOLoop
from voila.tornado.kernel_websocket_handler import (
    VoilaKernelWebsocketHandler,
    read_header_from_binary_message,
)

#: Kernel messages the browser never receives.
DROPPED_OUTGOING = frozenset({"error", "stream", "execute_input", "execute_result"})
#: The only comm target the browser may open.
ALLOWED_COMM_TARGETS = frozenset({"jupyter.widget.control"})
#: Default bound on one message from the browser.
MAX_MESSAGE_BYTES = 64 * 1024

_V1 = "v1.kernel.websocket.jupyter.org"
#: Most parts one message may declare (a kernel message has 5 plus its buffers). Jupyter
#: Server's decoders build the offset list before checking anything: a 24-byte frame that
#: claims 10**8 offsets would block the event loop and take gigabytes.
MAX_PARTS = 64
# Jupyter Server's (untyped) decoders, with the types they have.
_from_ws_v1: Callable[[bytes], tuple[str, list[bytes]]] = deserialize_msg_from_ws_v1
_from_binary: Callable[[bytes], dict[str, Any]] = deserialize_binary_message


# ------------------------------------------------------------------------ the message budget

#: Tokens a page change, a hello or a ``request_states`` costs (a click or a ping costs 1).
PAGE_COST: Final = 25
#: Seconds a held page change waits for the kernel to finish the one before, at most.
BUSY_MAX: Final = 5.0
#: Seconds without a refused message that end a burst (and its log).
QUIET: Final = 5.0
#: The kernel's bucket, in connections' worth (one page plus a reconnecting one).
KERNEL_SHARE: Final = 1.5

_budget_log = logging.getLogger("durak_server.budget")


@dataclass(frozen=True)
class Budget:
    """The message budget of one connection: ``rate`` tokens a second, ``burst`` at once; a
    page change costs ``page_cost``. The kernel's bucket is ``kernel_share`` times that.
    ``rate`` 0 turns the budget off."""

    rate: float = 20.0
    burst: float = 150.0
    page_cost: float = PAGE_COST
    kernel_share: float = KERNEL_SHARE

    @property
    def enabled(self) -> bool:
        return self.rate > 0 and self.burst > 0


class TokenBucket:
    """``burst`` tokens at most, refilled at ``rate`` a second (the clock is passed in)."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._at = now

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._at)  # a clock going back refills nothing
        self._at = max(self._at, now)
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)

    def level(self, now: float) -> float:
        self._refill(now)
        return self.tokens

    def wait(self, cost: float, now: float) -> float:
        """Seconds until ``cost`` tokens are there (0: now)."""
        missing = min(cost, self.burst) - self.level(now)
        return 0.0 if missing <= 0 else missing / self.rate

    def pay(self, cost: float) -> None:
        self.tokens -= min(cost, self.burst)


@dataclass(frozen=True)
class Kind:
    """What a browser message is, for the budget: its cost; ``page`` for a page change (held
    and collapsed, never dropped); ``msg_id``: its header's (to see the kernel finish it)."""

    cost: float
    page: bool = False
    msg_id: str = ""
    name: str = "message"


def classify(header: Any, content: Any, budget: Budget) -> Kind:
    """The :class:`Kind` of a browser message from its header and content (never raises)."""
    msg_id = header.get("msg_id") if isinstance(header, dict) else None
    msg_id = msg_id if isinstance(msg_id, str) else ""
    msg_type = header.get("msg_type") if isinstance(header, dict) else None
    if msg_type != "comm_msg" or not isinstance(content, dict):
        return Kind(1.0, msg_id=msg_id, name=str(msg_type)[:40])
    data = content.get("data")
    method = data.get("method") if isinstance(data, dict) else None
    if method == "request_states":
        return Kind(budget.page_cost, msg_id=msg_id, name="request_states")
    if method == "custom" and isinstance(data, dict):
        said = data.get("content")
        kind = said.get("type") if isinstance(said, dict) else None
        if kind == "go":
            return Kind(budget.page_cost, page=True, msg_id=msg_id, name="page change")
        if kind == "hello":
            return Kind(budget.page_cost, msg_id=msg_id, name="hello")
    return Kind(1.0, msg_id=msg_id, name="comm_msg")


Schedule = Callable[[float, Callable[[], None]], Callable[[], None]]
"""``schedule(delay, callback)`` calls ``callback`` in ``delay`` seconds; it returns a
function that cancels the call."""


def _ioloop_schedule(delay: float, callback: Callable[[], None]) -> Callable[[], None]:
    loop = IOLoop.current()
    handle = loop.call_later(delay, callback)
    return lambda: loop.remove_timeout(handle)


class MessageGate:
    """One connection's budget: what passes to the kernel (``forward``), what is dropped, the
    held page change, and the burst's log lines. Driven by :meth:`incoming` (every message
    from the browser), :meth:`kernel_idle` (the kernel finished a message) and the timers it
    sets through ``schedule``; ``clock`` gives the time in seconds."""

    def __init__(
        self,
        budget: Budget,
        kernel: TokenBucket,
        forward: Callable[[Any], None],
        *,
        label: str = "",
        clock: Callable[[], float] = time.monotonic,
        schedule: Schedule = _ioloop_schedule,
        log: logging.Logger = _budget_log,
    ) -> None:
        self.budget = budget
        self.own = TokenBucket(budget.rate, budget.burst, clock())
        self.kernel = kernel
        self.forward = forward
        self.label = label
        self.clock = clock
        self.schedule = schedule
        self.log = log
        self.pending: tuple[Any, Kind] | None = None
        """The held page change (the newest asked for) and its kind."""
        self._pending_paid = False
        self.in_flight = ""
        """The msg_id of the last page change forwarded, until the kernel finished it."""
        self._in_flight_at = 0.0
        self._retry: Callable[[], None] | None = None
        self._burst_end: Callable[[], None] | None = None
        self.forwarded = 0
        self.dropped = 0
        """Messages refused so far (all bursts): over budget, or an older page change that a
        newer one replaced."""
        self.collapsed = 0
        """Page changes among :attr:`dropped` (replaced by a newer one)."""
        self.bursts = 0
        self._bursting = False
        self._burst: dict[str, int] = {}
        self._burst_started = 0.0
        self._refused_since_check = False
        self.closed = False

    # -- the buckets

    def _wait(self, cost: float, now: float) -> float:
        return max(self.own.wait(cost, now), self.kernel.wait(cost, now))

    def _pay(self, cost: float) -> None:
        self.own.pay(cost)
        self.kernel.pay(cost)

    # -- messages

    def incoming(self, message: Any, kind: Kind) -> None:
        """A message from the browser: forwarded now, held (a page change) or dropped."""
        if self.closed:
            return
        now = self.clock()
        if kind.page:
            self._page(message, kind, now)
        elif self._wait(kind.cost, now) <= 0:
            self._pay(kind.cost)
            self._send(message)
        else:
            self._refused(kind.name, now)

    def _page(self, message: Any, kind: Kind, now: float) -> None:
        affordable = self._wait(kind.cost, now) <= 0
        if affordable:
            self._pay(kind.cost)
        else:
            self._refused("page change", now)  # over budget: held, never dropped itself
        if self.pending is not None:
            self.dropped += 1
            self.collapsed += 1
            self._count("page changes replaced by a newer one")
        # a paid page change that a newer one replaces passes its payment on
        self._pending_paid = affordable or (self.pending is not None and self._pending_paid)
        self.pending = (message, kind)
        self._release()

    def kernel_idle(self, msg_id: str) -> None:
        """The kernel finished the message ``msg_id`` (its ``status: idle``)."""
        if msg_id and msg_id == self.in_flight:
            self.in_flight = ""
            self._release()

    def _busy(self, now: float) -> float:
        """Seconds the kernel may still be busy with the last page change (0: not)."""
        if not self.in_flight:
            return 0.0
        left = self._in_flight_at + BUSY_MAX - now
        if left <= 0:
            self.in_flight = ""
            return 0.0
        return left

    def _release(self) -> None:
        """Forward the held page change if the kernel is free and it is paid (or can be);
        else try again when that may be so."""
        if self.closed or self.pending is None:
            return
        now = self.clock()
        message, kind = self.pending
        wait = self._busy(now)
        if not wait and not self._pending_paid:
            wait = self._wait(kind.cost, now)
            if not wait:
                self._pay(kind.cost)
                self._pending_paid = True
        if wait:
            # kernel_idle may come first; the timer covers a lost idle and the refill
            self._timer(wait)
            return
        self.pending = None
        self._pending_paid = False
        self.in_flight = kind.msg_id
        self._in_flight_at = now
        self._send(message)

    def _timer(self, delay: float) -> None:
        if self._retry is not None:
            self._retry()

        def retry() -> None:
            self._retry = None
            self._release()

        self._retry = self.schedule(delay, retry)

    def _send(self, message: Any) -> None:
        self.forwarded += 1
        self.forward(message)

    # -- the burst's log

    def _refused(self, what: str, now: float) -> None:
        if what != "page change":
            self.dropped += 1
        self._refused_since_check = True
        if not self._bursting:
            self._bursting = True
            self.bursts += 1
            self._burst_started = now
            self.log.warning(
                "Browser messages over budget%s: refusing them until they stop (a page change "
                "costs %g tokens, a click or a ping 1; %g a second, %g at once; only the newest "
                "page change is kept)",
                self.label,
                self.budget.page_cost,
                self.budget.rate,
                self.budget.burst,
            )
            self._burst_end = self.schedule(QUIET, self._check_burst)
        self._count(f"{what} over budget")

    def _count(self, what: str) -> None:
        """Count a refusal for the burst's last line (refusals outside a burst are the
        silent ones: page changes a learner asked faster than the kernel builds them)."""
        if self._bursting:
            self._burst[what] = self._burst.get(what, 0) + 1

    def _check_burst(self) -> None:
        self._burst_end = None
        if self._refused_since_check and not self.closed:
            self._refused_since_check = False
            self._burst_end = self.schedule(QUIET, self._check_burst)
            return
        self._end_burst()

    def _end_burst(self) -> None:
        if not self._bursting:
            return
        self._bursting = False
        counts = ", ".join(f"{what}: {n}" for what, n in sorted(self._burst.items()))
        self.log.info(
            "Browser messages over budget%s: the burst is over after %.1f s (%s)",
            self.label,
            max(0.0, self.clock() - self._burst_started),
            counts,
        )
        self._burst = {}

    def close(self) -> None:
        """The socket closed: cancel the timers, drop the held page change, log the burst."""
        if self.closed:
            return
        self.closed = True
        for cancel in (self._retry, self._burst_end):
            if cancel is not None:
                cancel()
        self._retry = self._burst_end = None
        if self.pending is not None:
            self.pending = None
            self.dropped += 1
            self._count("page changes held when the socket closed")
        self._end_burst()


#: The kernels' buckets, one per kernel (its manager), gone with it.
_KERNEL_BUCKETS: weakref.WeakKeyDictionary[Any, TokenBucket] = weakref.WeakKeyDictionary()


def kernel_bucket(kernel: Any, budget: Budget, now: float) -> TokenBucket:
    """The bucket all connections to ``kernel`` (its ``KernelManager``) share."""
    bucket = _KERNEL_BUCKETS.get(kernel)
    if bucket is None:
        share = budget.kernel_share
        bucket = TokenBucket(budget.rate * share, budget.burst * share, now)
        _KERNEL_BUCKETS[kernel] = bucket
    return bucket


class FilteredKernelWebsocketHandler(VoilaKernelWebsocketHandler):  # type: ignore[misc]
    """Voilà's kernel websocket handler, dropping :data:`DROPPED_OUTGOING` messages (a superset
    of Voilà's own filter, so each header is read once, here, and Voilà's is skipped)."""

    def write_message(self, message: bytes | str | dict[str, Any], binary: bool = False) -> Any:
        header: Any
        if isinstance(message, bytes):
            header = read_header_from_binary_message(message)
        elif isinstance(message, dict):
            header = message.get("header")
        else:
            try:
                header = json.loads(message).get("header")
            except (ValueError, AttributeError):
                header = None
        msg_type = header.get("msg_type") if isinstance(header, dict) else None
        if msg_type in DROPPED_OUTGOING:
            self.log.debug("Not sending a %r message to the browser", msg_type)
            return None
        return KernelWebsocketHandler.write_message(self, message, binary)

    def get_websocket_protocol(self) -> Any:
        """Jupyter Server pings every ``ws_ping_interval`` ms and closes a socket whose pong is
        ``ws_ping_timeout`` ms late; Tornado would read the same numbers as seconds (and warn),
        so its own pinging is turned off."""
        protocol = super().get_websocket_protocol()
        if protocol is not None:
            protocol.params.ping_interval = None
        return protocol


class FilteredWebsocketConnection(ZMQChannelsWebsocketConnection):
    """Jupyter Server's kernel connection with a size bound, a comm_open allowlist and the
    message budget (:class:`MessageGate`)."""

    _gate: MessageGate | None = None

    @property
    def max_message_bytes(self) -> int:
        """``DurakServer.max_message_bytes`` (tornado setting ``durak_max_message_bytes``)."""
        value: int = self.websocket_handler.settings.get(
            "durak_max_message_bytes", MAX_MESSAGE_BYTES
        )
        return value

    @property
    def budget(self) -> Budget:
        """The message budget (tornado setting ``durak_message_budget``)."""
        value = self.websocket_handler.settings.get("durak_message_budget")
        return value if isinstance(value, Budget) else Budget()

    def handle_incoming_message(self, incoming_msg: str) -> None:
        size = len(incoming_msg)
        if size > self.max_message_bytes:
            self.log.warning("Dropped a %d-byte message from the browser (too large)", size)
            return
        header: Any = None
        content: Any = None
        try:
            header, content = self._header_and_content(incoming_msg)
        except Exception:
            refusal: str | None = "unreadable message"
        else:
            refusal = self._refusal(header, content)
        if refusal:
            self.log.warning("Dropped a message from the browser: %s", refusal)
            return
        gate = self._message_gate()
        if gate is None:
            super().handle_incoming_message(incoming_msg)
        else:
            gate.incoming(incoming_msg, classify(header, content, gate.budget))

    def _forward(self, incoming_msg: Any) -> None:
        super().handle_incoming_message(incoming_msg)

    def _message_gate(self) -> MessageGate | None:
        """This connection's gate, made with its first message (``None``: no budget)."""
        if self._gate is None:
            budget = self.budget
            if not budget.enabled:
                return None
            request = getattr(self.websocket_handler, "request", None)
            address = getattr(request, "remote_ip", None) or "?"
            self._gate = MessageGate(
                budget,
                kernel_bucket(self.kernel_manager, budget, time.monotonic()),
                self._forward,
                label=f" on kernel {str(self.kernel_id)[:8]} from {address}",
                log=self.log,
            )
        return self._gate

    def handle_outgoing_message(self, stream: str, outgoing_msg: list[Any]) -> None:
        super().handle_outgoing_message(stream, outgoing_msg)
        gate = self._gate
        if gate is not None and gate.in_flight:
            finished = self._idle_parent(outgoing_msg)
            if finished:
                gate.kernel_idle(finished)

    def _idle_parent(self, outgoing_msg: list[Any]) -> str | None:
        """The msg_id a kernel's ``status: idle`` message answers, else ``None``."""
        try:
            _, parts = self.session.feed_identities(outgoing_msg)
            header = _raw(parts[1])
            if b'"status"' not in header or b"idle" not in _raw(parts[4]):
                return None
            if json.loads(header).get("msg_type") != "status":
                return None
            if json.loads(_raw(parts[4])).get("execution_state") != "idle":
                return None
            msg_id = json.loads(_raw(parts[2])).get("msg_id")
        except Exception:
            return None
        return msg_id if isinstance(msg_id, str) else None

    def disconnect(self) -> Any:
        if self._gate is not None:
            self._gate.close()
        return super().disconnect()  # type: ignore[no-untyped-call]

    def _refusal(self, header: Any, content: Any) -> str | None:
        """Why this message must not reach the kernel, or ``None``."""
        if not isinstance(header, dict):
            return "message without a header"
        if header.get("msg_type") == "comm_open":
            target = content.get("target_name") if isinstance(content, dict) else None
            if target not in ALLOWED_COMM_TARGETS:
                return f"comm_open for target {str(target)[:80]!r}"
        return None

    def _header_and_content(self, incoming_msg: str | bytes) -> tuple[Any, Any]:
        if self.subprotocol == _V1:
            if not isinstance(incoming_msg, bytes) or not valid_v1_frame(incoming_msg):
                raise ValueError("not a well-formed v1 frame")
            _channel, parts = _from_ws_v1(incoming_msg)
            return json.loads(parts[0]), json.loads(parts[3])
        if isinstance(incoming_msg, bytes):
            if not valid_binary_frame(incoming_msg):
                raise ValueError("not a well-formed binary message")
            msg = _from_binary(incoming_msg)
        else:
            msg = json.loads(incoming_msg)
        return msg.get("header"), msg.get("content")


def _raw(part: Any) -> bytes:
    """A ZMQ message part as bytes (it may be a ``zmq.Frame``)."""
    return part if isinstance(part, bytes) else bytes(getattr(part, "bytes", part))


def _offsets_ok(offsets: list[int], start: int, size: int) -> bool:
    """Offsets that begin right after the offset table, never go back, stay in the frame."""
    return (
        bool(offsets)
        and offsets[0] == start
        and all(a <= b <= size for a, b in zip(offsets, [*offsets[1:], size], strict=True))
    )


def valid_v1_frame(frame: bytes) -> bool:
    """``frame`` is a plausible ``v1.kernel.websocket.jupyter.org`` message: a count of at
    most :data:`MAX_PARTS` offsets (channel and four message parts at least) that fit."""
    if len(frame) < 8:
        return False
    count = int.from_bytes(frame[:8], "little")
    start = 8 * (count + 1)
    if not 6 <= count <= MAX_PARTS or start > len(frame):
        return False
    offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    return _offsets_ok(offsets, start, len(frame))


def valid_binary_frame(frame: bytes) -> bool:
    """``frame`` is a plausible legacy binary message (big-endian 32-bit part count and
    offsets, at most :data:`MAX_PARTS` parts, all inside the frame)."""
    if len(frame) < 4:
        return False
    count = int.from_bytes(frame[:4], "big", signed=True)
    start = 4 * (count + 1)
    if not 1 <= count <= MAX_PARTS or start > len(frame):
        return False
    offsets = [int.from_bytes(frame[4 * (i + 1) : 4 * (i + 2)], "big") for i in range(count)]
    return _offsets_ok(offsets, start, len(frame))
