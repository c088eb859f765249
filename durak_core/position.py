"""A complete position: everything that decides what can happen next, as one frozen value.

``game.position()`` and ``Game.from_position(rules, position)`` round-trip exactly: the same
legal actions now and the same future after any actions. :meth:`Position.to_dict` and
:meth:`Position.from_dict` are the one serializer of positions (JSON-ready, cards as text)
used by records, lessons and the tutorial; the dict's keys are ``from_position``'s keywords.

Reading a position and checking that it is possible need no game: :func:`read_position`
reads the keyword form (deriving what is left out), and :func:`thaw` checks a position under
the rules and gives the engine's :class:`~durak_core.state.State` of it, which
``Game.from_position`` sets up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypedDict

from .bout import cap
from .cards import Card, CardError, Rank, Suit, beats, parse_cards
from .dealing import fresh_state
from .rules import Rules, TrumpSwap
from .state import Phase, State, parse_bout_key, seen_keys
from .switches import defender_for, one_team_left, switches

__all__ = [
    "DERIVE",
    "KEYWORDS",
    "Derive",
    "Position",
    "PositionError",
    "PositionKeywords",
    "freeze",
    "read_position",
    "thaw",
]


class PositionError(ValueError):
    """A set-up position that is not a possible Durak position; the message says why."""


@dataclass(frozen=True, slots=True)
class Position:
    """A game position. Seats are numbered clockwise; cards are :class:`Card` values."""

    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hand, in the order it was dealt, drawn and picked up."""
    stock: tuple[Card, ...]
    """The stock, top (next to draw) first, without the turn-up."""
    turnup: Card | None
    """The card turned up to fix trumps (still shown after it was drawn); None if none."""
    turnup_in_stock: bool
    """Whether the turn-up still lies under the stock (it is drawn last). When false, the
    turn-up was drawn, swapped, or kept by the dealer of a deal that used every card."""
    trump: Suit
    discard: tuple[Card, ...]
    """Cards beaten off, in the order they went."""
    table: tuple[tuple[Card, Card | None], ...]
    """(attack, defence or None) pairs of the bout in progress."""
    attacker: int
    """The bout's main attacker: throw-in priority and «Vecinos» rights start with him."""
    defender: int
    lead_attacker: int
    """Who led the bout (after a transfer, the attacker changes but drawing starts here)."""
    defender_hand_at_start: int
    """The defender's hand when he became defender: the hand cap (C8)."""
    phase: Phase
    taking: bool
    """The defender has said «take» (cards may still be added, C13)."""
    passed: frozenset[int]
    """Seats that have passed in this bout."""
    out: tuple[int, ...]
    """Seats that have gone out, in the order they did."""
    durak: int | None
    """The loser once the game is over (None: a draw, or not over)."""
    bouts: int
    """Bouts started so far, this one included."""
    previous_durak: int | None
    """The previous game's durak (he stays durak after a draw, S0)."""
    low_trump_origin: int | None
    """The seat that got the lowest trump by deal or draw and still holds it (swap right)."""
    turnup_holder: int | None
    """The seat that drew the turn-up as the stock's last card, until the next lead (S0)."""
    known: tuple[frozenset[Card], ...]
    """For each seat, cards everybody knows are in that hand (seen picked up, shown)."""
    flashed: frozenset[Card] = frozenset()
    """Trumps already shown for a Flash transfer (S2)."""
    redeals: int = 0
    """New deals asked for so far for a misdeal (C20, on request)."""
    dealer: int | None = None
    """Who dealt (None: not known, e.g. a lesson's set-up). A new deal for a misdeal (C20) is
    dealt by the same dealer, from his left; without one the seat before the first attacker
    deals."""
    seen: tuple[str, ...] = ()
    """The positions that started a bout since the stock ran out and the last bout was beaten
    off, oldest first (:func:`~durak_core.state.repetition_key`): what
    ``Rules.repetition_limit`` counts. A set-up position's own bout is not among them."""

    @property
    def players(self) -> int:
        return len(self.hands)

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data: ``Game.from_position(rules, **position.to_dict())``
        and :meth:`from_dict` rebuild it exactly (``seen`` only when there is one)."""
        data = {
            "hands": [_text(h) for h in self.hands],
            "stock": _text(self.stock),
            "turnup": None if self.turnup is None else str(self.turnup),
            "turnup_in_stock": self.turnup_in_stock,
            "trump": self.trump.letter,
            "attacker": self.attacker,
            "defender": self.defender,
            "lead_attacker": self.lead_attacker,
            "defender_hand_at_start": self.defender_hand_at_start,
            "discard": _text(self.discard),
            "table": [[str(a), None if d is None else str(d)] for a, d in self.table],
            "taking": self.taking,
            "passed": sorted(self.passed),
            "out": list(self.out),
            "durak": self.durak,
            "bouts": self.bouts,
            "previous_durak": self.previous_durak,
            "low_trump_origin": self.low_trump_origin,
            "turnup_holder": self.turnup_holder,
            "flashed": _text(sorted(self.flashed)),
            "redeals": self.redeals,
            "dealer": self.dealer,
            "known": {  # in hand order, so that equal positions give equal dicts
                str(seat): _text(c for c in hand if c in cards)
                for seat, (hand, cards) in enumerate(zip(self.hands, self.known, strict=True))
                if cards
            },
        }
        if self.seen:
            data["seen"] = list(self.seen)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: Rules | None = None) -> Position:
        """Read :meth:`to_dict`'s form, or the shorter keyword form of lessons and older
        records (missing keys are derived as ``Game.from_position`` derives them; an older
        position without ``dealer`` has none), checked under ``rules`` without building a
        game (:func:`read_position`). Raises :class:`~durak_core.PositionError` saying what
        is wrong."""
        return read_position(rules or Rules(), **_keywords(data))


KEYWORDS: tuple[str, ...] = tuple(f for f in Position.__slots__ if f != "phase")
"""The keys of :meth:`Position.to_dict`: ``Game.from_position``'s keywords (the phase follows
from the rest)."""


def _text(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def _keywords(data: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise PositionError("a position is a mapping of from_position's keywords")
    keywords = dict(data)
    if "table" in keywords and isinstance(keywords["table"], list):
        keywords["table"] = [tuple(p) if isinstance(p, list) else p for p in keywords["table"]]
    return keywords


class Derive:
    """The default of a keyword that ``from_position`` works out from the rest."""

    def __repr__(self) -> str:
        return "DERIVE"


DERIVE = Derive()


class PositionKeywords(TypedDict, total=False):
    """The keyword form of a position (:func:`read_position`, ``Game.from_position``): every
    key may be left out; see :func:`read_position` for what each means and how it is derived."""

    stock: Iterable[Card | str] | str
    turnup: Card | str | None
    turnup_in_stock: bool | None
    trump: Suit | str | None
    attacker: int
    defender: int | None
    lead_attacker: int | None
    defender_hand_at_start: int | None
    discard: Iterable[Card | str] | str
    table: Iterable[Sequence[Card | str | None]]
    taking: bool
    passed: Iterable[int]
    out: Iterable[int]
    durak: int | None
    bouts: int
    previous_durak: int | None
    low_trump_origin: int | Derive | None
    turnup_holder: int | None
    known: Mapping[int | str, Iterable[Card | str] | str] | None
    flashed: Iterable[Card | str] | str
    redeals: int
    dealer: int | None
    seen: Iterable[str]


def read_position(
    rules: Rules,
    hands: Sequence[Iterable[Card | str] | str] = (),
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
    low_trump_origin: int | Derive | None = DERIVE,
    turnup_holder: int | None = None,
    known: Mapping[int | str, Iterable[Card | str] | str] | None = None,
    flashed: Iterable[Card | str] | str = (),
    redeals: int = 0,
    dealer: int | None = None,
    seen: Iterable[str] = (),
) -> Position:
    """A position read from the keyword form of lessons and records (cards as :class:`Card` or
    text), its missing fields derived, and checked (:func:`thaw`).

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
    if isinstance(low_trump_origin, Derive):
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
    thaw(rules, position)
    return position


def thaw(rules: Rules, pos: Position, *, check: bool = True) -> State:
    """The engine's state of ``pos``, checked to be a possible position under ``rules``
    (:class:`PositionError` says what is wrong). ``check=False`` trusts a position built
    consistent by construction (search: ``determinize``); the table is checked either way.
    A bout that can only end is not ended here: a set-up game settles it."""
    players = pos.players
    try:
        rules.check_players(players)
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    if check:
        _check_position(rules, pos)
    out_set = set(pos.out)
    over = _is_over(rules, players, out_set)
    trump = pos.trump
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
    s.low_trump_origin = pos.low_trump_origin
    s.turnup_holder = pos.turnup_holder
    s.flashed = pos.flashed
    s.redeals = pos.redeals
    s.seen = _seen_ints(pos.seen, players)
    s.previous_durak = pos.previous_durak
    s.dealer = pos.dealer
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
        if cap(switches(rules, players), s).room < 0:
            raise PositionError("table: more attack cards than the limit allows")
    elif pos.taking:
        raise PositionError("the defender cannot be taking with an empty table")
    elif over:
        s.phase = Phase.OVER
    elif not pos.hands[pos.attacker]:
        raise PositionError(f"the attacker (seat {pos.attacker}) has no card to lead")
    return s


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


def freeze(s: State, known: tuple[frozenset[Card], ...]) -> Position:
    """The position of the engine's state ``s`` (the reverse of :func:`thaw`), with the cards
    everybody knows are in each hand (``known``)."""
    in_stock = bool(s.stock) and s.turnup is not None and s.stock[0] is s.turnup
    stock = tuple(reversed(s.stock[1:] if in_stock else s.stock))
    return Position(
        hands=tuple(tuple(h) for h in s.hands),
        stock=stock,
        turnup=s.turnup,
        turnup_in_stock=in_stock,
        trump=s.trump,
        discard=tuple(s.discard),
        table=tuple(zip(s.attacks, s.defences, strict=True)),
        attacker=s.attacker,
        defender=s.defender,
        lead_attacker=s.lead_attacker,
        defender_hand_at_start=s.defender_hand_at_start,
        phase=s.phase,
        taking=s.taking,
        passed=frozenset(i for i, p in enumerate(s.passed) if p),
        out=tuple(s.out_order),
        durak=s.durak,
        bouts=s.bouts,
        previous_durak=s.previous_durak,
        low_trump_origin=s.low_trump_origin,
        turnup_holder=s.turnup_holder,
        known=known,
        flashed=s.flashed,
        redeals=s.redeals,
        dealer=s.dealer,
        seen=seen_keys(s.seen, len(s.hands)),
    )
