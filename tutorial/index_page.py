"""The index page: language menu, the lessons with their stars and what each teaches, in two
groups under their headings ("The core game", lessons 1–10; "House rules and variants", the
later lessons and the house-rules page), then the full-game and sources pages. A notebook
shows it with ``page("index")`` (:mod:`tutorial.pages`)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, Final

import anywidget
import ipywidgets as w
from traitlets import Dict

from .assets import MODULE_LOADER, file_trait
from .bridge import PageBridge
from .lessons import Lesson, load_lessons
from .names import Term, term
from .page import BridgedPage, title_html

__all__ = ["VARIANTS_FROM", "IndexApp", "LessonList", "notebook_name", "page_name"]


VARIANTS_FROM: Final = 11
"""Lessons from this ``order`` on teach house rules and variants (teams, matches, the misdeal,
Flash); the ones before, the core game."""


def page_name(lesson: Lesson) -> str:
    """The page (notebook stem) of a lesson: ``01-beating`` for ``01-beating.toml``."""
    return Path(lesson.source).stem


def notebook_name(lesson: Lesson) -> str:
    """The notebook of a lesson: ``01-beating.ipynb`` for ``01-beating.toml``."""
    return Path(lesson.source).with_suffix(".ipynb").name


class LessonList(anywidget.AnyWidget):  # type: ignore[misc,unused-ignore]
    """Lesson cards linking to their pages; the stars are read from localStorage."""

    _esm = MODULE_LOADER
    _module = file_trait("index.js")
    _style = file_trait("index.css")
    view = Dict().tag(sync=True)


class IndexApp(BridgedPage):
    """The front page."""

    def __init__(self, language: str | None = None, *, bridge: PageBridge | None = None) -> None:
        self._start_page(language, bridge)
        self.lessons = load_lessons()
        self.core_heading = w.HTML()
        self.core = LessonList()
        self.variants_heading = w.HTML()
        self.variants = LessonList()
        self.more_heading = w.HTML()
        self.list = LessonList()
        """The last group: the full-game and sources pages, and "Reset my stars"."""
        self._build_page(
            self.core_heading,
            self.core,
            self.variants_heading,
            self.variants,
            self.more_heading,
            self.list,
            styles=("index_page.css",),
        )
        self.render()
        self._finish_page()

    def _lesson_entry(self, lesson: Lesson) -> dict[str, Any]:
        tr = self.i18n
        return {
            "id": lesson.id,
            "order": lesson.order,
            "title": tr.gettext(lesson.title),
            "summary": tr.gettext(lesson.summary),
            "teaches": [tr.gettext(t) for t in lesson.teaches],
            "page": page_name(lesson),
            # TRANSLATORS: {n} is replaced in the browser by the stars earned (1–3).
            "stars_label": tr.gettext("Best result: {n} of 3 stars"),
        }

    def render(self) -> None:
        tr = self.i18n
        title = tr.gettext("Learn Durak")
        intro = tr.gettext(
            "Durak is the card game everybody plays in Russia. Click through real game "
            "situations: watch a move, make one, and find out why a card is refused."
        )
        self.heading.value = title_html(title, intro)
        self.language.description = term(Term.LANGUAGE, tr)
        not_done = tr.gettext("Not done yet")
        # TRANSLATORS: heading of the index's first group of lessons (1–10): the rules
        # everybody plays by.
        self.core_heading.value = _group_heading(tr.gettext("The core game"), "core")
        self.core.view = {
            "lang": tr.language,
            "not_done": not_done,
            "lessons": [
                self._lesson_entry(lesson)
                for lesson in self.lessons
                if lesson.order < VARIANTS_FROM
            ],
        }
        # TRANSLATORS: heading of the index's second group: lessons on optional rules and
        # variants (teams, matches, the misdeal, Flash) and the house-rules page.
        self.variants_heading.value = _group_heading(
            tr.gettext("House rules and variants"), "variants"
        )
        self.variants.view = {
            "lang": tr.language,
            "not_done": not_done,
            "lessons": [
                self._lesson_entry(lesson)
                for lesson in self.lessons
                if lesson.order >= VARIANTS_FROM
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
            ],
        }
        # TRANSLATORS: heading of the index's last group: playing a whole game, and the
        # page about the sources.
        self.more_heading.value = _group_heading(tr.gettext("Beyond the lessons"), "more")
        self.list.view = {
            "lang": tr.language,
            "not_done": not_done,
            "lessons": [],
            "extras": [
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


def _group_heading(text: str, key: str) -> str:
    """A group's heading on the index: an ``h2`` under the page's ``h1``."""
    return f"<h2 class='durak-index-group' id='durak-index-{key}'>{escape(text)}</h2>"
