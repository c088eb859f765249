"""The game's public API: views of the position, legal actions, checked play, undo, copies.

The rules live in the layers below (see ``_base``): ``bout``, ``legality``, ``generation``,
``transitions`` and ``setup``.

>>> g = Game.deal(Rules(), players=2, seed=7)
>>> first = next(iter(g.legal_actions()))
>>> g.play(first)
>>> g.undo() == first
True
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ._base import GameBase, NoEvents, PositionError
from .actions import Action
from .bout import Cap
from .cards import Card, Rank, Suit
from .events import Event
from .generation import LegalActions
from .reasons import IllegalAction
from .setup import Setup, position_dict
from .state import Phase, State

__all__ = ["Cap", "Game", "LegalActions", "Outcome", "PositionError", "position_dict"]


class Outcome(NamedTuple):
    """How a game ended: the durak's seat, or ``None`` for a draw; the order players went out."""

    durak: int | None
    out_order: tuple[int, ...]

    @property
    def is_draw(self) -> bool:
        return self.durak is None


class Game(Setup):
    """A game of Durak under a :class:`Rules`. Create with :meth:`deal` or :meth:`from_position`.

    ``play`` checks an action and raises :class:`IllegalAction` (state unchanged) or applies it;
    ``undo`` takes the last action back. Seats are numbered clockwise: each attacker attacks the
    next seat still in (to his left).
    """

    __slots__ = ()

    def __init__(self) -> None:
        raise TypeError("use Game.deal(...) or Game.from_position(...)")

    # ------------------------------------------------------------------ public views

    @property
    def state(self) -> State:
        """The live state. Read it, do not change it (use :meth:`copy` for experiments)."""
        return self._state

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def trump(self) -> Suit:
        return self._state.trump

    @property
    def turnup(self) -> Card | None:
        return self._state.turnup

    @property
    def attacker(self) -> int:
        return self._state.attacker

    @property
    def defender(self) -> int:
        return self._state.defender

    @property
    def taking(self) -> bool:
        return self._state.taking

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._state.hands[seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._state.hands)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top (next to draw) first; the turn-up, while there, is last."""
        return tuple(reversed(self._state.stock))

    @property
    def discard(self) -> tuple[Card, ...]:
        return tuple(self._state.discard)

    @property
    def table(self) -> tuple[tuple[Card, Card | None], ...]:
        """(attack, defence or None) pairs of the bout in progress."""
        return tuple(zip(self._state.attacks, self._state.defences, strict=True))

    def table_ranks(self) -> list[Rank]:
        """Ranks on the table, attack and defence cards alike, ascending (S0–S4)."""
        s = self._state
        ranks = {c.rank for c in s.attacks}
        ranks.update(c.rank for c in s.defences if c is not None)
        return sorted(ranks)

    def active_seats(self) -> list[int]:
        return [i for i, a in enumerate(self._state.active) if a]

    @property
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on."""
        s = self._state
        if s.phase is not Phase.OVER:
            return None
        return Outcome(s.durak, tuple(s.out_order))

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def events_since(self, index: int) -> list[Event]:
        return self._events[index:]

    @property
    def event_count(self) -> int:
        return len(self._events)

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def setup_known(self) -> tuple[frozenset[Card], ...]:
        """Cards a set-up position declared known to be in each hand (see ``from_position``)."""
        return self._setup_known or tuple(frozenset() for _ in range(self.players))

    @property
    def origin(self) -> dict[str, Any]:
        """How the game was set up: ``{"seed", "dealer", ...}`` or ``{"position": ...}``."""
        return dict(self._origin)

    def position(self) -> dict[str, Any]:
        """The position now, in :meth:`from_position`'s keyword form (JSON-ready), so that
        ``Game.from_position(rules, **game.position())`` sets it up again. A position does not
        say who has passed in this bout or which cards each seat has seen."""
        s = self._state
        in_stock = self.turnup_in_stock
        return position_dict(
            hands=s.hands,
            stock=self.stock[:-1] if in_stock else self.stock,
            turnup=s.turnup if in_stock else None,
            trump=s.trump,
            attacker=s.attacker,
            defender=s.defender,
            discard=s.discard,
            table=self.table,
            taking=s.taking,
            out=[i for i, a in enumerate(s.active) if not a],
            bouts=s.bouts,
            previous_durak=self.previous_durak,
            known={},
        )

    @property
    def turnup_in_stock(self) -> bool:
        """Whether the turned-up trump still lies under the stock (it is drawn last)."""
        s = self._state
        return bool(s.stock) and s.turnup is not None and s.stock[0] is s.turnup

    def defending(self, seat: int) -> bool:
        """Whether ``seat`` is the defender facing unbeaten attack cards and has not said «take»."""
        s = self._state
        return s.phase is Phase.BOUT and seat == s.defender and not s.taking and None in s.defences

    def card_actions(self, seat: int, card: Card) -> list[tuple[Action, IllegalAction | None]]:
        """Every action ``seat`` could mean by playing ``card`` now, most likely first, each
        with its refusal (``None`` when legal): a lead; a throw-in; or, for a defender facing
        unbeaten cards, a beat of each of them and (perevodnoy) a transfer, the transfer first
        when the card has the attack's rank (even once it is too late: that is what it means).

        >>> g = Game.from_position(Rules(), ["7C 9H", "8C 6D"], trump="S", table=[("6C", None)])
        >>> [(str(a), r and r.reason.value) for a, r in g.card_actions(1, Card.parse("8C"))]
        [('1:8C/6C', None)]
        """
        s = self._state
        candidates: list[Action]
        if s.phase is Phase.LEAD:
            candidates = [Action.lead(seat, card)]
        elif self.defending(seat):
            beats = [Action.beat(seat, card, a) for a, d in self.table if d is None]
            transfer = [Action.transfer(seat, card)] if self.rules.transfer else []
            if transfer and card.rank is s.attacks[0].rank:
                candidates = [*transfer, *beats]
            else:
                candidates = [*beats, *transfer]
        else:
            candidates = [Action.throw(seat, card)]
        return [(action, self._refusal(action)) for action in candidates]

    def acting_seats(self) -> list[int]:
        """Seats that have at least one legal action now (in seat order)."""
        return sorted({a.seat for a in self._generate()})

    def throw_in_turn(self) -> list[int]:
        """Seats whose turn it is to add a card or pass, in priority order."""
        return list(self._state.throw_in_turn)

    def cap(self) -> Cap:
        """The attack limit now and how it is computed (C7, C8, C9)."""
        return self._cap()

    def copy(self, *, history: bool = False, undo: bool = True, events: bool = True) -> Game:
        """An independent game in the same position, with the same record of actions.

        ``history=True`` also copies the undo snapshots, so the copy can take moves back past
        the moment of copying; ``undo=False`` makes a fast copy for playouts that never undo;
        ``events=False`` records no more events (the copy's :attr:`events` is empty)."""
        other = object.__new__(Game)
        for name in GameBase.__slots__:
            setattr(other, name, getattr(self, name))
        other._state = self._state.copy()
        other._events = self._events[:] if events else NoEvents()
        other._actions = self._actions[:]
        if not undo:
            other._undo = None
        elif history and self._undo is not None:
            other._undo = [(state.copy(), n) for state, n in self._undo]
        else:
            other._undo = []
        return other

    def __repr__(self) -> str:
        s = self._state
        pairs = " ".join(
            f"{a}/{d if d else '-'}" for a, d in zip(s.attacks, s.defences, strict=True)
        )
        return (
            f"<Game {self.players}p {s.phase.value} bout {s.bouts}: {s.attacker}->{s.defender} "
            f"trump {s.trump.symbol} stock {len(s.stock)} table [{pairs}]>"
        )

    # ------------------------------------------------------------------ legality

    def legal_actions(self) -> LegalActions:
        return LegalActions(self)

    def is_legal(self, action: Action) -> bool:
        return self._refusal(action) is None

    def why_illegal(self, action: Action) -> IllegalAction | None:
        """The refusal :meth:`play` would raise, or ``None`` if ``action`` is legal."""
        return self._refusal(action)

    def play(self, action: Action | str) -> None:
        """Check and apply ``action`` (an :class:`Action` or its notation).

        Raises :class:`IllegalAction` with a reason code, leaving the state exactly unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        refusal = self._refusal(action)
        if refusal is not None:
            raise refusal
        self.push(action)

    def push(self, action: Action) -> None:
        """Apply ``action`` without checking it (fast path for search and playouts).

        Only for actions known to be legal, e.g. taken from :meth:`legal_actions`; anything
        else may corrupt the state. Undoable like :meth:`play`.
        """
        self._actions.append(action)
        if self._undo is not None:
            self._undo.append((self._state.copy(), len(self._events)))
        self._apply(action)

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if self._undo is None:
            raise RuntimeError("this game keeps no undo snapshots (it was made with undo=False)")
        if not self._undo:
            raise IndexError("nothing to undo" if not self._actions else "no snapshot to undo to")
        state, n_events = self._undo.pop()
        self._state = state
        del self._events[n_events:]
        return self._actions.pop()
