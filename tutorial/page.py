"""Pieces every page shares: the page style, HTML escaping and the language menu."""

from __future__ import annotations

import html
import logging
from pathlib import Path
from typing import Any, Final

import ipywidgets as w

from .i18n import I18n, language_choices

__all__ = ["PANEL_STYLE", "escape", "language_menu"]

log = logging.getLogger(__name__)

#: The page style (``static/panel.css``), read once per kernel.
PANEL_STYLE: Final = (Path(__file__).resolve().parent / "static" / "panel.css").read_text(
    encoding="utf-8"
)


def escape(text: str) -> str:
    """Text safe to put between HTML tags or in a quoted attribute."""
    return html.escape(text, quote=True)


def language_menu(i18n: I18n) -> w.Dropdown:
    """A language menu wired to ``i18n``: choosing switches the page's language (pages redraw
    through ``i18n.on_change``). Label it with ``term(Term.LANGUAGE, tr)`` when rendering."""
    menu = w.Dropdown(
        options=language_choices(), value=i18n.language, layout=w.Layout(width="auto")
    )
    menu.add_class("durak-language")

    def switch(change: dict[str, Any]) -> None:
        try:
            i18n.set_language(str(change["new"]))
        except ValueError:
            log.warning("unsupported language %r", change["new"])

    menu.observe(switch, names="value")
    return menu
