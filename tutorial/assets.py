"""The front-end files of the explainer's widgets (``tutorial/static/``), sent once per kernel.

Every explainer widget is an anywidget whose ``_esm`` is the same small loader
(``static/shared_module.js``, :data:`MODULE_LOADER`). Its real code and style are other
models: a :class:`FrontEndFile` per file of ``tutorial/static/``, referenced by the widget's
``_module`` (JavaScript) and ``_style`` (CSS) traits (:func:`file_trait`). A file's model
is made the first time a widget needs it and kept for the kernel's life
(:func:`tutorial.deferred_open.keep`): a tab moving from page to page receives each file
once, not with every new table (it was two thirds of the bytes of a page change), and pages
never close it.

Three leaks are avoided on the way, each of which would keep every old page of a tab alive:

* An anywidget whose ``_esm`` or ``_css`` is a path watches that file and connects every
  instance to its change signal (for hot reloading), so no instance is ever freed in the
  kernel. The files are read as text, once per kernel.
* In the browser, anywidget imports each model's ``_esm`` afresh, and an imported module is
  never freed: the loader imports each file's module once per tab.
* anywidget adds a ``<style>`` for each model's ``_css``; the loader keeps one per file while
  a view needs it (a page's own style goes with the page).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, Final

import anywidget
import ipywidgets as w
from ipywidgets.widgets.widget import widget_serialization
from traitlets import Instance, List, Unicode

from .deferred_open import keep, waiting

__all__ = [
    "MODULE_LOADER",
    "STATIC",
    "FrontEndFile",
    "PageStyle",
    "asset",
    "file_trait",
    "front_end_file",
]

STATIC: Final = Path(__file__).resolve().parent / "static"


@cache
def asset(name: str) -> str:
    """The text of ``tutorial/static/<name>``."""
    return (STATIC / name).read_text(encoding="utf-8")


class FrontEndFile(w.Widget):  # type: ignore[misc]
    """One file of ``tutorial/static/`` in the browser: a plain model (no view) with its
    ``name`` and ``text``. The browser cannot change it."""

    name = Unicode().tag(sync=True)
    text = Unicode().tag(sync=True)

    def __init__(self, name: str) -> None:
        super().__init__(name=name, text=asset(name))  # opened with both

    def set_state(self, sync_data: Any) -> None:
        """Updates from the browser are dropped: only Python writes a file's text."""


_FILES: dict[str, FrontEndFile] = {}


def front_end_file(name: str) -> FrontEndFile:
    """The kernel's model of ``tutorial/static/<name>``, made (and kept) on first need; a new
    one if it was closed (``Widget.close_all()`` in a notebook)."""
    found = _FILES.get(name)
    if found is None or (found.comm is None and not waiting(found)):
        found = _FILES[name] = keep(FrontEndFile(name))
    return found


class _FileTrait(Instance[FrontEndFile]):
    """A synced reference to :func:`front_end_file` ``(name)``, which is its default."""

    def __init__(self, name: str) -> None:
        super().__init__(FrontEndFile, kw={})
        self.file = name
        self.tag(sync=True, **widget_serialization)

    def make_dynamic_default(self) -> FrontEndFile:
        return front_end_file(self.file)


def file_trait(name: str) -> _FileTrait:
    """A widget's ``_module`` (its code: set ``_esm`` to :data:`MODULE_LOADER`) or ``_style``
    (in the page while one of its views is): a reference to ``tutorial/static/<name>``."""
    return _FileTrait(name)


def _compact(source: str) -> str:
    """JavaScript without its comment lines, doc comments and indentation (every widget's
    ``_esm`` travels with it)."""
    source = re.sub(r"/\*\*.*?\*/", "", source, flags=re.S)
    lines = (re.sub(r"\s+//\s.*$", "", line).strip() for line in source.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


MODULE_LOADER: Final = _compact(asset("shared_module.js"))
"""Every widget's ``_esm``: imports the widget's ``_module`` once per tab and keeps its
``_style`` in the page."""


class PageStyle(anywidget.AnyWidget):
    """A page's style: ``panel.css`` and the page's own files of ``tutorial/static/``, in the
    browser's page while this widget is shown (a widget with no view of its own)."""

    _esm = MODULE_LOADER
    _styles = List(Instance(FrontEndFile)).tag(sync=True, **widget_serialization)

    def __init__(self, *names: str) -> None:
        super().__init__()
        self._styles = [front_end_file(name) for name in ("panel.css", *names)]
        self.add_class("durak-page-style")
