"""durak_core: a complete, explaining rules engine for Durak.

Every rule of the five source documents (S0–S4) is a named option of :class:`Rules`, with
presets per source. :meth:`Game.play` refuses illegal actions with a machine-readable
:class:`Reason`; the tutorial layer turns reasons and :class:`Event` s into words.
Computer players, which see only an :class:`Observation`, live in :mod:`durak_core.bots`.
"""

from .actions import Action, ActionKind, NotationError
from .cards import (
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
from .determinize import determinize, sample_position
from .events import Event, EventKind
from .game import Cap, Game, LegalActions, Outcome, PositionError
from .match import Match, MatchError, MatchRecordError, match_record, replay_match
from .misdeal import is_misdeal, misdeal_probability
from .observation import Observation, observe
from .position import Position
from .reasons import IllegalAction, Reason
from .record import RecordError, dumps, loads, replay, to_record
from .rules import (
    PRESETS,
    AttackerAfterDefenderOut,
    CapScope,
    FirstAttacker,
    FirstBoutCap,
    FlashReuse,
    HandCap,
    MatchScoring,
    Misdeal,
    MisdealMode,
    NextGameStart,
    NoTrumpFallback,
    Preset,
    Rules,
    RulesError,
    TeamEnd,
    TeamRotation,
    Teams,
    ThrowInPriority,
    ThrowInRights,
    ThrowInTiming,
    TrumpSwap,
    team_of,
)
from .state import Phase, State

__version__ = "0.1.0"

__all__ = [
    "DECK_SIZES",
    "PRESETS",
    "Action",
    "ActionKind",
    "AttackerAfterDefenderOut",
    "Cap",
    "CapScope",
    "Card",
    "CardError",
    "Event",
    "EventKind",
    "FirstAttacker",
    "FirstBoutCap",
    "FlashReuse",
    "Game",
    "HandCap",
    "IllegalAction",
    "LegalActions",
    "Match",
    "MatchError",
    "MatchRecordError",
    "MatchScoring",
    "Misdeal",
    "MisdealMode",
    "NextGameStart",
    "NoTrumpFallback",
    "NotationError",
    "Observation",
    "Outcome",
    "Phase",
    "Position",
    "PositionError",
    "Preset",
    "Rank",
    "Reason",
    "RecordError",
    "Rules",
    "RulesError",
    "State",
    "Suit",
    "TeamEnd",
    "TeamRotation",
    "Teams",
    "ThrowInPriority",
    "ThrowInRights",
    "ThrowInTiming",
    "TrumpSwap",
    "beat_failure",
    "beats",
    "determinize",
    "dumps",
    "format_cards",
    "is_misdeal",
    "loads",
    "make_deck",
    "match_record",
    "misdeal_probability",
    "observe",
    "parse_cards",
    "replay",
    "replay_match",
    "sample_position",
    "team_of",
    "to_record",
]
