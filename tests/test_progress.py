"""Saved progress from the browser is untrusted: only known lessons with 0-3 stars are kept,
whatever else arrives is dropped, and what goes back to the browser stays small."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tutorial.lesson_view import panel_view
from tutorial.progress import MAX_STARS, lesson_ids, merge_progress, sanitize_progress
from tutorial.table_widget import PROGRESS_MAX_CHARS

IDS = ("beating", "bout", "transfer")

JUNK: list[object] = [
    "abc",
    [1],
    30_000_000,
    -1,
    4,
    True,
    False,
    None,
    2.0,
    float("nan"),
    "3",
    {"n": 3},
    {"stars": {"stars": 3}},
    [{"stars": 3}],
]


@pytest.mark.parametrize("stars", JUNK, ids=repr)
def test_invalid_stars_are_dropped(stars: object) -> None:
    data = {"beating": {"stars": stars}, "bout": {"stars": 2}}
    assert sanitize_progress(data, IDS) == {"bout": {"stars": 2}}


@pytest.mark.parametrize("record", JUNK, ids=repr)
def test_invalid_records_are_dropped(record: object) -> None:
    assert sanitize_progress({"beating": record, "transfer": {"stars": 0}}, IDS) == {
        "transfer": {"stars": 0}
    }


@pytest.mark.parametrize("data", JUNK, ids=repr)
def test_anything_but_a_mapping_is_no_progress(data: object) -> None:
    assert sanitize_progress(data, IDS) == {}


def test_every_valid_star_count_is_kept_and_extra_keys_dropped() -> None:
    data = {
        lesson_id: {"stars": stars, "best": [1, 2], "html": "<b>x</b>"}
        for lesson_id, stars in zip(IDS, range(MAX_STARS + 1), strict=False)
    }
    assert sanitize_progress(data, IDS) == {
        "beating": {"stars": 0},
        "bout": {"stars": 1},
        "transfer": {"stars": 2},
    }


def test_unknown_lessons_and_nested_junk_are_dropped() -> None:
    nested: dict[str, Any] = {}
    for _ in range(500):
        nested = {"beating": nested, "stars": nested}
    data: dict[str, Any] = {f"lesson-{i}": {"stars": 3} for i in range(10_000)}
    data.update({"x" * 100_000: {"stars": 3}, "nested": nested, "bout": {"stars": 3}})
    clean = sanitize_progress(data, IDS)
    assert clean == {"bout": {"stars": 3}}


def test_a_hostile_mapping_does_not_break_it() -> None:
    class Hostile(dict[str, Any]):
        def get(self, key: object, default: object = None) -> object:
            raise RuntimeError("boom")

    assert sanitize_progress(Hostile(beating={"stars": 3}), IDS) == {}


def test_merge_keeps_the_best_of_both() -> None:
    stored = {"beating": {"stars": 1}, "bout": {"stars": 3}, "ghost": {"stars": 3}}
    session = {"beating": {"stars": 2}, "bout": {"stars": "abc"}}
    assert merge_progress(stored, session, IDS) == {
        "beating": {"stars": 2},
        "bout": {"stars": 3},
    }


def test_the_known_lessons_are_the_explainers() -> None:
    assert {"beating", "transfer", "endgame"} <= set(lesson_ids())
    assert len(lesson_ids()) == len(set(lesson_ids()))


# -------------------------------------------------------------- through the lesson page


def _browser_sends_progress(app: Any, data: object) -> None:
    app.table._handle_msg(
        {
            "content": {
                "data": {"method": "custom", "content": {"type": "progress", "data": data}}
            },
            "buffers": [],
        }
    )


def _progress_sent(log: list[tuple[str, Any]]) -> list[Any]:
    return [
        data["state"]["progress"]
        for kind, data in log
        if kind == "comm_msg" and "progress" in data.get("state", {})
    ]


BAD_STORES: list[object] = [
    {"beating": {"stars": "abc"}},
    {"beating": {"stars": [1]}},
    {"beating": {"stars": 30_000_000}},
    {"beating": {"stars": -1}},
    {"beating": {"stars": True}},
    {"beating": "abc", "bout": [1]},
    {"beating": {"stars": {"a": {"b": {"c": [1, 2, 3]}}}}},
    {f"junk-{i}": {"stars": 3} for i in range(2_000)},  # as many as the table lets through
]


@pytest.mark.parametrize("stored", BAD_STORES, ids=lambda d: json.dumps(d)[:40])
def test_bad_stored_progress_never_freezes_the_lesson(
    messages: list[tuple[str, Any]], stored: object
) -> None:
    from tutorial.app import LessonApp

    app = LessonApp("beating", language="en")
    messages.clear()
    _browser_sends_progress(app, stored)
    assert app.controller.progress == {}
    assert panel_view(app.controller)["best_stars"] == 0
    sent = _progress_sent(messages)
    assert all(progress == {} for progress in sent)
    # the lesson still works: Next moves on and renders
    app.next._handle_button_msg(None, {"event": "click"}, [])
    assert app.controller.index == 1


def test_the_progress_sent_back_is_small_and_only_known_lessons(
    messages: list[tuple[str, Any]],
) -> None:
    from tutorial.app import LessonApp

    app = LessonApp("beating", language="en")
    stored: dict[str, Any] = {f"junk-{i}": {"stars": 3} for i in range(2_000)}
    stored["bout"] = {"stars": 2}
    stored["transfer"] = {"stars": 30_000_000}
    assert len(json.dumps(stored)) < PROGRESS_MAX_CHARS  # the table lets it through
    messages.clear()
    _browser_sends_progress(app, stored)
    sent = _progress_sent(messages)
    assert sent == [{"bout": {"stars": 2}}]
    # and every later redraw: still at most one small record per lesson
    for _ in range(3):
        app.next._handle_button_msg(None, {"event": "click"}, [])
    biggest = max(len(json.dumps(p)) for p in [*_progress_sent(messages), app.table.progress])
    assert biggest <= 40 * len(lesson_ids())


def test_the_browser_cannot_grow_progress_by_sending_more(
    messages: list[tuple[str, Any]],
) -> None:
    from tutorial.app import LessonApp

    app = LessonApp("beating", language="en")
    for i in range(50):
        _browser_sends_progress(app, {f"extra-{i}-{j}": {"stars": 1} for j in range(200)})
        _browser_sends_progress(app, {"bout": {"stars": 1 + i % 3}, "beating": {"stars": 1}})
    assert set(app.controller.progress) <= set(lesson_ids())
    assert app.controller.progress == {"bout": {"stars": 3}, "beating": {"stars": 1}}
    # too big for the table: dropped before it reaches the page
    _browser_sends_progress(app, {f"k{i}": {"stars": 3} for i in range(10_000)})
    assert set(app.table.progress) == {"bout", "beating"}
