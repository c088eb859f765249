"""What one seat may know: its own hand, everything public, and the cards it saw go by.

The computer opponent only ever gets an :class:`Observation`, never the :class:`Game`.
Cards known to be in another hand are those seen being picked up from the table, the
lowest trump shown to pick the first attacker, a turned-up trump drawn or swapped, and
the trump the dealer shows when every card is dealt — as long as they are still there.
:func:`durak_core.determinize` deals the cards a seat cannot place into a full game
consistent with its observation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .actions import Action
from .cards import Card, Suit, make_deck
from .events import Event, EventKind
from .game import Cap, Game
from .rules import FirstAttacker, Rules
from .state import Phase

__all__ = ["Observation", "observe"]


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a game."""

    seat: int
    players: int
    rules: Rules
    hand: tuple[Card, ...]
    """This seat's hand, in the order it was dealt, drawn and picked up."""
    hand_sizes: tuple[int, ...]
    stock_size: int
    turnup: Card | None
    """The turned-up trump card (still shown after it was drawn)."""
    turnup_in_stock: bool
    trump: Suit
    table: tuple[tuple[Card, Card | None], ...]
    discard: tuple[Card, ...]
    """Cards beaten off so far, in the order they went: the pile is closed, but a player
    remembers them (S1)."""
    attacker: int
    defender: int
    lead_attacker: int
    """Who led the bout (drawing starts with him)."""
    defender_hand_at_start: int
    """The defender's hand when he became defender: the hand cap (C8)."""
    phase: Phase
    taking: bool
    passed: frozenset[int]
    """Seats that have passed in this bout."""
    active: tuple[bool, ...]
    out: tuple[int, ...]
    """Seats that have gone out, in the order they did."""
    durak: int | None
    previous_durak: int | None
    bouts: int
    turnup_holder: int | None
    """The seat seen drawing the turn-up as the stock's last card, until the next lead."""
    low_trump_origin: int | None
    """The seat holding the swap right on the lowest trump (S0), as far as this seat can tell:
    None also when the lowest trump is among the :meth:`unseen` cards (then it is the seat it
    was dealt or drawn to, or nobody if it is in the stock)."""
    known: tuple[frozenset[Card], ...]
    """For each seat, cards known to be in that hand (for this seat: its whole hand)."""
    public: tuple[frozenset[Card], ...]
    """For each seat, the cards everybody knows are in that hand (``known`` for the other
    seats; for this seat, the part of its hand the others know too)."""
    undealt: frozenset[Card]
    """Cards known to have lain in the stock when the game began: the trumps lower than the
    one shown to pick the first attacker, or every trump if nobody held one (S0, S3). Empty
    for a set-up position."""
    unseen_draws: tuple[int, ...]
    """For each seat, how many cards it has drawn from the stock that nobody has seen since:
    its draws less the turn-up and the ``undealt`` cards it later played or swapped. Only
    such a card can be an ``undealt`` card hidden in its hand."""
    legal: tuple[Action, ...]
    """This seat's legal actions now."""
    acting: tuple[int, ...]
    """Seats that may act now."""
    cap: Cap
    events: tuple[Event, ...]
    """The event log with other seats' drawn cards hidden (only their count is public)."""
    flashed: frozenset[Card] = frozenset()
    """Trumps already shown for a Flash transfer (S2): everybody saw them."""
    redeals: int = 0
    """New deals asked for so far for a misdeal (C20)."""
    dealer: int | None = None
    """Who dealt (everybody saw it); a new deal for a misdeal is his again (C20)."""
    seen: tuple[str, ...] = ()
    """The positions that started a bout since the stock ran out (``Position.seen``: what the
    repetition rule counts), when this seat can place every card: with the stock empty and
    two players left, each knows the other's hand. Otherwise empty (the keys hold hands)."""

    def unseen(self) -> frozenset[Card]:
        """Cards of the deck that this seat cannot place: in other hands or in the stock
        (or, in a set-up position that does not hold the whole deck, in no place at all).

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


_PLAYS = (
    EventKind.LEAD,
    EventKind.THROW_IN,
    EventKind.TRANSFER,
    EventKind.BEAT,
    EventKind.SWAP,
    EventKind.FLASH,
)


def _deal_inference(game: Game) -> tuple[frozenset[Card], tuple[int, ...]]:
    """``Observation.undealt`` and ``Observation.unseen_draws`` from the public events.

    An undealt card cannot have been dealt; once it is seen for the first time in a seat's
    play (or swap), that seat must have drawn it, which uses up one of its draws."""
    players = game.players
    undealt: frozenset[Card] = frozenset()
    if game.rules.first_attacker is FirstAttacker.LOWEST_TRUMP:
        # the last deal's choice (a misdeal deals again); only the lowest-trump rule tells
        # anything (S0, S3), not a later game started left of the durak (C6)
        for event in reversed(game.events):
            if event.kind is EventKind.FIRST_ATTACKER:
                if event.detail in ("lowest_trump", "random"):
                    trump = game.trump
                    shown = event.cards[0].rank if event.cards else None
                    undealt = frozenset(
                        c
                        for c in make_deck(game.rules.deck_size)
                        if c.suit is trump and (shown is None or c.rank < shown)
                    )
                break
    drawn = [0] * players
    appeared: set[Card] = set() if game.turnup is None else {game.turnup}
    for event in game.events:
        seat = event.seat
        if seat is None:
            continue
        kind = event.kind
        if kind is EventKind.DRAW:
            drawn[seat] += event.n
            if event.detail == "turnup":
                drawn[seat] -= 1  # the drawn turn-up is seen
        elif kind in _PLAYS and undealt:
            card = event.cards[0]
            if card in undealt and card not in appeared:
                drawn[seat] -= 1
            appeared.update(event.cards)
    return undealt, tuple(max(0, n) for n in drawn)


def observe(game: Game, seat: int, *, shown: Iterable[int] = ()) -> Observation:
    """The :class:`Observation` of ``seat`` in ``game``. ``shown``: other seats whose hands
    this seat is shown face up (a lesson's open hands): their whole hands are ``known`` to it
    (not ``public``: the others have not seen them)."""
    if not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat} in a {game.players}-player game")
    open_seats = frozenset(shown)
    for other in open_seats:
        if not 0 <= other < game.players:
            raise ValueError(f"no seat {other} in a {game.players}-player game")
    pos = game.position()
    public = pos.known
    hand = pos.hands[seat]
    known = tuple(
        frozenset(pos.hands[i]) if i == seat or i in open_seats else k for i, k in enumerate(public)
    )
    low = Card(game.rules.lowest_rank, pos.trump)
    origin = pos.low_trump_origin
    if origin is not None and origin != seat and low not in known[origin]:
        origin = None  # the lowest trump is hidden in another hand: its origin is too
    undealt, unseen_draws = _deal_inference(game)
    return Observation(
        seat=seat,
        players=game.players,
        rules=game.rules,
        hand=hand,
        hand_sizes=tuple(len(h) for h in pos.hands),
        stock_size=len(pos.stock) + pos.turnup_in_stock,
        turnup=pos.turnup,
        turnup_in_stock=pos.turnup_in_stock,
        trump=pos.trump,
        table=pos.table,
        discard=pos.discard,
        attacker=pos.attacker,
        defender=pos.defender,
        lead_attacker=pos.lead_attacker,
        defender_hand_at_start=pos.defender_hand_at_start,
        phase=pos.phase,
        taking=pos.taking,
        passed=pos.passed,
        active=tuple(i not in pos.out for i in range(game.players)),
        out=pos.out,
        durak=pos.durak,
        previous_durak=pos.previous_durak,
        bouts=pos.bouts,
        turnup_holder=pos.turnup_holder,
        low_trump_origin=origin,
        known=known,
        public=public,
        undealt=undealt,
        unseen_draws=unseen_draws,
        legal=tuple(game.legal_actions().for_seat(seat)),
        acting=tuple(game.acting_seats()),
        cap=game.cap(),
        events=tuple(_redact(e, seat) for e in game.events),
        flashed=pos.flashed,
        redeals=pos.redeals,
        dealer=pos.dealer,
        seen=pos.seen
        if pos.seen
        and not pos.stock
        and not pos.turnup_in_stock
        and game.players - len(pos.out) <= 2
        else (),
    )
