"""Lesson transcripts: the tutorial pinned click by click, as perft pins the engine.

``tests/data/transcripts.json`` (written by ``script/make_transcripts.py``; see
``tests/transcript.py`` for what the walk does and what each record holds) is replayed on a
fresh controller, and every snapshot must match: the position, the table and panel views, the
feedback's kind, refusal and message ids, the move log's new lines and the resume state. A
failure names the lesson, the first input that differs and the keys. If the change is what
you meant, regenerate the file with the script and say in the commit message what a learner
now sees differently.

The same records are then checked other ways: every listed wrong answer got the feedback its
lesson file promises, every refusal is the engine's, and every resume state reopens the
lesson where it was.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from tests.transcript import DATA, FORMAT, dumps, expand, lessons, load, new_controller, replay
from tutorial.lessons import Lesson

LESSONS = {lesson.id: lesson for lesson in lessons()}
FEEDBACK_KIND = {"illegal": "error", "detour": "detour", "costly": "costly"}


@cache
def transcripts() -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for entry in load()["lessons"]}


@cache
def snapshots(lesson_id: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return list(expand(transcripts()[lesson_id]["records"]))


def test_the_file_covers_every_lesson_in_order_and_is_the_scripts_own_text() -> None:
    data = load()
    assert data["format"] == FORMAT
    assert [entry["id"] for entry in data["lessons"]] == list(LESSONS)
    # written only by the script: its exact text (an edit by hand shows up here)
    assert DATA.read_text(encoding="utf-8") == dumps(data)


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_replaying_the_transcript_shows_the_same_at_every_input(lesson_id: str) -> None:
    records = transcripts()[lesson_id]["records"]
    played = list(replay(LESSONS[lesson_id], transcripts()[lesson_id]))
    assert len(played) == len(records)


def _wrong_answers(lesson: Lesson) -> list[tuple[int, Any]]:
    return [
        (n, w) for n, step in enumerate(lesson.steps) if step.kind == "move" for w in step.wrong
    ]


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_every_listed_wrong_answer_gets_its_feedback(lesson_id: str) -> None:
    """Each wrong answer a lesson lists is tried (unless its card was already played on
    that branch), refused or let pass as its file says, explained with its own words, and
    never played; a question's wrong choice is an error, its right one a success."""
    lesson = LESSONS[lesson_id]
    answered: set[tuple[int, str]] = set()
    previous: dict[str, Any] = {}
    for do, after in snapshots(lesson_id):
        fb = after["feedback"]
        step = previous.get("resume.step")
        if fb is not None and step is not None and not previous.get("resume.free"):
            for answer in lesson.steps[step].wrong if step < len(lesson.steps) else ():
                if (
                    "click" in do
                    and fb["kind"] == FEEDBACK_KIND[answer.feedback]
                    and [answer.explain] in [call[:1] for call in fb["ids"]]
                ):
                    answered.add((step, str(answer.play)))
                    assert _actions(after) == _actions(previous), "a wrong answer was played"
        if "answer" in do and fb is not None and not previous.get("resume.done"):
            correct = lesson.steps[step].choices[do["answer"]].correct
            assert fb["kind"] == ("success" if correct else "error")
        previous = after
    listed = {(n, str(w.play)) for n, w in _wrong_answers(lesson)}
    missing = listed - answered
    # a listed answer is skipped only when its card is no longer in the hand on this branch
    assert len(missing) <= sum(1 for n, w in _wrong_answers(lesson) if w.play.card is not None)
    for n, play in missing:
        assert any(
            s.get("resume.step") == n and play.split(":")[1].lstrip("+") not in str(s)
            for _, s in snapshots(lesson_id)
        ), f"step {n + 1}: the wrong answer {play} was never tried"


def _actions(snapshot: dict[str, Any]) -> list[Any]:
    return [v for k, v in snapshot.items() if k.startswith("resume.actions.")]


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_errors_in_a_step_are_the_engines_refusals_or_wrong_choices(lesson_id: str) -> None:
    for do, after in snapshots(lesson_id):
        fb = after["feedback"]
        if fb is None or fb["kind"] != "error":
            continue
        if "answer" in do:
            assert fb["reason"] is None
        else:
            assert fb["reason"] is not None, (do, fb)
            assert fb["refusal"].split(": ")[1].startswith(fb["reason"])


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_every_resume_state_reopens_the_lesson_where_it_was(lesson_id: str) -> None:
    """A page reloaded after any input (the browser keeps ``resume_state``) comes back to
    the same position, step, score and free play."""
    lesson = LESSONS[lesson_id]
    seen: set[str] = set()
    for _, after in snapshots(lesson_id):
        state = _resume_state(after)
        key = repr(state)
        if key in seen:
            continue
        seen.add(key)
        controller = new_controller(lesson)
        assert controller.resume(state), state
        assert controller.resume_state() == state
        position = controller.game.position().to_dict()
        assert position["hands"] == [
            after[f"position.hands.{n}"] for n in range(len(position["hands"]))
        ]


def _resume_state(snapshot: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for key, value in snapshot.items():
        if not key.startswith("resume."):
            continue
        name, *index = key.removeprefix("resume.").split(".")
        if index:
            state.setdefault(name, []).append(value)
        else:
            state[name] = value
    return state
