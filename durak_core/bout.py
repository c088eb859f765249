"""The bout's limits and rights: the attack cap (C7–C9), who may throw in and in what order
(C10, C11), and where the turn-up is for a trump swap (S0).

Each is a function of the game's :class:`~durak_core.switches.Switches` (``sw``: the rules and
what they decide once) and its :class:`~durak_core.state.State` (``s``); nothing here changes
the state, except the cache of the throw-in rights (see :func:`throw_rights`).
"""

from __future__ import annotations

from typing import NamedTuple

from ._base import (
    ACE,
    AT_DEFENCE_START,
    CURRENT_HAND,
    FIRST_BOUT_4PLUS,
    FREE_PRIORITY,
    NEIGHBOURS,
    PHASE_BOUT,
    SWAP_ACE_ONLY,
    SWAP_OFF,
    TOTAL,
    UNBEATEN,
    UNTIL_FIRST_DISCARD,
    VECINOS,
)
from .cards import Card, Rank
from .reasons import Reason
from .rules import CapScope, HandCap
from .state import State
from .switches import Switches, next_active, one_team_left

__all__ = [
    "Cap",
    "cap",
    "compute_throw_in_turn",
    "defending",
    "is_partner",
    "is_partner_of_defender",
    "low_trump",
    "neighbours",
    "neighbours_only",
    "rank_mask",
    "rank_set",
    "room",
    "swap_partner",
    "throw_mask",
    "throw_order",
    "throw_rights",
    "throwable",
    "window_open",
]


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


def cap(sw: Switches, s: State) -> Cap:
    """The attack cap now, with how it was computed (C7–C9)."""
    rules = sw.rules
    base = rules.attack_cap
    first = False
    if rules.first_bout_cap is UNTIL_FIRST_DISCARD:
        first = not s.discard
    elif rules.first_bout_cap is FIRST_BOUT_4PLUS:
        first = s.bouts == 1 and sw.players >= 4
    if first:
        base = rules.first_bout_cap_value
    if rules.cap_scope is TOTAL:
        if rules.hand_cap is AT_DEFENCE_START:
            hand, rule = s.defender_hand_at_start, AT_DEFENCE_START
        else:
            hand, rule = len(s.hands[s.defender]), CURRENT_HAND
        on_table = len(s.attacks)
        scope = TOTAL
    else:
        hand, rule = len(s.hands[s.defender]), CURRENT_HAND
        on_table = s.defences.count(None)
        scope = UNBEATEN
    limit = base if base < hand else hand
    return Cap(limit - on_table, limit, base, first, hand, rule, scope, on_table)


def room(sw: Switches, s: State) -> int:
    """``cap(sw, s).room``, without building the explanation (hot path)."""
    if not sw.simple_cap:
        return cap(sw, s).room
    hand = s.defender_hand_at_start
    base = sw.rules.attack_cap
    return (base if base < hand else hand) - len(s.attacks)


def neighbours_only(sw: Switches, s: State) -> bool:
    """Do only the defender's neighbours throw in now (C10)? ``neighbours_only_from`` is a
    rule of individual play: never in team play (S0: «cuando juegan cinco o seis jugadores
    individualmente»)."""
    rules = sw.rules
    if rules.throw_in_rights is NEIGHBOURS:
        return True
    limit = rules.neighbours_only_from
    return limit is not None and sw.team is None and sum(s.active) >= limit


def neighbours(s: State) -> tuple[int, int]:
    """The attacker and the player after the defender («Vecinos», neighbours-only)."""
    return (s.attacker, next_active(s.active, s.defender))


def throw_rights(sw: Switches, s: State) -> tuple[int, ...]:
    """The seats with throw-in rights in priority order, whatever their hands (C10, C11):
    the attacker first, then clockwise from the defender's left; never the defender or a
    player who is out; under neighbours-only the two neighbours alone.

    It changes only when the attacker, the defender or the players still in change (a new
    bout, a transfer, a player going out), so it is cached on the state under those three
    (``active`` by identity: the engine replaces that list rather than change it)."""
    cached = s.throw_rights_cache
    if (
        cached is not None
        and cached[0] is s.active
        and cached[1] == s.attacker
        and cached[2] == s.defender
    ):
        return cached[3]
    attacker, defender, active = s.attacker, s.defender, s.active
    seats = []
    if attacker != defender and active[attacker]:
        seats.append(attacker)
    seat = next_active(active, defender)
    while seat != defender:
        if seat != attacker:
            seats.append(seat)
        seat = next_active(active, seat)
    if neighbours_only(sw, s):
        pair = neighbours(s)
        seats = [seat for seat in seats if seat in pair]
    if partner_defends_any(sw, s):
        # team play: nobody adds cards against his own partner (S0, S2)
        team = sw.team
        assert team is not None
        seats = [seat for seat in seats if team[seat] != team[defender]]
    order = tuple(seats)
    s.throw_rights_cache = (active, attacker, defender, order)
    return order


def partner_defends_any(sw: Switches, s: State) -> bool:
    """In team play with two or more teams still in: do partners spare each other now?"""
    return sw.team is not None and not one_team_left(sw, s.active)


def is_partner(sw: Switches, s: State, seat: int, other: int) -> bool:
    """Are ``seat`` and ``other`` team-mates, while team-mates still spare each other?"""
    if not partner_defends_any(sw, s):
        return False
    team = sw.team
    assert team is not None
    return seat != other and team[seat] == team[other]


def is_partner_of_defender(sw: Switches, s: State, seat: int) -> bool:
    """Is ``seat`` the defender's team-mate, while team-mates still spare each other?"""
    return is_partner(sw, s, seat, s.defender)


def throw_order(sw: Switches, s: State) -> list[int]:
    """Eligible throwers now: the seats with throw-in rights that hold cards, in order."""
    hands = s.hands
    if sw.players == 2:
        a = s.attacker
        return [a] if a != s.defender and hands[a] else []
    return [seat for seat in throw_rights(sw, s) if hands[seat]]


def defending(s: State, seat: int) -> bool:
    """Is ``seat`` the defender facing unbeaten attack cards, not having said «take»?"""
    return s.phase is PHASE_BOUT and seat == s.defender and not s.taking and None in s.defences


def window_open(sw: Switches, s: State) -> bool:
    """May cards be added now (timing, take), room permitting?"""
    if s.phase is not PHASE_BOUT:
        return False
    if s.taking:
        return sw.rules.throw_in_after_take
    return sw.throw_any_time or None not in s.defences


def compute_throw_in_turn(sw: Switches, s: State) -> tuple[int, ...]:
    """Seats that may add a card or pass right now (assumes a bout in progress): none while
    the window is shut (C12: unbeaten cards, a take), none once a full table can only end
    the bout, else the first eligible thrower who has not passed, or all of them (C11)."""
    rules = sw.rules
    if s.taking:
        if not rules.throw_in_after_take or room(sw, s) <= 0:
            return ()
    elif None in s.defences:
        if not sw.throw_any_time:
            return ()
    elif room(sw, s) <= 0:
        return ()
    passed = s.passed
    hands = s.hands
    if sw.players == 2:
        attacker = s.attacker
        return () if passed[attacker] or not hands[attacker] else (attacker,)
    if rules.throw_in_priority is FREE_PRIORITY:
        return tuple(seat for seat in throw_rights(sw, s) if hands[seat] and not passed[seat])
    for seat in throw_rights(sw, s):
        if hands[seat] and not passed[seat]:
            return (seat,)
    return ()


def rank_set(s: State) -> set[Rank]:
    """The ranks on the table, attack and defence cards alike (S0–S4)."""
    ranks = {c.rank for c in s.attacks}
    ranks.update(c.rank for c in s.defences if c is not None)
    return ranks


def rank_mask(s: State) -> int:
    """:func:`rank_set` as a bit mask of ``Card.rank_bit`` (hot path)."""
    mask = 0
    for card in s.attacks:
        mask |= card.rank_bit
    for cover in s.defences:
        if cover is not None:
            mask |= cover.rank_bit
    return mask


def throw_mask(sw: Switches, s: State, seat: int, ranks: int) -> int:
    """The ranks ``seat`` may throw in, given the table's ``ranks`` (a bit mask): all of
    them, or under «Vecinos» only the first attack card's rank for a player who is not a
    neighbour."""
    if sw.rules.throw_in_rights is VECINOS and seat not in neighbours(s):
        return ranks & s.attacks[0].rank_bit
    return ranks


def throwable(sw: Switches, s: State, seat: int, card: Card) -> Reason | None:
    """Rank rules for a throw-in by an entitled seat."""
    ranks = rank_mask(s)
    bit = card.rank_bit
    if not ranks & bit:
        return Reason.RANK_NOT_ON_TABLE
    if not throw_mask(sw, s, seat, ranks) & bit:
        return Reason.ONLY_FIRST_RANK
    return None


def low_trump(sw: Switches, s: State) -> Card:
    """The lowest trump of the game's deck, the one a swap gives (S0)."""
    return Card(sw.rules.lowest_rank, s.trump)


def swap_partner(sw: Switches, s: State, seat: int) -> int | Reason | None:
    """Where the turn-up is for a swap by ``seat``: -1 the stock, a seat, or a refusal."""
    rules = sw.rules
    if rules.trump_swap is SWAP_OFF:
        return Reason.SWAP_DISABLED
    low = low_trump(sw, s)
    if low not in s.hands[seat]:
        return Reason.SWAP_NO_LOWEST_TRUMP
    if s.low_trump_origin != seat:
        return Reason.SWAP_NOT_ORIGINAL_HOLDER
    up = s.turnup
    if up is None or up is low:
        return Reason.SWAP_WINDOW_CLOSED
    if rules.trump_swap is SWAP_ACE_ONLY and up.rank is not ACE:
        return Reason.SWAP_NOT_ACE
    if s.stock and s.stock[0] is up:
        return -1
    holder = s.turnup_holder
    if holder is not None and holder != seat and up in s.hands[holder]:
        return holder
    return Reason.SWAP_WINDOW_CLOSED
