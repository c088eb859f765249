"""The attributes every layer of :class:`~durak_core.game.Game` shares, and hot-path helpers.

A game is built in layers, each module adding one concern on top of the one before:

``_base`` (attributes) → ``bout`` (the bout's cap, throw-in rights and order) → ``legality``
(why an action is refused) → ``generation`` (the legal actions) → ``transitions`` (applying
an action, ending a bout, drawing) → ``setup`` (dealing, set-up positions) → ``game`` (the
public API: views, play, undo, copy).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from .actions import Action, ActionKind
from .cards import Card
from .events import Event
from .rules import Rules
from .state import State

__all__ = ["GameBase", "NoEvents", "PositionError"]

LEAD, BEAT, THROW, TRANSFER, TAKE, PASS, SWAP = (
    ActionKind.LEAD,
    ActionKind.BEAT,
    ActionKind.THROW,
    ActionKind.TRANSFER,
    ActionKind.TAKE,
    ActionKind.PASS,
    ActionKind.SWAP,
)

# NamedTuple construction without the Python-level __new__ (hot path).
new_action = partial(tuple.__new__, Action)
new_event = partial(tuple.__new__, Event)
NO_CARDS: tuple[Card, ...] = ()


class NoEvents(list[Event]):
    """The event log of a playout game: it records nothing (appending is a no-op)."""

    __slots__ = ()

    def append(self, event: Event, /) -> None:
        pass

    def extend(self, events: object, /) -> None:
        pass


class PositionError(ValueError):
    """A set-up position that is not a possible Durak position; the message says why."""


class GameBase:
    """The state of a game and the rule switches read on every action."""

    __slots__ = (
        "_actions",
        "_events",
        "_lowest_trump",
        "_origin",
        "_reset_on_card",
        "_setup_known",
        "_simple_cap",
        "_state",
        "_swap",
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
    _reset_on_card: bool
    """Does a card added to the table give everyone who passed a new turn (C11)?"""
    _setup_known: tuple[frozenset[Card], ...]
    """Cards a set-up position declares known to be in each hand (e.g. picked up earlier)."""
    _simple_cap: bool
    """Is the cap just min(attack_cap, defender's hand at the start), the common case?"""
    _swap: bool
    """Is a trump swap rule on?"""
    _origin: dict[str, Any]

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
