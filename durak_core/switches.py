"""The rule switches a game reads on every action, and the seats they decide.

The rules say a lot that does not change during a game: whether partners are spared, whether
the cap is the simple one, whether a position can ever come back. :func:`switches` works that
out once per (rules, players) and caches it as one frozen :class:`Switches`; the seat helpers
below are functions of it and the players still in (``State.active``): who attacks whom, who
covers for a team-mate who is out (S0, S2; C23).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .rules import (
    CapScope,
    FirstBoutCap,
    HandCap,
    Misdeal,
    MisdealMode,
    Rules,
    TeamEnd,
    TeamRotation,
    Teams,
    ThrowInPriority,
    ThrowInTiming,
    TrumpSwap,
    team_of,
)

__all__ = [
    "Switches",
    "cover",
    "defender_for",
    "next_active",
    "next_mate",
    "next_opponent",
    "one_team_left",
    "switches",
    "teams_in",
]


@dataclass(frozen=True, slots=True)
class Switches:
    """What a game's rules decide once and for all, for a number of players; with the state,
    all that the rule functions (``bout``, ``legality``) read."""

    rules: Rules
    players: int
    team: tuple[int, ...] | None
    """Each seat's team (``Rules.teams``), or None when everyone plays for himself."""
    skip_partners: bool
    """Does the attack go to the next *opponent* (team play, S0: ``skip_partners`` and
    ``team_turns``), not the next player?"""
    team_turns: bool
    """Do each team's turns go round its own members (S0's six-player example)?"""
    team_loses: bool
    """In team play: does the game end when one team is left, the whole team losing (S0, S2)?"""
    reset_on_card: bool
    """Does a card added to the table give everyone who passed a new turn (C11)?"""
    simple_cap: bool
    """Is the cap just min(attack_cap, defender's hand at the start), the common case?"""
    throw_any_time: bool
    """May cards be thrown in while some are still unbeaten (C12)?"""
    swap: bool
    """Is a trump swap rule on?"""
    redeal: bool
    """May a player with a misdealt hand ask for a new deal (C20, on request)?"""
    can_repeat: bool
    """Can a position come back (transfers, a Flash, or three or more players)? Only then does
    the repetition rule count the positions a bout starts in. With two players and neither, a
    take leaves the same attacker with fewer cards and a beaten-off bout discards."""


#: The switches of rules objects seen lately, by the object's identity (hashing a Rules is
#: slow, and a game, its copies and a search's worlds share one): (that object, its
#: switches), at most :data:`_IDENTITIES` of them.
_by_identity: dict[tuple[int, int], tuple[Rules, Switches]] = {}
_IDENTITIES = 256


def switches(rules: Rules, players: int) -> Switches:
    """The switches of ``rules`` for ``players`` (cached: one value per pair of equal rules
    and players, found first by the rules object's identity)."""
    seen = _by_identity.get((id(rules), players))
    if seen is not None and seen[0] is rules:
        return seen[1]
    sw = _switches(rules, players)
    if len(_by_identity) >= _IDENTITIES:
        _by_identity.clear()
    _by_identity[id(rules), players] = (rules, sw)
    return sw


@cache
def _switches(rules: Rules, players: int) -> Switches:
    team = team_of(rules.teams, players) if rules.teams is not Teams.NONE else None
    skip_partners = team is not None and rules.team_rotation is not TeamRotation.INDIVIDUAL
    return Switches(
        rules=rules,
        players=players,
        team=team,
        skip_partners=skip_partners,
        team_turns=skip_partners and rules.team_rotation is TeamRotation.TEAM_TURNS,
        team_loses=team is not None and rules.team_end is TeamEnd.TEAM_LOSES,
        reset_on_card=rules.throw_in_priority is not ThrowInPriority.ATTACKER_UNTIL_PASS,
        simple_cap=(
            rules.first_bout_cap is FirstBoutCap.NONE
            and rules.cap_scope is CapScope.TOTAL
            and rules.hand_cap is HandCap.AT_DEFENCE_START
        ),
        throw_any_time=rules.throw_in_timing is ThrowInTiming.ANY_TIME,
        swap=rules.trump_swap is not TrumpSwap.OFF,
        redeal=rules.misdeal is not Misdeal.OFF and rules.misdeal_mode is MisdealMode.ON_REQUEST,
        can_repeat=players > 2 or rules.transfer or rules.flash,
    )


def next_active(active: Sequence[bool], seat: int) -> int:
    """The next seat clockwise after ``seat`` still in (``seat`` itself if nobody else is)."""
    n = len(active)
    nxt = (seat + 1) % n
    while not active[nxt] and nxt != seat:
        nxt = (nxt + 1) % n
    return nxt


def teams_in(team: Sequence[int], active: Sequence[bool]) -> set[int]:
    """The teams (``team``: each seat's) of the players still in (``active``)."""
    return {team[seat] for seat, on in enumerate(active) if on}


def one_team_left(sw: Switches, active: Sequence[bool]) -> bool:
    """In team play: are all the players still in on one team?"""
    team = sw.team
    assert team is not None
    return len(teams_in(team, active)) <= 1


def next_opponent(team: Sequence[int], active: Sequence[bool], attacker: int) -> int | None:
    """The next seat clockwise after ``attacker`` still in and on another team, or None."""
    n = len(active)
    for k in range(1, n):
        seat = (attacker + k) % n
        if active[seat] and team[seat] != team[attacker]:
            return seat
    return None


def defender_for(sw: Switches, active: Sequence[bool], attacker: int) -> int:
    """Whom ``attacker`` attacks: the next player still in, clockwise; in team play the next
    *opponent* still in (S0, S2; C23), or the next player once only one team is left."""
    if sw.skip_partners:
        team = sw.team
        assert team is not None
        opponent = next_opponent(team, active, attacker)
        if opponent is not None:
            return opponent
    return next_active(active, attacker)


def next_mate(sw: Switches, active: Sequence[bool], seat: int) -> int | None:
    """``seat``'s next team-mate clockwise still in, or ``seat`` himself if he is his team's
    only player still in; None if his whole team is out (S0's team turns)."""
    team = sw.team
    assert team is not None
    n = len(active)
    for k in range(1, n + 1):
        mate = (seat + k) % n
        if active[mate] and team[mate] == team[seat]:
            return mate
    return None


def cover(sw: Switches, active: Sequence[bool], seat: int) -> int | None:
    """Who takes ``seat``'s turn to attack in team play: ``seat`` if still in, else the next
    team-mate clockwise still in (S0: team-mates cover for one who is out; C23); None if his
    whole team is out."""
    if active[seat]:
        return seat
    team = sw.team
    assert team is not None
    n = len(active)
    mate = seat
    for _ in range(n - 1):
        mate = (mate + 1) % n
        if active[mate] and team[mate] == team[seat]:
            return mate
    return None
