"""The lessons in tutorial/lessons/: they load, they play to the end by clicks in every
language, they score, they render without untranslated text, and Back/Restart/language switches
behave. Malformed lesson files give clear errors (tests/data/bad_lessons/)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from durak_core import Action, ActionKind, EventKind
from tests.lesson_clicks import clicks_for, complete, expected_action
from tests.transcript import Transcripts
from tutorial.controller import LessonController
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n, translator
from tutorial.lesson_view import panel_view, table_view
from tutorial.lessons import LESSON_DIR, Lesson, LessonError, WrongAnswer, load_lesson, load_lessons
from tutorial.names import SOURCES, source_name

LESSONS = load_lessons()
IDS = [lesson.id for lesson in LESSONS]
BAD = Path(__file__).parent / "data" / "bad_lessons"

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
#: Words that Spanish writes as English does (GLOSSARY.md: the loser's badge is «Durak»).
SAME_IN_SPANISH = frozenset({"Durak"})
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
#: The sources' names are brands: Latin script in every language (GLOSSARY.md).
BRANDS = tuple(source_name(code, translator("ru")) for code in SOURCES)


def _without_brands(text: str) -> str:
    for brand in BRANDS:
        text = text.replace(brand, "")
    return text


def _by_id(lesson_id: str) -> Lesson:
    return next(lesson for lesson in LESSONS if lesson.id == lesson_id)


def _controller(lesson: Lesson, lang: str = "en") -> LessonController:
    return LessonController(lesson, I18n(lang))


# ----------------------------------------------------------------------------- the set


def test_every_lesson_loads_and_ids_are_unique() -> None:
    files = sorted(LESSON_DIR.glob("*.toml"))
    assert len(files) == len(LESSONS) == 14
    assert len(set(IDS)) == len(IDS)


def test_orders_are_contiguous_and_match_the_file_names() -> None:
    assert [lesson.order for lesson in LESSONS] == list(range(1, 15))
    for lesson in LESSONS:
        number, _, slug = lesson.source.removesuffix(".toml").partition("-")
        assert int(number) == lesson.order, lesson.source
        assert slug == lesson.id, lesson.source


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_lesson_shape(lesson: Lesson) -> None:
    assert lesson.title and lesson.summary
    assert 2 <= len(lesson.teaches) <= 4
    assert 6 <= len(lesson.steps) <= 14
    kinds = [step.kind for step in lesson.steps]
    assert "move" in kinds and "question" in kinds
    assert "auto" in kinds or "compare" in kinds
    assert lesson.players[lesson.you] == ""
    assert all(name for seat, name in enumerate(lesson.players) if seat != lesson.you)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_move_step_names_its_wrong_answers_reasons(lesson: Lesson) -> None:
    """The loader's dry run checks each reason against the engine; here: that there is one."""
    for i, step in enumerate(lesson.steps, 1):
        if step.kind == "move":
            assert 1 <= len(step.wrong) <= 3, f"step {i}"
            assert all(w.reason for w in step.wrong), f"step {i}"
            assert step.hint and step.note, f"step {i}"
            assert all(w.play.seat == lesson.you for w in step.wrong)
        if step.kind == "question":
            assert 2 <= len(step.choices) <= 4, f"step {i}"
            assert all(c.explain for c in step.choices), f"step {i}"
        if step.kind == "auto":
            assert len(step.play) == 1, f"step {i}: one move per step"
            assert all(a.seat != lesson.you for a in step.play), f"step {i}"


def _lesson_texts(lesson: Lesson) -> list[str]:
    """Every msgid of a lesson that a learner reads (besides the players' names)."""
    texts = [lesson.title, lesson.summary, *lesson.teaches]
    for step in lesson.steps:
        texts += [step.say, step.hint, step.note, step.question, step.label]
        texts += [w.explain for w in step.wrong]
        texts += [t for c in step.choices for t in (c.label, c.explain)]
    return [t for t in texts if t]


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_lesson_text_names_sources_and_uses_english_quotes(lesson: Lesson) -> None:
    """Issue 9: no bare source code (S0–S4) reaches the learner, the sources are named
    ("Durak Live", "Dáme Karty"…), and English text quotes with “ ”, not « »."""
    for text in _lesson_texts(lesson):
        assert not re.search(r"\bS[0-4]\b", text), text
        assert "«" not in text and "»" not in text, text
        for lang in SUPPORTED_LANGUAGES:
            translated = translator(lang).gettext(text)
            assert not re.search(r"\bS[0-4]\b", translated), (lang, translated)
            for brand in BRANDS:
                if brand in text:
                    assert brand in translated, (lang, brand, translated)


# ----------------------------------------------------------------------------- rendering


_PANEL_TEXT = ("title", "summary", "step_label", "text", "question")
_TABLE_TEXT = ("stock_label", "discard_label", "trump_name", "cap_label", "narration")


def _texts(controller: LessonController) -> dict[str, str]:
    """Every text of both views, keyed by where it is shown."""
    panel: dict[str, Any] = panel_view(controller)
    table: dict[str, Any] = table_view(controller)
    out = {f"panel.{k}": panel[k] for k in _PANEL_TEXT}
    out.update({f"panel.teaches.{i}": t for i, t in enumerate(panel["teaches"])})
    out.update({f"panel.choice.{i}": c["label"] for i, c in enumerate(panel["choices"])})
    comparison = panel["comparison"]
    if comparison is not None:
        out["cmp.ours"], out["cmp.theirs"] = comparison["ours"], comparison["theirs"]
        for i, row in enumerate(comparison["rows"]):
            for key in ("move", "ours", "theirs"):
                out[f"cmp.{i}.{key}"] = row[key]
    out.update({f"table.{k}": table[k] for k in _TABLE_TEXT})
    out.update({f"table.labels.{k}": v for k, v in table["labels"].items()})
    for seat in table["seats"]:
        for key in ("name", "count_label", "role_label"):
            out[f"seat.{seat['seat']}.{key}"] = seat[key]
        for card in seat.get("cards", []):
            out[f"seat.{seat['seat']}.{card['id']}"] = card["label"]
    for card in table["hand"]:
        out[f"hand.{card['id']}"] = card["label"]
    for pair in table["table"]:
        for key in ("attack", "defence"):
            if pair[key] is not None:
                out[f"table.{pair[key]['id']}"] = pair[key]["label"]
    if table["turnup"] is not None:
        out["table.turnup"] = table["turnup"]["label"]
    for button in table["actions"]:
        out[f"button.{button['id']}"] = button["label"]
    if table["message"] is not None:
        out["message"] = table["message"]["text"]
    return {k: v for k, v in out.items() if v}


def _names(lesson: Lesson) -> set[str]:
    return {name for name in lesson.players if name}


class Renders:
    """Renders the current state in every language and checks es/ru against en."""

    def __init__(self, lesson: Lesson) -> None:
        self.names = _names(lesson)
        self.count = 0

    def __call__(self, controller: LessonController) -> None:
        i18n = controller.i18n
        start = i18n.language
        texts = {}
        for lang in SUPPORTED_LANGUAGES:
            i18n.set_language(lang)
            texts[lang] = _texts(controller)
        i18n.set_language(start)
        self.count += 1
        en = texts["en"]
        assert set(texts["es"]) == set(en) == set(texts["ru"])
        for key, english in en.items():
            words = set(LATIN_WORD.findall(english)) - self.names
            if words - SAME_IN_SPANISH:
                assert texts["es"][key] != english, f"{key}: untranslated in es: {english!r}"
            russian = texts["ru"][key]
            latin = LATIN_WORD.findall(_without_brands(russian))
            assert not latin, f"{key}: Latin in ru: {russian!r}"
            if words:
                assert CYRILLIC.search(russian), f"{key}: untranslated in ru: {russian!r}"


# ----------------------------------------------------------------------------- walking


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_views_render_translated_at_every_step(lesson: Lesson) -> None:
    controller = _controller(lesson, "es")
    check = Renders(lesson)
    complete(controller, wrong=True, on_step=check)
    assert check.count > len(lesson.steps)
    check(controller)  # the completion message too


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_wrong_answers_say_which_kind_of_feedback_they_get(lesson: Lesson) -> None:
    """A refused answer is "illegal"; a legal one is a "detour" or "costly", and only a costly
    one may cost a star; a costly answer says what it costs."""
    for i, step in enumerate(lesson.steps, 1):
        for wrong in step.wrong:
            if wrong.reason == "allowed":
                assert wrong.feedback in ("detour", "costly"), f"step {i}: {wrong.play}"
            else:
                assert wrong.feedback == "illegal", f"step {i}: {wrong.play}"
            assert not wrong.costs_star or wrong.feedback == "costly", f"step {i}"


def test_every_lesson_uses_each_kind_of_feedback_somewhere() -> None:
    kinds = {w.feedback for lesson in LESSONS for step in lesson.steps for w in step.wrong}
    assert kinds == {"illegal", "detour", "costly"}
    assert any(w.costs_star for lesson in LESSONS for s in lesson.steps for w in s.wrong)


def test_lesson_3_keeping_the_trump_is_a_detour_not_an_error() -> None:
    """S4's Example 1 beats the J♠ with a trump; the Q♠ beats it too and keeps the only trump,
    as the lesson advised before: allowed, no star lost, and the text says what we follow."""
    lesson = _by_id("growing-round")
    step = next(s for s in lesson.steps if Action.parse("1:7D/JS") in s.expect)
    queen = next(w for w in step.wrong if w.play == Action.parse("1:QS/JS"))
    assert (queen.reason, queen.feedback, queen.costs_star) == ("allowed", "detour", False)
    assert "Durak Live's example" in queen.explain and "try the 7♦" in queen.explain
    controller = _controller(lesson)
    while controller.step is not step:
        if controller.step is not None and controller.step.kind == "move":
            for click in clicks_for(controller, expected_action(controller, controller.step)):
                controller.click(click)
        controller.next()
    for click in clicks_for(controller, queen.play):
        controller.click(click)
    assert controller.message is not None and controller.message[0] == "detour"
    assert controller.mistakes == 0 and not controller.step_done


def test_spending_the_trump_the_task_said_to_keep_costs_a_star() -> None:
    """S1's first tip, as lesson 2 words it: save your trump. Beating the 7♣ with the 7♥ is
    allowed but costly, and this step says so: a star point."""
    lesson = _by_id("bout")
    controller = _controller(lesson)
    while controller.step is not None and controller.step.kind != "move":
        controller.next()
    for click in clicks_for(controller, Action.parse("1:7H/7C")):
        controller.click(click)
    assert controller.message is not None and controller.message[0] == "costly"
    assert controller.mistakes == 1 and not controller.game.history[1:]


# ----------------------------------------------------------------------------- the seeds' points


def test_lesson_3_follows_s4_example_1_with_the_seven_of_diamonds(transcripts: Transcripts) -> None:
    lesson = _by_id("growing-round")
    game = transcripts.game(lesson)
    played = [str(a) for a in game.history]
    assert played[:9] == [
        "0:8C",
        "1:10C/8C",
        "0:pass",
        "2:+10H",
        "1:JH/10H",
        "0:pass",
        "2:pass",
        "3:+JS",
        "1:7D/JS",
    ]
    says = " ".join(step.say for step in lesson.steps)
    assert "4♦" in says and "a slip in the example" in says


def test_lesson_4_shows_s4_example_2_as_a_common_mistake() -> None:
    lesson = _by_id("hand-cap")
    question = next(s for s in lesson.steps if s.kind == "question")
    wrong = [c for c in question.choices if not c.correct]
    assert any("Durak Live's conclusion, and it is a slip" in c.explain for c in wrong)
    assert any(s.kind == "compare" and s.preset == "durak_live_todos" for s in lesson.steps)


def test_lesson_5_defender_draws_nothing(transcripts: Transcripts) -> None:
    """S4: three cards left and two players ahead of you: Ana draws two, Bruno the turn-up."""
    lesson = _by_id("draw-order")
    game = transcripts.game(lesson)
    draws = [(e.seat, e.n, e.detail) for e in game.events if e.kind is EventKind.DRAW]
    assert draws == [(0, 2, ""), (2, 1, "turnup")]
    assert game.state.stock == []


def test_lesson_6_swaps_on_the_table_and_the_six_is_drawn_last(transcripts: Transcripts) -> None:
    """S0's usual swap: the 6♠ for the turned-up K♠, which goes to the learner's hand; the 6♠
    takes its place under the stock and the last drawer (Bruno) gets it."""
    lesson = _by_id("trump-swap")
    game = transcripts.game(lesson)
    swaps = [e for e in game.events if e.kind is EventKind.SWAP]
    assert [(e.seat, [c.ascii() for c in e.cards]) for e in swaps] == [(1, ["6S", "KS"])]
    assert "KS" in [c.ascii() for c in game.hand(lesson.you)]
    draws = [(e.seat, e.detail) for e in game.events if e.kind is EventKind.DRAW]
    assert draws[-1] == (2, "turnup") and "6S" in [c.ascii() for c in game.hand(2)]


def test_lesson_6_says_nothing_to_add_only_when_there_is_nothing() -> None:
    """Issue 9: the old step 2 said so while the learner held the J♣ with a jack on the table."""
    lesson = _by_id("trump-swap")
    step = next(s for s in lesson.steps if "nothing to add" in s.say)
    assert [c.name for c in step.claims] == ["no_throw"]


def test_lesson_10_ends_in_a_draw(transcripts: Transcripts) -> None:
    lesson = _by_id("endgame")
    game = transcripts.game(lesson)
    outcome = game.outcome
    assert outcome is not None and outcome.is_draw


def _refusals(lesson: Lesson) -> set[str]:
    """The refusal codes a lesson explains: its wrong answers' and its claims'."""
    codes = {w.reason for step in lesson.steps for w in step.wrong if w.feedback == "illegal"}
    return codes | {c.reason for step in lesson.steps for c in step.claims if c.reason}


def test_lesson_11_pairs_spare_partners_and_the_attack_skips_to_the_next_opponent(
    transcripts: Transcripts,
) -> None:
    """S0/S2 pairs: no adding against your partner (PARTNER_DEFENDS); Diana, out, is covered
    by her team-mate (C23); Bruno skips his partner and attacks the learner, on his right; the
    team left holding cards loses (S0 (ii))."""
    lesson = _by_id("teams")
    assert lesson.rules.teams.value == "2v2" and lesson.preset == "wikihow_home"
    assert "partner_defends" in _refusals(lesson)
    game = transcripts.game(lesson)
    starts = [(e.seat, e.other) for e in game.events if e.kind is EventKind.BOUT_START]
    assert starts[-2:] == [(1, 2), (2, 1)]  # the learner covers for Diana; Bruno skips Ana
    outcome = game.outcome
    assert outcome is not None and outcome.out_order == (3, 1) and outcome.losers == (0, 2)


def test_lesson_12_finishes_ana_with_two_epaulettes_and_the_match_goes_on(
    transcripts: Transcripts,
) -> None:
    """S2's epaulettes: both sixes finish the durak; the ladder needs a seven next; the durak
    deals the next game and the player on his left leads (S0 item 24, S2)."""
    from durak_core import Game, Rank
    from durak_core.match import game_result, score_match

    lesson = _by_id("match")
    game = transcripts.game(lesson)
    result = game_result(game)
    assert (result.durak, result.epaulettes) == (0, 2)
    assert sorted(c.ascii() for c in result.final_attack) == ["6C", "6D"]
    score = score_match(lesson.rules, 2, [result])
    assert score.ladder == ((Rank.SIX, 2),) and not score.finished
    assert score.standings[0].next_rank is Rank.SEVEN
    for seed in range(3):
        following = Game.deal(lesson.rules, 2, seed, dealer=0, previous_durak=0)
        assert following.state.attacker == 1


def test_lesson_13_asks_for_a_new_deal_and_quotes_the_exact_rates(transcripts: Transcripts) -> None:
    """S2's four-of-a-suit misdeal on request; the rates the last question gives are
    durak_core.misdeal's exact ones (C20), four against five of a suit."""
    from durak_core.misdeal import misdeal_probability

    lesson = _by_id("misdeal")
    assert "redeal_not_misdealt" in _refusals(lesson)
    assert "redeal_too_late" in _refusals(lesson)
    game = transcripts.game(lesson)
    misdeals = [e for e in game.events if e.kind is EventKind.MISDEAL]
    assert [(e.seat, e.detail) for e in misdeals] == [(1, "request")]
    assert game.state.trump.symbol == "♥"
    text = " ".join(c.explain for step in lesson.steps for c in step.choices)
    rates = (
        "with four of a suit, {:.1f} per cent of two-player deals would be dealt again, and "
        "{:.1f} per cent with six players; with five of a suit, {:.1f} and {:.1f} per cent."
    )
    numbers = [
        100 * misdeal_probability(rule, players)
        for rule in ("four_of_a_suit", "five_of_a_suit")
        for players in (2, 6)
    ]
    assert rates.format(*numbers) in text
    assert "about one two-player deal in five" in " ".join(
        c.label for step in lesson.steps for c in step.choices
    )
    assert round(1 / misdeal_probability("four_of_a_suit", 2)) == 5


def test_lesson_14_shows_a_trump_once_and_keeps_it(transcripts: Transcripts) -> None:
    """S2's Flash: the 9♠ is shown, not played, and stays in the hand; the three refusals
    are explained (not a trump, shown already, after a beat)."""
    lesson = _by_id("flash")
    assert lesson.rules.flash and lesson.rules.transfer and lesson.preset == "wikipedia"
    assert {"flash_not_trump", "flash_already_shown", "transfer_after_beat"} <= _refusals(lesson)
    game = transcripts.game(lesson)
    flashes = [
        (e.seat, [c.ascii() for c in e.cards]) for e in game.events if e.kind is EventKind.FLASH
    ]
    assert flashes == [(1, ["9S"])]
    assert {"9S", "10S"} <= {c.ascii() for c in game.hand(1)}


# ----------------------------------------------------------------------------- controller use


def _refused_card(wrong: WrongAnswer) -> bool:
    """A wrong answer the rules refuse, made with a card (a greyed button is no error)."""
    return (
        wrong.feedback == "illegal"
        and wrong.play.card is not None
        and wrong.play.kind
        in (
            ActionKind.LEAD,
            ActionKind.THROW,
            ActionKind.BEAT,
        )
    )


def _walk_to_first_error(controller: LessonController) -> None:
    """Advance to the first move step with a card the rules refuse, and play it."""
    while (step := controller.step) is not None and not any(_refused_card(w) for w in step.wrong):
        if step.kind == "question":
            good = next(i for i, c in enumerate(step.choices) if c.correct)
            controller.answer_question(good)
        if step.kind == "move":
            for click in clicks_for(controller, expected_action(controller, step)):
                controller.click(click)
        controller.next()
    assert step is not None
    refused = next(w for w in step.wrong if _refused_card(w))
    for click in clicks_for(controller, refused.play):
        controller.click(click)
    assert controller.message is not None and controller.message[0] == "error"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_switching_language_rewords_the_current_message(lesson: Lesson) -> None:
    i18n = I18n("en")
    controller = LessonController(lesson, i18n)
    changes: list[str] = []
    i18n.on_change(changes.append)
    _walk_to_first_error(controller)
    english = table_view(controller)["message"]
    panel_en = panel_view(controller)["text"]
    assert english is not None
    for lang in ("es", "ru"):
        i18n.set_language(lang)
        message = table_view(controller)["message"]
        assert message is not None and message["kind"] == "error"
        assert message["text"] != english["text"]
        assert panel_view(controller)["text"] != panel_en
        # the same words a controller started in that language shows
        fresh = LessonController(lesson, I18n(lang))
        _walk_to_first_error(fresh)
        assert table_view(fresh)["message"] == message
    assert changes == ["es", "ru"]


def _snapshot(controller: LessonController) -> tuple[Any, ...]:
    game = controller.game
    return (controller.index, game.history, game.state.copy(), game.event_count)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_back_and_restart_restore_positions(lesson: Lesson) -> None:
    """Back from each step lands exactly where the previous step began (game state, moves,
    events); Restart returns to the lesson's start and keeps the best result."""
    controller = _controller(lesson)
    start = _snapshot(controller)
    entered: dict[int, tuple[Any, ...]] = {}
    complete(controller, on_step=lambda c: entered.setdefault(c.index, _snapshot(c)))
    assert sorted(entered) == list(range(len(lesson.steps)))
    assert controller.completed
    progress = dict(controller.progress)
    for index in reversed(range(len(lesson.steps))):
        controller.back()
        assert not controller.completed
        assert _snapshot(controller) == entered[index], f"back to step {index + 1}"
    controller.back()  # already at the first step: nothing happens
    assert _snapshot(controller) == start
    complete(controller)
    controller.restart()
    assert _snapshot(controller) == start
    assert controller.mistakes == 0 and controller.hints_used == 0 and not controller.completed
    assert controller.progress == progress


# ----------------------------------------------------------------------------- bad lessons


def _bad(name: str) -> LessonError:
    with pytest.raises(LessonError) as info:
        load_lesson(BAD / name)
    return info.value


def _spanish(error: LessonError) -> str:
    text = error.describe(translator("es"))
    assert text.startswith("Lección ")
    assert text != error.describe(translator("en"))
    return text


@pytest.mark.parametrize(
    ("name", "where", "english", "spanish"),
    [
        ("invalid-toml.toml", "invalid-toml.toml", "not valid TOML", "no es un TOML válido"),
        ("missing-title.toml", "missing-title.toml, title", "this field is required",
         "este campo es obligatorio"),
        ("unknown-kind.toml", "unknown-kind.toml, step 2, kind", "unknown kind 'dance'",
         "tipo desconocido 'dance'"),
        ("illegal-move.toml", "illegal-move.toml, step 3, play",
         "0:+KC is illegal here (rank_not_on_table)", "0:+KC no está permitida aquí"),
        ("wrong-reason.toml", "wrong-reason.toml, step 2, wrong",
         "1:8C/9H should be refused with rank_not_on_table, but the engine says cannot_beat",
         "debería rechazarse con rank_not_on_table, pero el motor dice cannot_beat"),
        ("card-not-in-deck.toml", "card-not-in-deck.toml, position",
         "this position is impossible", "esta posición es imposible"),
        ("no-correct-choice.toml", "no-correct-choice.toml, step 1, choices",
         "at least one choice must be correct", "al menos una respuesta tiene que ser correcta"),
        ("unknown-field.toml", "unknown-field.toml, step 1, hnit", "unknown field",
         "campo desconocido"),
        ("feedback-on-refusal.toml", "feedback-on-refusal.toml, step 2, wrong 1, feedback",
         "only a legal move has this field", "solo una jugada permitida lleva este campo"),
        ("false-claim.toml", "false-claim.toml, step 2, claims",
         "the text claims 'no_throw', but the engine allows 1:+JC",
         "el texto afirma 'no_throw', pero el motor permite 1:+JC"),
    ],
)  # fmt: skip
def test_malformed_lessons_say_where_and_what(
    name: str, where: str, english: str, spanish: str
) -> None:
    error = _bad(name)
    assert error.where == where
    assert str(error).startswith(f"{where}: ")
    assert english in str(error)
    described = _spanish(error)
    assert where in described and spanish in described


def test_the_card_outside_the_deck_is_named() -> None:
    assert "4D is not in a 36-card deck" in str(_bad("card-not-in-deck.toml"))


def test_every_bad_fixture_is_covered() -> None:
    names = {p.name for p in BAD.glob("*.toml")}
    assert len(names) == 10


def test_player_names_are_spelled_in_each_alphabet() -> None:
    ru = translator("ru")
    for lesson in LESSONS:
        controller = LessonController(lesson, I18n("ru"))
        names = controller.names(ru)
        for seat, name in enumerate(lesson.players):
            if name:
                assert CYRILLIC.search(names[seat]), name
        assert controller.names(translator("es")) == [name or "Tú" for name in lesson.players]
