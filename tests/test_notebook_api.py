"""The notebook API (:func:`tutorial.notebook.play`): a Game, a Position, a position in lesson
form or a record shown as the lessons' table, for a chosen seat and language, whose clicks
play through the engine with the lessons' explanations; the other seats played by the
computer, shown face up, or left to the teacher's clicks. Bad arguments are refused.

In-process, no browser: clicks arrive as the table's JavaScript sends them (its custom
messages); every random choice is seeded and the computer moves at once (``pace=0``)."""

from __future__ import annotations

from typing import Any

import pytest
from ipywidgets.widgets.widget import _instances

from durak_core import Action, Card, Game, Rules, to_record
from tests.helpers import say
from tutorial.deferred_open import kept_ids
from tutorial.explain import explain
from tutorial.i18n import SUPPORTED_LANGUAGES, translator
from tutorial.names import Term, term, you_label
from tutorial.notebook import OTHERS, NotebookTable, play

HANDS = ["9H 7C QD", "JH 6S 8C 10D"]
"""Seat 0 leads (spades are trumps): a heart to beat, a club that cannot beat it."""


def start() -> Game:
    return Game.from_position(Rules(), HANDS, stock="7D AC", turnup="KS", attacker=0)


def card(zone: str, card_id: str) -> dict[str, Any]:
    return {"type": "card", "zone": zone, "id": card_id}


def click(table: NotebookTable, content: dict[str, Any]) -> None:
    """A click exactly as the table's JavaScript sends it (a custom message)."""
    say(table.table, content)


def hand_ids(table: NotebookTable) -> list[str]:
    return [c["id"] for c in table.table.view["hand"]]


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("kind", ["game", "position", "lesson form"])
def test_a_game_or_a_position_is_shown_for_a_seat_in_a_language(
    messages: list[tuple[str, Any]], kind: str, seat: int, lang: str
) -> None:
    game = start()
    source: Any = {
        "game": game,
        "position": game.position(),
        "lesson form": {"hands": HANDS, "stock": "7D AC", "turnup": "KS"},
    }[kind]
    table = play(source, seat=seat, language=lang, pace=0, seed=1)
    tr = translator(lang)
    view = table.table.view
    assert view["lang"] == lang and view["you"] == seat
    assert view["labels"]["stock"] == term(Term.STOCK, tr)
    assert view["seats"][seat]["name"] == you_label(tr)
    assert table.controller.free_play and table.language.value == lang
    assert set(hand_ids(table)) <= set(HANDS[seat].split())
    assert "cards" not in view["seats"][1 - seat]  # the computer's hand stays hidden
    if seat == 1:  # the computer (seat 0) opened the bout already
        assert [a.seat for a in table.controller.game.history] == [0]
    assert game.history == ()  # the game given is not played on
    table.close()


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_a_click_plays_and_a_wrong_card_gets_the_localized_refusal(lang: str) -> None:
    table = play(start(), seat=1, language=lang, pace=0)
    ctl = table.controller
    attack = ctl.game.table[0][0]
    before = ctl.game.state.copy()
    click(table, card("hand", "8C"))  # a club cannot beat the attack
    message = table.table.view["message"]
    assert message is not None and message["kind"] == "error"
    tr = translator(lang)
    refusal = ctl.game.why_illegal(Action.beat(1, Card.parse("8C"), attack))
    assert refusal is not None
    assert message["text"] == explain(
        refusal, tr, players=ctl.names(tr), you=1, rules=ctl.game.rules
    )
    assert message["label"] == tr.pgettext("feedback", "Not allowed")
    assert ctl.game.state == before
    if lang == "es":
        assert "no mata" in message["text"]
    # a right card plays through the engine, and the computer answers
    click(table, card("hand", "JH"))
    assert Action.beat(1, Card.parse("JH"), attack) in ctl.game.history
    table.close()


def test_the_computer_answers_with_a_move_of_its_level() -> None:
    table = play(start(), seat=0, language="en", others="computer", level="newcomer", pace=0)
    ctl = table.controller
    click(table, card("hand", "9H"))
    history = ctl.game.history
    assert history[0] == Action.lead(0, Card.parse("9H"))
    assert len(history) >= 2 and history[1].seat == 1  # the computer defended
    assert ctl.bot.name == "newcomer"  # type: ignore[attr-defined]
    table.close()


def test_the_tables_hint_gives_the_computers_advice() -> None:
    table = play(start(), seat=0, language="es", pace=0, seed=3)
    ids = [a["id"] for a in table.table.view["actions"]]
    assert "hint" in ids
    click(table, {"type": "action", "id": "hint"})
    message = table.table.view["message"]
    assert message is not None and message["kind"] == "hint"
    assert message["label"] == translator("es").pgettext("feedback", "Hint")
    table.close()


def test_face_up_shows_the_other_hands_on_the_table() -> None:
    table = play(start(), seat=0, language="en", others="face-up", pace=0)
    seats = table.table.view["seats"]
    shown = [c["id"] for c in seats[1]["cards"]]
    assert shown == [c.ascii() for c in table.controller.game.state.hands[1]]
    assert "cards" not in seats[0]  # the learner's own hand is the hand row
    click(table, card("hand", "9H"))  # the computer still plays them
    assert table.controller.game.history[1].seat == 1
    seats = table.table.view["seats"]
    assert [c["id"] for c in seats[1]["cards"]] == [
        c.ascii() for c in table.controller.game.state.hands[1]
    ]
    table.close()


def test_teacher_lets_the_next_click_play_for_the_other_seat() -> None:
    table = play(start(), seat=0, language="ru", others="teacher", pace=0)
    ctl = table.controller
    assert hand_ids(table) == HANDS[0].split()
    click(table, card("hand", "9H"))
    assert ctl.game.history == (Action.lead(0, Card.parse("9H")),)  # nobody answered
    assert table.table.view["you"] == 1 and hand_ids(table) == HANDS[1].split()
    click(table, card("hand", "JH"))  # the teacher's click, for seat 1
    assert ctl.game.history[-1] == Action.beat(1, Card.parse("JH"), Card.parse("9H"))
    tr = translator("ru")
    names = [s["name"] for s in table.table.view["seats"]]
    assert names == [tr.gettext("Ana"), tr.gettext("Bruno")]
    table.close()


def test_restart_goes_back_to_the_position_in_free_play() -> None:
    table = play(start(), seat=0, language="en", pace=0)
    click(table, card("hand", "9H"))
    table.restart.click()
    ctl = table.controller
    assert ctl.free_play and ctl.game.history == () and hand_ids(table) == HANDS[0].split()
    table.close()


def test_a_record_is_shown_where_it_ends() -> None:
    game = start()
    game.play("0:9H")
    table = play(to_record(game), seat=1, language="en", pace=0)
    assert table.controller.game.table == ((Card.parse("9H"), None),)
    table.close()


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"seat": 2}, "no seat 2"),
        ({"seat": -1}, "no seat -1"),
        ({"seat": True}, "no seat True"),
        ({"language": "fr"}, "unsupported language 'fr'"),
        ({"level": "godlike"}, "unknown level 'godlike'"),
        ({"others": "robot"}, "unknown others 'robot'"),
        ({"rules": Rules()}, "a Game has its own rules"),
        ({"pace": -1}, "pace must be"),
    ],
)
def test_bad_arguments_are_refused_naming_the_problem(
    arguments: dict[str, Any], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        play(start(), **arguments)


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ({"hands": ["9H 9H", "JH 6S"], "turnup": "KS"}, "impossible"),
        ({"hands": ["9H"], "turnup": "KS"}, "impossible"),
        ({"stock": "7D"}, "impossible"),
        ("9H 7C | JH 6S", "expected a durak_core Game"),
        ({"format": "nonsense"}, "cannot be replayed"),
    ],
)
def test_an_impossible_position_is_refused_naming_the_problem(source: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        play(source, language="en")  # type: ignore[arg-type]


def test_a_finished_game_or_a_seat_out_is_refused() -> None:
    three = Game.from_position(
        Rules(), ["", "6S 7C", "8D"], turnup="KS", turnup_in_stock=False, attacker=1, out=[0]
    )
    with pytest.raises(ValueError, match="seat 0 is already out"):
        play(three, seat=0)
    play(three, seat=1, pace=0).close()
    over = Game.from_position(Rules(), ["6H", "7S"], turnup="KS", turnup_in_stock=False)
    for move in ("0:6H", "1:7S/6H"):
        over.play(move)
    while over.outcome is None:
        over.play(next(iter(over.legal_actions())))
    with pytest.raises(ValueError, match="already over"):
        play(over, seat=1)
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        play({"hands": HANDS, "turnup": "KS"}, rules="nope")


@pytest.mark.parametrize("others", OTHERS)
def test_the_widgets_close_cleanly(messages: list[tuple[str, Any]], others: str) -> None:
    before = set(_instances)
    table = play(start(), seat=0, language="en", others=others, pace=0)  # type: ignore[arg-type]
    made = set(_instances) - before
    assert table.widget.model_id in made and table.table.model_id in made
    table.close()
    assert set(_instances) - before <= kept_ids()  # only the models every page shares
    assert table.widget.comm is None and table.table.comm is None
    assert table.bridge.comm is None
    closed = [data for kind, data in messages if kind == "comm_close"]
    assert closed  # the browser was told
