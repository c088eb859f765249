"""Dealing: hands one card at a time from the dealer's left, the turn-up, the first attacker
and the state a fresh deal starts from. Shared by ``Game.deal`` and a new deal asked for
after a misdeal (S2)."""

from __future__ import annotations

from collections.abc import Callable

from .cards import Card, Rank, Suit
from .events import Event, EventKind
from .rules import FirstAttacker, NextGameStart, NoTrumpFallback, Rules, TrumpSwap
from .state import Phase, State

__all__ = ["deal_events", "deal_hands", "fresh_state", "pick_first_attacker", "turn_up"]


def deal_hands(cards: list[Card], players: int, dealer: int, size: int) -> list[list[Card]]:
    """Deal ``size`` cards each, one at a time from the dealer's left, popping ``cards``
    (``cards[-1]`` is dealt first)."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(size):
        for i in range(1, players + 1):
            hands[(dealer + i) % players].append(cards.pop())
    return hands


def pick_first_attacker(
    rules: Rules,
    hands: list[list[Card]],
    trump: Suit,
    dealer: int,
    draw: Callable[[int], int],
    previous_durak: int | None = None,
) -> tuple[int, tuple[Card, ...], str]:
    """Who attacks first, the cards shown to decide it, and how (an event's detail);
    ``draw(n)`` picks a seat 0..n-1 at random when the rules say so. In a later game
    (``previous_durak`` given) ``Rules.next_game_start`` decides first (C6)."""
    players = len(hands)
    if previous_durak is not None:
        start = rules.next_game_start
        if start is NextGameStart.LEFT_OF_DURAK:  # S0, S2
            return (previous_durak + 1) % players, (), "left_of_durak"
        if start is NextGameStart.DURAK_ATTACKED_FIRST:  # S0 «the fool is taught»
            return (previous_durak - 1) % players, (), "durak_attacked_first"
    if rules.first_attacker is FirstAttacker.LOWEST_TRUMP:
        best: tuple[Rank, int] | None = None
        for seat, hand in enumerate(hands):
            for card in hand:
                if card.suit is trump and (best is None or card.rank < best[0]):
                    best = (card.rank, seat)
        if best is not None:
            return best[1], (Card(best[0], trump),), "lowest_trump"
        if rules.no_trump_fallback is NoTrumpFallback.RANDOM:
            return draw(players), (), "random"
    return (dealer + 1) % players, (), "left_of_dealer"


def fresh_state(
    rules: Rules,
    hands: list[list[Card]],
    stock: list[Card],
    turnup: Card | None,
    trump: Suit,
    attacker: int,
) -> State:
    s = State.__new__(State)
    n = len(hands)
    s.hands = hands
    s.stock = stock
    s.turnup = turnup
    s.trump = trump
    s.discard = []
    s.attacks = []
    s.defences = []
    s.active = [True] * n
    s.passed = [False] * n
    s.throw_in_turn = []
    s.attacker = s.lead_attacker = attacker
    s.defender = (attacker + 1) % n
    s.defender_hand_at_start = len(hands[s.defender])
    s.phase = Phase.LEAD
    s.taking = False
    s.bouts = 1
    low = Card(rules.lowest_rank, trump)
    s.low_trump_origin = (
        next((i for i, h in enumerate(hands) if low in h), None)
        if rules.trump_swap is not TrumpSwap.OFF
        else None  # tracked only while a swap rule can use it
    )
    s.turnup_holder = None
    s.out_order = []
    s.durak = None
    s.flashed = frozenset()
    s.redeals = 0
    s.seen = ()
    s.previous_durak = None
    s.dealer = None
    return s


def turn_up(
    cards: list[Card], hands: list[list[Card]], dealer: int
) -> tuple[Card, list[Card], str]:
    """After the hands: the turn-up, the stock (bottom first, the turn-up at ``stock[0]``) and
    where the turn-up is (an event detail): the next card, under the stock; or, with every
    card dealt, the dealer's last card, which he shows and keeps (S0, S3)."""
    if cards:
        turnup = cards.pop()
        return turnup, [turnup, *cards], "stock"
    return hands[dealer][-1], [], "dealer"


def deal_events(
    dealer: int,
    hand_size: int,
    turnup: Card,
    where: str,
    attacker: int,
    shown: tuple[Card, ...],
    how: str,
) -> tuple[Event, Event, Event]:
    """The story of a deal that stands: the deal, the trump (``where``: ``"stock"``, or
    ``"dealer"`` who shows and keeps it) and who leads (``how``)."""
    return (
        Event(EventKind.DEAL, dealer, n=hand_size),
        Event(EventKind.TRUMP, dealer if where == "dealer" else None, (turnup,), detail=where),
        Event(EventKind.FIRST_ATTACKER, attacker, shown, detail=how),
    )
