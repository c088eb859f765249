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
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
)
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
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
    """Jupyter Server's kernel connection with a size bound and a comm_open allowlist."""

    @property
    def max_message_bytes(self) -> int:
        """``DurakServer.max_message_bytes`` (tornado setting ``durak_max_message_bytes``)."""
        value: int = self.websocket_handler.settings.get(
            "durak_max_message_bytes", MAX_MESSAGE_BYTES
        )
        return value

    def handle_incoming_message(self, incoming_msg: str) -> None:
        size = len(incoming_msg)
        if size > self.max_message_bytes:
            self.log.warning("Dropped a %d-byte message from the browser (too large)", size)
            return
        refusal = self._refusal(incoming_msg)
        if refusal:
            self.log.warning("Dropped a message from the browser: %s", refusal)
            return
        super().handle_incoming_message(incoming_msg)

    def _refusal(self, incoming_msg: str | bytes) -> str | None:
        """Why this message must not reach the kernel, or ``None``."""
        try:
            header, content = self._header_and_content(incoming_msg)
        except Exception:
            return "unreadable message"
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
