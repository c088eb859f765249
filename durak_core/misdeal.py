"""The misdeal rule (C20, S2): a dealt hand that calls for a new deal.

S2 as written: a hand all red, all black, or with four cards of one suit; other sources
(German Wikipedia, ezdurak) say five of one suit. ``Rules.misdeal`` picks the reading.

>>> from durak_core.cards import parse_cards
>>> is_misdeal(parse_cards("6H 7H 8H 9H 6S 7C"), Misdeal.FOUR_OF_A_SUIT)
True
>>> is_misdeal(parse_cards("6H 7H 8H 9H 6S 7C"), Misdeal.FIVE_OF_A_SUIT)
False
>>> is_misdeal(parse_cards("6H 7H 8D 9D 6D AH"), Misdeal.FIVE_OF_A_SUIT)  # all red
True

How often it fires (C20; rules-research §6): the exact chance that at least one dealt
hand is a misdeal, 36 cards, six each, 2 to 6 players. §6 gives 19.7% 28.0% 35.2%
41.5% 47.0% and 4.7% 6.8% 8.9% 10.8% 12.8%; exact counting (:func:`misdeal_fraction`)
moves the middle ones by up to 0.2 points:

>>> [f"{misdeal_probability('four_of_a_suit', n):.1%}" for n in range(2, 7)]
['19.8%', '27.9%', '35.0%', '41.4%', '47.0%']
>>> [f"{misdeal_probability('five_of_a_suit', n):.1%}" for n in range(2, 7)]
['4.7%', '6.9%', '9.0%', '11.0%', '13.0%']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from fractions import Fraction
from functools import cache
from math import comb

from .cards import DECK_SIZES, Card, Suit
from .rules import Misdeal

__all__ = [
    "hand_misdeal_probability",
    "is_misdeal",
    "misdeal_fraction",
    "misdeal_probability",
    "misdeal_seats",
]

_RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})
_RED_SLOTS = tuple(suit in _RED for suit in Suit)  # suit-count vectors are indexed by Suit


def is_misdeal(hand: Iterable[Card], rule: Misdeal) -> bool:
    """Does this dealt hand call for a new deal under ``rule``?"""
    if rule is Misdeal.OFF:
        return False
    suits = Counter(card.suit for card in hand)
    return _counts_misdeal(tuple(suits[suit] for suit in Suit), rule)


def misdeal_seats(hands: Iterable[Iterable[Card]], rule: Misdeal) -> tuple[int, ...]:
    """The seats whose dealt hands call for a new deal."""
    return tuple(seat for seat, hand in enumerate(hands) if is_misdeal(hand, rule))


def _counts_misdeal(counts: tuple[int, ...], rule: Misdeal) -> bool:
    """:func:`is_misdeal` for a hand given by its cards per suit (indexed by :class:`Suit`)."""
    if rule is Misdeal.OFF:
        return False
    total = sum(counts)
    if total == 0:
        return False
    red = sum(n for n, is_red in zip(counts, _RED_SLOTS, strict=True) if is_red)
    if red == 0 or red == total:
        return True
    return max(counts) >= (4 if rule is Misdeal.FOUR_OF_A_SUIT else 5)


def _vectors(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` non-negative counts, in order."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _vectors(total - first, parts - 1):
            yield (first, *rest)


@cache
def _good_hands(rule: Misdeal, hand_size: int) -> tuple[tuple[int, ...], ...]:
    """The suit-count vectors of the hands that are not a misdeal."""
    return tuple(v for v in _vectors(hand_size, len(Suit)) if not _counts_misdeal(v, rule))


@cache
def _choose_table(per_suit: int, hand_size: int) -> tuple[tuple[int, ...], ...]:
    """``table[r][k] == C(r, k)`` for r up to ``per_suit`` and k up to ``hand_size``."""
    return tuple(tuple(comb(r, k) for k in range(hand_size + 1)) for r in range(per_suit + 1))


def _check(rule: Misdeal | str, players: int, deck_size: int, hand_size: int) -> Misdeal:
    if deck_size not in DECK_SIZES:
        raise ValueError(f"deck_size must be one of {sorted(DECK_SIZES)}, not {deck_size}")
    if hand_size < 1:
        raise ValueError(f"hand_size must be positive, not {hand_size}")
    if players < 1 or players * hand_size > deck_size:
        raise ValueError(f"cannot deal {players} hands of {hand_size} from a {deck_size}-card deck")
    return Misdeal(rule)


@cache
def misdeal_fraction(
    rule: Misdeal | str, players: int, deck_size: int = 36, hand_size: int = 6
) -> Fraction:
    """The exact chance, as a fraction, that at least one of ``players`` hands of
    ``hand_size`` dealt from a shuffled ``deck_size``-card deck is a misdeal under ``rule``.

    Whether a hand is a misdeal depends only on how many cards of each suit it holds, so
    the deal is followed suit-count by suit-count: a dynamic program over the players, in
    turn, drawing a hand that is not a misdeal from the cards left of each suit. A hand of
    counts ``v`` from ``r`` cards left per suit can be drawn in ``∏ C(r_s, v_s)`` ways; the
    deals with no misdeal at all, over all ``∏ C(N - i·h, h)`` deals, give the complement.

    >>> misdeal_fraction("four_of_a_suit", 1)
    Fraction(610, 5797)
    >>> misdeal_fraction("five_of_a_suit", 1)
    Fraction(25, 1054)
    >>> misdeal_fraction("off", 6)
    Fraction(0, 1)
    """
    rule = _check(rule, players, deck_size, hand_size)
    if rule is Misdeal.OFF:
        return Fraction(0)
    per_suit = deck_size // len(Suit)
    choose = _choose_table(per_suit, hand_size)
    black = [s for s, is_red in enumerate(_RED_SLOTS) if not is_red]
    red = [s for s, is_red in enumerate(_RED_SLOTS) if is_red]
    order = [*black, *red]
    # the good hands as (black, black, red, red) counts
    good = [tuple(v[s] for s in order) for v in _good_hands(rule, hand_size)]
    # ways[r] = the number of ordered deals so far, none a misdeal, that leave r cards per
    # suit (black, black, red, red); r up to swapping the two black suits, the two red
    # suits, or the colours, which changes no hand's verdict (nor the ways to go on)
    ways: dict[tuple[int, ...], int] = {(per_suit,) * len(Suit): 1}
    for _ in range(players):
        after: dict[tuple[int, ...], int] = {}
        for (a, b, c, d), n in ways.items():
            ca, cb, cc, cd = choose[a], choose[b], choose[c], choose[d]
            for i, j, k, m in good:
                w = ca[i] * cb[j] * cc[k] * cd[m]
                if not w:
                    continue
                x, y, u, z = a - i, b - j, c - k, d - m
                if x > y:
                    x, y = y, x
                if u > z:
                    u, z = z, u
                rest = (x, y, u, z) if (x, y) <= (u, z) else (u, z, x, y)
                after[rest] = after.get(rest, 0) + n * w
        ways = after
    all_deals = 1
    for i in range(players):
        all_deals *= comb(deck_size - i * hand_size, hand_size)
    return 1 - Fraction(sum(ways.values()), all_deals)


def misdeal_probability(
    rule: Misdeal | str, players: int, deck_size: int = 36, hand_size: int = 6
) -> float:
    """The exact chance that at least one of ``players`` dealt hands is a misdeal under
    ``rule``: how often a deal is dealt again (C20). Exact combinatorics, not sampling
    (see :func:`misdeal_fraction`). With 36 cards and 6 players the whole deck is dealt.

    S2's reading, 36 cards, 2 to 6 players (rules-research §6: 19.7 28.0 35.2 41.5 47.0):

    >>> [round(100 * misdeal_probability(Misdeal.FOUR_OF_A_SUIT, n), 2) for n in range(2, 7)]
    [19.76, 27.88, 35.04, 41.36, 46.95]

    The five-of-a-suit reading (German Wikipedia, ezdurak; §6: 4.7 6.8 8.9 10.8 12.8):

    >>> [round(100 * misdeal_probability(Misdeal.FIVE_OF_A_SUIT, n), 2) for n in range(2, 7)]
    [4.66, 6.85, 8.97, 11.0, 12.96]

    Other decks: 24 cards (up to 4 players), 52 cards (7 each with 5 or 6 players):

    >>> [round(100 * misdeal_probability("four_of_a_suit", n, 24), 2) for n in range(2, 5)]
    [14.56, 20.62, 26.03]
    >>> [round(100 * misdeal_probability("five_of_a_suit", n, 52, 7), 2) for n in (5, 6)]
    [16.79, 19.73]
    >>> misdeal_probability("off", 6)
    0.0
    """
    return float(misdeal_fraction(rule, players, deck_size, hand_size))


def hand_misdeal_probability(rule: Misdeal | str, deck_size: int = 36, hand_size: int = 6) -> float:
    """The exact chance that one dealt hand is a misdeal under ``rule``.

    A hand of 36 cards is all one colour, or holds four or more of one suit, or five or more
    (rules-research §6: 1.9%, 9.8%, 0.72%), with these chances:

    >>> deals = comb(36, 6)
    >>> one_colour = 2 * comb(18, 6) / deals
    >>> four_plus, five_plus = (
    ...     4 * sum(comb(9, k) * comb(27, 6 - k) for k in range(least, 7)) / deals
    ...     for least in (4, 5)
    ... )
    >>> f"{one_colour:.2%} {four_plus:.2%} {five_plus:.2%}"
    '1.91% 9.80% 0.72%'

    The readings join the colour to the suit count (a hand can be both: 4♥ 2♦):

    >>> f"{hand_misdeal_probability('four_of_a_suit'):.2%}"
    '10.52%'
    >>> f"{hand_misdeal_probability('five_of_a_suit'):.2%}"
    '2.37%'
    >>> f"{hand_misdeal_probability('four_of_a_suit', 52):.2%}"
    '12.23%'
    """
    return misdeal_probability(rule, 1, deck_size, hand_size)
