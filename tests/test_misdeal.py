"""The misdeal rule (C20) and how often it fires.

Sources: S2 (rules-research §1 item 66): after the deal, a hand that is all red, all black,
or holds four cards of one suit means the deck is reshuffled and dealt again, mandatorily.
German Wikipedia and zackgomez/ezdurak read five of one suit (the colour condition is the
same). Rules-research §6 gives the rates; :func:`misdeal_probability` computes them exactly.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import pytest

from durak_core import Game, Rules
from durak_core.cards import Card, Rank, Suit, lowest_rank, make_deck, parse_cards
from durak_core.misdeal import (
    hand_misdeal_probability,
    is_misdeal,
    misdeal_fraction,
    misdeal_probability,
    misdeal_seats,
)
from durak_core.rules import Misdeal, MisdealMode

FOUR = Misdeal.FOUR_OF_A_SUIT
FIVE = Misdeal.FIVE_OF_A_SUIT


# --- which hands are a misdeal ----------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "four", "five"),
    [
        # S2 item 66: all red
        ("6H 7H 8D 9D 10D AH", True, True),
        # S2 item 66: all black
        ("6S 7S 8C 9C 10C AS", True, True),
        # S2 item 66: four of a suit (mixed colours) -- not enough for the five reading
        ("6H 7H 8H 9H 6S 7C", True, False),
        ("6C 7C 8C 9C 6D 7H", True, False),
        # German Wikipedia / ezdurak: five of a suit
        ("6H 7H 8H 9H 10H 7C", True, True),
        ("6S 7S 8S 9S 10S 7D", True, True),
        # six of a suit is one colour too
        ("6D 7D 8D 9D 10D JD", True, True),
        # three, three: no misdeal in either reading
        ("6H 7H 8H 6S 7S 8S", False, False),
        ("6H 7D 8C 9S 10H JS", False, False),
        # one card of the other colour saves a hand of one colour
        ("6H 7H 8H 9D 10D 6S", False, False),
        # 3-2-1 with both colours
        ("6H 7H 8H 9C 10C 6S", False, False),
    ],
)
def test_misdeal_hands(hand: str, four: bool, five: bool) -> None:
    cards = parse_cards(hand)
    assert is_misdeal(cards, FOUR) is four
    assert is_misdeal(cards, FIVE) is five
    assert is_misdeal(cards, Misdeal.OFF) is False


def test_misdeal_seats() -> None:
    hands = [
        parse_cards("6H 7H 8H 6S 7S 8S"),
        parse_cards("6C 7C 8C 9C 6D 7H"),  # four clubs
        parse_cards("9H 10D JD QD KD AH"),  # all red
    ]
    assert misdeal_seats(hands, FOUR) == (1, 2)
    assert misdeal_seats(hands, FIVE) == (2,)
    assert misdeal_seats(hands, Misdeal.OFF) == ()


def test_rules_field_reads_both_spellings() -> None:
    assert Rules(misdeal="four_of_a_suit").misdeal is FOUR  # type: ignore[arg-type]
    assert Rules(misdeal="five_of_a_suit").misdeal is FIVE  # type: ignore[arg-type]
    assert Rules().misdeal is Misdeal.OFF


# --- exact rates -------------------------------------------------------------------------

# 36 cards, six each, 2..6 players; rules-research §6 rounds these to one decimal as
# 19.7 28.0 35.2 41.5 47.0 and 4.7 6.8 8.9 10.8 12.8 (its multi-player figures are off by
# up to 0.2 points; these are exact)
EXACT_36 = {
    FOUR: [19.76, 27.88, 35.04, 41.36, 46.95],
    FIVE: [4.66, 6.85, 8.97, 11.00, 12.96],
}
SECTION_6 = {
    FOUR: [19.7, 28.0, 35.2, 41.5, 47.0],
    FIVE: [4.7, 6.8, 8.9, 10.8, 12.8],
}


@pytest.mark.parametrize("rule", [FOUR, FIVE])
def test_rates_36_cards(rule: Misdeal) -> None:
    rates = [100 * misdeal_probability(rule, n) for n in range(2, 7)]
    assert rates == pytest.approx(EXACT_36[rule], abs=0.005)
    # within a quarter point of rules-research §6 (a 100k-deal Monte-Carlo there)
    assert rates == pytest.approx(SECTION_6[rule], abs=0.25)
    # more hands, more chances
    assert rates == sorted(rates)


def test_single_hand_rates() -> None:
    """Rules-research §6: a 36-card hand holds ≥4 of a suit 9.8%, ≥5 0.72%, one colour 1.9%."""
    deals = math.comb(36, 6)
    one_colour = Fraction(2 * math.comb(18, 6), deals)
    four_plus = Fraction(4 * sum(math.comb(9, k) * math.comb(27, 6 - k) for k in (4, 5, 6)), deals)
    five_plus = Fraction(4 * sum(math.comb(9, k) * math.comb(27, 6 - k) for k in (5, 6)), deals)
    assert round(float(one_colour), 3) == 0.019
    assert round(float(four_plus), 3) == 0.098
    assert round(float(five_plus), 4) == 0.0072
    # one colour and ≥4 of a suit overlap (4♥ 2♦); six of a suit is one colour
    both_four = Fraction(
        2 * sum(math.comb(9, k) * math.comb(9, 6 - k) for k in (0, 1, 2, 4, 5, 6)), deals
    )
    assert misdeal_fraction(FOUR, 1) == one_colour + four_plus - both_four
    both_five = Fraction(
        2 * sum(math.comb(9, k) * math.comb(9, 6 - k) for k in (0, 1, 5, 6)), deals
    )
    assert misdeal_fraction(FIVE, 1) == one_colour + five_plus - both_five
    assert hand_misdeal_probability(FOUR) == float(misdeal_fraction(FOUR, 1))
    assert hand_misdeal_probability(FIVE) == pytest.approx(0.0237, abs=5e-5)


def test_single_hand_by_enumeration() -> None:
    """Every 6-card hand of the 24-card deck, checked with is_misdeal itself."""
    deck = make_deck(24)
    total = bad_four = bad_five = 0
    for hand in itertools.combinations(deck, 6):
        total += 1
        bad_four += is_misdeal(hand, FOUR)
        bad_five += is_misdeal(hand, FIVE)
    assert total == math.comb(24, 6)
    assert misdeal_fraction(FOUR, 1, 24) == Fraction(bad_four, total)
    assert misdeal_fraction(FIVE, 1, 24) == Fraction(bad_five, total)


def _hand_of(counts: tuple[int, ...], taken: tuple[int, ...], deck_size: int) -> list[Card]:
    """A hand with ``counts[s]`` cards of suit s, skipping the ``taken[s]`` lowest."""
    low = int(lowest_rank(deck_size))
    return [
        Card(Rank(low + taken[s] + i), suit)
        for s, suit in enumerate(Suit)
        for i in range(counts[s])
    ]


def _suit_vectors(total: int) -> list[tuple[int, ...]]:
    return [v for v in itertools.product(range(total + 1), repeat=4) if sum(v) == total]


@pytest.mark.parametrize(("deck_size", "hand_size"), [(24, 6), (36, 6), (52, 6), (52, 7)])
def test_two_players_by_brute_force(deck_size: int, hand_size: int) -> None:
    """Two hands, every pair of suit-count vectors weighted by its number of deals, judged
    by is_misdeal on real cards: the exact rate without the dynamic program."""
    per_suit = deck_size // 4
    vectors = _suit_vectors(hand_size)
    for rule in (FOUR, FIVE):
        good = 0
        for v in vectors:
            first = math.prod(math.comb(per_suit, k) for k in v)
            if not first or is_misdeal(_hand_of(v, (0,) * 4, deck_size), rule):
                continue
            for w in vectors:
                second = math.prod(math.comb(per_suit - a, b) for a, b in zip(v, w, strict=True))
                if second and not is_misdeal(_hand_of(w, v, deck_size), rule):
                    good += first * second
        deals = math.comb(deck_size, hand_size) * math.comb(deck_size - hand_size, hand_size)
        assert misdeal_fraction(rule, 2, deck_size, hand_size) == 1 - Fraction(good, deals)


def test_whole_deck_and_other_decks() -> None:
    # 6 × 6 of 36 deals the whole deck; 4 × 6 of 24 too; 6 × 7 of 52 leaves 10
    for rule in (FOUR, FIVE):
        assert 0 < misdeal_probability(rule, 6) < 1
        assert 0 < misdeal_probability(rule, 4, 24) < 1
        assert 0 < misdeal_probability(rule, 6, 52, 7) < 1
        assert misdeal_probability(rule, 4, 24) < misdeal_probability(rule, 4, 36)
        assert misdeal_probability(rule, 4, 36) < misdeal_probability(rule, 4, 52)
    assert misdeal_probability(FOUR, 3, 24) == pytest.approx(0.2062, abs=5e-5)
    assert misdeal_probability(FOUR, 6, 52, 7) == pytest.approx(0.7717, abs=5e-5)
    assert misdeal_probability(FIVE, 6, 52, 7) == pytest.approx(0.1973, abs=5e-5)


def test_off_and_bad_arguments() -> None:
    assert misdeal_probability(Misdeal.OFF, 6) == 0.0
    assert hand_misdeal_probability("off", 52) == 0.0
    with pytest.raises(ValueError):
        misdeal_probability(FOUR, 7)  # 42 cards from 36
    with pytest.raises(ValueError):
        misdeal_probability(FOUR, 5, 24)
    with pytest.raises(ValueError):
        misdeal_probability(FOUR, 2, 40)
    with pytest.raises(ValueError):
        misdeal_probability("three_of_a_suit", 2)


def test_fast() -> None:
    import time

    for rule in (FOUR, FIVE):
        for deck_size, hand_size in ((36, 6), (52, 6), (52, 7)):
            misdeal_fraction.cache_clear()
            start = time.perf_counter()
            misdeal_probability(rule, 6, deck_size, hand_size)
            assert time.perf_counter() - start < 0.5


# --- the engine's deal -------------------------------------------------------------------

DEALS = 3000


def _redeals(game: Game) -> int:
    value = game.origin.get("redeals", 0)
    assert isinstance(value, int)
    return value


@cache
def _deals(rule: Misdeal, players: int, max_redeals: int = 3) -> tuple[tuple[int, bool], ...]:
    """(redeals, whether the deal that stands is a misdeal) for seeds 0..DEALS-1."""
    rules = Rules(misdeal=rule, misdeal_mode=MisdealMode.MANDATORY, max_redeals=max_redeals)
    out = []
    for seed in range(DEALS):
        game = Game.deal(rules, players, seed=seed, undo=False, events=False)
        hands = [game.hand(seat) for seat in range(players)]
        out.append((_redeals(game), bool(misdeal_seats(hands, rule))))
    return tuple(out)


def _within_4_sigma(hits: int, n: int, p: float) -> bool:
    return abs(hits - n * p) <= 4 * math.sqrt(n * p * (1 - p)) + 1e-9


def test_engine_reports_redeals() -> None:
    game = Game.deal(Rules(misdeal=FOUR), 2, seed=1)
    assert isinstance(game.origin.get("redeals"), int)


ENGINE_CASES = [(FOUR, 2), (FOUR, 4), (FIVE, 2), (FIVE, 6)]


@pytest.mark.parametrize(("rule", "players"), ENGINE_CASES)
def test_engine_misdeal_rate(rule: Misdeal, players: int) -> None:
    """The share of seeded deals redealt at least once is the exact misdeal rate, and the
    number of redeals is geometric (each new shuffle is a fresh deal), capped at 3."""
    deals = _deals(rule, players)
    p = misdeal_probability(rule, players)
    redeals = [r for r, _ in deals]
    assert _within_4_sigma(sum(r >= 1 for r in redeals), DEALS, p)
    for k in range(4):
        chance = p**k * (1 - p) if k < 3 else p**3
        assert _within_4_sigma(redeals.count(k), DEALS, chance), (k, redeals.count(k))


@pytest.mark.parametrize(("rule", "players"), ENGINE_CASES)
def test_engine_deal_that_stands(rule: Misdeal, players: int) -> None:
    """Redeals never pass max_redeals, and the deal that stands is no misdeal unless the
    cap was reached."""
    for redeals, still_misdealt in _deals(rule, players):
        assert 0 <= redeals <= 3
        if redeals < 3:
            assert not still_misdealt


@pytest.mark.parametrize("cap", [0, 1])
def test_engine_max_redeals(cap: int) -> None:
    deals = _deals(FOUR, 4, cap)
    assert all(redeals <= cap for redeals, _ in deals)
    if cap == 0:  # nothing is redealt: the first deal stands, misdeal or not
        misdealt = sum(still for _, still in deals)
        assert _within_4_sigma(misdealt, DEALS, misdeal_probability(FOUR, 4))
    else:
        assert all(not still for redeals, still in deals if redeals < cap)


def test_engine_off_and_on_request_deal_once() -> None:
    for rules in (
        Rules(),
        Rules(misdeal=FOUR, misdeal_mode=MisdealMode.ON_REQUEST),
    ):
        for seed in range(200):
            assert _redeals(Game.deal(rules, 4, seed=seed, undo=False, events=False)) == 0


def test_engine_redeal_is_deterministic() -> None:
    rules = Rules(misdeal=FOUR)
    for seed in range(50):
        a = Game.deal(rules, 3, seed=seed)
        b = Game.deal(rules, 3, seed=seed)
        assert a.origin == b.origin
        assert [a.hand(s) for s in range(3)] == [b.hand(s) for s in range(3)]


def test_docstring_examples() -> None:
    import doctest

    import durak_core.misdeal

    result = doctest.testmod(durak_core.misdeal)
    assert result.failed == 0 and result.attempted >= 15
