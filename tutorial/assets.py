"""The front-end files of the explainer's widgets (``tutorial/static/``), read as text.

An anywidget whose ``_esm`` or ``_css`` is a path watches that file and connects every
instance to its change signal (for hot reloading), so no instance is ever freed: a learner who
opens page after page in one kernel would keep every old table alive. Given as text, the
files are read once per kernel and a closed widget is garbage like any other object.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

__all__ = ["STATIC", "asset"]

STATIC: Final = Path(__file__).resolve().parent / "static"


@cache
def asset(name: str) -> str:
    """The text of ``tutorial/static/<name>``."""
    return (STATIC / name).read_text(encoding="utf-8")
