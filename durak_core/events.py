"""Events: what happened, in order, for a user interface to narrate.

Each :class:`Event` has a kind and a few fields whose meaning depends on the kind
(``seat``; ``cards``; ``other``, a second seat; ``n``, a number; ``detail``, a word):

- ``deal``: seat = dealer, n = cards each.
- ``trump``: cards = (turned-up card,); detail ``"stock"`` (under the stock) or ``"dealer"``
  (every card dealt: the dealer shows his last card and keeps it, seat = dealer); a set-up
  position with no turned-up card has cards = () and detail = the trump suit's letter.
- ``first_attacker``: seat; cards = (lowest trump shown,) or (); detail = the rule used.
- ``bout_start``: seat = attacker, other = defender.
- ``lead``, ``throw_in``: seat, cards = (card,).
- ``beat``: seat, cards = (defence, attack).
- ``transfer``: seat, cards = (card,), other = the new defender.
- ``take``, ``pass``: seat.
- ``pick_up``, ``bito``: seat = defender, cards = every table card, n = how many.
- ``draw``: seat, cards drawn (private, except a turned-up trump), n = how many;
  detail ``"turnup"`` when the last card drawn was the turned-up trump.
- ``swap``: seat, cards = (lowest trump, turned-up card), other = the seat that gave the
  turned-up card, or None when it lay under the stock.
- ``player_out``: seat, n = place in the order of going out (1 = first).
- ``game_over``: seat = the durak or None; detail ``"durak"``, ``"draw"``, ``"team"`` (his
  whole team loses, S0/S2), ``"previous_durak"`` (everybody emptied at once and, with no
  draws, the previous durak stays durak, S0) or ``"repetition"`` (a draw: the same position
  came up ``n`` times, ``Rules.repetition_limit``).
- ``repetition``: a bout starts in a position that came up before in this game (same hands,
  attacker and defender, the stock empty): n = the how-manieth time (2, 3, ...), other = the
  limit (``Rules.repetition_limit``); seat = the attacker. At the limit ``game_over`` follows.
- ``flash``: seat, cards = (the trump shown, kept in his hand), other = the new defender.
- ``misdeal``: seat = a player whose dealt hand calls for a new deal (C20), cards = that
  hand, n = the how-manieth new deal; detail ``"request"`` when he asked for it; the cards
  are then shuffled and dealt again (``deal``, ``trump``, ``first_attacker`` follow).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import NamedTuple

from .cards import Card

__all__ = ["Event", "EventKind"]


class EventKind(StrEnum):
    """What happened; the module docstring says which fields each kind fills in."""

    DEAL = "deal"
    TRUMP = "trump"
    FIRST_ATTACKER = "first_attacker"
    BOUT_START = "bout_start"
    LEAD = "lead"
    BEAT = "beat"
    THROW_IN = "throw_in"
    TRANSFER = "transfer"
    TAKE = "take"
    PASS = "pass"
    PICK_UP = "pick_up"
    BITO = "bito"
    DRAW = "draw"
    SWAP = "swap"
    PLAYER_OUT = "player_out"
    GAME_OVER = "game_over"
    MISDEAL = "misdeal"
    FLASH = "flash"
    REPETITION = "repetition"


class Event(NamedTuple):
    """Something that happened; see the module docstring for the fields of each kind."""

    kind: EventKind
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    other: int | None = None
    n: int = 0
    detail: str = ""


def known_in_hands(
    events: Iterable[Event],
    hands: Sequence[Sequence[Card]],
    setup_known: Sequence[Iterable[Card]],
) -> tuple[frozenset[Card], ...]:
    """For each seat, the cards everybody knows are in that hand (``hands``) after ``events``:
    cards seen picked up from the table, the lowest trump shown to choose the first attacker,
    the turn-up drawn as the last card or kept by the dealer, cards swapped in, trumps shown for
    a Flash, and cards a set-up position declared known (``setup_known``) — as long as they
    are still in that hand (and since the last new deal after a misdeal)."""
    revealed: list[set[Card]] = [set(k) for k in setup_known]
    for event in events:
        kind = event.kind
        if event.seat is None:
            continue
        if kind is EventKind.MISDEAL:  # every card is dealt again
            revealed = [set() for _ in range(len(hands))]
        elif kind is EventKind.FLASH:
            revealed[event.seat].add(event.cards[0])
        elif (
            kind is EventKind.PICK_UP
            or kind is EventKind.FIRST_ATTACKER
            or (kind is EventKind.TRUMP and event.detail == "dealer")
        ):
            revealed[event.seat].update(event.cards)
        elif kind is EventKind.DRAW and event.detail == "turnup":
            revealed[event.seat].add(event.cards[-1])
        elif kind is EventKind.SWAP:
            low, up = event.cards
            revealed[event.seat].add(up)
            if event.other is not None:
                revealed[event.other].add(low)
    return tuple(frozenset(c for c in revealed[i] if c in hands[i]) for i in range(len(hands)))
