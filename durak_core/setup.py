"""Setting up a game's state: a shuffled deal, or an explicit position (lessons, records,
search) checked to be possible (:func:`~durak_core.position.thaw`). ``Game.deal`` and
``Game.from_position`` wrap these."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from copy import deepcopy
from typing import Any

from .cards import Card, CardError, format_cards, make_deck, parse_cards
from .dealing import deal_events, deal_hands, fresh_state, pick_first_attacker, turn_up
from .events import Event, EventKind
from .misdeal import misdeal_seats
from .position import Position, PositionError, thaw
from .rules import Misdeal, MisdealMode, Rules
from .state import Phase, State
from .switches import Switches
from .transitions import settle, start_bout_event

MANDATORY = MisdealMode.MANDATORY
NO_MISDEAL = Misdeal.OFF

__all__ = ["deal_state", "origin_json", "position_state"]


def deal_state(
    rules: Rules,
    players: int,
    seed: int | None,
    *,
    deck: str | Iterable[Card | str] | None,
    dealer: int | None,
    first_attacker: int | None,
    previous_durak: int | None,
    misdealt: Sequence[tuple[int, str]],
    log: list[Event],
) -> tuple[State, dict[str, Any]]:
    """A new deal's state and its origin (seed, dealer, deck, what a misdeal discarded), its
    events appended to ``log`` (``Game.deal`` wraps it).

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
    """
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
    hands = deal_hands(cards, players, dealer, rules.hand_size)
    discarded: list[tuple[int, tuple[Card, ...]]] = []
    mandatory = rules.misdeal is not NO_MISDEAL and rules.misdeal_mode is MANDATORY
    if deck is None and mandatory:
        # S2: a misdealt hand means a new shuffle and deal (capped: the rule could loop)
        while len(discarded) < rules.max_redeals and (seats := misdeal_seats(hands, rules.misdeal)):
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
            f"first_attacker: the rules choose seat {attacker} here ({how}), not {first_attacker}"
        )
    log.extend(deal_events(dealer, rules.hand_size, turnup, where, attacker, shown, how))
    s = fresh_state(rules, hands, stock, turnup, turnup.suit, attacker)
    s.previous_durak = previous_durak
    s.dealer = dealer
    start_bout_event(s, log)
    return s, origin


def position_state(sw: Switches, pos: Position, log: list[Event], *, check: bool) -> State:
    """The state a game set up in ``pos`` starts in (:func:`~durak_core.position.thaw`, then
    the trump and the bout announced and a bout that can only end ended), its events appended
    to ``log``: see ``Game.from_position``."""
    s = thaw(sw.rules, pos, check=check)
    log.append(
        Event(
            EventKind.TRUMP,
            None,
            (pos.turnup,) if pos.turnup else (),
            detail="stock" if pos.turnup else pos.trump.letter,
        )
    )
    if s.phase is not Phase.OVER:
        start_bout_event(s, log)
        settle(sw, s, log)
    return s


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


def origin_json(origin: dict[str, Any]) -> dict[str, Any]:
    """A game's origin JSON-ready (a deep copy): a set-up's Position as its dict, cards as
    text (set-ups store values and leave the formatting to this)."""
    shown: dict[str, Any] = {}
    for key, value in origin.items():
        if isinstance(value, Position):
            value = value.to_dict()
        elif isinstance(value, tuple) and all(isinstance(c, Card) for c in value):
            value = format_cards(value)
        shown[key] = deepcopy(value)
    return shown
