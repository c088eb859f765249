"""The card table: one anywidget that draws a whole :class:`~tutorial.view_model.TableView`.

The controller calls :meth:`TableWidget.show` with a snapshot (a redraw is one comm message)
and registers handlers with :meth:`TableWidget.on_click`. Every message from the browser is
validated here first: only well-formed :class:`~tutorial.view_model.Click` dicts reach the
handlers; anything else (a forged or broken message) is dropped silently and never raises.

The JavaScript and CSS are package files (``tutorial/static/``), sent inline with the widget:
nothing is fetched from a CDN, so the table works offline, in Voilà and in Voici.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

import anywidget
from traitlets import Dict

from .assets import MODULE_LOADER, file_trait
from .browser_input import PythonOnlyTraits, json_object_copy, notify, validated
from .view_model import Click, TableView

__all__ = ["ACTION_IDS", "CARD_ID", "ZONES", "ClickHandler", "TableWidget", "validate_click"]

log = logging.getLogger(__name__)


CARD_ID = re.compile(r"(10|[2-9JQKA])[CDHS]")
"""A card id in engine notation (``"10H"``, ``"QS"``); matched with ``fullmatch``."""
ZONES = frozenset({"hand", "table", "seat"})
ACTION_IDS = frozenset({"take", "pass", "swap", "transfer", "flash", "redeal", "keep", "hint"})

# Limits for the progress data the browser sends back from its localStorage.
PROGRESS_MAX_CHARS = 65_536
"""Size of the progress data as compact JSON."""
_PROGRESS_MAX_DEPTH = 8
_PROGRESS_MAX_NODES = 10_000
_PROGRESS_MAX_KEY = 200
_PROGRESS_MAX_STRING = 4_096

ClickHandler = Callable[[Click], object]


def _progress_copy(data: object) -> dict[str, Any] | None:
    return json_object_copy(
        data,
        max_chars=PROGRESS_MAX_CHARS,
        max_depth=_PROGRESS_MAX_DEPTH,
        max_nodes=_PROGRESS_MAX_NODES,
        max_key=_PROGRESS_MAX_KEY,
        max_string=_PROGRESS_MAX_STRING,
    )


def validate_click(content: object) -> Click | None:
    """A fresh, well-formed :class:`Click` built from ``content``, or ``None``.

    Accepted (and nothing else, no extra keys):

    * ``{"type": "card", "zone": "hand" | "table" | "seat", "id": "10H"}``
    * ``{"type": "action", "id": "take" | "pass" | "swap" | "transfer" | "flash" | "redeal"
      | "keep" | "hint"}``
    * ``{"type": "progress", "data": {...}}``: a dict of JSON values, at most
      :data:`PROGRESS_MAX_CHARS` characters as JSON.
    """
    if not isinstance(content, dict):
        return None
    kind = content.get("type")
    if not isinstance(kind, str):
        return None
    keys = set(content)
    if kind == "card" and keys == {"type", "zone", "id"}:
        zone, card = content["zone"], content["id"]
        if (
            isinstance(zone, str)
            and zone in ZONES
            and isinstance(card, str)
            and CARD_ID.fullmatch(card)
        ):
            return cast(Click, {"type": "card", "zone": zone, "id": card})
    elif kind == "action" and keys == {"type", "id"}:
        action = content["id"]
        if isinstance(action, str) and action in ACTION_IDS:
            return cast(Click, {"type": "action", "id": action})
    elif kind == "progress" and keys == {"type", "data"}:
        data = _progress_copy(content["data"])
        if data is not None:
            # A copy: the handler gets plain data nobody else holds.
            return cast(Click, {"type": "progress", "data": data})
    return None


class TableWidget(PythonOnlyTraits, anywidget.AnyWidget):
    """The whole card table, drawn in the browser from one :class:`TableView` snapshot.

    Usage::

        table = TableWidget()
        table.on_click(handle)   # handle({"type": "card", "zone": "hand", "id": "7S"})
        table.show(view)         # one comm message per redraw

    ``progress`` holds the learner's saved progress: the browser sends what its localStorage
    held as a ``{"type": "progress", "data": {...}}`` click when the table is first drawn, and
    writes the trait's value back to localStorage whenever the controller sets it.
    """

    _esm = MODULE_LOADER
    _module = file_trait("table.js")
    _style = file_trait("table.css")

    view = Dict().tag(sync=True)
    progress = Dict().tag(sync=True)

    # The browser never writes these: only Python does (see PythonOnlyTraits).
    _PYTHON_ONLY = frozenset({"view", "progress"})

    def __init__(self, view: TableView | None = None, **kwargs: Any) -> None:
        if view is not None:
            kwargs["view"] = dict(view)
        super().__init__(**kwargs)
        self._click_handlers: list[ClickHandler] = []
        self.on_msg(self._handle_browser_msg)

    # ------------------------------------------------------------------ controller side

    def show(self, view: TableView | Mapping[str, Any]) -> None:
        """Draw ``view``: exactly one comm message per call. An unchanged snapshot is sent
        too (a predictable cost); the browser sees it is equal and does not redraw."""
        snapshot = dict(view)
        if snapshot == self.view:
            # traitlets sends nothing for an equal value; the caller asked for a redraw.
            self.send_state("view")
        else:
            self.view = snapshot

    def on_click(self, callback: ClickHandler, *, remove: bool = False) -> None:
        """(Un)register ``callback(click)``: it receives validated :class:`Click` dicts
        (cards, actions and the progress read from localStorage). An exception in a
        callback is logged; it never reaches the browser or the other callbacks."""
        if remove:
            if callback in self._click_handlers:
                self._click_handlers.remove(callback)
        elif callback not in self._click_handlers:
            self._click_handlers.append(callback)

    # ------------------------------------------------------------------ browser side

    def _handle_browser_msg(self, _widget: object, content: object, buffers: object) -> None:
        click = validated(content, buffers, validate_click, log, "table widget")
        if click is not None:
            notify(self._click_handlers, click, log, "table widget: click handler")
