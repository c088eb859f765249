"""The lesson page: the card table, the lesson panel, navigation and the language menu.

``LessonApp("growing-round")`` builds everything for one lesson. A notebook goes through the
safe builder (:func:`tutorial.pages.page`), which shows a localized panel if building fails::

    from tutorial.pages import page
    page("03-growing-round")

The view only shows what the controller renders and forwards clicks; it applies no rule.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from .bridge import PageBridge
from .controller import LessonController, PanelView
from .lessons import Lesson, load_lessons
from .names import Term, term
from .page import PANEL_STYLE, BridgedPage, escape, language_menu
from .table_widget import TableWidget
from .view_model import Click

__all__ = ["LessonApp", "find_lesson", "stars_text"]

log = logging.getLogger(__name__)
_MAX_CHOICES = 4


def find_lesson(lesson_id: str) -> Lesson:
    """The lesson with this id (raises ``KeyError`` naming the known ids)."""
    lessons = {lesson.id: lesson for lesson in load_lessons()}
    try:
        return lessons[lesson_id]
    except KeyError:
        raise KeyError(f"no lesson {lesson_id!r}; known: {', '.join(lessons)}") from None


def stars_text(stars: int, total: int = 3) -> str:
    return "★" * stars + "☆" * (total - stars)


class LessonApp(BridgedPage):
    """One lesson page. ``widget`` is the root ipywidget; ``show()`` displays it.

    With ``language=None`` the page waits for the browser's hello (see
    :class:`~tutorial.page.BridgedPage`); ``bridge`` is given by the shell that received it.
    """

    def __init__(
        self,
        lesson: Lesson | str,
        *,
        language: str | None = None,
        hints: bool = False,
        seed: int = 0,
        bridge: PageBridge | None = None,
    ) -> None:
        if isinstance(lesson, str):
            lesson = find_lesson(lesson)
        self._start_page(language, bridge)
        self.controller = LessonController(lesson, self.i18n, seed=seed, hints=hints)
        self.table = TableWidget()
        # Widgets whose layout and style never change share one of each: every model is a
        # message to the browser, and a class arriving at once waits for all of them.
        fixed = w.Layout()
        html_style = HTMLStyle()
        button_style = w.ButtonStyle()

        def html(value: str = "") -> w.HTML:
            return w.HTML(value, layout=fixed, style=html_style)

        self.style = html(f"<style>{PANEL_STYLE}</style>")
        self.title = html()
        self.language = language_menu(self.i18n)
        self.stars = html()
        self.step_label = html()
        self.text = html()
        self.question = html()
        # Choices are shown and hidden one by one: each has its own layout.
        self.choices = [
            w.Button(
                layout=w.Layout(width="auto"), style=button_style, _dom_classes=("durak-choice",)
            )
            for _ in range(_MAX_CHOICES)
        ]
        for i, button in enumerate(self.choices):
            button.on_click(self._guard(lambda _b, i=i: self.controller.answer_question(i)))
        self.choice_box = w.HBox(self.choices, layout=fixed, _dom_classes=("durak-choices",))
        self.comparison = html()
        # No icons: they are Font Awesome glyphs, fetched from a CDN by Voilà's template.
        # Back, Hint, Next and Play on share a layout (the play page hides them together).
        hideable = w.Layout()

        def nav_button(name: str, layout: w.Layout, **kwargs: Any) -> w.Button:
            return w.Button(
                layout=layout,
                style=button_style,
                _dom_classes=("durak-nav", f"durak-{name}"),
                **kwargs,
            )

        self.back = nav_button("back", hideable)
        self.hint = nav_button("hint", hideable)
        self.next = nav_button("next", hideable, button_style="primary")
        self.restart = nav_button("restart", w.Layout())
        self.free = nav_button("free", hideable)
        for button, handler in (
            (self.back, self.controller.back),
            (self.hint, self.controller.hint),
            (self.next, self.controller.next),
            (self.restart, self.restart_lesson),
            (self.free, self.controller.continue_free_play),
        ):
            button.on_click(self._guard(lambda _b, handler=handler: handler()))
        nav = w.HBox(
            [self.back, self.hint, self.next, self.restart, self.free],
            layout=fixed,
            _dom_classes=("durak-navbar",),
        )
        header = w.HBox(
            [self.title, self.stars, self.language], layout=fixed, _dom_classes=("durak-header",)
        )
        panel = w.VBox(
            [self.step_label, self.text, self.question, self.choice_box, self.comparison, nav],
            layout=fixed,
            _dom_classes=("durak-panel",),
        )
        self.widget = w.VBox(
            [self.bridge, self.style, header, self.notice, self.table, panel],
            layout=fixed,
            _dom_classes=("durak-lesson",),
        )

        self.table.on_click(self._on_click)
        self.controller.on_change(self.render)
        self.i18n.on_change(lambda _code: self.render())
        self.render()
        self._finish_page()

    # ------------------------------------------------------------------ events

    def _guard(self, handler: Callable[..., Any]) -> Callable[..., None]:
        """Callbacks run in the kernel where nobody sees a traceback: log, never crash."""

        def run(*args: Any) -> None:
            try:
                handler(*args)
            except Exception:
                log.exception("lesson page: a handler failed")

        return run

    def restart_lesson(self) -> None:
        self.controller.restart()

    # ------------------------------------------------------------------ page

    def page_title(self) -> str:
        return self.i18n.gettext(self.controller.lesson.title)

    def resume_state(self) -> dict[str, Any]:
        return self.controller.resume_state()

    def resume(self, state: object) -> bool:
        return self.controller.resume(state)

    def _on_click(self, click: Click) -> None:
        if click.get("type") == "progress":
            self._merge_progress(click.get("data") or {})
            return
        self.controller.click(click)

    def _merge_progress(self, stored: dict[str, Any]) -> None:
        """Keep the best stars per lesson from the browser and from this session."""
        # hardening (issue 8b): browser data is sanitized (known lessons, 0-3 stars only)
        from .progress import merge_progress

        self.controller.progress = merge_progress(stored, self.controller.progress)
        self.render()

    # ------------------------------------------------------------------ rendering

    def render(self) -> None:
        """Redraw everything from the controller, in the current language."""
        tr = self.i18n
        panel: PanelView = self.controller.panel_view()
        self.table.show(self.controller.table_view())
        if self.controller.progress != self.table.progress:
            self.table.progress = dict(self.controller.progress)
        best = max(panel["stars"], panel["best_stars"])
        best_label = tr.gettext("Best result")
        with self.widget.hold_sync():
            self.title.value = (
                f"<div class='durak-title'><h2>{escape(panel['title'])}</h2>"
                f"<p>{escape(panel['summary'])}</p></div>"
            )
            self.stars.value = (
                f"<div class='durak-stars' title='{escape(best_label)}'>{stars_text(best)}</div>"
            )
            self.language.description = term(Term.LANGUAGE, tr)
            self.step_label.value = f"<div class='durak-step'>{escape(panel['step_label'])}</div>"
            self.text.value = (
                f"<div class='durak-say'>{escape(panel['text'])}</div>" if panel["text"] else ""
            )
            self.question.value = (
                f"<div class='durak-question'>{escape(panel['question'])}</div>"
                if panel["question"]
                else ""
            )
            choices = panel["choices"]
            for i, button in enumerate(self.choices):
                if i < len(choices):
                    choice = choices[i]
                    button.description = choice["label"]
                    button.layout.display = ""
                    button.button_style = (
                        "success" if choice["correct"] else ("danger" if choice["picked"] else "")
                    )
                else:
                    button.layout.display = "none"
            self.comparison.value = self._comparison_html(panel)
            self.back.description = tr.pgettext("button", "Back")
            self.hint.description = tr.pgettext("button", "Hint")
            self.next.description = tr.pgettext("button", "Next")
            self.restart.description = tr.pgettext("button", "Restart")
            self.free.description = tr.pgettext("button", "Play on from here")
            self.back.disabled = not panel["can_back"]
            self.hint.disabled = not panel["can_hint"]
            self.next.disabled = not panel["can_next"]
            self.free.disabled = not panel["can_free_play"]
        self.sync_bridge()

    def _comparison_html(self, panel: PanelView) -> str:
        data = panel["comparison"]
        if not data:
            return ""
        rows = []
        first = data["first_difference"]
        for i, row in enumerate(data["rows"]):
            cls = " class='durak-diverge'" if i == first else ""
            cells = [
                f"<td>{escape(row['move'])}</td>",
                f"<td class='{'ok' if row['ours_ok'] else 'no'}'>{escape(row['ours'])}</td>",
                f"<td class='{'ok' if row['theirs_ok'] else 'no'}'>{escape(row['theirs'])}</td>",
            ]
            rows.append(f"<tr{cls}>{''.join(cells)}</tr>")
        move = self.i18n.gettext("Move")
        head = (
            f"<tr><th>{escape(move)}</th><th>{escape(data['ours'])}</th>"
            f"<th>{escape(data['theirs'])}</th></tr>"
        )
        return f"<table class='durak-compare'>{head}{''.join(rows)}</table>"
