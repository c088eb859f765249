"""What a page's browser sends is untrusted: the checks every widget applies to it.

A widget's JavaScript can be replaced by anyone holding the page, so a message may be of any
shape and size, and a state update may try to write any trait. The widgets here validate each
message into a fresh value before a handler sees it (:func:`validated`), copy JSON data only
when it is plain and bounded (:func:`json_object_copy`), call their handlers so that one
failing cannot stop the others or reach the browser (:func:`notify`), and ignore browser
writes to the traits only Python sets (:class:`PythonOnlyTraits`).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar

__all__ = ["PythonOnlyTraits", "json_object_copy", "notify", "validated"]

T = TypeVar("T")


def _plain_json(
    value: object, depth: int, budget: list[int], limits: tuple[int, int | None, int | None]
) -> bool:
    """``value`` is plain JSON (no NaN or infinity) within ``limits`` (depth, key, string)."""
    max_depth, max_key, max_string = limits
    budget[0] -= 1
    if budget[0] < 0 or depth > max_depth:
        return False
    if value is None or isinstance(value, bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, str):
        return max_string is None or len(value) <= max_string
    if isinstance(value, list):
        return all(_plain_json(item, depth + 1, budget, limits) for item in value)
    if isinstance(value, dict):
        return all(
            isinstance(key, str)
            and (max_key is None or len(key) <= max_key)
            and _plain_json(item, depth + 1, budget, limits)
            for key, item in value.items()
        )
    return False


def json_object_copy(
    data: object,
    *,
    max_chars: int,
    max_depth: int = 8,
    max_nodes: int = 10_000,
    max_key: int | None = None,
    max_string: int | None = None,
) -> dict[str, Any] | None:
    """A fresh copy of ``data`` when it is a JSON object within the limits (at most
    ``max_chars`` as compact JSON, ``max_depth`` levels, ``max_nodes`` values, keys and
    strings at most ``max_key`` / ``max_string`` characters); ``None`` otherwise. The copy
    shares nothing with ``data``."""
    limits = (max_depth, max_key, max_string)
    if not isinstance(data, dict) or not _plain_json(data, 0, [max_nodes], limits):
        return None
    try:
        text = json.dumps(data, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    if len(text) > max_chars:
        return None
    copy: dict[str, Any] = json.loads(text)
    return copy


def validated(
    content: object,
    buffers: object,
    validate: Callable[[object], T | None],
    logger: logging.Logger,
    what: str,
) -> T | None:
    """``validate(content)`` for a message from the browser, or ``None`` (logged on
    ``logger`` at debug level, as ``what``) for a malformed one, one with binary buffers, or a
    validator that failed."""
    try:
        message = None if buffers else validate(content)
    except Exception:  # pragma: no cover - the validators are total; belt and braces
        logger.exception("%s: message validation failed", what)
        return None
    if message is None:
        logger.debug("%s: dropped a malformed message", what)
    return message


def notify(
    callbacks: Iterable[Callable[[T], object]], value: T, logger: logging.Logger, what: str
) -> None:
    """Call every callback with ``value``; one that raises is logged on ``logger`` (``what``
    names the handler kind) and the others still run: a traceback never reaches the browser."""
    for callback in list(callbacks):
        try:
            callback(value)
        except Exception:
            logger.exception("%s %r failed", what, callback)


class PythonOnlyTraits:
    """Mixin for a widget whose ``_PYTHON_ONLY`` traits only Python writes: state updates
    from the browser for them are dropped, so a forged update cannot change them."""

    _PYTHON_ONLY: ClassVar[frozenset[str]] = frozenset()

    def set_state(self, sync_data: dict[str, Any]) -> None:
        if isinstance(sync_data, dict):
            sync_data = {k: v for k, v in sync_data.items() if k not in self._PYTHON_ONLY}
        super().set_state(sync_data)  # type: ignore[misc]
