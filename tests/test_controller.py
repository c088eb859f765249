"""The lesson controller: clicks become engine actions, refusals become explanations, forged
input changes nothing, steps and stars follow the lesson, free play runs the others."""

from __future__ import annotations

from typing import Any

import pytest

from tutorial.controller import LessonController, stars_for
from tutorial.i18n import I18n
from tutorial.lessons import parse_lesson

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
    assert c.panel_view()["stars"] == 3


def test_a_refused_card_is_explained_and_changes_nothing() -> None:
    c = controller("es")
    c.next()
    c.next()
    before = c.game.state.copy()
    c.click(card("hand", "8C"))  # type: ignore[arg-type]
    view = c.table_view()
    assert view["message"] is not None and view["message"]["kind"] == "error"
    assert "no mata" in view["message"]["text"]  # the engine's reason, in Spanish
    assert c.game.state == before and c.mistakes == 1
    assert [h["mark"] for h in view["hand"] if h["id"] == "8C"] == ["explain"]


def test_a_legal_move_the_step_does_not_ask_for_is_a_mistake_with_its_explanation() -> None:
    c = controller()
    c.next()
    c.next()
    before = c.game.state.copy()
    c.click(card("hand", "6S"))  # type: ignore[arg-type]
    assert c.message is not None and c.message[1](c.i18n) == "Keep your trump."
    assert c.game.state == before and c.mistakes == 1 and not c.step_done


def test_mistakes_and_hints_cost_stars() -> None:
    c = controller()
    c.next()
    c.next()
    c.hint()
    c.hint()  # once per step
    assert c.hints_used == 1
    assert [h["mark"] for h in c.table_view()["hand"] if h["id"] == "JH"] == ["hint"]
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
    assert [h["mark"] for h in c.table_view()["hand"] if h["id"] == "6S"] == ["selected"]
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
    english = c.table_view()["message"]
    c.i18n.set_language("ru")
    russian = c.table_view()["message"]
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
    comparison = c.panel_view()["comparison"]
    assert comparison is not None and comparison["first_difference"] == 7
    last = comparison["rows"][7]
    assert last["ours_ok"] and not last["theirs_ok"]
    assert "8" in last["theirs"]  # only the first attack card's rank
