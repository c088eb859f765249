"""Setting up a game: a shuffled deal, or an explicit position (lessons, records, search),
checked to be a possible Durak position."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from ._base import GameBase, NoEvents
from .cards import Card, CardError, Suit, format_cards, make_deck, parse_cards
from .dealing import deal_events, deal_hands, fresh_state, pick_first_attacker, turn_up
from .events import Event, EventKind
from .misdeal import misdeal_seats
from .position import DERIVE, Derive, Position, PositionError, read_position, thaw
from .rules import (
    Misdeal,
    MisdealMode,
    Rules,
    Teams,
)
from .state import Phase
from .switches import switches
from .transitions import settle, start_bout_event

MANDATORY, ON_REQUEST = MisdealMode.MANDATORY, MisdealMode.ON_REQUEST
NO_TEAMS, NO_MISDEAL = Teams.NONE, Misdeal.OFF

__all__ = ["DERIVE", "Setup"]


class Setup(GameBase):
    """Creating games; :class:`~durak_core.game.Game` adds the public API on top."""

    __slots__ = ()

    @classmethod
    def _blank(cls, rules: Rules, players: int, undo: bool, events: bool = True) -> Self:
        rules.check_players(players)
        game = object.__new__(cls)
        game.rules = rules
        game.players = players
        game._events = [] if events else NoEvents()
        game._actions = []
        game._undo = [] if undo else None
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
        s = game._state = fresh_state(rules, hands, stock, turnup, turnup.suit, attacker)
        s.previous_durak = previous_durak
        s.dealer = dealer
        start_bout_event(s, game._events)
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
        low_trump_origin: int | Derive | None = DERIVE,
        turnup_holder: int | None = None,
        known: Mapping[int | str, Iterable[Card | str] | str] | None = None,
        flashed: Iterable[Card | str] | str = (),
        redeals: int = 0,
        dealer: int | None = None,
        seen: Iterable[str] = (),
        undo: bool = True,
        events: bool = True,
        check: bool = True,
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
        saying what is wrong. ``check=False`` (a :class:`Position` only) trusts a position built
        consistent by construction and skips most checks (search: ``determinize``'s worlds).
        """
        rules = rules or Rules()
        if not isinstance(hands, Position):
            hands = read_position(
                rules,
                hands,
                stock=stock,
                turnup=turnup,
                turnup_in_stock=turnup_in_stock,
                trump=trump,
                attacker=attacker,
                defender=defender,
                lead_attacker=lead_attacker,
                defender_hand_at_start=defender_hand_at_start,
                discard=discard,
                table=table,
                taking=taking,
                passed=passed,
                out=out,
                durak=durak,
                bouts=bouts,
                previous_durak=previous_durak,
                low_trump_origin=low_trump_origin,
                turnup_holder=turnup_holder,
                known=known,
                flashed=flashed,
                redeals=redeals,
                dealer=dealer,
                seen=seen,
            )
            check = True
        return cls._from_value(rules, hands, undo, events, check)

    @classmethod
    def _from_value(
        cls, rules: Rules, pos: Position, undo: bool, events: bool, check: bool = True
    ) -> Self:
        """Set up ``pos`` (:func:`~durak_core.position.thaw` checks it; ``check=False`` trusts
        a position built consistent by construction: search, ``determinize``)."""
        s = thaw(rules, pos, check=check)
        game = cls._blank(rules, pos.players, undo, events)
        game._state = s
        if any(pos.known):
            game._setup_known = pos.known
        game._origin = {"position": pos}  # worded lazily by Game.origin
        game._events.append(
            Event(
                EventKind.TRUMP,
                None,
                (pos.turnup,) if pos.turnup else (),
                detail="stock" if pos.turnup else pos.trump.letter,
            )
        )
        if s.phase is not Phase.OVER:
            start_bout_event(s, game._events)
            settle(game.switches, s, game._events)
        return game


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
