"""The table and panel views against the UX tour of 2026-12-01 (issue 17, §3 and D11)."""

from __future__ import annotations

import random

import pytest

from tutorial.controller import LessonController
from tutorial.free_play_view import tied_places
from tutorial.game_page import GameApp
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n
from tutorial.lesson_view import last_out_together, table_view
from tutorial.lessons import LESSON_DIR, Lesson, load_lessons
from tutorial.move_log import result_view
from tutorial.page import is_shown


def _lesson(lesson_id: str) -> Lesson:
    return next(lesson for lesson in load_lessons(LESSON_DIR) if lesson.id == lesson_id)


def _question(c: LessonController) -> int:
    return next(i for i, s in enumerate(c.lesson.steps) if s.kind == "question")


def test_lesson_11_hides_the_roles_until_whom_bruno_attacks_is_answered() -> None:
    """N4: "Whom does Bruno attack?" must not be answered by the badges on the table."""
    c = LessonController(_lesson("teams"), I18n("es"))
    step = _question(c)
    assert c.lesson.steps[step].hide_roles
    assert c.go_to(step + 1)
    seats = table_view(c)["seats"]
    assert {s["role"] for s in seats} <= {"", "out"}
    assert not any(s["acting"] for s in seats)
    assert all(s["role_label"] == "" for s in seats if s["role"] == "")
    assert not any("defensor" in s.get("team_label", "").lower() for s in seats)
    assert table_view(c)["actions"] == []  # a greyed Take would say who defends
    wrong = next(i for i, choice in enumerate(c.lesson.steps[step].choices) if not choice.correct)
    c.answer_question(wrong)
    assert {s["role"] for s in table_view(c)["seats"]} <= {"", "out"}  # not answered yet
    right = next(i for i, choice in enumerate(c.lesson.steps[step].choices) if choice.correct)
    c.answer_question(right)
    roles = {s["name"]: s["role"] for s in table_view(c)["seats"]}
    assert roles["Bruno"] == "attacker" and roles["Tú"] == "defender"


def test_other_questions_keep_their_roles() -> None:
    c = LessonController(_lesson("bout"), I18n("en"))
    step = _question(c)
    assert not c.lesson.steps[step].hide_roles
    assert c.go_to(step + 1)
    assert any(s["role"] in ("attacker", "defender") for s in table_view(c)["seats"])


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_lesson_11_ends_with_the_whole_team_marked_and_why_ana(lang: str) -> None:
    """N5 and D11: the team loss marks Ana and Bruno, says why Ana is the durak, shows the
    cards they were left with, and leaves no greyed Done on the table."""
    c = LessonController(_lesson("teams"), I18n(lang))
    assert c.go_to(len(c.lesson.steps), done=True)
    assert c.game.outcome is not None
    view = table_view(c)
    assert view["actions"] == []  # the game is over: no greyed Done
    seats = {s["seat"]: s for s in view["seats"]}
    assert seats[0]["role"] == "durak" and seats[2]["role"] == "loser"
    assert seats[2]["role_label"] and seats[2]["role_label"] != seats[0]["role_label"]
    assert seats[1]["role"] == seats[3]["role"] == "out"
    # the losers' cards are face up at the end
    for seat in (0, 2):
        assert [card["id"] for card in seats[seat]["cards"]] == [
            card.ascii() for card in c.game.state.hands[seat]
        ]
    assert view["actions"] == []
    c.next()
    assert c.completed and table_view(c)["actions"] == []
    if lang == "en":
        assert (
            "Ana counts as the durak: of the players still holding cards, Ana sits nearest "
            "clockwise after Diana, who went out first." in view["narration"]
        )


def test_the_durak_s_cards_are_face_up_at_the_end_of_free_play() -> None:
    """D11: the durak's cards stay face down no longer once the game is over."""
    c = LessonController(_lesson("endgame"), I18n("en"))
    c.continue_free_play() if c.can_free_play() else None
    for _ in range(200):
        if c.game.outcome is not None:
            break
        legal = c.learner_actions()
        assert legal
        c._try(legal[0])
    outcome = c.game.outcome
    assert outcome is not None
    view = table_view(c)
    for seat in view["seats"]:
        if seat["seat"] != c.you and c.game.state.hands[seat["seat"]]:
            assert len(seat["cards"]) == seat["count"]
    assert view["actions"] == []


def test_lesson_14_s_chip_says_it_counts_unbeaten_cards_against_the_hand() -> None:
    """N6: under Wikipedia's rules the chip counts unbeaten cards against the defender's
    current hand; its label says so."""
    c = LessonController(_lesson("flash"), I18n("en"))
    assert c.go_to(11, done=True)
    view = table_view(c)
    assert len(view["table"]) == 3
    assert view["labels"]["cap"] == "Unbeaten attack cards"
    assert view["cap_label"] == "2 of 5 (cards in the defender's hand)"


def test_a_classic_chip_keeps_its_short_label() -> None:
    c = LessonController(_lesson("bout"), I18n("en"))
    for step in range(1, len(c.lesson.steps) + 1):
        c.go_to(step, done=True)
        view = table_view(c)
        assert view["labels"]["cap"] == "Attack cards"
        if view["cap_label"]:
            assert "(" not in view["cap_label"] or "defender" in view["cap_label"]


def test_a_greyed_button_is_explained_but_no_mistake() -> None:
    """N13: lesson 11, step 3: the greyed Done says why, neutrally, and costs nothing."""
    c = LessonController(_lesson("teams"), I18n("es"))
    step = next(i for i, s in enumerate(c.lesson.steps) if s.kind == "move")
    assert c.go_to(step + 1)
    done = next(b for b in table_view(c)["actions"] if b["id"] == "pass")
    assert not done["enabled"]
    c.click({"type": "action", "id": "pass"})
    message = table_view(c)["message"]
    assert message is not None and message["kind"] == "info" and message["text"]
    assert "label" not in message
    assert c.mistakes == 0 and not c.step_done


def test_a_draw_shares_the_place_of_those_who_went_out_together() -> None:
    """N19: lesson 10's draw: Bruno and Ana ran out together; neither is "place 3"."""
    c = LessonController(_lesson("endgame"), I18n("en"))
    step = next(
        n for n in range(1, len(c.lesson.steps) + 1) if c.go_to(n, done=True) and c.game.outcome
    )
    assert step and c.game.outcome is not None and c.game.outcome.durak is None
    assert last_out_together(c.game) == {0, 2}
    narration = table_view(c)["narration"]
    assert "place 3" not in narration and narration.count("place 2") == 2
    view = result_view(c.game.outcome, c.game.hand_sizes, c.i18n, players=c.names(c.i18n), you=1)
    places = {row["name"]: row["place"] for row in tied_places(view, c.game)["rows"]}
    assert places == {"You": "1", "Bruno": "2", "Ana": "2"}


def _play_to_the_end(app: GameApp, rng: random.Random) -> None:
    c = app.controller
    for _ in range(2_000):
        if c.game.outcome is not None:
            return
        legal = c.learner_actions()
        if not legal:
            c.opponent_step()
            continue
        c._try(rng.choice(legal))
        c._changed()
    raise AssertionError("the game did not end")


def test_changed_options_say_press_new_game_and_the_names_sit_under_it() -> None:
    """N14: ticking two against two keeps the game on the table: a note under New game says
    so (and the button glows) until a new game is dealt; the hot-seat names come right
    under the button, before the house rules' long lines."""
    app = GameApp(players=2, seed=24, language="en", pace=0, level="newcomer")
    assert not app.options_changed() and not is_shown(app.pending)
    children = list(app.options.children)
    assert children.index(app.names_box) < children.index(app.house_box)
    assert children.index(app.pending) == 1
    app.teams.value = True
    assert app.options_changed() and is_shown(app.pending)
    assert "press “New game”" in app.pending.value
    assert "durak-deal-pending" in app.deal._dom_classes
    assert len(app.controller.game.state.hands) == 2  # the old game goes on
    app.deal.click()
    assert len(app.controller.game.state.hands) == 4
    assert not app.options_changed() and not is_shown(app.pending)
    assert "durak-deal-pending" not in app.deal._dom_classes
    app.mode.value = "hotseat"
    assert is_shown(app.pending)


def test_a_decided_match_is_the_result_s_headline() -> None:
    """N7: once a match to three losses is decided, its result heads the result panel and
    the feedback line says it, not only "Game over"."""
    app = GameApp(players=2, seed=5, language="en", pace=0, level="newcomer")
    app.match.value = "three_losses"
    app.deal.click()
    rng = random.Random(5)
    for _ in range(20):
        _play_to_the_end(app, rng)
        if app.match_over_text(app.i18n):
            break
        assert not is_shown(app.match_head)
        app.play_again()
    over = app.match_over_text(app.i18n)
    assert over.startswith("Match over:")
    assert is_shown(app.match_head) and over in app.match_head.value
    box = list(app.free_play.panel.result_box.children)
    assert box.index(app.match_head) == 0
    message = app.table_snapshot()["message"]
    assert message is not None and message["text"].startswith(over)


def test_a_greyed_button_the_lesson_asks_about_is_no_mistake_either() -> None:
    """N13 (ux tour 2026-12-07, lesson 13 step 5): the greyed "new deal" answered a red "not
    allowed" and counted as a mistake because the step lists it; now the rule's reason and the
    lesson's words come neutrally, and nothing is counted."""
    c = LessonController(_lesson("misdeal"), I18n("ru"))
    step = next(
        i
        for i, s in enumerate(c.lesson.steps)
        if s.kind == "move" and any(str(w.play) == "1:redeal" for w in s.wrong)
    )
    assert c.go_to(step + 1)
    button = next(b for b in table_view(c)["actions"] if b["id"] == "redeal")
    assert not button["enabled"]
    c.click({"type": "action", "id": "redeal"})
    message = table_view(c)["message"]
    assert message is not None and message["kind"] == "info"
    assert "Просить снова только потому" in message["text"]  # the lesson's words
    assert c.mistakes == 0 and not c.step_done


def test_a_costly_move_says_when_it_counts_as_a_mistake() -> None:
    """N-f: "allowed, but costly" cost a star in lesson 3 and not in lesson 5 with the same
    label, and the finishing panel then counted a mistake the learner never saw. Every costly
    answer of every lesson now says so exactly when it is counted."""
    seen = {True: 0, False: 0}
    for lesson in load_lessons():
        for index, step in enumerate(lesson.steps):
            for wrong in step.wrong:
                if wrong.feedback != "costly":
                    continue
                c = LessonController(lesson, I18n("en"))
                assert c.go_to(index + 1)
                c._try(wrong.play)
                message = table_view(c)["message"]
                assert message is not None and message["kind"] == "costly"
                said = "In this lesson it counts as a mistake." in message["text"]
                assert said == wrong.costs_star == (c.mistakes == 1), (lesson.id, index)
                seen[wrong.costs_star] += 1
    assert seen[True] and seen[False], seen
