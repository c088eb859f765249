"""Localized names: ranks, suits, cards, counts, players, roles, buttons and game terms.

Every function takes the translator to speak with (a :class:`~tutorial.i18n.Translator` or an
:class:`~tutorial.i18n.I18n`), so nothing is translated at import time and a language switch
takes effect at the next call. The words chosen for each language, and why, are in
``locales/GLOSSARY.md``.

Short forms go inside sentences (they never decline): ``10♥``, ``J♠`` / ``В♠``. Full forms are
for labels and screen readers: "the ten of hearts", "el diez de corazones", «десятка червей».
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from durak_core import ActionKind, Card, Rank, Suit

from .i18n import Gettext
from .people import PersonName, default_name

__all__ = [
    "SOURCES",
    "Role",
    "Term",
    "action_label",
    "capitalize",
    "card_count",
    "card_full",
    "card_short",
    "cards_list",
    "player_name",
    "preset_description",
    "preset_name",
    "rank_name",
    "rank_symbol",
    "ranks_list",
    "role_name",
    "source_name",
    "suit_name",
    "suit_symbol",
    "term",
    "you_label",
]


def capitalize(text: str) -> str:
    """Upper-case the first letter only ("el diez de corazones" → "El diez de corazones")."""
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------- ranks and suits


def rank_symbol(rank: Rank, tr: Gettext) -> str:
    """Short rank: 2–10 as digits; J/Q/K/A in English and Spanish, В/Д/К/Т in Russian."""
    if rank is Rank.JACK:
        # TRANSLATORS: short symbol of the jack on cards and in lists of ranks ("8, 10 or J").
        return tr.pgettext("rank symbol", "J")
    if rank is Rank.QUEEN:
        # TRANSLATORS: short symbol of the queen.
        return tr.pgettext("rank symbol", "Q")
    if rank is Rank.KING:
        # TRANSLATORS: short symbol of the king.
        return tr.pgettext("rank symbol", "K")
    if rank is Rank.ACE:
        # TRANSLATORS: short symbol of the ace.
        return tr.pgettext("rank symbol", "A")
    return str(int(rank))


def rank_name(rank: Rank, tr: Gettext) -> str:
    """The rank as a noun on its own: "ten", "diez", «десятка»; "jack", "jota", «валет»."""
    names = {
        # TRANSLATORS: a rank as a noun on its own, e.g. in a lesson's legend: "ten" → «десятка».
        Rank.TWO: lambda: tr.pgettext("rank name", "two"),
        Rank.THREE: lambda: tr.pgettext("rank name", "three"),
        Rank.FOUR: lambda: tr.pgettext("rank name", "four"),
        Rank.FIVE: lambda: tr.pgettext("rank name", "five"),
        Rank.SIX: lambda: tr.pgettext("rank name", "six"),
        Rank.SEVEN: lambda: tr.pgettext("rank name", "seven"),
        Rank.EIGHT: lambda: tr.pgettext("rank name", "eight"),
        Rank.NINE: lambda: tr.pgettext("rank name", "nine"),
        Rank.TEN: lambda: tr.pgettext("rank name", "ten"),
        Rank.JACK: lambda: tr.pgettext("rank name", "jack"),
        Rank.QUEEN: lambda: tr.pgettext("rank name", "queen"),
        Rank.KING: lambda: tr.pgettext("rank name", "king"),
        Rank.ACE: lambda: tr.pgettext("rank name", "ace"),
    }
    return names[rank]()


def _rank_in_card_name(rank: Rank, tr: Gettext) -> str:
    names = {
        # TRANSLATORS: the first half of a card's full name ("{rank} of {suit}"), with the
        # article the language needs there: "the two" → "el dos", "la jota"; «двойка».
        Rank.TWO: lambda: tr.pgettext("card name: rank", "the two"),
        Rank.THREE: lambda: tr.pgettext("card name: rank", "the three"),
        Rank.FOUR: lambda: tr.pgettext("card name: rank", "the four"),
        Rank.FIVE: lambda: tr.pgettext("card name: rank", "the five"),
        Rank.SIX: lambda: tr.pgettext("card name: rank", "the six"),
        Rank.SEVEN: lambda: tr.pgettext("card name: rank", "the seven"),
        Rank.EIGHT: lambda: tr.pgettext("card name: rank", "the eight"),
        Rank.NINE: lambda: tr.pgettext("card name: rank", "the nine"),
        Rank.TEN: lambda: tr.pgettext("card name: rank", "the ten"),
        Rank.JACK: lambda: tr.pgettext("card name: rank", "the jack"),
        Rank.QUEEN: lambda: tr.pgettext("card name: rank", "the queen"),
        Rank.KING: lambda: tr.pgettext("card name: rank", "the king"),
        Rank.ACE: lambda: tr.pgettext("card name: rank", "the ace"),
    }
    return names[rank]()


def suit_symbol(suit: Suit) -> str:
    """♣, ♦, ♥ or ♠ (the same in every language)."""
    return suit.symbol


def suit_name(suit: Suit, tr: Gettext) -> str:
    """The suit on its own, as trumps are named: "hearts", "corazones", «черви»."""
    names = {
        # TRANSLATORS: a suit on its own, as in "trumps are clubs" (Russian nominative «трефы»).
        Suit.CLUBS: lambda: tr.pgettext("suit name", "clubs"),
        Suit.DIAMONDS: lambda: tr.pgettext("suit name", "diamonds"),
        Suit.HEARTS: lambda: tr.pgettext("suit name", "hearts"),
        Suit.SPADES: lambda: tr.pgettext("suit name", "spades"),
    }
    return names[suit]()


def _suit_in_card_name(suit: Suit, tr: Gettext) -> str:
    names = {
        # TRANSLATORS: the second half of a card's full name ("{rank} of {suit}"), in the form
        # the language needs there: "clubs" → "tréboles"; Russian genitive plural «треф».
        Suit.CLUBS: lambda: tr.pgettext("card name: suit", "clubs"),
        Suit.DIAMONDS: lambda: tr.pgettext("card name: suit", "diamonds"),
        Suit.HEARTS: lambda: tr.pgettext("card name: suit", "hearts"),
        Suit.SPADES: lambda: tr.pgettext("card name: suit", "spades"),
    }
    return names[suit]()


# --------------------------------------------------------------------------- cards


def card_short(card: Card, tr: Gettext) -> str:
    """Short form for sentences and lists: ``10♥``, ``J♠`` (``В♠`` in Russian)."""
    return rank_symbol(card.rank, tr) + card.suit.symbol


def card_full(card: Card, tr: Gettext) -> str:
    """Full name for labels and screen readers: "the ten of hearts", "el diez de corazones",
    «десятка червей». Use :func:`capitalize` at the start of a label."""
    # TRANSLATORS: a card's full name. {rank} is "the ten", "the jack"… and {suit} "hearts"…
    # as translated in the contexts "card name: rank" and "card name: suit".
    return tr.pgettext(
        "card name",
        "{rank} of {suit}",
        rank=_rank_in_card_name(card.rank, tr),
        suit=_suit_in_card_name(card.suit, tr),
    )


def cards_list(cards: Iterable[Card], tr: Gettext, style: str = "standard") -> str:
    """Cards in short form joined as the language does: "8♣, 10♣ y J♥"."""
    return tr.format_list([card_short(c, tr) for c in cards], style)


def ranks_list(ranks: Iterable[Rank], tr: Gettext, style: str = "or") -> str:
    """Ranks joined with "or" by default: "8, 10 o J", "8, 10 или В", "8, 10, or J"."""
    return tr.format_list([rank_symbol(r, tr) for r in ranks], style)


def card_count(n: int, tr: Gettext) -> str:
    """ "1 card", "5 cards"; «1 карта», «2 карты», «5 карт»."""
    return tr.ngettext("{n} card", "{n} cards", n)


# --------------------------------------------------------------------------- players and roles


def player_name(seat: int, tr: Gettext) -> PersonName:
    """A default name for a seat, numbered from 1: "Player 2", "Jugador 2", «Игрок 2» (with
    its gender and case forms: :func:`tutorial.people.default_name`)."""
    return default_name(seat, tr)


def you_label(tr: Gettext) -> str:
    """How the learner's own seat is labelled on the table: "You", "Tú", «Ты»."""
    # TRANSLATORS: label of the learner's own seat at the table (informal, like the lessons).
    return tr.pgettext("seat label", "You")


class Role(StrEnum):
    """A seat's role in the bout or the game, for badges on the table."""

    ATTACKER = "attacker"
    DEFENDER = "defender"
    THROWER = "thrower"
    OUT = "out"
    DURAK = "durak"


def role_name(role: Role, tr: Gettext) -> str:
    """A short badge: "Attacker", "Atacante", «Ходит»…"""
    names = {
        # TRANSLATORS: badge next to the player who attacks in this bout.
        Role.ATTACKER: lambda: tr.pgettext("role badge", "Attacker"),
        # TRANSLATORS: badge next to the player who defends in this bout.
        Role.DEFENDER: lambda: tr.pgettext("role badge", "Defender"),
        # TRANSLATORS: badge next to a player who may add (throw in) cards now.
        Role.THROWER: lambda: tr.pgettext("role badge", "Adding cards"),
        # TRANSLATORS: badge next to a player who has gone out (no cards left, safe).
        Role.OUT: lambda: tr.pgettext("role badge", "Out"),
        # TRANSLATORS: badge next to the loser of the game.
        Role.DURAK: lambda: tr.pgettext("role badge", "Durak"),
    }
    return names[role]()


# --------------------------------------------------------------------------- buttons


def action_label(kind: ActionKind, tr: Gettext, *, taking: bool = False) -> str:
    """The button (or hint) for an action kind. ``taking``: the defender has decided to take,
    which changes what "pass" means in Russian ("Пас" instead of "Бито")."""
    if kind is ActionKind.PASS:
        if taking:
            # TRANSLATORS: button of a player who adds no more cards while the defender takes.
            return tr.pgettext("button", "Done adding")
        # TRANSLATORS: button of a player who adds no more cards once everything is beaten
        # (Russian players say «Бито»).
        return tr.pgettext("button", "Done")
    labels = {
        # TRANSLATORS: button/hint for playing the first card of a bout.
        ActionKind.LEAD: lambda: tr.pgettext("button", "Attack"),
        # TRANSLATORS: button/hint for covering an attack card.
        ActionKind.BEAT: lambda: tr.pgettext("button", "Beat"),
        # TRANSLATORS: button/hint for adding (throwing in) a card of a rank on the table.
        ActionKind.THROW: lambda: tr.pgettext("button", "Add"),
        # TRANSLATORS: button for passing the attack on to the next player (perevodnoy).
        ActionKind.TRANSFER: lambda: tr.pgettext("button", "Transfer"),
        # TRANSLATORS: button of the defender who gives up and picks up the table.
        ActionKind.TAKE: lambda: tr.pgettext("button", "Take"),
        # TRANSLATORS: button for exchanging the lowest trump for the turned-up trump.
        ActionKind.SWAP: lambda: tr.pgettext("button", "Swap trump"),
        # TRANSLATORS: button of the defender who passes the attack on by showing a trump of
        # the attack's rank and keeping it (Wikipedia's “Flash”).
        ActionKind.FLASH: lambda: tr.pgettext("button", "Show trump"),
        # TRANSLATORS: button of a player whose dealt hand is a misdeal (all red, all black,
        # too many of one suit): he asks for the cards to be dealt again (ru «Пересдача»).
        ActionKind.REDEAL: lambda: tr.pgettext("button", "Ask for a new deal"),
    }
    return labels[kind]()


# --------------------------------------------------------------------------- game terms


class Term(StrEnum):
    """Game vocabulary for headings, legends and glossaries (see ``locales/GLOSSARY.md``)."""

    TRUMP = "trump"
    STOCK = "stock"
    DISCARD = "discard"
    TABLE = "table"
    BOUT = "bout"
    HAND = "hand"
    DURAK = "durak"
    LANGUAGE = "language"


def term(key: Term, tr: Gettext) -> str:
    """A term as a label: "Trump", "Triunfo", «Козырь»; "Stock", "Mazo", «Колода»…"""
    terms = {
        # TRANSLATORS: label of the trump suit / turned-up trump card.
        Term.TRUMP: lambda: tr.pgettext("term", "Trump"),
        # TRANSLATORS: the face-down pile players draw from (talon).
        Term.STOCK: lambda: tr.pgettext("term", "Stock"),
        # TRANSLATORS: the closed pile of cards beaten off («бито»).
        Term.DISCARD: lambda: tr.pgettext("term", "Discard pile"),
        Term.TABLE: lambda: tr.pgettext("term", "Table"),
        # TRANSLATORS: one attack and its defence, from the first card until the table is
        # cleared (es «ronda», ru «ход»).
        Term.BOUT: lambda: tr.pgettext("term", "Bout"),
        Term.HAND: lambda: tr.pgettext("term", "Hand"),
        # TRANSLATORS: the loser of the game: the last player left with cards.
        Term.DURAK: lambda: tr.pgettext("term", "Durak"),
        # TRANSLATORS: label of the language menu.
        Term.LANGUAGE: lambda: tr.pgettext("term", "Language"),
    }
    return terms[key]()


# --------------------------------------------------------------------------- sources and presets

#: The five source documents, cited as S0–S4 (see the sources page, ``tutorial/sources_page.py``).
SOURCES: tuple[str, ...] = ("S0", "S1", "S2", "S3", "S4")

# Brand names are never translated: they stay in Latin script in every language («Dáme Karty»
# transliterated would read as "cards for the lady"). Sentences take them as placeholders.
_SOURCE_NAMES: dict[str, str] = {
    "S0": "wikiHow",
    "S1": "Matsuri",
    "S2": "Wikipedia",
    "S3": "Dáme Karty",
    "S4": "Durak Live",
}


def source_name(code: str, tr: Gettext) -> str:
    """The name of source ``code`` ("S0"…"S4"): "wikiHow", "Matsuri", "Wikipedia", "Dáme Karty",
    "Durak Live" — the same in every language. An unknown code is returned as it is."""
    del tr  # brand names are the same in every language
    return _SOURCE_NAMES.get(code, code)


def preset_name(preset: str, tr: Gettext) -> str:
    """A preset's name for menus and column headings: "Classic", "Clásico", «Классика»;
    "Durak Live «Todos»"… (an unknown preset id is returned as it is)."""
    names = {
        # TRANSLATORS: name of the rule set most sources agree on (a menu item and a column
        # heading; keep it short).
        "classic": lambda: tr.pgettext("preset name", "Classic"),
        "matsuri": lambda: source_name("S1", tr),
        "dame_karty": lambda: source_name("S3", tr),
        # TRANSLATORS: name of a rule set: Durak Live's table setting "Vecinos" (neighbours),
        # as lesson 9 names it. {source} is "Durak Live" (never translated).
        "durak_live_vecinos": lambda: tr.pgettext(
            "preset name", "{source} “Vecinos”", source=source_name("S4", tr)
        ),
        # TRANSLATORS: name of a rule set: Durak Live's table setting "Todos" (everyone), as
        # lesson 9 names it. {source} is "Durak Live" (never translated).
        "durak_live_todos": lambda: tr.pgettext(
            "preset name", "{source} “Todos”", source=source_name("S4", tr)
        ),
        # TRANSLATORS: name of a rule set: the optional home rules of the wikiHow guide.
        # {source} is "wikiHow" (never translated).
        "wikihow_home": lambda: tr.pgettext(
            "preset name", "{source} house rules", source=source_name("S0", tr)
        ),
        "wikipedia": lambda: source_name("S2", tr),
    }
    name = names.get(preset)
    return name() if name is not None else preset


def preset_description(preset: str, tr: Gettext) -> str:
    """One line saying what makes a preset different ("" for an unknown preset id)."""
    lines = {
        "classic": lambda: tr.gettext(
            "What most sources agree on: anyone may add cards once everything is beaten, "
            "at most six, and never more than the defender held when the bout began."
        ),
        "matsuri": lambda: tr.gettext(
            "The classic rules as {source}'s online game plays them, for two to four players.",
            source=source_name("S1", tr),
        ),
        "dame_karty": lambda: tr.gettext(
            "The classic rules as {source}'s online game plays them; with five or six players "
            "still in, only the defender's two neighbours add cards.",
            source=source_name("S3", tr),
        ),
        "durak_live_vecinos": lambda: tr.gettext(
            "Five attack cards while the discard pile is empty; the attacker and the next "
            "defender add any rank on the table, everyone else only the first card's rank."
        ),
        "durak_live_todos": lambda: tr.gettext(
            "Five attack cards while the discard pile is empty; everyone adds any rank on "
            "the table."
        ),
        "wikihow_home": lambda: tr.gettext(
            "The attacker adds until he passes, then the others; five cards in the first bout "
            "with four or more players; the lowest trump may be swapped for the turned-up one."
        ),
        "wikipedia": lambda: tr.gettext(
            "Anyone may add at any moment, even before the cards are beaten; at most six "
            "cards still unbeaten."
        ),
    }
    line = lines.get(preset)
    return line() if line is not None else ""
