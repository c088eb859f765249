"""The move log and the result of a free game (tutorial/move_log.py): recorded as events and
refusals, worded at render time in the learner's language; the result names the durak.

Rules the result follows: the last player holding cards is the durak (every source, S0-S4);
when the last players run out at the same time there is no durak, a draw (S1, S3).
"""

from __future__ import annotations

import random

import pytest

from durak_core import (
    Action,
    Card,
    Event,
    EventKind,
    Game,
    IllegalAction,
    Outcome,
    Rules,
    parse_cards,
)
from tests.lesson_clicks import clicks_for
from tutorial.controller import LessonController
from tutorial.explain import explain, narrate
from tutorial.game_page import game_lesson
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n
from tutorial.move_log import MAX_TRIES, MoveLog, log_lines, result_view
from tutorial.names import Role, card_short, role_name


def free_game(players: int, seed: int, lang: str = "en") -> LessonController:
    """A dealt game in free play, the others moving at once (no pacing)."""
    rules = Rules.preset("classic")

    def deal() -> Game:
        return Game.deal(rules, players, seed, dealer=players - 1)

    lesson = game_lesson(rules, players, "classic", deal())
    controller = LessonController(lesson, I18n(lang), seed=seed, start=deal, navigation=False)
    controller.continue_free_play()
    return controller


def learner_move(controller: LessonController, rng: random.Random) -> Action:
    legal = [a for a in controller.game.legal_actions() if a.seat == controller.you]
    action = rng.choice(legal)
    before = len(controller.game.history)
    for click in clicks_for(controller, action):
        controller.click(click)
    assert controller.game.history[before] == action
    return action


def play_out(controller: LessonController, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(500):
        if controller.game.outcome is not None:
            return
        learner_move(controller, rng)
    raise AssertionError("the game does not end")


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 11), (4, 5)])
def test_every_move_is_logged_once_with_whose_it_was(players: int, seed: int) -> None:
    controller = free_game(players, seed)
    play_out(controller, seed)
    tr = controller.i18n
    names = controller.names(tr)
    lines = log_lines(controller.log, tr, players=names, you=0, rules=controller.game.rules)
    moves = [line for line in lines if line["kind"] == "move"]
    history = controller.game.history
    assert len(moves) == len(history)
    for line, action in zip(moves, history, strict=True):
        assert line["who"] == names[action.seat]
        assert line["you"] == (action.seat == 0)
        assert line["text"], action
    assert names[0] == "You" and any(line["who"] == "You" for line in moves)
    assert [line["key"] for line in lines] == list(range(len(lines)))
    # the first line tells the deal; the game's end is in the last move's consequences
    assert lines[0]["kind"] == "start" and "deals" in lines[0]["text"]
    assert "Game over" in " ".join(lines[-1]["after"] or [lines[-1]["text"]])


def test_a_move_entry_holds_the_events_it_caused() -> None:
    controller = free_game(2, 3)
    play_out(controller, 3)
    entries = [e for e in controller.log.entries if e.kind == "move"]
    events = [event for entry in entries for event in entry.events]
    after_deal = controller.game.events[len(controller.log.entries[0].events) :]
    assert events == list(after_deal)  # every event once, in order, none lost
    for entry, action in zip(entries, controller.game.history, strict=True):
        assert entry.seat == action.seat and entry.events[0].seat == action.seat


def test_a_refusal_is_logged_with_its_reason_in_the_learners_language() -> None:
    controller = free_game(2, 3)
    game = controller.game
    before = len(controller.log)
    # the Take or the Done button, whichever the rules refuse now
    wrong = next(a for a in (Action.take(0), Action.pass_(0)) if game.why_illegal(a) is not None)
    refusal = game.why_illegal(wrong)
    assert refusal is not None
    # its button is greyed out: a click on it is explained, but is no try for the log (N13)
    controller.click({"type": "action", "id": wrong.kind.value})
    assert len(controller.log) == before
    controller._try(wrong)  # the move itself, refused: logged
    assert len(controller.log) == before + 1
    entry = controller.log.entries[-1]
    assert entry.kind == "refused" and entry.seat == 0 and entry.refusal is not None
    assert entry.refusal.reason is refusal.reason and entry.refusal.params == refusal.params
    refusal = entry.refusal
    texts = {}
    for lang in SUPPORTED_LANGUAGES:
        tr = I18n(lang)
        names = controller.names(tr)
        line = log_lines(controller.log, tr, players=names, you=0, rules=game.rules)[-1]
        assert line["text"] == explain(refusal, tr, players=names, you=0, rules=game.rules)
        assert line["label"] and line["who"] == names[0]
        texts[lang] = (line["label"], line["text"])
    assert len(set(texts.values())) == 3  # worded anew in each language
    assert texts["en"][0] == "Not allowed"


def test_the_same_log_is_worded_in_each_language_at_render_time() -> None:
    controller = free_game(3, 11, "en")
    for _ in range(4):
        learner_move(controller, random.Random(1))
        if controller.game.outcome is not None:
            break
    english = log_lines(controller.log, I18n("en"), players=controller.names(I18n("en")), you=0)
    russian_tr = I18n("ru")
    russian = log_lines(controller.log, russian_tr, players=controller.names(russian_tr), you=0)
    assert [line["key"] for line in english] == [line["key"] for line in russian]
    assert all(a["text"] != b["text"] for a, b in zip(english, russian, strict=True))
    for line, entry in zip(russian, controller.log.entries, strict=True):
        if entry.kind == "move":
            expected = narrate(
                entry.events[0], russian_tr, players=controller.names(russian_tr), you=0
            )
            assert line["text"] == expected


def test_a_lesson_free_play_log_starts_with_play_on() -> None:
    from tutorial.app import find_lesson

    controller = LessonController(find_lesson("transfer"), I18n("es"))
    controller.next()
    controller.continue_free_play()
    tr = controller.i18n
    lines = log_lines(controller.log, tr, players=controller.names(tr), you=controller.you)
    assert lines[0]["kind"] == "start"
    assert lines[0]["text"] == tr.gettext(
        "You play on from the lesson's position. The others move by themselves."
    )


def test_log_clear_and_restart() -> None:
    log = MoveLog()
    game = Game.deal(Rules.preset("classic"), 2, 1, dealer=1)
    log.start(game.events)
    action = next(iter(game.legal_actions()))
    before = game.event_count
    game.play(action)
    log.move(action.seat, game.events_since(before))
    refusal = game.why_illegal(Action.take(action.seat))
    assert isinstance(refusal, IllegalAction)
    assert log.refused(action.seat, refusal)
    again = game.why_illegal(Action.take(action.seat))
    assert isinstance(again, IllegalAction)
    assert not log.refused(action.seat, again)  # the same refusal twice in a row: once
    assert [e.kind for e in log.entries] == ["start", "move", "refused"]
    log.start()
    assert [e.kind for e in log.entries] == ["start"] and log.entries[0].events == ()
    log.clear()
    assert len(log) == 0


# ---------------------------------------------------------------------------- result


def test_result_names_the_durak_and_his_cards_left_all_sources() -> None:
    """The last player holding cards is the durak (S0-S4)."""
    controller = free_game(3, 11)
    play_out(controller, 11)
    outcome = controller.game.outcome
    assert outcome is not None and outcome.durak is not None
    tr = controller.i18n
    names = controller.names(tr)
    sizes = controller.game.hand_sizes
    view = result_view(outcome, sizes, tr, players=names, you=0)
    durak_row = view["rows"][-1]
    assert durak_row["durak"] and durak_row["seat"] == outcome.durak
    assert durak_row["place"] == role_name(Role.DURAK, tr)
    assert str(sizes[outcome.durak]) in durak_row["cards"]
    # everybody else in the order they went out, with no cards left
    assert [r["seat"] for r in view["rows"][:-1]] == list(outcome.out_order)
    assert [r["place"] for r in view["rows"][:-1]] == ["1", "2"]
    assert all(sizes[r["seat"]] == 0 for r in view["rows"][:-1])
    if outcome.durak == 0:
        assert view["outcome"] == "lost" and view["title"] == "You are the durak this time."
    else:
        assert view["outcome"] == "won" and names[outcome.durak] in view["title"]


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_result_for_each_side_and_a_draw_s1_s3(lang: str) -> None:
    """Durak: the last with cards (S0-S4); nobody left with cards is a draw (S1, S3)."""
    tr = I18n(lang)
    names = (
        ["You", "Ana", "Bruno"] if lang == "en" else [tr.pgettext("seat label", "You"), "A", "B"]
    )
    won = result_view(Outcome(2, (0, 1)), (0, 0, 4), tr, players=names, you=0)
    lost = result_view(Outcome(0, (1, 2)), (3, 0, 0), tr, players=names, you=0)
    second = result_view(Outcome(1, (2, 0)), (0, 2, 0), tr, players=names, you=0)
    draw = result_view(Outcome(None, (1, 0, 2)), (0, 0, 0), tr, players=names, you=0)
    assert (won["outcome"], lost["outcome"], draw["outcome"]) == ("won", "lost", "draw")
    assert names[2] in won["title"] and names[1] in second["title"]
    assert "3" in lost["text"]  # how many cards the learner was left with
    assert "2" in second["text"]  # the learner's place
    assert all(not row["durak"] for row in draw["rows"]) and len(draw["rows"]) == 3
    assert len({won["title"], lost["title"], draw["title"]}) == 3
    if lang == "en":
        assert draw["title"] == "A draw: nobody is the durak."
        assert won["text"] == "You are safe: you went out first."
        assert second["text"] == "You are safe: you went out in place 2 of 3."
        assert lost["text"] == "You were the last one holding cards: 3 cards left. Try again!"
        assert won["headers"] == ["Place", "Player", "Cards left"]


def test_the_log_never_names_another_seats_draw() -> None:
    """Drawn cards are private (S2: the stock is face down): the log says how many."""
    controller = free_game(2, 3)
    play_out(controller, 3)
    tr = controller.i18n
    lines = log_lines(controller.log, tr, players=controller.names(tr), you=0)
    text = " ".join(line["text"] + " " + " ".join(line["after"]) for line in lines)
    draws = [
        e
        for entry in controller.log.entries
        for e in entry.events
        if e.kind is EventKind.DRAW and e.seat != 0 and e.cards and e.detail != "turnup"
    ]
    assert draws
    for event in draws:
        sentence = narrate(event, tr, players=controller.names(tr), you=0)
        assert sentence in text
        assert not any(card_short(c, tr) in sentence for c in event.cards)


S2_OPTIONS = Rules.preset("wikipedia").replace(
    teams="2v2",
    team_rotation="individual",
    transfer=True,
    flash=True,
    misdeal="four_of_a_suit",
    misdeal_mode="on_request",
)


@pytest.mark.parametrize("seed", range(8))
def test_flash_new_deals_and_pairs_are_logged_and_worded(seed: int) -> None:
    """S2's pairs, «Flash» and the misdeal on request, in free play through clicks: every
    move is logged, and each line reads in every language."""

    def deal() -> Game:
        return Game.deal(S2_OPTIONS, 4, seed, dealer=3)

    lesson = game_lesson(S2_OPTIONS, 4, "wikipedia", deal())
    controller = LessonController(lesson, I18n("en"), seed=seed, start=deal, navigation=False)
    controller.continue_free_play()
    rng = random.Random(seed)
    for _ in range(500):
        if controller.game.outcome is not None:
            break
        learner_move(controller, rng)
    assert controller.game.outcome is not None
    kinds = {e.kind for e in controller.game.events}
    for lang in SUPPORTED_LANGUAGES:
        tr = I18n(lang)
        for line in log_lines(controller.log, tr, players=controller.names(tr), you=0):
            for text in (line["text"], *line["after"]):
                assert text and "{" not in text, line
    if EventKind.FLASH in kinds:
        flashes = [
            e for e in controller.log.entries if e.events and e.events[0].kind is EventKind.FLASH
        ]
        assert flashes and all(e.seat == e.events[0].seat for e in flashes)


def test_a_shown_trump_and_a_new_deal_in_the_log() -> None:
    log = MoveLog()
    log.start(())
    log.move(1, [Event(EventKind.FLASH, 1, (Card.parse("9S"),), other=2)])
    hand = tuple(parse_cards("6H 8H JH KH 7C 9S"))
    log.move(0, [Event(EventKind.MISDEAL, 0, hand, n=1, detail="request")])
    es = log_lines(log, I18n("es"), players=["Tú", "Ana", "Bruno"], you=0)
    assert es[1]["text"] == (
        "Ana enseña el triunfo 9♠ y se lo queda: el ataque queda traspasado y ahora se "
        "defiende Bruno."
    )
    assert es[2]["text"].startswith("Pides otro reparto y enseñas tu mano: 6♥")
    assert es[2]["text"].endswith("Se barajan las cartas y se reparten de nuevo.")


def test_in_team_play_the_durak_s_whole_team_loses_s0_s2() -> None:
    outcome = Outcome(2, (0, 3, 1), (0, 2))  # Carla holds cards; Ana, her partner, loses too
    names = ["Ana", "Bruno", "Carla", "Diana"]
    lost = result_view(outcome, [0, 0, 3, 0], I18n("en"), players=names, you=0)
    assert lost["outcome"] == "lost" and lost["title"] == "Your team loses this time."
    assert "with Carla" in lost["text"]
    assert [(r["name"], r["durak"]) for r in lost["rows"]] == [
        ("Ana", True),
        ("Diana", False),
        ("Bruno", False),
        ("Carla", True),
    ]
    won = result_view(outcome, [0, 0, 3, 0], I18n("es"), players=names, you=1)
    assert won["outcome"] == "won" and won["title"] == "Pierde el equipo de Ana y Carla."
    ru = result_view(outcome, [0, 0, 3, 0], I18n("ru"), players=names, you=3)
    assert ru["title"] == "В дураках остаётся вся команда: Ana и Carla."


# ---------------------------------------------------------------------------- bounded


def test_refused_tries_are_bounded_and_moves_and_events_complete() -> None:
    """Thousands of refused tries (two wrong moves in turn, as a forged flood sends them):
    at most MAX_TRIES lines between two real moves; every move and event is still logged."""
    controller = free_game(2, 3)
    game = controller.game
    rng = random.Random(3)
    tries = 0
    while game.outcome is None:
        wrong = [
            a for a in (Action.take(0), Action.pass_(0)) if game.why_illegal(a) is not None
        ] + [Action.lead(0, card) for card in game.hand(1)[:2]]  # not in the learner's hand
        for i in range(500):
            controller._try(wrong[i % len(wrong)])
            tries += 1
        learner_move(controller, rng)
    entries = controller.log.entries
    assert tries >= 2000
    moves = [e for e in entries if e.kind == "move"]
    assert len(moves) == len(game.history)
    events = [event for entry in moves for event in entry.events]
    assert events == list(game.events[len(entries[0].events) :])  # no event lost
    run = 0
    for entry in entries:
        run = run + 1 if entry.kind == "refused" else 0
        assert run <= MAX_TRIES
    assert len(entries) <= 1 + len(moves) * (1 + MAX_TRIES) + MAX_TRIES
    assert sum(e.kind == "refused" for e in entries) >= MAX_TRIES  # they are logged, a few


def test_a_new_run_of_tries_after_a_move_is_logged_again() -> None:
    log = MoveLog()
    game = Game.deal(Rules.preset("classic"), 2, 1, dealer=1)
    log.start(game.events)
    epoch = log.epoch
    seat = game.attacker
    wrong = [Action.take(seat), Action.pass_(seat)]
    refusals = [game.why_illegal(a) for a in wrong]
    assert all(isinstance(r, IllegalAction) for r in refusals)
    kept = [log.refused(seat, refusals[i % 2]) for i in range(1000)]  # type: ignore[arg-type]
    assert kept == [True] * MAX_TRIES + [False] * (1000 - MAX_TRIES)
    action = next(iter(game.legal_actions()))
    before = game.event_count
    game.play(action)
    log.move(action.seat, game.events_since(before))
    again = game.why_illegal(Action.take(action.seat))
    assert isinstance(again, IllegalAction) and log.refused(action.seat, again)
    assert len(log) == 1 + MAX_TRIES + 1 + 1
    assert log.epoch == epoch  # only appended: the same epoch
    log.start()
    assert log.epoch == epoch + 1
    log.clear()
    assert log.epoch == epoch + 2


def test_log_lines_from_a_place_are_the_tail_of_the_whole() -> None:
    controller = free_game(3, 11)
    play_out(controller, 11)
    tr = controller.i18n
    names = controller.names(tr)
    whole = log_lines(controller.log, tr, players=names, you=0, rules=controller.game.rules)
    for start in (0, 1, len(whole) // 2, len(whole) - 1, len(whole), len(whole) + 5):
        tail = log_lines(
            controller.log, tr, players=names, you=0, rules=controller.game.rules, start=start
        )
        assert tail == whole[start:]
