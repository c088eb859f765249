"""Setting up a game: a shuffled deal, or an explicit position (lessons, records, search),
checked to be a possible Durak position."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from ._base import NoEvents, PositionError
from .cards import Card, CardError, Rank, Suit, beats, make_deck, parse_cards
from .events import Event, EventKind
from .rules import (
    CapScope,
    FirstAttacker,
    FirstBoutCap,
    HandCap,
    NoTrumpFallback,
    Rules,
    ThrowInPriority,
    TrumpSwap,
)
from .state import Phase, State
from .transitions import Transitions

__all__ = ["Setup", "position_dict"]


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


class Setup(Transitions):
    """Creating games; :class:`~durak_core.game.Game` adds the public API on top."""

    __slots__ = ()

    @classmethod
    def _blank(cls, rules: Rules, players: int, undo: bool, events: bool = True) -> Self:
        rules.check_players(players)
        game = object.__new__(cls)
        game.rules = rules
        game.players = players
        game.previous_durak = None
        game._events = [] if events else NoEvents()
        game._actions = []
        game._undo = [] if undo else None
        game._lowest_trump = None
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
        self._state = state
        if self._swap:
            self._lowest_trump = Card(self.rules.lowest_rank, state.trump)

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
        events: bool = True,
    ) -> Self:
        """Shuffle with ``seed`` (deterministic), deal one card at a time from the dealer's left,
        turn up the trump, and pick the first attacker.

        ``undo=False`` keeps no snapshots (faster playouts; :meth:`undo` is then refused);
        ``events=False`` records no events (playouts: :attr:`events` stays empty)."""
        rules = rules or Rules()
        game = cls._blank(rules, players, undo, events)
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
        log = game._events
        log.append(Event(EventKind.DEAL, dealer, n=rules.hand_size))
        if deck:
            turnup = deck.pop()
            stock = [turnup, *deck]
            log.append(Event(EventKind.TRUMP, None, (turnup,), detail="stock"))
        else:  # every card dealt (e.g. 6 × 6 of 36): the dealer shows his last card (S0, S3)
            turnup = hands[dealer][-1]
            stock = []
            log.append(Event(EventKind.TRUMP, dealer, (turnup,), detail="dealer"))
        attacker, shown, how = cls._first_attacker(rules, hands, turnup.suit, dealer, rng)
        log.append(Event(EventKind.FIRST_ATTACKER, attacker, shown, detail=how))
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
        s.throw_in_turn = []
        s.attacker = s.lead_attacker = attacker
        s.defender = (attacker + 1) % n
        s.defender_hand_at_start = len(hands[s.defender])
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
    ) -> Self:
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
            s.defender_hand_at_start = len(hand_lists[s.defender]) + sum(
                d is not None for d in s.defences
            )
            if game._cap().room < 0:
                raise PositionError("table: more attack cards than the limit allows")
        elif taking:
            raise PositionError("the defender cannot be taking with an empty table")
        else:
            s.defender_hand_at_start = len(hand_lists[s.defender])
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


def _suit(value: Suit | str) -> Suit:
    return value if isinstance(value, Suit) else Suit.parse(value)
