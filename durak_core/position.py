"""A complete position: everything that decides what can happen next, as one frozen value.

``game.position()`` and ``Game.from_position(rules, position)`` round-trip exactly: the same
legal actions now and the same future after any actions. :meth:`Position.to_dict` and
:meth:`Position.from_dict` are the one serializer of positions (JSON-ready, cards as text)
used by records, lessons and the tutorial; the dict's keys are ``from_position``'s keywords.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import Card, Suit
from .state import Phase

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["KEYWORDS", "Position"]


@dataclass(frozen=True, slots=True)
class Position:
    """A game position. Seats are numbered clockwise; cards are :class:`Card` values."""

    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hand, in the order it was dealt, drawn and picked up."""
    stock: tuple[Card, ...]
    """The stock, top (next to draw) first, without the turn-up."""
    turnup: Card | None
    """The card turned up to fix trumps (still shown after it was drawn); None if none."""
    turnup_in_stock: bool
    """Whether the turn-up still lies under the stock (it is drawn last). When false, the
    turn-up was drawn, swapped, or kept by the dealer of a deal that used every card."""
    trump: Suit
    discard: tuple[Card, ...]
    """Cards beaten off, in the order they went."""
    table: tuple[tuple[Card, Card | None], ...]
    """(attack, defence or None) pairs of the bout in progress."""
    attacker: int
    """The bout's main attacker: throw-in priority and «Vecinos» rights start with him."""
    defender: int
    lead_attacker: int
    """Who led the bout (after a transfer, the attacker changes but drawing starts here)."""
    defender_hand_at_start: int
    """The defender's hand when he became defender: the hand cap (C8)."""
    phase: Phase
    taking: bool
    """The defender has said «take» (cards may still be added, C13)."""
    passed: frozenset[int]
    """Seats that have passed in this bout."""
    out: tuple[int, ...]
    """Seats that have gone out, in the order they did."""
    durak: int | None
    """The loser once the game is over (None: a draw, or not over)."""
    bouts: int
    """Bouts started so far, this one included."""
    previous_durak: int | None
    """The previous game's durak (he stays durak after a draw, S0)."""
    low_trump_origin: int | None
    """The seat that got the lowest trump by deal or draw and still holds it (swap right)."""
    turnup_holder: int | None
    """The seat that drew the turn-up as the stock's last card, until the next lead (S0)."""
    known: tuple[frozenset[Card], ...]
    """For each seat, cards everybody knows are in that hand (seen picked up, shown)."""
    flashed: frozenset[Card] = frozenset()
    """Trumps already shown for a Flash transfer (S2)."""
    redeals: int = 0
    """New deals asked for so far for a misdeal (C20, on request)."""
    dealer: int | None = None
    """Who dealt (None: not known, e.g. a lesson's set-up). A new deal for a misdeal (C20) is
    dealt by the same dealer, from his left; without one the seat before the first attacker
    deals."""
    seen: tuple[str, ...] = ()
    """The positions that started a bout since the stock ran out and the last bout was beaten
    off, oldest first (:func:`~durak_core.state.repetition_key`): what
    ``Rules.repetition_limit`` counts. A set-up position's own bout is not among them."""

    @property
    def players(self) -> int:
        return len(self.hands)

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data: ``Game.from_position(rules, **position.to_dict())``
        and :meth:`from_dict` rebuild it exactly (``seen`` only when there is one)."""
        data = {
            "hands": [_text(h) for h in self.hands],
            "stock": _text(self.stock),
            "turnup": None if self.turnup is None else str(self.turnup),
            "turnup_in_stock": self.turnup_in_stock,
            "trump": self.trump.letter,
            "attacker": self.attacker,
            "defender": self.defender,
            "lead_attacker": self.lead_attacker,
            "defender_hand_at_start": self.defender_hand_at_start,
            "discard": _text(self.discard),
            "table": [[str(a), None if d is None else str(d)] for a, d in self.table],
            "taking": self.taking,
            "passed": sorted(self.passed),
            "out": list(self.out),
            "durak": self.durak,
            "bouts": self.bouts,
            "previous_durak": self.previous_durak,
            "low_trump_origin": self.low_trump_origin,
            "turnup_holder": self.turnup_holder,
            "flashed": _text(sorted(self.flashed)),
            "redeals": self.redeals,
            "dealer": self.dealer,
            "known": {  # in hand order, so that equal positions give equal dicts
                str(seat): _text(c for c in hand if c in cards)
                for seat, (hand, cards) in enumerate(zip(self.hands, self.known, strict=True))
                if cards
            },
        }
        if self.seen:
            data["seen"] = list(self.seen)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: Rules | None = None) -> Position:
        """Read :meth:`to_dict`'s form, or the shorter keyword form of lessons and older
        records (missing keys are derived as ``Game.from_position`` derives them; an older
        position without ``dealer`` has none). Raises
        :class:`~durak_core.PositionError` saying what is wrong."""
        from .game import Game

        position: Position = Game.from_position(rules, **_keywords(data)).position()
        return position


KEYWORDS: tuple[str, ...] = tuple(f for f in Position.__slots__ if f != "phase")
"""The keys of :meth:`Position.to_dict`: ``Game.from_position``'s keywords (the phase follows
from the rest)."""


def _text(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def _keywords(data: Mapping[str, Any]) -> dict[str, Any]:
    from ._base import PositionError

    if not isinstance(data, Mapping):
        raise PositionError("a position is a mapping of from_position's keywords")
    keywords = dict(data)
    if "table" in keywords and isinstance(keywords["table"], list):
        keywords["table"] = [tuple(p) if isinstance(p, list) else p for p in keywords["table"]]
    return keywords
