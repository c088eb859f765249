"""Setting up a game: a shuffled deal, or an explicit position (lessons, records, search),
checked to be a possible Durak position."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Self

from ._base import NoEvents, PositionError
from .bout import cap
from .cards import Card, CardError, Rank, Suit, beats, format_cards, make_deck, parse_cards
from .dealing import deal_events, deal_hands, fresh_state, pick_first_attacker, turn_up
from .events import Event, EventKind
from .misdeal import misdeal_seats
from .position import Position
from .rules import (
    Misdeal,
    MisdealMode,
    Rules,
    Teams,
    TrumpSwap,
)
from .state import Phase, parse_bout_key
from .switches import defender_for, one_team_left, switches
from .transitions import Transitions

MANDATORY, ON_REQUEST = MisdealMode.MANDATORY, MisdealMode.ON_REQUEST
NO_TEAMS, NO_MISDEAL = Teams.NONE, Misdeal.OFF

__all__ = ["DERIVE", "Setup"]


class _Derive:
    """The default of a keyword that ``from_position`` works out from the rest."""

    def __repr__(self) -> str:
        return "DERIVE"


DERIVE = _Derive()


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
        game.switches = switches(rules, players)
        return game

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
    ) -> Self:
        """Shuffle with ``seed`` (deterministic), deal one card at a time from the dealer's left,
        turn up the trump, and pick the first attacker.

        ``deck`` deals from a given order instead of shuffling (a record's replay, which then
        needs no random numbers): all ``rules.deck_size`` cards once each, as text or cards,
        top first — the first card goes to the dealer's left, the card after the hands is
        turned up, the rest is the stock, top first. ``seed`` then only draws a ``dealer``
        or ``first_attacker`` not given. ``first_attacker`` is the seat the rules choose at
        random when nobody holds a trump (``NoTrumpFallback.RANDOM``); elsewhere it must be
        the rules' own choice. Raises :class:`PositionError` for a bad deck or seat.

        Under a mandatory misdeal rule (C20, S2) a deal with a misdealt hand is shuffled and
        dealt again, at most ``rules.max_redeals`` times; ``origin["misdealt"]`` lists each
        discarded deal's (seat, hand), which a replay from ``deck`` passes back as ``misdealt``
        to tell the same story.

        ``undo=False`` keeps no snapshots (faster playouts; :meth:`undo` is then refused);
        ``events=False`` records no events (playouts: :attr:`events` stays empty)."""
        rules = rules or Rules()
        game = cls._blank(rules, players, undo, events)
        rng: random.Random | None = None
        if deck is None:
            if seed is None:
                seed = random.randrange(2**63)
            rng = random.Random(seed)
            cards = make_deck(rules.deck_size)
            rng.shuffle(cards)  # cards[-1] is dealt first
            drawn_dealer = rng.randrange(players)  # always drawn, so a given dealer replays alike
            if dealer is None:
                dealer = drawn_dealer
        else:
            cards = _deck_order(rules, deck)
            cards.reverse()  # cards[-1] is dealt first
            if dealer is None:
                rng = random.Random(seed)
                dealer = rng.randrange(players)
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise PositionError(f"dealer must be a seat 0..{players - 1}, not {dealer!r}")
        if first_attacker is not None and (
            not isinstance(first_attacker, int) or not 0 <= first_attacker < players
        ):
            raise PositionError(
                f"first_attacker must be a seat 0..{players - 1}, not {first_attacker!r}"
            )
        if previous_durak is not None and (
            not isinstance(previous_durak, int) or not 0 <= previous_durak < players
        ):
            raise PositionError(
                f"previous_durak must be a seat 0..{players - 1}, not {previous_durak!r}"
            )
        game.previous_durak = previous_durak
        origin: dict[str, Any] = {
            "seed": seed,
            "dealer": dealer,
            "previous_durak": previous_durak,
            "deck": tuple(reversed(cards)),  # top first; Game.origin gives it as text
        }
        game._origin = origin
        log = game._events
        hands = deal_hands(cards, players, dealer, rules.hand_size)
        discarded: list[tuple[int, tuple[Card, ...]]] = []
        mandatory = rules.misdeal is not NO_MISDEAL and rules.misdeal_mode is MANDATORY
        if deck is None and mandatory:
            # S2: a misdealt hand means a new shuffle and deal (capped: the rule could loop)
            while len(discarded) < rules.max_redeals and (
                seats := misdeal_seats(hands, rules.misdeal)
            ):
                discarded.append((seats[0], tuple(hands[seats[0]])))
                assert rng is not None
                cards = make_deck(rules.deck_size)
                rng.shuffle(cards)
                origin["deck"] = tuple(reversed(cards))
                hands = deal_hands(cards, players, dealer, rules.hand_size)
        else:
            try:
                discarded = [(seat, tuple(parse_cards(hand))) for seat, hand in misdealt]
            except (CardError, TypeError, ValueError) as exc:
                raise PositionError(f"misdealt: {exc}") from None
        if mandatory:
            origin["redeals"] = len(discarded)
        if discarded:
            origin["misdealt"] = [[seat, format_cards(hand)] for seat, hand in discarded]
        for n, (seat, hand) in enumerate(discarded, 1):
            log.append(Event(EventKind.DEAL, dealer, n=rules.hand_size))
            log.append(Event(EventKind.MISDEAL, seat, hand, n=n))
        turnup, stock, where = turn_up(cards, hands, dealer)

        def draw(n: int) -> int:
            nonlocal rng
            if first_attacker is not None:
                return first_attacker
            if rng is None:
                rng = random.Random(seed)
            return rng.randrange(n)

        attacker, shown, how = pick_first_attacker(
            rules, hands, turnup.suit, dealer, draw, previous_durak
        )
        if how == "random":
            origin["first_attacker"] = attacker
        elif first_attacker is not None and first_attacker != attacker:
            raise PositionError(
                f"first_attacker: the rules choose seat {attacker} here ({how}), "
                f"not {first_attacker}"
            )
        log.extend(deal_events(dealer, rules.hand_size, turnup, where, attacker, shown, how))
        game._init_state(fresh_state(rules, hands, stock, turnup, turnup.suit, attacker))
        game._start_bout_event()
        return game

    @classmethod
    def from_position(
        cls,
        rules: Rules | None = None,
        hands: Position | Sequence[Iterable[Card | str] | str] = (),
        *,
        stock: Iterable[Card | str] | str = (),
        turnup: Card | str | None = None,
        turnup_in_stock: bool | None = None,
        trump: Suit | str | None = None,
        attacker: int = 0,
        defender: int | None = None,
        lead_attacker: int | None = None,
        defender_hand_at_start: int | None = None,
        discard: Iterable[Card | str] | str = (),
        table: Iterable[Sequence[Card | str | None]] = (),
        taking: bool = False,
        passed: Iterable[int] = (),
        out: Iterable[int] = (),
        durak: int | None = None,
        bouts: int = 1,
        previous_durak: int | None = None,
        low_trump_origin: int | _Derive | None = DERIVE,
        turnup_holder: int | None = None,
        known: Mapping[int | str, Iterable[Card | str] | str] | None = None,
        flashed: Iterable[Card | str] | str = (),
        redeals: int = 0,
        dealer: int | None = None,
        seen: Iterable[str] = (),
        undo: bool = True,
        events: bool = True,
    ) -> Self:
        """Set up a position: a :class:`Position` (``game.position()``, exact round trip), or
        the keyword form of lessons and records (cards as :class:`Card` or text).

        ``stock`` is listed top first (the next card drawn first); ``turnup`` lies under it and
        is drawn last unless ``turnup_in_stock=False`` (drawn, swapped, or kept by the dealer).
        Give ``trump`` when there is no turn-up. ``table`` lists (attack, defence or None) pairs
        of a bout in progress. ``known`` lists, per seat, cards everybody knows are in that
        hand (seen picked up earlier). Left out, ``defender`` is the attacker's next seat still
        in (in team play his next opponent), ``lead_attacker`` the attacker,
        ``defender_hand_at_start`` the cards the defender
        holds plus those he already beat, and ``low_trump_origin`` the seat holding the lowest
        trump. ``dealer`` is who dealt, if known: a new deal for a misdeal (C20) is dealt by him
        again (without one, by the seat before the attacker). Positions need not hold the whole
        deck, but every card must belong to it and appear once. Raises :class:`PositionError`
        saying what is wrong.
        """
        rules = rules or Rules()
        if isinstance(hands, Position):
            return cls._from_value(rules, hands, undo, events)
        players = len(hands)
        try:
            rules.check_players(players)
        except ValueError as exc:
            raise PositionError(str(exc)) from None

        def cards(value: Iterable[Card | str] | str, where: str) -> tuple[Card, ...]:
            try:
                if isinstance(value, str):
                    return tuple(parse_cards(value))
                return tuple(c if isinstance(c, Card) else Card.parse(c) for c in value)
            except (CardError, TypeError) as exc:
                raise PositionError(f"{where}: {exc}") from None

        def seat_or_none(value: object, what: str) -> int | None:
            if value is None or (isinstance(value, int) and 0 <= value < players):
                return value
            raise PositionError(f"{what} must be a seat 0..{players - 1} or None, not {value!r}")

        hand_cards = tuple(cards(h, f"hand of seat {i}") for i, h in enumerate(hands))
        up = None if turnup is None else cards([turnup], "turnup")[0]
        pairs: list[tuple[Card, Card | None]] = []
        for i, pair in enumerate(table):
            if len(pair) != 2 or pair[0] is None:
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
        if not isinstance(attacker, int) or not 0 <= attacker < players:
            raise PositionError(f"attacker must be a seat 0..{players - 1}, not {attacker!r}")
        out_order: list[int] = []
        for o in out:
            if not isinstance(o, int) or not 0 <= o < players:
                raise PositionError(f"out seats must be 0..{players - 1}, not {o!r}")
            if o not in out_order:
                out_order.append(o)
        active = [i not in out_order for i in range(players)]
        if defender is None:
            defender = _default_defender(rules, attacker, active)
        if defender_hand_at_start is None:
            defender_hand_at_start = (
                len(hand_cards[defender]) + sum(d is not None for _, d in pairs)
                if 0 <= defender < players
                else 0
            )
        low = Card(rules.lowest_rank, trump_suit)
        if isinstance(low_trump_origin, _Derive):
            low_trump_origin = (
                next((i for i, h in enumerate(hand_cards) if low in h), None)
                if rules.trump_swap is not TrumpSwap.OFF
                else None
            )
        known_cards: list[frozenset[Card]] = [frozenset()] * players
        for key, listed in (known or {}).items():
            # JSON keys are strings: a dict from :meth:`Position.to_dict` or a record says "0".
            seat = int(key) if isinstance(key, str) and key.isdecimal() else key
            if not isinstance(seat, int) or not 0 <= seat < players:
                raise PositionError(f"known: no seat {seat!r}")
            known_cards[seat] = frozenset(cards(listed, f"known cards of seat {seat}"))
        over = _is_over(rules, players, set(out_order))
        if not isinstance(redeals, int) or not 0 <= redeals <= rules.max_redeals:
            raise PositionError(f"redeals must be 0..{rules.max_redeals}, not {redeals!r}")
        position = Position(
            hands=hand_cards,
            stock=cards(stock, "stock"),
            turnup=up,
            turnup_in_stock=up is not None if turnup_in_stock is None else bool(turnup_in_stock),
            trump=trump_suit,
            discard=cards(discard, "discard"),
            table=tuple(pairs),
            attacker=attacker,
            defender=defender,
            lead_attacker=attacker if lead_attacker is None else lead_attacker,
            defender_hand_at_start=defender_hand_at_start,
            phase=Phase.OVER if over else Phase.BOUT if pairs else Phase.LEAD,
            taking=bool(taking),
            passed=frozenset(passed),
            out=tuple(out_order),
            durak=seat_or_none(durak, "durak"),
            bouts=bouts,
            previous_durak=seat_or_none(previous_durak, "previous_durak"),
            low_trump_origin=seat_or_none(low_trump_origin, "low_trump_origin"),
            turnup_holder=seat_or_none(turnup_holder, "turnup_holder"),
            known=tuple(known_cards),
            flashed=frozenset(cards(flashed, "flashed")),
            redeals=redeals,
            dealer=seat_or_none(dealer, "dealer"),
            seen=_seen_keys(seen),
        )
        return cls._from_value(rules, position, undo, events)

    @classmethod
    def _from_value(
        cls, rules: Rules, pos: Position, undo: bool, events: bool, check: bool = True
    ) -> Self:
        """Check ``pos`` is a possible position under ``rules`` and set it up. ``check=False``
        trusts a position built consistent by construction (search: ``determinize``)."""
        players = pos.players
        try:
            rules.check_players(players)
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        game = cls._blank(rules, players, undo, events)
        game.previous_durak = pos.previous_durak
        if check:
            _check_position(rules, pos)
        out_set = set(pos.out)
        over = _is_over(rules, players, out_set)
        trump = pos.trump
        origin, holder = pos.low_trump_origin, pos.turnup_holder
        seats = range(players)
        stock = [*reversed(pos.stock)]
        if pos.turnup_in_stock:
            if pos.turnup is None:
                raise PositionError("turnup_in_stock needs a turnup card")
            stock.insert(0, pos.turnup)
        s = fresh_state(rules, [list(h) for h in pos.hands], stock, pos.turnup, trump, pos.attacker)
        s.discard = list(pos.discard)
        for o in out_set:
            s.active[o] = False
        s.out_order = list(pos.out)
        s.durak = pos.durak
        s.defender = pos.defender
        s.lead_attacker = pos.lead_attacker
        s.defender_hand_at_start = pos.defender_hand_at_start
        s.bouts = pos.bouts
        s.passed = [seat in pos.passed for seat in seats]
        s.low_trump_origin = origin
        s.turnup_holder = holder
        s.flashed = pos.flashed
        s.redeals = pos.redeals
        s.seen = _seen_ints(pos.seen, players)
        game._init_state(s)
        if pos.table:
            if over:
                raise PositionError("the game is over: the table must be empty")
            ranks: set[Rank] = set()
            for i, (a, d) in enumerate(pos.table):
                if i and a.rank not in ranks:
                    raise PositionError(f"table: {a} has a rank not yet on the table")
                ranks.add(a.rank)
                if d is not None:
                    if not beats(d, a, trump):
                        raise PositionError(f"table: {d} does not beat {a}")
                    ranks.add(d.rank)
            s.attacks = [a for a, _ in pos.table]
            s.defences = [d for _, d in pos.table]
            s.phase = Phase.BOUT
            s.taking = pos.taking
            if cap(game.switches, game._state).room < 0:
                raise PositionError("table: more attack cards than the limit allows")
        elif pos.taking:
            raise PositionError("the defender cannot be taking with an empty table")
        elif over:
            s.phase = Phase.OVER
        elif not pos.hands[pos.attacker]:
            raise PositionError(f"the attacker (seat {pos.attacker}) has no card to lead")
        if any(pos.known):
            game._setup_known = pos.known
        game._origin = {"position": pos}  # worded lazily by Game.origin
        game._events.append(
            Event(
                EventKind.TRUMP,
                None,
                (pos.turnup,) if pos.turnup else (),
                detail="stock" if pos.turnup else trump.letter,
            )
        )
        if not over:
            game._start_bout_event()
            game._settle()
        return game


def _check_position(rules: Rules, pos: Position) -> None:
    """Raise :class:`PositionError` unless ``pos`` is a possible position under ``rules``."""
    players = pos.players
    _check_cards(rules, pos)
    seats = range(players)
    out_set = set(pos.out)
    if len(out_set) != len(pos.out) or not out_set <= set(seats):
        raise PositionError(f"out seats must be distinct seats 0..{players - 1}")
    if out_set and (pos.stock or pos.turnup_in_stock):
        raise PositionError("nobody is out while the stock has cards")
    for o in pos.out:
        if pos.hands[o]:
            raise PositionError(f"seat {o} cannot be out: it holds cards")
    over = _is_over(rules, players, out_set)
    if (pos.phase is Phase.OVER) != over:
        raise PositionError(
            "the game is over exactly when at most one player (in team play under "
            "team_end='team_loses': one team) is still in"
        )
    if pos.attacker not in seats:
        raise PositionError(f"attacker must be a seat 0..{players - 1}, not {pos.attacker!r}")
    if pos.dealer is not None and pos.dealer not in seats:
        raise PositionError(f"dealer must be a seat 0..{players - 1} or None, not {pos.dealer!r}")
    if pos.attacker in out_set and not over:
        raise PositionError(f"the attacker (seat {pos.attacker}) is out")
    if pos.defender not in seats or (
        not over and (pos.defender == pos.attacker or pos.defender in out_set)
    ):
        raise PositionError(f"defender {pos.defender} is not another seat still in play")
    sw = switches(rules, players)
    if (
        not over
        and sw.skip_partners
        and sw.team is not None
        and sw.team[pos.attacker] == sw.team[pos.defender]
        and not one_team_left(sw, [i not in out_set for i in seats])
    ):
        raise PositionError(
            f"the attacker (seat {pos.attacker}) and the defender (seat {pos.defender}) are "
            "partners: team-mates never attack each other (S0)"
        )
    if not isinstance(pos.redeals, int) or not 0 <= pos.redeals <= rules.max_redeals:
        raise PositionError(f"redeals must be 0..{rules.max_redeals}, not {pos.redeals!r}")
    for card in pos.flashed:
        if card.suit is not pos.trump:
            raise PositionError(f"flashed: {card} is not a trump")
    if pos.lead_attacker not in seats:
        raise PositionError(f"lead_attacker must be a seat 0..{players - 1}")
    if not pos.passed <= set(seats):
        raise PositionError(f"passed seats must be 0..{players - 1}")
    if not isinstance(pos.bouts, int) or pos.bouts < 1:
        raise PositionError(f"bouts must be a whole number ≥ 1, not {pos.bouts!r}")
    if pos.durak is not None and not over:
        raise PositionError("a durak is named only once the game is over")
    if len(pos.known) != players:
        raise PositionError(f"known must list {players} seats")
    for seat, listed in enumerate(pos.known):
        missing = [c for c in listed if c not in pos.hands[seat]]
        if missing:
            raise PositionError(
                f"known cards of seat {seat}: {' '.join(map(str, missing))} not in that hand"
            )
    trump = pos.trump
    low = Card(rules.lowest_rank, trump)
    origin = pos.low_trump_origin
    if origin is not None and low not in pos.hands[origin]:
        raise PositionError(f"low_trump_origin: seat {origin} does not hold {low}")
    holder = pos.turnup_holder
    if holder is not None and (pos.turnup is None or pos.turnup not in pos.hands[holder]):
        raise PositionError(f"turnup_holder: seat {holder} does not hold the turn-up")
    if pos.turnup is not None and pos.turnup.suit is not trump:
        raise PositionError(f"trump {trump.letter} does not match the turn-up {pos.turnup}")


def _check_cards(rules: Rules, pos: Position) -> None:
    """Every card belongs to the deck and appears once."""
    low = rules.lowest_rank
    seen: dict[Card, str] = {}
    places: list[tuple[str, Iterable[Card]]] = [
        *((f"hand of seat {i}", h) for i, h in enumerate(pos.hands)),
        ("stock", pos.stock),
        ("turnup", [pos.turnup] if pos.turnup is not None and pos.turnup_in_stock else []),
        ("discard", pos.discard),
        ("table", [c for p in pos.table for c in p if c is not None]),
    ]
    for where, group in places:
        for c in group:
            if not isinstance(c, Card):
                raise PositionError(f"{where}: {c!r} is not a card")
            if c.rank < low:
                raise PositionError(
                    f"{where}: {c} is not in a {rules.deck_size}-card deck "
                    f"(its lowest rank is {low.symbol})"
                )
            if c in seen:
                raise PositionError(f"{c} appears twice: in the {seen[c]} and the {where}")
            seen[c] = where


def _default_defender(rules: Rules, attacker: int, active: list[bool]) -> int:
    """The attacker's next seat still in; in team play (S0) his next opponent still in while
    two teams are in."""
    return defender_for(switches(rules, len(active)), active, attacker)


#: Most positions a set-up's ``seen`` may list, and the longest key (a 52-card deck's hands).
_MAX_SEEN, _MAX_KEY = 500, 400


def _seen_keys(seen: Iterable[str]) -> tuple[str, ...]:
    """``seen`` checked: position keys (:func:`~durak_core.state.repetition_key`) as text."""
    if isinstance(seen, str):
        raise PositionError("seen is a list of position keys, not one text")
    keys = tuple(seen)
    if len(keys) > _MAX_SEEN or not all(isinstance(k, str) and len(k) <= _MAX_KEY for k in keys):
        raise PositionError(f"seen must list at most {_MAX_SEEN} position keys as text")
    return keys


#: Set-up positions come back (the worlds a search deals from one observation).
_parse_key = lru_cache(maxsize=1024)(parse_bout_key)


def _seen_ints(seen: tuple[str, ...], players: int) -> tuple[int, ...]:
    """``Position.seen`` as the engine keeps it: :func:`~durak_core.state.bout_key` integers."""
    try:
        return tuple(_parse_key(key, players) for key in seen)
    except ValueError as exc:
        raise PositionError(f"seen: {exc}") from None


def _is_over(rules: Rules, players: int, out: set[int]) -> bool:
    """Is a game with these seats out over: at most one player still in, or (team play,
    ``team_end='team_loses'``) only one team (S0, S2)?"""
    sw = switches(rules, players)
    if sw.team_loses:
        return one_team_left(sw, [i not in out for i in range(players)])
    return players - len(out) <= 1


def _suit(value: Suit | str) -> Suit:
    return value if isinstance(value, Suit) else Suit.parse(value)


def _deck_order(rules: Rules, deck: str | Iterable[Card | str]) -> list[Card]:
    """``deck`` as a list of cards, checked to be the whole deck of ``rules``, each card once."""
    try:
        if isinstance(deck, str):
            cards = parse_cards(deck)
        else:
            cards = []
            for c in deck:
                if not isinstance(c, Card | str):
                    raise PositionError(f"deck: {c!r} is not a card")
                cards.append(c if isinstance(c, Card) else Card.parse(c))
    except CardError as exc:
        raise PositionError(f"deck: {exc}") from None
    except TypeError:
        raise PositionError(f"deck: give the cards as text or a list, not {deck!r}") from None
    size, low = rules.deck_size, rules.lowest_rank
    seen: set[Card] = set()
    for c in cards:
        if c.rank < low:
            raise PositionError(
                f"deck: {c} is not in a {size}-card deck (its lowest rank is {low.symbol})"
            )
        if c in seen:
            raise PositionError(f"deck: {c} appears twice")
        seen.add(c)
    if len(cards) != size:
        missing = " ".join(str(c) for c in make_deck(size) if c not in seen)
        raise PositionError(f"deck: {len(cards)} cards, not {size} (missing {missing})")
    return cards
