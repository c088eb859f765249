"""Applying an action: cards move, the bout ends in a bito or a pick-up, hands are refilled,
players go out and the game ends."""

from __future__ import annotations

from ._base import BEAT, LEAD, NO_CARDS, PASS, SWAP, TAKE, THROW, new_event
from .actions import Action
from .events import Event, EventKind
from .generation import Generation
from .reasons import Reason
from .rules import AttackerAfterDefenderOut
from .state import Phase

__all__ = ["Transitions"]


class Transitions(Generation):
    """State changes; every method assumes the action was checked (or generated) legal."""

    __slots__ = ()

    def _apply(self, action: Action) -> None:
        s = self._state
        kind, seat, card, target = action
        events = self._events
        if kind is SWAP:
            self._apply_swap(seat)
            return  # a swap changes no card count: who may add or pass stays the same
        if kind is TAKE:
            s.taking = True
            s.passed = [False] * self.players
            events.append(new_event((EventKind.TAKE, seat, NO_CARDS, None, 0, "")))
        elif kind is PASS:
            s.passed[seat] = True
            events.append(new_event((EventKind.PASS, seat, NO_CARDS, None, 0, "")))
        else:
            assert card is not None
            s.hands[seat].remove(card)
            if card is self._lowest_trump:
                s.low_trump_origin = None
            if kind is BEAT:
                assert target is not None
                s.defences[s.attacks.index(target)] = card
                events.append(new_event((EventKind.BEAT, seat, (card, target), None, 0, "")))
                if self._reset_on_card:
                    s.passed = [False] * self.players
            else:
                s.attacks.append(card)
                s.defences.append(None)
                if kind is LEAD:
                    s.phase = Phase.BOUT
                    s.turnup_holder = None  # S0: the late swap window closes with the next lead
                    events.append(new_event((EventKind.LEAD, seat, (card,), None, 0, "")))
                elif kind is THROW:
                    events.append(new_event((EventKind.THROW_IN, seat, (card,), None, 0, "")))
                    if self._reset_on_card:
                        s.passed = [False] * self.players
                else:  # transfer
                    nxt = self._next_active(seat)
                    s.attacker = seat
                    s.defender = nxt
                    s.defender_hand_at_start = len(s.hands[nxt])
                    s.passed = [False] * self.players
                    events.append(Event(EventKind.TRANSFER, seat, (card,), other=nxt))
        self._settle()

    def _apply_swap(self, seat: int) -> None:
        s = self._state
        partner = self._swap_partner(seat)
        low = self._low_trump()
        up = s.turnup
        assert up is not None and not isinstance(partner, Reason)
        hand = s.hands[seat]
        hand[hand.index(low)] = up
        if partner == -1:
            s.stock[0] = low
            s.turnup = low
            self._events.append(Event(EventKind.SWAP, seat, (low, up)))
        else:
            assert partner is not None
            other = s.hands[partner]
            other[other.index(up)] = low
            s.turnup_holder = None
            self._events.append(Event(EventKind.SWAP, seat, (low, up), other=partner))
        s.low_trump_origin = None

    def _settle(self) -> None:
        """End the bout when nobody can or may add anything more; refresh ``State.actors``."""
        s = self._state
        if s.phase is not Phase.BOUT:
            return
        actors = s.throw_in_turn = self._compute_throw_in_turn()
        if s.taking:
            if not actors:
                self._end_bout(defended=False)
        elif None not in s.defences and (not actors or not s.hands[s.defender]):
            self._end_bout(defended=True)

    def _end_bout(self, *, defended: bool) -> None:
        s = self._state
        events = self._events
        table = [*s.attacks, *(d for d in s.defences if d is not None)]
        defender = s.defender
        if defended:
            s.discard.extend(table)
            events.append(new_event((EventKind.BITO, defender, tuple(table), None, len(table), "")))
        else:
            s.hands[defender].extend(table)
            events.append(
                new_event((EventKind.PICK_UP, defender, tuple(table), None, len(table), ""))
            )
        s.attacks = []
        s.defences = []
        s.throw_in_turn = []
        s.taking = False
        self._draw(defender)
        # who is out: no cards once the stock is empty (S0, S1, S2, S3)
        if not s.stock:
            seat = s.lead_attacker
            for _ in range(self.players):
                if s.active[seat] and not s.hands[seat]:
                    s.active[seat] = False
                    s.out_order.append(seat)
                    events.append(Event(EventKind.PLAYER_OUT, seat, n=len(s.out_order)))
                seat = (seat + 1) % self.players
        remaining = [i for i, a in enumerate(s.active) if a]
        if len(remaining) <= 1:
            s.phase = Phase.OVER
            if remaining:
                s.durak = remaining[0]
            elif not self.rules.allow_draw:
                s.durak = self.previous_durak
            events.append(
                Event(
                    EventKind.GAME_OVER, s.durak, detail="durak" if s.durak is not None else "draw"
                )
            )
            return
        if defended:
            if s.active[defender]:
                attacker = defender
            elif (
                self.rules.attacker_after_defender_out is AttackerAfterDefenderOut.PREVIOUS_ATTACKER
                and s.active[s.attacker]
            ):
                attacker = s.attacker
            else:
                attacker = self._next_active(defender)
        else:
            attacker = self._next_active(defender)
        s.attacker = s.lead_attacker = attacker
        s.defender = self._next_active(attacker)
        s.defender_hand_at_start = len(s.hands[s.defender])
        s.phase = Phase.LEAD
        s.passed = [False] * self.players
        s.bouts += 1
        self._start_bout_event()

    def _draw(self, defender: int) -> None:
        """Refill: the bout's first attacker, the others clockwise, the defender last (S0–S4);
        each completes his draw before the next (S3); the turn-up comes last."""
        s = self._state
        if not s.stock:
            return
        n = self.players
        start = s.lead_attacker
        order = [(start + i) % n for i in range(n)]
        order.remove(defender)
        order.append(defender)
        target = self.rules.hand_size
        low = self._lowest_trump
        for seat in order:
            hand = s.hands[seat]
            if not s.active[seat] or len(hand) >= target or not s.stock:
                continue
            k = min(target - len(hand), len(s.stock))
            drawn = s.stock[-k:][::-1]
            del s.stock[-k:]
            hand.extend(drawn)
            took_turnup = not s.stock and drawn[-1] is s.turnup
            if took_turnup:
                s.turnup_holder = seat
            if low is not None and low in drawn:
                s.low_trump_origin = seat
            detail = "turnup" if took_turnup else ""
            self._events.append(new_event((EventKind.DRAW, seat, tuple(drawn), None, k, detail)))

    def _start_bout_event(self) -> None:
        s = self._state
        self._events.append(
            new_event((EventKind.BOUT_START, s.attacker, NO_CARDS, s.defender, 0, ""))
        )
