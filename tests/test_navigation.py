"""Navigation, the finishing panel, presenter mode and deep links, without a browser.

* ``LessonController.go_to(step)`` reaches step N exactly as a learner clicking through does,
  and any bad step opens the first one (never a crash); steps played for the learner earn no
  stars.
* The finishing panel says how many stars and why, and where to go next; the lesson page
  shows no dead Next at the end, and every lesson page links to the index and its neighbours.
* ``?present=1`` / ``?step=N`` arrive in the hello (validated by the bridge) and the page
  keeps them in the address; navigation keys move through the lesson.
* "Show all hands" exists only on lesson pages in presenter mode: the full-game page refuses
  it whatever the browser sends, and free play (a real game) never shows hidden hands.
* The three kinds of feedback on a move carry their own label.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import press, say
from tests.lesson_clicks import clicks_for, complete, expected_action
from tutorial.app import PRESENT_CLASS, LessonApp
from tutorial.bridge import MAX_PARAM, MAX_STEP, validate_message
from tutorial.controller import LessonController, stars_for, two_star_slips
from tutorial.game_page import GameApp
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n, translator
from tutorial.lesson_view import feedback_label, finish_view, lesson_links, panel_view, table_view
from tutorial.lessons import Lesson, load_lessons
from tutorial.page import is_shown

LESSONS = load_lessons()
BY_ID = {lesson.id: lesson for lesson in LESSONS}


pytestmark = pytest.mark.usefixtures("no_server_language")


def hello(lang: str = "en", page: str = "01-beating", **extra: object) -> dict[str, Any]:
    return {"type": "hello", "lang": lang, "page": page, "resume": None, **extra}


def controller(lesson_id: str = "growing-round", lang: str = "en") -> LessonController:
    return LessonController(BY_ID[lesson_id], I18n(lang))


# ------------------------------------------------------------------------------ go_to


def _entries_by_clicks(lesson: Lesson) -> list[list[str]]:
    """The game's history when a clicking learner enters each step."""
    seen: dict[int, list[str]] = {}

    def record(ctl: LessonController) -> None:
        seen.setdefault(ctl.index, [str(a) for a in ctl.game.history])

    complete(LessonController(lesson, I18n("en")), on_step=record)
    return [seen[i] for i in range(len(lesson.steps))]


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_go_to_reaches_every_step_as_a_clicking_learner_does(lesson: Lesson) -> None:
    entries = _entries_by_clicks(lesson)
    ctl = LessonController(lesson, I18n("en"))
    for number in range(1, len(lesson.steps) + 1):
        assert ctl.go_to(number)
        assert ctl.index == number - 1 and not ctl.completed and not ctl.free_play
        assert [str(a) for a in ctl.game.history] == entries[number - 1]
        step = ctl.step
        assert step is not None
        assert ctl.step_done == (step.kind not in ("move", "question"))
        assert ctl.skipped == (number > 1)
        assert panel_view(ctl)["step_label"] == f"Step {number} of {len(lesson.steps)}"


@pytest.mark.parametrize(
    "bad", [0, -1, 10_000, None, "3", 2.0, True, [2], {"step": 2}, float("nan"), 2**70]
)
def test_a_bad_step_opens_the_first_step(bad: object) -> None:
    ctl = controller()
    ctl.go_to(5)
    told: list[int] = []
    ctl.on_change(lambda: told.append(ctl.index))
    assert ctl.go_to(bad) is False
    assert ctl.index == 0 and not ctl.game.history and not ctl.skipped
    assert told == [0]  # the page redraws once, at the start
    assert panel_view(ctl)["step_label"] == "Step 1 of 13"


def test_go_to_past_the_last_step_is_refused() -> None:
    ctl = controller("beating")
    assert ctl.go_to(len(ctl.lesson.steps) + 1) is False and ctl.index == 0


def test_go_to_done_plays_the_steps_own_move_and_answer() -> None:
    ctl = controller()
    step = next(i for i, s in enumerate(ctl.lesson.steps) if s.kind == "move")
    assert ctl.go_to(step + 1, done=True)
    assert ctl.index == step and ctl.step_done and ctl.can_next()
    assert ctl.message is not None and ctl.message[0] == "success"
    question = next(i for i, s in enumerate(ctl.lesson.steps) if s.kind == "question")
    assert ctl.go_to(question + 1, done=True)
    assert ctl.step_done and ctl.answer is not None


def test_steps_played_for_the_learner_earn_no_stars_even_after_a_resume() -> None:
    ctl = controller("beating")
    ctl.progress = {"bout": {"stars": 2}}
    assert ctl.go_to(len(ctl.lesson.steps), done=True)
    ctl.next()
    assert ctl.completed and ctl.stars() == 0
    assert ctl.progress == {"bout": {"stars": 2}}  # nothing recorded for this lesson
    finish = finish_view(ctl)
    assert finish["stars"] == 0 and "no stars" in " ".join(finish["why"])
    state = json.loads(json.dumps(ctl.resume_state()))
    again = controller("beating")
    assert again.resume(state) and again.completed and again.skipped and again.stars() == 0
    again.restart()
    assert not again.skipped


def test_go_to_is_refused_on_the_full_game_page() -> None:
    app = GameApp(language="en", seed=4)
    before = app.controller.resume_state()
    assert app.controller.go_to(1) is False
    assert app.controller.resume_state() == before


# ------------------------------------------------------------------------------ the finish


def test_a_clean_run_earns_three_stars_and_says_why() -> None:
    ctl = controller("beating")
    complete(ctl)
    finish = finish_view(ctl)
    assert finish["stars"] == 3 == stars_for(ctl.lesson.par, 0, 0)
    assert finish["why"] == ["No mistakes and no hints: a clean run earns three stars."]
    assert finish["stars_label"] == "3 stars out of 3"
    assert ctl.progress == {"beating": {"stars": 3}}


def test_a_run_with_slips_counts_mistakes_and_hints() -> None:
    ctl = controller("growing-round", "ru")

    def hint_once(c: LessonController) -> None:
        if c.hints_used == 0 and c.can_hint():
            c.hint()

    complete(ctl, wrong=True, on_step=hint_once)
    mistakes, hints = ctl.mistakes, ctl.hints_used
    assert mistakes > 0 and hints == 1
    finish = finish_view(ctl)
    assert finish["stars"] == stars_for(ctl.lesson.par, mistakes, hints) < 3
    ru = translator("ru")
    first = ru.gettext(
        "In this run: {mistakes} and {hints}.",
        mistakes=ru.ngettext("{n} mistake", "{n} mistakes", mistakes),
        hints=ru.ngettext("{n} hint", "{n} hints", hints),
    )
    assert finish["why"][0] == first and "1 подсказка" in first
    slips = two_star_slips(ctl.lesson.par)
    assert str(slips) in finish["why"][1]


def test_the_page_at_the_end_offers_the_next_lesson_not_a_dead_next() -> None:
    app = LessonApp("beating", language="es")
    complete(app.controller)
    panel = panel_view(app.controller)
    assert panel["completed"] and panel["step_label"] == "Lección completada"
    assert not is_shown(app.next) and not is_shown(app.hint)
    assert app.next.disabled  # and a forged click does nothing
    assert app.restart.description == "Intentar de nuevo"
    assert is_shown(app.free) and not app.free.disabled
    html = app.finish.value
    assert "durak-finish-next" in html and "02-bout.ipynb?lang=es" in html
    assert "data-durak-page='02-bout'" in html and "★★★" in html
    assert table_view(app.controller)["actions"] == []  # no Done/Take that can do nothing
    press(app.free)
    assert app.controller.free_play and app.finish.value == ""
    assert not is_shown(app.next)  # no step to go on to in free play


def test_every_lesson_page_links_to_the_index_and_its_neighbours() -> None:
    tr = translator("en")
    for i, lesson in enumerate(LESSONS):
        links = lesson_links(lesson, tr)
        assert links["index"] == "index"
        previous, following = links["previous"], links["next"]
        if i == 0:
            assert previous is None
        else:
            assert previous == {
                "page": Path(LESSONS[i - 1].source).stem,
                "title": tr.gettext(LESSONS[i - 1].title),
            }
        if i + 1 < len(LESSONS):
            assert following["page"] == Path(LESSONS[i + 1].source).stem
        else:
            assert following == {"page": "play", "title": "Play a whole game", "last": True}
    app = LessonApp("growing-round", language="ru")
    html = app.links.value
    assert "<nav" in html and "index.ipynb?lang=ru" in html
    assert "02-bout.ipynb?lang=ru" in html and "04-hand-cap.ipynb?lang=ru" in html
    assert "Предыдущий урок" in html and "Следующий урок" in html


def test_the_full_game_page_links_only_to_the_index() -> None:
    app = GameApp(language="en", seed=1)
    assert lesson_links(app.controller.lesson, app.i18n) == {
        "index": "index",
        "previous": None,
        "next": None,
    }
    assert "index.ipynb" in app.links.value and "durak-link-next" not in app.links.value
    for button in (app.back, app.hint, app.next, app.free, app.show_all):
        assert not is_shown(button)


# ------------------------------------------------------------------------------ the hello


@pytest.mark.parametrize(
    ("raw", "present"),
    [("1", True), ("true", True), ("on", True), ("0", False), ("", False), (None, False)],
)
def test_present_in_the_hello(raw: str | None, present: bool) -> None:
    message = validate_message(hello(present=raw, step=None))
    assert message is not None and message["present"] is present and message["step"] is None


@pytest.mark.parametrize(
    ("raw", "step"),
    [
        ("5", 5),
        (" 7 ", 7),
        ("1", 1),
        (str(MAX_STEP), MAX_STEP),
        ("0", None),
        ("-1", None),
        ("2.5", None),
        ("abc", None),
        ("٣", None),  # a digit, but not an ASCII one
        ("1e3", None),
        (str(MAX_STEP + 1), None),
        ("9" * MAX_PARAM, None),
        ("9" * (MAX_PARAM + 5), None),  # longer than the browser sends: not a step
        (None, None),
    ],
)
def test_step_in_the_hello(raw: str | None, step: int | None) -> None:
    message = validate_message(hello(present=None, step=raw))
    assert message is not None and message["step"] == step and message["present"] is False


@pytest.mark.parametrize(
    "content",
    [
        hello(present=1, step=None),
        hello(present=None, step=5),
        hello(present=True, step=None),
        hello(present=None, step=["5"]),
        hello(present=object(), step=object()),  # e.g. Pyodide's jsnull for the browser's null
    ],
)
def test_a_parameter_that_is_not_a_string_counts_as_absent(content: object) -> None:
    """The static site's kernel receives the browser's null as Pyodide's ``jsnull``: such a
    hello must still open the page, as if the address had no ``?present=`` or ``?step=``."""
    message = validate_message(content)
    assert message is not None and message["present"] is False and message["step"] is None


@pytest.mark.parametrize(
    "content",
    [
        hello(present=None, step=None, extra=1),
        {"type": "nav", "to": "jump"},
        {"type": "nav", "to": "next", "step": 3},
        {"type": "nav"},
        {"type": "nav", "to": 1},
    ],
)
def test_forged_hellos_and_keys_are_dropped(content: object) -> None:
    assert validate_message(content) is None


def test_an_old_hello_has_no_present_or_step() -> None:
    message = validate_message(hello())
    assert message is not None and "present" not in message and "step" not in message


def test_a_deep_link_opens_its_step_and_the_address_follows_the_page() -> None:
    app = LessonApp("growing-round")
    say(app.bridge, hello("en", "03-growing-round", present="1", step="6"))
    assert app.controller.index == 5 and app.url_step() == 6 and app.bridge.step == 6
    assert app.bridge.present is True
    press(app.back)
    assert app.bridge.step == 5
    app.controller.restart()
    assert app.bridge.step == 0  # the first step: no ?step= in the address


def test_a_learner_deep_link_opens_its_step_but_the_address_does_not_keep_it() -> None:
    """Outside presenter mode a reload must start the lesson (and its stars) afresh."""
    app = LessonApp("growing-round")
    say(app.bridge, hello("en", "03-growing-round", present=None, step="6"))
    assert app.controller.index == 5 and app.bridge.present is False
    assert app.url_step() == 0 and app.bridge.step == 0


@pytest.mark.parametrize("raw", ["99", "0", "x", "-3"])
def test_a_deep_link_to_no_step_opens_the_first(raw: str) -> None:
    app = LessonApp("growing-round")
    say(app.bridge, hello("en", "03-growing-round", present=None, step=raw))
    assert app.controller.index == 0 and app.ready and app.bridge.step == 0


def test_a_resume_wins_over_the_deep_link() -> None:
    first = LessonApp("growing-round", language="en")
    first.controller.go_to(4)
    first.controller.restart()
    for _ in range(2):
        first.controller.next()
    stored = json.loads(json.dumps(first.bridge.resume))
    again = LessonApp("growing-round")
    say(again.bridge, {**hello("en", "03-growing-round", step="9"), "resume": stored})
    assert again.controller.index == first.controller.index == 2


def test_presenter_mode_from_the_address_and_the_button() -> None:
    app = LessonApp("beating")
    say(app.bridge, hello("en", present="1", step=None))
    assert app.presenting() and PRESENT_CLASS in app.widget._dom_classes
    assert app.bridge.present is True and app.present.value is True
    assert app.present.description == "Leave presenter mode"
    app.present.value = False  # the learner presses the button
    assert not app.presenting() and PRESENT_CLASS not in app.widget._dom_classes
    assert app.bridge.present is False and app.present.description == "Presenter mode"


# ------------------------------------------------------------------------------ keys


def test_keys_step_through_the_lesson() -> None:
    app = LessonApp("beating")
    say(app.bridge, hello("en", present=None, step=None))
    ctl = app.controller
    say(app.bridge, {"type": "nav", "to": "next"})
    assert ctl.index == 1
    say(app.bridge, {"type": "nav", "to": "back"})
    assert ctl.index == 0
    say(app.bridge, {"type": "nav", "to": "next"})
    say(app.bridge, {"type": "nav", "to": "next"})
    assert ctl.index == 2 and not ctl.step_done  # a question: the learner must answer
    say(app.bridge, {"type": "nav", "to": "next"})
    assert ctl.index == 2 and not ctl.step_done and not ctl.skipped
    say(app.bridge, {"type": "nav", "to": "restart"})
    assert ctl.index == 2  # R restarts only in presenter mode


def test_in_presenter_mode_next_shows_the_move_and_r_restarts() -> None:
    app = LessonApp("beating")
    say(app.bridge, hello("en", present="1", step=None))
    ctl = app.controller
    while ctl.step is not None and ctl.step.kind != "move":
        say(app.bridge, {"type": "nav", "to": "next"})
    move = expected_action(ctl, ctl.step)
    say(app.bridge, {"type": "nav", "to": "next"})
    assert ctl.step_done and ctl.game.history[-1] == move and ctl.skipped
    say(app.bridge, {"type": "nav", "to": "next"})
    assert ctl.index > 0
    say(app.bridge, {"type": "nav", "to": "restart"})
    assert ctl.index == 0 and not ctl.skipped


def test_keys_do_nothing_on_the_full_game_page() -> None:
    app = GameApp(language="en", seed=2)
    app.set_presenting(True)
    before = app.controller.resume_state()
    for to in ("next", "back", "restart"):
        say(app.bridge, {"type": "nav", "to": to})
    assert app.controller.resume_state() == before


# ------------------------------------------------------------------------------ show all


def _face_up(ctl: LessonController) -> set[int]:
    return {seat["seat"] for seat in table_view(ctl)["seats"] if "cards" in seat}


def test_show_all_hands_in_presenter_mode_on_a_lesson_page() -> None:
    app = LessonApp("growing-round", language="en")
    ctl = app.controller
    assert _face_up(ctl) == set()  # the lesson hides the others' hands
    app.show_all.value = True  # not offered outside presenter mode
    assert _face_up(ctl) == set() and app.show_all.value is False
    app.set_presenting(True)
    assert is_shown(app.show_all)
    app.show_all.value = True
    assert _face_up(ctl) == {0, 2, 3} and app.show_all.value is True
    assert app.show_all.description == app.i18n.pgettext("button", "Hide the others' hands")
    card = ctl.game.hand(0)[0]
    ctl.click({"type": "card", "zone": "seat", "id": card.ascii()})
    assert ctl.message is not None and "Ana" in ctl.message[1](app.i18n)
    app.set_presenting(False)  # leaving presenter mode hides them again
    assert _face_up(ctl) == set() and app.show_all.value is False


def test_free_play_never_shows_all_hands() -> None:
    app = LessonApp("growing-round", language="en")
    app.set_presenting(True)
    app.show_all.value = True
    press(app.free)
    assert app.controller.free_play and _face_up(app.controller) == set()
    assert not is_shown(app.show_all)


def test_the_full_game_page_refuses_show_all_whatever_the_browser_sends() -> None:
    app = GameApp(language="en", seed=5, players=3)
    ctl = app.controller
    app.set_presenting(True)
    assert not is_shown(app.show_all)
    app.show_all.set_state({"value": True})  # a forged state update from the browser
    assert _face_up(ctl) == set() and not ctl.showing_all()
    assert ctl.set_show_all(True) is False and not ctl.showing_all()
    ctl.navigation = True  # even a controller that would allow it: free play is a real game
    assert ctl.set_show_all(True) and _face_up(ctl) == set()


# ------------------------------------------------------------------------------ feedback


def test_three_kinds_of_feedback_on_a_move_have_their_labels() -> None:
    """S4 example 1 (lesson 3): a refusal, a costly trump and a sensible detour."""
    ctl = controller("growing-round", "es")
    es = ctl.i18n
    labels = {}
    for kind in ("error", "detour", "costly"):
        labels[kind] = feedback_label(kind, es)
    assert labels == {
        "error": es.pgettext("feedback", "Not allowed"),
        "detour": es.pgettext("feedback", "Allowed, but…"),
        "costly": es.pgettext("feedback", "Allowed, but costly"),
    }
    assert len(set(labels.values())) == 3 and "Not allowed" not in labels.values()
    assert feedback_label("error", es, quiz=True) == ""
    assert feedback_label("info", es) == feedback_label("success", es) == ""
    seen: dict[str, str] = {}
    for number, step in enumerate(ctl.lesson.steps, start=1):
        if step.kind != "move":
            continue
        for wrong in step.wrong:
            ctl.go_to(number)
            if wrong.play.card is not None and wrong.play.card not in ctl.game.hand(ctl.you):
                continue
            for click in clicks_for(ctl, wrong.play):
                ctl.click(click)
            message = table_view(ctl)["message"]
            assert message is not None
            seen[message["kind"]] = message.get("label", "")
    assert seen == labels


def test_a_wrong_answer_to_a_question_has_no_not_allowed_label() -> None:
    ctl = controller("beating")
    ctl.go_to(next(i for i, s in enumerate(ctl.lesson.steps, 1) if s.kind == "question"))
    step = ctl.step
    assert step is not None
    ctl.answer_question(next(i for i, c in enumerate(step.choices) if not c.correct))
    message = table_view(ctl)["message"]
    assert message is not None and message["kind"] == "error" and "label" not in message


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_the_index_groups_the_core_game_and_the_variants_under_headings(lang: str) -> None:
    """Lessons 1-10 under "The core game"; the later lessons and the house-rules page under
    "House rules and variants"; the full game and the sources last. Each group has an h2
    under the page's h1, in the page's language, and switching language rewords them."""
    from tutorial.index_page import VARIANTS_FROM, IndexApp

    app = IndexApp(lang)
    tr = translator(lang)
    core = [entry["order"] for entry in app.core.view["lessons"]]
    variants = [entry["order"] for entry in app.variants.view["lessons"]]
    assert core == list(range(1, VARIANTS_FROM)) == list(range(1, 11))
    assert variants == [lesson.order for lesson in LESSONS if lesson.order >= VARIANTS_FROM]
    assert variants == [11, 12, 13, 14]
    assert [extra["page"] for extra in app.variants.view["extras"]] == ["house-rules"]
    assert app.list.view["lessons"] == []
    assert [extra["page"] for extra in app.list.view["extras"]] == ["play", "sources"]
    assert "reset" in app.list.view and "reset" not in app.core.view
    headings = [app.core_heading.value, app.variants_heading.value, app.more_heading.value]
    titles = ["The core game", "House rules and variants", "Beyond the lessons"]
    for heading, title in zip(headings, titles, strict=True):
        assert heading.startswith("<h2") and heading.endswith("</h2>")
        assert tr.gettext(title) in heading
        if lang != "en":
            assert title not in heading
    other = "en" if lang != "en" else "ru"
    app.i18n.set_language(other)
    assert translator(other).gettext("The core game") in app.core_heading.value
    assert app.variants.view["lang"] == other
