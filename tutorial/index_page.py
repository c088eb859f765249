"""The index page: language menu, the lessons with their stars and what each teaches, and the
house-rules and full-game pages. A notebook shows it with ``page("index")``
(:mod:`tutorial.pages`)."""

from __future__ import annotations

from pathlib import Path

import anywidget
from traitlets import Dict

from .bridge import PageBridge
from .lessons import Lesson, load_lessons
from .names import Term, term
from .page import BridgedPage, title_html

__all__ = ["IndexApp", "LessonList", "notebook_name", "page_name"]

_STATIC = Path(__file__).resolve().parent / "static"


def page_name(lesson: Lesson) -> str:
    """The page (notebook stem) of a lesson: ``01-beating`` for ``01-beating.toml``."""
    return Path(lesson.source).stem


def notebook_name(lesson: Lesson) -> str:
    """The notebook of a lesson: ``01-beating.ipynb`` for ``01-beating.toml``."""
    return Path(lesson.source).with_suffix(".ipynb").name


class LessonList(anywidget.AnyWidget):  # type: ignore[misc,unused-ignore]
    """Lesson cards linking to their pages; the stars are read from localStorage."""

    _esm = _STATIC / "index.js"
    _css = _STATIC / "index.css"
    view = Dict().tag(sync=True)


class IndexApp(BridgedPage):
    """The front page."""

    def __init__(self, language: str | None = None, *, bridge: PageBridge | None = None) -> None:
        self._start_page(language, bridge)
        self.lessons = load_lessons()
        self.list = LessonList()
        self._build_page(self.list)
        self.render()
        self._finish_page()

    def render(self) -> None:
        tr = self.i18n
        title = tr.gettext("Learn Durak")
        intro = tr.gettext(
            "Durak is the card game everybody plays in Russia. Click through real game "
            "situations: watch a move, make one, and find out why a card is refused."
        )
        self.heading.value = title_html(title, intro)
        self.language.description = term(Term.LANGUAGE, tr)
        self.list.view = {
            "lang": tr.language,
            "not_done": tr.gettext("Not done yet"),
            "lessons": [
                {
                    "id": lesson.id,
                    "order": lesson.order,
                    "title": tr.gettext(lesson.title),
                    "summary": tr.gettext(lesson.summary),
                    "teaches": [tr.gettext(t) for t in lesson.teaches],
                    "page": page_name(lesson),
                    # TRANSLATORS: {n} is replaced in the browser by the stars earned (1–3).
                    "stars_label": tr.gettext("Best result: {n} of 3 stars"),
                }
                for lesson in self.lessons
            ],
            "extras": [
                {
                    "page": "house-rules",
                    "title": tr.gettext("House rules"),
                    "summary": tr.gettext(
                        "Pick two rule sets and see the same moves allowed under one and "
                        "refused under the other."
                    ),
                },
                {
                    "page": "play",
                    "title": tr.gettext("Play a whole game"),
                    "summary": tr.gettext("Deal and play a full game against the computer."),
                },
                {
                    "page": "sources",
                    "title": tr.gettext("Where the rules come from"),
                    "summary": tr.gettext(
                        "Five documents describe Durak, and they do not always agree: what "
                        "each one is, what it brings, and where they part ways."
                    ),
                },
            ],
            # Stars live in this browser's localStorage: the browser deletes them, after a
            # second, deliberate click (a class's progress must not go with one misclick).
            "reset": {
                "button": tr.pgettext("button", "Reset my stars"),
                "question": tr.gettext(
                    "Delete the stars of every lesson? They are kept only in this browser, "
                    "so this cannot be undone."
                ),
                "confirm": tr.pgettext("button", "Yes, delete my stars"),
                "cancel": tr.pgettext("button", "Keep my stars"),
                "done": tr.gettext("Your stars were deleted. Every lesson starts afresh."),
                "failed": tr.gettext("This browser did not let the page delete the stars."),
            },
        }
