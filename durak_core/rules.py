"""The rules of a game: one frozen dataclass, one field per point where the sources differ.

Sources are cited as in ``shared/docs/rules-research.md``: S0 wikiHow (home rules),
S1 Matsuri, S2 Wikipedia (machine translated), S3 Dáme Karty, S4 Durak Live.

>>> Rules.preset("durak_live_vecinos").throw_in_rights
<ThrowInRights.VECINOS: 'vecinos'>
>>> Rules(deck_size=24).check_players(6)
Traceback (most recent call last):
...
durak_core.rules.RulesError: 6 players need 36 cards (6 each) but a 24-card deck has only 24
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from .cards import DECK_SIZES, Rank, lowest_rank

__all__ = [
    "ENUM_FIELDS",
    "FIELD_NAMES",
    "PRESETS",
    "TEAM_SIZES",
    "AttackerAfterDefenderOut",
    "CapScope",
    "FirstAttacker",
    "FirstBoutCap",
    "FlashReuse",
    "HandCap",
    "MatchScoring",
    "Misdeal",
    "MisdealMode",
    "NextGameStart",
    "NoTrumpFallback",
    "Preset",
    "Rules",
    "RulesError",
    "TeamEnd",
    "TeamRotation",
    "Teams",
    "ThrowInPriority",
    "ThrowInRights",
    "ThrowInTiming",
    "TrumpSwap",
    "team_of",
]


class RulesError(ValueError):
    """A rules combination (or a rules/player-count combination) that cannot be played."""


class FirstAttacker(StrEnum):
    """Who leads the first bout (C5)."""

    LOWEST_TRUMP = "lowest_trump"
    """The holder of the lowest trump (S0, S1, S2, S3)."""
    LEFT_OF_DEALER = "left_of_dealer"
    """The player on the dealer's left (S0, optional)."""


class NoTrumpFallback(StrEnum):
    """Who leads when nobody holds a trump under ``LOWEST_TRUMP`` (C4)."""

    RANDOM = "random"
    """A random player, drawn from the game's seed (S3)."""
    LEFT_OF_DEALER = "left_of_dealer"
    """The player on the dealer's left."""


class CapScope(StrEnum):
    """What the six-card limit counts (C7)."""

    TOTAL = "total"
    """All attack cards of the bout, beaten or not (S1, S3, S4)."""
    UNBEATEN = "unbeaten"
    """Only attack cards still unbeaten, against the defender's current hand (S2, literally)."""


class HandCap(StrEnum):
    """How the defender's hand limits the attack (C8)."""

    AT_DEFENCE_START = "at_defence_start"
    """Never more attack cards than he held when he became defender (S1, S3; equal to S2's)."""
    CURRENT_HAND = "current_hand"
    """Total attack cards against his *current* hand: S4 example 2's wrong reading (demos)."""


class FirstBoutCap(StrEnum):
    """A lower limit early in the game (C9); its value is ``Rules.first_bout_cap_value``."""

    NONE = "none"
    """No special first limit (S1, S3)."""
    UNTIL_FIRST_DISCARD = "until_first_discard"
    """Five while the discard pile is empty, six once any bout was beaten off (S4)."""
    FIRST_BOUT_4PLUS = "first_bout_4plus"
    """Five in the game's first bout, only with four or more players (S0, optional)."""


class ThrowInRights(StrEnum):
    """Who may throw in (C10)."""

    ALL = "all"
    """Every player but the defender (S1, S2, S4 «Todos»)."""
    NEIGHBOURS = "neighbours"
    """Only the defender's two neighbours: the attacker and the next player (S0 opt, S3)."""
    VECINOS = "vecinos"
    """S4 «Vecinos»: the attacker and the next defender throw any rank on the table,
    everyone else only the rank of the bout's first attack card."""


class ThrowInPriority(StrEnum):
    """In which order throwers may add cards (C11); clockwise starts at the defender's left."""

    ATTACKER_FIRST_RESET = "attacker_first_reset"
    """The attacker first, then the others clockwise; each new card gives priority back
    to the attacker (S3; S1 names the same order)."""
    ATTACKER_UNTIL_PASS = "attacker_until_pass"
    """The attacker until he passes, then the others clockwise; passes are final (S0)."""
    FREE = "free"
    """Anyone entitled may add at any moment, in no order (S2)."""


class ThrowInTiming(StrEnum):
    """When cards may be added (C12)."""

    AFTER_ALL_BEATEN = "after_all_beaten"
    """Only while every attack card is beaten (S1, S3: one card at a time)."""
    ANY_TIME = "any_time"
    """Also while cards are still unbeaten (S2)."""


class AttackerAfterDefenderOut(StrEnum):
    """Who attacks when the successful defender has gone out (C15)."""

    NEXT_ACTIVE = "next_active"
    """The next player still in, clockwise from the defender (S3)."""
    PREVIOUS_ATTACKER = "previous_attacker"
    """The bout's attacker attacks again, if still in (S0, footnote 9)."""


class TrumpSwap(StrEnum):
    """Exchanging the lowest trump for the turned-up trump (C21, S0 only)."""

    OFF = "off"
    """No swap (S3, and S0's alternative)."""
    ANY = "any"
    """The original holder of the lowest trump may swap it for any turned-up trump (S0)."""
    ACE_ONLY = "ace_only"
    """Only when the turned-up card is the ace (S0's alternative)."""


class Teams(StrEnum):
    """Team play (C22): partners never attack or throw in against each other (S0, S2)."""

    NONE = "none"
    """Everyone plays for himself."""
    TWO_V_TWO = "2v2"
    """4 players, partners sit opposite: seats 0+2 and 1+3 (S0, S2)."""
    THREE_V_THREE = "3v3"
    """6 players, team-mates alternate: seats 0+2+4 and 1+3+5 (S0, S2)."""
    TWO_V_TWO_V_TWO = "2v2v2"
    """6 players, partners sit opposite: seats 0+3, 1+4 and 2+5 (S2)."""


class TeamRotation(StrEnum):
    """Whom the attack goes to in team play (C23)."""

    SKIP_PARTNERS = "skip_partners"
    """The next opponent still holding cards; a team-mate who is out has his turn covered by
    the next team-mate with cards (S0, the generic rule of C23)."""
    INDIVIDUAL = "individual"
    """S2's «pairs»: play is normal (the next player still in), only nobody adds cards to an
    attack against his partner."""
    TEAM_TURNS = "team_turns"
    """S0's six-player example (item 9, teams A C E against B D F): «las rotaciones son para la
    defensa y para los atacantes»: each team's turns go round its own members with cards,
    clockwise. After a take the attacker's next team-mate with cards attacks the defender's
    next team-mate with cards («el turno de atacante pasa al siguiente miembro del mismo
    equipo atacante»; «F debe atacar a E, que es el jugador que D debiera haber atacado»);
    after a successful defence the defender attacks, or, if he is out, his next team-mate
    with cards («pasa el turno de atacante original al jugador del mismo equipo a su
    izquierda»), and the attacker's next team-mate with cards defends («es el turno ahora de
    que A ataque a F»); as with ``skip_partners``, this comes before
    ``attacker_after_defender_out``. With nobody out it is ordinary play. For two teams (2v2,
    3v3); once only one team is left, play goes on as usual."""


class TeamEnd(StrEnum):
    """When a team game ends (S0 item 10, S2 «pairs»)."""

    TEAM_LOSES = "team_loses"
    """As soon as only one team holds cards, that whole team loses (S0 (ii), S2)."""
    SINGLE_LOSER = "single_loser"
    """Play on to a single loser; once only one team is left, team-mates play each other
    (S0 (i))."""


class FlashReuse(StrEnum):
    """How often one trump may be shown for a Flash transfer (C17)."""

    ONCE_PER_GAME = "once_per_game"
    """Each card once per game (S2)."""
    ONCE_PER_BOUT = "once_per_bout"
    """Each card once per bout (another engine's reading)."""


class Misdeal(StrEnum):
    """Which dealt hand calls for a new deal (C20)."""

    OFF = "off"
    """Every deal stands."""
    FOUR_OF_A_SUIT = "four_of_a_suit"
    """S2 as written: a hand all red, all black, or with four cards of one suit."""
    FIVE_OF_A_SUIT = "five_of_a_suit"
    """The reading of other sources: all red, all black, or five cards of one suit."""


class MisdealMode(StrEnum):
    """Who decides on a misdeal (C20)."""

    MANDATORY = "mandatory"
    """The cards are dealt again at once (S2's wording)."""
    ON_REQUEST = "on_request"
    """The player with such a hand may ask for a new deal before the first card is led."""


class NextGameStart(StrEnum):
    """Who leads the first bout of a later game in a match (C6)."""

    LOWEST_TRUMP = "lowest_trump"
    """Every game as the first: the lowest trump leads (S3: independent games)."""
    LEFT_OF_DURAK = "left_of_durak"
    """The player on the previous durak's left (S0, S2)."""
    DURAK_ATTACKED_FIRST = "durak_attacked_first"
    """«The fool is taught»: the player on the durak's right attacks him first (S0)."""


class MatchScoring(StrEnum):
    """How a match of several games is decided (C24)."""

    SINGLE = "single"
    """Every game stands alone: the match is one game."""
    THREE_LOSSES = "three_losses"
    """Whoever is durak three times, consecutive or not, loses the match (S0)."""
    EPAULETTE_LADDER = "epaulette_ladder"
    """S2's epaulettes: a durak finished by sixes gets an epaulette; from then on he must be
    finished by sevens to score, then eights, up to aces; the ace epaulette loses the match."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule the engine lets you choose. Defaults are the ``classic`` preset."""

    deck_size: int = 36
    """24 (9–A), 36 (6–A) or 52 (2–A) cards (C1; S4)."""
    hand_size: int = 6
    """Cards dealt and drawn up to; 7 only with 52 cards and 5–6 players (C2, C25; S0)."""
    min_players: int = 2
    max_players: int = 6
    first_attacker: FirstAttacker = FirstAttacker.LOWEST_TRUMP
    no_trump_fallback: NoTrumpFallback = NoTrumpFallback.RANDOM
    attack_cap: int = 6
    """At most this many attack cards per bout (S0, S1, S3)."""
    cap_scope: CapScope = CapScope.TOTAL
    hand_cap: HandCap = HandCap.AT_DEFENCE_START
    first_bout_cap: FirstBoutCap = FirstBoutCap.NONE
    first_bout_cap_value: int = 5
    throw_in_rights: ThrowInRights = ThrowInRights.ALL
    neighbours_only_from: int | None = None
    """With this many active players or more, only the defender's neighbours may throw in
    (S3: 5; re-evaluated as players go out). ``None`` disables it. It is a rule of individual
    play: with ``teams`` it never applies (S0 offers it «cuando juegan cinco o seis jugadores
    individualmente», S3 has no teams), so team-mates keep their throw-in rights; see
    :attr:`neighbours_only_limit`."""
    throw_in_priority: ThrowInPriority = ThrowInPriority.ATTACKER_FIRST_RESET
    throw_in_timing: ThrowInTiming = ThrowInTiming.AFTER_ALL_BEATEN
    throw_in_after_take: bool = True
    """After the defender says «take», the others may still add cards (S1, S2, S3; S0 optional)."""
    transfer: bool = False
    """Perevodnoy: before beating anything the defender may pass the attack on with a card of
    the same rank, if the next player holds enough cards (S1, S2)."""
    attacker_after_defender_out: AttackerAfterDefenderOut = AttackerAfterDefenderOut.NEXT_ACTIVE
    trump_swap: TrumpSwap = TrumpSwap.OFF
    allow_draw: bool = True
    """If everybody empties at once there is no durak (S1, S3). When false, the previous
    durak (given at set-up) stays durak (S0)."""
    teams: Teams = Teams.NONE
    team_rotation: TeamRotation = TeamRotation.SKIP_PARTNERS
    team_end: TeamEnd = TeamEnd.TEAM_LOSES
    flash: bool = False
    """With ``transfer``: the defender may pass the attack on by showing a trump of the same
    rank instead of playing it (S2 «Flash»)."""
    flash_reuse: FlashReuse = FlashReuse.ONCE_PER_GAME
    misdeal: Misdeal = Misdeal.OFF
    misdeal_mode: MisdealMode = MisdealMode.MANDATORY
    max_redeals: int = 3
    """At most this many new deals in a row for a misdeal (the rule would loop otherwise)."""
    next_game_start: NextGameStart = NextGameStart.LOWEST_TRUMP
    match_scoring: MatchScoring = MatchScoring.SINGLE
    repetition_limit: int = 3
    """The game is a draw when the same position comes up this many times at the start of a
    bout once the stock is empty: the same hands, the same attacker and defender (0: never).
    The sources have no such rule and their games always end, except with transfers: a
    transfer turns the attack round and a take brings the cards back, so two players can
    meet the same position again and again. Like chess's threefold repetition, the third
    time is a draw. Counted from the deal, or from the position a game was set up from."""

    def __post_init__(self) -> None:
        if self.deck_size not in DECK_SIZES:
            raise RulesError(f"deck_size must be one of {sorted(DECK_SIZES)}, not {self.deck_size}")
        for name, enum_type in ENUM_FIELDS.items():
            value = getattr(self, name)
            if not isinstance(value, enum_type):
                try:
                    object.__setattr__(self, name, enum_type(value))
                except ValueError:
                    allowed = ", ".join(repr(m.value) for m in enum_type)
                    raise RulesError(f"{name} must be one of {allowed}, not {value!r}") from None
        if self.hand_size not in (6, 7):
            raise RulesError(f"hand_size must be 6 or 7, not {self.hand_size}")
        if self.hand_size == 7 and self.deck_size != 52:
            raise RulesError("a 7-card hand is only dealt from a 52-card deck (S0)")
        if not 2 <= self.min_players <= self.max_players <= 6:
            raise RulesError(
                f"players must satisfy 2 <= min_players <= max_players <= 6, "
                f"not {self.min_players}..{self.max_players}"
            )
        if not 1 <= self.attack_cap <= 7:
            raise RulesError(f"attack_cap must be between 1 and 7, not {self.attack_cap}")
        if not 1 <= self.first_bout_cap_value <= self.attack_cap:
            raise RulesError(
                f"first_bout_cap_value must be between 1 and attack_cap ({self.attack_cap}), "
                f"not {self.first_bout_cap_value}"
            )
        if self.flash and not self.transfer:
            raise RulesError("flash is a way to transfer: it needs transfer=True (S2)")
        if self.repetition_limit != 0 and not 2 <= self.repetition_limit <= 9:
            raise RulesError(
                f"repetition_limit must be 0 (off) or between 2 and 9, not {self.repetition_limit}"
            )
        if not 0 <= self.max_redeals <= 20:
            raise RulesError(f"max_redeals must be between 0 and 20, not {self.max_redeals}")
        if self.team_rotation is TeamRotation.TEAM_TURNS and self.teams is Teams.TWO_V_TWO_V_TWO:
            raise RulesError(
                "team_rotation 'team_turns' is S0's rotation for two teams (2v2, 3v3), "
                "not for three pairs"
            )
        if self.teams is not Teams.NONE:
            size = TEAM_SIZES[self.teams]
            if not self.min_players <= size <= self.max_players:
                raise RulesError(
                    f"teams {self.teams.value!r} are for {size} players, but these rules are "
                    f"for {self.min_players} to {self.max_players}"
                )
        if self.neighbours_only_from is not None:
            if not 3 <= self.neighbours_only_from <= 6:
                raise RulesError(
                    f"neighbours_only_from must be None or 3..6, not {self.neighbours_only_from}"
                )
            if self.throw_in_rights is not ThrowInRights.ALL:
                raise RulesError(
                    "neighbours_only_from only modifies throw_in_rights='all' "
                    f"(it is {self.throw_in_rights.value!r})"
                )

    @property
    def neighbours_only_limit(self) -> int | None:
        """:attr:`neighbours_only_from` as it applies: None in team play, where S0 does not
        offer the neighbours-only rule («cuando juegan cinco o seis jugadores
        individualmente»).

        >>> Rules.preset("wikihow_home").replace(teams="3v3").neighbours_only_limit is None
        True
        >>> Rules.preset("wikihow_home").neighbours_only_limit
        5
        """
        return self.neighbours_only_from if self.teams is Teams.NONE else None

    @property
    def lowest_rank(self) -> Rank:
        """The deck's lowest rank: the rank of the lowest trump (6, or 9 / 2)."""
        return lowest_rank(self.deck_size)

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless ``players`` can play under these rules."""
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"these rules are for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        need = players * self.hand_size
        if need > self.deck_size:
            raise RulesError(
                f"{players} players need {need} cards ({self.hand_size} each) "
                f"but a {self.deck_size}-card deck has only {self.deck_size}"
            )
        if self.hand_size == 7 and players < 5:
            raise RulesError("a 7-card hand is only dealt with 5 or 6 players (S0)")
        if self.teams is not Teams.NONE and players != TEAM_SIZES[self.teams]:
            raise RulesError(
                f"teams {self.teams.value!r} are for {TEAM_SIZES[self.teams]} players, "
                f"not {players}"
            )

    def player_counts(self) -> list[int]:
        """Every number of players these rules can deal for (2–6, within the deck and limits)."""
        counts = []
        for players in range(2, 7):
            try:
                self.check_players(players)
            except RulesError:
                continue
            counts.append(players)
        return counts

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated again)."""
        unknown = set(changes) - FIELD_NAMES
        if unknown:
            raise RulesError(f"unknown rules field(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (enums as their string values)."""
        return {
            f.name: (v.value if isinstance(v := getattr(self, f.name), StrEnum) else v)
            for f in dataclasses.fields(self)
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; a ``preset`` key starts from that preset."""
        data = dict(data)
        base = cls.preset(str(data.pop("preset"))) if "preset" in data else cls()
        return base.replace(**data)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named preset (see :data:`PRESETS`)."""
        try:
            return PRESETS[name].rules
        except KeyError:
            raise RulesError(
                f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}"
            ) from None

    def differences(self, other: Rules) -> dict[str, tuple[Any, Any]]:
        """Fields whose values differ: ``{name: (self's, other's)}``."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}


ENUM_FIELDS: Final[dict[str, type[StrEnum]]] = {
    # The fields whose values are enums, and their types (for validation and for wording them).
    "first_attacker": FirstAttacker,
    "no_trump_fallback": NoTrumpFallback,
    "cap_scope": CapScope,
    "hand_cap": HandCap,
    "first_bout_cap": FirstBoutCap,
    "throw_in_rights": ThrowInRights,
    "throw_in_priority": ThrowInPriority,
    "throw_in_timing": ThrowInTiming,
    "attacker_after_defender_out": AttackerAfterDefenderOut,
    "trump_swap": TrumpSwap,
    "teams": Teams,
    "team_rotation": TeamRotation,
    "team_end": TeamEnd,
    "flash_reuse": FlashReuse,
    "misdeal": Misdeal,
    "misdeal_mode": MisdealMode,
    "next_game_start": NextGameStart,
    "match_scoring": MatchScoring,
}
TEAM_SIZES: Final[dict[Teams, int]] = {
    Teams.TWO_V_TWO: 4,
    Teams.THREE_V_THREE: 6,
    Teams.TWO_V_TWO_V_TWO: 6,
}
"""How many players each team layout seats."""


def team_of(teams: Teams, players: int) -> tuple[int, ...] | None:
    """Each seat's team number (seat order is clockwise), or None without teams.

    >>> team_of(Teams.TWO_V_TWO, 4), team_of(Teams.TWO_V_TWO_V_TWO, 6)
    ((0, 1, 0, 1), (0, 1, 2, 0, 1, 2))
    """
    if teams is Teams.NONE:
        return None
    count = 3 if teams is Teams.TWO_V_TWO_V_TWO else 2
    return tuple(seat % count for seat in range(players))


FIELD_NAMES: Final = frozenset(f.name for f in dataclasses.fields(Rules))
"""The names of every :class:`Rules` field."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set and the source document it follows."""

    name: str
    sources: tuple[str, ...]
    rules: Rules
    summary: str
    notes: tuple[str, ...] = field(default=())


PRESETS: Final[dict[str, Preset]] = {
    p.name: p
    for p in (
        Preset(
            "classic",
            ("S1", "S3"),
            Rules(),
            "Podkidnoy as most sources agree: 36 cards, lowest trump leads, everyone may throw "
            "in after all is beaten, at most 6 and never more than the defender holds.",
        ),
        Preset(
            "matsuri",
            ("S1",),
            Rules(max_players=4),
            "Matsuri: 2–4 players; throw-ins once everything is beaten, the attacker first, then "
            "from the defender's left; throw-ins after a take; a simultaneous empty-out is a draw.",
            ("Matsuri offers perevodnoy as a lobby toggle: use replace(transfer=True).",),
        ),
        Preset(
            "dame_karty",
            ("S3",),
            Rules(neighbours_only_from=5),
            "Dáme Karty: with 5 or more active players only the defender's neighbours throw in; "
            "the original attacker has priority after every card; no transfer, no swap.",
        ),
        Preset(
            "durak_live_vecinos",
            ("S4",),
            Rules(
                first_bout_cap=FirstBoutCap.UNTIL_FIRST_DISCARD,
                throw_in_rights=ThrowInRights.VECINOS,
            ),
            "Durak Live «Vecinos»: 5 attack cards until the first bout is beaten off, then 6; the "
            "attacker and the next defender throw any rank, the others only the first card's rank.",
            ("Deck size is a table setting in Durak Live: replace(deck_size=24 or 52).",),
        ),
        Preset(
            "durak_live_todos",
            ("S4",),
            Rules(first_bout_cap=FirstBoutCap.UNTIL_FIRST_DISCARD),
            "Durak Live «Todos»: 5 attack cards until the first bout is beaten off, then 6; "
            "everyone may throw in any rank on the table.",
        ),
        Preset(
            "wikihow_home",
            ("S0",),
            Rules(
                first_bout_cap=FirstBoutCap.FIRST_BOUT_4PLUS,
                neighbours_only_from=5,
                throw_in_priority=ThrowInPriority.ATTACKER_UNTIL_PASS,
                attacker_after_defender_out=AttackerAfterDefenderOut.PREVIOUS_ATTACKER,
                trump_swap=TrumpSwap.ANY,
                allow_draw=False,
                next_game_start=NextGameStart.LEFT_OF_DURAK,
            ),
            "wikiHow's home rules: the attacker adds until he passes, then the others; 5 cards in "
            "the first bout with 4+ players; neighbours only with 5–6 playing individually (never "
            "in team play); the lowest trump may be swapped for the turned-up trump; when "
            "everyone empties at once the previous durak stays durak; a later game starts left "
            "of the previous durak.",
            (
                "S0 also plays with no swap or ace-only swap: replace(trump_swap=...).",
                "S0's options: teams (replace(teams='2v2'), '3v3'; team_end; S0's six-player "
                "example's rotation: team_rotation='team_turns'), three losses "
                "(match_scoring='three_losses'), the dealer's left leads "
                "(first_attacker='left_of_dealer', next_game_start='durak_attacked_first'), "
                "52 cards with 7 each for 5–6 players (deck_size=52, hand_size=7).",
            ),
        ),
        Preset(
            "wikipedia",
            ("S2",),
            Rules(
                cap_scope=CapScope.UNBEATEN,
                throw_in_priority=ThrowInPriority.FREE,
                throw_in_timing=ThrowInTiming.ANY_TIME,
                next_game_start=NextGameStart.LEFT_OF_DURAK,
            ),
            "Wikipedia: anyone may throw in at any moment; at most 6 unbeaten cards and never more "
            "than the defender holds now; a later game starts left of the previous durak.",
            (
                "S2's perevodnoy option: replace(transfer=True), and Flash: flash=True.",
                "S2's other options: pairs (teams='2v2', team_rotation='individual'), 2v2v2 and "
                "3v3 teams, the misdeal (misdeal='four_of_a_suit' as written), epaulettes "
                "(match_scoring='epaulette_ladder').",
            ),
        ),
    )
}
