"""The legal actions, generated from a snapshot of the state taken when iteration starts, so
that pushing and undoing actions while iterating never changes what is yielded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ._base import BEAT, LEAD, PASS, SWAP, TAKE, THROW, TRANSFER, new_action
from .actions import Action
from .cards import Card, Suit, beats
from .legality import Legality
from .reasons import Reason
from .state import Phase

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Generation", "LegalActions"]

_NO_ACTIONS: tuple[Action, ...] = ()


class LegalActions:
    """A lazy, re-iterable view of the legal actions (in the spirit of python-chess).

    Each iteration generates afresh from the position at the moment it starts: playing and
    undoing moves inside the loop is safe. ``in`` checks legality directly; ``bool`` stops at
    the first action.
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Action]:
        return self._game._generate()

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError:
                return False
        return isinstance(action, Action) and self._game._refusal(action) is None

    def __bool__(self) -> bool:
        return any(True for _ in self._game._generate())

    def count(self) -> int:
        """How many actions are legal now."""
        return sum(1 for _ in self._game._generate())

    def for_seat(self, seat: int) -> list[Action]:
        """The legal actions of ``seat``."""
        return [a for a in self._game._generate() if a.seat == seat]

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"


class Generation(Legality):
    """Move generation. Each rule is the same one the refusal checks apply (``beats`` for
    beating, ``_throw_ranks`` for throw-ins); fuzz tests check the two agree everywhere."""

    __slots__ = ()

    def _generate(self) -> Iterator[Action]:
        """The legal actions: the defender's first (beats, transfers, take), then each
        throw-in seat's in priority order (cards, pass), then the swap.

        Everything the actions depend on is copied now; the iterator reads only the copies."""
        s = self._state
        phase = s.phase
        if phase is Phase.OVER:
            return iter(_NO_ACTIONS)
        swap = None
        if self._swap:
            origin = s.low_trump_origin
            if origin is not None and not isinstance(self._swap_partner(origin), Reason):
                swap = new_action((SWAP, origin, None, None))
        if phase is Phase.LEAD:
            seat = s.attacker
            return _leads(seat, tuple(s.hands[seat]), swap)
        defence: tuple[int, tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None = None
        defences = s.defences
        if not s.taking and None in defences:
            defender = s.defender
            hand = tuple(s.hands[defender])
            targets = tuple(a for a, d in zip(s.attacks, defences, strict=True) if d is None)
            transfers: tuple[Card, ...] = ()
            if self.rules.transfer and len(targets) == len(defences):
                rank = s.attacks[0].rank
                transfers = tuple(
                    card
                    for card in hand
                    if card.rank is rank
                    and self._defender_refusal(new_action((TRANSFER, defender, card, None))) is None
                )
            defence = (defender, hand, targets, transfers)
        adders: list[tuple[int, tuple[Card, ...]]] = []
        turn = s.throw_in_turn
        if turn:
            ranks = self._rank_set() if self._room() > 0 else None
            for seat in turn:
                if ranks is None:
                    adders.append((seat, ()))
                else:
                    allowed = self._throw_ranks(seat, ranks)
                    adders.append((seat, tuple(c for c in s.hands[seat] if c.rank in allowed)))
        return _bout_actions(s.trump, defence, adders, swap)


def _leads(seat: int, hand: tuple[Card, ...], swap: Action | None) -> Iterator[Action]:
    for card in hand:
        yield new_action((LEAD, seat, card, None))
    if swap is not None:
        yield swap


def _bout_actions(
    trump: Suit,
    defence: tuple[int, tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None,
    adders: list[tuple[int, tuple[Card, ...]]],
    swap: Action | None,
) -> Iterator[Action]:
    if defence is not None:
        defender, hand, targets, transfers = defence
        for target in targets:
            for card in hand:
                if beats(card, target, trump):
                    yield new_action((BEAT, defender, card, target))
        for card in transfers:
            yield new_action((TRANSFER, defender, card, None))
        yield new_action((TAKE, defender, None, None))
    for seat, cards in adders:
        for card in cards:
            yield new_action((THROW, seat, card, None))
        yield new_action((PASS, seat, None, None))
    if swap is not None:
        yield swap
