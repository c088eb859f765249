"""The learner's saved progress: best stars per lesson, kept in the browser's localStorage.

Whatever comes back from the browser is untrusted: :func:`sanitize_progress` keeps only
known lesson ids with a whole number of stars from 0 to 3 and drops everything else, so a
broken or forged record can neither freeze a lesson nor grow what the kernel stores and
sends back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Final

__all__ = [
    "MAX_LESSONS",
    "MAX_STARS",
    "Progress",
    "lesson_ids",
    "merge_progress",
    "sanitize_progress",
    "stored_stars",
]

MAX_STARS: Final = 3
MAX_LESSONS: Final = 200
"""At most this many lessons are kept (far more than the explainer has)."""
_MAX_ID: Final = 64

Progress = dict[str, dict[str, int]]


def _stars(record: object) -> int | None:
    """The stars of one lesson's record, or ``None`` when it is not a valid record."""
    if not isinstance(record, Mapping):
        return None
    stars = record.get("stars")
    # bool is an int subclass: True is not one star
    if type(stars) is not int or not 0 <= stars <= MAX_STARS:
        return None
    return stars


def sanitize_progress(data: object, lesson_ids: Iterable[str]) -> Progress:
    """``{lesson_id: {"stars": n}}`` for the known lessons whose record in ``data`` is valid.

    Unknown ids, other keys of a record, and records whose stars are not an ``int`` from 0
    to 3 (``True``, ``2.0``, ``"3"``, ``[1]``, ``-1``, ``30000000``…) are dropped. The work
    done is bounded by the number of known lessons, not by the size of ``data``.
    """
    if not isinstance(data, Mapping):
        return {}
    clean: Progress = {}
    for lesson_id in lesson_ids:
        if len(clean) >= MAX_LESSONS:
            break
        if not isinstance(lesson_id, str) or len(lesson_id) > _MAX_ID:
            continue
        try:
            record = data.get(lesson_id)
        except Exception:  # a hostile mapping: treat the record as missing
            continue
        stars = _stars(record)
        if stars is not None:
            clean[lesson_id] = {"stars": stars}
    return clean


def stored_stars(progress: object, lesson_id: str) -> int:
    """The stars ``progress`` holds for ``lesson_id`` (0 when missing or invalid)."""
    if not isinstance(progress, Mapping):
        return 0
    stars = _stars(progress.get(lesson_id))
    return 0 if stars is None else stars


@cache
def lesson_ids() -> tuple[str, ...]:
    """The ids of every lesson of the explainer (read once per kernel)."""
    from .lessons import load_lessons

    return tuple(lesson.id for lesson in load_lessons())


def merge_progress(stored: object, session: object, known: Iterable[str] | None = None) -> Progress:
    """The best stars per lesson from the browser's ``stored`` record and this ``session``'s,
    both sanitized (``known``: the lesson ids to keep, default every lesson's)."""
    ids = tuple(lesson_ids() if known is None else known)
    merged = sanitize_progress(stored, ids)
    for lesson_id, record in sanitize_progress(session, ids).items():
        if record["stars"] >= merged.get(lesson_id, {"stars": 0})["stars"]:
            merged[lesson_id] = record
    return merged
