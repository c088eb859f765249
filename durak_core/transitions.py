"""Applying an action: cards move, the bout ends in a bito or a pick-up, hands are refilled,
players go out and the game ends.

Events are built only when the game records them (not in playout mode, ``events=False``).
Lists that :meth:`State.snapshot` shares (stock, discard, active, passed, out order) are
replaced, never changed in place."""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from ._base import (
    EV_BEAT,
    EV_BITO,
    EV_BOUT_START,
    EV_DRAW,
    EV_FLASH,
    EV_GAME_OVER,
    EV_LEAD,
    EV_MISDEAL,
    EV_PASS,
    EV_PICK_UP,
    EV_PLAYER_OUT,
    EV_REPETITION,
    EV_SWAP,
    EV_TAKE,
    EV_THROW_IN,
    EV_TRANSFER,
    NO_CARDS,
    PHASE_BOUT,
    PHASE_LEAD,
    PHASE_OVER,
    PREVIOUS_ATTACKER,
    NoEvents,
    new_event,
)
from .actions import BEAT, FLASH, LEAD, PASS, SWAP, TAKE, THROW, TRANSFER, Action
from .bout import compute_throw_in_turn, low_trump, swap_partner
from .cards import Card
from .dealing import deal_events, deal_hands, fresh_state, pick_first_attacker, turn_up
from .events import Event
from .reasons import Reason
from .rules import FlashReuse
from .state import DeferredKey, State, bout_key
from .switches import Switches, cover, defender_for, next_active, next_mate, one_team_left

__all__ = [
    "Outcome",
    "apply",
    "drawn_by_repetition",
    "losers",
    "outcome",
    "settle",
    "start_bout_event",
]

ONCE_PER_BOUT = FlashReuse.ONCE_PER_BOUT


def apply(sw: Switches, s: State, action: Action, events: list[Event]) -> State:
    """Apply ``action`` to ``s`` in place and return the state the game goes on with: ``s``,
    or after a new deal (C20) a new one. ``events`` gets what happened (a :class:`NoEvents`
    log records nothing, and nothing is built for it). Every action is assumed legal
    (checked or generated): anything else may corrupt the state."""
    kind, seat, card, target = action
    if kind is BEAT:
        if TYPE_CHECKING:  # narrowing for the type checker only (hot path)
            assert card is not None and target is not None
        s.hands[seat].remove(card)
        if s.low_trump_origin is not None and card is low_trump(sw, s):
            s.low_trump_origin = None
        s.defences[s.attacks.index(target)] = card
        if sw.reset_on_card and True in s.passed:
            s.passed = [False] * sw.players
        if events.__class__ is not NoEvents:
            events.append(new_event((EV_BEAT, seat, (card, target), None, 0, "")))
        settle(sw, s, events)
    elif kind is PASS:
        passed = s.passed[:]
        passed[seat] = True
        s.passed = passed
        if events.__class__ is not NoEvents:
            events.append(new_event((EV_PASS, seat, NO_CARDS, None, 0, "")))
        settle(sw, s, events)
    elif kind is TAKE:
        s.taking = True
        s.passed = [False] * sw.players
        if events.__class__ is not NoEvents:
            events.append(new_event((EV_TAKE, seat, NO_CARDS, None, 0, "")))
        settle(sw, s, events)
    elif kind is LEAD or kind is THROW or kind is TRANSFER:
        if TYPE_CHECKING:
            assert card is not None
        s.hands[seat].remove(card)
        if s.low_trump_origin is not None and card is low_trump(sw, s):
            s.low_trump_origin = None
        s.attacks.append(card)
        s.defences.append(None)
        record = events.__class__ is not NoEvents
        if kind is LEAD:
            s.phase = PHASE_BOUT
            s.turnup_holder = None  # S0: the late swap window closes with the next lead
            if record:
                events.append(new_event((EV_LEAD, seat, (card,), None, 0, "")))
        elif kind is THROW:
            if sw.reset_on_card and True in s.passed:
                s.passed = [False] * sw.players
            if record:
                events.append(new_event((EV_THROW_IN, seat, (card,), None, 0, "")))
        else:  # transfer
            nxt = defender_for(sw, s.active, seat)
            s.attacker = seat
            s.defender = nxt
            s.defender_hand_at_start = len(s.hands[nxt])
            s.passed = [False] * sw.players
            if record:
                events.append(new_event((EV_TRANSFER, seat, (card,), nxt, 0, "")))
        if s.taking or sw.throw_any_time:
            settle(sw, s, events)
        else:
            # an unbeaten card shuts the throw-in window (C12) and cannot end the bout:
            # what settle would find, without asking
            s.throw_in_turn = ()
    elif kind is SWAP:
        # a swap changes no card count: who may add or pass stays the same
        _apply_swap(sw, s, events, seat)
    elif kind is FLASH:
        if TYPE_CHECKING:
            assert card is not None
        _apply_flash(sw, s, events, seat, card)
    else:  # REDEAL
        return _apply_redeal(sw, s, events, seat)
    return s


def _apply_flash(sw: Switches, s: State, events: list[Event], seat: int, card: Card) -> None:
    """S2 «Flash»: the defender shows a trump of the attack's rank, keeps it, and the
    attack passes on as in a transfer (no card is added to the table)."""
    nxt = defender_for(sw, s.active, seat)
    s.attacker = seat
    s.defender = nxt
    s.defender_hand_at_start = len(s.hands[nxt])
    s.passed = [False] * sw.players
    s.flashed = s.flashed | {card}
    if events.__class__ is not NoEvents:
        events.append(new_event((EV_FLASH, seat, (card,), nxt, 0, "")))
    if sw.throw_any_time:
        settle(sw, s, events)
    else:
        s.throw_in_turn = ()


def _apply_redeal(sw: Switches, s: State, events: list[Event], seat: int) -> State:
    """A new deal asked for by ``seat`` for his misdealt hand (S2, C20): every card in play
    is shuffled (deterministically, from the cards' order and the redeal count, so a
    record replays it) and dealt again by the same dealer; a new trump and first attacker."""
    rules = sw.rules
    players = sw.players
    pool = [card for hand in s.hands for card in hand] + s.stock
    rng = random.Random(f"redeal {s.redeals + 1}: {' '.join(map(str, pool))}")
    rng.shuffle(pool)
    dealer = s.dealer
    if dealer is None:
        dealer = (s.attacker - 1) % players
    record = events.__class__ is not NoEvents
    if record:
        hand = tuple(s.hands[seat])
        events.append(new_event((EV_MISDEAL, seat, hand, None, s.redeals + 1, "request")))
    hands = deal_hands(pool, players, dealer, min(rules.hand_size, len(pool) // players))
    turnup, stock, where = turn_up(pool, hands, dealer)
    attacker, shown, how = pick_first_attacker(
        rules, hands, turnup.suit, dealer, rng.randrange, s.previous_durak
    )
    new = fresh_state(rules, hands, stock, turnup, turnup.suit, attacker)
    new.redeals = s.redeals + 1
    new.previous_durak = s.previous_durak
    new.dealer = s.dealer
    if record:
        events.extend(deal_events(dealer, len(hands[0]), turnup, where, attacker, shown, how))
    start_bout_event(new, events)
    return new


def _apply_swap(sw: Switches, s: State, events: list[Event], seat: int) -> None:
    partner = swap_partner(sw, s, seat)
    low = low_trump(sw, s)
    up = s.turnup
    assert up is not None and not isinstance(partner, Reason)
    hand = s.hands[seat]
    hand[hand.index(low)] = up
    if partner == -1:
        stock = s.stock[:]
        stock[0] = low
        s.stock = stock
        s.turnup = low
        other = None
    else:
        assert partner is not None
        other_hand = s.hands[partner]
        other_hand[other_hand.index(up)] = low
        s.turnup_holder = None
        other = partner
    s.low_trump_origin = None
    if events.__class__ is not NoEvents:
        events.append(new_event((EV_SWAP, seat, (low, up), other, 0, "")))


def settle(sw: Switches, s: State, events: list[Event]) -> None:
    """End the bout when nobody can or may add anything more; refresh the throw-in turn."""
    if s.phase is not PHASE_BOUT:
        return
    turn = s.throw_in_turn = compute_throw_in_turn(sw, s)
    if s.taking:
        if not turn:
            _end_bout(sw, s, events, defended=False)
    elif (not turn or not s.hands[s.defender]) and None not in s.defences:
        _end_bout(sw, s, events, defended=True)


def _end_bout(sw: Switches, s: State, events: list[Event], *, defended: bool) -> None:
    record = events.__class__ is not NoEvents
    players = sw.players
    sw = sw
    defender = s.defender
    table = [*s.attacks, *filter(None, s.defences)]
    if defended:
        s.discard = s.discard + table
        if record:
            events.append(new_event((EV_BITO, defender, tuple(table), None, len(table), "")))
    else:
        s.hands[defender].extend(table)
        if record:
            events.append(new_event((EV_PICK_UP, defender, tuple(table), None, len(table), "")))
    s.attacks = []
    s.defences = []
    s.throw_in_turn = ()
    s.taking = False
    if s.flashed and sw.rules.flash_reuse is ONCE_PER_BOUT:
        s.flashed = frozenset()
    if s.stock:
        _draw(sw, s, events, defender)
    # who is out: no cards once the stock is empty (S0, S1, S2, S3)
    if not s.stock:
        active = s.active
        hands = s.hands
        seat = s.lead_attacker
        for _ in range(players):
            if active[seat] and not hands[seat]:
                if active is s.active:
                    active = s.active = active[:]
                active[seat] = False
                s.out_order = [*s.out_order, seat]
                if record:
                    events.append(
                        new_event((EV_PLAYER_OUT, seat, NO_CARDS, None, len(s.out_order), ""))
                    )
            seat = (seat + 1) % players
        remaining = [i for i, a in enumerate(active) if a]
        if len(remaining) <= 1 or (sw.team_loses and one_team_left(sw, active)):
            s.phase = PHASE_OVER
            if len(remaining) > 1:
                # S0 (ii): the whole team loses; its durak is the loser nearest clockwise
                # after the first player who went out (one of S0's criteria)
                s.durak = _nearest_after(remaining, s.out_order[0], players)
            elif remaining:
                s.durak = remaining[0]
            elif not sw.rules.allow_draw:
                s.durak = s.previous_durak
            if record:
                if s.durak is None:
                    detail = "draw"
                elif not remaining:
                    detail = "previous_durak"  # all empty at once, no draws (S0)
                elif sw.team_loses:
                    detail = "team"  # his whole team loses (S0, S2)
                else:
                    detail = "durak"
                events.append(new_event((EV_GAME_OVER, s.durak, NO_CARDS, None, 0, detail)))
            return
    active = s.active
    new_defender: int | None = None
    if sw.team_turns and not one_team_left(sw, active):
        # S0's six-player example: each team's turns go round its own members with cards:
        # a successful defender (or his next team-mate, if he is out) attacks the
        # attacker's next team-mate; after a take the attacker's next team-mate attacks
        # the defender's next team-mate
        turn = cover(sw, active, defender) if defended else next_mate(sw, active, s.attacker)
        new_defender = next_mate(sw, active, s.attacker if defended else defender)
        assert turn is not None and new_defender is not None  # two teams are still in
        attacker = turn
    elif defended:
        if active[defender]:
            attacker = defender
        elif sw.skip_partners and (mate := cover(sw, active, defender)) is not None:
            attacker = mate  # C23: a team-mate takes the turn of one who is out
        elif sw.rules.attacker_after_defender_out is PREVIOUS_ATTACKER and active[s.attacker]:
            attacker = s.attacker
        else:
            attacker = next_active(active, defender)
    elif sw.skip_partners and (mate := cover(sw, active, (defender + 1) % players)) is not None:
        # S0: the turn passes to the defender's left; if he is out, to his team-mate
        attacker = mate
    else:
        attacker = next_active(active, defender)
    s.attacker = s.lead_attacker = attacker
    s.defender = new_defender if new_defender is not None else defender_for(sw, active, attacker)
    s.defender_hand_at_start = len(s.hands[s.defender])
    s.phase = PHASE_LEAD
    s.passed = [False] * players
    s.bouts += 1
    limit = sw.rules.repetition_limit
    if limit and not s.stock and _repeated(sw, s, events, limit, defended=defended):
        return
    if record:
        events.append(new_event((EV_BOUT_START, attacker, NO_CARDS, s.defender, 0, "")))


def _repeated(sw: Switches, s: State, events: list[Event], limit: int, *, defended: bool) -> bool:
    """Count the position this bout starts in; at the ``limit``-th time the game is over,
    a draw (``Rules.repetition_limit``). Only a take can bring a position back: beaten
    cards leave the game, so a beaten-off bout forgets every earlier position."""
    seen = () if defended else s.seen
    if not sw.can_repeat:  # nothing to count: keep the position for later
        s.seen = (
            *seen,
            DeferredKey(s.hands, s.attacker, s.defender, s.flashed, s.turnup_holder),
        )
        return False
    key = bout_key(s.hands, s.attacker, s.defender, s.flashed, s.turnup_holder)
    n = seen.count(key) + 1
    s.seen = (*seen, key)
    if n == 1:
        return False
    record = events.__class__ is not NoEvents
    if record:
        events.append(new_event((EV_REPETITION, s.attacker, NO_CARDS, limit, n, "")))
    if n < limit:
        return False
    s.phase = PHASE_OVER
    s.durak = None
    if record:
        events.append(new_event((EV_GAME_OVER, None, NO_CARDS, None, n, "repetition")))
    return True


def _draw(sw: Switches, s: State, events: list[Event], defender: int) -> None:
    """Refill: the bout's first attacker, the others clockwise, the defender last (S0–S4);
    each completes his draw before the next (S3); the turn-up comes last."""
    stock = s.stock
    top = len(stock)  # stock[top - 1] is drawn next
    target = sw.rules.hand_size
    low = low_trump(sw, s) if sw.swap else None
    active = s.active
    record = events.__class__ is not NoEvents
    for seat in _draw_order(sw.players, s.lead_attacker, defender):
        hand = s.hands[seat]
        need = target - len(hand)
        if need <= 0 or not active[seat]:
            continue
        k = need if need < top else top
        drawn = stock[top - k : top][::-1]
        top -= k
        hand.extend(drawn)
        took_turnup = not top and drawn[-1] is s.turnup
        if took_turnup:
            s.turnup_holder = seat
        if low is not None and low in drawn:
            s.low_trump_origin = seat
        if record:
            detail = "turnup" if took_turnup else ""
            events.append(new_event((EV_DRAW, seat, tuple(drawn), None, k, detail)))
        if not top:
            break
    s.stock = stock[:top]


def start_bout_event(s: State, events: list[Event]) -> None:
    """Record that a bout starts: who attacks whom."""
    if events.__class__ is not NoEvents:
        events.append(new_event((EV_BOUT_START, s.attacker, NO_CARDS, s.defender, 0, "")))


def _nearest_after(seats: list[int], start: int, players: int) -> int:
    """The seat of ``seats`` nearest clockwise after ``start``."""
    return min(seats, key=lambda seat: (seat - start) % players)


@cache
def _draw_order(players: int, first: int, defender: int) -> tuple[int, ...]:
    """Who draws in what order: ``first`` (the bout's first attacker), the others clockwise,
    the defender last (S0–S4)."""
    order = [(first + i) % players for i in range(players)]
    order.remove(defender)
    order.append(defender)
    return tuple(order)


# ---------------------------------------------------------------------- how a game ended


class Outcome(NamedTuple):
    """How a game ended: the durak's seat, or ``None`` for a draw; the order players went out."""

    durak: int | None
    out_order: tuple[int, ...]
    losers: tuple[int, ...] = ()
    """Everyone who lost: the durak alone, or his whole team (``TeamEnd.TEAM_LOSES``, S0, S2);
    empty for a draw."""
    repeated: bool = False
    """A draw because the same position came up ``Rules.repetition_limit`` times (the
    players still holding cards lose nothing)."""

    @property
    def is_draw(self) -> bool:
        """Whether nobody lost (everybody went out together, or a position repeated)."""
        return self.durak is None


def outcome(sw: Switches, s: State) -> Outcome | None:
    """How the game in state ``s`` ended; ``None`` while it goes on."""
    if s.phase is not PHASE_OVER:
        return None
    return Outcome(s.durak, tuple(s.out_order), losers(sw, s), drawn_by_repetition(sw, s))


def drawn_by_repetition(sw: Switches, s: State) -> bool:
    """Whether the game ended in a draw because the position it was in came up
    ``Rules.repetition_limit`` times (the ``game_over`` event's detail ``"repetition"``)."""
    limit = sw.rules.repetition_limit
    return (
        s.phase is PHASE_OVER
        and sw.can_repeat
        and bool(limit and s.seen)
        and s.durak is None
        and s.seen.count(s.seen[-1]) >= limit
    )


def losers(sw: Switches, s: State) -> tuple[int, ...]:
    """Who lost, once the game is over: the durak, or his whole team (members already out
    included) under ``TeamEnd.TEAM_LOSES`` (S0 (ii), S2); the previous durak after an
    all-empty finish without draws (S0); empty while the game goes on or for a draw."""
    if s.phase is not PHASE_OVER or drawn_by_repetition(sw, s):
        return ()
    team = sw.team
    if team is not None and s.durak is not None and sw.team_loses:
        return tuple(i for i in range(sw.players) if team[i] == team[s.durak])
    holding = tuple(i for i, a in enumerate(s.active) if a)
    return holding or ((s.durak,) if s.durak is not None else ())
