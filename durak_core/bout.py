"""The bout's limits and rights: the attack cap (C7–C9), who may throw in and in what order
(C10, C11), and where the turn-up is for a trump swap (S0)."""

from __future__ import annotations

from typing import NamedTuple

from ._base import GameBase
from .cards import Card, Rank
from .reasons import Reason
from .rules import (
    CapScope,
    FirstBoutCap,
    HandCap,
    ThrowInPriority,
    ThrowInRights,
    ThrowInTiming,
    TrumpSwap,
)
from .state import Phase

__all__ = ["BoutRules", "Cap"]


class Cap(NamedTuple):
    """How many more attack cards the table takes now, and how that was computed."""

    room: int
    """Attack cards that may still be added (0 or less: the table is full)."""
    cap: int
    """The limit now: the smaller of ``base_cap`` and ``defender_hand``."""
    base_cap: int
    """The rules' limit, or the lower first-bout limit while that applies (C9)."""
    first_bout_cap: bool
    """Whether the first-bout limit applies now (C9)."""
    defender_hand: int
    """The defender's hand the limit counts against (C8)."""
    hand_rule: HandCap
    """Which hand counts: the one he held when he became defender, or his current one."""
    scope: CapScope
    """What counts against the limit: every attack card, or only the unbeaten ones (C7)."""
    on_table: int
    """Attack cards counted now."""


class BoutRules(GameBase):
    """Limits and rights within a bout, read from the state; nothing here changes it."""

    __slots__ = ()

    def _cap(self) -> Cap:
        s = self._state
        rules = self.rules
        base = rules.attack_cap
        first = False
        if rules.first_bout_cap is FirstBoutCap.UNTIL_FIRST_DISCARD:
            first = not s.discard
        elif rules.first_bout_cap is FirstBoutCap.FIRST_BOUT_4PLUS:
            first = s.bouts == 1 and self.players >= 4
        if first:
            base = rules.first_bout_cap_value
        if rules.cap_scope is CapScope.TOTAL:
            if rules.hand_cap is HandCap.AT_DEFENCE_START:
                hand, rule = s.defender_hand_at_start, HandCap.AT_DEFENCE_START
            else:
                hand, rule = len(s.hands[s.defender]), HandCap.CURRENT_HAND
            on_table = len(s.attacks)
            scope = CapScope.TOTAL
        else:
            hand, rule = len(s.hands[s.defender]), HandCap.CURRENT_HAND
            on_table = s.defences.count(None)
            scope = CapScope.UNBEATEN
        cap = base if base < hand else hand
        return Cap(cap - on_table, cap, base, first, hand, rule, scope, on_table)

    def _room(self) -> int:
        """``self._cap().room``, without building the explanation (hot path)."""
        if not self._simple_cap:
            return self._cap().room
        s = self._state
        hand = s.defender_hand_at_start
        base = self.rules.attack_cap
        return (base if base < hand else hand) - len(s.attacks)

    def _may_throw(self, seat: int) -> bool:
        """Throw-in rights (C10), ignoring priority: not the defender, still in, holds cards."""
        s = self._state
        if seat == s.defender or not s.active[seat] or not s.hands[seat]:
            return False
        return seat in self._neighbours() if self._neighbours_only() else True

    def _neighbours_only(self) -> bool:
        rules = self.rules
        if rules.throw_in_rights is ThrowInRights.NEIGHBOURS:
            return True
        limit = rules.neighbours_only_from
        return limit is not None and self._n_active() >= limit

    def _neighbours(self) -> tuple[int, int]:
        """The attacker and the player after the defender («Vecinos», neighbours-only)."""
        s = self._state
        return (s.attacker, self._next_active(s.defender))

    def _throw_order(self) -> list[int]:
        """Eligible throwers: the attacker first, then clockwise from the defender's left."""
        s = self._state
        if self.players == 2:
            a = s.attacker
            return [a] if a != s.defender and s.hands[a] else []
        order = [s.attacker] if self._may_throw(s.attacker) else []
        seat = self._next_active(s.defender)
        while seat != s.defender:
            if seat != s.attacker and self._may_throw(seat):
                order.append(seat)
            seat = self._next_active(seat)
        return order

    def _window_open(self) -> bool:
        """May cards be added now (timing, take), room permitting?"""
        s = self._state
        if s.phase is not Phase.BOUT:
            return False
        if s.taking:
            return self.rules.throw_in_after_take
        return self.rules.throw_in_timing is ThrowInTiming.ANY_TIME or None not in s.defences

    def _compute_throw_in_turn(self) -> list[int]:
        """Seats that may add a card or pass right now (assumes a bout in progress)."""
        s = self._state
        all_beaten = None not in s.defences
        if s.taking:
            if not self.rules.throw_in_after_take:
                return []
        elif not all_beaten and self.rules.throw_in_timing is not ThrowInTiming.ANY_TIME:
            return []
        if self._room() <= 0 and (s.taking or all_beaten):
            return []
        passed = s.passed
        if self.players == 2:
            attacker = s.attacker
            return [] if passed[attacker] or not s.hands[attacker] else [attacker]
        order = [seat for seat in self._throw_order() if not passed[seat]]
        if self.rules.throw_in_priority is ThrowInPriority.FREE:
            return order
        return order[:1]

    def _rank_set(self) -> set[Rank]:
        """The ranks on the table, attack and defence cards alike (S0–S4)."""
        s = self._state
        ranks = {c.rank for c in s.attacks}
        ranks.update(c.rank for c in s.defences if c is not None)
        return ranks

    def _throw_ranks(self, seat: int, ranks: set[Rank]) -> set[Rank]:
        """The ranks ``seat`` may throw in, given the table's ``ranks``: all of them, or under
        «Vecinos» only the first attack card's rank for a player who is not a neighbour."""
        if self.rules.throw_in_rights is ThrowInRights.VECINOS and seat not in self._neighbours():
            return ranks & {self._state.attacks[0].rank}
        return ranks

    def _throwable(self, seat: int, card: Card, ranks: set[Rank]) -> Reason | None:
        """Rank rules for a throw-in by an entitled seat; ``ranks`` are the table's ranks."""
        rank = card.rank
        if rank not in ranks:
            return Reason.RANK_NOT_ON_TABLE
        if rank not in self._throw_ranks(seat, ranks):
            return Reason.ONLY_FIRST_RANK
        return None

    def _low_trump(self) -> Card:
        return self._lowest_trump or Card(self.rules.lowest_rank, self._state.trump)

    def _swap_partner(self, seat: int) -> int | Reason | None:
        """Where the turn-up is for a swap by ``seat``: -1 the stock, a seat, or a refusal."""
        s = self._state
        rules = self.rules
        if rules.trump_swap is TrumpSwap.OFF:
            return Reason.SWAP_DISABLED
        low = self._low_trump()
        if low not in s.hands[seat]:
            return Reason.SWAP_NO_LOWEST_TRUMP
        if s.low_trump_origin != seat:
            return Reason.SWAP_NOT_ORIGINAL_HOLDER
        up = s.turnup
        if up is None or up is low:
            return Reason.SWAP_WINDOW_CLOSED
        if rules.trump_swap is TrumpSwap.ACE_ONLY and up.rank is not Rank.ACE:
            return Reason.SWAP_NOT_ACE
        if s.stock and s.stock[0] is up:
            return -1
        holder = s.turnup_holder
        if holder is not None and holder != seat and up in s.hands[holder]:
            return holder
        return Reason.SWAP_WINDOW_CLOSED
