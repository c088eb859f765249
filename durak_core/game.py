"""The game: set-up, legal actions, checked play, undo, bout resolution and outcome.

>>> g = Game.deal(Rules(), players=2, seed=7)
>>> first = next(iter(g.legal_actions()))
>>> g.play(first)
>>> g.undo() == first
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple

from .actions import Action, ActionKind
from .cards import Card, CardError, Rank, Suit, beat_failure, beats, make_deck, parse_cards
from .events import Event, EventKind
from .reasons import IllegalAction, Reason
from .rules import (
    AttackerAfterDefenderOut,
    CapScope,
    FirstAttacker,
    FirstBoutCap,
    HandCap,
    NoTrumpFallback,
    Rules,
    ThrowInPriority,
    ThrowInRights,
    ThrowInTiming,
    TrumpSwap,
)
from .state import Phase, State

__all__ = ["Cap", "Game", "LegalActions", "Outcome", "PositionError"]

_LEAD, _BEAT, _THROW, _TRANSFER, _TAKE, _PASS, _SWAP = (
    ActionKind.LEAD,
    ActionKind.BEAT,
    ActionKind.THROW,
    ActionKind.TRANSFER,
    ActionKind.TAKE,
    ActionKind.PASS,
    ActionKind.SWAP,
)


# NamedTuple construction without the Python-level __new__ (hot path).
_action = partial(tuple.__new__, Action)
_event = partial(tuple.__new__, Event)
_NO_CARDS: tuple[Card, ...] = ()


class PositionError(ValueError):
    """A set-up position that is not a possible Durak position; the message says why."""


class Outcome(NamedTuple):
    """How a game ended: the durak's seat, or ``None`` for a draw; the order players went out."""

    durak: int | None
    out_order: tuple[int, ...]

    @property
    def is_draw(self) -> bool:
        return self.durak is None


class Cap(NamedTuple):
    """How many more attack cards the table takes now, and how that was computed."""

    room: int
    cap: int
    base_cap: int
    first_bout_cap: bool
    defender_hand: int
    hand_rule: str
    scope: str
    on_table: int


class LegalActions:
    """A lazy, re-iterable view of the legal actions (in the spirit of python-chess).

    Iterating generates afresh; ``in`` checks legality directly; ``bool`` stops at the first.
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Action]:
        return self._game._generate()

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError:
                return False
        return isinstance(action, Action) and self._game._refusal(action) is None

    def __bool__(self) -> bool:
        return any(True for _ in self._game._generate())

    def count(self) -> int:
        return sum(1 for _ in self._game._generate())

    def for_seat(self, seat: int) -> list[Action]:
        return [a for a in self._game._generate() if a.seat == seat]

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"


def position_dict(
    *,
    hands: Sequence[Iterable[Card]],
    stock: Iterable[Card],
    turnup: Card | None,
    trump: Suit,
    attacker: int,
    defender: int,
    discard: Iterable[Card],
    table: Iterable[tuple[Card, Card | None]],
    taking: bool,
    out: Iterable[int],
    bouts: int,
    previous_durak: int | None,
    known: Mapping[int, Iterable[Card]],
) -> dict[str, Any]:
    """A position in :meth:`Game.from_position`'s keyword form, cards as text (JSON-ready).
    The one serializer of positions: set-ups, records, lessons and comparisons all use it."""

    def text(cards: Iterable[Card]) -> str:
        return " ".join(map(str, cards))

    return {
        "hands": [text(h) for h in hands],
        "stock": text(stock),
        "turnup": str(turnup) if turnup is not None else None,
        "trump": trump.letter,
        "attacker": attacker,
        "defender": defender,
        "discard": text(discard),
        "table": [[str(a), None if d is None else str(d)] for a, d in table],
        "taking": taking,
        "out": sorted(out),
        "bouts": bouts,
        "previous_durak": previous_durak,
        "known": {str(seat): text(cards) for seat, cards in known.items()},
    }


class Game:
    """A game of Durak under a :class:`Rules`. Create with :meth:`deal` or :meth:`from_position`.

    ``play`` checks an action and raises :class:`IllegalAction` (state unchanged) or applies it;
    ``undo`` takes the last action back. Seats are numbered clockwise: each attacker attacks the
    next seat still in (to his left).
    """

    __slots__ = (
        "_actions",
        "_events",
        "_low",
        "_origin",
        "_reset_on_card",
        "_s",
        "_setup_known",
        "_simple_cap",
        "_swap",
        "_undo",
        "players",
        "previous_durak",
        "rules",
    )

    rules: Rules
    players: int
    previous_durak: int | None
    _s: State
    _events: list[Event]
    _actions: list[Action]
    _undo: list[tuple[State, int]] | None
    _low: Card | None
    """The lowest trump while the swap rule is on (its moves are tracked), else None."""
    _reset_on_card: bool
    _setup_known: tuple[frozenset[Card], ...]
    """Cards a set-up position declares known to be in each hand (e.g. picked up earlier)."""
    _simple_cap: bool
    _swap: bool
    _origin: dict[str, Any]

    # ------------------------------------------------------------------ creation

    def __init__(self) -> None:
        raise TypeError("use Game.deal(...) or Game.from_position(...)")

    @classmethod
    def _blank(cls, rules: Rules, players: int, undo: bool) -> Game:
        rules.check_players(players)
        game = object.__new__(cls)
        game.rules = rules
        game.players = players
        game.previous_durak = None
        game._events = []
        game._actions = []
        game._undo = [] if undo else None
        game._low = None
        game._setup_known = ()
        # rule switches read on every action, looked up once
        game._reset_on_card = rules.throw_in_priority is not ThrowInPriority.ATTACKER_UNTIL_PASS
        game._simple_cap = (
            rules.first_bout_cap is FirstBoutCap.NONE
            and rules.cap_scope is CapScope.TOTAL
            and rules.hand_cap is HandCap.AT_DEFENCE_START
        )
        game._swap = rules.trump_swap is not TrumpSwap.OFF
        return game

    def _init_state(self, state: State) -> None:
        self._s = state
        if self._swap:
            self._low = Card(self.rules.lowest_rank, state.trump)

    @classmethod
    def deal(
        cls,
        rules: Rules | None = None,
        players: int = 2,
        seed: int | None = None,
        *,
        dealer: int | None = None,
        previous_durak: int | None = None,
        undo: bool = True,
    ) -> Game:
        """Shuffle with ``seed`` (deterministic), deal one card at a time from the dealer's left,
        turn up the trump, and pick the first attacker.

        ``undo=False`` keeps no snapshots (faster playouts; :meth:`undo` is then refused)."""
        rules = rules or Rules()
        game = cls._blank(rules, players, undo)
        if seed is None:
            seed = random.randrange(2**63)
        rng = random.Random(seed)
        deck = make_deck(rules.deck_size)
        rng.shuffle(deck)
        drawn_dealer = rng.randrange(players)  # always drawn, so a given dealer replays alike
        if dealer is None:
            dealer = drawn_dealer
        elif not 0 <= dealer < players:
            raise PositionError(f"dealer must be a seat 0..{players - 1}, not {dealer}")
        game.previous_durak = previous_durak
        game._origin = {"seed": seed, "dealer": dealer, "previous_durak": previous_durak}
        hands: list[list[Card]] = [[] for _ in range(players)]
        for _ in range(rules.hand_size):
            for i in range(1, players + 1):
                hands[(dealer + i) % players].append(deck.pop())
        events = game._events
        events.append(Event(EventKind.DEAL, dealer, n=rules.hand_size))
        if deck:
            turnup = deck.pop()
            stock = [turnup, *deck]
            events.append(Event(EventKind.TRUMP, None, (turnup,), detail="stock"))
        else:  # every card dealt (e.g. 6 × 6 of 36): the dealer shows his last card (S0, S3)
            turnup = hands[dealer][-1]
            stock = []
            events.append(Event(EventKind.TRUMP, dealer, (turnup,), detail="dealer"))
        attacker, shown, how = cls._first_attacker(rules, hands, turnup.suit, dealer, rng)
        events.append(Event(EventKind.FIRST_ATTACKER, attacker, shown, detail=how))
        game._init_state(cls._fresh_state(rules, hands, stock, turnup, turnup.suit, attacker))
        game._start_bout_event()
        return game

    @staticmethod
    def _first_attacker(
        rules: Rules, hands: list[list[Card]], trump: Suit, dealer: int, rng: random.Random
    ) -> tuple[int, tuple[Card, ...], str]:
        players = len(hands)
        if rules.first_attacker is FirstAttacker.LOWEST_TRUMP:
            best: tuple[Rank, int] | None = None
            for seat, hand in enumerate(hands):
                for card in hand:
                    if card.suit is trump and (best is None or card.rank < best[0]):
                        best = (card.rank, seat)
            if best is not None:
                return best[1], (Card(best[0], trump),), "lowest_trump"
            if rules.no_trump_fallback is NoTrumpFallback.RANDOM:
                return rng.randrange(players), (), "random"
        return (dealer + 1) % players, (), "left_of_dealer"

    @staticmethod
    def _fresh_state(
        rules: Rules,
        hands: list[list[Card]],
        stock: list[Card],
        turnup: Card | None,
        trump: Suit,
        attacker: int,
    ) -> State:
        s = State.__new__(State)
        n = len(hands)
        s.hands = hands
        s.stock = stock
        s.turnup = turnup
        s.trump = trump
        s.discard = []
        s.attacks = []
        s.defences = []
        s.active = [True] * n
        s.passed = [False] * n
        s.actors = []
        s.attacker = s.lead_attacker = attacker
        s.defender = (attacker + 1) % n
        s.h0 = len(hands[s.defender])
        s.phase = Phase.LEAD
        s.taking = False
        s.bouts = 1
        low = Card(rules.lowest_rank, trump)
        s.low_trump_origin = next((i for i, h in enumerate(hands) if low in h), None)
        s.turnup_holder = None
        s.out_order = []
        s.durak = None
        return s

    @classmethod
    def from_position(
        cls,
        rules: Rules | None = None,
        hands: Sequence[Iterable[Card | str] | str] = (),
        *,
        stock: Iterable[Card | str] | str = (),
        turnup: Card | str | None = None,
        trump: Suit | str | None = None,
        attacker: int = 0,
        defender: int | None = None,
        discard: Iterable[Card | str] | str = (),
        table: Iterable[tuple[Card | str, Card | str | None]] = (),
        taking: bool = False,
        out: Iterable[int] = (),
        bouts: int = 1,
        previous_durak: int | None = None,
        known: Mapping[int, Iterable[Card | str] | str] | None = None,
        undo: bool = True,
    ) -> Game:
        """Set up an explicit position, e.g. for a lesson.

        ``stock`` is listed top first (the next card drawn first); ``turnup`` lies under it and is
        drawn last. Give ``trump`` when there is no turn-up. ``table`` lists (attack, defence or
        None) pairs of a bout in progress; the defender's hand cap is then the cards he holds plus
        those he already beat. ``known`` lists, per seat, cards everybody knows are in that hand
        (seen picked up earlier). Positions need not hold the whole deck, but every card must
        belong to it and appear once. Raises :class:`PositionError` saying what is wrong.
        """
        rules = rules or Rules()
        players = len(hands)
        try:
            rules.check_players(players)
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        game = cls._blank(rules, players, undo)
        game.previous_durak = previous_durak

        def cards(value: Iterable[Card | str] | str, where: str) -> list[Card]:
            try:
                if isinstance(value, str):
                    return parse_cards(value)
                return [c if isinstance(c, Card) else Card.parse(c) for c in value]
            except CardError as exc:
                raise PositionError(f"{where}: {exc}") from None

        hand_lists = [cards(h, f"hand of seat {i}") for i, h in enumerate(hands)]
        stock_list = cards(stock, "stock")
        discard_list = cards(discard, "discard")
        up: Card | None = None
        if turnup is not None:
            up = cards([turnup], "turnup")[0]
        pairs: list[tuple[Card, Card | None]] = []
        for i, pair in enumerate(table):
            if len(pair) != 2:
                raise PositionError(f"table pair {i + 1} must be (attack, defence or None)")
            a = cards([pair[0]], f"table pair {i + 1}")[0]
            d = None if pair[1] is None else cards([pair[1]], f"table pair {i + 1}")[0]
            pairs.append((a, d))
        if up is not None:
            trump_suit = up.suit
            if trump is not None and _suit(trump) is not trump_suit:
                raise PositionError(f"trump {trump} does not match the turn-up {up}")
        elif trump is not None:
            trump_suit = _suit(trump)
        else:
            raise PositionError("give a turnup card or a trump suit")

        low = rules.lowest_rank
        seen: dict[Card, str] = {}
        places: list[tuple[str, list[Card]]] = [
            *((f"hand of seat {i}", h) for i, h in enumerate(hand_lists)),
            ("stock", stock_list),
            ("turnup", [up] if up is not None else []),
            ("discard", discard_list),
            ("table", [c for p in pairs for c in p if c is not None]),
        ]
        for where, group in places:
            for c in group:
                if c.rank < low:
                    raise PositionError(
                        f"{where}: {c} is not in a {rules.deck_size}-card deck "
                        f"(its lowest rank is {low.symbol})"
                    )
                if c in seen:
                    raise PositionError(f"{c} appears twice: in the {seen[c]} and the {where}")
                seen[c] = where

        if not 0 <= attacker < players:
            raise PositionError(f"attacker must be a seat 0..{players - 1}, not {attacker}")
        out_set = set(out)
        if any(not 0 <= o < players for o in out_set):
            raise PositionError(f"out seats must be 0..{players - 1}")
        stock_all = [*reversed(stock_list)]
        if up is not None:
            stock_all.insert(0, up)
        for o in out_set:
            if hand_lists[o] or stock_all:
                raise PositionError(
                    f"seat {o} cannot be out: it holds cards or the stock is not empty"
                )
        if attacker in out_set:
            raise PositionError(f"the attacker (seat {attacker}) is out")
        s = cls._fresh_state(rules, hand_lists, stock_all, up, trump_suit, attacker)
        s.discard = discard_list
        for o in out_set:
            s.active[o] = False
        game._init_state(s)
        s.defender = game._next_active(attacker) if defender is None else defender
        if not 0 <= s.defender < players or s.defender == attacker or s.defender in out_set:
            raise PositionError(f"defender {s.defender} is not another seat still in play")
        s.bouts = bouts
        if pairs:
            ranks = set()
            for i, (a, d) in enumerate(pairs):
                if i and a.rank not in ranks:
                    raise PositionError(f"table: {a} has a rank not yet on the table")
                ranks.add(a.rank)
                if d is not None:
                    if not beats(d, a, trump_suit):
                        raise PositionError(f"table: {d} does not beat {a}")
                    ranks.add(d.rank)
            s.attacks = [a for a, _ in pairs]
            s.defences = [d for _, d in pairs]
            s.phase = Phase.BOUT
            s.taking = taking
            s.h0 = len(hand_lists[s.defender]) + sum(d is not None for d in s.defences)
            if game._cap().room < 0:
                raise PositionError("table: more attack cards than the limit allows")
        elif taking:
            raise PositionError("the defender cannot be taking with an empty table")
        else:
            s.h0 = len(hand_lists[s.defender])
        if not hand_lists[attacker] and not pairs:
            raise PositionError(f"the attacker (seat {attacker}) has no card to lead")
        known_lists: dict[int, list[Card]] = {}
        for key, listed in (known or {}).items():
            # JSON keys are strings: a position from :meth:`position` or a record says "0".
            seat = int(key) if isinstance(key, str) and key.isdecimal() else key
            if not isinstance(seat, int) or not 0 <= seat < players:
                raise PositionError(f"known: no seat {seat!r}")
            known_lists[seat] = cards(listed, f"known cards of seat {seat}")
            missing = [c for c in known_lists[seat] if c not in hand_lists[seat]]
            if missing:
                raise PositionError(
                    f"known cards of seat {seat}: {' '.join(map(str, missing))} not in that hand"
                )
        if known_lists:
            game._setup_known = tuple(frozenset(known_lists.get(i, ())) for i in range(players))
        game._origin = {
            "position": position_dict(
                hands=hand_lists,
                stock=stock_list,
                turnup=up,
                trump=trump_suit,
                attacker=attacker,
                defender=s.defender,
                discard=discard_list,
                table=pairs,
                taking=taking,
                out=out_set,
                bouts=bouts,
                previous_durak=previous_durak,
                known=known_lists,
            )
        }
        game._events.append(
            Event(
                EventKind.TRUMP,
                None,
                (up,) if up else (),
                detail="stock" if up else trump_suit.letter,
            )
        )
        game._start_bout_event()
        game._settle()
        return game

    # ------------------------------------------------------------------ public views

    @property
    def state(self) -> State:
        """The live state. Read it, do not change it (use :meth:`copy` for experiments)."""
        return self._s

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def trump(self) -> Suit:
        return self._s.trump

    @property
    def turnup(self) -> Card | None:
        return self._s.turnup

    @property
    def attacker(self) -> int:
        return self._s.attacker

    @property
    def defender(self) -> int:
        return self._s.defender

    @property
    def taking(self) -> bool:
        return self._s.taking

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._s.hands[seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._s.hands)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top (next to draw) first; the turn-up, while there, is last."""
        return tuple(reversed(self._s.stock))

    @property
    def discard(self) -> tuple[Card, ...]:
        return tuple(self._s.discard)

    @property
    def table(self) -> tuple[tuple[Card, Card | None], ...]:
        """(attack, defence or None) pairs of the bout in progress."""
        return tuple(zip(self._s.attacks, self._s.defences, strict=True))

    def table_ranks(self) -> list[Rank]:
        """Ranks on the table, attack and defence cards alike, ascending (S0–S4)."""
        s = self._s
        ranks = {c.rank for c in s.attacks}
        ranks.update(c.rank for c in s.defences if c is not None)
        return sorted(ranks)

    def active_seats(self) -> list[int]:
        return [i for i, a in enumerate(self._s.active) if a]

    @property
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on."""
        s = self._s
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
        s = self._s
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
        s = self._s
        return bool(s.stock) and s.turnup is not None and s.stock[0] is s.turnup

    def defending(self, seat: int) -> bool:
        """Whether ``seat`` is the defender facing unbeaten attack cards and has not said «take»."""
        s = self._s
        return (
            s.phase is Phase.BOUT
            and seat == s.defender
            and not s.taking
            and None in s.defences
        )

    def card_actions(self, seat: int, card: Card) -> list[tuple[Action, IllegalAction | None]]:
        """Every action ``seat`` could mean by playing ``card`` now, most likely first, each
        with its refusal (``None`` when legal): a lead; a throw-in; or, for a defender facing
        unbeaten cards, a beat of each of them and (perevodnoy) a transfer, the transfer first
        when the card has the attack's rank (even once it is too late: that is what it means).

        >>> g = Game.from_position(Rules(), ["7C 9H", "8C 6D"], trump="S", table=[("6C", None)])
        >>> [(str(a), r and r.reason.value) for a, r in g.card_actions(1, Card.parse("8C"))]
        [('1:8C/6C', None)]
        """
        s = self._s
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
        return list(self._s.actors)

    def cap(self) -> Cap:
        """The attack limit now and how it is computed (C7, C8, C9)."""
        return self._cap()

    def copy(self, *, history: bool = False, undo: bool = True) -> Game:
        """An independent game in the same position, with the same record of actions.

        ``history=True`` also copies the undo snapshots, so the copy can take moves back past
        the moment of copying; ``undo=False`` makes a fast copy for playouts that never undo."""
        other = object.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other._s = self._s.copy()
        other._events = self._events[:]
        other._actions = self._actions[:]
        if not undo:
            other._undo = None
        elif history and self._undo is not None:
            other._undo = [(state.copy(), n) for state, n in self._undo]
        else:
            other._undo = []
        return other

    def __repr__(self) -> str:
        s = self._s
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
            self._undo.append((self._s.copy(), len(self._events)))
        self._apply(action)

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if self._undo is None:
            raise RuntimeError("this game keeps no undo snapshots (it was made with undo=False)")
        if not self._undo:
            raise IndexError("nothing to undo" if not self._actions else "no snapshot to undo to")
        state, n_events = self._undo.pop()
        self._s = state
        del self._events[n_events:]
        return self._actions.pop()

    # ------------------------------------------------------------------ helpers

    def _next_active(self, seat: int) -> int:
        active = self._s.active
        n = self.players
        nxt = (seat + 1) % n
        while not active[nxt]:
            nxt = (nxt + 1) % n
        return nxt

    def _n_active(self) -> int:
        return sum(self._s.active)

    def _cap(self) -> Cap:
        s = self._s
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
                hand, rule = s.h0, "at_defence_start"
            else:
                hand, rule = len(s.hands[s.defender]), "current_hand"
            on_table = len(s.attacks)
            scope = "total"
        else:
            hand, rule = len(s.hands[s.defender]), "current_hand"
            on_table = s.defences.count(None)
            scope = "unbeaten"
        cap = base if base < hand else hand
        return Cap(cap - on_table, cap, base, first, hand, rule, scope, on_table)

    def _room(self) -> int:
        """``self._cap().room``, without building the explanation (hot path)."""
        if not self._simple_cap:
            return self._cap().room
        s = self._s
        hand = s.h0
        base = self.rules.attack_cap
        return (base if base < hand else hand) - len(s.attacks)

    def _may_throw(self, seat: int) -> bool:
        """Throw-in rights (C10), ignoring priority: not the defender, still in, holds cards."""
        s = self._s
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
        s = self._s
        return (s.attacker, self._next_active(s.defender))

    def _throw_order(self) -> list[int]:
        """Eligible throwers: the attacker first, then clockwise from the defender's left."""
        s = self._s
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
        s = self._s
        if s.phase is not Phase.BOUT:
            return False
        if s.taking:
            return self.rules.throw_in_after_take
        return self.rules.throw_in_timing is ThrowInTiming.ANY_TIME or None not in s.defences

    def _throw_actors(self) -> list[int]:
        """Seats that may add a card or pass right now (assumes a bout in progress)."""
        s = self._s
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
        s = self._s
        ranks = {c.rank for c in s.attacks}
        ranks.update(c.rank for c in s.defences if c is not None)
        return ranks

    def _throwable(self, seat: int, card: Card, ranks: set[Rank]) -> Reason | None:
        """Rank rules for a throw-in by an entitled seat; ``ranks`` are the table's ranks."""
        rank = card.rank
        if rank not in ranks:
            return Reason.RANK_NOT_ON_TABLE
        if (
            self.rules.throw_in_rights is ThrowInRights.VECINOS
            and rank is not self._s.attacks[0].rank
            and seat not in self._neighbours()
        ):
            return Reason.ONLY_FIRST_RANK
        return None

    def _low_trump(self) -> Card:
        return self._low or Card(self.rules.lowest_rank, self._s.trump)

    def _swap_partner(self, seat: int) -> int | Reason | None:
        """Where the turn-up is for a swap by ``seat``: -1 the stock, a seat, or a refusal."""
        s = self._s
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

    # ------------------------------------------------------------------ checking

    def _refusal(self, action: Action) -> IllegalAction | None:
        s = self._s
        kind, seat, card = action.kind, action.seat, action.card
        if s.phase is Phase.OVER:
            return IllegalAction(Reason.GAME_OVER, action)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return IllegalAction(Reason.NO_SUCH_SEAT, action, seat=seat, players=self.players)
        if not s.active[seat]:
            return IllegalAction(Reason.PLAYER_OUT, action, seat=seat)
        if (kind is _PASS or kind is _TAKE or kind is _SWAP) and (
            card is not None or action.target is not None
        ):
            return IllegalAction(Reason.MALFORMED_ACTION, action, kind=kind)
        if kind is _PASS:
            return self._pass_refusal(action)
        if kind is _TAKE:
            return self._defender_refusal(action)
        if kind is _SWAP:
            partner = self._swap_partner(seat)
            if isinstance(partner, Reason):
                return IllegalAction(
                    partner, action, seat=seat, card=self._low_trump(), turnup=s.turnup
                )
            return None
        if not isinstance(card, Card) or (kind is _BEAT) != isinstance(action.target, Card):
            return IllegalAction(Reason.MALFORMED_ACTION, action, kind=kind)
        if card not in s.hands[seat]:
            return IllegalAction(Reason.CARD_NOT_IN_HAND, action, seat=seat, card=card)
        if kind is _LEAD:
            if s.phase is not Phase.LEAD:
                return IllegalAction(
                    Reason.BOUT_IN_PROGRESS, action, attacker=s.attacker, defender=s.defender
                )
            if seat != s.attacker:
                return IllegalAction(Reason.NOT_ATTACKER, action, seat=seat, attacker=s.attacker)
            return None
        if kind is _BEAT or kind is _TRANSFER:
            return self._defender_refusal(action)
        if kind is _THROW:
            return self._throw_refusal(action)
        return IllegalAction(Reason.MALFORMED_ACTION, action, kind=kind)

    def _throw_refusal(self, action: Action) -> IllegalAction | None:
        s = self._s
        seat = action.seat
        card = action.card
        assert card is not None
        if s.phase is Phase.LEAD:
            return IllegalAction(Reason.MUST_LEAD, action, attacker=s.attacker)
        if seat == s.defender:
            return IllegalAction(Reason.DEFENDER_CANNOT_THROW, action, seat=seat)
        cap = self._cap()
        if cap.room <= 0 and not self._neighbour_refusal(action):
            # a full table is the real reason, whatever the timing or priority (S0, S1, S3)
            return IllegalAction(Reason.CAP_REACHED, action, **cap._asdict())
        refusal = self._turn_refusal(action)
        if refusal is not None:
            return refusal
        why = self._throwable(seat, card, self._rank_set())
        if why is Reason.RANK_NOT_ON_TABLE:
            return IllegalAction(why, action, card=card, ranks=self.table_ranks())
        if why is Reason.ONLY_FIRST_RANK:
            return IllegalAction(
                why, action, card=card, rank=s.attacks[0].rank, privileged=list(self._neighbours())
            )
        return None

    def _neighbour_refusal(self, action: Action) -> IllegalAction | None:
        seat = action.seat
        if self._neighbours_only() and seat not in self._neighbours():
            only_from = self.rules.neighbours_only_from
            return IllegalAction(
                Reason.NOT_A_NEIGHBOUR,
                action,
                seat=seat,
                neighbours=list(self._neighbours()),
                active=self._n_active() if only_from is not None else None,
            )
        return None

    def _turn_refusal(self, action: Action) -> IllegalAction | None:
        """Rights, timing and priority for a throw-in or pass by a non-defender."""
        s = self._s
        seat = action.seat
        refusal = self._neighbour_refusal(action)
        if refusal is not None:
            return refusal
        if not self._window_open():
            return IllegalAction(Reason.WAIT_FOR_DEFENCE, action, unbeaten=s.defences.count(None))
        if s.passed[seat] and self.rules.throw_in_priority is ThrowInPriority.ATTACKER_UNTIL_PASS:
            return IllegalAction(Reason.ALREADY_PASSED, action, seat=seat)
        actors = s.actors
        if seat not in actors:
            if not actors and self._room() <= 0:
                return IllegalAction(Reason.CAP_REACHED, action, **self._cap()._asdict())
            priority = actors[0] if actors else None
            if s.passed[seat] and priority is None:
                return IllegalAction(Reason.ALREADY_PASSED, action, seat=seat)
            return IllegalAction(Reason.NOT_YOUR_PRIORITY, action, seat=seat, priority=priority)
        return None

    def _pass_refusal(self, action: Action) -> IllegalAction | None:
        s = self._s
        seat = action.seat
        if s.phase is Phase.LEAD:
            if seat == s.attacker:
                return IllegalAction(Reason.MUST_LEAD, action, attacker=s.attacker)
            return IllegalAction(Reason.NOTHING_TO_PASS, action, seat=seat)
        if seat == s.defender:
            return IllegalAction(
                Reason.DEFENDER_CANNOT_PASS, action, seat=seat, unbeaten=s.defences.count(None)
            )
        return self._turn_refusal(action)

    def _defender_refusal(self, action: Action) -> IllegalAction | None:
        s = self._s
        seat, kind, card = action.seat, action.kind, action.card
        if kind is _TRANSFER and not self.rules.transfer:
            return IllegalAction(Reason.TRANSFER_DISABLED, action)
        if seat != s.defender:
            return IllegalAction(Reason.NOT_DEFENDER, action, seat=seat, defender=s.defender)
        if s.phase is Phase.LEAD:
            return IllegalAction(Reason.MUST_LEAD, action, attacker=s.attacker)
        if s.taking:
            return IllegalAction(Reason.ALREADY_TAKING, action, defender=seat)
        if kind is _TAKE:
            if None not in s.defences:
                return IllegalAction(Reason.NOTHING_TO_TAKE, action)
            return None
        assert card is not None
        if kind is _BEAT:
            target = action.target
            try:
                i = s.attacks.index(target)  # type: ignore[arg-type]
            except ValueError:
                return IllegalAction(Reason.NO_SUCH_ATTACK_CARD, action, target=target)
            beaten_by = s.defences[i]
            if beaten_by is not None:
                return IllegalAction(Reason.ALREADY_BEATEN, action, target=target, by=beaten_by)
            assert target is not None
            why = beat_failure(card, target, s.trump)
            if why is not None:
                return IllegalAction(
                    Reason.CANNOT_BEAT, action, card=card, target=target, trump=s.trump, why=why
                )
            return None
        # transfer (perevodnoy, S1/S2)
        if any(d is not None for d in s.defences):
            return IllegalAction(Reason.TRANSFER_AFTER_BEAT, action)
        rank = s.attacks[0].rank
        if card.rank is not rank:
            return IllegalAction(Reason.TRANSFER_RANK_MISMATCH, action, card=card, rank=rank)
        nxt = self._next_active(seat)
        needed = len(s.attacks) + 1
        base = self._cap().base_cap
        next_hand = len(s.hands[nxt])
        if needed > next_hand or needed > base:
            return IllegalAction(
                Reason.TRANSFER_NO_ROOM,
                action,
                next_defender=nxt,
                next_hand=next_hand,
                needed=needed,
                base_cap=base,
            )
        return None

    # ------------------------------------------------------------------ generation

    def _generate(self) -> Iterator[Action]:
        s = self._s
        phase = s.phase
        if phase is Phase.OVER:
            return
        if phase is Phase.LEAD:
            seat = s.attacker
            for card in s.hands[seat]:
                yield _action((_LEAD, seat, card, None))
        else:
            defender = s.defender
            defences = s.defences
            if not s.taking and None in defences:
                hand = s.hands[defender]
                trump = s.trump
                for i, target in enumerate(s.attacks):
                    if defences[i] is None:
                        suit, rank = target.suit, target.rank
                        for card in hand:
                            if (card.suit is suit and card.rank > rank) or (
                                card.suit is trump and suit is not trump
                            ):
                                yield _action((_BEAT, defender, card, target))
                if self.rules.transfer and defences.count(None) == len(defences):
                    rank = s.attacks[0].rank
                    for card in hand:
                        if card.rank is rank:
                            action = _action((_TRANSFER, defender, card, None))
                            if self._defender_refusal(action) is None:
                                yield action
                yield _action((_TAKE, defender, None, None))
            actors = s.actors
            if actors:
                ranks = self._rank_set() if self._room() > 0 else None
                for seat in actors:
                    if ranks is not None:
                        for card in s.hands[seat]:
                            if card.rank in ranks and self._throwable(seat, card, ranks) is None:
                                yield _action((_THROW, seat, card, None))
                    yield _action((_PASS, seat, None, None))
        if self._swap:
            origin = s.low_trump_origin
            if origin is not None and not isinstance(self._swap_partner(origin), Reason):
                yield _action((_SWAP, origin, None, None))

    # ------------------------------------------------------------------ applying

    def _apply(self, action: Action) -> None:
        s = self._s
        kind, seat, card, target = action
        events = self._events
        if kind is _SWAP:
            self._apply_swap(seat)
            return  # a swap changes no card count: who may add or pass stays the same
        if kind is _TAKE:
            s.taking = True
            s.passed = [False] * self.players
            events.append(_event((EventKind.TAKE, seat, _NO_CARDS, None, 0, "")))
        elif kind is _PASS:
            s.passed[seat] = True
            events.append(_event((EventKind.PASS, seat, _NO_CARDS, None, 0, "")))
        else:
            assert card is not None
            s.hands[seat].remove(card)
            if card is self._low:
                s.low_trump_origin = None
            if kind is _BEAT:
                assert target is not None
                s.defences[s.attacks.index(target)] = card
                events.append(_event((EventKind.BEAT, seat, (card, target), None, 0, "")))
                if self._reset_on_card:
                    s.passed = [False] * self.players
            else:
                s.attacks.append(card)
                s.defences.append(None)
                if kind is _LEAD:
                    s.phase = Phase.BOUT
                    s.turnup_holder = None  # S0: the late swap window closes with the next lead
                    events.append(_event((EventKind.LEAD, seat, (card,), None, 0, "")))
                elif kind is _THROW:
                    events.append(_event((EventKind.THROW_IN, seat, (card,), None, 0, "")))
                    if self._reset_on_card:
                        s.passed = [False] * self.players
                else:  # transfer
                    nxt = self._next_active(seat)
                    s.attacker = seat
                    s.defender = nxt
                    s.h0 = len(s.hands[nxt])
                    s.passed = [False] * self.players
                    events.append(Event(EventKind.TRANSFER, seat, (card,), other=nxt))
        self._settle()

    def _apply_swap(self, seat: int) -> None:
        s = self._s
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
        s = self._s
        if s.phase is not Phase.BOUT:
            return
        actors = s.actors = self._throw_actors()
        if s.taking:
            if not actors:
                self._end_bout(defended=False)
        elif None not in s.defences and (not actors or not s.hands[s.defender]):
            self._end_bout(defended=True)

    def _end_bout(self, *, defended: bool) -> None:
        s = self._s
        events = self._events
        table = [*s.attacks, *(d for d in s.defences if d is not None)]
        defender = s.defender
        if defended:
            s.discard.extend(table)
            events.append(_event((EventKind.BITO, defender, tuple(table), None, len(table), "")))
        else:
            s.hands[defender].extend(table)
            events.append(_event((EventKind.PICK_UP, defender, tuple(table), None, len(table), "")))
        s.attacks = []
        s.defences = []
        s.actors = []
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
        s.h0 = len(s.hands[s.defender])
        s.phase = Phase.LEAD
        s.passed = [False] * self.players
        s.bouts += 1
        self._start_bout_event()

    def _draw(self, defender: int) -> None:
        """Refill: the bout's first attacker, the others clockwise, the defender last (S0–S4);
        each completes his draw before the next (S3); the turn-up comes last."""
        s = self._s
        if not s.stock:
            return
        n = self.players
        start = s.lead_attacker
        order = [(start + i) % n for i in range(n)]
        order.remove(defender)
        order.append(defender)
        target = self.rules.hand_size
        low = self._low
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
            self._events.append(_event((EventKind.DRAW, seat, tuple(drawn), None, k, detail)))

    def _start_bout_event(self) -> None:
        s = self._s
        self._events.append(
            _event((EventKind.BOUT_START, s.attacker, _NO_CARDS, s.defender, 0, ""))
        )


def _suit(value: Suit | str) -> Suit:
    return value if isinstance(value, Suit) else Suit.parse(value)
