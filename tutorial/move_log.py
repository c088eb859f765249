"""The move log of a game played freely, and the result at its end.

A :class:`MoveLog` records what happened as data (the engine's events and refusals, never
words), so it can be worded again in any language: :func:`log_lines` renders it for the
view, :func:`result_view` says who is the durak. Nothing here touches a widget.

Only what the learner may know goes in: the events of each move (the narration never names
the cards another seat draws) and the learner's own refused moves.

The log's size is bounded by the game, not by the page (issue 19, item 4): every move and
every event the engine reported is kept, but of a run of refused tries between two real moves
only the first :data:`MAX_TRIES` are (a page repeating wrong clicks, or forging them, would
grow the log, and every redraw, without bound). A try that is not kept is still explained to
the learner by the page's feedback; it just gets no line of its own. Entries are only ever
appended, except by :meth:`MoveLog.start` and :meth:`MoveLog.clear`, which count a new
:attr:`MoveLog.epoch`: a view may word only the entries it has not worded yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypedDict

from durak_core import Event, IllegalAction, Outcome, Rules

from .explain import explain, narrate
from .i18n import Gettext
from .names import Role, card_count, role_name

__all__ = [
    "MAX_TRIES",
    "EntryKind",
    "LogEntry",
    "LogLine",
    "MoveLog",
    "ResultRow",
    "ResultView",
    "log_lines",
    "result_view",
]

EntryKind = Literal["start", "move", "refused"]

MAX_TRIES: Final = 3
"""Refused tries kept in a row: after the last real move (or the start), at most this many."""


@dataclass(frozen=True)
class LogEntry:
    """One line of the log: how the game (or free play) began, a move and what followed it,
    or a move of the learner that the rules refused."""

    kind: EntryKind
    seat: int | None = None
    events: tuple[Event, ...] = ()
    refusal: IllegalAction | None = None


class MoveLog:
    """What happened in free play, in order: moves with their events, and refusals."""

    def __init__(self) -> None:
        self._entries: list[LogEntry] = []
        self._tries = 0
        self._epoch = 0

    @property
    def entries(self) -> tuple[LogEntry, ...]:
        return tuple(self._entries)

    def entries_from(self, start: int) -> tuple[LogEntry, ...]:
        """The entries from place ``start`` on (the newest ones): no copy of the others."""
        return tuple(self._entries[start:])

    @property
    def epoch(self) -> int:
        """Counts :meth:`start` and :meth:`clear`: while it is the same, entries were only
        appended."""
        return self._epoch

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self._tries = 0
        self._epoch += 1

    def start(self, events: Sequence[Event] = ()) -> None:
        """Begin a new log; ``events`` are what happened before the first move (a deal)."""
        self._entries = [LogEntry("start", events=tuple(events))]
        self._tries = 0
        self._epoch += 1

    def move(self, seat: int, events: Sequence[Event]) -> None:
        """``seat`` moved; ``events`` are what its move caused, the move's own event first."""
        self._entries.append(LogEntry("move", seat, tuple(events)))
        self._tries = 0

    def refused(self, seat: int, refusal: IllegalAction) -> bool:
        """The rules refused a move of ``seat`` (the learner's: the others never try one);
        ``True`` when it got a line. Not kept (``False``): the same refusal again right after
        the last one, and any try beyond the first :data:`MAX_TRIES` since the last move."""
        last = self._entries[-1] if self._entries else None
        if (
            last is not None
            and last.refusal is not None
            and last.seat == seat
            and _same(last.refusal, refusal)
        ):
            return False
        if self._tries >= MAX_TRIES:
            return False
        self._entries.append(LogEntry("refused", seat, refusal=refusal))
        self._tries += 1
        return True


def _same(a: IllegalAction, b: IllegalAction) -> bool:
    return a.reason is b.reason and a.action == b.action and a.params == b.params


class LogLine(TypedDict):
    """One log entry as the view shows it, in the current language."""

    key: int
    """Its place in the log (0 = first): stable across re-renders."""
    kind: EntryKind
    who: str
    """Whose move: a name, "You", or ``""`` for what the table does (the deal)."""
    you: bool
    label: str
    """A short tag shown before the text (``"Not allowed"`` on a refusal), or ``""``."""
    text: str
    after: list[str]
    """What the move caused: bito, the draw, who attacks next…"""


def log_lines(
    log: MoveLog,
    tr: Gettext,
    *,
    players: Sequence[str],
    you: int,
    rules: Rules | None = None,
    start: int = 0,
) -> list[LogLine]:
    """Every entry of ``log`` worded in ``tr``'s language; ``players`` names the seats
    (the learner's is "You"). From ``start`` on: only the entries from that place."""
    lines: list[LogLine] = []
    start = max(start, 0)
    for key, entry in enumerate(log.entries_from(start), start=start):
        said = [narrate(e, tr, players=players, you=you) for e in entry.events]
        said = [s for s in said if s]
        line: LogLine = {
            "key": key,
            "kind": entry.kind,
            "who": players[entry.seat] if entry.seat is not None else "",
            "you": entry.seat == you,
            "label": "",
            "text": "",
            "after": [],
        }
        if entry.kind == "start":
            line["text"] = (
                " ".join(said)
                if said
                else tr.gettext(
                    "You play on from the lesson's position. The others move by themselves."
                )
            )
        elif entry.kind == "move":
            line["text"] = said[0] if said else ""
            line["after"] = said[1:]
        elif entry.refusal is not None:
            line["label"] = tr.pgettext("feedback", "Not allowed")
            line["text"] = explain(entry.refusal, tr, players=players, you=you, rules=rules)
        lines.append(line)
    return lines


class ResultRow(TypedDict):
    """One player in the result table."""

    seat: int
    name: str
    you: bool
    place: str
    """"1", "2"… in the order they went out, or "Durak"."""
    durak: bool
    cards: str
    """Cards left in hand, e.g. "no cards", "3 cards"."""


class ResultView(TypedDict):
    """The end of a game: who is the durak (or a draw), and where everybody finished."""

    outcome: Literal["won", "lost", "draw"]
    """From the learner's side: ``won`` (not the durak), ``lost`` (the durak), ``draw``."""
    title: str
    text: str
    headers: list[str]
    rows: list[ResultRow]


def result_view(
    outcome: Outcome,
    hand_sizes: Sequence[int],
    tr: Gettext,
    *,
    players: Sequence[str],
    you: int,
) -> ResultView:
    """The result panel: the durak, the learner's place, and every player's cards left. In team
    play (S0, S2) the durak's whole team may lose (``outcome.losers``): each of them is marked."""
    durak = outcome.durak
    order = list(outcome.out_order)
    losers = set(outcome.losers) | ({durak} if durak is not None else set())
    durak_label = role_name(Role.DURAK, tr)
    rows: list[ResultRow] = []
    for place, seat in enumerate(order, start=1):
        rows.append(_row(seat, str(place), seat in losers, hand_sizes, tr, players, you))
    # seats neither out nor the durak: team-mates of the durak who lose with him (else none)
    for seat in range(len(players)):
        if seat not in order and seat != durak:
            label = durak_label if seat in losers else ""
            rows.append(_row(seat, label, seat in losers, hand_sizes, tr, players, you))
    if durak is not None:
        rows.append(_row(durak, durak_label, True, hand_sizes, tr, players, you))
    headers = [
        # TRANSLATORS: column of the result table: the order in which players went out.
        tr.pgettext("result", "Place"),
        # TRANSLATORS: column of the result table.
        tr.pgettext("result", "Player"),
        # TRANSLATORS: column of the result table: cards still in hand at the end.
        tr.pgettext("result", "Cards left"),
    ]
    if outcome.repeated:
        return {
            "outcome": "draw",
            "title": tr.gettext("A draw: nobody is the durak."),
            "text": tr.gettext(
                "The same position kept coming back, so the game ended in a draw: nobody "
                "loses, however many cards are left."
            ),
            "headers": headers,
            "rows": rows,
        }
    if durak is None:
        return {
            "outcome": "draw",
            "title": tr.gettext("A draw: nobody is the durak."),
            "text": tr.gettext(
                "The last players ran out of cards at the same time, so nobody is left holding any."
            ),
            "headers": headers,
            "rows": rows,
        }
    if len(losers) > 1:
        team = tr.format_list([players[seat] for seat in sorted(losers) if seat != you])
        if you in losers:
            return {
                "outcome": "lost",
                "title": tr.gettext("Your team loses this time."),
                "text": tr.gettext(
                    "You play in a team with {players}, and in team play the whole team of the "
                    "last player holding cards loses. Try again!",
                    players=team,
                ),
                "headers": headers,
                "rows": rows,
            }
        return {
            "outcome": "won",
            "title": tr.gettext("{players} lose as a team.", players=team),
            "text": tr.gettext(
                "In team play the whole team of the last player holding cards loses, and your "
                "team is safe."
            )
            if 0 <= you < len(players)
            else "",
            "headers": headers,
            "rows": rows,
        }
    if durak == you:
        return {
            "outcome": "lost",
            "title": tr.gettext("You are the durak this time."),
            "text": tr.ngettext(
                "You were the last one holding cards: {n} card left. Try again!",
                "You were the last one holding cards: {n} cards left. Try again!",
                hand_sizes[durak],
            ),
            "headers": headers,
            "rows": rows,
        }
    name = players[durak]
    if you in order:
        place = order.index(you) + 1
        text = (
            tr.gettext("You are safe: you went out first.")
            if len(players) == 2 or place == 1
            else tr.gettext(
                "You are safe: you went out in place {place} of {players}.",
                place=place,
                players=len(players),
            )
        )
    else:
        text = ""
    return {
        "outcome": "won",
        "title": tr.gettext("{player} is the durak.", player=name),
        "text": text,
        "headers": headers,
        "rows": rows,
    }


def _row(
    seat: int,
    place: str,
    durak: bool,
    hand_sizes: Sequence[int],
    tr: Gettext,
    players: Sequence[str],
    you: int,
) -> ResultRow:
    left = hand_sizes[seat] if seat < len(hand_sizes) else 0
    return {
        "seat": seat,
        "name": players[seat],
        "you": seat == you,
        "place": place,
        "durak": durak,
        # TRANSLATORS: a player's cards left at the end of the game, when none are left.
        "cards": card_count(left, tr) if left else tr.pgettext("result", "none"),
    }
