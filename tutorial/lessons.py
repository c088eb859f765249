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
    claims = ["only 1:JH/9H"]    # what the text says the rules allow, checked on load
    [[steps.wrong]]
    play = "1:8C/9H"
    explain = "A club is neither a heart nor a trump."
    reason = "cannot_beat"       # the engine's refusal, checked on load
    [[steps.wrong]]
    play = "1:QS/9H"             # a legal move: reason = "allowed", and how to show it
    explain = "Allowed, but it spends your best trump."
    reason = "allowed"
    feedback = "costly"          # "detour" (the default: legal, sensible, not this step's
    costs_star = true            # point; never costs) or "costly" (say why; costs a star
                                 # only with costs_star = true, where the lesson says so)

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

A wrong answer whose ``reason`` is a refusal code is shown as "illegal" (the rule and its
numbers; a mistake); ``feedback`` and ``costs_star`` are only for ``reason = "allowed"``. A
legal move that is not listed is a "detour".

Any step may list ``claims``: what its text says a seat can or cannot do at the moment the step
begins (before an ``auto`` step's move). The loader checks each one against the engine's legal
moves, so "you have nothing to add" can never be said while a card fits (see :class:`Claim`):
``no_throw``, ``no_beat``, ``cannot_beat_all``, ``no_transfer``, ``no_swap``, ``must_take``
(about the learner, or ``"2:must_take"`` about seat 2), ``"only 1:QS/9S"`` and
``"refused 2:+QD cap_reached"``.

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
    Card,
    Game,
    IllegalAction,
    NotationError,
    Position,
    PositionError,
    Reason,
    Rules,
    RulesError,
)
from durak_core.position import KEYWORDS

from .i18n import Gettext

__all__ = [
    "CLAIMS",
    "FEEDBACK",
    "LESSON_DIR",
    "Choice",
    "Claim",
    "Lesson",
    "LessonError",
    "Step",
    "WrongAnswer",
    "comparison_game",
    "load_lesson",
    "load_lessons",
    "parse_lesson",
    "position_game",
]

LESSON_DIR: Final = Path(__file__).resolve().parent / "lessons"
StepKind = Literal["say", "auto", "move", "question", "compare"]
_STEP_KINDS: Final = ("say", "auto", "move", "question", "compare")
_ACCEPT: Final = ("any", *(k.value for k in ActionKind))
FEEDBACK: Final = ("illegal", "detour", "costly")
"""How a listed wrong answer is shown: refused by the rules, a legal detour, or legal but
costly. Lesson files write ``feedback = "detour"`` or ``"costly"`` (see :class:`WrongAnswer`)."""
CLAIMS: Final = ("no_throw", "no_beat", "cannot_beat_all", "no_transfer", "no_swap", "must_take")
"""The claims a step may make about one seat (see :class:`Claim`), besides ``only`` and
``refused``."""
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
    feedback: str = ""
    """``"illegal"`` (refused by the rules), ``"detour"`` (allowed, not this step's point) or
    ``"costly"`` (allowed but it costs something, e.g. the last trump). Left empty, it follows
    from ``reason``: ``"illegal"`` for a refusal code, else ``"detour"``."""
    costs_star: bool = False
    """Whether a ``"costly"`` move counts as a mistake (only where the lesson says so)."""

    def __post_init__(self) -> None:
        refused = self.reason not in ("", "allowed")
        if not self.feedback:
            object.__setattr__(self, "feedback", "illegal" if refused else "detour")
        if self.feedback not in FEEDBACK or (self.feedback == "illegal") != refused:
            raise ValueError(f"feedback {self.feedback!r} does not fit reason {self.reason!r}")
        if self.costs_star and self.feedback != "costly":
            raise ValueError("costs_star is only for costly moves")


@dataclass(frozen=True, slots=True)
class Claim:
    """Something a step's text says the rules allow or forbid, checked by the loader against
    the engine's legal moves when the step begins (before an ``auto`` step's move).

    Written in a step's ``claims`` list: ``"no_throw"`` (nothing to add), ``"no_beat"``
    (nothing beats any unbeaten card), ``"cannot_beat_all"`` (the unbeaten cards can't all be
    beaten), ``"no_transfer"`` (no passing the attack on, by laying a card down or, in S2's
    Flash, by showing a trump), ``"no_swap"``, ``"must_take"`` (taking is the only way out),
    each about the learner or, with a seat prefix (``"2:must_take"``), about that seat;
    ``"only 1:QS/9S"``: the listed actions are exactly the legal moves of their seat and kind
    (for a beat, against that attack card); and ``"refused 2:+QD cap_reached"``: the engine
    refuses that action (for that reason, if one is given).
    """

    text: str
    name: str
    seat: int | None = None
    actions: tuple[Action, ...] = ()
    reason: str = ""


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
    claims: tuple[Claim, ...] = ()
    """What the step's text says the rules allow or forbid (see :class:`Claim`)."""
    hide_roles: bool = False
    """For ``question``: the table hides the role badges (who attacks, who defends) until
    the question is answered, when they would give the answer away."""


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
        return position_game(self.rules, self.position, undo=undo)

    @property
    def par(self) -> int:
        """Learner decisions in the lesson (moves and questions)."""
        return sum(1 for s in self.steps if s.kind in ("move", "question"))


# ---------------------------------------------------------------------------- parsing


def position_game(
    rules: Rules, position: Position | Mapping[str, Any], *, undo: bool = True
) -> Game:
    """A game set up from a :class:`Position`, or from a position in lesson form (the keyword
    form that ``Position.to_dict()`` writes; cards as text)."""
    if isinstance(position, Position):
        return Game.from_position(rules, position, undo=undo)
    pos = dict(position)
    table = [(a, d or None) for a, d in pos.pop("table", [])]
    return Game.from_position(rules, pos.pop("hands"), table=table, undo=undo, **pos)


class _Reader:
    """Typed access to one TOML table, with errors that say where."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        self.data = data
        self.where = where

    def fail(self, key: str, problem: str, **params: object) -> LessonError:
        return LessonError(f"{self.where}, {key}" if key else self.where, problem, **params)

    def text(self, key: str, *, required: bool = False, default: str = "") -> str:
        value = self.data.get(key, None)
        if value is None:
            if required:
                raise self.fail(key, "this field is required")
            return default
        if not isinstance(value, str):
            raise self.fail(key, "expected text, found {found}", found=type(value).__name__)
        return value

    def number(self, key: str, default: int) -> int:
        value = self.data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(key, "expected a whole number, found {found}", found=repr(value))
        return value

    def flag(self, key: str, default: bool) -> bool:
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

    def items(self, key: str) -> list[Any]:
        value = self.data.get(key, [])
        if isinstance(value, str | dict):
            return [value]
        if not isinstance(value, list):
            raise self.fail(key, "expected a list, found {found}", found=type(value).__name__)
        return value

    def actions(self, key: str) -> tuple[Action, ...]:
        result = []
        for item in self.items(key):
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
    preset = reader.text(preset_key, default="classic")
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
    "say": ("kind", "say", "claims"),
    "auto": ("kind", "say", "play", "claims"),
    "move": ("kind", "say", "expect", "accept", "hint", "note", "wrong", "claims"),
    "question": ("kind", "say", "question", "choices", "hint", "claims", "hide_roles"),
    "compare": ("kind", "say", "play", "preset", "rules", "label", "claims"),
}


def _claims(r: _Reader) -> tuple[Claim, ...]:
    """A step's ``claims``: ``"no_throw"``, ``"2:must_take"``, ``"only 1:QS/9S"``…"""
    claims = []
    for item in r.items("claims"):
        if not isinstance(item, str):
            raise r.fail("claims", "expected a list of texts")
        head, _, rest = item.strip().partition(" ")
        if head == "only":
            actions = _Reader({"claims": rest.split()}, r.where).actions("claims")
            shapes = {(a.seat, a.kind, a.target) for a in actions}
            if not actions or len(shapes) != 1:
                raise r.fail(
                    "claims",
                    "{claim}: list one or more moves of one seat and one kind",
                    claim=repr(item),
                )
            claims.append(Claim(item, "only", actions[0].seat, actions))
            continue
        if head == "refused":
            action_text, _, reason = rest.strip().partition(" ")
            refused = _Reader({"claims": action_text}, r.where).actions("claims")
            if len(refused) != 1 or (reason and reason not in {c.value for c in Reason}):
                raise r.fail(
                    "claims",
                    "{claim}: give one move and, if you like, the engine's reason code",
                    claim=repr(item),
                )
            claims.append(Claim(item, "refused", refused[0].seat, refused, reason.strip()))
            continue
        seat_text, colon, name = head.rpartition(":")
        if rest or name not in CLAIMS or (colon and not seat_text.isdigit()):
            raise r.fail(
                "claims",
                "unknown claim {claim} (expected one of: {allowed})",
                claim=repr(item),
                allowed=", ".join((*CLAIMS, "only", "refused")),
            )
        claims.append(Claim(item, name, int(seat_text) if colon else None))
    return tuple(claims)


def _wrong_answer(item: Any, where: str) -> WrongAnswer:
    """One ``[[steps.wrong]]`` entry."""
    wr = _Reader(item if isinstance(item, dict) else {}, where)
    if not isinstance(item, dict):
        raise wr.fail(
            "", "expected a table with {play} and {explain}", play="play", explain="explain"
        )
    wr.unknown(("play", "explain", "reason", "feedback", "costs_star"))
    plays = wr.actions("play")
    if len(plays) != 1:
        raise wr.fail("play", "give exactly one action")
    reason = wr.text("reason")
    if reason and reason != "allowed" and reason not in {r.value for r in Reason}:
        raise wr.fail("reason", "unknown reason code {reason}", reason=repr(reason))
    for key in ("feedback", "costs_star"):
        if key in item and reason != "allowed":
            raise wr.fail(
                key,
                "only a legal move has this field: give {reason} = {allowed}, or remove it",
                reason="reason",
                allowed='"allowed"',
            )
    feedback = wr.text("feedback", default="detour" if reason == "allowed" else "")
    if feedback and feedback not in FEEDBACK[1:]:
        raise wr.fail(
            "feedback",
            "unknown feedback {feedback} (expected one of: {allowed})",
            feedback=repr(feedback),
            allowed=", ".join(FEEDBACK[1:]),
        )
    costs_star = wr.flag("costs_star", False)
    if costs_star and feedback != "costly":
        raise wr.fail(
            "costs_star",
            "only a costly move can cost a star: add {feedback} = {costly}",
            feedback="feedback",
            costly='"costly"',
        )
    return WrongAnswer(plays[0], wr.text("explain", required=True), reason, feedback, costs_star)


def _step(data: Any, where: str, base: tuple[str, Rules]) -> Step:
    """One step; ``base`` is the lesson's (preset, rules), which a comparison's ``rules``
    change when it names no ``preset`` of its own."""
    if not isinstance(data, dict):
        raise LessonError(where, "a step must be a table")
    r = _Reader(data, where)
    kind = r.text("kind", required=True)
    if kind not in _STEP_KINDS:
        raise r.fail(
            "kind",
            "unknown kind {kind} (expected one of: {allowed})",
            kind=repr(kind),
            allowed=", ".join(_STEP_KINDS),
        )
    r.unknown(_STEP_FIELDS[kind])
    say = r.text("say", required=kind in ("say", "move", "compare"))
    claims = _claims(r)
    if kind == "say":
        return Step("say", say=say, claims=claims)
    if kind == "auto":
        play = r.actions("play")
        if not play:
            raise r.fail("play", "this field is required")
        return Step("auto", say=say, play=play, claims=claims)
    if kind == "move":
        expect = r.actions("expect")
        accept = r.text("accept")
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
        wrong = [
            _wrong_answer(item, f"{where}, wrong {i + 1}")
            for i, item in enumerate(r.items("wrong"))
        ]
        return Step(
            "move",
            say=say,
            expect=expect,
            accept=accept,
            hint=r.text("hint"),
            note=r.text("note"),
            wrong=tuple(wrong),
            claims=claims,
        )
    if kind == "question":
        choices = []
        for i, item in enumerate(r.items("choices")):
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
                Choice(
                    cr.text("label", required=True), cr.flag("correct", False), cr.text("explain")
                )
            )
        if len(choices) < 2:
            raise r.fail("choices", "a question needs at least two choices")
        if not any(c.correct for c in choices):
            raise r.fail("choices", "at least one choice must be correct")
        return Step(
            "question",
            say=say,
            question=r.text("question", required=True),
            choices=tuple(choices),
            hint=r.text("hint"),
            claims=claims,
            hide_roles=r.flag("hide_roles", False),
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
    return Step(
        "compare",
        say=say,
        play=play,
        preset=preset,
        rules=rules,
        label=r.text("label"),
        claims=claims,
    )


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
_POSITION_FIELDS: Final = KEYWORDS


def parse_lesson(data: Mapping[str, Any], name: str = "<lesson>") -> Lesson:
    """A :class:`Lesson` from parsed TOML, checked against the engine (every scripted move is
    replayed); raises :class:`LessonError`."""
    r = _Reader(data, name)
    r.unknown(_LESSON_FIELDS)
    lesson_id = r.text("id", required=True)
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
        game = position_game(rules, position)
    except (PositionError, ValueError, TypeError) as exc:
        raise pr.fail("", "this position is impossible: {error}", error=str(exc)) from None
    players = r.items("players") or [""] * game.players
    if len(players) != game.players or not all(isinstance(p, str) for p in players):
        raise r.fail("players", "expected {n} names, one per hand", n=game.players)
    you = r.number("you", 0)
    if not 0 <= you < game.players:
        raise r.fail("you", "no seat {seat} in a game of {n}", seat=you, n=game.players)
    show = r.items("show")
    if not all(isinstance(s, int) and 0 <= s < game.players for s in show):
        raise r.fail("show", "expected seat numbers from 0 to {last}", last=game.players - 1)
    raw_steps = r.items("steps")
    if not raw_steps:
        raise r.fail("steps", "a lesson needs at least one step")
    steps = tuple(
        _step(s, f"{name}, step {i + 1}", (preset, rules)) for i, s in enumerate(raw_steps)
    )
    teaches = r.items("teaches")
    if not all(isinstance(t, str) for t in teaches):
        raise r.fail("teaches", "expected a list of texts")
    lesson = Lesson(
        id=lesson_id,
        order=r.number("order", 0),
        title=r.text("title", required=True),
        summary=r.text("summary", required=True),
        rules=rules,
        preset=preset,
        players=tuple(players),
        you=you,
        show=frozenset(show),
        position=position,
        steps=steps,
        free_play=r.flag("free_play", True),
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
        for claim in step.claims:
            _check_claim(game, claim, lesson.you, f"{where}, claims{after}")
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
                for alternative in step.expect[1:]:
                    fork = game.copy(history=True)
                    fork.play(alternative)
                    _dry_run(lesson, fork, name, i + 1, f"step {i + 1}: {alternative}")
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


def _full_defence(game: Game, seat: int) -> list[Action] | None:
    """Beats that cover every unbeaten attack card at once, if ``seat``'s hand has them."""
    unbeaten = [a for a, d in game.table if d is None]

    def cover(i: int, hand: tuple[Card, ...]) -> list[Action] | None:
        if i == len(unbeaten):
            return []
        for card in hand:
            beat = Action.beat(seat, card, unbeaten[i])
            if game.is_legal(beat):
                rest = cover(i + 1, tuple(c for c in hand if c != card))
                if rest is not None:
                    return [beat, *rest]
        return None

    return cover(0, game.hand(seat))


def _check_claim(game: Game, claim: Claim, you: int, where: str) -> None:
    """Raise a :class:`LessonError` unless ``claim`` holds for the engine in ``game``."""
    seat = you if claim.seat is None else claim.seat
    if not 0 <= seat < game.players:
        raise LessonError(where, "no seat {seat} in a game of {n}", seat=seat, n=game.players)
    legal = game.legal_actions().for_seat(seat)
    text = repr(claim.text)

    def false(actions: Sequence[Action]) -> LessonError:
        return LessonError(
            where,
            "the text claims {claim}, but the engine allows {actions}",
            claim=text,
            actions=", ".join(map(str, actions)),
        )

    if claim.name == "only":
        first = claim.actions[0]
        moves = [
            a
            for a in legal
            if a.kind is first.kind and (first.target is None or a.target == first.target)
        ]
        if not moves:
            raise LessonError(
                where,
                "the text claims {claim}, but the engine allows no such move here",
                claim=text,
            )
        if set(moves) != set(claim.actions):
            raise false(moves)
        return
    if claim.name == "refused":
        refusal = game.why_illegal(claim.actions[0])
        if refusal is None:
            raise false(claim.actions)
        if claim.reason and refusal.reason.value != claim.reason:
            raise LessonError(
                where,
                "the text claims {claim}, but the engine refuses it with {got}",
                claim=text,
                got=refusal.reason.value,
            )
        return
    if claim.name == "no_swap":
        if Action.swap(seat) in legal:
            raise false([Action.swap(seat)])
        return
    if claim.name == "no_throw":
        if not game.is_legal(Action.pass_(seat)):
            raise LessonError(
                where,
                "the claim {claim} says nothing here: seat {seat} may not add cards now",
                claim=text,
                seat=seat,
            )
        throws = [a for a in legal if a.kind is ActionKind.THROW]
        if throws:
            raise false(throws)
        return
    if not game.defending(seat):
        raise LessonError(
            where,
            "the claim {claim} says nothing here: seat {seat} is not defending now",
            claim=text,
            seat=seat,
        )
    # passing the attack on includes showing a trump (S2's Flash)
    kinds = {
        "no_beat": (ActionKind.BEAT,),
        "no_transfer": (ActionKind.TRANSFER, ActionKind.FLASH),
        "must_take": (ActionKind.BEAT, ActionKind.TRANSFER, ActionKind.FLASH),
    }.get(claim.name, ())
    found = [a for a in legal if a.kind in kinds]
    if found:
        raise false(found)
    if claim.name == "must_take":
        refusal = game.why_illegal(Action.take(seat))
        if refusal is not None:
            raise LessonError(
                where,
                "the text claims {claim}, but {action} is illegal here ({reason})",
                claim=text,
                action=str(Action.take(seat)),
                reason=refusal.reason.value,
            )
    if claim.name == "cannot_beat_all":
        cover = _full_defence(game, seat)
        if cover is not None:
            raise false(cover)


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
        other = position_game(rules, lesson.position)
        for action in game.history:
            other.play(action)
        return other
    except (IllegalAction, PositionError):
        return position_game(rules, game.position())


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
    cached = _PARSED.get((name, text))
    if cached is not None:
        return cached
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(name, "not valid TOML ({error})", error=str(exc)) from None
    lesson = parse_lesson(data, name)
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[(name, text)] = lesson
    return lesson


# Every page build reads the lessons (the index lists them, a lesson links its neighbours):
# a file whose text has not changed is not parsed and checked again. Lessons are frozen.
_PARSED: dict[tuple[str, str], Lesson] = {}
_PARSED_MAX: Final = 256


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
