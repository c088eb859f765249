"""Rule options in the learner's words: every :class:`~durak_core.Rules` field and its values.

:func:`option_text` names an option and its value in one sentence, the way a teacher would
say it ("At most 5 attack cards until a bout has been beaten off for the first time, then 6"),
so that a comparison can say *which* rule makes two rule sets part ways::

    >>> from tutorial.i18n import translator
    >>> option_text("throw_in_after_take", False, translator("en"))
    'Adding cards after a take: not allowed: the take ends the bout at once.'
    >>> option_text("throw_in_rights", "all", translator("ru"))
    'Кто может подкидывать: все, кроме отбивающегося.'

Values may be given as the enum member or its string (as ``Rules.differences`` reports them).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Final

from durak_core import (
    AttackerAfterDefenderOut,
    CapScope,
    FirstAttacker,
    FirstBoutCap,
    HandCap,
    NoTrumpFallback,
    Rules,
    ThrowInPriority,
    ThrowInRights,
    ThrowInTiming,
    TrumpSwap,
)
from durak_core.rules import (
    ENUM_FIELDS,
    FIELD_NAMES,
    FlashReuse,
    MatchScoring,
    Misdeal,
    MisdealMode,
    NextGameStart,
    TeamEnd,
    TeamRotation,
    Teams,
)

from .i18n import Gettext

__all__ = ["OPTION_FIELDS", "option_name", "option_text", "option_value", "option_values"]

#: Every :class:`Rules` field, in the order a teacher would go through them.
OPTION_FIELDS: Final[tuple[str, ...]] = (
    "deck_size",
    "hand_size",
    "min_players",
    "max_players",
    "teams",
    "team_rotation",
    "misdeal",
    "misdeal_mode",
    "max_redeals",
    "first_attacker",
    "no_trump_fallback",
    "next_game_start",
    "attack_cap",
    "cap_scope",
    "hand_cap",
    "first_bout_cap",
    "first_bout_cap_value",
    "throw_in_rights",
    "neighbours_only_from",
    "throw_in_priority",
    "throw_in_timing",
    "throw_in_after_take",
    "transfer",
    "flash",
    "flash_reuse",
    "attacker_after_defender_out",
    "trump_swap",
    "allow_draw",
    "team_end",
    "match_scoring",
    "repetition_limit",
)


def option_name(name: str, tr: Gettext) -> str:
    """What the option is about, as a short heading: "Who may add cards"."""
    names: dict[str, Callable[[], str]] = {
        # TRANSLATORS: names of rule options (Rules fields), shown as "{option}: {value}" when
        # a comparison says which rule makes two rule sets part ways. Keep them short.
        "deck_size": lambda: tr.gettext("Deck"),
        "hand_size": lambda: tr.gettext("Cards in hand"),
        "min_players": lambda: tr.gettext("Fewest players"),
        "max_players": lambda: tr.gettext("Most players"),
        "first_attacker": lambda: tr.gettext("Who starts the game"),
        "no_trump_fallback": lambda: tr.gettext("Who starts when nobody holds a trump"),
        "attack_cap": lambda: tr.gettext("Attack cards in a bout"),
        "cap_scope": lambda: tr.gettext("What the attack limit counts"),
        "hand_cap": lambda: tr.gettext("The defender's hand and the attack limit"),
        "first_bout_cap": lambda: tr.gettext("Limit early in the game"),
        "first_bout_cap_value": lambda: tr.gettext("Size of the early limit"),
        "throw_in_rights": lambda: tr.gettext("Who may add cards"),
        "neighbours_only_from": lambda: tr.gettext("Adding cards in a big game"),
        "throw_in_priority": lambda: tr.gettext("Order of adding cards"),
        "throw_in_timing": lambda: tr.gettext("When cards may be added"),
        "throw_in_after_take": lambda: tr.gettext("Adding cards after a take"),
        "transfer": lambda: tr.gettext("Transfer (perevodnoy)"),
        "attacker_after_defender_out": lambda: tr.gettext("Who attacks when the defender goes out"),
        "trump_swap": lambda: tr.gettext("Swapping the lowest trump"),
        "allow_draw": lambda: tr.gettext("When everyone runs out at once"),
        "teams": lambda: tr.gettext("Teams"),
        "team_rotation": lambda: tr.gettext("Whom the attack goes to in a team game"),
        "team_end": lambda: tr.gettext("When a team game ends"),
        # TRANSLATORS: "Flash" is Wikipedia's name for this way of transferring.
        "flash": lambda: tr.gettext("Transferring by showing a trump (“Flash”)"),
        "flash_reuse": lambda: tr.gettext("Showing the same trump again"),
        "misdeal": lambda: tr.gettext("Misdeal"),
        "misdeal_mode": lambda: tr.gettext("Who asks for a new deal"),
        "max_redeals": lambda: tr.gettext("Limit on new deals"),
        "next_game_start": lambda: tr.gettext("Who starts the next game"),
        "match_scoring": lambda: tr.gettext("Who loses a match of several games"),
        "repetition_limit": lambda: tr.gettext("A position that keeps coming back"),
    }
    return names[_field(name)]()


def option_value(
    name: str,
    value: object,
    tr: Gettext,
    *,
    players: int | None = None,
    rules: Rules | None = None,
) -> str:
    """What the option's value means, as the second half of :func:`option_text`.

    ``rules`` gives the numbers another field holds (the early limit's size, the usual
    limit); ``players``, when known, says whether a player-count rule applies at this table.
    """
    name = _field(name)
    rules = rules or Rules()
    if name in ENUM_FIELDS:
        value = ENUM_FIELDS[name](str(value))
    match name:
        case "deck_size":
            return _deck(int(_number(value)), tr)
        case "hand_size":
            return tr.ngettext(
                "{n} card is dealt, and everyone draws back up to {n}",
                "{n} cards are dealt, and everyone draws back up to {n}",
                _number(value),
            )
        case "min_players":
            return tr.ngettext("at least {n} player", "at least {n} players", _number(value))
        case "max_players":
            return tr.ngettext("at most {n} player", "at most {n} players", _number(value))
        case "attack_cap":
            return tr.ngettext(
                "at most {n} attack card, however many cards the defender holds",
                "at most {n} attack cards, however many cards the defender holds",
                _number(value),
            )
        case "first_bout_cap_value":
            return tr.ngettext(
                "{n} attack card while the early limit lasts",
                "{n} attack cards while the early limit lasts",
                _number(value),
            )
        case "neighbours_only_from":
            return _neighbours_only_from(value, tr, players, teams=rules.teams is not Teams.NONE)
        case "max_redeals":
            return _max_redeals(_number(value), tr)
        case "repetition_limit":
            return _repetition_limit(_number(value), tr)
        case "throw_in_after_take" | "transfer" | "allow_draw" | "flash":
            return _switch(name, _flag(value), tr)
        case "first_bout_cap":
            assert isinstance(value, FirstBoutCap)
            return _first_bout_cap(value, tr, rules, players)
    assert isinstance(value, StrEnum)
    # keyed by class too: equal strings of different enums ("left_of_dealer") are equal keys
    return _CHOICES[type(value), value](tr)


def option_text(
    name: str,
    value: object,
    tr: Gettext,
    *,
    players: int | None = None,
    rules: Rules | None = None,
) -> str:
    """One sentence naming a rule option and its value: "Who may add cards: everyone except
    the defender." (see :func:`option_value` for ``players`` and ``rules``)."""
    # TRANSLATORS: a rule option and its value: "Who may add cards: everyone except the
    # defender." {option} and {value} are translated separately.
    return tr.gettext(
        "{option}: {value}.",
        option=option_name(name, tr),
        value=option_value(name, value, tr, players=players, rules=rules),
    )


def option_values(name: str) -> tuple[object, ...]:
    """Every value a field can take (numbers: the range :class:`Rules` accepts)."""
    name = _field(name)
    if name in ENUM_FIELDS:
        return tuple(ENUM_FIELDS[name])
    return {
        "deck_size": (24, 36, 52),
        "hand_size": (6, 7),
        "min_players": (2, 3, 4, 5, 6),
        "max_players": (2, 3, 4, 5, 6),
        "attack_cap": (1, 2, 3, 4, 5, 6, 7),
        "first_bout_cap_value": (1, 2, 3, 4, 5, 6, 7),
        "neighbours_only_from": (None, 3, 4, 5, 6),
        "throw_in_after_take": (True, False),
        "transfer": (True, False),
        "allow_draw": (True, False),
        "flash": (True, False),
        "max_redeals": tuple(range(21)),
        "repetition_limit": (0, 2, 3, 4, 5, 6, 7, 8, 9),
    }[name]


# ------------------------------------------------------------------------------ helpers


def _field(name: str) -> str:
    if name not in FIELD_NAMES:
        raise KeyError(f"no rules field {name!r}")
    return name


def _number(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a number, not {value!r}")
    return value


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, not {value!r}")
    return value


def _deck(size: int, tr: Gettext) -> str:
    decks: dict[int, Callable[[], str]] = {
        24: lambda: tr.gettext("24 cards, from the nines to the aces"),
        36: lambda: tr.gettext("36 cards, from the sixes to the aces"),
        52: lambda: tr.gettext("52 cards, from the twos to the aces"),
    }
    return decks[size]()


def _neighbours_only_from(value: object, tr: Gettext, players: int | None, *, teams: bool) -> str:
    if value is None:
        return tr.gettext("everyone entitled may add, however many play")
    n = _number(value)
    text = tr.ngettext(
        "with {n} player or more still in the game, only the defender's two neighbours add",
        "with {n} players or more still in the game, only the defender's two neighbours add",
        n,
    )
    if teams:
        # TRANSLATORS: after the rule above; S0 offers it only when everyone plays alone.
        return tr.gettext("{rule}, but only when everyone plays alone: not in team play", rule=text)
    if players is not None and players < n:
        # TRANSLATORS: after a rule that needs more players than this table has.
        return tr.ngettext(
            "{rule} (with {players} player here, it does not apply)",
            "{rule} (with {players} players here, it does not apply)",
            players,
            rule=text,
            players=players,
        )
    return text


def _first_bout_cap(value: FirstBoutCap, tr: Gettext, rules: Rules, players: int | None) -> str:
    if value is FirstBoutCap.NONE:
        return tr.ngettext(
            "none: from the very first bout, up to {n} attack card",
            "none: from the very first bout, up to {n} attack cards",
            rules.attack_cap,
        )
    n = rules.first_bout_cap_value
    if value is FirstBoutCap.UNTIL_FIRST_DISCARD:
        return tr.ngettext(
            "at most {n} attack card until a bout has been beaten off for the first time; "
            "after that, {cap}",
            "at most {n} attack cards until a bout has been beaten off for the first time; "
            "after that, {cap}",
            n,
            cap=rules.attack_cap,
        )
    text = tr.ngettext(
        "at most {n} attack card in the game's first bout, with four or more players",
        "at most {n} attack cards in the game's first bout, with four or more players",
        n,
    )
    if players is not None and players < 4:
        return tr.ngettext(
            "{rule} (with {players} player here, it does not apply)",
            "{rule} (with {players} players here, it does not apply)",
            players,
            rule=text,
            players=players,
        )
    return text


def _max_redeals(n: int, tr: Gettext) -> str:
    if n == 0:
        return tr.gettext("no new deal at all: the first deal always stands")
    return tr.ngettext(
        "at most {n} new deal in a row; after that, the deal stands as it is",
        "at most {n} new deals in a row; after that, the deal stands as it is",
        n,
    )


def _repetition_limit(n: int, tr: Gettext) -> str:
    if n == 0:
        return tr.gettext("no limit: the game goes on however often a position comes back")
    # TRANSLATORS: the repetition rule, our own (the sources have none): like chess's
    # threefold repetition. {n} is 2 to 9.
    return tr.ngettext(
        "the game is a draw when the same position comes up {n} time",
        "the game is a draw when the same position comes up {n} times",
        n,
    )


def _switch(name: str, on: bool, tr: Gettext) -> str:
    if name == "throw_in_after_take":
        if on:
            return tr.gettext(
                "allowed: when the defender decides to take, the others may still add cards "
                "before the pick-up"
            )
        return tr.gettext("not allowed: the take ends the bout at once")
    if name == "transfer":
        if on:
            return tr.gettext(
                "allowed: before beating anything, the defender may pass the attack on to the "
                "next player with a card of the same rank"
            )
        return tr.gettext("not played: the defender beats the cards or takes them (podkidnoy)")
    if name == "flash":
        if on:
            return tr.gettext(
                "allowed: the defender may pass the attack on by just showing a trump of the same "
                "rank instead of laying it down"
            )
        return tr.gettext("not played: to pass the attack on, the defender lays the card down")
    if on:
        return tr.gettext("it's a draw, and nobody is the durak")
    return tr.gettext("the durak of the previous game stays the durak")


_CHOICES: Final[dict[tuple[type[StrEnum], StrEnum], Callable[[Gettext], str]]] = {
    (FirstAttacker, FirstAttacker.LOWEST_TRUMP): lambda tr: tr.gettext(
        "whoever holds the lowest trump"
    ),
    (FirstAttacker, FirstAttacker.LEFT_OF_DEALER): lambda tr: tr.gettext(
        "the player on the dealer's left"
    ),
    (NoTrumpFallback, NoTrumpFallback.RANDOM): lambda tr: tr.gettext("a player drawn by lot"),
    (NoTrumpFallback, NoTrumpFallback.LEFT_OF_DEALER): lambda tr: tr.gettext(
        "the player on the dealer's left starts instead"
    ),
    (CapScope, CapScope.TOTAL): lambda tr: tr.gettext(
        "every attack card of the bout, beaten or not"
    ),
    (CapScope, CapScope.UNBEATEN): lambda tr: tr.gettext("only the attack cards still unbeaten"),
    (HandCap, HandCap.AT_DEFENCE_START): lambda tr: tr.gettext(
        "never more attack cards than the defender held when the bout began"
    ),
    (HandCap, HandCap.CURRENT_HAND): lambda tr: tr.gettext(
        "never more attack cards in the bout than the defender holds at this moment"
    ),
    (ThrowInRights, ThrowInRights.ALL): lambda tr: tr.gettext("everyone except the defender"),
    (ThrowInRights, ThrowInRights.NEIGHBOURS): lambda tr: tr.gettext(
        "only the defender's two neighbours: the attacker and the player after the defender"
    ),
    (ThrowInRights, ThrowInRights.VECINOS): lambda tr: tr.gettext(
        "the attacker and the next defender add any rank on the table; everyone else only the "
        "rank of the first attack card"
    ),
    (ThrowInPriority, ThrowInPriority.ATTACKER_FIRST_RESET): lambda tr: tr.gettext(
        "the attacker first, then the others in turn; after every new card, priority goes "
        "back to the attacker"
    ),
    (ThrowInPriority, ThrowInPriority.ATTACKER_UNTIL_PASS): lambda tr: tr.gettext(
        "the attacker adds until passing, then the others in turn; whoever passes adds "
        "nothing more in that bout"
    ),
    (ThrowInPriority, ThrowInPriority.FREE): lambda tr: tr.gettext(
        "anyone entitled may add at any moment, in no set order"
    ),
    (ThrowInTiming, ThrowInTiming.AFTER_ALL_BEATEN): lambda tr: tr.gettext(
        "only when every attack card on the table has been beaten"
    ),
    (ThrowInTiming, ThrowInTiming.ANY_TIME): lambda tr: tr.gettext(
        "at any moment, even while cards are still unbeaten"
    ),
    (AttackerAfterDefenderOut, AttackerAfterDefenderOut.NEXT_ACTIVE): lambda tr: tr.gettext(
        "the next player still in the game, on the defender's left"
    ),
    (AttackerAfterDefenderOut, AttackerAfterDefenderOut.PREVIOUS_ATTACKER): lambda tr: tr.gettext(
        "the same attacker attacks again"
    ),
    (TrumpSwap, TrumpSwap.OFF): lambda tr: tr.gettext("not played: nobody swaps"),
    (TrumpSwap, TrumpSwap.ANY): lambda tr: tr.gettext(
        "whoever was dealt or drew the lowest trump may exchange it for the turned-up trump"
    ),
    (TrumpSwap, TrumpSwap.ACE_ONLY): lambda tr: tr.gettext(
        "allowed only when the turned-up trump is the ace"
    ),
    (Teams, Teams.NONE): lambda tr: tr.gettext("none: everyone plays for themselves"),
    (Teams, Teams.TWO_V_TWO): lambda tr: tr.gettext(
        "two against two: 4 players, partners sit opposite each other and never attack or add "
        "cards against each other"
    ),
    (Teams, Teams.THREE_V_THREE): lambda tr: tr.gettext(
        "three against three: 6 players, team-mates sit in every other seat and never attack "
        "or add cards against each other"
    ),
    (Teams, Teams.TWO_V_TWO_V_TWO): lambda tr: tr.gettext(
        "three pairs: 6 players, partners sit opposite each other and never attack or add "
        "cards against each other"
    ),
    (TeamRotation, TeamRotation.SKIP_PARTNERS): lambda tr: tr.gettext(
        "always the next opponent who still holds cards; when a player is out, the next "
        "team-mate with cards takes over that player's turns"
    ),
    (TeamRotation, TeamRotation.INDIVIDUAL): lambda tr: tr.gettext(
        "in pairs: play goes round as usual, to the next player still in the game; only, "
        "nobody adds cards against their own partner"
    ),
    (TeamRotation, TeamRotation.TEAM_TURNS): lambda tr: tr.gettext(
        "each team takes its turns in order round its own players with cards: after a take, "
        "the attacker's next team-mate attacks the defender's next team-mate; after a "
        "defence, the defender attacks the attacker's next team-mate"
    ),
    (TeamEnd, TeamEnd.TEAM_LOSES): lambda tr: tr.gettext(
        "as soon as only one team still holds cards, that whole team loses"
    ),
    (TeamEnd, TeamEnd.SINGLE_LOSER): lambda tr: tr.gettext(
        "play goes on until a single durak is left; once only one team holds cards, its "
        "team-mates play against each other"
    ),
    (FlashReuse, FlashReuse.ONCE_PER_GAME): lambda tr: tr.gettext(
        "each trump may be shown only once per game"
    ),
    (FlashReuse, FlashReuse.ONCE_PER_BOUT): lambda tr: tr.gettext(
        "each trump may be shown once in every bout"
    ),
    (Misdeal, Misdeal.OFF): lambda tr: tr.gettext(
        "not played: every deal stands, whatever the hands"
    ),
    (Misdeal, Misdeal.FOUR_OF_A_SUIT): lambda tr: tr.gettext(
        "when a hand is all red, all black, or holds four or more cards of one suit, all "
        "the cards are dealt again"
    ),
    (Misdeal, Misdeal.FIVE_OF_A_SUIT): lambda tr: tr.gettext(
        "when a hand is all red, all black, or holds five or more cards of one suit, all "
        "the cards are dealt again"
    ),
    (MisdealMode, MisdealMode.MANDATORY): lambda tr: tr.gettext(
        "nobody needs to: the cards are dealt again at once"
    ),
    (MisdealMode, MisdealMode.ON_REQUEST): lambda tr: tr.gettext(
        "the player with such a hand may ask for a new deal before the first card is played"
    ),
    (NextGameStart, NextGameStart.LOWEST_TRUMP): lambda tr: tr.gettext(
        "as in the first game: whoever holds the lowest trump"
    ),
    (NextGameStart, NextGameStart.LEFT_OF_DURAK): lambda tr: tr.gettext(
        "the player on the previous durak's left"
    ),
    (NextGameStart, NextGameStart.DURAK_ATTACKED_FIRST): lambda tr: tr.gettext(
        "the previous durak is attacked first, by the player on their right (“the fool is taught”)"
    ),
    (MatchScoring, MatchScoring.SINGLE): lambda tr: tr.gettext(
        "every game stands alone: one game, one durak"
    ),
    (MatchScoring, MatchScoring.THREE_LOSSES): lambda tr: tr.gettext(
        "whoever is the durak three times, in a row or not, loses the match"
    ),
    (MatchScoring, MatchScoring.EPAULETTE_LADDER): lambda tr: tr.gettext(
        "epaulettes: a durak finished off with a six gets an epaulette; to score again, the "
        "others must finish that player off with a seven, then an eight, and so on up to the "
        "ace; here, whoever gets the ace epaulette has lost the match"
    ),
}
