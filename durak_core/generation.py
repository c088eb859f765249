"""The legal actions, generated from the position as it was when iteration started, so that
pushing and undoing actions while iterating never changes what is yielded.

The iterator is lazy (taking the first action does not list the others) but reads only what
was copied when it started: the hands and the table as tuples, and the outcome of every rule
check that needs the game. Actions are not built as they are yielded: each one is made once
per module and shared (``Action`` is an immutable tuple); whether a card beats another is
looked up in a table built from :func:`~durak_core.cards.beats`, the one beat rule."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Final

from ._base import (
    PHASE_LEAD,
    PHASE_OVER,
    VECINOS,
    new_action,
)
from .actions import (
    BEAT,
    FLASH,
    LEAD,
    PASS,
    REDEAL,
    SWAP,
    TAKE,
    THROW,
    TRANSFER,
    Action,
    ActionKind,
)
from .bout import rank_mask, room, swap_partner, throw_mask
from .cards import ALL_CARDS, Card, Rank, Suit, beats
from .legality import defender_refusal, redeal_refusal
from .reasons import Reason
from .state import State
from .switches import Switches

__all__ = ["acting", "flashes", "generate", "redeals", "transfer_rank"]

_NO_ACTIONS: Final[tuple[Action, ...]] = ()
_SEATS: Final = 8
"""Seats the shared action tables cover (more than any rules deal for)."""


def _card_actions(kind: ActionKind) -> tuple[dict[Card, Action], ...]:
    """``table[seat][card]``: the action ``kind`` of ``seat`` with ``card``."""
    return tuple({card: Action(kind, seat, card) for card in ALL_CARDS} for seat in range(_SEATS))


_LEADS: Final = _card_actions(LEAD)
_THROWS: Final = _card_actions(THROW)
_TRANSFERS: Final = _card_actions(TRANSFER)
_TAKES: Final = tuple(Action(TAKE, seat) for seat in range(_SEATS))
_PASSES: Final = tuple(Action(PASS, seat) for seat in range(_SEATS))
_SWAPS: Final = tuple(Action(SWAP, seat) for seat in range(_SEATS))
_REDEALS: Final = tuple(Action(REDEAL, seat) for seat in range(_SEATS))
_FLASHES: Final = _card_actions(FLASH)

_BEATS: Final[tuple[dict[Card, dict[Card, Action]], ...]] = tuple({} for _ in range(_SEATS))
"""``_BEATS[seat][target][card]``: the beat of ``target`` with ``card`` by ``seat``, filled in
as targets come up (see :func:`_beat_actions`)."""

_BEATERS: list[tuple[int, ...] | None] = [None] * len(Suit)


def _beaters(trump: Suit) -> tuple[int, ...]:
    """``table[attack.index]``: the cards that beat ``attack`` under ``trump``, as a bit mask
    of card indices, worked out with :func:`beats` (once per trump suit)."""
    table = _BEATERS[trump]
    if table is None:
        table = _BEATERS[trump] = tuple(
            sum(1 << card.index for card in ALL_CARDS if beats(card, attack, trump))
            for attack in ALL_CARDS
        )
    return table


def _beat_actions(seat: int, target: Card) -> dict[Card, Action]:
    """``{card: beat of target with card}`` for ``seat``, every card (legal or not)."""
    actions = _BEATS[seat].get(target)
    if actions is None:
        actions = _BEATS[seat][target] = {
            card: Action(BEAT, seat, card, target) for card in ALL_CARDS
        }
    return actions


def generate(sw: Switches, s: State) -> Iterator[Action]:
    """The legal actions, lazily: the defender's first (beats, transfers, take), then each
    throw-in seat's in priority order (cards, pass), then the swap. What they depend on
    is read now (hands, the table as tuples; rule checks), so the iterator never reads
    the game again."""
    phase = s.phase
    if phase is PHASE_OVER:
        return iter(_NO_ACTIONS)
    swap = None
    if sw.swap:
        origin = s.low_trump_origin
        if origin is not None and not isinstance(swap_partner(sw, s, origin), Reason):
            swap = _SWAPS[origin]
    if phase is PHASE_LEAD:
        seat = s.attacker
        leads: Iterator[Action] = map(_LEADS[seat].__getitem__, tuple(s.hands[seat]))
        if sw.redeal and s.bouts == 1:
            asked = redeals(sw, s)
            if asked:
                leads = chain(leads, asked)
        return leads if swap is None else chain(leads, (swap,))
    defence = None
    defences = s.defences
    if not s.taking and None in defences:
        defender = s.defender
        transfer = None
        shown: tuple[Action, ...] = ()
        if sw.rules.transfer and defences.count(None) == len(defences):
            transfer = transfer_rank(sw, s, defender)
            if sw.rules.flash:
                shown = flashes(sw, s, defender)
        defence = (
            defender,
            tuple(s.hands[defender]),
            tuple(s.attacks),
            tuple(defences),
            s.trump,
            transfer,
            shown,
        )
    adders: list[tuple[int, tuple[Card, ...], int]] | None = None
    turn = s.throw_in_turn
    if turn:
        # a throw-in turn while the defender has taken or beaten everything means there
        # is room (compute_throw_in_turn checked it); only "any time" needs a look
        adders = []
        if s.taking or None not in defences or room(sw, s) > 0:
            ranks = rank_mask(s)
            vecinos = sw.rules.throw_in_rights is VECINOS
            hands = s.hands
            for seat in turn:
                allowed = throw_mask(sw, s, seat, ranks) if vecinos else ranks
                adders.append((seat, tuple(hands[seat]), allowed))
        else:
            for seat in turn:
                adders.append((seat, (), 0))
    return _bout_actions(defence, adders, swap)


def acting(sw: Switches, s: State) -> list[int]:
    """The seats with a legal action, in the order :func:`generate` yields their first
    one (the attacker, or the defender then the throw-in seats, then a redeal or the
    swap), without generating the actions: a defender may always take, a throw-in seat
    may always pass, an attacker always holds a card to lead."""
    phase = s.phase
    if phase is PHASE_OVER:
        return []
    seats: list[int] = []
    if phase is PHASE_LEAD:
        if s.hands[s.attacker]:
            seats.append(s.attacker)
        if sw.redeal and s.bouts == 1:
            seats.extend(a.seat for a in redeals(sw, s) if a.seat not in seats)
    else:
        if not s.taking and None in s.defences:
            seats.append(s.defender)
        seats.extend(seat for seat in s.throw_in_turn if seat not in seats)
    if sw.swap:
        origin = s.low_trump_origin
        if (
            origin is not None
            and origin not in seats
            and not isinstance(swap_partner(sw, s, origin), Reason)
        ):
            seats.append(origin)
    return seats


# (helpers of generate: a comprehension inside it would turn ``sw`` and ``s`` into
# closure cells and slow every generation by about a quarter)


def redeals(sw: Switches, s: State) -> tuple[Action, ...]:
    """The new deals players may ask for now (a misdeal on request, C20)."""
    return tuple(a for a in _REDEALS[: sw.players] if redeal_refusal(sw, s, a) is None)


def flashes(sw: Switches, s: State, defender: int) -> tuple[Action, ...]:
    """The defender's legal Flash actions (S2): trumps of the attack's rank."""
    rank = s.attacks[0].rank
    actions = _FLASHES[defender]
    return tuple(
        actions[card]
        for card in s.hands[defender]
        if card.rank is rank and defender_refusal(sw, s, actions[card]) is None
    )


def transfer_rank(sw: Switches, s: State, defender: int) -> Rank | None:
    """The rank the defender may transfer with now, or None (S1, S2). The refusal check
    decides: it depends on the card only through its rank."""
    rank = s.attacks[0].rank
    for card in s.hands[defender]:
        if card.rank is rank:
            probe = new_action((TRANSFER, defender, card, None))
            return rank if defender_refusal(sw, s, probe) is None else None
    return None


def _bout_actions(
    defence: tuple[
        int,
        tuple[Card, ...],
        tuple[Card, ...],
        tuple[Card | None, ...],
        Suit,
        Rank | None,
        tuple[Action, ...],
    ]
    | None,
    adders: list[tuple[int, tuple[Card, ...], int]] | None,
    swap: Action | None,
) -> Iterator[Action]:
    """The actions of a bout from copies: ``defence`` is (defender, his hand, the attack and
    defence cards, the trump, the rank he may transfer with or None, his legal Flash actions),
    None when nobody defends
    now; ``adders`` are the throw-in seats with their hands and the ranks each may add, as a bit
    mask of ``Card.rank_bit`` (0: pass only)."""
    if defence is not None:
        defender, hand, attacks, defences, trump, transfer, flashes = defence
        beaters = _BEATERS[trump] or _beaters(trump)
        beat_actions = _BEATS[defender]
        for target, cover in zip(attacks, defences):  # noqa: B905 (same length)
            if cover is None:
                mask = beaters[target.index]
                beat_with = beat_actions.get(target) or _beat_actions(defender, target)
                for card in hand:
                    if mask >> card.index & 1:
                        yield beat_with[card]
        if transfer is not None:
            transfers = _TRANSFERS[defender]
            for card in hand:
                if card.rank is transfer:
                    yield transfers[card]
        if flashes:
            yield from flashes
        yield _TAKES[defender]
    if adders is not None:
        for seat, hand, allowed in adders:
            if allowed:
                throws = _THROWS[seat]
                for card in hand:
                    if card.rank_bit & allowed:
                        yield throws[card]
            yield _PASSES[seat]
    if swap is not None:
        yield swap
