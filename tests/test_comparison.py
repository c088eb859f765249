"""Comparisons name the rule that makes two rule sets part ways, never a knock-on effect.

Every lesson's compare steps (walked by clicks) and every house-rules situation under every pair
of presets the page offers (and B's two switches) are checked:

- no row explains a refusal by a reason the position on screen contradicts: the "screen" is
  built from what the learner sees (the lesson's table, the situation's position) and the moves
  listed in that column, and never knows of a bout that closed by itself out of sight;
- every parting names options that really differ between the two rule sets, and switching them
  (each alone, or all together when only a combination does it) reproduces it.

Sources are cited as in shared/docs/rules-research.md: S0 wikiHow, S1 Matsuri, S2 Wikipedia,
S3 Dáme Karty, S4 Durak Live.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from durak_core import (
    PRESETS,
    Action,
    ActionKind,
    Card,
    EventKind,
    IllegalAction,
    Position,
    Reason,
    Rules,
    RulesError,
)
from durak_core.cards import parse_cards
from tests import transcript
from tutorial.comparison import (
    Comparison,
    Parting,
    compare_lesson,
    compare_position,
    comparison_view,
    parting_html,
)
from tutorial.controller import LessonController
from tutorial.explain import narrate
from tutorial.house_rules import HouseRulesApp, Pair, Scenario, load_scenarios, pair_rules
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n, translator
from tutorial.lesson_view import panel_view
from tutorial.lessons import Lesson, load_lessons
from tutorial.names import you_label
from tutorial.option_names import (
    OPTION_FIELDS,
    option_name,
    option_text,
    option_value,
    option_values,
)

LANGS = tuple(SUPPORTED_LANGUAGES)
LESSONS = load_lessons()
SCENARIOS = load_scenarios()
PAIRS = [
    Pair(a, b, transfer, after_take)
    for a, b in itertools.product(PRESETS, PRESETS)
    for transfer in (False, True)
    for after_take in (False, True)
]
#: Enum values and field names as the engine spells them: never shown to a learner.
RAW_IDS = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


# ------------------------------------------------------------------------ the screen


class Screen:
    """What a learner can see of the position: the table, who attacks and defends, whether
    the defender has said «take», and the cards known to be in each hand. The moves of a
    column change it as they are listed; a bout that closes by itself out of sight does not
    (that is exactly what a knock-on explanation would contradict)."""

    def __init__(self, position: Position | Mapping[str, Any], players: int) -> None:
        if isinstance(position, Position):
            position = position.to_dict()
        self.table: list[list[Card | None]] = [
            [Card.parse(a), Card.parse(d) if d else None] for a, d in position.get("table", [])
        ]
        self.attacker: int = int(position.get("attacker", 0))
        out = set(position.get("out", ()))
        self.active = [seat for seat in range(players) if seat not in out]
        default = self._next(self.attacker)
        defender = position.get("defender")
        self.defender: int = default if defender is None else int(defender)
        self.taking: bool = bool(position.get("taking", False))
        self.hands: list[set[Card]] = [set(parse_cards(h)) for h in position["hands"]]
        self.swapped = False

    def _next(self, seat: int) -> int:
        later = [s for s in self.active if s > seat]
        return later[0] if later else self.active[0]

    def play(self, action: Action) -> None:
        kind, seat, card = action.kind, action.seat, action.card
        if card is not None:
            self.hands[seat].discard(card)
        if kind is ActionKind.LEAD:
            assert card is not None
            self.table = [[card, None]]
            self.attacker, self.defender, self.taking = seat, self._next(seat), False
        elif kind is ActionKind.THROW:
            self.table.append([card, None])
        elif kind is ActionKind.TRANSFER:
            self.table.append([card, None])
            self.attacker, self.defender = seat, self._next(seat)
        elif kind is ActionKind.BEAT:
            for pair in self.table:
                if pair[0] == action.target:
                    pair[1] = card
        elif kind is ActionKind.TAKE:
            self.taking = True
        elif kind is ActionKind.SWAP:
            self.swapped = True

    @property
    def attacks(self) -> list[Card]:
        return [a for a, _ in self.table if a is not None]

    @property
    def unbeaten(self) -> list[Card]:
        return [a for a, d in self.table if a is not None and d is None]

    @property
    def ranks(self) -> set[Any]:
        return {c.rank for pair in self.table for c in pair if c is not None}


#: Reasons that speak of a bout in progress: they need cards on the table.
_IN_A_BOUT = {
    Reason.NOT_YOUR_PRIORITY,
    Reason.ALREADY_PASSED,
    Reason.NOT_A_NEIGHBOUR,
    Reason.DEFENDER_CANNOT_PASS,
    Reason.DEFENDER_CANNOT_THROW,
}


def contradiction(refusal: IllegalAction, screen: Screen) -> str | None:
    """Why ``refusal`` contradicts what ``screen`` shows, or ``None`` if it fits."""
    p = refusal.params
    action = refusal.action
    assert action is not None
    seat = action.seat
    reason = refusal.reason
    checks: dict[Reason, bool] = {
        Reason.MUST_LEAD: not screen.table,
        Reason.NOTHING_TO_PASS: not screen.table,
        Reason.BOUT_IN_PROGRESS: bool(screen.table),
        Reason.NOT_ATTACKER: not screen.table and p.get("attacker") == screen.attacker,
        Reason.NOT_DEFENDER: seat != screen.defender and p.get("defender") == screen.defender,
        Reason.DEFENDER_CANNOT_THROW: seat == screen.defender,
        Reason.DEFENDER_CANNOT_PASS: seat == screen.defender
        and p.get("unbeaten") == len(screen.unbeaten),
        Reason.WAIT_FOR_DEFENCE: p.get("unbeaten") == len(screen.unbeaten) > 0,
        Reason.NOTHING_TO_TAKE: bool(screen.table) and not screen.unbeaten,
        Reason.ALREADY_TAKING: screen.taking,
        Reason.NO_SUCH_ATTACK_CARD: p.get("target") not in screen.attacks,
        Reason.ALREADY_BEATEN: [p.get("target"), p.get("by")] in screen.table,
        Reason.CANNOT_BEAT: p.get("target") in screen.unbeaten,
        Reason.RANK_NOT_ON_TABLE: set(p.get("ranks", ())) == screen.ranks
        and action.card is not None
        and action.card.rank not in screen.ranks,
        Reason.ONLY_FIRST_RANK: bool(screen.table) and p.get("rank") == screen.attacks[0].rank,
        Reason.CAP_REACHED: bool(screen.table)
        and p.get("on_table")
        == (len(screen.attacks) if p.get("scope") == "total" else len(screen.unbeaten)),
        Reason.TRANSFER_AFTER_BEAT: any(d is not None for _, d in screen.table),
        Reason.TRANSFER_RANK_MISMATCH: bool(screen.table)
        and p.get("rank") == screen.attacks[0].rank,
        Reason.TRANSFER_NO_ROOM: bool(screen.table) and not screen.taking,
        Reason.CARD_NOT_IN_HAND: screen.swapped or p.get("card") not in screen.hands[seat],
    }
    if reason in _IN_A_BOUT and not screen.table:
        return f"{reason.value} with an empty table on screen"
    if reason in checks and not checks[reason]:
        return f"{reason.value} {p} contradicts the screen: table {screen.table}, " + (
            f"attacker {screen.attacker}, defender {screen.defender}, taking {screen.taking}"
        )
    return None


def check_rows(
    comparison: Comparison,
    position: Position | Mapping[str, Any],
    players: int,
    names: Sequence[str],
    you: int | None,
) -> None:
    """No explained refusal contradicts the screen of its column; a side that has gone its own
    way shows consequences, not rules. A bout that a move ends by itself changes the screen
    only because the row says so."""
    tr = translator("en")
    view = comparison_view(comparison, tr, names, you, "A", "B")
    screens = {"ours": Screen(position, players), "theirs": Screen(position, players)}
    for i, (row, data) in enumerate(zip(comparison.rows, view["rows"], strict=True)):
        for side, refusal, parted, events in (
            ("ours", row.ours, row.ours_parted, row.ours_events),
            ("theirs", row.theirs, row.theirs_parted, row.theirs_events),
        ):
            screen = screens[side]
            if refusal is None:
                screen.play(row.action)
                for event in events:
                    if event.kind in (EventKind.BITO, EventKind.PICK_UP):
                        said = narrate(event, tr, players=list(names), you=you)
                        assert said in data[side], (i, side, data[side])  # type: ignore[literal-required]
                        screen.table, screen.taking = [], False
                    elif event.kind is EventKind.BOUT_START and not screen.table:
                        assert event.seat is not None and event.other is not None
                        screen.attacker, screen.defender = event.seat, event.other
            elif not parted:
                problem = contradiction(refusal, screen)
                assert problem is None, f"row {i + 1} ({row.action}), {side}: {problem}"


def check_parting(
    comparison: Comparison, reproduce: Any, ours: Rules, theirs: Rules
) -> Parting | None:
    """The parting names options that differ, and switching them reproduces it."""
    parting = comparison.parting
    if parting is None:
        assert all((r.ours is None) == (r.theirs is None) for r in comparison.rows)
        return None
    differences = ours.differences(theirs)
    assert parting.options, parting
    assert set(parting.options) <= set(differences), (parting.options, differences)
    switches = (
        [{name: differences[name][1]} for name in parting.options]
        if parting.alone
        else [{name: differences[name][1] for name in parting.options}]
    )
    for switch in switches:
        other = reproduce(ours.replace(**switch))
        assert other.parting is not None and parting.same_as(other.parting), (switch, parting)
    return parting


def check_words(comparison: Comparison, names: Sequence[str], you: int | None) -> None:
    """In every language: the parting block names each deciding option, and no row shows a
    refusal where its side had already gone its own way."""
    for lang in LANGS:
        tr = translator(lang)
        view = comparison_view(comparison, tr, names, you, "A", "B")
        for row, data in zip(comparison.rows, view["rows"], strict=True):
            for side, refusal, parted in (
                ("ours", row.ours, row.ours_parted),
                ("theirs", row.theirs, row.theirs_parted),
            ):
                if refusal is not None and parted:
                    assert data[f"{side}_after"] and data[side].startswith("—"), data  # type: ignore[literal-required]
        if comparison.parting is not None:
            parting = view["parting"]
            assert parting is not None
            block = parting_html(parting)
            for name in comparison.parting.options:
                assert option_name(name, tr) in block.replace("&#x27;", "'"), (lang, name)
            assert not RAW_IDS.search(block), block


# ------------------------------------------------------------------------ lessons


def _compare_steps() -> list[tuple[Lesson, int]]:
    return [
        (lesson, i)
        for lesson in LESSONS
        for i, step in enumerate(lesson.steps)
        if step.kind == "compare"
    ]


def _at_step(lesson: Lesson, index: int, lang: str = "en") -> LessonController:
    """A controller at step ``index`` (0-based) as a learner reaches it by clicks: resumed
    from the clean walk's record (tests/data/transcripts.json) instead of walking again."""
    controller = LessonController(lesson, I18n(lang))
    if index == 0:
        return controller
    states = transcript.shared().states(lesson.id)
    state = next((s for s in states if s["step"] == index), None)  # on arriving there
    assert state is not None, f"{lesson.id}: the clean walk never reaches step {index + 1}"
    assert controller.resume(state), state
    assert controller.index == index and controller.step is not None
    return controller


COMPARE_STEPS = _compare_steps()


def test_there_are_compare_steps_to_check() -> None:
    assert len(COMPARE_STEPS) >= 6


@pytest.mark.parametrize(
    ("lesson", "index"), COMPARE_STEPS, ids=[f"{le.id}-{i + 1}" for le, i in COMPARE_STEPS]
)
def test_lesson_comparisons_name_the_deciding_rule(lesson: Lesson, index: int) -> None:
    controller = _at_step(lesson, index)
    step = lesson.steps[index]
    comparison = controller.comparison
    assert comparison is not None
    game = controller.game
    ours, theirs = game.rules, step.rules or game.rules
    names = controller.names(translator("en"))
    check_rows(comparison, game.position(), game.players, names, controller.you)

    def reproduce(rules: Rules) -> Comparison:
        return compare_lesson(lesson, game, dataclasses.replace(step, rules=rules))

    parting = check_parting(comparison, reproduce, ours, theirs)
    assert parting is not None, "a compare step must show two rule sets that part ways"
    check_words(comparison, controller.names(translator("en")), controller.you)
    # the panel shows the parting and its rule
    panel = panel_view(controller)["comparison"]
    assert panel is not None and panel["parting"] is not None
    assert panel["parting"]["options"]


def _lesson_step(lesson_id: str, pick: Any) -> tuple[Lesson, int]:
    lesson = next(le for le in LESSONS if le.id == lesson_id)
    return lesson, next(i for i, s in enumerate(lesson.steps) if s.kind == "compare" and pick(s))


def _parting_at(lesson_id: str, pick: Any) -> tuple[LessonController, Parting]:
    lesson, index = _lesson_step(lesson_id, pick)
    controller = _at_step(lesson, index)
    assert controller.comparison is not None and controller.comparison.parting is not None
    return controller, controller.comparison.parting


def test_s4_five_cards_before_the_first_bito_closes_the_bout_already_on_screen() -> None:
    """S4: at most five attack cards until the first bito. Lesson 4's table holds five beaten
    pairs and an empty discard pile: under Durak Live that bout is already over. The comparison
    says so and names the rule, and the sixth card is a consequence, never "the table is
    empty" next to five pairs (issue 9)."""
    controller, parting = _parting_at("hand-cap", lambda s: s.preset == "durak_live_todos")
    assert len(controller.game.table) == 5
    assert parting.stage == "start" and parting.options == ("first_bout_cap",)
    assert parting.parted == ("theirs",)
    tr = translator("en")
    panel = panel_view(controller)["comparison"]
    assert panel is not None and panel["parting"] is not None
    row = panel["rows"][0]
    assert row["ours_ok"] and row["theirs_after"]
    assert row["theirs"] == tr.gettext("— (the bout had already ended there)")
    texts = " ".join(r["theirs"] for r in panel["rows"])
    assert "still empty" not in texts
    assert [o["name"] for o in panel["parting"]["options"]] == [option_name("first_bout_cap", tr)]
    theirs = panel["parting"]["options"][0]["theirs"]
    assert "5" in theirs and "6" in theirs


def test_s4_example_2_reading_closes_elenas_bout_when_she_beats_the_queen() -> None:
    """S4 Example 2 reads the limit against the defender's *current* hand (S1, S3: the hand
    when the bout began). Under that reading Elena's bout ends as soon as she beats the Q♠."""
    _, parting = _parting_at(
        "hand-cap", lambda s: s.rules is not None and s.rules.hand_cap.value == "current_hand"
    )
    assert parting.options == ("hand_cap",)
    assert parting.stage == "history" and parting.action == Action.parse("3:AS/QS")
    assert "theirs" in parting.parted and "ours" not in parting.parted


def test_s0_no_adding_after_a_take_ends_the_bout_at_the_take() -> None:
    """S0 makes adding after a take optional (S1, S2, S3 allow it). Without it Ana's «take»
    ends the bout: the comparison names that option, not an empty table."""
    controller, parting = _parting_at(
        "after-take", lambda s: s.rules is not None and not s.rules.throw_in_after_take
    )
    assert parting.options == ("throw_in_after_take",)
    assert parting.action is not None and parting.action.kind is ActionKind.TAKE
    panel = panel_view(controller)["comparison"]
    assert panel is not None
    assert all("still empty" not in r["theirs"] for r in panel["rows"])


def test_s4_vecinos_refuses_the_jack_and_names_who_may_add() -> None:
    """S4 «Vecinos»: only the attacker and the next defender add any rank on the table."""
    _, parting = _parting_at("who-throws-in", lambda s: s.preset == "durak_live_todos")
    assert parting.stage == "play" and parting.refused == "ours"
    assert parting.ours is not None and parting.ours.reason is Reason.ONLY_FIRST_RANK
    assert parting.options == ("throw_in_rights",)


def test_s3_neighbours_only_ends_the_bout_when_both_neighbours_pass() -> None:
    """S3: with five or more players only the defender's neighbours add; once Ana and Diana
    pass, the bout is over there, so the learner's 8♥ is a consequence."""
    _, parting = _parting_at("who-throws-in", lambda s: s.preset == "dame_karty")
    assert parting.stage == "play" and parting.index == 1 and parting.refused is None
    assert "neighbours_only_from" in parting.options
    assert parting.parted == ("theirs",)


def test_s0_previous_attacker_attacks_again_after_the_defender_goes_out() -> None:
    """S0 (footnote 9): when the defender goes out, the same attacker attacks again; S3: the
    next player still in. The parting is the bout that ended, not Bruno's lead."""
    _, parting = _parting_at("endgame", lambda s: s.preset == "wikihow_home")
    assert parting.options == ("attacker_after_defender_out",)
    assert parting.stage == "history" and parting.refused is None


# ------------------------------------------------------------------------ house rules


def _names(scenario: Scenario) -> tuple[list[str], int | None]:
    tr = translator("en")
    names = [tr.gettext(n) if n else you_label(tr) for n in scenario.players]
    return names, scenario.players.index("") if "" in scenario.players else None


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_house_rules_comparisons_never_explain_a_knock_on_effect(scenario: Scenario) -> None:
    """Every situation under every pair of presets (and B's switches) the page offers."""
    names, you = _names(scenario)
    parted = 0
    for pair in PAIRS:
        ours, theirs = pair_rules(pair)
        try:
            comparison = compare_position(scenario.position, ours, theirs, scenario.play)
        except (RulesError, ValueError):
            continue  # the page says these rule sets cannot play this situation
        check_rows(comparison, scenario.position, len(scenario.players), names, you)

        def reproduce(rules: Rules, ours: Rules = ours) -> Comparison:
            return compare_position(scenario.position, ours, rules, scenario.play)

        if check_parting(comparison, reproduce, ours, theirs) is not None:
            parted += 1
            if parted % 7 == 1:  # the wording in three languages, for a sample
                check_words(comparison, names, you)
    assert parted > 0


def test_s4_sixth_card_is_a_consequence_of_the_bout_that_closed_with_the_fifth() -> None:
    """The house-rules "sixth card" situation, Classic (S1, S3) against Durak Live «Todos»
    (S4): they part right after the fifth card is beaten, because of S4's five-card limit;
    the sixth card is refused there only as a consequence."""
    scenario = next(s for s in SCENARIOS if s.id == "sixth-card")
    ours, theirs = pair_rules(Pair("classic", "durak_live_todos"))
    comparison = compare_position(scenario.position, ours, theirs, scenario.play)
    parting = comparison.parting
    assert parting is not None and parting.stage == "play"
    assert parting.action == Action.parse("1:JC/9C") and parting.options == ("first_bout_cap",)
    last = comparison.rows[-1]
    assert last.ours is None and last.theirs is not None and last.theirs_parted


def test_house_rules_page_shows_the_parting_and_its_rule() -> None:
    """On the page: the parting block names the option, the later row is marked as a
    consequence, and no "table is empty" sits next to the cards just played (S4)."""
    tr = translator("en")
    app = HouseRulesApp("en")
    app.scenario.value = "sixth-card"
    app.left.value, app.right.value = "classic", "durak_live_todos"
    html = app.result.value.replace("&#x27;", "'")
    assert "durak-parting" in html
    assert option_name("first_bout_cap", tr) in html
    assert tr.gettext("— (the bout had already ended there)") in html
    assert "class='after'" in html
    assert "still empty" not in html


# ------------------------------------------------------------------------ option names


def test_every_rules_field_has_words() -> None:
    fields = [f.name for f in dataclasses.fields(Rules)]
    assert sorted(OPTION_FIELDS) == sorted(fields)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", OPTION_FIELDS)
def test_option_text_for_every_value(name: str, lang: str) -> None:
    tr, en = translator(lang), translator("en")
    texts = set()
    for value in option_values(name):
        for players in (None, 2, 4, 6):
            text = option_text(name, value, tr, players=players)
            assert text.strip() and "{" not in text and "}" not in text, text
            assert not RAW_IDS.search(text), text
            assert option_name(name, tr) in text
            if lang != "en":
                assert text != option_text(name, value, en, players=players), text
            texts.add(option_value(name, value, tr))
    # every value reads differently
    assert len(texts) == len(option_values(name))


def test_equal_values_of_different_options_read_differently() -> None:
    """``first_attacker`` and ``no_trump_fallback`` share the value "left_of_dealer"."""
    tr = translator("en")
    first = option_value("first_attacker", "left_of_dealer", tr)
    fallback = option_value("no_trump_fallback", "left_of_dealer", tr)
    assert first == tr.gettext("the player on the dealer's left")
    assert fallback == tr.gettext("the player on the dealer's left starts instead")


def test_option_text_takes_enum_members_and_their_strings() -> None:
    tr = translator("en")
    rules = PRESETS["durak_live_todos"].rules
    member = option_text("first_bout_cap", rules.first_bout_cap, tr, rules=rules)
    assert member == option_text("first_bout_cap", "until_first_discard", tr, rules=rules)
    assert "5" in member and "6" in member


def test_option_text_says_when_a_player_count_rule_does_not_apply() -> None:
    """S3: neighbours only from five players; with four it does not apply."""
    tr = translator("en")
    assert "does not apply" in option_value("neighbours_only_from", 5, tr, players=4)
    assert "does not apply" not in option_value("neighbours_only_from", 5, tr, players=5)


def test_option_text_refuses_an_unknown_field() -> None:
    with pytest.raises(KeyError):
        option_text("no_such_field", 1, translator("en"))
