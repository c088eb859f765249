"""Lessons as data: TOML files in ``tutorial/lessons/``, validated on load.

A lesson declares its rules (a preset and overrides), a starting position and a list of
steps. Every string a learner reads (``title``, ``summary``, ``teaches``, ``say``, ``hint``,
``explain``, ``question``, ``label``, ``note``, and the ``players``' names) is an English msgid
that the catalogs translate; the Babel extractor in :mod:`tutorial.babel_extract` collects
them. A sketch::

    id = "beating"
    order = 1
    title = "Cards, trumps and beating"
    summary = "Which card beats which."
    preset = "classic"
    players = ["Ana", ""]        # "" is the learner (spoken to as "you")
    you = 1
    show = [0]                   # hands shown face up besides the learner's

    [position]
    hands = ["9H 6C", "JH 6S 8C"]
    trump = "S"
    stock = "7D"
    turnup = "QS"

    [[steps]]
    kind = "auto"                # someone else's move, narrated
    play = "0:9H"

    [[steps]]
    kind = "move"                # the learner's move
    say = "Beat the nine of hearts."
    expect = ["1:JH/9H", "1:6S/9H"]
    hint = "A higher heart, or any trump."
    note = "Both work: the jack is a higher heart, and the six of spades is a trump."
    [[steps.wrong]]
    play = "1:8C/9H"
    explain = "A club is neither a heart nor a trump."

Step kinds: ``say`` (narration), ``auto`` (other seats' moves), ``move`` (the learner's move:
``expect`` a list of actions, or ``accept`` a kind such as ``"beat"`` or ``"any"``),
``question`` (``choices`` with ``label``, ``correct`` and ``explain``) and ``compare`` (replay
``play`` under another ``preset``/``rules`` from this step's position and show where the two
rule sets part ways; ``rules`` alone change the lesson's own rules, and ``label`` names the
other rule set for the learner, e.g. ``"Durak Live: five cards until the first bito"``).

A ``move`` step may ``expect`` several actions; the lesson must then work whichever one the
learner picks (the loader replays the rest of the lesson after each). Wrong answers are the
learner's own moves, written as the click makes them (a card of the attack's rank clicked in
perevodnoy is a transfer).

Errors are :class:`LessonError` s naming the file, the step and the field; they carry a
msgid and parameters so the tutorial can show them in the learner's language.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from durak_core import (
    Action,
    ActionKind,
    Game,
    IllegalAction,
    NotationError,
    PositionError,
    Reason,
    Rules,
    RulesError,
)

from .i18n import Gettext

__all__ = [
    "LESSON_DIR",
    "Choice",
    "Lesson",
    "LessonError",
    "Step",
    "WrongAnswer",
    "comparison_game",
    "load_lesson",
    "load_lessons",
    "parse_lesson",
]

LESSON_DIR: Final = Path(__file__).resolve().parent / "lessons"
StepKind = Literal["say", "auto", "move", "question", "compare"]
_STEP_KINDS: Final = ("say", "auto", "move", "question", "compare")
_ACCEPT: Final = ("any", *(k.value for k in ActionKind))
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


class LessonError(ValueError):
    """A lesson file that cannot be used. ``where`` names the file, step and field;
    ``problem`` is an English msgid with ``{placeholders}`` filled from ``params``."""

    def __init__(self, where: str, problem: str, **params: object) -> None:
        self.where = where
        self.problem = problem
        self.params = params
        super().__init__(f"{where}: {problem.format(**params)}")

    def describe(self, tr: Gettext) -> str:
        """The error in the learner's (or author's) language."""
        # TRANSLATORS: {where} names a lesson file, step and field; {problem} says what is wrong.
        return tr.gettext(
            "Lesson {where}: {problem}",
            where=self.where,
            problem=tr.gettext(self.problem, **self.params),
        )


@dataclass(frozen=True, slots=True)
class WrongAnswer:
    """A specific wrong move and what to say about it."""

    play: Action
    explain: str
    reason: str = ""
    """The engine's reason code this move must be refused with, or ``"allowed"`` for a legal
    move that the step does not ask for. Checked when the lesson loads."""


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    correct: bool
    explain: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson (see the module docstring for the kinds)."""

    kind: StepKind
    say: str = ""
    play: tuple[Action, ...] = ()
    expect: tuple[Action, ...] = ()
    accept: str = ""
    hint: str = ""
    note: str = ""
    wrong: tuple[WrongAnswer, ...] = ()
    question: str = ""
    choices: tuple[Choice, ...] = ()
    preset: str = ""
    rules: Rules | None = None
    label: str = ""
    """For ``compare``: how the other rule set is named to the learner (a msgid)."""


@dataclass(frozen=True, slots=True)
class Lesson:
    """A validated lesson."""

    id: str
    order: int
    title: str
    summary: str
    rules: Rules
    preset: str
    players: tuple[str, ...]
    """Names by seat; ``""`` for the learner's seat (and any seat named by the catalogs)."""
    you: int
    show: frozenset[int]
    position: Mapping[str, Any]
    steps: tuple[Step, ...]
    free_play: bool = True
    source: str = ""
    teaches: tuple[str, ...] = field(default=())

    def start(self, *, undo: bool = True) -> Game:
        """A new game at the lesson's starting position."""
        return _position_game(self.rules, self.position, undo=undo)

    @property
    def par(self) -> int:
        """Learner decisions in the lesson (moves and questions)."""
        return sum(1 for s in self.steps if s.kind in ("move", "question"))


# ---------------------------------------------------------------------------- parsing


def _position_game(rules: Rules, position: Mapping[str, Any], *, undo: bool = True) -> Game:
    pos = dict(position)
    table = [(a, d or None) for a, d in pos.pop("table", [])]
    known = {int(k): v for k, v in pos.pop("known", {}).items()}
    return Game.from_position(
        rules, pos.pop("hands"), table=table, known=known or None, undo=undo, **pos
    )


class _Reader:
    """Typed access to one TOML table, with errors that say where."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        self.data = data
        self.where = where

    def fail(self, key: str, problem: str, **params: object) -> LessonError:
        return LessonError(f"{self.where}, {key}" if key else self.where, problem, **params)

    def str(self, key: str, *, required: bool = False, default: str = "") -> str:
        value = self.data.get(key, None)
        if value is None:
            if required:
                raise self.fail(key, "this field is required")
            return default
        if not isinstance(value, str):
            raise self.fail(key, "expected text, found {found}", found=type(value).__name__)
        return value

    def int(self, key: str, default: int) -> int:
        value = self.data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(key, "expected a whole number, found {found}", found=repr(value))
        return value

    def bool(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(
                key,
                "expected {true} or {false}, found {found}",
                true="true",
                false="false",
                found=repr(value),
            )
        return value

    def table(self, key: str, *, required: bool = False) -> Mapping[str, Any]:
        value = self.data.get(key)
        if value is None:
            if required:
                raise self.fail(key, "this field is required")
            return {}
        if not isinstance(value, dict):
            raise self.fail(key, "expected a table, found {found}", found=type(value).__name__)
        return value

    def list(self, key: str) -> list[Any]:
        value = self.data.get(key, [])
        if isinstance(value, str | dict):
            return [value]
        if not isinstance(value, list):
            raise self.fail(key, "expected a list, found {found}", found=type(value).__name__)
        return value

    def actions(self, key: str) -> tuple[Action, ...]:
        result = []
        for item in self.list(key):
            if not isinstance(item, str):
                raise self.fail(key, "expected an action like {example}", example="1:10C/8C")
            try:
                result.append(Action.parse(item))
            except NotationError:
                raise self.fail(
                    key, "{text} is not an action (like {example})", text=item, example="1:10C/8C"
                ) from None
        return tuple(result)

    def unknown(self, allowed: Sequence[str]) -> None:
        for key in self.data:
            if key not in allowed and key != "comment":
                raise self.fail(
                    key, "unknown field (expected one of: {allowed})", allowed=", ".join(allowed)
                )


def _rules(reader: _Reader, preset_key: str = "preset") -> tuple[str, Rules]:
    preset = reader.str(preset_key, default="classic")
    overrides = dict(reader.table("rules"))
    try:
        base = Rules.preset(preset)
    except RulesError as exc:
        raise reader.fail(
            preset_key, "these rules are impossible: {error}", error=str(exc)
        ) from None
    try:
        return preset, base.replace(**overrides)
    except (RulesError, TypeError) as exc:
        raise reader.fail("rules", "these rules are impossible: {error}", error=str(exc)) from None


_STEP_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "say": ("kind", "say"),
    "auto": ("kind", "say", "play"),
    "move": ("kind", "say", "expect", "accept", "hint", "note", "wrong"),
    "question": ("kind", "say", "question", "choices", "hint"),
    "compare": ("kind", "say", "play", "preset", "rules", "label"),
}


def _step(data: Any, where: str, base: tuple[str, Rules]) -> Step:
    """One step; ``base`` is the lesson's (preset, rules), which a comparison's ``rules``
    change when it names no ``preset`` of its own."""
    if not isinstance(data, dict):
        raise LessonError(where, "a step must be a table")
    r = _Reader(data, where)
    kind = r.str("kind", required=True)
    if kind not in _STEP_KINDS:
        raise r.fail(
            "kind",
            "unknown kind {kind} (expected one of: {allowed})",
            kind=repr(kind),
            allowed=", ".join(_STEP_KINDS),
        )
    r.unknown(_STEP_FIELDS[kind])
    say = r.str("say", required=kind in ("say", "move", "compare"))
    if kind == "say":
        return Step("say", say=say)
    if kind == "auto":
        play = r.actions("play")
        if not play:
            raise r.fail("play", "this field is required")
        return Step("auto", say=say, play=play)
    if kind == "move":
        expect = r.actions("expect")
        accept = r.str("accept")
        if bool(expect) == bool(accept):
            raise r.fail(
                "expect",
                "give either {expect} (actions) or {accept} (a kind), not both or neither",
                expect="expect",
                accept="accept",
            )
        if accept and accept not in _ACCEPT:
            raise r.fail(
                "accept",
                "unknown kind {kind} (expected one of: {allowed})",
                kind=repr(accept),
                allowed=", ".join(_ACCEPT),
            )
        wrong = []
        for i, item in enumerate(r.list("wrong")):
            wr = _Reader(item if isinstance(item, dict) else {}, f"{where}, wrong {i + 1}")
            if not isinstance(item, dict):
                raise wr.fail(
                    "", "expected a table with {play} and {explain}", play="play", explain="explain"
                )
            wr.unknown(("play", "explain", "reason"))
            plays = wr.actions("play")
            if len(plays) != 1:
                raise wr.fail("play", "give exactly one action")
            reason = wr.str("reason")
            if reason and reason != "allowed" and reason not in {r.value for r in Reason}:
                raise wr.fail("reason", "unknown reason code {reason}", reason=repr(reason))
            wrong.append(WrongAnswer(plays[0], wr.str("explain", required=True), reason))
        return Step(
            "move",
            say=say,
            expect=expect,
            accept=accept,
            hint=r.str("hint"),
            note=r.str("note"),
            wrong=tuple(wrong),
        )
    if kind == "question":
        choices = []
        for i, item in enumerate(r.list("choices")):
            cr = _Reader(item if isinstance(item, dict) else {}, f"{where}, choice {i + 1}")
            if not isinstance(item, dict):
                raise cr.fail(
                    "",
                    "expected a table with {label}, {correct} and {explain}",
                    label="label",
                    correct="correct",
                    explain="explain",
                )
            cr.unknown(("label", "correct", "explain"))
            choices.append(
                Choice(cr.str("label", required=True), cr.bool("correct", False), cr.str("explain"))
            )
        if len(choices) < 2:
            raise r.fail("choices", "a question needs at least two choices")
        if not any(c.correct for c in choices):
            raise r.fail("choices", "at least one choice must be correct")
        return Step(
            "question",
            say=say,
            question=r.str("question", required=True),
            choices=tuple(choices),
            hint=r.str("hint"),
        )
    # compare
    play = r.actions("play")
    if not play:
        raise r.fail("play", "this field is required")
    if "preset" not in data and "rules" not in data:
        raise r.fail(
            "preset",
            "a comparison needs another {preset} or {rules}",
            preset="preset",
            rules="rules",
        )
    if "preset" in data:
        preset, rules = _rules(r)
    else:
        preset, lesson_rules = base
        try:
            rules = lesson_rules.replace(**r.table("rules"))
        except (RulesError, TypeError) as exc:
            raise r.fail("rules", "these rules are impossible: {error}", error=str(exc)) from None
    return Step("compare", say=say, play=play, preset=preset, rules=rules, label=r.str("label"))


_LESSON_FIELDS: Final = (
    "id",
    "order",
    "title",
    "summary",
    "teaches",
    "preset",
    "rules",
    "players",
    "you",
    "show",
    "free_play",
    "position",
    "steps",
)
_POSITION_FIELDS: Final = (
    "hands",
    "stock",
    "turnup",
    "trump",
    "attacker",
    "defender",
    "discard",
    "table",
    "taking",
    "out",
    "known",
    "bouts",
)


def parse_lesson(data: Mapping[str, Any], name: str = "<lesson>") -> Lesson:
    """A :class:`Lesson` from parsed TOML, checked against the engine (every scripted move is
    replayed); raises :class:`LessonError`."""
    r = _Reader(data, name)
    r.unknown(_LESSON_FIELDS)
    lesson_id = r.str("id", required=True)
    if not _ID.match(lesson_id):
        raise r.fail(
            "id", "use lowercase letters, digits and hyphens, not {id}", id=repr(lesson_id)
        )
    preset, rules = _rules(r)
    position = dict(r.table("position", required=True))
    pr = _Reader(position, f"{name}, position")
    pr.unknown(_POSITION_FIELDS)
    hands = position.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
        raise pr.fail("hands", "expected a list of hands, one text per seat")
    table = position.get("table", [])
    if not isinstance(table, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(c, str) for c in p) for p in table
    ):
        raise pr.fail(
            "table", "expected pairs like {example}", example='["8C", "10C"], ["10H", ""]'
        )
    try:
        game = _position_game(rules, position)
    except (PositionError, ValueError, TypeError) as exc:
        raise pr.fail("", "this position is impossible: {error}", error=str(exc)) from None
    players = r.list("players") or [""] * game.players
    if len(players) != game.players or not all(isinstance(p, str) for p in players):
        raise r.fail("players", "expected {n} names, one per hand", n=game.players)
    you = r.int("you", 0)
    if not 0 <= you < game.players:
        raise r.fail("you", "no seat {seat} in a game of {n}", seat=you, n=game.players)
    show = r.list("show")
    if not all(isinstance(s, int) and 0 <= s < game.players for s in show):
        raise r.fail("show", "expected seat numbers from 0 to {last}", last=game.players - 1)
    raw_steps = r.list("steps")
    if not raw_steps:
        raise r.fail("steps", "a lesson needs at least one step")
    steps = tuple(
        _step(s, f"{name}, step {i + 1}", (preset, rules)) for i, s in enumerate(raw_steps)
    )
    teaches = r.list("teaches")
    if not all(isinstance(t, str) for t in teaches):
        raise r.fail("teaches", "expected a list of texts")
    lesson = Lesson(
        id=lesson_id,
        order=r.int("order", 0),
        title=r.str("title", required=True),
        summary=r.str("summary", required=True),
        rules=rules,
        preset=preset,
        players=tuple(players),
        you=you,
        show=frozenset(show),
        position=position,
        steps=steps,
        free_play=r.bool("free_play", True),
        source=name,
        teaches=tuple(teaches),
    )
    _dry_run(lesson, game, name)
    return lesson


def _dry_run(lesson: Lesson, game: Game, name: str, start: int = 0, branch: str = "") -> None:
    """Replay the lesson: auto moves and expected moves must be legal in turn, and wrong
    answers must be refused for the reason they give. When a move step expects several
    actions, the rest of the lesson is replayed after each of them (``branch`` says which)."""
    for i in range(start, len(lesson.steps)):
        step = lesson.steps[i]
        where = f"{name}, step {i + 1}"
        after = f" (after {branch})" if branch else ""
        if step.kind == "auto":
            for action in step.play:
                _must_play(game, action, f"{where}, play{after}")
        elif step.kind == "move":
            for action in step.expect:
                if action.seat != lesson.you:
                    raise LessonError(
                        f"{where}, expect", "{action} is not the learner's move", action=str(action)
                    )
                refusal = game.why_illegal(action)
                if refusal is not None:
                    raise LessonError(
                        f"{where}, expect{after}",
                        "{action} is illegal here ({reason})",
                        action=str(action),
                        reason=refusal.reason.value,
                    )
            for wrong in step.wrong:
                if wrong.play.seat != lesson.you:
                    raise LessonError(
                        f"{where}, wrong",
                        "{action} is not the learner's move",
                        action=str(wrong.play),
                    )
                if wrong.play in step.expect:
                    raise LessonError(
                        f"{where}, wrong", "{action} is also expected", action=str(wrong.play)
                    )
                refusal = game.why_illegal(wrong.play)
                got = "allowed" if refusal is None else refusal.reason.value
                if branch and got == Reason.CARD_NOT_IN_HAND.value:
                    continue  # that card was played on this branch: the learner cannot click it
                if wrong.reason and got != wrong.reason:
                    raise LessonError(
                        f"{where}, wrong{after}",
                        "{action} should be refused with {expected}, but the engine says {got}",
                        action=str(wrong.play),
                        expected=wrong.reason,
                        got=got,
                    )
            if step.expect:
                for other in step.expect[1:]:
                    fork = game.copy(history=True)
                    fork.play(other)
                    _dry_run(lesson, fork, name, i + 1, f"step {i + 1}: {other}")
                game.play(step.expect[0])
            else:
                legal = [
                    a
                    for a in game.legal_actions()
                    if a.seat == lesson.you and (step.accept == "any" or a.kind == step.accept)
                ]
                if not legal:
                    raise LessonError(f"{where}, accept", "the learner has no such move here")
                game.play(legal[0])
        elif step.kind == "compare":
            try:
                for rules in (lesson.rules, step.rules or lesson.rules):
                    other = comparison_game(lesson, game, rules)
                    for action in step.play:
                        if other.is_legal(action):
                            other.play(action)
            except (PositionError, ValueError) as exc:
                raise LessonError(
                    f"{where}, rules", "this position is impossible: {error}", error=str(exc)
                ) from None


def comparison_game(lesson: Lesson, game: Game, rules: Rules) -> Game:
    """``game`` (a play of ``lesson``) as it would stand under ``rules``.

    The moves so far are replayed from the lesson's start, so the state keeps everything a
    position cannot say (who has passed, who got the lowest trump how, who drew the turned-up
    trump). If some move so far is illegal under ``rules``, the game starts afresh from the
    current position instead.
    """
    if rules == game.rules:
        return game.copy(history=True)
    try:
        other = _position_game(rules, lesson.position)
        for action in game.history:
            other.play(action)
        return other
    except (IllegalAction, PositionError):
        return _position_game(rules, _current_position(game))


def _must_play(game: Game, action: Action, where: str) -> None:
    try:
        game.play(action)
    except IllegalAction as exc:
        raise LessonError(
            where,
            "{action} is illegal here ({reason})",
            action=str(action),
            reason=exc.reason.value,
        ) from None


def _current_position(game: Game) -> dict[str, Any]:
    """The position of ``game`` in lesson form (for comparisons from the current step)."""
    s = game.state
    return {
        "hands": [" ".join(map(str, h)) for h in s.hands],
        "stock": " ".join(
            map(str, game.stock[:-1] if s.stock and s.stock[0] is s.turnup else game.stock)
        ),
        "turnup": str(s.turnup) if s.stock and s.stock[0] is s.turnup else None,
        "trump": s.trump.letter,
        "attacker": s.attacker,
        "defender": s.defender,
        "discard": " ".join(map(str, s.discard)),
        "table": [[str(a), str(d) if d else ""] for a, d in game.table],
        "taking": s.taking,
        "out": [i for i, a in enumerate(s.active) if not a],
        "bouts": s.bouts,
    }


def load_lesson(path: Path | str) -> Lesson:
    """Read and validate one lesson file."""
    path = Path(path)
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LessonError(
            name, "cannot read the file ({error})", error=exc.strerror or str(exc)
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(name, "not valid TOML ({error})", error=str(exc)) from None
    return parse_lesson(data, name)


def load_lessons(directory: Path | str = LESSON_DIR) -> list[Lesson]:
    """Every lesson in ``directory``, in order; ids must be unique."""
    lessons = [load_lesson(p) for p in sorted(Path(directory).glob("*.toml"))]
    seen: dict[str, str] = {}
    for lesson in lessons:
        if lesson.id in seen:
            raise LessonError(
                lesson.source,
                "id {id} is also used by {other}",
                id=lesson.id,
                other=seen[lesson.id],
            )
        seen[lesson.id] = lesson.source
    return sorted(lessons, key=lambda lesson: (lesson.order, lesson.id))
