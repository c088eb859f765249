"""A page's widgets reach the browser complete: one ``comm_open`` each, layouts shared.

:func:`tutorial.deferred_open.built_then_opened` holds back the comms of the widgets made
inside it until the block ends (what :class:`tutorial.pages.Site` builds each page in), so a
page change costs the browser, the server and the kernel about half the messages.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import comm
import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances

from tests.helpers import say
from tutorial.deferred_open import built_then_opened
from tutorial.page import is_shown, set_shown
from tutorial.pages import Site
from tutorial.table_widget import TableWidget

pytestmark = pytest.mark.usefixtures("no_server_language")


def opens(messages: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    return [data for kind, data in messages if kind == "comm_open"]


def references(state: dict[str, Any]) -> list[str]:
    """The model ids a widget's state refers to (``IPY_MODEL_…``)."""
    found: list[str] = []
    for value in state.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item.startswith("IPY_MODEL_"):
                found.append(item.removeprefix("IPY_MODEL_"))
    return found


def test_widgets_open_when_the_block_ends_with_their_final_state(
    messages: list[tuple[str, Any]],
) -> None:
    with built_then_opened():
        label = w.HTML("first")
        box = w.VBox([label])
        label.value = "second"  # no update: the widget is not open yet
        box.add_class("done")
        set_shown(label, False)
        assert label.comm is None and not messages
    sent = [kind for kind, _ in messages]
    assert "comm_msg" not in sent  # no update at all, only opens
    states = {data["state"]["_model_name"]: data["state"] for data in opens(messages)}
    assert states["HTMLModel"]["value"] == "second"
    assert not is_shown(label) and "durak-hidden" in states["HTMLModel"]["_dom_classes"]
    assert "done" in states["VBoxModel"]["_dom_classes"]
    assert label.comm is not None and label.model_id in _instances


def test_every_model_is_opened_after_the_models_it_refers_to(
    messages: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[tuple[str, list[str]]] = []  # (model id, the ids its state refers to)
    create = comm.create_comm

    def recording(**kwargs: Any) -> Any:
        made = create(**kwargs)
        order.append((made.comm_id, references(kwargs["data"]["state"])))
        return made

    monkeypatch.setattr(comm, "create_comm", recording)
    with built_then_opened():
        outer = w.VBox()  # made before its children, filled afterwards
        inner = w.HBox([w.Button(description="a"), w.HTML("b")])
        outer.children = (inner, w.HTML("c"))
    opened: set[str] = set()
    for model_id, refers_to in order:
        assert set(refers_to) <= opened, f"{model_id} opened before {set(refers_to) - opened}"
        opened.add(model_id)
    assert {outer.model_id, inner.model_id} <= opened
    # 2 boxes, a button, 2 HTML; one layout for all, one HTML style, one button style
    assert len(order) == len(opened) == 8


def test_equal_layouts_and_styles_are_one_model_and_unused_ones_never_open(
    messages: list[tuple[str, Any]],
) -> None:
    with built_then_opened():
        a, b = w.HTML("a"), w.HTML("b")
        wide = w.Button(layout=w.Layout(width="auto"))
        also_wide = w.Button(layout=w.Layout(width="auto"))
        narrow = w.Button(layout=w.Layout(width="10px"))
        stray = w.Layout(height="5px")  # referred to by nothing
    assert a.layout is b.layout and a.style is b.style
    assert wide.layout is also_wide.layout and wide.layout is not narrow.layout
    assert narrow.layout.width == "10px" and wide.layout.width == "auto"
    assert stray.comm is None  # never sent to the browser
    layouts = [d for d in opens(messages) if d["state"]["_model_name"] == "LayoutModel"]
    assert len(layouts) == 3  # a/b's default, "auto", "10px"
    with pytest.raises(RuntimeError, match="shared by several widgets"):
        wide.layout.display = "none"  # would hide also_wide too: show and hide by class
    # the next page's equal layouts and styles are the same models, which the browser has
    messages.clear()
    with built_then_opened():
        c, also_narrow = w.HTML("c"), w.Button(layout=w.Layout(width="10px"))
    assert c.layout is a.layout and c.style is a.style and also_narrow.layout is narrow.layout
    assert [d["state"]["_model_name"] for d in opens(messages)] == ["HTMLModel", "ButtonModel"]
    # closed (Widget.close_all() in a notebook), a kept model is not used again
    a.layout.close()
    with built_then_opened():
        d = w.HTML("d")
    assert d.layout is not a.layout and d.layout.comm is not None


def test_a_widget_closed_in_the_block_is_never_opened(
    messages: list[tuple[str, Any]],
) -> None:
    with built_then_opened():
        kept, dropped = w.HTML("kept"), w.HTML("dropped")
        dropped.close()
    assert kept.comm is not None and dropped.comm is None
    assert [d["state"].get("value") for d in opens(messages) if "value" in d["state"]] == ["kept"]


def test_a_block_that_raises_opens_nothing(messages: list[tuple[str, Any]]) -> None:
    with pytest.raises(ValueError), built_then_opened():
        made = w.HTML("half a page")
        raise ValueError("the page failed")
    assert made.comm is None and not messages
    assert w.HTML("after").comm is not None  # outside a block, widgets open at once


def test_a_page_change_opens_each_new_widget_once_and_updates_almost_nothing(
    messages: list[tuple[str, Any]],
) -> None:
    tab = Site("01-beating")
    say(tab.bridge, {"type": "hello", "lang": "es", "page": "01-beating", "resume": None})
    messages.clear()
    say(tab.bridge, {"type": "go", "lang": "es", "page": "02-bout", "resume": None})
    opened = opens(messages)
    updates = [data for kind, data in messages if kind == "comm_msg"]
    kinds = [d["state"]["_model_name"] for d in opened]
    # the lesson page's widgets: 37 models (65 before layouts were shared, 43 before the
    # layouts, styles and front-end files were kept from page to page); its first render
    # travels inside the opens, so the only updates are the bridge's and the site root's
    assert len(opened) <= 38, kinds
    assert not [kind for kind in kinds if kind.endswith("StyleModel") or kind == "LayoutModel"]
    assert "WidgetModel" not in kinds  # the front-end files came with the first page
    assert len(updates) <= 5, updates
    closed = {data.get("comm_id") for kind, data in messages if kind == "comm_close"}
    assert len([kind for kind, _ in messages if kind == "comm_close"]) <= 38
    assert not closed & {f.model_id for f in (tab.page.table._module, tab.page.table._style)}


def test_an_anywidget_and_its_own_class_are_freed_after_close(
    messages: list[tuple[str, Any]],
) -> None:
    """anywidget gives each instance a class of its own: what the block learns about widget
    classes must not keep those classes (and so every old page's tables) alive."""
    with built_then_opened():
        table = TableWidget()
    kind = weakref.ref(type(table))
    assert type(table) is not TableWidget  # the instance's own subclass
    table.close()
    del table
    gc.collect()
    assert kind() is None


def test_walking_the_site_leaves_no_python_objects_behind() -> None:
    walk = ["02-bout", "index", "play", "house-rules", "sources", "14-flash", "01-beating"]
    tab = Site("01-beating")
    say(tab.bridge, {"type": "hello", "lang": "es", "page": "01-beating", "resume": None})
    counts = []
    for _ in range(3):
        for name in walk:
            say(tab.bridge, {"type": "go", "lang": "es", "page": name, "resume": None})
        gc.collect()
        counts.append(len(gc.get_objects()))
    # the first round fills the kernel's caches (catalogs, lessons, styles); later rounds
    # must leave no more objects than they found (one fewer happens: a weakly cached class
    # or a spent iterator may go at any round)
    # a few objects either way is gc noise, and fewer objects is no leak (CI once saw 134
    # fewer); a leaked page is thousands more
    assert counts[2] - counts[1] <= 50, counts
