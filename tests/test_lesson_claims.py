"""What a lesson's text claims about the rules ("you have nothing to add", "he can't beat the
six", "only one of your cards…") is checked against the engine's legal moves when the lesson
loads: a step lists its claims (``claims = ["no_throw"]``) and the loader's dry run refuses a
lesson whose claim the engine contradicts. See :class:`tutorial.lessons.Claim`."""

from __future__ import annotations

import re
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from durak_core import Action, ActionKind, Game
from tutorial.i18n import translator
from tutorial.lessons import (
    CLAIMS,
    Claim,
    Lesson,
    LessonError,
    load_lesson,
    load_lessons,
    parse_lesson,
)

LESSONS = load_lessons()
IDS = [lesson.id for lesson in LESSONS]
BAD = Path(__file__).parent / "data" / "bad_lessons"

#: Phrases by which a step's own text says what a seat can or cannot do now.
CLAIM_WORDS = re.compile(
    r"nothing (more )?to add|can't beat (the|them|it)\b|no \w+ to pass on|only one of your cards"
    r"|the one rank you may add",
    re.IGNORECASE,
)


# ----------------------------------------------------------------------------- the shipped lessons


def _walk(lesson: Lesson) -> list[tuple[int, Game]]:
    """The game as each step with claims begins, along the lesson's main line."""
    game = lesson.start()
    seen = []
    for i, step in enumerate(lesson.steps):
        if step.claims:
            seen.append((i, game.copy(history=True)))
        if step.kind == "auto":
            for action in step.play:
                game.play(action)
        elif step.kind == "move":
            if step.expect:
                game.play(step.expect[0])
            else:
                game.play(
                    next(
                        a
                        for a in game.legal_actions().for_seat(lesson.you)
                        if step.accept == "any" or a.kind.value == step.accept
                    )
                )
    return seen


def _full_defence_exists(game: Game, seat: int) -> bool:
    unbeaten = [a for a, d in game.table if d is None]
    hand = game.hand(seat)
    return any(
        all(game.is_legal(Action.beat(seat, c, t)) for c, t in zip(cards, unbeaten, strict=True))
        for cards in permutations(hand, len(unbeaten))
    )


def _holds(game: Game, claim: Claim, you: int) -> bool:
    """The claim's meaning, worked out here independently of the loader."""
    seat = you if claim.seat is None else claim.seat
    legal = game.legal_actions().for_seat(seat)
    kinds = {a.kind for a in legal}
    if claim.name == "only":
        first = claim.actions[0]
        same = {a for a in legal if a.kind is first.kind and a.target == first.target}
        return same == set(claim.actions)
    if claim.name == "refused":
        refusal = game.why_illegal(claim.actions[0])
        return refusal is not None and claim.reason in ("", refusal.reason.value)
    if claim.name == "no_throw":
        return ActionKind.PASS in kinds and ActionKind.THROW not in kinds
    if claim.name == "no_swap":
        return ActionKind.SWAP not in kinds
    assert game.defending(seat), claim
    if claim.name == "no_beat":
        return ActionKind.BEAT not in kinds
    if claim.name == "no_transfer":
        return ActionKind.TRANSFER not in kinds
    if claim.name == "must_take":
        return kinds == {ActionKind.TAKE}
    assert claim.name == "cannot_beat_all", claim
    return not _full_defence_exists(game, seat)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_claim_in_the_shipped_lessons_holds(lesson: Lesson) -> None:
    for index, game in _walk(lesson):
        for claim in lesson.steps[index].claims:
            assert _holds(game, claim, lesson.you), f"step {index + 1}: {claim.text}"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_steps_that_say_what_cannot_be_done_carry_a_claim(lesson: Lesson) -> None:
    """A step whose own words say what a seat can or can't do now lists that as a claim, so
    the loader checks it (questions about other situations are not claims about this one)."""
    for i, step in enumerate(lesson.steps, 1):
        if step.kind != "question" and CLAIM_WORDS.search(f"{step.say} {step.hint}"):
            assert step.claims, f"step {i}: {step.say or step.hint}"


def test_the_lessons_make_claims_of_every_kind_they_need() -> None:
    names = {c.name for lesson in LESSONS for s in lesson.steps for c in s.claims}
    assert {"no_throw", "must_take", "no_transfer", "cannot_beat_all", "only", "refused"} <= names


def test_lesson_6_no_longer_says_nothing_to_add_with_a_jack_in_hand() -> None:
    """Issue 9: lesson 6 (S0's swap) once said "nothing to add" while the learner held the J♣
    with a jack on the table. Its Done step now comes where the claim holds."""
    lesson = next(lesson for lesson in LESSONS if lesson.id == "trump-swap")
    ((_, game),) = [(i, g) for i, g in _walk(lesson) if lesson.steps[i].kind == "move"]
    ranks = {card.rank for pair in game.table for card in pair if card}
    assert not any(card.rank in ranks for card in game.hand(lesson.you))


# ----------------------------------------------------------------------------- rejected claims


def test_a_false_claim_is_rejected_with_a_clear_error() -> None:
    with pytest.raises(LessonError) as info:
        load_lesson(BAD / "false-claim.toml")
    error = info.value
    assert error.where == "false-claim.toml, step 2, claims"
    assert str(error) == (
        "false-claim.toml, step 2, claims: the text claims 'no_throw', but the engine allows 1:+JC"
    )
    assert "el motor permite 1:+JC" in error.describe(translator("es"))
    assert "движок разрешает 1:+JC" in error.describe(translator("ru"))


def _lesson(
    claims: list[str], *, hands: list[str], table: list[list[str]] | None = None, **extra: Any
) -> dict[str, Any]:
    """A two-player lesson (S1/S3 classic rules) whose one step makes ``claims``."""
    rules = extra.pop("rules", {})
    position: dict[str, Any] = {"hands": hands, "trump": "S", **extra}
    if table is not None:
        position["table"] = table
    return {
        "id": "claims",
        "title": "Claims",
        "summary": "A claim about the rules.",
        "players": ["Ana", ""],
        "you": 1,
        "rules": rules,
        "position": position,
        "steps": [{"kind": "say", "say": "Look.", "claims": claims}],
    }


def _check(data: dict[str, Any]) -> str | None:
    """The loader's verdict: None, or the error's English text."""
    try:
        parse_lesson(data, "claims.toml")
    except LessonError as error:
        return str(error)
    return None


# A 9♥ attacks the learner (seat 1), spades are trumps: S0–S3's beating rule (higher card of
# the suit, or any trump; a trump only by a higher trump).
DEFENDING = [["9H", ""]]
CASES = [
    # (claims, learner's hand, table, extra position/rules, holds)
    (["no_beat"], "8C 7D", DEFENDING, {}, True),
    (["no_beat"], "JH 8C", DEFENDING, {}, False),
    (["must_take"], "8C 7D", DEFENDING, {}, True),
    (["must_take"], "6S 8C", DEFENDING, {}, False),
    (["cannot_beat_all"], "JH 8D", [["9H", ""], ["9C", ""]], {}, True),
    (["cannot_beat_all"], "JH 10C", [["9H", ""], ["9C", ""]], {}, False),
    (["only 1:JH/9H"], "JH 8C", DEFENDING, {}, True),
    (["only 1:JH/9H"], "JH QH", DEFENDING, {}, False),
    (["refused 1:8C/9H cannot_beat"], "JH 8C", DEFENDING, {}, True),
    (["refused 1:JH/9H"], "JH 8C", DEFENDING, {}, False),
    (["no_throw"], "7D 8C", [["9H", "JH"]], {"attacker": 1, "defender": 0}, True),
    (["no_throw"], "7D JC", [["9H", "JH"]], {"attacker": 1, "defender": 0}, False),
]


@pytest.mark.parametrize(("claims", "hand", "table", "extra", "holds"), CASES)
def test_each_kind_of_claim_is_checked_against_the_engine(
    claims: list[str], hand: str, table: list[list[str]], extra: dict[str, Any], holds: bool
) -> None:
    opponent = "7C QD KC" if extra.get("attacker") == 1 else "7C QD"
    error = _check(_lesson(claims, hands=[opponent, hand], table=table, **extra))
    if holds:
        assert error is None
    else:
        assert error is not None and error.startswith("claims.toml, step 1, claims: the text")


def test_transfer_and_swap_claims() -> None:
    """Perevodnoy (S1, S2): a defender holding the attack's rank may pass it on; S0's swap:
    the holder of the lowest trump may exchange it for the turned-up card."""
    base = {"hands": ["7C 10C", "9D 8C"], "table": [["9H", ""]], "rules": {"transfer": True}}
    assert "engine allows 1:>9D" in str(_check(_lesson(["no_transfer"], **base)))
    base["hands"] = ["7C 10C", "JD 8C"]
    assert _check(_lesson(["no_transfer"], **base)) is None
    swap = {"hands": ["7C 10C", "6S 8C"], "stock": "7H", "turnup": "KS"}
    data = _lesson(["no_swap"], **swap)
    data["preset"] = "wikihow_home"
    assert "engine allows 1:swap" in str(_check(data))
    data["preset"] = "classic"
    assert _check(data) is None


def test_flash_counts_as_passing_the_attack_on() -> None:
    """S2's Flash: showing a trump passes the attack on too, so "no transfer" and "must take"
    are false while a trump of the attack's rank may be shown, even when laying a card down
    would not fit (Ana holds one card: room to show, none to lay down)."""
    flash = {"transfer": True, "flash": True}
    base = {"hands": ["7C", "9S 8C"], "table": [["9H", ""]], "rules": flash}
    assert "engine allows 1:!9S" in str(_check(_lesson(["no_transfer"], **base)))
    base["rules"] = {"transfer": True}
    assert _check(_lesson(["no_transfer"], **base)) is None
    shown = {"hands": ["7C", "9S 8C"], "table": [["9H", ""]], "rules": flash, "flashed": "9S"}
    assert _check(_lesson(["no_transfer", "refused 1:!9S flash_already_shown"], **shown)) is None
    hearts = {"hands": ["7C 10C QD", "9D 8C"], "table": [["9H", ""]], "rules": flash}
    assert _check(_lesson(["refused 1:!9D flash_not_trump", "must_take"], **hearts)) is not None
    assert _check(_lesson(["refused 1:!9D flash_not_trump"], **hearts)) is None


def test_a_claim_that_says_nothing_here_is_refused() -> None:
    """ "Nothing to add" while it is not the learner's turn to add proves nothing."""
    error = _check(_lesson(["no_throw"], hands=["7C 10C", "8C 7D"], table=DEFENDING))
    assert error is not None and "says nothing here: seat 1 may not add cards now" in error
    error = _check(_lesson(["0:no_beat"], hands=["7C 10C", "8C 7D"], table=DEFENDING))
    assert error is not None and "seat 0 is not defending now" in error


@pytest.mark.parametrize(
    ("claim", "problem"),
    [
        ("no_nothing", "unknown claim 'no_nothing'"),
        ("x:no_throw", "unknown claim 'x:no_throw'"),
        ("only 1:JH/9H 1:take", "list one or more moves of one seat and one kind"),
        ("refused 1:JH/9H not_a_reason", "give one move and, if you like"),
    ],
)
def test_malformed_claims_say_what_is_wrong(claim: str, problem: str) -> None:
    error = _check(_lesson([claim], hands=["7C 10C", "JH 8C"], table=DEFENDING))
    assert error is not None and error.startswith("claims.toml, step 1, claims: ")
    assert problem in error


def test_every_claim_name_is_documented() -> None:
    doc = Claim.__doc__ or ""
    assert all(f'"{name}"' in doc for name in CLAIMS)
    assert '"only 1:QS/9S"' in doc and '"refused 2:+QD cap_reached"' in doc
