"""What one seat may know: its own hand, everything public, and the cards it saw go by.

The computer opponent only ever gets an :class:`Observation`, never the :class:`Game`.
Cards known to be in another hand are those seen being picked up from the table, the
lowest trump shown to pick the first attacker, a turned-up trump drawn or swapped, and
the trump the dealer shows when every card is dealt — as long as they are still there.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card, Suit, make_deck
from .events import Event, EventKind
from .game import Cap, Game
from .rules import Rules
from .state import Phase

__all__ = ["Observation", "observe"]


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a game."""

    seat: int
    players: int
    rules: Rules
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    turnup: Card | None
    """The turned-up trump card (still shown after it was drawn)."""
    turnup_in_stock: bool
    trump: Suit
    table: tuple[tuple[Card, Card | None], ...]
    discard: frozenset[Card]
    """Cards beaten off so far: the pile is closed, but a player remembers them (S1)."""
    attacker: int
    defender: int
    phase: Phase
    taking: bool
    active: tuple[bool, ...]
    bouts: int
    known: tuple[frozenset[Card], ...]
    """For each seat, cards known to be in that hand (for this seat: its whole hand)."""
    legal: tuple[Action, ...]
    """This seat's legal actions now."""
    acting: tuple[int, ...]
    """Seats that may act now."""
    cap: Cap
    events: tuple[Event, ...]
    """The event log with other seats' drawn cards hidden (only their count is public)."""

    def unseen(self) -> frozenset[Card]:
        """Cards of the deck that this seat cannot place: in other hands or in the stock.

        The turn-up, while in the stock, is seen (it is the stock's last card)."""
        seen = set(self.hand)
        seen.update(self.discard)
        for attack, defence in self.table:
            seen.add(attack)
            if defence is not None:
                seen.add(defence)
        for cards in self.known:
            seen.update(cards)
        if self.turnup is not None and self.turnup_in_stock:
            seen.add(self.turnup)
        return frozenset(c for c in make_deck(self.rules.deck_size) if c not in seen)


def _redact(event: Event, seat: int) -> Event:
    if event.kind is EventKind.DRAW and event.seat != seat:
        shown = event.cards[-1:] if event.detail == "turnup" else ()
        return event._replace(cards=shown)
    return event


def observe(game: Game, seat: int) -> Observation:
    """The :class:`Observation` of ``seat`` in ``game``."""
    if not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat} in a {game.players}-player game")
    s = game.state
    revealed: list[set[Card]] = [set(k) for k in game.setup_known]
    for event in game.events:
        kind = event.kind
        if event.seat is None:
            continue
        if kind in (EventKind.PICK_UP, EventKind.FIRST_ATTACKER) or (
            kind is EventKind.TRUMP and event.detail == "dealer"
        ):
            revealed[event.seat].update(event.cards)
        elif kind is EventKind.DRAW and event.detail == "turnup":
            revealed[event.seat].add(event.cards[-1])
        elif kind is EventKind.SWAP:
            low, up = event.cards
            revealed[event.seat].add(up)
            if event.other is not None:
                revealed[event.other].add(low)
    known = tuple(
        frozenset(s.hands[i]) if i == seat else frozenset(c for c in revealed[i] if c in s.hands[i])
        for i in range(game.players)
    )
    legal = tuple(a for a in game.legal_actions() if a.seat == seat)
    return Observation(
        seat=seat,
        players=game.players,
        rules=game.rules,
        hand=tuple(s.hands[seat]),
        hand_sizes=tuple(len(h) for h in s.hands),
        stock_size=len(s.stock),
        turnup=s.turnup,
        turnup_in_stock=bool(s.stock) and s.stock[0] is s.turnup,
        trump=s.trump,
        table=game.table,
        discard=frozenset(s.discard),
        attacker=s.attacker,
        defender=s.defender,
        phase=s.phase,
        taking=s.taking,
        active=tuple(s.active),
        bouts=s.bouts,
        known=known,
        legal=legal,
        acting=tuple(game.acting_seats()),
        cap=game.cap(),
        events=tuple(_redact(e, seat) for e in game.events),
    )
