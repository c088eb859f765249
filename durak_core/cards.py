"""Cards, suits, ranks, decks and the beating rule.

A :class:`Card` is a small interned value: there is exactly one object per
(rank, suit), so cards compare and hash by identity and copy for free.

>>> Card.parse("10H"), Card.parse("Q♠").unicode()
(Card.parse('10H'), 'Q♠')
>>> beats(Card.parse("6S"), Card.parse("AH"), trump=Suit.SPADES)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

__all__ = [
    "ALL_CARDS",
    "DECK_SIZES",
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "beat_failure",
    "beats",
    "format_cards",
    "lowest_rank",
    "make_deck",
    "parse_cards",
]


class CardError(ValueError):
    """A card or card list could not be parsed, or is not part of the deck in use."""


class Suit(IntEnum):
    """The four suits. The order is only used for sorting and notation."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """ASCII letter: C, D, H or S."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """Unicode symbol: ♣, ♦, ♥ or ♠."""
        return "♣♦♥♠"[self]

    def __str__(self) -> str:
        return self.letter

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``C``/``D``/``H``/``S`` (any case) or a suit symbol."""
        key = text.strip()
        for suit in cls:
            if key.upper() == suit.letter or key in (suit.symbol, _OUTLINE_SUITS[suit]):
                return suit
        raise CardError(f"unknown suit: {text!r}")


_OUTLINE_SUITS: Final = "♧♢♡♤"


class Rank(IntEnum):
    """Card ranks; aces are high."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    def __str__(self) -> str:
        return self.symbol

    @property
    def symbol(self) -> str:
        """Notation: 2–10, J, Q, K, A."""
        return _RANK_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``2``–``10``, ``T`` (ten), ``J``, ``Q``, ``K``, ``A`` (any case)."""
        key = text.strip().upper()
        if key == "T":
            return cls.TEN
        for rank, symbol in _RANK_SYMBOLS.items():
            if symbol == key:
                return rank
        raise CardError(f"unknown rank: {text!r}")


_RANK_SYMBOLS: Final[dict[Rank, str]] = {
    r: (str(int(r)) if r <= 10 else "JQKA"[r - 11]) for r in Rank
}

#: Deck sizes the engine deals, and the lowest rank each contains.
DECK_SIZES: Final[dict[int, Rank]] = {24: Rank.NINE, 36: Rank.SIX, 52: Rank.TWO}


def lowest_rank(deck_size: int) -> Rank:
    """The lowest rank in a deck of ``deck_size`` cards (9, 6 or 2)."""
    try:
        return DECK_SIZES[deck_size]
    except KeyError:
        raise CardError(f"deck size must be one of {sorted(DECK_SIZES)}, not {deck_size}") from None


class Card:
    """A playing card. Construct with ``Card(rank, suit)`` or :meth:`Card.parse`.

    Instances are interned, immutable and hashable; ``index`` is a dense id in 0..51;
    ``rank_bit`` is ``1 << rank``, for sets of ranks kept as int bit masks (the engine's hot
    paths: an enum member hashes slowly).
    """

    __slots__ = ("index", "rank", "rank_bit", "suit")
    rank: Rank
    suit: Suit
    index: int
    rank_bit: int

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        try:
            r, s = int(rank), int(suit)
        except (TypeError, ValueError):
            raise CardError(f"no such card: rank={rank!r}, suit={suit!r}") from None
        if not (2 <= r <= 14 and 0 <= s <= 3):
            raise CardError(f"no such card: rank={rank!r}, suit={suit!r}")
        return _CARDS[s * 13 + r - 2]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", int(suit) * 13 + int(rank) - 2)
        object.__setattr__(card, "rank_bit", 1 << int(rank))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        """Sort by suit, then rank (a stable display order, not a game order)."""
        return (self.suit, self.rank) < (other.suit, other.rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ASCII (``10H``, ``TH``, ``qs``) or Unicode (``10♥``, ``Q♠``) notation."""
        key = text.strip()
        if len(key) < 2:
            raise CardError(f"not a card: {text!r}")
        try:
            return cls(Rank.parse(key[:-1]), Suit.parse(key[-1]))
        except CardError as exc:
            raise CardError(f"not a card: {text!r} ({exc})") from None

    def ascii(self) -> str:
        """ASCII notation, e.g. ``10H``."""
        return self.rank.symbol + self.suit.letter

    def unicode(self) -> str:
        """Unicode notation, e.g. ``10♥``."""
        return self.rank.symbol + self.suit.symbol

    def __str__(self) -> str:
        return self.ascii()

    def __repr__(self) -> str:
        return f"Card.parse({self.ascii()!r})"


_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(r, s) for s in Suit for r in Rank)

ALL_CARDS: Final = _CARDS
"""All 52 cards in ``Card.index`` order: ``ALL_CARDS[card.index] is card``."""


_DECKS: Final[dict[int, tuple[Card, ...]]] = {
    size: tuple(c for c in _CARDS if c.rank >= low) for size, low in DECK_SIZES.items()
}


def make_deck(size: int = 36) -> list[Card]:
    """A new, ordered deck of 24, 36 or 52 cards (lowest rank upwards, suit by suit)."""
    try:
        return list(_DECKS[size])
    except KeyError:
        lowest_rank(size)  # raises the CardError that says which sizes exist
        raise


def beats(defence: Card, attack: Card, trump: Suit | None) -> bool:
    """True if ``defence`` beats ``attack``: a higher card of the same suit, or any
    trump against a non-trump (S0, S1, S2, S3; no need to follow suit, S3)."""
    if defence.suit is attack.suit:
        return defence.rank > attack.rank
    return defence.suit is trump


def beat_failure(defence: Card, attack: Card, trump: Suit | None) -> str | None:
    """Why ``defence`` does not beat ``attack``, as a code, or ``None`` if it does.

    ``"lower_rank"``: same suit, not higher; ``"trump_needs_higher_trump"``: the attack
    is a trump and the defence is not; ``"wrong_suit"``: another non-trump suit.
    """
    if beats(defence, attack, trump):
        return None
    if defence.suit is attack.suit:
        return "lower_rank"
    if attack.suit is trump:
        return "trump_needs_higher_trump"
    return "wrong_suit"


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a whitespace/comma separated list (or an iterable) of cards."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card], *, unicode: bool = False) -> str:
    """Format cards space-separated, in ASCII or Unicode."""
    return " ".join(c.unicode() if unicode else c.ascii() for c in cards)
