"""Comparisons: the same moves under two rule sets, and the rule that makes them part ways.

A ``compare`` step of a lesson and the house-rules page both show a small table: each move,
and whether each rule set allows it. Above all they say *where* the two rule sets part ways
and *which rule* decides it:

- the first point where the two games differ is found by replaying both in lockstep from the
  same start: the position itself (under the other rules the bout may already be over), a
  move played before (the lesson's history), or one of the compared moves. At a move they
  part when one rule set refuses it and the other allows it, or when both allow it but the
  games differ afterwards (one closes the bout, say);
- the deciding option is found by experiment, not by a table of cases: every field in
  :meth:`Rules.differences` is switched on its own, and the fields that reproduce the parting
  are named; when none does alone, the ones that are needed together;
- after the parting, a side that has gone its own way no longer explains a refusal by a rule:
  its game no longer matches the moves on screen, so the row says it is a consequence
  ("— (the bout had already ended there)"), never "the table is empty" next to a full table.

Everything is asked of the engine through its public API (``why_illegal``, ``play``,
``events``, ``position()``, ``Rules.replace`` and ``Rules.differences``).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from durak_core import (
    Action,
    ActionKind,
    Event,
    EventKind,
    Game,
    IllegalAction,
    Phase,
    Position,
    PositionError,
    Rules,
    RulesError,
)

from .explain import explain, narrate
from .i18n import Gettext
from .lessons import Lesson, Step, position_game
from .names import action_label, card_short
from .option_names import option_name, option_value

__all__ = [
    "Comparison",
    "ComparisonRow",
    "ComparisonView",
    "OptionView",
    "Parting",
    "PartingView",
    "RowView",
    "Side",
    "compare_lesson",
    "compare_position",
    "compare_rules",
    "comparison_rows",
    "comparison_view",
    "describe_action",
    "parting_html",
]

Side = Literal["ours", "theirs"]
Stage = Literal["start", "history", "play"]
Setup = Callable[[Rules], Game]
"""A fresh game at the comparison's starting position, under the given rules."""

_BOUT_ENDS = frozenset({EventKind.BITO, EventKind.PICK_UP})


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """One compared move under both rule sets: ``None`` means legal. ``*_parted``: that
    side's game had already gone its own way before this move, so its verdict is a knock-on
    effect of the parting, not a rule."""

    action: Action
    ours: IllegalAction | None
    theirs: IllegalAction | None
    ours_parted: bool = False
    theirs_parted: bool = False
    ours_events: tuple[Event, ...] = ()
    """What followed the move by itself on that side (the bout ending, the next bout)."""
    theirs_events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Parting:
    """The first point where the two rule sets part ways.

    ``stage``: ``"start"`` (the starting position itself), ``"history"`` (a move already
    played, ``index`` into the history) or ``"play"`` (a compared move, ``index`` into the
    rows). Either one side refuses ``action`` (``ours``/``theirs`` hold the refusals), or
    both allow it and the games differ afterwards: ``*_events`` are what happened on each
    side from the first event that differs, ``*_position`` the positions after it.
    """

    stage: Stage
    index: int
    action: Action | None
    ours: IllegalAction | None = None
    theirs: IllegalAction | None = None
    ours_events: tuple[Event, ...] = ()
    theirs_events: tuple[Event, ...] = ()
    ours_position: Position | None = None
    theirs_position: Position | None = None
    parted: tuple[Side, ...] = ()
    """The sides whose games no longer follow the moves on screen after this point."""
    options: tuple[str, ...] = ()
    """The :class:`Rules` fields that decide it."""
    alone: bool = True
    """Each option in ``options`` reproduces the parting on its own (``False``: only
    together)."""

    @property
    def refused(self) -> Side | None:
        """The side that refuses the move, when that is how they part."""
        if self.ours is not None and self.theirs is None:
            return "ours"
        if self.theirs is not None and self.ours is None:
            return "theirs"
        return None

    def same_as(self, other: Parting) -> bool:
        """Whether ``other`` is this parting, reached in the same way (the same side
        refusing for the same reason, or the same positions afterwards)."""
        if (self.stage, self.index, self.refused) != (other.stage, other.index, other.refused):
            return False
        if self.refused is not None:
            mine, theirs = self.ours or self.theirs, other.ours or other.theirs
            return mine is not None and theirs is not None and mine.reason is theirs.reason
        return (
            self.ours_position == other.ours_position
            and self.theirs_position == other.theirs_position
        )


@dataclass(frozen=True, slots=True)
class Comparison:
    """The same moves under the lesson's (or rule set A's) rules and another rule set."""

    preset: str
    rows: tuple[ComparisonRow, ...]
    parting: Parting | None = None
    ours_rules: Rules | None = None
    theirs_rules: Rules | None = None

    @property
    def first_difference(self) -> int | None:
        """The row where the two rule sets part ways (0 when they already parted before the
        compared moves); ``None`` when they agree throughout."""
        parting = self.parting
        if parting is None:
            return None
        return parting.index if parting.stage == "play" else 0


# ------------------------------------------------------------------------------ comparing


def compare_rules(
    setup: Setup,
    ours: Rules,
    theirs: Rules,
    play: Sequence[Action],
    label: str = "",
    *,
    history: Sequence[Action] = (),
    screen: Side | None = None,
    start_action: Action | None = None,
) -> Comparison:
    """Replay ``history`` and then ``play`` from ``setup(rules)`` under both rule sets, find
    where they part ways and which options decide it.

    ``screen``: the side the learner is looking at (a lesson shows its own game): it never
    counts as having gone its own way before the compared moves. ``start_action``: the move
    that led to the starting position, when it is not where the story began (a parting at
    the start is then reported as right after that move). Raises what ``setup`` raises when
    a rule set cannot set the position up (:class:`PositionError`, :class:`RulesError`).
    """
    rows, parting = _walk(setup(ours), setup(theirs), history, play, screen, start_action)
    if parting is not None:
        options, alone = _deciding(setup, ours, theirs, history, play, parting, start_action)
        parting = _with(parting, options=options, alone=alone)
    return Comparison(label, rows, parting, ours, theirs)


def compare_position(
    position: Mapping[str, Any],
    ours: Rules,
    theirs: Rules,
    play: Sequence[Action],
    label: str = "",
) -> Comparison:
    """The moves ``play`` from a position in lesson form, under two rule sets."""
    return compare_rules(lambda rules: position_game(rules, position), ours, theirs, play, label)


def compare_lesson(lesson: Lesson, game: Game, step: Step) -> Comparison:
    """A lesson's compare step: the moves so far (``game``'s history) replayed from the
    lesson's start under the lesson's rules and the step's other rules, then the step's moves.

    When the other rules could not even set up the lesson's starting position (Durak Live's
    Example 2 reading cannot hold five attack cards against a one-card defender), the
    comparison starts at the first later position they can: a bout's start, or else the
    position on screen.
    """
    ours, theirs = game.rules, step.rules or game.rules
    history = game.history
    start = 0
    setup: Setup = lambda rules: position_game(rules, lesson.position)  # noqa: E731
    try:
        setup(theirs)
    except (PositionError, RulesError):
        replay = lesson.start()
        for i, action in enumerate(history, 1):
            replay.play(action)
            if replay.phase is not Phase.LEAD and i < len(history):
                continue
            position = replay.position()
            try:
                position_game(theirs, position)
            except (PositionError, RulesError):
                continue
            start, setup = i, _from(position)
            break
        else:
            start, setup = len(history), _from(game.position())
    return compare_rules(
        setup,
        ours,
        theirs,
        step.play,
        step.preset,
        history=history[start:],
        screen="ours",
        start_action=history[start - 1] if start else None,
    )


def _from(position: Position) -> Setup:
    return lambda rules: position_game(rules, position)


def _walk(
    a: Game,
    b: Game,
    history: Sequence[Action],
    play: Sequence[Action],
    screen: Side | None,
    start_action: Action | None,
    *,
    until_parting: bool = False,
) -> tuple[tuple[ComparisonRow, ...], Parting | None]:
    """Both games through ``history`` then ``play``, in lockstep; an illegal move is skipped
    on that side, so after the parting the games may differ more and more."""
    rows: list[ComparisonRow] = []
    parting: Parting | None = None
    if a.position() != b.position() or a.events != b.events:
        parting = _position_parting("start", 0, None, a, b, 0, 0, screen, before=True)
        if start_action is not None:
            parting = _with(parting, stage="history", index=-1, action=start_action)
        if until_parting:
            return (), parting
    stages: tuple[tuple[Stage, Sequence[Action]], ...] = (("history", history), ("play", play))
    for stage, actions in stages:
        for i, action in enumerate(actions):
            parted = parting.parted if parting is not None else ()
            ra, rb = a.why_illegal(action), b.why_illegal(action)
            na, nb = a.event_count, b.event_count
            if ra is None:
                a.play(action)
            if rb is None:
                b.play(action)
            if stage == "play":
                rows.append(
                    ComparisonRow(
                        action,
                        ra,
                        rb,
                        "ours" in parted,
                        "theirs" in parted,
                        a.events[na + 1 :] if ra is None else (),
                        b.events[nb + 1 :] if rb is None else (),
                    )
                )
            if parting is not None:
                continue
            before = stage == "history"
            if (ra is None) != (rb is None):
                side: Side = "ours" if ra is not None else "theirs"
                parting = Parting(
                    stage, i, action, ra, rb, (), (), a.position(), b.position(), (side,)
                )
                if before and screen is not None and side == screen:
                    parting = _with(parting, parted=(_other(side),))
            elif ra is None and (a.position() != b.position() or a.events[na:] != b.events[nb:]):
                parting = _position_parting(stage, i, action, a, b, na, nb, screen, before)
            if parting is not None and until_parting:
                return tuple(rows), parting
    return tuple(rows), parting


def _position_parting(
    stage: Stage,
    index: int,
    action: Action | None,
    a: Game,
    b: Game,
    na: int,
    nb: int,
    screen: Side | None,
    before: bool,
) -> Parting:
    """Both games went on, but differently: what happened on each side since ``na``/``nb``."""
    ea, eb = a.events[na:], b.events[nb:]
    common = 0
    while common < min(len(ea), len(eb)) and ea[common] == eb[common]:
        common += 1
    ea, eb = ea[common:], eb[common:]
    # A side with nothing of its own simply went on as the moves on screen say.
    parted: tuple[Side, ...]
    if not ea and eb:
        parted = ("theirs",)
    elif ea and not eb:
        parted = ("ours",)
    else:
        parted = ("ours", "theirs")
    if before and screen is not None:
        parted = tuple(s for s in parted if s != screen) or (_other(screen),)
    return Parting(stage, index, action, None, None, ea, eb, a.position(), b.position(), parted)


def _other(side: Side) -> Side:
    return "theirs" if side == "ours" else "ours"


def _with(parting: Parting, **changes: Any) -> Parting:
    from dataclasses import replace

    return replace(parting, **changes)


def _deciding(
    setup: Setup,
    ours: Rules,
    theirs: Rules,
    history: Sequence[Action],
    play: Sequence[Action],
    parting: Parting,
    start_action: Action | None,
) -> tuple[tuple[str, ...], bool]:
    """The options that decide ``parting``: those that reproduce it when switched alone, or
    else those without which the other rule set would not reproduce it."""
    differences = ours.differences(theirs)

    def reproduces(other: Rules | None) -> bool:
        if other is None:
            return False
        try:
            a, b = setup(ours), setup(other)
        except (PositionError, RulesError):
            return False
        found = _walk(a, b, history, play, None, start_action, until_parting=True)[1]
        return found is not None and parting.same_as(found)

    alone = tuple(
        name for name, (_, value) in differences.items() if reproduces(_replace(ours, name, value))
    )
    if alone:
        return alone, True
    needed = tuple(
        name
        for name, (value, _) in differences.items()
        if not reproduces(_replace(theirs, name, value))
    )
    return needed or tuple(differences), False


def _replace(rules: Rules, name: str, value: object) -> Rules | None:
    try:
        return rules.replace(**{name: value})
    except RulesError:
        return None


# ------------------------------------------------------------------------------ wording


class RowView(TypedDict):
    """One compared move, worded. ``*_after``: that side's verdict is only a consequence of
    the parting (its game had already gone its own way)."""

    move: str
    ours: str
    theirs: str
    ours_ok: bool
    theirs_ok: bool
    ours_after: bool
    theirs_after: bool


class OptionView(TypedDict):
    """A deciding option: its name and its value under each rule set (named by its label)."""

    name: str
    ours_label: str
    ours: str
    theirs_label: str
    theirs: str


class PartingView(TypedDict):
    """Where the two rule sets part ways and why, worded."""

    where: str
    """"They part ways at move 3: …", "… already in this position, before the moves below"."""
    row: int | None
    """The row it happens at, when it happens at one of the compared moves."""
    happens: list[tuple[str, str]]
    """(rule set's name, what happens there), the side that differs first."""
    why: str
    """Introduces the options: "The rule that decides it:"."""
    options: list[OptionView]


class ComparisonView(TypedDict):
    """A comparison as a page shows it: headings, the parting, and every row."""

    ours: str
    theirs: str
    first_difference: int | None
    parting: PartingView | None
    rows: list[RowView]


def comparison_view(
    comparison: Comparison,
    tr: Gettext,
    names: Sequence[str],
    you: int | None,
    ours_label: str,
    theirs_label: str,
) -> ComparisonView:
    """``comparison`` in ``tr``'s language; ``names`` are the seats' names (localized)."""
    ours_rules = comparison.ours_rules or Rules()
    theirs_rules = comparison.theirs_rules or ours_rules
    parting = comparison.parting
    players = len(names)
    seat = you if you is not None else -1

    def verdict(
        refusal: IllegalAction | None, side: Side, after: bool, events: Sequence[Event]
    ) -> str:
        if refusal is None:
            then = _then(events, tr, names, you)
            if then:
                # TRANSLATORS: a compared move that is allowed and ends the bout by itself:
                # "allowed, and then: Bito! Bruno has beaten everything off…".
                return tr.gettext("allowed, and then: {events}", events=then)
            return tr.gettext("allowed")
        if after and parting is not None:
            return _consequence(parting, tr, side)
        rules = ours_rules if side == "ours" else theirs_rules
        return explain(refusal, tr, players=list(names), you=you, rules=rules)

    rows = [
        RowView(
            move=describe_action(row.action, tr, list(names), seat),
            ours=verdict(row.ours, "ours", row.ours_parted, row.ours_events),
            theirs=verdict(row.theirs, "theirs", row.theirs_parted, row.theirs_events),
            ours_ok=row.ours is None,
            theirs_ok=row.theirs is None,
            ours_after=row.ours_parted and row.ours is not None,
            theirs_after=row.theirs_parted and row.theirs is not None,
        )
        for row in comparison.rows
    ]
    view = None
    if parting is not None:
        labels: dict[Side, str] = {"ours": ours_label, "theirs": theirs_label}
        rules: dict[Side, Rules] = {"ours": ours_rules, "theirs": theirs_rules}
        view = PartingView(
            where=_where(parting, tr, names, seat),
            row=parting.index if parting.stage == "play" else None,
            happens=_happens(parting, tr, names, you, labels, rules),
            why=_why(parting, tr),
            options=[
                OptionView(
                    name=option_name(name, tr),
                    ours_label=ours_label,
                    theirs_label=theirs_label,
                    ours=option_value(
                        name, getattr(ours_rules, name), tr, players=players, rules=ours_rules
                    ),
                    theirs=option_value(
                        name, getattr(theirs_rules, name), tr, players=players, rules=theirs_rules
                    ),
                )
                for name in parting.options
            ],
        )
    return ComparisonView(
        ours=ours_label,
        theirs=theirs_label,
        first_difference=comparison.first_difference,
        parting=view,
        rows=rows,
    )


def _then(events: Sequence[Event], tr: Gettext, names: Sequence[str], you: int | None) -> str:
    """What a move brought about by itself, when it ended the bout: said in the row, so that
    the next row's verdict never contradicts the table the learner pictures."""
    if not any(e.kind in _BOUT_ENDS or e.kind is EventKind.GAME_OVER for e in events):
        return ""
    told = [e for e in events if e.kind is not EventKind.DRAW]
    return " ".join(t for e in told if (t := narrate(e, tr, players=list(names), you=you)))


def _where(parting: Parting, tr: Gettext, names: Sequence[str], you: int) -> str:
    move = describe_action(parting.action, tr, list(names), you) if parting.action else ""
    if parting.stage == "start":
        return tr.gettext(
            "They part ways already in this position, before the moves below are played."
        )
    if parting.stage == "history":
        if parting.refused is not None:
            return tr.gettext("They part ways earlier, at a move already played: {move}", move=move)
        return tr.gettext(
            "They part ways earlier, right after a move already played: {move}", move=move
        )
    if parting.refused is not None:
        return tr.gettext("They part ways at move {n}: {move}", n=parting.index + 1, move=move)
    return tr.gettext("They part ways right after move {n}: {move}", n=parting.index + 1, move=move)


def _happens(
    parting: Parting,
    tr: Gettext,
    names: Sequence[str],
    you: int | None,
    labels: Mapping[Side, str],
    rules: Mapping[Side, Rules],
) -> list[tuple[str, str]]:
    refused = parting.refused
    sides: list[Side] = ["theirs", "ours"]
    if refused == "ours" or (refused is None and parting.parted == ("ours",)):
        sides.reverse()
    out = []
    for side in sides:
        if refused is not None:
            refusal = parting.ours if side == "ours" else parting.theirs
            if refusal is None:
                text = tr.gettext("The move is allowed.")
            else:
                text = explain(refusal, tr, players=list(names), you=you, rules=rules[side])
        else:
            events = parting.ours_events if side == "ours" else parting.theirs_events
            # the refill is noise next to what decides the story, unless it is the story
            told = [e for e in events if e.kind is not EventKind.DRAW] or list(events)
            said = [narrate(e, tr, players=list(names), you=you) for e in told]
            text = " ".join(s for s in said if s)
            if not text:
                text = tr.gettext("The bout goes on.")
        out.append((labels[side], text))
    return out


def _why(parting: Parting, tr: Gettext) -> str:
    if not parting.alone:
        return tr.gettext("It takes these rules together:")
    if len(parting.options) == 1:
        return tr.gettext("The rule that decides it:")
    return tr.gettext("Each of these rules decides it on its own:")


def _consequence(parting: Parting, tr: Gettext, side: Side) -> str:
    """What a row says instead of a refusal on a side that had already gone its own way."""
    if parting.refused == side:
        if parting.stage == "play":
            # TRANSLATORS: in a comparison, instead of a refusal that only follows from an
            # earlier one under the same rules ("there": under that column's rules).
            return tr.gettext(
                "— (a knock-on effect: move {n} was refused there)", n=parting.index + 1
            )
        return tr.gettext("— (a knock-on effect: an earlier move was refused there)")
    mine = parting.ours_events if side == "ours" else parting.theirs_events
    other = parting.theirs_events if side == "ours" else parting.ours_events
    kinds = {e.kind for e in mine}
    if EventKind.GAME_OVER in kinds:
        return tr.gettext("— (the game had already ended there)")
    if kinds & _BOUT_ENDS:
        return tr.gettext("— (the bout had already ended there)")
    starts = [e.seat for e in mine if e.kind is EventKind.BOUT_START]
    if starts and starts != [e.seat for e in other if e.kind is EventKind.BOUT_START]:
        return tr.gettext("— (a different player attacks there)")
    return tr.gettext("— (a knock-on effect: the game had already gone differently there)")


def parting_html(view: PartingView) -> str:
    """The parting as an HTML block (shared by the lesson panel and the house-rules page):
    where, what happens under each rule set, and the deciding options with both values."""
    e = html.escape
    sides = "".join(
        f"<li><span class='durak-parting-side'>{e(label)}:</span> {e(text)}</li>"
        for label, text in view["happens"]
    )
    options = "".join(
        f"<dt>{e(option['name'])}</dt>"
        f"<dd><span class='durak-parting-side'>{e(option['ours_label'])}:</span> "
        f"{e(option['ours'])}</dd>"
        f"<dd><span class='durak-parting-side'>{e(option['theirs_label'])}:</span> "
        f"{e(option['theirs'])}</dd>"
        for option in view["options"]
    )
    return (
        "<div class='durak-parting durak-diverge' role='note'>"
        f"<p class='durak-parting-where'><strong>{e(view['where'])}</strong></p>"
        f"<ul class='durak-parting-sides'>{sides}</ul>"
        f"<p class='durak-parting-why'>{e(view['why'])}</p>"
        f"<dl class='durak-parting-options'>{options}</dl></div>"
    )


def comparison_rows(
    comparison: Comparison | None,
    step: Step | None,
    rules: Rules,
    names: list[str],
    you: int,
    tr: Gettext,
) -> ComparisonView | None:
    """A lesson step's comparison as the panel shows it, in ``tr``'s language."""
    if comparison is None:
        return None
    label = step.label if step is not None else ""
    if comparison.ours_rules is None:
        theirs = step.rules if step is not None and step.rules else rules
        comparison = Comparison(
            comparison.preset, comparison.rows, comparison.parting, rules, theirs
        )
    return comparison_view(
        comparison,
        tr,
        names,
        you,
        # TRANSLATORS: heading of the column that replays moves under the lesson's rules.
        tr.gettext("This lesson's rules"),
        # TRANSLATORS: heading of the column that replays the same moves under other rules
        # (used when a lesson does not name them).
        tr.gettext(label) if label else tr.gettext("Other rules"),
    )


def describe_action(action: Action, tr: Gettext, names: list[str], you: int) -> str:
    """A short localized description of an action, via the narration of its event."""
    card = action.card
    kinds = {
        ActionKind.LEAD: EventKind.LEAD,
        ActionKind.THROW: EventKind.THROW_IN,
        ActionKind.TAKE: EventKind.TAKE,
        ActionKind.PASS: EventKind.PASS,
    }
    if action.kind is ActionKind.BEAT and card is not None and action.target is not None:
        event = Event(EventKind.BEAT, action.seat, (card, action.target))
    elif action.kind is ActionKind.TRANSFER and card is not None:
        short = card_short(card, tr)
        if action.seat == you:
            return tr.gettext("You pass the attack on with {card}.", card=short)
        return tr.gettext(
            "{player} passes the attack on with {card}.", player=names[action.seat], card=short
        )
    elif action.kind is ActionKind.SWAP:
        if action.seat == you:
            return tr.gettext("You swap your lowest trump for the turned-up trump.")
        return tr.gettext(
            "{player} swaps the lowest trump for the turned-up trump.", player=names[action.seat]
        )
    elif action.kind in kinds:
        event = Event(kinds[action.kind], action.seat, (card,) if card else ())
    else:
        return action_label(action.kind, tr)
    return narrate(event, tr, players=names, you=you)
