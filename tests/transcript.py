"""Lesson transcripts: the tutorial's perft (see ``tests/data/transcripts.json``).

A transcript is what a learner does in one lesson, input by input, and what the lesson then
shows: the position (``Game.position().to_dict()``), the table widget's view, the lesson
panel's view, the feedback line (its kind, the refusal behind it, every message id it is
worded from with its parameters, and its English text), the move log's new lines and the
resume state. :func:`record_lesson` walks a lesson by clicks and records it; :func:`replay`
plays the recorded inputs on a fresh controller and yields what it sees, so that
``tests/test_transcripts.py`` can name the first input where anything differs.

Each lesson is walked up to three ways (:data:`WALKS`). The ``tries`` walk (:func:`walk`) is
one learner who tries everything a lesson lists: a card clicked before the lesson asks for a
move, another player's face-up card, every listed wrong answer of every move step (by the
clicks the table would send: a hand card, an attack card then a hand card, a button), every
wrong choice of every question, the panel's Hint on the first move step, the presenter's
"show all hands" on and off, Back once and the step redone, Next through every step; then
free play from the lesson's last position (the computer's moves one at a time, as the page
paces them), the table's Hint once, a few of the learner's moves, and Back out of free play.
The ``clean`` walk makes no slip (three stars); the ``branches`` walk tries every wrong answer
again on the other branches of steps that accept several moves.

Everything is worded in English (the catalogs' source language); the message ids keep the
feedback's meaning independent of its wording. ``script/make_transcripts.py`` writes the
file; only that script changes it, and a commit that changes it says why.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from durak_core import Action, ActionKind, Game, IllegalAction
from tutorial.controller import LessonController
from tutorial.i18n import Gettext, I18n
from tutorial.lesson_view import panel_view, table_view
from tutorial.lessons import LESSON_DIR, Lesson, load_lessons
from tutorial.move_log import log_lines

from .lesson_clicks import check_reachable, clicks_for, expected_action

__all__ = [
    "ABOUT",
    "DATA",
    "FORMAT",
    "WALKS",
    "Difference",
    "Transcripts",
    "dumps",
    "expand",
    "has_branches",
    "lessons",
    "load",
    "new_controller",
    "record_lesson",
    "replay",
    "resume_state",
    "resumed",
    "snapshot",
]

DATA: Final = Path(__file__).parent / "data" / "transcripts.json"
FORMAT: Final = 2
LANGUAGE: Final = "en"
SEED: Final = 0
"""The controller's seed: the free-play computer's and the Hint's random numbers."""
FREE_PLAY_MOVES: Final = 6
"""The learner's moves in free play after a lesson (the computer's in between)."""
_OPPONENT_LIMIT: Final = 400

ABOUT: Final = (
    "Lesson transcripts (tests/transcript.py): for each lesson, the inputs of up to three walks "
    "(clean, tries, branches: clicks on the table, panel buttons, answers, the computer's paced "
    "moves) and, after each, what changed in the snapshot: position.* (Position.to_dict()), "
    "table.* (table_view), panel.* (panel_view), resume.* (resume_state), feedback (kind, "
    "refusal, message ids with their parameters; '@n' is the text of call n) and log (the move "
    "log's new lines). 'set' holds the keys whose value changed since the previous input, "
    "'unset' the keys that went away; a card view is written once in 'cards' and then named by "
    "its id ('8S*selected' with its mark). Written by script/make_transcripts.py; never edit "
    "it by hand."
)

Input = dict[str, Any]
Snapshot = dict[str, Any]


def lessons() -> list[Lesson]:
    """The explainer's lessons, in order."""
    return load_lessons(LESSON_DIR)


def dumps(data: dict[str, Any]) -> str:
    """The file's text: one line per recorded input, so that a diff shows which inputs
    changed."""
    head = {k: v for k, v in data.items() if k != "lessons"}
    out = ["{"]
    out += [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    out.append('"lessons": [')
    for n, lesson in enumerate(data["lessons"]):
        out.append("{")
        for key in ("id", "source", "cards"):
            out.append(f"{json.dumps(key)}: {json.dumps(lesson[key], ensure_ascii=False)},")
        out.append('"walks": {')
        walks = lesson["walks"]
        for w, (kind, records) in enumerate(walks.items()):
            out.append(f"{json.dumps(kind)}: [")
            out += [
                json.dumps(r, ensure_ascii=False) + ("," if i + 1 < len(records) else "")
                for i, r in enumerate(records)
            ]
            out.append("]" + ("," if w + 1 < len(walks) else ""))
        out.append("}")
        out.append("}" + ("," if n + 1 < len(data["lessons"]) else ""))
    out.append("]")
    out.append("}")
    return "\n".join(out) + "\n"


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def new_controller(lesson: Lesson) -> LessonController:
    """A lesson page's controller, the computer's moves paced as the page paces them."""
    controller = LessonController(lesson, I18n(LANGUAGE), seed=SEED)
    controller.paced = True
    return controller


# --------------------------------------------------------------------------- feedback words


class _Recorder:
    """A :class:`~tutorial.i18n.Gettext` that notes every message id it is asked for, with
    its parameters, before wording it through ``tr``."""

    def __init__(self, tr: Gettext) -> None:
        self._tr = tr
        self.calls: list[list[Any]] = []
        self._said: list[str] = []

    @property
    def language(self) -> str:
        return self._tr.language

    def _note(self, ids: list[Any], params: dict[str, object], text: str) -> str:
        """Note a call; a parameter worded by an earlier call reads ``"@n"`` (call ``n``)."""
        earlier = {said: f"@{n}" for n, said in enumerate(self._said)}
        plain = {k: _plain(v) for k, v in sorted(params.items())}
        self.calls.append([*ids, {k: earlier.get(v, v) for k, v in plain.items()}])
        self._said.append(text)
        return text

    def gettext(self, message: str, /, **params: object) -> str:
        return self._note([message], params, self._tr.gettext(message, **params))

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return self._note(
            [singular, plural, n], params, self._tr.ngettext(singular, plural, n, **params)
        )

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        text = self._tr.pgettext(context, message, **params)
        if context == "name declension":
            return text  # a name's case forms (tutorial/people.py) belong to the name
        return self._note([f"{context}|{message}"], params, text)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        text = self._tr.npgettext(context, singular, plural, n, **params)
        return self._note([f"{context}|{singular}", plural, n], params, text)

    def format_list(self, items: Any, style: str = "standard") -> str:
        return self._tr.format_list(items, style)


def _plain(value: object) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _refusal(words: Callable[[Gettext], str]) -> IllegalAction | None:
    """The engine's refusal a feedback line explains, if any (the feedback keeps it in the
    function that words it)."""
    for cell in getattr(words, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(value, IllegalAction):
            return value
    return None


def feedback(controller: LessonController) -> dict[str, Any] | None:
    """The feedback line: kind, the refusal it explains (reason code and the engine's
    message) and the message ids it is worded from (its text is the table's
    ``message.text``)."""
    message = controller.message
    if message is None:
        return None
    kind, words = message
    recorder = _Recorder(controller.i18n)
    words(recorder)
    refusal = _refusal(words)
    return {
        "kind": kind,
        "reason": refusal.reason.value if refusal is not None else None,
        "refusal": refusal.message if refusal is not None else None,
        "ids": recorder.calls,
    }


# --------------------------------------------------------------------------- snapshots


def _json(value: Any) -> Any:
    """``value`` as it reads back from the JSON file (tuples become lists)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


class _LogReader:
    """The move log's lines added since the last look (all of them after a reset)."""

    def __init__(self) -> None:
        self._seen = 0
        self._epoch = -1

    def new_lines(self, controller: LessonController) -> list[dict[str, Any]]:
        log = controller.log
        if log.epoch != self._epoch:
            self._epoch, self._seen = log.epoch, 0
        tr = controller.i18n
        lines = log_lines(
            log,
            tr,
            players=controller.names(tr),
            you=controller.you,
            rules=controller.game.rules,
            start=self._seen,
        )
        self._seen = len(log)
        return [dict(line) for line in lines]


_CARD_KEYS: Final = frozenset({"id", "rank", "suit", "symbol", "red", "trump", "label"})


class _Cards:
    """A lesson's card views, each written out once: in a snapshot a card view reads
    ``"8S"`` (or ``"8S*selected"`` with its mark) when it is exactly the view the lesson's
    card table holds for that card. Recording adds each card's first view to the table;
    a replay reads the table from the transcript, so a card shown otherwise stays a whole
    view and differs."""

    def __init__(self, table: dict[str, Any] | None = None) -> None:
        self.recording = table is None
        self.table: dict[str, Any] = {} if table is None else table

    def short(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.short(item) for item in value]
        if not isinstance(value, dict):
            return value
        if _CARD_KEYS <= value.keys() <= _CARD_KEYS | {"mark"}:
            view = {k: v for k, v in value.items() if k != "mark"}
            known = self.table.get(view["id"])
            if known is None and self.recording:
                known = self.table[view["id"]] = view
            if known == view:
                mark = value.get("mark")
                return view["id"] if mark is None else f"{view['id']}*{mark}"
            return value
        return {k: self.short(v) for k, v in value.items()}


def snapshot(controller: LessonController, log: _LogReader, cards: _Cards) -> Snapshot:
    """Everything the lesson shows now, flat: ``section.key`` → value (JSON values, card
    views shortened by ``cards``)."""
    flat: Snapshot = {}
    sections = {
        "position": controller.game.position().to_dict(),
        "table": dict(table_view(controller)),
        "panel": dict(panel_view(controller)),
        "resume": controller.resume_state(),
    }
    for section, values in sections.items():
        _flatten(section, cards.short(_json(values)), flat)
    flat["feedback"] = feedback(controller)
    flat["log"] = cards.short(_json(log.new_lines(controller)))
    return flat


def _flatten(path: str, value: Any, into: Snapshot) -> None:
    """Down to the leaves, so that a card played or a seat's count changes one key: a
    dict's items are ``path.key``, a list's ``path.0``, ``path.1``…; an empty one is a
    leaf."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            _flatten(f"{path}.{key}", item, into)
    elif isinstance(value, list) and value:
        for number, item in enumerate(value):
            _flatten(f"{path}.{number}", item, into)
    else:
        into[path] = value


def _changes(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    changes: dict[str, Any] = {
        "set": {k: v for k, v in after.items() if k not in before or before[k] != v}
    }
    gone = [k for k in before if k not in after]
    if gone:
        changes["unset"] = gone
    return changes


def expand(records: list[dict[str, Any]]) -> Iterator[tuple[Input, Snapshot]]:
    """Each recorded input with the whole snapshot after it (the file keeps only changes)."""
    current: Snapshot = {}
    for record in records:
        current = {k: v for k, v in current.items() if k not in record.get("unset", ())}
        current.update(record["set"])
        yield record["do"], dict(current)


# --------------------------------------------------------------------------- inputs


def perform(controller: LessonController, do: Input) -> None:
    """One input, as the lesson page passes it on: a table click, a panel button, a
    question's answer, or the computer's next paced move."""
    if "click" in do:
        controller.click(do["click"])
    elif "answer" in do:
        controller.answer_question(do["answer"])
    elif "show_all" in do:
        controller.set_show_all(do["show_all"])
    elif do.get("opponent"):
        controller.opponent_step()
    else:
        button = do["panel"]
        handlers: dict[str, Callable[[], None]] = {
            "next": controller.next,
            "back": controller.back,
            "hint": controller.hint,
            "free_play": controller.continue_free_play,
            "restart": controller.restart,
            "play_again": controller.play_again,
        }
        handlers[button]()


WALKS: Final = ("clean", "tries", "branches")
"""The walks of each lesson: ``clean``, the expected moves and right answers only (three
stars); ``tries``, every listed wrong answer and everything else the module docstring lists;
``branches``, every listed wrong answer again on the branches a step with several expected
moves opens (its last expected move each time), recorded only for lessons that have such a
step."""


def has_branches(lesson: Lesson) -> bool:
    return any(len(step.expect) > 1 for step in lesson.steps)


def walk(controller: LessonController, do: Callable[[Input], None], kind: str = "tries") -> None:
    """Walk the lesson the ``kind`` way (:data:`WALKS`), passing each input to ``do`` (which
    performs it)."""
    tries = kind != "clean"
    tried: set[tuple[int, int]] = set()
    # the extras only the "tries" walk makes: each is done once
    done_extra = {"not_now", "seat_card", "hint", "show_all", "back"} if kind != "tries" else set()
    guard = 0

    def once(extra: str) -> bool:
        if extra in done_extra:
            return False
        done_extra.add(extra)
        return True

    while not controller.completed:
        guard += 1
        assert guard < 400, "the lesson does not end"
        step = controller.step
        assert step is not None
        hand = controller.game.hand(controller.you)
        if step.kind != "move" and hand and once("not_now"):
            do({"click": {"type": "card", "zone": "hand", "id": hand[0].ascii()}})
        shown = sorted(controller.visible_seats())
        if shown and controller.game.hand(shown[0]) and once("seat_card"):
            card = controller.game.hand(shown[0])[0]
            do({"click": {"type": "card", "zone": "seat", "id": card.ascii()}})
        if step.kind == "move" and not controller.step_done:
            if once("show_all"):
                do({"show_all": True})
                do({"show_all": False})
            for number, answer in enumerate(step.wrong if tries else ()):
                if (controller.index, number) in tried:
                    continue
                tried.add((controller.index, number))
                if answer.play.card is not None and answer.play.card not in hand:
                    continue  # a branch where that card was already played
                for click in clicks_for(controller, answer.play):
                    check_reachable(controller, click, wrong=True)
                    do({"click": click})
            if once("hint"):
                do({"panel": "hint"})
            if kind == "branches" and step.expect:
                legal = set(controller.learner_actions())
                move = next(a for a in reversed(step.expect) if a in legal)
            else:
                move = expected_action(controller, step)
            for click in clicks_for(controller, move):
                check_reachable(controller, click)
                do({"click": click})
        elif step.kind == "question" and not controller.step_done:
            for number, choice in enumerate(step.choices if tries else ()):
                if not choice.correct and (controller.index, number) not in tried:
                    tried.add((controller.index, number))
                    do({"answer": number})
            do({"answer": next(i for i, c in enumerate(step.choices) if c.correct)})
        assert controller.step_done, f"step {controller.index + 1} is not done"
        if step.kind == "move" and controller.index > 0 and once("back"):
            do({"panel": "back"})
            continue
        do({"panel": "next"})
    if kind == "tries" and controller.can_free_play():
        _free_play(controller, do)


def _free_play(controller: LessonController, do: Callable[[Input], None]) -> None:
    do({"panel": "free_play"})
    moves = 0
    advised = False
    for _ in range(_OPPONENT_LIMIT):
        if controller.game.outcome is not None or moves >= FREE_PLAY_MOVES:
            break
        if controller.opponents_pending():
            do({"opponent": True})
            continue
        if controller.may_keep_deal():
            do({"click": {"type": "action", "id": "keep"}})
            continue
        if not advised and controller.can_advise():
            advised = True
            do({"click": {"type": "action", "id": "hint"}})
        legal = [a for a in controller.learner_actions() if a.kind is not ActionKind.SWAP]
        assert legal, "free play: the learner has nothing to do"
        for click in clicks_for(controller, legal[0]):
            check_reachable(controller, click)
            do({"click": click})
        moves += 1
    do({"panel": "back"})


# --------------------------------------------------------------------------- record, replay


def record_lesson(lesson: Lesson) -> dict[str, Any]:
    """Walk ``lesson`` each way of :data:`WALKS` that applies and record every input with
    what changed after it."""
    cards = _Cards()
    walks: dict[str, list[dict[str, Any]]] = {}
    for kind in WALKS:
        if kind == "branches" and not has_branches(lesson):
            continue
        walks[kind] = _record_walk(lesson, kind, cards)
    return {
        "id": lesson.id,
        "source": Path(lesson.source).name,
        "cards": cards.table,
        "walks": walks,
    }


def _record_walk(lesson: Lesson, kind: str, cards: _Cards) -> list[dict[str, Any]]:
    controller = new_controller(lesson)
    log = _LogReader()
    records: list[dict[str, Any]] = []
    before: Snapshot = {}

    def note(do: Input) -> None:
        nonlocal before
        after = snapshot(controller, log, cards)
        records.append({"do": _json(do), **_changes(before, after)})
        before = after

    note({"open": True})

    def do(step: Input) -> None:
        perform(controller, step)
        note(step)

    walk(controller, do, kind)
    return records


class Difference(AssertionError):
    """A replayed input showed something else than the transcript."""


def replay(lesson: Lesson, transcript: dict[str, Any], kind: str) -> Iterator[tuple[int, Input]]:
    """Play the inputs of a lesson transcript's walk ``kind`` on a fresh controller,
    comparing the whole snapshot after each; raises :class:`Difference` naming the first
    input and key that differ. Yields ``(number, input)`` after each input that matched."""
    controller = new_controller(lesson)
    log, cards = _LogReader(), _Cards(transcript["cards"])
    for number, (do, expected) in enumerate(expand(transcript["walks"][kind])):
        if "open" not in do:
            perform(controller, do)
        actual = snapshot(controller, log, cards)
        if actual != expected:
            raise Difference(_describe(f"{lesson.id}, {kind}", number, do, expected, actual))
        yield number, do


def _describe(walk: str, number: int, do: Input, expected: Snapshot, actual: Snapshot) -> str:
    keys = sorted(k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k))
    lines = [f"{walk} walk: input #{number} {json.dumps(do)} differs in {', '.join(keys)}"]
    for key in keys[:4]:
        lines.append(f"  {key}:")
        lines.append(f"    transcript: {_short(expected.get(key, '<absent>'))}")
        lines.append(f"    now:        {_short(actual.get(key, '<absent>'))}")
    lines.append(
        "If the change is intended, run script/make_transcripts.py and say why in the commit."
    )
    return "\n".join(lines)


def _short(value: Any, limit: int = 600) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------- reading


class Transcripts:
    """The transcript file, read once (the ``transcripts`` fixture in ``tests/conftest.py``
    serves one per test session): each walk's snapshots, and the games they played."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        data = load() if data is None else data
        self.lessons: dict[str, dict[str, Any]] = {entry["id"]: entry for entry in data["lessons"]}
        self._walks: dict[tuple[str, str], list[tuple[Input, Snapshot]]] = {}

    def walks(self, lesson_id: str) -> list[str]:
        return list(self.lessons[lesson_id]["walks"])

    def walk(self, lesson_id: str, kind: str = "clean") -> list[tuple[Input, Snapshot]]:
        """Each input of the walk with the whole snapshot after it."""
        key = (lesson_id, kind)
        if key not in self._walks:
            self._walks[key] = list(expand(self.lessons[lesson_id]["walks"][kind]))
        return self._walks[key]

    def states(self, lesson_id: str, kind: str = "clean") -> list[dict[str, Any]]:
        """The resume state after each input of the walk (where a learner's page stood)."""
        return [resume_state(after) for _, after in self.walk(lesson_id, kind)]

    def final(self, lesson_id: str, kind: str = "clean") -> Snapshot:
        return self.walk(lesson_id, kind)[-1][1]

    def game(self, lesson: Lesson, kind: str = "clean") -> Game:
        """The game the walk ended with: the lesson's position and the actions its last
        resume state lists, played again through the engine."""
        game = lesson.start()
        for action in resume_state(self.final(lesson.id, kind))["actions"]:
            game.play(Action.parse(action))
        return game


@functools.cache
def shared() -> Transcripts:
    """One :class:`Transcripts` per test process: the ``transcripts`` fixture's, and the one
    module-level helpers read."""
    return Transcripts()


def resume_state(snapshot: Snapshot) -> dict[str, Any]:
    """The resume state a snapshot holds (its ``resume.*`` keys put together again)."""
    state: dict[str, Any] = {}
    lists: dict[str, dict[int, Any]] = {}
    for key, value in snapshot.items():
        if not key.startswith("resume."):
            continue
        name, *index = key.removeprefix("resume.").split(".")
        if index:
            lists.setdefault(name, {})[int(index[0])] = value
        else:
            state[name] = value
    for name, items in lists.items():
        state[name] = [items[i] for i in sorted(items)]
    return state


def resumed(lesson: Lesson, cards: dict[str, Any], state: dict[str, Any]) -> Snapshot | None:
    """What a fresh page shows after resuming ``state`` (``None`` when it refuses it), in a
    transcript's snapshot form (``cards``: that lesson's card table)."""
    controller = new_controller(lesson)
    if not controller.resume(state):
        return None
    return snapshot(controller, _LogReader(), _Cards(cards))
