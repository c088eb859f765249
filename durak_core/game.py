"""The game's public API: views of the position, legal actions, checked play, undo, copies.

The rules live below (see ``_base``): ``bout``, ``legality``, ``generation`` and
``transitions`` as functions of the switches and the state; ``setup`` makes games.

>>> from durak_core import Rules
>>> g = Game.deal(Rules(), players=2, seed=7)
>>> first = next(iter(g.legal_actions()))
>>> g.play(first)
>>> g.undo() == first
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Unpack

from ._base import PHASE_OVER, NoEvents
from .actions import Action
from .bout import Cap, cap, defending
from .cards import Card, Rank, Suit
from .events import Event, known_in_hands
from .generation import acting, generate
from .legality import card_actions, refusal
from .position import Position, PositionError, PositionKeywords, freeze, read_position
from .reasons import IllegalAction
from .rules import Rules
from .setup import deal_state, origin_json, position_state
from .state import Phase, State
from .switches import Switches, switches
from .transitions import Outcome, apply, drawn_by_repetition, losers, outcome

__all__ = ["Cap", "Game", "LegalActions", "Outcome", "PositionError"]


class LegalActions:
    """A re-iterable view of the legal actions (in the spirit of python-chess).

    Each iteration generates them afresh from the position at the moment it starts (lazily,
    from copies), and playing and undoing moves inside the
    loop is safe. ``in`` checks legality directly.
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    if TYPE_CHECKING:

        def __iter__(self) -> Iterator[Action]: ...

    else:
        # ``iter(view)`` is ``view._game._generate()``: a property whose getter returns the
        # bound method, which ``iter`` then calls, saves a Python frame on every iteration
        # (playouts start one per action).
        __iter__ = property(attrgetter("_game._generate"))

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError:
                return False
        return isinstance(action, Action) and self._game.is_legal(action)

    def __bool__(self) -> bool:
        return next(self._game._generate(), None) is not None

    def count(self) -> int:
        """How many actions are legal now."""
        return sum(1 for _ in self._game._generate())

    def for_seat(self, seat: int) -> list[Action]:
        """The legal actions of ``seat``."""
        return [a for a in self._game._generate() if a.seat == seat]

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"


class Game:
    """A game of Durak under a :class:`Rules`. Create with :meth:`deal` or :meth:`from_position`.

    ``play`` checks an action and raises :class:`IllegalAction` (state unchanged) or applies it;
    ``undo`` takes the last action back. Seats are numbered clockwise: each attacker attacks the
    next seat still in (to his left).

    Attributes: ``rules`` (the :class:`Rules`), ``players`` (how many seats) and
    ``previous_durak`` (the previous game's durak, or None). The views below never hand out
    the game's own mutable objects: changing what they return does not change the game.
    """

    __slots__ = (
        "_actions",
        "_events",
        "_origin",
        "_setup_known",
        "_state",
        "_undo",
        "players",
        "rules",
        "switches",
    )

    rules: Rules
    players: int
    _state: State
    _events: list[Event]
    _actions: list[Action]
    _undo: list[tuple[State, int]] | None
    """Before each action: the state and the number of events (None: undo is off)."""
    switches: Switches
    """What the rules decide once for these players (:func:`~durak_core.switches.switches`)."""
    _setup_known: tuple[frozenset[Card], ...]
    """Cards a set-up position declares known to be in each hand (e.g. picked up earlier)."""
    _origin: dict[str, Any]

    def __init__(self) -> None:
        """Not for use: games are made by :meth:`deal` or :meth:`from_position`."""
        raise TypeError("use Game.deal(...) or Game.from_position(...)")

    @classmethod
    def deal(
        cls,
        rules: Rules | None = None,
        players: int = 2,
        seed: int | None = None,
        *,
        deck: str | Iterable[Card | str] | None = None,
        dealer: int | None = None,
        first_attacker: int | None = None,
        previous_durak: int | None = None,
        misdealt: Sequence[tuple[int, str]] = (),
        undo: bool = True,
        events: bool = True,
    ) -> Game:
        """Shuffle with ``seed`` (deterministic), deal one card at a time from the dealer's left,
        turn up the trump, and pick the first attacker. ``deck``, ``dealer``,
        ``first_attacker``, ``previous_durak`` and ``misdealt``: see
        :func:`~durak_core.setup.deal_state`. Raises :class:`PositionError` for a bad deck or
        seat. ``undo=False`` keeps no snapshots (faster playouts; :meth:`undo` is then
        refused); ``events=False`` records no events (playouts: :attr:`events` stays empty)."""
        rules = rules or Rules()
        game = _new_game(cls, rules, players, undo, events)
        game._state, game._origin = deal_state(
            rules,
            players,
            seed,
            deck=deck,
            dealer=dealer,
            first_attacker=first_attacker,
            previous_durak=previous_durak,
            misdealt=misdealt,
            log=game._events,
        )
        return game

    @classmethod
    def from_position(
        cls,
        rules: Rules | None = None,
        hands: Position | Sequence[Iterable[Card | str] | str] = (),
        *,
        undo: bool = True,
        events: bool = True,
        check: bool = True,
        **keywords: Unpack[PositionKeywords],
    ) -> Game:
        """Set up a position: a :class:`Position` (``game.position()``, exact round trip), or
        the keyword form of lessons and records (cards as :class:`Card` or text): the keywords
        of :class:`~durak_core.position.PositionKeywords`, read by
        :func:`~durak_core.position.read_position`, which says what each means and how what is
        left out is derived. Raises :class:`PositionError` saying what is wrong.
        ``check=False`` (a :class:`Position` only) trusts a position built consistent by
        construction and skips most checks (search: ``determinize``'s worlds)."""
        rules = rules or Rules()
        if isinstance(hands, Position):
            if keywords:
                raise TypeError(f"a Position comes alone, not with {', '.join(keywords)}")
            pos = hands
        else:
            pos, check = read_position(rules, hands, **keywords), True
        game = _new_game(cls, rules, pos.players, undo, events)
        game._state = position_state(game.switches, pos, game._events, check=check)
        if any(pos.known):
            game._setup_known = pos.known
        game._origin = {"position": pos}  # worded lazily by Game.origin
        return game

    # ------------------------------------------------------------------ public views
    # Views never expose the game's own mutable objects: they return tuples, frozen values or
    # fresh lists, and ``state`` a snapshot, so nothing a caller does to them changes the game.
    # ``live_state`` alone is the game's own state, for search (read-only by contract).

    @property
    def live_state(self) -> State:
        """The game's own state, not a copy: the search surface, for code that reads the
        position at every node and must not pay for a copy (the solver, playouts). Read it,
        never change it; it is replaced by the next :meth:`push`, :meth:`play` or :meth:`undo`
        (read it again). Everything else should use :attr:`state` or the views below."""
        return self._state

    def key(self) -> tuple[object, ...]:
        """An immutable, hashable key of the state now (:meth:`State.key`): equal exactly when
        two games' states are equal, whatever moves led there (for search tables)."""
        return self._state.key()

    @property
    def state(self) -> State:
        """A snapshot of the state now: an independent copy, made on each access. Changing it
        does not change the game, and it does not follow later moves (read it again)."""
        snapshot = self._state.copy()
        snapshot.throw_in_turn = list(snapshot.throw_in_turn)  # State.copy shares it
        return snapshot

    @property
    def previous_durak(self) -> int | None:
        """The previous game's durak, if any: he is the durak of a drawn game when
        ``Rules.allow_draw`` is off (S0)."""
        return self._state.previous_durak

    @property
    def phase(self) -> Phase:
        """Where the game stands: leading, in a bout, or over."""
        return self._state.phase

    @property
    def trump(self) -> Suit:
        """The trump suit."""
        return self._state.trump

    @property
    def turnup(self) -> Card | None:
        """The card turned up to fix trumps (still shown after it was drawn), or None."""
        return self._state.turnup

    @property
    def attacker(self) -> int:
        """The bout's main attacker."""
        return self._state.attacker

    @property
    def defender(self) -> int:
        """The bout's defender."""
        return self._state.defender

    @property
    def taking(self) -> bool:
        """Whether the defender has said «take» in this bout."""
        return self._state.taking

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, in the order they came (dealt, drawn, picked up)."""
        return tuple(self._state.hands[seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(h) for h in self._state.hands)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top (next to draw) first; the turn-up, while there, is last."""
        return tuple(reversed(self._state.stock))

    @property
    def discard(self) -> tuple[Card, ...]:
        """The cards beaten off, in the order they went."""
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
        """Seats still in the game (a new list)."""
        return [i for i, a in enumerate(self._state.active) if a]

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (:func:`~durak_core.transitions.outcome`); ``None`` while it
        goes on."""
        s = self._state
        return None if s.phase is not PHASE_OVER else outcome(self.switches, s)

    @property
    def drawn_by_repetition(self) -> bool:
        """Whether the game ended in a draw by repetition (``Rules.repetition_limit``)."""
        return drawn_by_repetition(self.switches, self._state)

    @property
    def losers(self) -> tuple[int, ...]:
        """Who lost (:func:`~durak_core.transitions.losers`); empty while the game goes on."""
        return losers(self.switches, self._state)

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened so far, in order (empty for a game made with
        ``events=False``)."""
        return tuple(self._events)

    def events_since(self, index: int) -> list[Event]:
        """The events from ``index`` on (a new list): what the last moves did."""
        return self._events[index:]

    @property
    def event_count(self) -> int:
        """How many events so far (an index for :meth:`events_since`)."""
        return len(self._events)

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions played so far, in order."""
        return tuple(self._actions)

    @property
    def setup_known(self) -> tuple[frozenset[Card], ...]:
        """Cards a set-up position declared known to be in each hand (see ``from_position``)."""
        return self._setup_known or tuple(frozenset() for _ in range(self.players))

    @property
    def origin(self) -> dict[str, Any]:
        """How the game was set up, JSON-ready (a deep copy): ``{"deck", "dealer", "seed", ...}``
        for a deal (see :mod:`~durak_core.record`) or ``{"position": ...}``."""
        return origin_json(self._origin)

    def position(self) -> Position:
        """The position now, complete: ``Game.from_position(rules, game.position())`` plays on
        exactly like this game (same legal actions, same future). ``.to_dict()`` gives it as
        JSON-ready data in :meth:`from_position`'s keyword form."""
        return freeze(self._state, self.known_cards())

    def known_cards(self) -> tuple[frozenset[Card], ...]:
        """For each seat, the cards everybody knows are in that hand now
        (:func:`~durak_core.events.known_in_hands`; a game made with ``events=False`` knows
        only its set-up's)."""
        return known_in_hands(self._events, self._state.hands, self.setup_known)

    @property
    def turnup_in_stock(self) -> bool:
        """Whether the turned-up trump still lies under the stock (it is drawn last)."""
        s = self._state
        return bool(s.stock) and s.turnup is not None and s.stock[0] is s.turnup

    def defending(self, seat: int) -> bool:
        """Whether ``seat`` is the defender facing unbeaten attack cards and has not said «take»."""
        return defending(self._state, seat)

    def card_actions(self, seat: int, card: Card) -> list[tuple[Action, IllegalAction | None]]:
        """Every action ``seat`` could mean by playing ``card`` now, most likely first, each
        with its refusal (``None`` when legal): :func:`~durak_core.legality.card_actions`."""
        return card_actions(self.switches, self._state, seat, card)

    def acting_seats(self) -> list[int]:
        """Seats that have at least one legal action now (in seat order), found without
        generating the actions."""
        return sorted(acting(self.switches, self._state))

    def current_player(self) -> int | None:
        """The seat the game waits for first, without generating the actions: the attacker
        who leads, or the defender while a card is unbeaten, else the first seat whose turn it
        is to add a card or pass; ``None`` once the game is over. Other seats may be able to
        act at the same time (a throw-in, the trump swap): :meth:`acting_seats` lists them
        all, and the first action :meth:`legal_actions` yields is this seat's."""
        seats = acting(self.switches, self._state)
        return seats[0] if seats else None

    def throw_in_turn(self) -> list[int]:
        """Seats whose turn it is to add a card or pass, in priority order."""
        return list(self._state.throw_in_turn)

    def cap(self) -> Cap:
        """The attack limit now and how it is computed (C7, C8, C9)."""
        return cap(self.switches, self._state)

    def copy(self, *, undo: bool = True, events: bool = True, history: bool = True) -> Game:
        """An independent game in the same position, with the same record of actions.

        By default the copy also gets its own undo snapshots, so ``copy().undo()`` takes back
        the last move just as the original would. ``undo=False`` makes a cheap copy for
        playouts: it keeps no snapshots, and its :meth:`undo` raises ``RuntimeError``;
        ``events=False`` records no events (the copy's :attr:`events` is empty). With
        ``history=False`` the copy can undo only moves played after the copy was made."""
        other = object.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other._state = self._state.copy()
        other._events = self._events[:] if events else NoEvents()
        other._actions = self._actions[:]
        if not undo:
            other._undo = None
        elif history and self._undo is not None:
            # each copy owns its snapshots: undo makes a snapshot the live state again
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
        """The legal actions now, every seat's: a lazy view, safe to iterate while playing
        and undoing moves (each iteration lists the actions legal when it starts)."""
        return LegalActions(self)

    def _generate(self) -> Iterator[Action]:
        return generate(self.switches, self._state)

    def push(self, action: Action) -> None:
        """Apply ``action`` without checking it (fast path for search and playouts).

        Only for actions known to be legal, e.g. taken from :meth:`legal_actions`; anything
        else may corrupt the state. Undoable like :meth:`play`. With undo on, the state object
        before the action goes onto the undo stack as it is, never to be changed again (undo
        restores it, the next push snapshots it again); the game goes on with a snapshot."""
        self._actions.append(action)
        s = self._state
        undo = self._undo
        if undo is not None:
            undo.append((s, len(self._events)))
            s = self._state = s.snapshot()
        new = apply(self.switches, s, action, self._events)
        if new is not s:  # a new deal (C20)
            self._state = new

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`play` would accept ``action`` now."""
        return refusal(self.switches, self._state, action) is None

    def why_illegal(self, action: Action) -> IllegalAction | None:
        """The refusal :meth:`play` would raise, or ``None`` if ``action`` is legal."""
        return refusal(self.switches, self._state, action)

    def play(self, action: Action | str) -> None:
        """Check and apply ``action`` (an :class:`Action` or its notation).

        Raises :class:`IllegalAction` with a reason code, leaving the state exactly unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        why = refusal(self.switches, self._state, action)
        if why is not None:
            raise why
        self.push(action)

    def undo(self) -> Action:
        """Take back the last action and return it.

        Raises ``RuntimeError`` for a game made with ``undo=False`` (it keeps no snapshots),
        ``IndexError`` when there is nothing to take back."""
        if self._undo is None:
            raise RuntimeError(_NO_UNDO)
        if not self._undo:
            if not self._actions:
                raise IndexError("nothing to undo")
            raise IndexError(_NO_SNAPSHOT)
        state, n_events = self._undo.pop()
        self._state = state
        del self._events[n_events:]
        return self._actions.pop()


def _new_game(cls: type[Game], rules: Rules, players: int, undo: bool, events: bool) -> Game:
    """A game of ``cls`` with nothing played yet and no state (``deal`` and ``from_position``
    give it one)."""
    rules.check_players(players)
    game = object.__new__(cls)
    game.rules = rules
    game.players = players
    game.switches = switches(rules, players)
    game._events = [] if events else NoEvents()
    game._actions = []
    game._undo = [] if undo else None
    game._setup_known = ()
    return game


_NO_UNDO = (
    "cannot undo: this game keeps no undo snapshots (it was made with undo=False, "
    "for playouts); use copy() or deal(..., undo=True) to be able to take moves back"
)
_NO_SNAPSHOT = (
    "no snapshot to undo to: the earlier actions were played before this game was "
    "copied, and the copy got no snapshots of them (copy(history=False), or a copy "
    "of a game without undo)"
)
