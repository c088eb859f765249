"""The front-end files of the explainer's widgets (``tutorial/static/``), read as text.

Two leaks of anywidget are avoided here, both of which would keep every old page of a tab
alive as the learner moves from page to page:

* An anywidget whose ``_esm`` or ``_css`` is a path watches that file and connects every
  instance to its change signal (for hot reloading), so no instance is ever freed in the
  kernel. Given as text, the files are read once per kernel.
* In the browser, anywidget imports each model's ``_esm`` afresh, and an imported module is
  never freed. Every widget's ``_esm`` is therefore the same small loader
  (``static/shared_module.js``) and its real module travels as the ``_module`` trait
  (:func:`module_trait`), imported once per tab.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

from traitlets import Unicode

__all__ = ["MODULE_LOADER", "STATIC", "asset", "module_trait"]

STATIC: Final = Path(__file__).resolve().parent / "static"


@cache
def asset(name: str) -> str:
    """The text of ``tutorial/static/<name>``."""
    return (STATIC / name).read_text(encoding="utf-8")


def module_trait(name: str) -> Unicode[str, str | bytes]:
    """The ``_module`` trait of a widget whose front end is ``tutorial/static/<name>``: set its
    ``_esm`` to :data:`MODULE_LOADER`."""
    return Unicode(asset(name), read_only=True).tag(sync=True)


MODULE_LOADER: Final = asset("shared_module.js")
"""Every widget's ``_esm``: imports the widget's ``_module`` once per tab."""
