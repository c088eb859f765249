"""Hot-path aliases the rule modules share (phases, rule values, event and action kinds as
module constants) and the event log of a playout (:class:`NoEvents`).

A game is one class, :class:`~durak_core.game.Game` (rules, switches, state, undo stack,
events). The rules it applies are functions of its :class:`~durak_core.switches.Switches`
(``game.switches``: the rules and what they decide once per number of players) and its state:
``bout`` (the cap, throw-in rights and order, the swap), ``legality`` (why an action is
refused), ``generation`` (the legal actions), ``transitions`` (applying an action, ending a
bout, drawing, how a game ended) and ``setup`` (a new deal's or a position's state).
"""

from __future__ import annotations

from functools import partial

from .actions import Action
from .cards import Card, Rank
from .events import Event, EventKind
from .rules import (
    AttackerAfterDefenderOut,
    CapScope,
    FirstBoutCap,
    HandCap,
    ThrowInPriority,
    ThrowInRights,
    TrumpSwap,
)
from .state import Phase

__all__ = ["NoEvents"]


PHASE_LEAD, PHASE_BOUT, PHASE_OVER = Phase.LEAD, Phase.BOUT, Phase.OVER
FREE_PRIORITY = ThrowInPriority.FREE
UNTIL_PASS = ThrowInPriority.ATTACKER_UNTIL_PASS
NEIGHBOURS, VECINOS = ThrowInRights.NEIGHBOURS, ThrowInRights.VECINOS
TOTAL, UNBEATEN = CapScope.TOTAL, CapScope.UNBEATEN
AT_DEFENCE_START, CURRENT_HAND = HandCap.AT_DEFENCE_START, HandCap.CURRENT_HAND
UNTIL_FIRST_DISCARD = FirstBoutCap.UNTIL_FIRST_DISCARD
FIRST_BOUT_4PLUS = FirstBoutCap.FIRST_BOUT_4PLUS
SWAP_OFF, SWAP_ACE_ONLY = TrumpSwap.OFF, TrumpSwap.ACE_ONLY
PREVIOUS_ATTACKER = AttackerAfterDefenderOut.PREVIOUS_ATTACKER
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
