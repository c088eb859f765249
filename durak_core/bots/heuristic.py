"""The seeds' advice as a rule of thumb (S1's «Estrategia y consejos», S0's «Consejos», S4).

- Lead the lowest useful non-trump, and a rank you hold twice or more: when the first card is
  beaten you can add the second (S1: «Ataca con cartas bajas de palos sin triunfo y deshazte
  de las parejas»); early on get rid of low cards, keep the high ones (S0).
- Keep trumps for when they count (S1: «Guarda los triunfos para cuando cuenten»): beat with
  the cheapest card that works, and early in the game take rather than spend high trumps.
- Count cards (S1: «Cuenta las cartas que han salido»): cards beaten off are gone, cards seen
  picked up are known. When you beat, prefer a card whose rank the others can no longer add
  (every other card of that rank is in the discard pile or your hand).
- Throw in only when it hurts (S1: «Añade cartas con cuidado ... Presiona cuando al defensor
  le falten respuestas»): low non-trumps while the stock lasts, anything the defender cannot
  beat once it is gone, your last card to go out, and junk onto a defender who takes.
- Transfer when it helps (perevodnoy, S1, S2): a non-trump of the attack's rank passes the
  attack on for one card instead of beating every card.

:func:`decide` is the rule itself on plain values, shared by :class:`HeuristicBot` (which
reads an :class:`Observation` and counts cards) and by the playouts of
:mod:`~durak_core.bots.pimc` (which call it on a sampled world, without counting, for speed).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from ..actions import BEAT, FLASH, LEAD, PASS, SWAP, TAKE, THROW, TRANSFER, Action
from ..cards import Card, Rank, Suit, beats, make_deck
from ..observation import Observation

__all__ = ["HeuristicBot", "card_value", "decide"]

TRUMP_BONUS = 13
"""Added to a trump's value: every trump is worth more than every plain card."""
PAIR_BONUS = 2
"""How much holding another card of the same rank makes a plain lead cheaper."""
TAKE_STOCK = 8
"""With more cards than this left to draw, a defender takes rather than spend a high trump."""
HIGH_TRUMP = Rank.QUEEN
"""The trumps worth keeping early: Q, K, A."""
CHEAP_THROW = Rank.TEN
"""While the stock lasts, a thrower adds only plain cards up to this rank..."""
CHEAP_DUMP = Rank.JACK
"""...or up to this one onto a defender who takes."""


def card_value(card: Card, trump: Suit, low: int) -> int:
    """How much a card is worth keeping: its rank above the deck's lowest, trumps above
    every plain card."""
    value = card.rank - low
    return value + TRUMP_BONUS if card.suit is trump else value


def decide(
    actions: Sequence[Action],
    hand: Sequence[Card],
    trump: Suit,
    low: int,
    stock: int,
    attacks: Sequence[Card],
    defences: Sequence[Card | None],
    taking: bool,
    defender_cards: int,
    live: Collection[Card] | None = None,
) -> Action:
    """The rule of thumb's choice among one seat's legal ``actions`` (not empty).

    ``hand`` is that seat's hand, ``low`` the deck's lowest rank, ``stock`` the cards left to
    draw, ``attacks``/``defences`` the table, ``defender_cards`` the defender's hand size;
    ``live`` (optional) the cards this seat cannot rule out from the other hands and the stock
    — everything not in the discard pile, on the table or in its own hand."""
    last = actions[-1]
    if last.kind is SWAP:
        return last  # the lowest trump for the turned-up one: always a better trump (S0)
    kind = actions[0].kind
    if kind is LEAD:
        return _lead(actions, hand, trump, low, stock)
    if kind is BEAT or kind is TRANSFER or kind is TAKE:
        return _defend(actions, trump, low, stock, attacks, defences, live)
    if kind is THROW:
        return _throw(actions, hand, trump, low, stock, taking, defender_cards, live)
    return actions[0]


def _lead(
    actions: Sequence[Action], hand: Sequence[Card], trump: Suit, low: int, stock: int
) -> Action:
    counts: dict[Rank, int] = {}
    for card in hand:
        if card.suit is not trump:
            counts[card.rank] = counts.get(card.rank, 0) + 1
    bonus = PAIR_BONUS if stock else PAIR_BONUS * 2  # at the end, dumping several counts more
    best = actions[0]
    best_key = 1 << 30
    for action in actions:
        lead = action.card
        if lead is None:
            continue
        key = card_value(lead, trump, low) * 4
        if lead.suit is not trump:
            key -= 4 * bonus * (counts[lead.rank] - 1)
        if key < best_key:
            best, best_key = action, key
    return best


def _defend(
    actions: Sequence[Action],
    trump: Suit,
    low: int,
    stock: int,
    attacks: Sequence[Card],
    defences: Sequence[Card | None],
    live: Collection[Card] | None,
) -> Action:
    options: dict[Card, list[Action]] = {}
    take: Action | None = None
    transfer: Action | None = None
    transfer_value = 1 << 30
    for action in actions:
        kind = action.kind
        if kind is BEAT:
            assert action.target is not None
            options.setdefault(action.target, []).append(action)
        elif kind is TRANSFER:
            assert action.card is not None
            value = card_value(action.card, trump, low)
            if value < transfer_value:
                transfer, transfer_value = action, value
        elif kind is TAKE:
            take = action
        elif kind is FLASH:
            return action  # showing a trump passes the attack on and keeps the card (S2)
    unbeaten = [a for a, d in zip(attacks, defences, strict=True) if d is None]
    plan = _cover(unbeaten, options, trump, low, live)
    if transfer is not None and (plan is None or transfer_value < TRUMP_BONUS):
        return transfer  # a plain card passes the attack on (S1, S2)
    if plan is None:
        return take if take is not None else actions[0]
    if take is not None and stock > TAKE_STOCK and len(attacks) <= 2:
        trumps = [a.card for a in plan if a.card is not None and a.card.suit is trump]
        if len(trumps) >= 2 or any(c.rank >= HIGH_TRUMP for c in trumps):
            return take  # keep the high trumps for when they count (S1)
    return plan[0]


def _cover(
    unbeaten: list[Card],
    options: dict[Card, list[Action]],
    trump: Suit,
    low: int,
    live: Collection[Card] | None,
) -> list[Action] | None:
    """A cheap way to beat every unbeaten card, hardest first, or None if there is none."""
    addable: dict[Rank, int] | None = None
    if live is not None:
        addable = {}
        for card in live:
            addable[card.rank] = addable.get(card.rank, 0) + 1
    used: set[Card] = set()
    plan: list[Action] = []
    for target in sorted(unbeaten, key=lambda c: (c.suit is trump, c.rank), reverse=True):
        best: Action | None = None
        best_key = 1 << 30
        for action in options.get(target, ()):
            cover = action.card
            if cover is None or cover in used:
                continue
            key = card_value(cover, trump, low) * 4
            if addable is not None:
                key += min(addable.get(cover.rank, 0), 3)  # the others may add this rank
            if key < best_key:
                best, best_key = action, key
        if best is None or best.card is None:
            return None
        used.add(best.card)
        plan.append(best)
    return plan


def _throw(
    actions: Sequence[Action],
    hand: Sequence[Card],
    trump: Suit,
    low: int,
    stock: int,
    taking: bool,
    defender_cards: int,
    live: Collection[Card] | None,
) -> Action:
    pass_action: Action | None = None
    best: Action | None = None
    best_value = 1 << 30
    last_card = stock == 0 and len(hand) == 1
    for action in actions:
        card = action.card
        if action.kind is PASS:
            pass_action = action
            continue
        if card is None:
            continue
        plain = card.suit is not trump
        if last_card:
            wanted = True  # going out
        elif taking:
            wanted = plain and (stock == 0 or card.rank <= CHEAP_DUMP)
        elif stock:
            wanted = plain and card.rank <= CHEAP_THROW
        else:
            wanted = plain or (live is not None and not _beatable(card, trump, live))
            if wanted and plain and live is not None and defender_cards > 1:
                wanted = card.rank <= CHEAP_DUMP or not _beatable(card, trump, live)
        if wanted:
            value = card_value(card, trump, low)
            if value < best_value:
                best, best_value = action, value
    if best is not None:
        return best
    return pass_action if pass_action is not None else actions[-1]


def _beatable(card: Card, trump: Suit, live: Collection[Card]) -> bool:
    """Whether any card the others may hold beats ``card``."""
    return any(beats(other, card, trump) for other in live)


def live_cards(observation: Observation) -> frozenset[Card]:
    """Cards ``observation``'s seat cannot rule out from the other hands and the stock."""
    gone = set(observation.hand)
    gone.update(observation.discard)
    for attack, defence in observation.table:
        gone.add(attack)
        if defence is not None:
            gone.add(defence)
    return frozenset(c for c in make_deck(observation.rules.deck_size) if c not in gone)


class HeuristicBot:
    """The seeds' advice (see the module docstring), counting cards. Deterministic."""

    name = "heuristic"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """One of ``observation.legal``."""
        obs = observation
        if not obs.legal:
            raise ValueError(f"seat {obs.seat} has no legal action")
        if len(obs.legal) == 1:
            return obs.legal[0]
        return decide(
            obs.legal,
            obs.hand,
            obs.trump,
            obs.rules.lowest_rank,
            obs.stock_size,
            [a for a, _ in obs.table],
            [d for _, d in obs.table],
            obs.taking,
            obs.hand_sizes[obs.defender],
            live_cards(obs),
        )
