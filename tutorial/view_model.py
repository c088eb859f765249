"""The view model: one JSON-ready snapshot of everything the card table shows.

The controller builds a :class:`TableView` (all text already in the learner's language) and
the table widget draws it; a redraw is one message carrying one snapshot. The view never
applies a rule: it shows what the snapshot says and reports clicks back as :class:`Click`.

Card ids are the engine's ASCII notation (``"10H"``, ``"QS"``); zones are ``"hand"`` (the
learner's hand), ``"table"`` (an attack card on the table) and ``"seat"`` (another player's
face-up hand, in lessons that show it).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

__all__ = [
    "ActionButton",
    "CardView",
    "Click",
    "Message",
    "PairView",
    "SeatView",
    "TableView",
]


class CardView(TypedDict):
    """A face-up card."""

    id: str
    """Engine notation, e.g. ``"10H"``: what a click sends back."""
    rank: str
    """Rank as printed in the corner, localized (``"10"``, ``"J"``; Russian ``"В"``)."""
    suit: Literal["C", "D", "H", "S"]
    symbol: str
    """``"♣"``, ``"♦"``, ``"♥"`` or ``"♠"``."""
    red: bool
    trump: bool
    label: str
    """Accessible name in the current language, e.g. ``"diez de corazones (triunfo)"``."""
    mark: NotRequired[Literal["", "playable", "hint", "explain", "selected", "new"]]
    """``playable``: legal now (shown when hints are on); ``hint``: the suggested card;
    ``explain``: the card an explanation is about; ``selected``: picked, waiting for a target;
    ``new``: just played or drawn (a short highlight)."""


class PairView(TypedDict):
    """An attack card and the card beating it, if any."""

    attack: CardView
    defence: CardView | None
    selectable: bool
    """The learner may click this attack card to choose it as the one to beat."""


class SeatView(TypedDict):
    """One player around the table."""

    seat: int
    name: str
    count: int
    count_label: str
    """Localized card count, e.g. ``"5 cartas"``, ``"1 карта"``."""
    role: Literal["attacker", "defender", "thrower", "out", "durak", "loser", ""]
    role_label: str
    """Localized role badge, e.g. ``"ataca"``, ``"defiende"``, ``"fuera"``. ``loser``: a
    team-mate of the durak, who loses with him (team play); ``""`` also while a question
    about the roles is unanswered (a lesson's ``hide_roles``)."""
    you: bool
    acting: bool
    """It is (also) this player's turn now."""
    cards: NotRequired[list[CardView]]
    """Present only when the lesson shows this hand face up, and for every hand left once
    the game is over."""
    team: NotRequired[int]
    """Team play (S0, S2): the seat's team, 0, 1 or 2 (a coloured marker)."""
    team_label: NotRequired[str]
    """The marker's accessible text, e.g. ``"Team 1"``; for a team-mate of the defender it
    also says that he adds no cards in this bout."""


class ActionButton(TypedDict):
    """A button of the table, e.g. take, done (pass), swap."""

    id: Literal["take", "pass", "swap", "transfer", "flash", "redeal", "keep", "hint"]
    """``flash``: show the held trump to pass the attack on (S2); ``redeal``: ask for a new
    deal (a misdealt hand); ``keep``: play the dealt cards instead (free play)."""
    label: str
    enabled: bool
    hint: NotRequired[bool]
    """Glow: this is what the hint suggests."""


class Message(TypedDict):
    """The feedback line under the table (read out by screen readers)."""

    kind: Literal["info", "error", "detour", "costly", "success", "question", "hint"]
    text: str
    id: NotRequired[int]
    """Counts up with every new message, so a repeated text is announced again."""
    label: NotRequired[str]
    """A short label for the kind of feedback on a move (``"Not allowed"``, ``"Allowed,
    but…"``, ``"Allowed, but costly"``), shown before the text."""


class TableView(TypedDict):
    """Everything the table shows, in one snapshot."""

    lang: str
    labels: dict[str, str]
    """Localized captions: ``stock``, ``discard``, ``trump``, ``table``, ``hand`` (the
    learner's hand), ``open_ranks``, ``empty_table``, ``cap``, ``acting`` (screen-reader text
    for the "acting now" dot), ``no_stock`` (instead of "0 cards")."""
    seats: list[SeatView]
    """Every seat in seat order (the learner's included; the view places it at the bottom)."""
    you: int
    hand: list[CardView]
    table: list[PairView]
    stock_count: int
    """Cards in the stock, the turned-up trump included while it lies there."""
    stock_label: str
    turnup: CardView | None
    """The turned-up trump while it lies under the stock (or shown after it was drawn)."""
    turnup_in_stock: bool
    trump_symbol: str
    trump_name: str
    discard_count: int
    discard_label: str
    open_ranks: list[str]
    """Ranks that may be thrown in now, localized (empty when the table is empty)."""
    cap_label: str
    """E.g. ``"3 de 6"``: attack cards on the table out of the limit; when the defender's
    hand sets the limit it says so (``"2 of 5 (cards in the defender's hand)"``). The
    caption (``labels.cap``) says what is counted: every attack card, or the unbeaten ones."""
    actions: list[ActionButton]
    message: Message | None
    narration: str
    """What just happened, in one or two sentences."""
    hints: bool
    """Hints are on: ``playable`` marks are shown."""
    busy: bool
    """An automatic move is being shown; clicks are ignored by the controller anyway."""


class Click(TypedDict):
    """What the widget sends back (``model.send``). Anything else is ignored."""

    type: Literal["card", "action", "progress"]
    zone: NotRequired[Literal["hand", "table", "seat"]]
    """``seat``: a card of another player's face-up hand (lessons that show it)."""
    id: NotRequired[str]
    """A card id for ``card``; an :class:`ActionButton` id for ``action``."""
    data: NotRequired[dict[str, object]]
    """For ``progress``: what the browser's localStorage held when the page loaded."""
