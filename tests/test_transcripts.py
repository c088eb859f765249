"""Lesson transcripts: the tutorial pinned click by click, as perft pins the engine.

``tests/data/transcripts.json`` (written by ``script/make_transcripts.py``; see
``tests/transcript.py`` for the walks and what each record holds) is replayed on a fresh
controller, and every snapshot must match: the position, the table and panel views, the
feedback's kind, refusal and message ids, the move log's new lines and the resume state. A
failure names the lesson, the walk, the first input that differs and the keys. If the change is
what you meant, regenerate the file with the script and say in the commit message what a
learner now sees differently.

The same records are then checked other ways: a clean run earns three stars, every listed
wrong answer got the feedback its lesson file promises and was not played, every slip costs
what the lesson says, every refusal is the engine's, every comparison shows where the rules
part, and every resume state reopens the lesson where it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.transcript import (
    DATA,
    FORMAT,
    WALKS,
    Transcripts,
    dumps,
    has_branches,
    lessons,
    load,
    replay,
    resume_state,
    resumed,
)
from tutorial.controller import stars_for
from tutorial.lessons import Lesson

LESSONS = {lesson.id: lesson for lesson in lessons()}
IDS = list(LESSONS)
FEEDBACK_KIND = {"illegal": "error", "detour": "detour", "costly": "costly"}
#: Every recorded walk, as (lesson id, walk): the file test checks which walks each lesson has.
RECORDED = [(entry["id"], kind) for entry in load()["lessons"] for kind in entry["walks"]]


def test_the_file_covers_every_lesson_and_walk_and_is_the_scripts_own_text() -> None:
    data = load()
    assert data["format"] == FORMAT
    assert [entry["id"] for entry in data["lessons"]] == IDS
    for entry in data["lessons"]:
        lesson = LESSONS[entry["id"]]
        assert list(entry["walks"]) == [
            kind for kind in WALKS if kind != "branches" or has_branches(lesson)
        ]
    # written only by the script: its exact text (an edit by hand shows up here)
    assert DATA.read_text(encoding="utf-8") == dumps(data)


@pytest.mark.parametrize(("lesson_id", "kind"), RECORDED, ids=[f"{i}-{k}" for i, k in RECORDED])
def test_replaying_each_walk_shows_the_same_at_every_input(
    transcripts: Transcripts, lesson_id: str, kind: str
) -> None:
    records = transcripts.lessons[lesson_id]["walks"][kind]
    played = list(replay(LESSONS[lesson_id], transcripts.lessons[lesson_id], kind))
    assert len(played) == len(records)


@pytest.mark.parametrize("lesson_id", IDS)
def test_a_clean_run_earns_three_stars(transcripts: Transcripts, lesson_id: str) -> None:
    lesson = LESSONS[lesson_id]
    walk = transcripts.walk(lesson_id, "clean")
    final = walk[-1][1]
    assert final["panel.completed"] and final["resume.completed"]
    assert (final["panel.mistakes"], final["panel.hints_used"]) == (0, 0)
    assert final["panel.stars"] == final["panel.best_stars"] == final["panel.finish.stars"] == 3
    assert sum(do.get("panel") == "next" for do, _ in walk) == len(lesson.steps)
    kinds = {after["feedback"]["kind"] for _, after in walk if after["feedback"] is not None}
    assert kinds <= {"success", "question"}  # a question: "which of its meanings?"


def _in_lesson(before: dict[str, Any], lesson: Lesson) -> int | None:
    """The lesson step the learner was on (``None`` in free play or after the end)."""
    step = before.get("resume.step")
    if before.get("resume.free") or step is None or step >= len(lesson.steps):
        return None
    return int(step)


def _wrong_answer_feedback(transcripts: Transcripts, lesson: Lesson) -> dict[tuple[int, str], str]:
    """For each listed wrong answer the walks tried: the kind of feedback it got."""
    got: dict[tuple[int, str], str] = {}
    for kind in transcripts.walks(lesson.id):
        before: dict[str, Any] = {}
        for do, after in transcripts.walk(lesson.id, kind):
            step, fb = _in_lesson(before, lesson), after["feedback"]
            if step is not None and fb is not None and "click" in do:
                for answer in lesson.steps[step].wrong:
                    if [answer.explain] in [call[:1] for call in fb["ids"]]:
                        # a greyed button explains neutrally, never as an error (N13)
                        greyed = do["click"].get("type") == "action" and fb["kind"] == "info"
                        got[(step, str(answer.play))] = "error" if greyed else fb["kind"]
                        assert _actions(after) == _actions(before), "a wrong answer was played"
                        assert not after["resume.done"]
            before = after
    return got


@pytest.mark.parametrize("lesson_id", IDS)
def test_every_listed_wrong_answer_is_tried_and_gets_its_feedback(
    transcripts: Transcripts, lesson_id: str
) -> None:
    """Each wrong answer a lesson lists is clicked on some branch (the walks check it can be:
    a visible card, a button there), explained with its own words, of its file's kind, and
    never played."""
    lesson = LESSONS[lesson_id]
    got = _wrong_answer_feedback(transcripts, lesson)
    for n, step in enumerate(lesson.steps):
        for answer in step.wrong:
            assert got.get((n, str(answer.play))) == FEEDBACK_KIND[answer.feedback], (
                f"step {n + 1}: {answer.play}"
            )


@pytest.mark.parametrize("lesson_id", IDS)
def test_slips_cost_what_the_lesson_says(transcripts: Transcripts, lesson_id: str) -> None:
    """A refusal, a wrong choice and a costly move the lesson marks cost a star point; a
    detour never does; the panel's Hint costs one once a step; the stars follow."""
    lesson = LESSONS[lesson_id]
    for kind in transcripts.walks(lesson_id):
        before: dict[str, Any] = {}
        costs = 0
        walk = transcripts.walk(lesson_id, kind)
        for do, after in walk:
            step, fb = _in_lesson(before, lesson), after["feedback"]
            new = fb is not None and after["table.message.id"] != before.get("table.message.id")
            if step is not None and new and fb is not None:
                starred = [
                    w
                    for w in lesson.steps[step].wrong
                    if w.costs_star and [w.explain] in [c[:1] for c in fb["ids"]]
                ]
                costs += fb["kind"] == "error" or (fb["kind"] == "costly" and bool(starred))
            assert after["panel.mistakes"] == costs, (kind, do)
            before = after
        # the finishing panel, when the last step was done
        finish = next(after for _, after in walk if "panel.finish.stars" in after)
        hints = finish["panel.hints_used"]
        assert hints == (1 if kind == "tries" else 0)
        assert finish["panel.finish.stars"] == stars_for(
            lesson.par, finish["panel.mistakes"], hints
        )


def _actions(snapshot: dict[str, Any]) -> list[Any]:
    return resume_state(snapshot).get("actions", [])


@pytest.mark.parametrize("lesson_id", IDS)
def test_errors_in_a_step_are_the_engines_refusals_or_wrong_choices(
    transcripts: Transcripts, lesson_id: str
) -> None:
    for kind in transcripts.walks(lesson_id):
        for do, after in transcripts.walk(lesson_id, kind):
            fb = after["feedback"]
            if fb is None or fb["kind"] != "error":
                continue
            if "answer" in do:
                assert fb["reason"] is None
            else:
                assert fb["reason"] is not None, (do, fb)
                assert fb["refusal"].split(": ")[1].startswith(fb["reason"])


@pytest.mark.parametrize("lesson_id", IDS)
def test_comparisons_show_where_the_rules_part(transcripts: Transcripts, lesson_id: str) -> None:
    """Every compare step shows a table whose two rule sets part ways at some move."""
    lesson = LESSONS[lesson_id]
    seen: dict[int, Any] = {}
    for _, after in transcripts.walk(lesson_id, "clean"):
        if "panel.comparison.first_difference" in after:
            seen.setdefault(after["resume.step"], after["panel.comparison.first_difference"])
    assert sorted(seen) == [i for i, s in enumerate(lesson.steps) if s.kind == "compare"]
    assert None not in seen.values()


@pytest.mark.parametrize("lesson_id", IDS)
def test_every_resume_state_reopens_the_lesson_where_it_was(
    transcripts: Transcripts, lesson_id: str
) -> None:
    """A page reloaded after any input (the browser keeps ``resume_state``) comes back to
    the same position, step, score and free play; on entering a step (and at the start) it
    shows exactly what clicking through showed: the table and the panel."""
    lesson = LESSONS[lesson_id]
    cards = transcripts.lessons[lesson_id]["cards"]
    seen: set[str] = set()
    for kind in transcripts.walks(lesson_id):
        for do, after in transcripts.walk(lesson_id, kind):
            state = resume_state(after)
            entering = "open" in do or do.get("panel") == "next"
            if repr(state) in seen and not entering:
                continue
            seen.add(repr(state))
            shown = resumed(lesson, cards, state)
            assert shown is not None, state
            assert resume_state(shown) == state
            compared = [
                k
                for k in after.keys() | shown.keys()
                if k.startswith(("position.", "table.", "panel."))
            ]
            if not entering:
                compared = [k for k in compared if k.startswith("position.")]
            differ = [
                k for k in compared if k != "table.message.id" and shown.get(k) != after.get(k)
            ]
            assert not differ, (kind, do, differ)
