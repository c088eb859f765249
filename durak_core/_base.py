"""The attributes every layer of :class:`~durak_core.game.Game` shares, and hot-path helpers.

A game is built in layers, each module adding one concern on top of the one before:

``_base`` (attributes) → ``bout`` (the bout's cap, throw-in rights and order) → ``legality``
(why an action is refused) → ``generation`` (the legal actions) → ``transitions`` (applying
an action, ending a bout, drawing) → ``setup`` (dealing, set-up positions) → ``game`` (the
public API: views, play, undo, copy).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from .actions import Action
from .cards import Card, Rank
from .events import Event, EventKind
from .rules import (
    AttackerAfterDefenderOut,
    CapScope,
    FirstBoutCap,
    HandCap,
    Rules,
    TeamEnd,
    TeamRotation,
    ThrowInPriority,
    ThrowInRights,
    ThrowInTiming,
    TrumpSwap,
)
from .state import Phase, State

__all__ = ["GameBase", "NoEvents", "PositionError", "next_opponent", "teams_in"]


PHASE_LEAD, PHASE_BOUT, PHASE_OVER = Phase.LEAD, Phase.BOUT, Phase.OVER
ANY_TIME = ThrowInTiming.ANY_TIME
FREE_PRIORITY = ThrowInPriority.FREE
UNTIL_PASS = ThrowInPriority.ATTACKER_UNTIL_PASS
NEIGHBOURS, VECINOS = ThrowInRights.NEIGHBOURS, ThrowInRights.VECINOS
TOTAL, UNBEATEN = CapScope.TOTAL, CapScope.UNBEATEN
AT_DEFENCE_START, CURRENT_HAND = HandCap.AT_DEFENCE_START, HandCap.CURRENT_HAND
UNTIL_FIRST_DISCARD = FirstBoutCap.UNTIL_FIRST_DISCARD
FIRST_BOUT_4PLUS = FirstBoutCap.FIRST_BOUT_4PLUS
SWAP_OFF, SWAP_ACE_ONLY = TrumpSwap.OFF, TrumpSwap.ACE_ONLY
PREVIOUS_ATTACKER = AttackerAfterDefenderOut.PREVIOUS_ATTACKER
TEAM_TURNS = TeamRotation.TEAM_TURNS
TEAM_LOSES = TeamEnd.TEAM_LOSES
ACE = Rank.ACE
(
    EV_LEAD,
    EV_BEAT,
    EV_THROW_IN,
    EV_TRANSFER,
    EV_TAKE,
    EV_PASS,
    EV_PICK_UP,
    EV_BITO,
    EV_DRAW,
    EV_SWAP,
    EV_PLAYER_OUT,
    EV_GAME_OVER,
    EV_BOUT_START,
    EV_FLASH,
    EV_MISDEAL,
    EV_REPETITION,
) = (
    EventKind.LEAD,
    EventKind.BEAT,
    EventKind.THROW_IN,
    EventKind.TRANSFER,
    EventKind.TAKE,
    EventKind.PASS,
    EventKind.PICK_UP,
    EventKind.BITO,
    EventKind.DRAW,
    EventKind.SWAP,
    EventKind.PLAYER_OUT,
    EventKind.GAME_OVER,
    EventKind.BOUT_START,
    EventKind.FLASH,
    EventKind.MISDEAL,
    EventKind.REPETITION,
)

# NamedTuple construction without the Python-level __new__ (hot path).
new_action = partial(tuple.__new__, Action)
new_event = partial(tuple.__new__, Event)
NO_CARDS: tuple[Card, ...] = ()


class NoEvents(list[Event]):
    """The event log of a playout game: it records nothing (appending is a no-op, and the
    engine does not even build an event when the log is one of these)."""

    __slots__ = ()

    def append(self, event: Event, /) -> None:
        """Record nothing."""

    def extend(self, events: object, /) -> None:
        """Record nothing."""


def teams_in(team: Sequence[int], active: Sequence[bool]) -> set[int]:
    """The teams (``team``: each seat's) of the players still in (``active``)."""
    return {team[seat] for seat, on in enumerate(active) if on}


def next_opponent(team: Sequence[int], active: Sequence[bool], attacker: int) -> int | None:
    """The next seat clockwise after ``attacker`` still in and on another team, or None."""
    n = len(active)
    for k in range(1, n):
        seat = (attacker + k) % n
        if active[seat] and team[seat] != team[attacker]:
            return seat
    return None


class PositionError(ValueError):
    """A set-up position that is not a possible Durak position; the message says why."""


class GameBase:
    """The state of a game and the rule switches read on every action."""

    __slots__ = (
        "_actions",
        "_can_repeat",
        "_events",
        "_lowest_trump",
        "_origin",
        "_redeal",
        "_reset_on_card",
        "_setup_known",
        "_simple_cap",
        "_skip_partners",
        "_state",
        "_swap",
        "_team",
        "_undo",
        "players",
        "previous_durak",
        "rules",
    )

    rules: Rules
    players: int
    previous_durak: int | None
    """The durak of the previous game, if any (he is the durak of a drawn game when
    ``Rules.allow_draw`` is off, S0)."""
    _state: State
    _events: list[Event]
    _actions: list[Action]
    _undo: list[tuple[State, int]] | None
    """Before each action: the state and the number of events (None: undo is off)."""
    _lowest_trump: Card | None
    """The lowest trump while the swap rule is on (its moves are tracked), else None."""
    _can_repeat: bool
    """A position can come back (transfers, a Flash, or three or more players): only then
    does the repetition rule word and count the positions a bout starts in."""
    _redeal: bool
    """May a player with a misdealt hand ask for a new deal (C20, on request)?"""
    _reset_on_card: bool
    """Does a card added to the table give everyone who passed a new turn (C11)?"""
    _setup_known: tuple[frozenset[Card], ...]
    """Cards a set-up position declares known to be in each hand (e.g. picked up earlier)."""
    _simple_cap: bool
    """Is the cap just min(attack_cap, defender's hand at the start), the common case?"""
    _swap: bool
    """Is a trump swap rule on?"""
    _team: tuple[int, ...] | None
    """Each seat's team (``Rules.teams``), or None when everyone plays for himself."""
    _skip_partners: bool
    """Does the attack go to the next *opponent* (team play, S0: ``skip_partners`` and
    ``team_turns``), not the next player?"""
    _origin: dict[str, Any]

    def _init_state(self, state: State) -> None:
        """Make ``state`` the game's (a deal, a set-up, a new deal, an undo): the lowest trump
        the swap rule tracks follows its trump suit."""
        self._state = state
        if self._swap:
            self._lowest_trump = Card(self.rules.lowest_rank, state.trump)

    def _dealer(self) -> int | None:
        """Who dealt this game: the deal's dealer, or the set-up position's (None if unknown)."""
        origin = self._origin
        dealer = origin.get("dealer")
        if isinstance(dealer, int):
            return dealer
        position = origin.get("position")
        return getattr(position, "dealer", None)

    def _next_active(self, seat: int) -> int:
        """The next seat clockwise still in the game."""
        active = self._state.active
        n = self.players
        nxt = (seat + 1) % n
        while not active[nxt]:
            nxt = (nxt + 1) % n
        return nxt

    def _n_active(self) -> int:
        """How many players are still in the game."""
        return sum(self._state.active)

    def _one_team_left(self) -> bool:
        """In team play: are all the players still in on one team?"""
        team = self._team
        assert team is not None
        return len(teams_in(team, self._state.active)) <= 1

    def _defender_for(self, attacker: int) -> int:
        """Whom ``attacker`` attacks: the next player still in, clockwise; in team play the
        next *opponent* still in (S0, S2; C23), or the next player once only one team is left."""
        if self._skip_partners:
            team = self._team
            assert team is not None
            opponent = next_opponent(team, self._state.active, attacker)
            if opponent is not None:
                return opponent
        return self._next_active(attacker)

    def _next_mate(self, seat: int) -> int | None:
        """``seat``'s next team-mate clockwise still in, or ``seat`` himself if he is his
        team's only player still in; None if his whole team is out (S0's team turns)."""
        active = self._state.active
        team = self._team
        assert team is not None
        n = self.players
        for k in range(1, n + 1):
            mate = (seat + k) % n
            if active[mate] and team[mate] == team[seat]:
                return mate
        return None

    def _cover(self, seat: int) -> int | None:
        """Who takes ``seat``'s turn to attack in team play: ``seat`` if still in, else the
        next team-mate clockwise still in (S0: team-mates cover for one who is out; C23);
        None if his whole team is out."""
        active = self._state.active
        if active[seat]:
            return seat
        team = self._team
        assert team is not None
        n = self.players
        mate = seat
        for _ in range(n - 1):
            mate = (mate + 1) % n
            if active[mate] and team[mate] == team[seat]:
                return mate
        return None
