"""The mutable state of a game, kept in one small object so that undo is a snapshot."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from .cards import ALL_CARDS, Card, Suit

__all__ = [
    "DeferredKey",
    "Phase",
    "SeenKey",
    "State",
    "bout_key",
    "parse_bout_key",
    "repetition_key",
    "seen_keys",
    "word_bout_key",
]


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
        "active",
        "attacker",
        "attacks",
        "bouts",
        "dealer",
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
        "previous_durak",
        "redeals",
        "seen",
        "stock",
        "taking",
        "throw_in_turn",
        "throw_rights_cache",
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
    previous_durak: int | None
    """The previous game's durak: he is the durak of a drawn game when ``Rules.allow_draw`` is
    off (S0), and he may lead first (``FirstAttacker``)."""
    dealer: int | None
    """Who dealt (None: not known, e.g. a lesson's set-up): a new deal for a misdeal (C20) is
    dealt by him again."""
    seen: tuple[SeenKey, ...]
    """The positions that started a bout since the stock ran out and the last bout was beaten
    off, oldest first, as :func:`bout_key` integers (what ``Rules.repetition_limit`` counts;
    ``Position.seen`` words them, :func:`seen_keys`). Where no position can come back, a
    bout's position is kept as a :class:`DeferredKey`, keyed only when asked for."""
    throw_rights_cache: tuple[list[bool], int, int, tuple[int, ...]] | None
    """The seats with throw-in rights in priority order, for ``active``, attacker and defender
    (a cache of :func:`durak_core.bout.throw_rights`; no part of the position)."""

    def __new__(cls) -> State:
        """A blank state; the caller sets every public field."""
        new = object.__new__(cls)
        new.throw_rights_cache = None
        return new

    def copy(self) -> State:
        """An independent copy, safe to change in any way (cards are immutable and shared)."""
        new = self.snapshot()
        new.throw_rights_cache = None
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
        new.throw_rights_cache = self.throw_rights_cache
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
        new.previous_durak = self.previous_durak
        new.dealer = self.dealer
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
            self.previous_durak,
            self.dealer,
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
    """The position a bout starts in, as ``Rules.repetition_limit`` compares them, worded:
    each hand as a set, who attacks whom, the trumps shown for a Flash, who may still swap the
    turn-up (the stock is empty, the table too; who is out follows from the hands). This is
    the form of ``Position.seen``; the engine counts :func:`bout_key` integers instead."""
    shown = " ".join(sorted(map(str, flashed)))
    parts = [" ".join(sorted(map(str, hand))) for hand in hands]
    return f"{'|'.join(parts)}|{attacker}>{defender}|{shown}|{turnup_holder}"


#: Bits of a :func:`bout_key`: 52 per hand (bit ``Card.index``), then 3 bits each for the
#: attacker, the defender and the turn-up holder (7: none), then 52 for the Flash trumps.
_HAND_BITS, _SEAT_BITS, _NO_HOLDER = 52, 3, 7
_ALL_BITS = (1 << _HAND_BITS) - 1


def bout_key(
    hands: Sequence[Sequence[Card]],
    attacker: int,
    defender: int,
    flashed: frozenset[Card],
    turnup_holder: int | None,
) -> int:
    """:func:`repetition_key` as one integer, what the engine keeps in ``State.seen`` and
    counts: equal exactly when the worded keys are equal, and made without formatting text."""
    key = 0
    shift = 0
    for hand in hands:
        for card in hand:
            key |= 1 << (card.index + shift)
        shift += _HAND_BITS
    holder = _NO_HOLDER if turnup_holder is None else turnup_holder
    key |= (attacker | defender << _SEAT_BITS | holder << 2 * _SEAT_BITS) << shift
    shift += 3 * _SEAT_BITS
    for card in flashed:
        key |= 1 << (card.index + shift)
    return key


def _cards_in(mask: int) -> list[Card]:
    return [card for card in ALL_CARDS if mask >> card.index & 1]


def word_bout_key(key: int, players: int) -> str:
    """The :func:`repetition_key` text of a :func:`bout_key` of ``players`` hands."""
    hands = [_cards_in(key >> (seat * _HAND_BITS) & _ALL_BITS) for seat in range(players)]
    seats = key >> (players * _HAND_BITS)
    attacker = seats & 7
    defender = seats >> _SEAT_BITS & 7
    holder = seats >> 2 * _SEAT_BITS & 7
    flashed = frozenset(_cards_in(seats >> 3 * _SEAT_BITS))
    return repetition_key(
        hands, attacker, defender, flashed, None if holder == _NO_HOLDER else holder
    )


def parse_bout_key(text: str, players: int) -> int:
    """The :func:`bout_key` of a :func:`repetition_key` text of ``players`` hands; ValueError
    unless ``text`` is exactly how the engine words a position."""
    parts = text.split("|")
    if len(parts) != players + 3:
        raise ValueError(f"not a position key of {players} hands: {text!r}")
    try:
        hands = [[Card.parse(c) for c in part.split()] for part in parts[:players]]
        attacker, defender = (int(seat) for seat in parts[players].split(">"))
        flashed = frozenset(Card.parse(c) for c in parts[players + 1].split())
        holder_text = parts[players + 2]
        holder = None if holder_text == "None" else int(holder_text)
    except ValueError:  # CardError is one
        raise ValueError(f"not a position key: {text!r}") from None
    seats = range(players)
    if attacker not in seats or defender not in seats or holder not in (None, *seats):
        raise ValueError(f"not a position key of {players} seats: {text!r}")
    key = bout_key(hands, attacker, defender, flashed, holder)
    if word_bout_key(key, players) != text:
        raise ValueError(f"not a position key as the engine words it: {text!r}")
    return key


class DeferredKey:
    """A :func:`bout_key` kept for later: what a bout started with, copied, so that a game
    where no position can come back (two players, no transfer) computes nothing at every bout.
    It equals its integer, and it is worded once, when asked for."""

    __slots__ = ("_key", "_parts")

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        attacker: int,
        defender: int,
        flashed: frozenset[Card],
        turnup_holder: int | None,
    ) -> None:
        self._parts = (tuple(map(tuple, hands)), attacker, defender, flashed, turnup_holder)
        self._key: int | None = None

    def key(self) -> int:
        """The position's :func:`bout_key`."""
        if self._key is None:
            self._key = bout_key(*self._parts)
        return self._key

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DeferredKey):
            return other is self or other.key() == self.key()
        return isinstance(other, int) and other == self.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"DeferredKey({self.key()})"


SeenKey = int | DeferredKey
"""A position in ``State.seen``: a :func:`bout_key`, or one kept for later."""


def seen_keys(seen: Sequence[SeenKey], players: int) -> tuple[str, ...]:
    """``State.seen`` worded (:func:`repetition_key`), as ``Position.seen`` holds it."""
    return tuple(word_bout_key(key if isinstance(key, int) else key.key(), players) for key in seen)


_FIELDS = tuple(sorted(name for name in State.__slots__ if name != "throw_rights_cache"))
_new_object = object.__new__
_copy_list = list.copy
