"""The lesson page: the card table, the lesson panel, navigation and the language menu.

``LessonApp("growing-round")`` builds everything for one lesson. A notebook goes through the
safe builder (:func:`tutorial.pages.page`), which shows a localized panel if building fails::

    from tutorial.pages import page
    page("03-growing-round")

Layout (``static/panel.css``): on a wide screen the table fills the left and a side column
holds the title, the links to the other lessons, the step's task, the feedback line and the
step buttons, all within one screen; on a narrow one they stack (title, the step's task,
table, feedback, buttons: the task comes first so that a phone shows it with the table). The
table widget moves its feedback line into the panel's slot (``durak-feedback-slot``), next
to the task. ``?present=1`` (or the presenter button) scales the page to fill a projector;
``?step=N`` opens step N; the arrow keys, PageUp/PageDown and Space step through the lesson
(see ``static/bridge.js``).

The view only shows what the controller renders and forwards clicks; it applies no rule.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from .assets import PageStyle
from .bridge import PageBridge
from .comparison import parting_html
from .controller import LessonController, PanelView
from .free_play_view import FreePlay
from .i18n import Gettext
from .lesson_view import panel_view, table_view
from .lessons import Lesson, load_lessons
from .names import Term, term
from .page import BridgedPage, escape, language_menu, set_shown, title_html
from .table_widget import TableWidget
from .view_model import Click

__all__ = ["PRESENT_CLASS", "LessonApp", "find_lesson", "stars_text"]

log = logging.getLogger(__name__)
_MAX_CHOICES = 4

PRESENT_CLASS = "durak-present"
"""The class of a page root in presenter mode (``static/panel.css`` scales it)."""


def find_lesson(lesson_id: str) -> Lesson:
    """The lesson with this id (raises ``KeyError`` naming the known ids)."""
    lessons = {lesson.id: lesson for lesson in load_lessons()}
    try:
        return lessons[lesson_id]
    except KeyError:
        raise KeyError(f"no lesson {lesson_id!r}; known: {', '.join(lessons)}") from None


def stars_text(stars: int, total: int = 3) -> str:
    return "★" * stars + "☆" * (total - stars)


def _page_link(page: str, lang: str, text: str, cls: str, label: str = "") -> str:
    """A link to another page of the site. ``href`` names the Voilà notebook; the page
    bridge (``static/bridge.js``) points it at the right file (``.html`` on the static site)
    and keeps ``?present=1`` when the learner follows it."""
    aria = f" aria-label='{escape(label)}'" if label else ""
    return (
        f"<a class='{cls}' href='{escape(page)}.ipynb?lang={escape(lang)}'"
        f" data-durak-page='{escape(page)}'{aria}>{escape(text)}</a>"
    )


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
        pace: float | None = None,
    ) -> None:
        if isinstance(lesson, str):
            lesson = find_lesson(lesson)
        self._start_page(language, bridge)
        self.controller = self.make_controller(lesson, seed=seed, hints=hints)
        self.table = TableWidget()
        self.table.add_class("durak-table-box")
        # free play: the move log, the result, the computer's moves one by one (pace seconds)
        self.free_play = FreePlay(
            self.controller,
            again=self.play_again,
            again_label=self.again_label,
            pace=pace,
            alive=lambda: self.table.comm is not None,
        )
        self._presenting = False
        # Widgets whose layout and style never change share one of each: every model is a
        # message to the browser, and a class arriving at once waits for all of them.
        fixed = w.Layout()
        html_style = HTMLStyle()
        button_style = w.ButtonStyle()

        def html(value: str = "", *classes: str) -> w.HTML:
            return w.HTML(value, layout=fixed, style=html_style, _dom_classes=classes)

        self.style = PageStyle()
        self.title = html()
        self.language = language_menu(self.i18n)
        self.stars = html()
        self.links = html("", "durak-links-box")
        self.step_label = html("", "durak-step-box")
        self.text = html("", "durak-task-box")
        # The table widget moves its feedback line in here (next to the task); never redrawn.
        self.feedback = html("<div class='durak-feedback-slot'></div>", "durak-feedback")
        self.question = html("", "durak-question-box")
        # Choices are shown and hidden one by one: each has its own layout.
        self.choices = [
            w.Button(
                layout=w.Layout(width="auto"), style=button_style, _dom_classes=("durak-choice",)
            )
            for _ in range(_MAX_CHOICES)
        ]
        for i, choice_button in enumerate(self.choices):
            choice_button.on_click(self._guard(lambda _b, i=i: self.controller.answer_question(i)))
        self.choice_box = w.HBox(self.choices, layout=fixed, _dom_classes=("durak-choices",))
        self.comparison = html()
        self.finish = html("", "durak-finish-box")
        # No icons: they are Font Awesome glyphs, fetched from a CDN by Voilà's template.
        # Each button is shown and hidden on its own (the play page has no Back, Hint, Next).

        def button(name: str, *, tool: bool = False, **kwargs: Any) -> w.Button:
            return w.Button(
                layout=w.Layout(),
                style=button_style,
                _dom_classes=("durak-tool" if tool else "durak-nav", f"durak-{name}"),
                **kwargs,
            )

        self.back = button("back")
        self.hint = button("hint")
        self.next = button("next", button_style="primary")
        self.restart = button("restart", tool=True)
        self.free = button("free", tool=True)
        for widget, handler in (
            (self.back, self.controller.back),
            (self.hint, self.controller.hint),
            (self.next, self.controller.next),
            (self.restart, self.restart_lesson),
            (self.free, self.controller.continue_free_play),
        ):
            widget.on_click(self._guard(lambda _b, handler=handler: handler()))
        # Presenter mode and "show all hands": switches (aria-pressed), off at first.
        self.present = w.ToggleButton(
            False,
            layout=w.Layout(width="auto"),
            _dom_classes=("durak-tool", "durak-present-toggle"),
        )
        self.show_all = w.ToggleButton(
            False, layout=w.Layout(), _dom_classes=("durak-tool", "durak-show-all")
        )
        self.present.observe(
            self._guard(lambda change: self.set_presenting(change["new"])), "value"
        )
        self.show_all.observe(self._guard(lambda change: self._show_all(change["new"])), "value")

        nav = w.HBox(
            [self.back, self.hint, self.next], layout=fixed, _dom_classes=("durak-navbar",)
        )
        tools = w.HBox(
            [self.restart, self.free, self.show_all], layout=fixed, _dom_classes=("durak-tools",)
        )
        header = w.HBox(
            [self.title, self.stars, self.language, self.present],
            layout=fixed,
            _dom_classes=("durak-header",),
        )
        body = w.VBox(
            [
                self.step_label,
                self.text,
                self.feedback,
                self.question,
                self.choice_box,
                self.comparison,
                self.finish,
                self.free_play.widget,
            ],
            layout=fixed,
            _dom_classes=("durak-panel-body",),
        )
        self.panel = w.VBox([body, nav, tools], layout=fixed, _dom_classes=("durak-panel",))
        self.stage = w.Box(
            [header, self.notice, self.links, self.table, self.panel],
            layout=fixed,
            _dom_classes=("durak-stage",),
        )
        self.widget = w.VBox(
            [*self.own_bridge(), self.style, self.stage],
            layout=fixed,
            _dom_classes=("durak-lesson", "durak-lesson-page"),
        )

        self.table.on_click(self._on_click)
        self.controller.on_change(self.render)
        self.i18n.on_change(lambda _code: self.render())
        self.render()
        self._finish_page()

    # ------------------------------------------------------------------ events

    def make_controller(self, lesson: Lesson, *, seed: int, hints: bool) -> LessonController:
        """The page's controller (the play page makes its own kind)."""
        return LessonController(lesson, self.i18n, seed=seed, hints=hints)

    def table_snapshot(self) -> dict[str, Any]:
        """What the table widget shows now (the play page hides hands behind a cover)."""
        return dict(table_view(self.controller))

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

    def play_again(self) -> None:
        """The free-play result's button: free play again from where it began."""
        self.controller.play_again()

    def again_label(self, tr: Gettext) -> str:
        return tr.pgettext("button", "Play again")

    def set_presenting(self, on: bool) -> None:
        """Presenter mode on or off: the page fills the screen (``?present=1``), the step keys
        also show a step's move, R restarts, and "show all hands" is offered."""
        on = bool(on)
        if on == self._presenting:
            return
        self._presenting = on
        if on:
            self.widget.add_class(PRESENT_CLASS)
        else:
            self.widget.remove_class(PRESENT_CLASS)
            if self.controller.showing_all():
                self.controller.set_show_all(False)
        self.render()

    def _show_all(self, on: bool) -> None:
        if not self.controller.set_show_all(bool(on) and self._presenting):
            log.info("lesson page: refused to show every hand here")
        self.render()

    # ------------------------------------------------------------------ page

    def page_title(self) -> str:
        return self.i18n.gettext(self.controller.lesson.title)

    def resume_state(self) -> dict[str, Any]:
        return self.controller.resume_state()

    def resume(self, state: object) -> bool:
        return self.controller.resume(state)

    def open_with(self, *, present: bool, step: int | None, resumed: bool) -> None:
        if present:
            self.set_presenting(True)
        if step is not None and not resumed:
            # out of range: the first step (go_to says so, and the page just opens)
            self.controller.go_to(step)

    def stop(self) -> None:
        """No more moves of the computer: the page is being closed."""
        self.free_play.pacer.cancel()

    def presenting(self) -> bool:
        return self._presenting

    def url_step(self) -> int:
        """The step, kept in the address in presenter mode only: a teacher reloads or shares
        the step being shown; a learner's reload starts the lesson (and its stars) afresh."""
        ctl = self.controller
        if not self.presenting():
            return 0
        if not ctl.navigation or ctl.completed or ctl.free_play or ctl.index == 0:
            return 0
        return ctl.index + 1

    def navigate(self, to: str) -> None:
        """→/PageDown/Space: the next step (in presenter mode, first the step's own move
        or answer when the class has not played it); ←/PageUp: back; R: start again
        (presenter mode only: a slip of a learner's finger must not wipe a run)."""
        ctl = self.controller
        if not ctl.navigation:
            return
        if to == "next":
            step = ctl.step
            if ctl.can_next():
                ctl.next()
            elif (
                self._presenting
                and step is not None
                and step.kind in ("move", "question")
                and not ctl.step_done
            ):
                ctl.go_to(ctl.index + 1, done=True)
        elif to == "back":
            ctl.back()
        elif to == "restart" and self._presenting:
            self.restart_lesson()

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
        ctl = self.controller
        panel: PanelView = panel_view(ctl)
        self.table.show(self.table_snapshot())
        self.free_play.render()
        if ctl.progress != self.table.progress:
            self.table.progress = dict(ctl.progress)
        best = max(panel["stars"], panel["best_stars"])
        best_label = tr.gettext("Best result")
        lessons = ctl.navigation
        completed, free = panel["completed"], ctl.free_play
        with self.widget.hold_sync():
            self.title.value = title_html(panel["title"], panel["summary"])
            self.stars.value = (
                f"<div class='durak-stars' title='{escape(best_label)}'>{stars_text(best)}</div>"
                if lessons
                else ""
            )
            self.language.description = term(Term.LANGUAGE, tr)
            self.links.value = self._links_html(panel, lessons)
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
            for i, choice_button in enumerate(self.choices):
                if i < len(choices):
                    choice = choices[i]
                    choice_button.description = choice["label"]
                    set_shown(choice_button, True)
                    choice_button.button_style = (
                        "success" if choice["correct"] else ("danger" if choice["picked"] else "")
                    )
                else:
                    set_shown(choice_button, False)
            self.comparison.value = self._comparison_html(panel)
            self.finish.value = self._finish_html(panel)
            self.back.description = tr.pgettext("button", "Back")
            self.hint.description = tr.pgettext("button", "Hint")
            self.next.description = tr.pgettext("button", "Next")
            self.restart.description = (
                tr.pgettext("button", "Try again")
                if completed
                else tr.pgettext("button", "Restart")
            )
            self.free.description = tr.pgettext("button", "Play on from here")
            self.present.description = (
                tr.pgettext("button", "Leave presenter mode")
                if self._presenting
                else tr.pgettext("button", "Presenter mode")
            )
            # TRANSLATORS: tooltip of the presenter mode button.
            self.present.tooltip = tr.gettext(
                "Fill the screen for a projector; → and ← step through the lesson"
            )
            self.show_all.description = (
                tr.pgettext("button", "Hide the others' hands")
                if panel["showing_all"]
                else tr.pgettext("button", "Show all hands")
            )
            self.back.disabled = not panel["can_back"]
            self.hint.disabled = not panel["can_hint"]
            self.next.disabled = not panel["can_next"]
            self.free.disabled = not panel["can_free_play"]
            # No dead buttons: what cannot be used in this state is not shown at all.
            set_shown(self.back, lessons)
            set_shown(self.hint, lessons and not completed and not free)
            set_shown(self.next, lessons and not completed and not free)
            set_shown(self.free, panel["can_free_play"])
            offer_all = self._presenting and panel["can_show_all"]
            set_shown(self.show_all, offer_all)
            if self.present.value != self._presenting:
                self.present.value = self._presenting
            if self.show_all.value != panel["showing_all"]:
                self.show_all.value = panel["showing_all"]
        self.sync_bridge()

    def _links_html(self, panel: PanelView, lessons: bool) -> str:
        """The way to the lesson list and to the previous and next lesson."""
        tr = self.i18n
        lang = tr.language
        links = panel["links"]
        parts = [_page_link("index", lang, "⌂ " + tr.gettext("All lessons"), "durak-link-index")]
        if lessons and links["previous"]:
            previous = links["previous"]
            text = tr.gettext("Previous lesson")
            parts.append(
                _page_link(
                    previous["page"],
                    lang,
                    "‹ " + text,
                    "durak-link-previous",
                    tr.gettext("Previous lesson: {title}", title=previous["title"]),
                )
            )
        if lessons and links["next"] and not links["next"].get("last"):
            following = links["next"]
            text = tr.gettext("Next lesson")
            parts.append(
                _page_link(
                    following["page"],
                    lang,
                    text + " ›",
                    "durak-link-next",
                    tr.gettext("Next lesson: {title}", title=following["title"]),
                )
            )
        label = tr.gettext("Lessons")
        return f"<nav class='durak-links' aria-label='{escape(label)}'>{''.join(parts)}</nav>"

    def _finish_html(self, panel: PanelView) -> str:
        """The finishing panel: stars earned and why, and where to go next."""
        finish = panel["finish"]
        if not finish:
            return ""
        tr = self.i18n
        lang = tr.language
        stars = finish["stars"]
        why = "".join(f"<p>{escape(sentence)}</p>" for sentence in finish["why"])
        best = ""
        if finish["best"] > stars:
            label = tr.gettext("Your best result in this browser")
            best = (
                f"<p class='durak-finish-best'>{escape(label)}: "
                f"<span class='durak-finish-best-stars'>{stars_text(finish['best'])}</span></p>"
            )
        following = panel["links"]["next"]
        go = ""
        if following:
            text = (
                tr.gettext("Play a whole game")
                if following.get("last")
                else tr.gettext("Next lesson: {title}", title=following["title"])
            )
            go = _page_link(following["page"], lang, text + " →", "durak-finish-next")
        index = _page_link("index", lang, tr.gettext("All lessons"), "durak-finish-index")
        return (
            "<div class='durak-finish'>"
            f"<div class='durak-finish-stars' role='img'"
            f" aria-label='{escape(finish['stars_label'])}'>{stars_text(stars)}</div>{why}{best}"
            f"<div class='durak-finish-links'>{go}{index}</div></div>"
        )

    def _comparison_html(self, panel: PanelView) -> str:
        """The compare step: where the two rule sets part and the rule that decides it, then
        every move (the parting's row highlighted; knock-on verdicts greyed)."""
        data = panel["comparison"]
        if not data:
            return ""
        parting = data["parting"]
        first = parting["row"] if parting is not None else None
        rows = []
        for i, row in enumerate(data["rows"]):
            cls = " class='durak-diverge'" if i == first else ""
            cells = [f"<th scope='row'>{escape(row['move'])}</th>"]
            for side in ("ours", "theirs"):
                verdict = "after" if row[f"{side}_after"] else ("ok" if row[f"{side}_ok"] else "no")
                cells.append(f"<td class='{verdict}'>{escape(row[side])}</td>")
            rows.append(f"<tr{cls}>{''.join(cells)}</tr>")
        move = self.i18n.gettext("Move")
        head = (
            f"<thead><tr><th scope='col'>{escape(move)}</th>"
            f"<th scope='col'>{escape(data['ours'])}</th>"
            f"<th scope='col'>{escape(data['theirs'])}</th></tr></thead>"
        )
        table = f"<table class='durak-compare'>{head}<tbody>{''.join(rows)}</tbody></table>"
        return (parting_html(parting) if parting is not None else "") + table
