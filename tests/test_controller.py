"""The lesson controller: clicks become engine actions, refusals become explanations, forged
input changes nothing, steps and stars follow the lesson, free play runs the others."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers import stable_id
from tests.lesson_clicks import clicks_for, complete
from tutorial.controller import LessonController, stars_for
from tutorial.i18n import I18n
from tutorial.lesson_view import panel_view, table_view
from tutorial.lessons import Lesson, load_lessons, parse_lesson
from tutorial.page import is_shown
from tutorial.view_model import Click

BASE: dict[str, Any] = {
    "id": "test",
    "title": "Beating a card",
    "summary": "A test lesson.",
    "players": ["Ana", ""],
    "you": 1,
    "show": [0],
    "position": {"hands": ["9H 7C QD", "JH 6S 8C 10D"], "stock": "7D AC", "turnup": "KS"},
    "steps": [
        {"kind": "say", "say": "Spades are trumps."},
        {"kind": "auto", "play": "0:9H", "say": "Ana attacks."},
        {
            "kind": "move",
            "say": "Beat the nine of hearts.",
            "expect": ["1:JH/9H"],
            "hint": "A higher heart.",
            "wrong": [{"play": "1:6S/9H", "explain": "Keep your trump.", "reason": "allowed"}],
        },
        {
            "kind": "question",
            "question": "Did a trump have to be used?",
            "choices": [{"label": "No", "correct": True}, {"label": "Yes"}],
        },
    ],
}


def controller(lang: str = "en", **changes: Any) -> LessonController:
    return LessonController(parse_lesson({**BASE, **changes}, "test.toml"), I18n(lang))


def card(zone: str, card_id: str) -> dict[str, Any]:
    return {"type": "card", "zone": zone, "id": card_id}


def test_a_clean_run_earns_three_stars_and_progress() -> None:
    c = controller()
    c.next()
    c.next()
    c.click(card("hand", "JH"))  # type: ignore[arg-type]
    assert c.step_done and c.message is not None and c.message[0] == "success"
    c.next()
    c.answer_question(0)
    c.next()
    assert c.completed and c.stars() == 3
    assert c.progress == {"test": {"stars": 3}}
    assert panel_view(c)["stars"] == 3


def test_a_refused_card_is_explained_and_changes_nothing() -> None:
    c = controller("es")
    c.next()
    c.next()
    before = c.game.state.copy()
    c.click(card("hand", "8C"))  # type: ignore[arg-type]
    view = table_view(c)
    assert view["message"] is not None and view["message"]["kind"] == "error"
    assert "no mata" in view["message"]["text"]  # the engine's reason, in Spanish
    assert c.game.state == before and c.mistakes == 1
    assert [h["mark"] for h in view["hand"] if h["id"] == "8C"] == ["explain"]


@pytest.mark.parametrize(
    ("extra", "kind", "mistakes"),
    [
        ({}, "detour", 0),
        ({"feedback": "detour"}, "detour", 0),
        ({"feedback": "costly"}, "costly", 0),
        ({"feedback": "costly", "costs_star": True}, "costly", 1),
    ],
)
def test_a_legal_move_the_step_does_not_ask_for_gets_the_feedback_the_lesson_gives_it(
    extra: dict[str, Any], kind: str, mistakes: int
) -> None:
    """Issue 9 item 2: a legal move off the step's point is a neutral detour (no star lost);
    a costly one is amber and costs a star only where the lesson says so."""
    wrong = {"play": "1:6S/9H", "explain": "Keep your trump.", "reason": "allowed", **extra}
    steps = [dict(step) for step in BASE["steps"]]
    steps[2] = {**steps[2], "wrong": [wrong]}
    c = controller(steps=steps)
    c.next()
    c.next()
    before = c.game.state.copy()
    c.click(card("hand", "6S"))  # type: ignore[arg-type]
    counted = " In this lesson it counts as a mistake." if mistakes else ""  # N-f
    assert c.message is not None and c.message[1](c.i18n) == "Keep your trump." + counted
    assert c.message[0] == kind and table_view(c)["message"]["kind"] == kind  # type: ignore[index]
    assert c.game.state == before and c.mistakes == mistakes and not c.step_done


def test_an_unlisted_legal_move_is_a_detour_that_costs_nothing() -> None:
    c = controller()
    c.next()
    c.next()
    c.click(card("hand", "10D"))  # type: ignore[arg-type]  # beats nothing: refused
    assert c.message is not None and c.message[0] == "error" and c.mistakes == 1
    c.click(card("table", "9H"))  # type: ignore[arg-type]
    c.click(card("hand", "6S"))  # type: ignore[arg-type]
    assert c.message is not None and c.message[0] == "detour" and c.mistakes == 1


def test_mistakes_and_hints_cost_stars() -> None:
    c = controller()
    c.next()
    c.next()
    c.hint()
    c.hint()  # once per step
    assert c.hints_used == 1
    assert [h["mark"] for h in table_view(c)["hand"] if h["id"] == "JH"] == ["hint"]
    c.click(card("hand", "8C"))  # type: ignore[arg-type]
    c.click(card("hand", "JH"))  # type: ignore[arg-type]
    c.next()
    c.answer_question(1)
    c.answer_question(0)
    c.next()
    assert c.completed and c.stars() == stars_for(2, 2, 1) == 1


@pytest.mark.parametrize(
    "forged",
    [
        {"type": "card", "zone": "hand", "id": "AS"},  # not in the hand
        {"type": "card", "zone": "hand", "id": "junk"},
        {"type": "card", "zone": "table", "id": "9H"},  # no card selected: only a selection
        {"type": "card", "zone": "seat", "id": "QD"},
        {"type": "action", "id": "pass"},  # the defender cannot pass
        {"type": "action", "id": "swap"},
        {"type": "action", "id": "transfer"},
        {"type": "action", "id": "launch"},
        {"type": "progress", "data": {"x": 1}},
        {},
    ],
)
def test_forged_or_wrong_clicks_never_change_the_game(forged: dict[str, Any]) -> None:
    c = controller()
    c.next()
    c.next()
    before = c.game.state.copy()
    history = c.game.history
    c.click(forged)  # type: ignore[arg-type]
    assert c.game.state == before and c.game.history == history
    assert not c.step_done


def test_clicks_outside_a_move_step_are_answered_not_played() -> None:
    c = controller()
    before = c.game.state.copy()
    c.click(card("hand", "JH"))  # type: ignore[arg-type]
    assert c.game.state == before
    assert c.message is not None and "Next" in c.message[1](c.i18n)


def test_choosing_a_target_then_a_card() -> None:
    lesson = {
        **BASE,
        "position": {
            "hands": ["9D 7C QD", "JH 10C 6S 8D"],
            "stock": "7D AC",
            "turnup": "KS",
            "table": [["9H", ""], ["9C", ""]],
        },
        "steps": [{"kind": "move", "say": "Beat the nine of clubs.", "expect": ["1:6S/9C"]}],
    }
    c = LessonController(parse_lesson(lesson, "t.toml"), I18n("en"))
    c.click(card("hand", "6S"))  # beats both nines: the controller asks which one
    assert c.selected is not None and c.message is not None and c.message[0] == "question"
    assert [h["mark"] for h in table_view(c)["hand"] if h["id"] == "6S"] == ["selected"]
    c.click(card("table", "9C"))  # type: ignore[arg-type]
    assert c.step_done and dict(c.game.table)[c.game.table[1][0]] is not None


def test_back_and_restart_restore_positions() -> None:
    c = controller()
    start = c.game.state.copy()
    c.next()
    c.next()
    after_auto = c.game.state.copy()
    c.click(card("hand", "JH"))  # type: ignore[arg-type]
    c.next()
    c.back()
    assert c.game.state == after_auto and not c.step_done
    c.restart()
    assert c.game.state == start and c.index == 0 and c.mistakes == 0


def test_language_switch_rewords_the_current_message() -> None:
    c = controller("en")
    c.next()
    c.next()
    c.click(card("hand", "8C"))  # type: ignore[arg-type]
    english = table_view(c)["message"]
    c.i18n.set_language("ru")
    russian = table_view(c)["message"]
    assert english and russian and english["text"] != russian["text"]
    assert any("а" <= ch <= "я" for ch in russian["text"])
    assert english["id"] == russian["id"]


def test_free_play_runs_the_others_until_the_game_ends() -> None:
    c = controller()
    c.continue_free_play()
    assert c.free_play
    for _ in range(500):
        if c.game.outcome is not None:
            break
        mine = [a for a in c.game.legal_actions() if a.seat == c.you]
        assert mine, "free play stops only when the learner may act"
        a = mine[0]
        if a.kind.value == "beat":
            c.click(card("table", str(a.target)))  # type: ignore[arg-type]
            c.click(card("hand", str(a.card)))  # type: ignore[arg-type]
        elif a.card is not None:
            c.click(card("hand", str(a.card)))  # type: ignore[arg-type]
        else:
            c.click({"type": "action", "id": a.kind.value})  # type: ignore[arg-type]
    assert c.game.outcome is not None
    assert c.message is not None and "Game over" in c.message[1](c.i18n)


def test_comparison_shows_where_rule_sets_part() -> None:
    hands = ["8C 9S QC AH 7S KS", "10C JH 7D 9H 6H QS", "10H 6S 7C QH 9C AS", "JS 8H 6C KC 9D AC"]
    lesson = {
        **BASE,
        "preset": "durak_live_todos",
        "players": ["Ana", "", "Bruno", "Diana"],
        "show": [],
        "position": {"hands": hands, "stock": "10S 7H", "turnup": "KD"},
        "steps": [
            {
                "kind": "compare",
                "say": "Compare.",
                "preset": "durak_live_vecinos",
                "play": [
                    "0:8C",
                    "1:10C/8C",
                    "0:pass",
                    "2:+10H",
                    "1:JH/10H",
                    "0:pass",
                    "2:pass",
                    "3:+JS",
                ],
            }
        ],
    }
    c = LessonController(parse_lesson(lesson, "t.toml"), I18n("es"))
    comparison = panel_view(c)["comparison"]
    assert comparison is not None and comparison["first_difference"] == 7
    last = comparison["rows"][7]
    assert last["ours_ok"] and not last["theirs_ok"]
    assert "8" in last["theirs"]  # only the first attack card's rank


# ------------------------------------------------------------------------------ resume


def find_lesson(lesson_id: str) -> Lesson:
    return next(lesson for lesson in load_lessons() if lesson.id == lesson_id)


def _json(value: Any) -> Any:
    """Through JSON, as the browser stores it; a message's ``id`` only counts redraws."""
    value = json.loads(json.dumps(value))
    if isinstance(value, dict) and isinstance(value.get("message"), dict):
        value["message"].pop("id", None)
    return value


def _snapshot(c: LessonController) -> tuple[Any, Any, Any]:
    return _json(c.resume_state()), _json(table_view(c)), _json(panel_view(c))


def _resumed(lesson: Lesson, state: Any) -> LessonController:
    r = LessonController(lesson, I18n("en"))
    assert r.resume(state), state
    return r


def _learner_clicks(c: LessonController) -> list[Click]:
    action = next(a for a in c.game.legal_actions() if a.seat == c.you)
    return clicks_for(c, action)


@pytest.mark.parametrize("at_step", [2, None], ids=["mid-lesson", "after-the-lesson"])
def test_resuming_free_play_replays_every_move_exactly(at_step: int | None) -> None:
    lesson = find_lesson("transfer")
    walked = LessonController(lesson, I18n("ru"), seed=5)
    if at_step is None:
        complete(walked)
    else:
        while walked.index < at_step:
            walked.next()
    walked.continue_free_play()
    states = [_snapshot(walked)]
    while walked.game.outcome is None:
        for click in _learner_clicks(walked):
            walked.click(click)
        states.append(_snapshot(walked))
    assert len(states) > 2 and states[-1][0]["free"]
    for state, table, panel in states:
        resumed = LessonController(lesson, I18n("ru"), seed=99)  # other opponents' luck
        assert resumed.resume(state)
        assert resumed.game.history == walked.game.history[: len(state["actions"])]
        assert _json(table_view(resumed)) == table
        assert _json(panel_view(resumed)) == panel


def test_a_resumed_score_and_hint_are_kept() -> None:
    lesson = find_lesson("beating")
    c = LessonController(lesson, I18n("es"))
    while c.step is not None and c.step.kind != "move":
        if c.step.kind == "question":
            c.answer_question(next(i for i, x in enumerate(c.step.choices) if x.correct))
        c.next()
    step = c.step
    assert step is not None and step.wrong
    for click in clicks_for(c, step.wrong[0].play):
        c.click(click)
    c.hint()
    state = _json(c.resume_state())
    assert state["mistakes"] == 1 and state["hinted"] == [c.index] and state["hint"]
    r = LessonController(lesson, I18n("es"))
    assert r.resume(state)
    panel = panel_view(r)
    assert (panel["mistakes"], panel["hints_used"]) == (1, 1)
    assert table_view(r)["message"] == table_view(c)["message"] | {
        "id": table_view(r)["message"]["id"]  # type: ignore[index]
    }
    hinted = [h["id"] for h in table_view(c)["hand"] if h.get("mark") == "hint"]
    assert hinted and hinted == [h["id"] for h in table_view(r)["hand"] if h.get("mark") == "hint"]


def _fresh_state() -> dict[str, Any]:
    lesson = find_lesson("transfer")
    c = LessonController(lesson, I18n("en"))
    complete(c)
    return c.resume_state()


def _variants() -> list[object]:
    good = _fresh_state()
    broken: list[object] = [
        None,
        "state",
        [good],
        {},
        {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "actions"},
        {**good, "v": 2},
        {**good, "lesson": "beating"},
        {**good, "step": -1},
        {**good, "step": 10_000},
        {**good, "step": True},
        {**good, "step": 3.0},
        {**good, "step": "3"},
        {**good, "mistakes": -1},
        {**good, "mistakes": 30_000_000},
        {**good, "mistakes": [1]},
        {**good, "done": "yes"},
        {**good, "free": 1},
        {**good, "completed": False},  # the last step index means the lesson is over
        {**good, "hinted": [0, 0]},
        {**good, "hinted": [99]},
        {**good, "hinted": "0"},
        {**good, "hint": True},  # no hint on a finished lesson
        {**good, "actions": "0:9C"},
        {**good, "actions": good["actions"][:-1]},  # a move missing
        {**good, "actions": [*good["actions"], "0:7D"]},  # a move too many
        {**good, "actions": ["1:AS", *good["actions"][1:]]},  # not the lesson's move
        {**good, "actions": ["x" * 10_000]},
        {**good, "actions": ["0:9C"] * 100_000},
        {**good, "actions": [None]},
        {**good, "free": True, "actions": [*good["actions"], "1:AS"]},  # illegal in free play
    ]
    return broken


@pytest.mark.parametrize("state", _variants(), ids=lambda s: stable_id(s, 50))
def test_an_invalid_resume_state_changes_nothing(state: object) -> None:
    lesson = find_lesson("transfer")
    c = LessonController(lesson, I18n("en"))
    c.next()
    c.next()
    c.click(card("hand", "8C"))  # type: ignore[arg-type]  # a refusal: a message, a mistake
    calls: list[int] = []
    c.on_change(lambda: calls.append(1))
    before = _snapshot(c)
    game = c.game
    history = game.history
    assert not c.resume(state)
    assert c.game is game and game.history == history
    assert _snapshot(c) == before and calls == []
    assert table_view(c)["message"] == table_view(c)["message"]  # still renders


def test_a_game_not_started_from_the_lessons_position_is_not_resumed() -> None:
    """A dealt game (``start=``) can't be rebuilt from public moves: its deal is secret."""
    lesson = find_lesson("transfer")
    walked = LessonController(lesson, I18n("en"))
    walked.next()
    state = walked.resume_state()
    dealt = LessonController(lesson, I18n("en"), start=lesson.start)  # equal start: resumable
    assert dealt.resumable() and dealt.resume(state)
    other = LessonController(lesson, I18n("en"), start=lambda: lesson.start())
    assert not other.resumable() and not other.resume(state)
    assert other.index == 0


def test_forged_back_on_the_play_page_takes_back_nothing() -> None:
    from tutorial.game_page import GameApp

    app = GameApp(language="en", seed=7)
    c = app.controller
    for _ in range(3):  # a few moves, so there is something to take back
        for click in _learner_clicks(c):
            app.table._handle_browser_msg(None, click, [])
    history = c.game.history
    assert len(history) >= 3 and c.free_play
    for button in (app.back, app.hint, app.next, app.free):
        assert not is_shown(button)
        button._handle_button_msg(None, {"event": "click"}, [])  # as a comm message would
    assert c.game.history == history and c.free_play and c.hints_used == 0


# ------------------------------------------------------------------------------ forged clicks


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "That is Ana's card: you can only play cards from your own hand."),
        ("es", "Esa carta la tiene Ana: solo puedes jugar cartas de tu mano."),
        ("ru", "Эту карту держит Ана: играть можно только картами из своей руки."),
    ],
)
def test_a_click_on_an_opponents_face_up_card_is_explained(lang: str, expected: str) -> None:
    c = controller(lang)
    c.next()
    c.next()
    shown = table_view(c)["seats"][0]
    assert [x["id"] for x in shown.get("cards", [])] == ["7C", "QD"]
    before = c.game.state.copy()
    c.click(card("seat", "QD"))  # type: ignore[arg-type]
    message = table_view(c)["message"]
    assert message is not None and message["kind"] == "info"
    assert message["text"] == expected
    assert c.game.state == before and c.mistakes == 0


def test_a_seat_click_never_names_the_holder_of_a_hidden_card() -> None:
    c = controller("en", show=[])
    c.next()
    c.next()
    assert "cards" not in table_view(c)["seats"][0]
    c.click(card("seat", "QD"))  # type: ignore[arg-type]  # Ana holds it, face down
    text = table_view(c)["message"]["text"]  # type: ignore[index]
    assert text == "You can only play cards from your own hand." and "Ana" not in text
    c.click(card("seat", "AS"))  # type: ignore[arg-type]  # nobody holds it
    assert table_view(c)["message"]["text"] == text  # type: ignore[index]


def test_free_play_shows_no_hand_but_the_learners() -> None:
    c = controller()
    c.next()
    assert "cards" in table_view(c)["seats"][0]
    c.continue_free_play()
    assert all("cards" not in seat for seat in table_view(c)["seats"])
    c.click(card("seat", "QD"))  # type: ignore[arg-type]
    assert "Ana" not in table_view(c)["message"]["text"]  # type: ignore[index]
    c.back()
    assert "cards" in table_view(c)["seats"][0]  # the lesson shows it again


def test_navigation_off_refuses_back_hint_and_next_even_when_forged() -> None:
    c = LessonController(parse_lesson(BASE, "test.toml"), I18n("en"), navigation=False)
    calls: list[int] = []
    c.on_change(lambda: calls.append(1))
    c.continue_free_play()
    assert c.free_play and calls == [1]
    history = c.game.history
    panel = panel_view(c)
    assert not (panel["can_back"] or panel["can_hint"] or panel["can_next"])
    assert not panel["can_free_play"]
    for forged in (c.back, c.hint, c.next, c.continue_free_play):
        forged()
    assert c.free_play and c.game.history == history and c.hints_used == 0
    assert calls == [1]


def test_unavailable_panel_actions_do_nothing() -> None:
    c = controller()
    calls: list[int] = []
    c.on_change(lambda: calls.append(1))
    c.back()  # the first step: nothing to go back to
    c.hint()  # a say step has no hint
    c.answer_question(0)  # not a question
    assert calls == [] and c.index == 0 and c.hints_used == 0 and c.mistakes == 0
    c.next()
    c.next()
    c.next()  # the move is not made yet
    assert c.index == 2
    no_free = LessonController(parse_lesson({**BASE, "free_play": False}, "t.toml"), I18n("en"))
    no_free.continue_free_play()
    assert not no_free.free_play


# ------------------------------------------------------------ Flash, new deals, teams (S0, S2)


def _lesson(
    rules: dict[str, Any],
    players: list[str],
    you: int,
    position: dict[str, Any],
    steps: list[dict[str, Any]],
    lang: str = "en",
    preset: str = "classic",
) -> LessonController:
    data = {
        **BASE,
        "preset": preset,
        "rules": rules,
        "players": players,
        "you": you,
        "show": [],
        "position": position,
        "steps": steps,
    }
    return LessonController(parse_lesson(data, "test.toml"), I18n(lang))


def _buttons(c: LessonController) -> dict[str, bool]:
    return {b["id"]: b["enabled"] for b in table_view(c)["actions"]}


FLASH_POSITION: dict[str, Any] = {
    "hands": ["KD 7D", "9S 10S JC", "7C 8D 6C QD"],
    "trump": "S",
    "table": [["9C", ""], ["9D", ""]],
    "attacker": 0,
}


def test_flash_is_a_button_for_a_held_trump_and_a_wrong_one_is_explained() -> None:
    c = _lesson(
        {"transfer": True, "flash": True, "throw_in_timing": "any_time"},
        ["Ana", "", "Bruno"],
        1,
        FLASH_POSITION,
        [{"kind": "move", "say": "Show your trump.", "expect": ["1:!9S"]}],
    )
    # 10♠ beats either nine: it is held, and Flash is offered, but a ten passes no nines on
    c.click(card("hand", "10S"))  # type: ignore[arg-type]
    assert c.selected is not None and _buttons(c) == {"take": True, "flash": False}
    c.click({"type": "action", "id": "flash"})
    view = table_view(c)
    # the button is greyed out: the click is explained, neutrally, and is no mistake (N13)
    assert view["message"] is not None and view["message"]["kind"] == "info"
    assert view["message"]["text"].startswith("Only a card of the attack's rank (9)")
    assert c.mistakes == 0 and len(c.game.history) == 0
    # 9♠, a trump: shown, kept, and Bruno defends
    c.click(card("hand", "9S"))  # type: ignore[arg-type]
    assert _buttons(c)["flash"] is True
    assert "“Show trump”" in (table_view(c)["message"] or {"text": ""})["text"]
    c.click({"type": "action", "id": "flash"})
    assert c.step_done and str(c.game.history[-1]) == "1:!9S"
    assert "9S" in [h["id"] for h in table_view(c)["hand"]]
    assert c.game.state.defender == 2
    assert "You show the trump 9♠ and keep it" in table_view(c)["narration"]


def test_flash_in_spanish_and_russian_buttons() -> None:
    for lang, label in (("es", "Enseñar triunfo"), ("ru", "Показать козырь")):
        c = _lesson(
            {"transfer": True, "flash": True, "throw_in_timing": "any_time"},
            ["Ana", "", "Bruno"],
            1,
            FLASH_POSITION,
            [{"kind": "move", "say": "Show your trump.", "expect": ["1:!9S"]}],
            lang=lang,
        )
        c.click(card("hand", "9S"))  # type: ignore[arg-type]
        assert {b["id"]: b["label"] for b in table_view(c)["actions"]}["flash"] == label


MISDEAL = {"misdeal": "four_of_a_suit", "misdeal_mode": "on_request"}
MISDEAL_HANDS = ["7D 10C QS AD 8C 10H", "6H 8H JH KH 7C 9S"]
MISDEAL_STOCK = "10S 7H 10D KS 9H AH JD 8S 6D QC 8D 6S AS KD AC QD JS KC 6C 9C 9D QH JC"


def test_a_misdealt_hand_asks_for_a_new_deal_with_a_button() -> None:
    c = _lesson(
        MISDEAL,
        ["Ana", ""],
        1,
        {"hands": MISDEAL_HANDS, "stock": MISDEAL_STOCK, "turnup": "7S", "attacker": 1},
        [{"kind": "move", "say": "Ask for a new deal.", "expect": ["1:redeal"]}],
        lang="ru",
    )
    assert _buttons(c)["redeal"] is True
    assert {b["id"]: b["label"] for b in table_view(c)["actions"]}["redeal"] == "Пересдача"
    c.click({"type": "action", "id": "redeal"})
    assert c.step_done and str(c.game.history[-1]) == "1:redeal"
    assert "Ты просишь пересдачу" in table_view(c)["narration"]
    # the new hand is no misdeal: the button stays until the first lead, greyed out
    assert _buttons(c) == {"pass": False, "redeal": False}


def test_asking_for_a_new_deal_with_a_good_hand_is_explained() -> None:
    c = _lesson(
        MISDEAL,
        ["Ana", ""],
        0,
        {"hands": MISDEAL_HANDS, "stock": MISDEAL_STOCK, "turnup": "7S", "attacker": 0},
        [{"kind": "move", "say": "Lead.", "accept": "lead"}],
        lang="es",
    )
    assert _buttons(c)["redeal"] is False  # shown, so that a click says why not
    c.click({"type": "action", "id": "redeal"})
    message = table_view(c)["message"]
    # the button is greyed out: explained, neutrally, and no mistake (N13)
    assert message is not None and message["kind"] == "info" and c.mistakes == 0
    assert message["text"].startswith("No puedes pedir otro reparto: tu mano se puede jugar")
    assert "cuatro cartas o más del mismo palo" in message["text"]


def test_free_play_waits_while_a_misdealt_hand_may_ask_for_a_new_deal() -> None:
    c = _lesson(
        MISDEAL,
        ["Ana", ""],
        1,
        {"hands": MISDEAL_HANDS, "stock": MISDEAL_STOCK, "turnup": "7S", "attacker": 0},
        [{"kind": "say", "say": "Spades are trumps."}],
    )
    c.continue_free_play()
    assert not c.opponents_pending() and len(c.game.history) == 0
    assert _buttons(c) == {"take": False, "redeal": True, "keep": True}
    c.click({"type": "action", "id": "keep"})
    assert c.game.history and c.game.history[0].seat == 0  # Ana led: the deal stands
    assert "keep" not in _buttons(c) and "redeal" not in _buttons(c)


TEAMS_POSITION: dict[str, Any] = {
    "hands": ["9D KC", "QH 7S", "8H 10D", "8D 6S JC"],
    "stock": "",
    "turnup": "AS",
    "table": [["8C", "10C"]],
    "attacker": 0,
}


def test_a_partner_of_the_defender_is_told_why_he_adds_nothing() -> None:
    c = _lesson(
        {"teams": "2v2"},
        ["Ana", "Bruno", "Carla", ""],
        3,
        TEAMS_POSITION,
        [{"kind": "move", "say": "Swap your six.", "expect": ["3:swap"]}],
        preset="wikihow_home",
    )
    c.click(card("hand", "8D"))  # type: ignore[arg-type]
    message = table_view(c)["message"]
    assert message is not None and message["kind"] == "error"
    assert message["text"] == (
        "You can't add cards in this bout: Bruno, who is defending, is on your team, "
        "and team-mates never add cards against each other."
    )
    c.click({"type": "action", "id": "pass"})  # the greyed-out Done says the same
    assert table_view(c)["message"]["text"] == message["text"]  # type: ignore[index]
    seats = table_view(c)["seats"]
    assert [s.get("team") for s in seats] == [0, 1, 0, 1]
    assert seats[0]["team_label"] == "Team 1"
    assert seats[3]["team_label"] == "Team 2: the defender's team, no adding cards in this bout"


def test_no_team_markers_without_teams() -> None:
    assert all("team" not in s for s in table_view(controller())["seats"])
