"""The table widget without a browser: comm messages per redraw, click validation, safety.

Messages are counted with a recording comm (stack-notes §3.4): ``comm.create_comm`` is
replaced so that every widget opened in a test publishes into a list we can inspect.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

import pytest
from ipywidgets.widgets import widget as ipywidget

from tests.helpers import stable_id
from tutorial.assets import MODULE_LOADER
from tutorial.table_widget import ACTION_IDS, PROGRESS_MAX_CHARS, TableWidget, validate_click


def card(code: str, label: str = "", mark: str = "") -> dict[str, Any]:
    suit = code[-1]
    view = {
        "id": code,
        "rank": code[:-1],
        "suit": suit,
        "symbol": {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[suit],
        "red": suit in "DH",
        "trump": suit == "H",
        "label": label or code,
    }
    if mark:
        view["mark"] = mark
    return view


def seat(number: int, name: str, count: int, role: str, *, you: bool = False) -> dict[str, Any]:
    return {
        "seat": number,
        "name": name,
        "count": count,
        "count_label": f"{count} cards",
        "role": role,
        "role_label": role.title(),
        "you": you,
        "acting": you,
    }


def make_view(hand: list[str], attack: tuple[str, ...] = (), message: str = "") -> dict[str, Any]:
    return {
        "lang": "en",
        "labels": {"stock": "Stock", "discard": "Discard pile", "trump": "Trump"},
        "seats": [seat(0, "You", len(hand), "defender", you=True), seat(1, "Ana", 5, "attacker")],
        "you": 0,
        "hand": [card(c) for c in hand],
        "table": [{"attack": card(c), "defence": None, "selectable": True} for c in attack],
        "stock_count": 20,
        "stock_label": "20 cards",
        "turnup": card("6H"),
        "turnup_in_stock": True,
        "trump_symbol": "♥",
        "trump_name": "hearts",
        "discard_count": 0,
        "discard_label": "0 cards",
        "open_ranks": sorted({c[:-1] for c in attack}),
        "cap_label": f"{len(attack)} of 6",
        "actions": [{"id": "take", "label": "Take", "enabled": bool(attack)}],
        "message": {"kind": "info", "text": message} if message else None,
        "narration": "",
        "hints": True,
        "busy": False,
    }


def browser_says(widget: TableWidget, content: object, buffers: list[bytes] | None = None) -> None:
    """Deliver a custom message the way the kernel does (comm → Widget._handle_msg)."""
    widget._handle_msg(
        {"content": {"data": {"method": "custom", "content": content}}, "buffers": buffers or []}
    )


def recorder(widget: TableWidget) -> list[dict[str, Any]]:
    clicks: list[dict[str, Any]] = []
    widget.on_click(clicks.append)
    return clicks


# ------------------------------------------------------------------------------- assets


def test_assets_are_package_files_without_urls() -> None:
    table = TableWidget()
    module, css = table._module.text, table._style.text
    assert (table._module.name, table._style.name) == ("table.js", "table.css")
    assert "export default" in module and "render" in module
    assert ".durak-table" in css
    for source in (module, css, MODULE_LOADER):
        assert "http://" not in source and "https://" not in source
        assert "@import" not in source and not re.search(r"url\(", source)
        assert not re.search(r"^\s*import\s", source, re.M)
    assert "import(" not in module and "import(" not in css
    # the loader imports only the widget's own module, from a blob made of its text
    assert re.findall(r"import\((.*?)\)", MODULE_LOADER) == ["/* webpackIgnore: true */ url"]
    assert "new Blob([source]" in MODULE_LOADER and 'model.get("_module")' in MODULE_LOADER


def test_every_widget_shares_the_module_loader_and_one_model_per_file() -> None:
    """anywidget would import each model's _esm afresh (never freed): every explainer widget
    has the same small loader as _esm. Its code and style are models of their own, one per
    file for the whole kernel, which every widget of that kind refers to."""
    from tutorial.bridge import PageBridge
    from tutorial.free_play_view import MoveLogWidget
    from tutorial.index_page import LessonList
    from tutorial.sources_page import SourcesView

    for kind in (TableWidget, PageBridge, MoveLogWidget, LessonList, SourcesView):
        assert kind._esm == MODULE_LOADER, kind
        one, two = kind(), kind()
        assert "export default" in one._module.text, kind
        assert one._module is two._module and one._style is two._style, kind
        assert isinstance(one.get_state()["_module"], str)  # a model reference, not the code
        assert one.get_state()["_module"] == f"IPY_MODEL_{one._module.model_id}"


def test_a_closed_file_model_is_made_again() -> None:
    first = TableWidget()._module
    first.close()
    second = TableWidget()._module
    assert second is not first and second.comm is not None and second.text == first.text


def test_the_browser_cannot_change_a_file() -> None:
    module = TableWidget()._module
    text = module.text
    module.set_state({"text": "export default {render() { alert(1) }}", "name": "x.js"})
    assert (module.name, module.text) == ("table.js", text)


def test_css_is_scoped_under_the_root_class() -> None:
    css = re.sub(r"/\*.*?\*/", "", TableWidget()._style.text, flags=re.S)
    # Top-level selectors (outside @keyframes bodies) all start with .durak-table.
    body = re.sub(r"@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)
    selectors = re.findall(r"(?:^|[{};])\s*([^{};@]+?)\s*\{", body)
    assert len(selectors) > 50
    for group in selectors:
        for selector in group.split(","):
            assert selector.strip().startswith(".durak-table"), selector
    # Keyframes and the container query name are global: prefixed too.
    for name in re.findall(r"@keyframes\s+([\w-]+)", css):
        assert name.startswith("durak-table-"), name
    assert re.findall(r"@container\s+([\w-]+)", css) == ["durak-table"] * 2


# ------------------------------------------------------------------------------- redraws


def test_a_redraw_is_exactly_one_message(messages: list[tuple[str, Any]]) -> None:
    table = TableWidget()
    # The widget's model, its Layout (every DOMWidget has one) and, the first time in a
    # kernel, its code and style: once, not per redraw.
    assert [kind for kind, _ in messages] == ["comm_open"] * 4
    messages.clear()
    TableWidget()
    assert [kind for kind, _ in messages] == ["comm_open"] * 2
    messages.clear()

    table.show(make_view(["7S", "8H"]))
    assert len(messages) == 1
    kind, data = messages[0]
    assert kind == "comm_msg" and data["method"] == "update"
    assert set(data["state"]) == {"view"}
    assert [c["id"] for c in data["state"]["view"]["hand"]] == ["7S", "8H"]

    for n, hand in enumerate((["7S"], ["7S", "QD", "10H"], [], ["AS"] * 30), start=2):
        table.show(make_view(hand, attack=("8C",), message=f"move {n}"))
        assert len(messages) == n


def test_showing_the_same_snapshot_again_still_redraws_once(
    messages: list[tuple[str, Any]],
) -> None:
    view = make_view(["7S", "8H"])
    table = TableWidget(view=view)
    messages.clear()
    table.show(view)
    table.show(copy.deepcopy(view))
    assert [kind for kind, _ in messages] == ["comm_msg", "comm_msg"]
    assert all(data["state"] == {"view": view} for _, data in messages)


def test_redraws_create_no_widget_models(messages: list[tuple[str, Any]]) -> None:
    table = TableWidget()
    before = len(ipywidget._instances)
    for i in range(20):
        table.show(make_view(["7S", "8H", "9D"][: i % 3 + 1], attack=("8C",) * (i % 2)))
    assert len(ipywidget._instances) == before
    # the widget, its Layout, its code and its style (the first table of the kernel)
    assert [kind for kind, _ in messages].count("comm_open") == 4


def test_progress_trait_is_one_message(messages: list[tuple[str, Any]]) -> None:
    table = TableWidget()
    messages.clear()
    table.progress = {"lessons": {"attack-1": {"stars": 3}}}
    assert len(messages) == 1
    assert messages[0][1]["state"] == {"progress": {"lessons": {"attack-1": {"stars": 3}}}}


def test_the_browser_cannot_overwrite_view_or_progress(messages: list[tuple[str, Any]]) -> None:
    view = make_view(["7S"])
    table = TableWidget(view=view)
    table.progress = {"a": 1}
    table._handle_msg(
        {
            "content": {"data": {"method": "update", "state": {"view": {}, "progress": {"x": 2}}}},
            "buffers": [],
        }
    )
    assert table.view == view
    assert table.progress == {"a": 1}


# ------------------------------------------------------------------------------- clicks

VALID_CLICKS = [
    {"type": "card", "zone": "hand", "id": "10H"},
    {"type": "card", "zone": "hand", "id": "QS"},
    {"type": "card", "zone": "table", "id": "6C"},
    {"type": "card", "zone": "seat", "id": "AD"},
    *({"type": "action", "id": action} for action in sorted(ACTION_IDS)),
    {"type": "progress", "data": {}},
    {"type": "progress", "data": {"lessons": {"l1": {"stars": 2, "best": [1, 2.5, None, True]}}}},
]


@pytest.mark.parametrize("click", VALID_CLICKS, ids=lambda c: f"{c['type']}-{c.get('id', '')}")
def test_valid_clicks_reach_the_callback(messages: list[tuple[str, Any]], click: dict) -> None:
    table = TableWidget()
    clicks = recorder(table)
    browser_says(table, copy.deepcopy(click))
    assert clicks == [click]


def test_every_callback_is_called_and_can_be_removed(messages: list[tuple[str, Any]]) -> None:
    table = TableWidget()
    first, second = recorder(table), recorder(table)
    browser_says(table, {"type": "action", "id": "take"})
    assert first == second == [{"type": "action", "id": "take"}]
    table.on_click(second.append, remove=True)
    browser_says(table, {"type": "action", "id": "pass"})
    assert len(first) == 2 and len(second) == 1


def test_callbacks_get_their_own_copy_of_progress_data(messages: list[tuple[str, Any]]) -> None:
    table = TableWidget()
    clicks = recorder(table)
    data = {"lessons": {"a": [1, 2]}}
    browser_says(table, {"type": "progress", "data": data})
    data["lessons"]["a"].append(3)
    assert clicks == [{"type": "progress", "data": {"lessons": {"a": [1, 2]}}}]


def _deep(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"x": value}
    return value


class _Weird:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("boom")

    __hash__ = None  # type: ignore[assignment]


FORGED: list[object] = [
    None,
    "card",
    42,
    3.5,
    True,
    [],
    ["card", "hand", "7S"],
    b"\x00\x01",
    {},
    {"type": None},
    {"type": ["card"]},
    {"type": {"card": 1}},
    {"type": _Weird()},
    {"type": "CARD", "zone": "hand", "id": "7S"},
    {"type": "card"},
    {"type": "card", "zone": "hand"},
    {"type": "card", "id": "7S"},
    {"type": "card", "zone": "deck", "id": "7S"},
    {"type": "card", "zone": "Hand", "id": "7S"},
    {"type": "card", "zone": ["hand"], "id": "7S"},
    {"type": "card", "zone": "hand", "id": "1H"},
    {"type": "card", "zone": "hand", "id": "10X"},
    {"type": "card", "zone": "hand", "id": "11H"},
    {"type": "card", "zone": "hand", "id": "0H"},
    {"type": "card", "zone": "hand", "id": "7s"},
    {"type": "card", "zone": "hand", "id": "TH"},
    {"type": "card", "zone": "hand", "id": "7♠"},
    {"type": "card", "zone": "hand", "id": "7S\n"},
    {"type": "card", "zone": "hand", "id": " 7S"},
    {"type": "card", "zone": "hand", "id": "7S7S"},
    {"type": "card", "zone": "hand", "id": "<script>alert(1)</script>"},
    {"type": "card", "zone": "hand", "id": "7S" + "A" * 1_000_000},
    {"type": "card", "zone": "hand", "id": 7},
    {"type": "card", "zone": "hand", "id": None},
    {"type": "card", "zone": "hand", "id": {"id": "7S"}},
    {"type": "card", "zone": "hand", "id": "7S", "extra": 1},
    {"type": "card", "zone": "hand", "id": "7S", "data": {}},
    {"type": "action"},
    {"type": "action", "id": "surrender"},
    {"type": "action", "id": "TAKE"},
    {"type": "action", "id": ["take"]},
    {"type": "action", "id": "take", "zone": "hand"},
    {"type": "action", "id": "x" * 1_000_000},
    {"type": "progress"},
    {"type": "progress", "data": None},
    {"type": "progress", "data": "{}"},
    {"type": "progress", "data": [1, 2]},
    {"type": "progress", "data": {"a": float("nan")}},
    {"type": "progress", "data": {"a": float("inf")}},
    {"type": "progress", "data": {"a": b"bytes"}},
    {"type": "progress", "data": {"a": {1, 2}}},
    {"type": "progress", "data": {"a": _Weird()}},
    {"type": "progress", "data": {1: "non-string key"}},
    {"type": "progress", "data": {"k" * 500: 1}},
    {"type": "progress", "data": {"a": "x" * (PROGRESS_MAX_CHARS + 10)}},
    {"type": "progress", "data": {str(i): "x" * 1000 for i in range(100)}},
    {"type": "progress", "data": {"a": list(range(20_000))}},
    {"type": "progress", "data": _deep(50)},
    {"type": "progress", "data": _deep(5_000)},
    {"type": "progress", "data": {}, "id": "7S"},
    {"type": "script", "id": "7S"},
    {"type": "card" * 100_000, "zone": "hand", "id": "7S"},
    {"kind": "anywidget-command", "name": "x", "msg": {}, "id": 1},
]


@pytest.mark.parametrize("content", FORGED, ids=lambda c: stable_id(c, 40))
def test_forged_messages_are_dropped_silently(
    messages: list[tuple[str, Any]], content: object
) -> None:
    table = TableWidget()
    clicks = recorder(table)
    messages.clear()
    browser_says(table, content)  # must not raise
    assert clicks == []
    assert validate_click(content) is None
    assert messages == []  # and nothing is sent back to the browser


def test_messages_with_buffers_are_dropped(messages: list[tuple[str, Any]]) -> None:
    table = TableWidget()
    clicks = recorder(table)
    browser_says(table, {"type": "card", "zone": "hand", "id": "7S"}, buffers=[b"x" * 10])
    assert clicks == []


def test_a_failing_handler_is_contained_and_logged(
    messages: list[tuple[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    table = TableWidget()

    def broken(click: object) -> None:
        raise ValueError("controller bug")

    table.on_click(broken)
    after = recorder(table)
    with caplog.at_level(logging.ERROR, logger="tutorial.table_widget"):
        browser_says(table, {"type": "card", "zone": "hand", "id": "7S"})
        browser_says(table, {"type": "action", "id": "take"})
    assert after == [
        {"type": "card", "zone": "hand", "id": "7S"},
        {"type": "action", "id": "take"},
    ]
    failures = [r for r in caplog.records if "click handler" in r.getMessage()]
    assert len(failures) == 2 and failures[0].exc_info is not None
    # the widget still works
    table.show(make_view(["7S"]))
    assert table.view["hand"][0]["id"] == "7S"


def test_a_click_on_a_face_up_opponent_card_is_answered(
    messages: list[tuple[str, Any]],
) -> None:
    from tutorial.app import LessonApp

    app = LessonApp("beating", language="en")
    seat = next(s for s in app.table.view["seats"] if "cards" in s)
    history = app.controller.game.history
    messages.clear()
    browser_says(app.table, {"type": "card", "zone": "seat", "id": seat["cards"][0]["id"]})
    message = app.table.view["message"]
    assert message["kind"] == "info"
    assert message["text"] == (
        f"That is {seat['name']}'s card: you can only play cards from your own hand."
    )
    assert app.controller.game.history == history
    assert any(data.get("state", {}).get("view") for _, data in messages)  # redrawn
