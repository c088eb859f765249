"""Cards, suits, ranks, decks, notation and the beating rule (durak_core.cards)."""

from __future__ import annotations

import copy
import pickle
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from durak_core import (
    DECK_SIZES,
    Card,
    CardError,
    Rank,
    Suit,
    beat_failure,
    beats,
    format_cards,
    make_deck,
    parse_cards,
)
from durak_core.cards import lowest_rank

ALL_CARDS = [Card(r, s) for s in Suit for r in Rank]
TRUMPS: list[Suit | None] = [*Suit, None]

ASCII_RANKS = {r: (str(int(r)) if r <= 10 else "JQKA"[r - 11]) for r in Rank}
ASCII_SUITS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
OUTLINE = {Suit.CLUBS: "♧", Suit.DIAMONDS: "♢", Suit.HEARTS: "♡", Suit.SPADES: "♤"}


def card_id(card: Card) -> str:
    return card.ascii()


# ---------------------------------------------------------------- decks


@pytest.mark.parametrize(
    ("size", "low"), [(24, Rank.NINE), (36, Rank.SIX), (52, Rank.TWO)], ids=["24", "36", "52"]
)
def test_deck_contents(size: int, low: Rank) -> None:
    deck = make_deck(size)
    assert len(deck) == size
    assert len(set(deck)) == size
    assert DECK_SIZES[size] is low
    assert lowest_rank(size) is low
    assert min(c.rank for c in deck) is low
    assert max(c.rank for c in deck) is Rank.ACE
    expected = {Card(r, s) for s in Suit for r in Rank if r >= low}
    assert set(deck) == expected
    for suit in Suit:
        assert sum(c.suit is suit for c in deck) == size // 4


def test_deck_sizes_are_exactly_three() -> None:
    assert set(DECK_SIZES) == {24, 36, 52}


def test_default_deck_is_36() -> None:
    assert make_deck() == make_deck(36)


def test_deck_order_is_suit_by_suit_lowest_rank_up() -> None:
    deck = make_deck(36)
    assert deck == sorted(deck)
    assert deck[0] == Card(Rank.SIX, Suit.CLUBS)
    assert deck[-1] == Card(Rank.ACE, Suit.SPADES)


def test_make_deck_returns_a_fresh_list() -> None:
    deck = make_deck(24)
    deck.clear()
    assert len(make_deck(24)) == 24


@pytest.mark.parametrize("size", [0, 20, 32, 53, -36])
def test_bad_deck_size(size: int) -> None:
    with pytest.raises(CardError, match=str(size)):
        make_deck(size)
    with pytest.raises(CardError):
        lowest_rank(size)


# ---------------------------------------------------------------- ranks and suits


def test_aces_are_high() -> None:
    assert list(Rank) == sorted(Rank)
    assert Rank.ACE > Rank.KING > Rank.QUEEN > Rank.JACK > Rank.TEN > Rank.NINE > Rank.TWO
    assert max(Rank) is Rank.ACE
    assert min(Rank) is Rank.TWO
    assert beats(Card.parse("AH"), Card.parse("KH"), None)
    assert not beats(Card.parse("KH"), Card.parse("AH"), None)
    assert beats(Card.parse("AS"), Card.parse("2S"), Suit.HEARTS)


def test_rank_symbols() -> None:
    for rank in Rank:
        assert rank.symbol == ASCII_RANKS[rank]
        assert Rank.parse(rank.symbol) is rank
        assert Rank.parse(rank.symbol.lower()) is rank
    assert Rank.parse("T") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN


def test_suit_letters_and_symbols() -> None:
    for suit in Suit:
        assert suit.letter == ASCII_SUITS[suit]
        assert suit.symbol == SYMBOLS[suit]
        for text in (ASCII_SUITS[suit], ASCII_SUITS[suit].lower(), SYMBOLS[suit], OUTLINE[suit]):
            assert Suit.parse(text) is suit
    assert Suit.HEARTS.is_red and Suit.DIAMONDS.is_red
    assert not Suit.SPADES.is_red and not Suit.CLUBS.is_red


@pytest.mark.parametrize("text", ["", "X", "1", "11", "0", "01", "HH"])
def test_bad_rank(text: str) -> None:
    with pytest.raises(CardError, match="rank"):
        Rank.parse(text)


@pytest.mark.parametrize("text", ["", "X", "CD", "♥♥", "1"])
def test_bad_suit(text: str) -> None:
    with pytest.raises(CardError, match="suit"):
        Suit.parse(text)


# ---------------------------------------------------------------- the Card value


def test_cards_are_interned() -> None:
    for card in ALL_CARDS:
        assert Card(card.rank, card.suit) is card
        assert Card(int(card.rank), int(card.suit)) is card
        assert Card.parse(card.ascii()) is card
        assert Card.parse(card.unicode()) is card
    assert len({id(c) for c in ALL_CARDS}) == 52


def test_card_attributes_and_dense_index() -> None:
    assert sorted(c.index for c in ALL_CARDS) == list(range(52))
    qs = Card.parse("QS")
    assert qs.rank is Rank.QUEEN and qs.suit is Suit.SPADES
    assert isinstance(qs.rank, Rank) and isinstance(qs.suit, Suit)


def test_card_hash_and_equality() -> None:
    assert len(set(ALL_CARDS)) == 52
    table = {c: c.ascii() for c in ALL_CARDS}
    for card in ALL_CARDS:
        assert hash(card) == hash(Card(card.rank, card.suit))
        assert table[Card.parse(card.unicode())] == card.ascii()
    assert Card.parse("QS") == Card.parse("q♠")
    assert Card.parse("QS") != Card.parse("QH")
    assert Card.parse("QS") != "QS"


@pytest.mark.parametrize("name", ["rank", "suit", "index", "colour"])
def test_card_is_immutable_setattr(name: str) -> None:
    card = Card.parse("QS")
    with pytest.raises(AttributeError):
        setattr(card, name, 3)
    assert card.rank is Rank.QUEEN and card.suit is Suit.SPADES and card.index == 49


def test_card_is_immutable_delattr() -> None:
    """Deleting a slot would corrupt the one shared instance for the whole process."""
    card = Card.parse("JD")
    deleted = []
    for name in ("rank", "suit", "index"):
        saved = getattr(card, name)
        try:
            delattr(card, name)
        except AttributeError:
            continue
        object.__setattr__(card, name, saved)  # repair the interned card for other tests
        deleted.append(name)
    assert not deleted, f"del card.<attr> succeeded for {deleted}"
    assert card is Card(Rank.JACK, Suit.DIAMONDS) and card.index == 22


def test_card_has_no_instance_dict() -> None:
    assert not hasattr(Card.parse("QS"), "__dict__")


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_card_pickle_keeps_identity(protocol: int) -> None:
    for card in ALL_CARDS:
        assert pickle.loads(pickle.dumps(card, protocol)) is card
    hand = [Card.parse("10H"), Card.parse("QS")]
    clone = pickle.loads(pickle.dumps(hand, protocol))
    assert all(a is b for a, b in zip(clone, hand, strict=True))


def test_card_copy_keeps_identity() -> None:
    for card in ALL_CARDS:
        assert copy.copy(card) is card
        assert copy.deepcopy(card) is card
    nested = {"hand": [Card.parse("6C"), Card.parse("AH")]}
    clone = copy.deepcopy(nested)
    assert clone == nested and clone["hand"] is not nested["hand"]
    assert clone["hand"][0] is nested["hand"][0]


@pytest.mark.parametrize(
    ("rank", "suit"), [(1, 0), (15, 0), (0, 0), (2, 4), (14, -1), ("A", "S"), (None, 0)]
)
def test_no_such_card(rank: object, suit: object) -> None:
    with pytest.raises(CardError, match="no such card"):
        Card(rank, suit)  # type: ignore[arg-type]


def test_card_sort_order_is_suit_then_rank() -> None:
    shuffled = [Card.parse(t) for t in ("AS", "6C", "10H", "2C", "KD", "9H")]
    assert [c.ascii() for c in sorted(shuffled)] == ["2C", "6C", "KD", "9H", "10H", "AS"]


def test_str_and_repr() -> None:
    card = Card.parse("10♥")
    assert str(card) == "10H"
    assert repr(card) == "Card.parse('10H')"
    assert eval(repr(card)) is card


# ---------------------------------------------------------------- notation round trips


@pytest.mark.parametrize("card", ALL_CARDS, ids=card_id)
def test_round_trip_every_card(card: Card) -> None:
    rank, letter = ASCII_RANKS[card.rank], ASCII_SUITS[card.suit]
    assert card.ascii() == rank + letter
    assert card.unicode() == rank + SYMBOLS[card.suit]
    spellings = [
        rank + letter,
        (rank + letter).lower(),
        rank + letter.lower(),
        rank.lower() + letter,
        rank + SYMBOLS[card.suit],
        rank.lower() + SYMBOLS[card.suit],
        rank + OUTLINE[card.suit],
        f"  {rank}{letter}\t",
    ]
    if card.rank is Rank.TEN:
        spellings += ["T" + letter, "t" + letter.lower(), "T" + SYMBOLS[card.suit]]
    for text in spellings:
        assert Card.parse(text) is card, text
    assert Card.parse(card.ascii()) is card
    assert Card.parse(card.unicode()) is card
    assert str(card) == card.ascii()


def test_examples_from_the_brief() -> None:
    assert Card.parse("10H") is Card(Rank.TEN, Suit.HEARTS)
    assert Card.parse("QS") is Card(Rank.QUEEN, Suit.SPADES)
    assert Card.parse("TH") is Card.parse("10H")
    assert Card.parse("10♥") is Card.parse("10H")
    assert Card.parse("Q♠") is Card.parse("QS")
    assert Card.parse("Q♤") is Card.parse("QS")
    assert Card.parse("10♡") is Card.parse("10H")
    assert Card.parse("7♢").suit is Suit.DIAMONDS
    assert Card.parse("K♧").suit is Suit.CLUBS
    assert Card.parse("qs").unicode() == "Q♠"


@pytest.mark.parametrize(
    "text",
    ["", " ", "H", "1H", "11H", "0S", "1OH", "ZZ", "QX", "10", "QQ", "10HH", "Q S S", "♠Q", "AH,"],
)
def test_parse_errors_name_the_text(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


@given(st.text(max_size=6))
def test_random_text_parses_or_raises_card_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardError as exc:
        assert repr(text) in str(exc)
        return
    assert isinstance(card, Card)
    assert Card.parse(card.ascii()) is card
    assert Card.parse(card.unicode()) is card


_card_alphabet = st.sampled_from([*"0123456789TJQKAtjqkaCDHSchds♣♦♥♠♧♢♡♤ /+x", "10", "1", " "])


@given(st.lists(_card_alphabet, max_size=4).map("".join))
def test_card_like_text_parses_or_raises_card_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardError as exc:
        assert repr(text) in str(exc)
        return
    assert Card.parse(card.ascii()) is card
    assert Card.parse(card.unicode()) is card


# ---------------------------------------------------------------- the beating rule


def reference_beats(defence: Card, attack: Card, trump: Suit | None) -> bool:
    """Independent, straightforward statement of the rule."""
    d_rank, d_suit = int(defence.rank), int(defence.suit)
    a_rank, a_suit = int(attack.rank), int(attack.suit)
    t = None if trump is None else int(trump)
    if d_suit == a_suit:
        return d_rank > a_rank
    return t is not None and d_suit == t and a_suit != t


def reference_failure(defence: Card, attack: Card, trump: Suit | None) -> str | None:
    if reference_beats(defence, attack, trump):
        return None
    if int(defence.suit) == int(attack.suit):
        return "lower_rank"
    if trump is not None and int(attack.suit) == int(trump):
        return "trump_needs_higher_trump"
    return "wrong_suit"


@pytest.mark.parametrize("trump", TRUMPS, ids=lambda t: "none" if t is None else t.letter)
def test_beats_truth_table(trump: Suit | None) -> None:
    wins = 0
    for defence, attack in product(ALL_CARDS, ALL_CARDS):
        expected = reference_beats(defence, attack, trump)
        assert beats(defence, attack, trump) is expected, (defence, attack, trump)
        assert beat_failure(defence, attack, trump) == reference_failure(defence, attack, trump)
        wins += expected
    # Same suit: 4 * C(13, 2) pairs; with a trump, also 13 trumps x 39 non-trumps.
    assert wins == 4 * 78 + (0 if trump is None else 13 * 39)


@pytest.mark.parametrize("trump", list(Suit), ids=lambda t: t.letter)
def test_beat_failure_codes(trump: Suit) -> None:
    other = [s for s in Suit if s is not trump]
    low_trump, high_trump = Card(Rank.SIX, trump), Card(Rank.ACE, trump)
    plain, plain2 = Card(Rank.KING, other[0]), Card(Rank.SEVEN, other[1])
    assert beat_failure(high_trump, low_trump, trump) is None
    assert beat_failure(low_trump, high_trump, trump) == "lower_rank"
    assert beat_failure(low_trump, low_trump, trump) == "lower_rank"
    assert beat_failure(plain, low_trump, trump) == "trump_needs_higher_trump"
    assert beat_failure(plain2, plain, trump) == "wrong_suit"
    assert beat_failure(low_trump, plain, trump) is None
    assert beat_failure(Card(Rank.SIX, other[0]), plain, trump) == "lower_rank"


def test_docstring_example() -> None:
    assert beats(Card.parse("6S"), Card.parse("AH"), trump=Suit.SPADES)
    assert not beats(Card.parse("AH"), Card.parse("6S"), trump=Suit.SPADES)
    assert not beats(Card.parse("6S"), Card.parse("AH"), trump=None)


# ---------------------------------------------------------------- lists


def test_parse_cards_separators_and_iterables() -> None:
    expected = [Card.parse("8C"), Card.parse("10H"), Card.parse("QS")]
    assert parse_cards("8C 10H QS") == expected
    assert parse_cards("8C,10H,QS") == expected
    assert parse_cards(" 8c, 10♥\tq♠ \n") == expected
    assert parse_cards(["8C", "TH", "Q♤"]) == expected
    assert parse_cards(iter(["8C", "10H", "QS"])) == expected
    assert parse_cards("") == []
    assert parse_cards([]) == []


def test_parse_cards_error_names_the_item() -> None:
    with pytest.raises(CardError, match="'1H'"):
        parse_cards("8C 1H QS")
    with pytest.raises(CardError, match="'ZZ'"):
        parse_cards(["8C", "ZZ"])


def test_format_cards() -> None:
    cards = parse_cards("8C 10H QS")
    assert format_cards(cards) == "8C 10H QS"
    assert format_cards(cards, unicode=True) == "8♣ 10♥ Q♠"
    assert format_cards([]) == ""
    assert format_cards(iter(cards)) == "8C 10H QS"


@pytest.mark.parametrize("size", sorted(DECK_SIZES))
def test_format_parse_round_trip_whole_deck(size: int) -> None:
    deck = make_deck(size)
    assert parse_cards(format_cards(deck)) == deck
    assert parse_cards(format_cards(deck, unicode=True)) == deck
