"""The mutable state of a game, kept in one small object so that undo is a snapshot."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from .cards import Card, Suit

__all__ = ["DeferredKey", "Phase", "State", "repetition_key", "seen_keys"]


class Phase(StrEnum):
    """Where the game stands."""

    LEAD = "lead"
    """The table is empty; the attacker must lead."""
    BOUT = "bout"
    """Cards are on the table: defending, throwing in, or adding to a take."""
    OVER = "over"
    """The game has ended."""


class State:
    """Everything that changes during play. Hands keep their order (deal, draw, pick-up).

    The engine changes ``hands``, ``attacks`` and ``defences`` in place; the other lists
    (``stock``, ``discard``, ``active``, ``passed``, ``out_order``, ``throw_in_turn``) it only
    ever replaces, so that :meth:`snapshot` can share them. Code outside the engine builds a
    state before play starts and then only reads it.
    """

    __slots__ = (
        "_order",
        "active",
        "attacker",
        "attacks",
        "bouts",
        "defences",
        "defender",
        "defender_hand_at_start",
        "discard",
        "durak",
        "flashed",
        "hands",
        "lead_attacker",
        "low_trump_origin",
        "out_order",
        "passed",
        "phase",
        "redeals",
        "seen",
        "stock",
        "taking",
        "throw_in_turn",
        "trump",
        "turnup",
        "turnup_holder",
    )

    hands: list[list[Card]]
    stock: list[Card]
    """Bottom first: ``stock[-1]`` is drawn next; while present, ``stock[0]`` is the turn-up."""
    turnup: Card | None
    """The card turned up to fix trumps (shown even after it was drawn); None if none."""
    trump: Suit
    discard: list[Card]
    attacks: list[Card]
    defences: list[Card | None]
    active: list[bool]
    passed: list[bool]
    throw_in_turn: Sequence[int]
    """Seats that may add a card or pass now, in priority order (derived, kept for speed)."""
    attacker: int
    """The bout's main attacker: throw-in priority and «Vecinos» rights start with him."""
    lead_attacker: int
    """Who led the bout; drawing starts with him."""
    defender: int
    defender_hand_at_start: int
    """The defender's hand when he became defender (the hand cap, C8)."""
    phase: Phase
    taking: bool
    bouts: int
    """Bouts started so far, this one included."""
    low_trump_origin: int | None
    """Seat that got the lowest trump by deal or draw and still holds it (swap right, S0)."""
    turnup_holder: int | None
    """Seat that drew the turn-up as the last stock card, until the next lead (S0's late swap)."""
    out_order: list[int]
    durak: int | None
    flashed: frozenset[Card]
    """Trumps already shown for a Flash transfer (S2; this bout's only, under once-per-bout)."""
    redeals: int
    """New deals asked for so far for a misdeal (C20)."""
    seen: tuple[str | DeferredKey, ...]
    """The positions that started a bout since the stock ran out and the last bout was beaten
    off, oldest first (:func:`repetition_key`; what ``Rules.repetition_limit`` counts). Where
    no position can come back, a bout's position is kept as a :class:`DeferredKey`, worded
    only when asked for (:func:`seen_keys`)."""
    _order: tuple[list[bool], int, int, tuple[int, ...]] | None
    """Cache of the seats with throw-in rights in priority order, for ``active``, attacker and
    defender (see ``BoutRules._throw_order``)."""

    def __new__(cls) -> State:
        """A blank state; the caller sets every public field."""
        new = object.__new__(cls)
        new._order = None
        return new

    def copy(self) -> State:
        """An independent copy, safe to change in any way (cards are immutable and shared)."""
        new = self.snapshot()
        new._order = None
        new.stock = self.stock[:]
        new.discard = self.discard[:]
        new.active = self.active[:]
        new.passed = self.passed[:]
        new.out_order = self.out_order[:]
        return new

    def snapshot(self) -> State:
        """A copy for undo and for the engine's own forks: it copies the lists the engine
        changes in place and shares the ones it only replaces. Only the engine may change
        either state afterwards."""
        new = _new_object(State)
        new._order = self._order
        new.hands = list(map(_copy_list, self.hands))
        new.stock = self.stock
        new.turnup = self.turnup
        new.trump = self.trump
        new.discard = self.discard
        new.attacks = self.attacks[:]
        new.defences = self.defences[:]
        new.active = self.active
        new.passed = self.passed
        new.throw_in_turn = self.throw_in_turn
        new.attacker = self.attacker
        new.lead_attacker = self.lead_attacker
        new.defender = self.defender
        new.defender_hand_at_start = self.defender_hand_at_start
        new.phase = self.phase
        new.taking = self.taking
        new.bouts = self.bouts
        new.low_trump_origin = self.low_trump_origin
        new.turnup_holder = self.turnup_holder
        new.out_order = self.out_order
        new.durak = self.durak
        new.flashed = self.flashed
        new.redeals = self.redeals
        new.seen = self.seen
        return new

    @property
    def h0(self) -> int:
        """Old name of :attr:`defender_hand_at_start`."""
        return self.defender_hand_at_start

    def key(self) -> tuple[object, ...]:
        """A hashable summary that is equal exactly when two states are equal."""
        return (
            tuple(tuple(h) for h in self.hands),
            tuple(self.stock),
            self.turnup,
            self.trump,
            tuple(self.discard),
            tuple(self.attacks),
            tuple(self.defences),
            tuple(self.active),
            tuple(self.passed),
            self.attacker,
            self.lead_attacker,
            self.defender,
            self.defender_hand_at_start,
            self.phase,
            self.taking,
            self.bouts,
            self.low_trump_origin,
            self.turnup_holder,
            tuple(self.out_order),
            self.durak,
            self.flashed,
            self.redeals,
            self.seen,
        )

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FIELDS)
        return f"State({fields})"

    def differences(self, other: State) -> dict[str, tuple[object, object]]:
        """Fields that differ from ``other``'s: ``{name: (mine, theirs)}`` (for debugging)."""
        return {
            name: (getattr(self, name), getattr(other, name))
            for name in _FIELDS
            if name != "throw_in_turn" and getattr(self, name) != getattr(other, name)
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]


def repetition_key(
    hands: Sequence[Sequence[Card]],
    attacker: int,
    defender: int,
    flashed: frozenset[Card],
    turnup_holder: int | None,
) -> str:
    """The position a bout starts in, as ``Rules.repetition_limit`` compares them: each
    hand as a set, who attacks whom, the trumps shown for a Flash, who may still swap the
    turn-up (the stock is empty, the table too; who is out follows from the hands)."""
    shown = " ".join(sorted(map(str, flashed)))
    parts = [" ".join(sorted(map(str, hand))) for hand in hands]
    return f"{'|'.join(parts)}|{attacker}>{defender}|{shown}|{turnup_holder}"


class DeferredKey:
    """A :func:`repetition_key` not yet worded: what a bout started with, copied, so that a game
    where no position can come back (two players, no transfer) does not format every hand at
    every bout. It equals its text, and the text is made once, when asked for."""

    __slots__ = ("_parts", "_text")

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        attacker: int,
        defender: int,
        flashed: frozenset[Card],
        turnup_holder: int | None,
    ) -> None:
        self._parts = (tuple(map(tuple, hands)), attacker, defender, flashed, turnup_holder)
        self._text: str | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = repetition_key(*self._parts)
        return self._text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DeferredKey):
            return other is self or other.text() == self.text()
        return isinstance(other, str) and other == self.text()

    def __hash__(self) -> int:
        return hash(self.text())

    def __repr__(self) -> str:
        return repr(self.text())


def seen_keys(seen: Sequence[str | DeferredKey]) -> tuple[str, ...]:
    """``State.seen`` as text (:func:`repetition_key`), as ``Position.seen`` holds it."""
    return tuple(key if isinstance(key, str) else key.text() for key in seen)


_FIELDS = tuple(sorted(name for name in State.__slots__ if not name.startswith("_")))
_new_object = object.__new__
_copy_list = list.copy
