"""Matches: games in a row under one :class:`Rules`, scored by ``Rules.match_scoring`` (C24).

The first dealer is drawn at random; later, the previous durak deals (S0, S2 item 18), and
after a draw the previous durak stays durak and deals again (S0 item 27). Who leads a later
game is ``Rules.next_game_start`` (C6), applied by ``Game.deal(previous_durak=...)``.
Scoring: ``single`` (the match is one game), ``three_losses`` (S0 item 76: left holding cards
three times, consecutive or not, loses) or ``epaulette_ladder`` (S2 items 77-78; an epaulette
is the rank of the *last* attack card played, «la tarjeta última jugada por un atacante»).
With teams (``Rules.teams``) a team scores as one side; otherwise every seat is a side.

>>> m = Match(Rules(match_scoring="three_losses"), players=3, seed=4)
>>> while not m.finished:
...     if m.game.outcome is not None:
...         _ = m.next_game()
...     m.game.play(next(iter(m.game.legal_actions())))
>>> max(m.scores()), m.loser == m.scores().index(3)
(3, True)
>>> replay_match(match_record(m)).results == m.results
True

A long match can be picked up from its finished games' results alone (what a page keeps to
resume it), its next game dealt as the match would deal it:

>>> m = Match(Rules(match_scoring="three_losses"), players=3, seed=4)
>>> m.game.play(next(iter(m.game.legal_actions())))
>>> while m.game.outcome is None:
...     m.game.play(next(iter(m.game.legal_actions())))
>>> _ = m.next_game()
>>> r = Match.resume(m.rules, 3, 4, m.results)
>>> r.results == m.results, r.game.position() == m.game.position()
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, NamedTuple

from .cards import Card, CardError, Rank, format_cards, parse_cards
from .events import EventKind
from .game import Game
from .record import RecordError, replay, to_record
from .rules import MatchScoring, Rules, RulesError, Teams, team_of

__all__ = [
    "MATCH_FORMAT",
    "RESULT_FIELDS",
    "GameResult",
    "Match",
    "MatchError",
    "MatchRecordError",
    "Score",
    "Standing",
    "epaulette_count",
    "game_result",
    "match_record",
    "replay_match",
    "score_match",
    "sides_of",
]

MATCH_FORMAT: Final = "durak-match/1"
"""The format :func:`match_record` writes and :func:`replay_match` reads."""

_SEED_RANGE: Final = 2**63
_TO_LOSE: Final = 3
"""Losses that lose a ``three_losses`` match (S0 item 76)."""


class MatchError(RuntimeError):
    """A match used out of turn: a next game before this one is over, or after the end."""


class MatchRecordError(RecordError):
    """A match record that cannot be read or replayed; the message names the part at fault."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game of a match decided (facts of the game; scoring is :func:`score_match`)."""

    number: int
    """1 for the match's first game."""
    dealer: int | None
    """None for a game set up from a position."""
    previous_durak: int | None
    durak: int | None
    """The game's durak (``Game.outcome``); with ``allow_draw`` off a drawn game's durak is the
    previous durak (S0), who then holds no cards."""
    losers: tuple[int, ...]
    """``Game.losers``: the seats left holding cards (the durak, or his team's under
    ``team_loses``); () for a draw."""
    final_defender: int | None
    """The defender of the game's last bout."""
    final_attack: tuple[Card, ...]
    """The attack cards of the last bout, in the order they were played (lead, throw-ins,
    transfer cards), when a loser defended it; () otherwise."""
    epaulettes: int
    """:meth:`epaulettes_of` the deck's lowest rank, 0 to 2 (one per shoulder; S2 item 77):
    the game was lost «with epaulettes» whatever the match scoring."""

    @property
    def is_draw(self) -> bool:
        """Nobody was left holding cards."""
        return not self.losers

    def epaulettes_of(self, rank: Rank) -> int:
        """Epaulettes at ``rank`` (S2 item 77): 1 if the **last** attack card played is of that
        rank («Si la tarjeta última jugada por un atacante es un "6" y el defensor pierde»),
        2 if the card played just before it is too («Si el atacante juega el "dos 6"»:
        «epaulettes en ambos shoulders»), else 0. A card of that rank played earlier in the
        bout, followed by another rank, does not count."""
        return epaulette_count(self.final_attack, rank)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (cards as text)."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "previous_durak": self.previous_durak,
            "durak": self.durak,
            "losers": list(self.losers),
            "final_defender": self.final_defender,
            "final_attack": format_cards(self.final_attack),
            "epaulettes": self.epaulettes,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        """The result :meth:`to_dict` wrote; :class:`MatchRecordError` names a bad field."""
        if not isinstance(data, Mapping) or set(data) != set(RESULT_FIELDS):
            raise MatchRecordError(f"a game result has exactly the fields {list(RESULT_FIELDS)}")
        number, losers = data["number"], data["losers"]
        epaulettes, attack = data["epaulettes"], data["final_attack"]
        if type(number) is not int or number < 1:
            raise MatchRecordError("number must be a whole number from 1")
        if not isinstance(losers, list) or len(losers) > 6 or not all(map(_is_seat, losers)):
            raise MatchRecordError("losers must be a list of seats")
        if type(epaulettes) is not int or not 0 <= epaulettes <= 2:
            raise MatchRecordError("epaulettes must be 0, 1 or 2")
        if not isinstance(attack, str) or len(attack) > 200:
            raise MatchRecordError("final_attack must be cards in notation")
        for name in ("dealer", "previous_durak", "durak", "final_defender"):
            if data[name] is not None and not _is_seat(data[name]):
                raise MatchRecordError(f"{name} must be a seat (0-5) or null")
        try:
            final_attack = tuple(parse_cards(attack)) if attack.strip() else ()
        except CardError as exc:
            raise MatchRecordError(f"final_attack: {exc}") from None
        return cls(
            number=number,
            dealer=data["dealer"],
            previous_durak=data["previous_durak"],
            durak=data["durak"],
            losers=tuple(losers),
            final_defender=data["final_defender"],
            final_attack=final_attack,
            epaulettes=epaulettes,
        )


def _is_seat(value: object) -> bool:
    return type(value) is int and 0 <= value < 6


RESULT_FIELDS: Final = tuple(f.name for f in fields(GameResult))
""":class:`GameResult`'s fields, in order (the keys of :meth:`GameResult.to_dict`)."""


class Standing(NamedTuple):
    """One side's score: a seat, or a team with ``Rules.teams``."""

    side: int
    seats: tuple[int, ...]
    losses: int
    """Games the side lost (left holding cards)."""
    epaulettes: int
    """Epaulettes of the lowest rank worn, over every game lost (S2 item 77)."""
    ladder: int
    """Rungs climbed on the epaulette ladder (``epaulette_ladder`` only, S2 item 78)."""
    next_rank: Rank | None
    """The rank that must finish this side next to climb (None without the ladder, or once
    the ace epaulette lost the match)."""


class Score(NamedTuple):
    """The state of a match after some games (see :func:`score_match`)."""

    standings: tuple[Standing, ...]
    finished: bool
    loser: int | None
    """The side that lost the match, or None (not finished, or a ``single`` game drawn)."""
    ladder: tuple[tuple[Rank | None, int], ...]
    """Per game: the rank the losing side needed on the ladder and the epaulettes it got at
    that rank (``epaulette_ladder``; (None, 0) otherwise or for a draw)."""


def epaulette_count(attack: Sequence[Card], rank: Rank) -> int:
    """How many of the last attack cards played (``attack`` in play order), counted back
    from the very last, are of ``rank``, at most 2 (S2 item 77, see
    :meth:`GameResult.epaulettes_of`).

    >>> from durak_core import parse_cards
    >>> [epaulette_count(parse_cards(t), Rank.SIX) for t in ("6C 7D", "7D 6C", "6C 6D", "")]
    [0, 1, 2, 0]
    """
    count = 0
    for card in reversed(attack):
        if card.rank is not rank or count == 2:
            break
        count += 1
    return count


def sides_of(rules: Rules, players: int) -> tuple[int, ...]:
    """Each seat's side: its team number with ``rules.teams``, else the seat itself."""
    teams = team_of(rules.teams, players)
    return teams if teams is not None else tuple(range(players))


def score_match(rules: Rules, players: int, results: Sequence[GameResult]) -> Score:
    """Score ``results`` (games in order) under ``rules.match_scoring``.

    ``single``: the first game decides. ``three_losses`` (S0 item 76): the first side to lose
    three games loses. ``epaulette_ladder`` (S2 item 78): a side's rung starts at the deck's
    lowest rank; a game it loses with a card of that rank as the last attack card played
    (S2 item 77) climbs it one rank; the ace epaulette loses the match."""
    side_of = sides_of(rules, players)
    count = max(side_of) + 1
    seats = [tuple(s for s in range(players) if side_of[s] == side) for side in range(count)]
    losses = [0] * count
    worn = [0] * count
    rungs = [0] * count
    ladder_on = rules.match_scoring is MatchScoring.EPAULETTE_LADDER
    low = rules.lowest_rank
    ladder: list[tuple[Rank | None, int]] = []
    finished = False
    loser: int | None = None
    for result in results:
        if finished:
            raise MatchError(f"game {result.number} was played after the match was over")
        lost = sorted({side_of[s] for s in result.losers})
        needed: Rank | None = None
        got = 0
        for side in lost:
            losses[side] += 1
            worn[side] += result.epaulettes
            if ladder_on:
                needed = Rank(low + rungs[side])
                got = result.epaulettes_of(needed)
                if got:
                    rungs[side] += 1
                    if needed is Rank.ACE:
                        finished, loser = True, side
            elif rules.match_scoring is MatchScoring.THREE_LOSSES and losses[side] >= _TO_LOSE:
                finished, loser = True, side
        ladder.append((needed, got))
        if rules.match_scoring is MatchScoring.SINGLE:
            finished, loser = True, (lost[0] if lost else None)
    standings = tuple(
        Standing(
            side,
            seats[side],
            losses[side],
            worn[side],
            rungs[side],
            Rank(low + rungs[side]) if ladder_on and low + rungs[side] <= Rank.ACE else None,
        )
        for side in range(count)
    )
    return Score(standings, finished, loser, tuple(ladder))


_ATTACK_CARD: Final = frozenset({EventKind.LEAD, EventKind.THROW_IN, EventKind.TRANSFER})
"""Events that put an attack card on the table (a transfer card joins the attack, S2)."""


def _final_bout(game: Game) -> tuple[int | None, tuple[Card, ...]]:
    """The last bout's defender (who picked up or beat off) and its attack cards, in the
    order they were played."""
    defender: int | None = None
    attack: tuple[Card, ...] = ()
    played: list[Card] = []
    for event in game.events:
        kind = event.kind
        if kind is EventKind.BOUT_START:
            played = []
        elif kind in _ATTACK_CARD:
            played.append(event.cards[0])
        elif kind is EventKind.PICK_UP or kind is EventKind.BITO:
            defender = event.seat
            attack = tuple(played)
    return defender, attack


def game_result(game: Game, number: int = 1) -> GameResult:
    """The :class:`GameResult` of a finished ``game`` (``number``: its place in the match)."""
    outcome = game.outcome
    if outcome is None:
        raise MatchError("the game is not over yet")
    losers = game.losers
    defender, attack = _final_bout(game)
    if defender not in losers or not game.hand(defender):
        attack = ()  # he attacked last, or went out too (a draw he loses without drawing, S0)
    origin = game.origin
    dealer = origin.get("dealer")
    return GameResult(
        number=number,
        dealer=dealer if isinstance(dealer, int) else None,
        previous_durak=game.previous_durak,
        durak=outcome.durak,
        losers=losers,
        final_defender=defender,
        final_attack=attack,
        epaulettes=epaulette_count(attack, game.rules.lowest_rank),
    )


class Match:
    """Games in a row under one :class:`Rules`, with the same seats, scored as the rules say.

    ``match.game`` is the current :class:`Game` (play it with ``game.play``); once it is over,
    :meth:`next_game` deals the next one unless the match is :attr:`finished`. Each game's
    shuffle seed is drawn from the match's ``seed``, so a match replays from its seed alike.
    """

    __slots__ = ("_earlier", "_games", "_rng", "players", "rules", "seed")

    rules: Rules
    players: int
    seed: int

    def __init__(
        self, rules: Rules | None = None, players: int = 2, seed: int | None = None
    ) -> None:
        """Deal the first game; its dealer is drawn at random from ``seed`` (S0, S2 item 18)."""
        self.rules = rules or Rules()
        self.rules.check_players(players)
        if seed is None:
            seed = random.randrange(_SEED_RANGE)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be a whole number or None, not {seed!r}")
        self.players = players
        self.seed = seed
        self._rng = random.Random(seed)
        self._earlier: tuple[GameResult, ...] = ()
        self._games = [Game.deal(self.rules, players, self._game_seed())]

    @classmethod
    def resume(cls, rules: Rules, players: int, seed: int, results: Sequence[GameResult]) -> Match:
        """The match of ``seed`` after the finished games ``results`` (what :attr:`results`
        gave), its next game dealt as :meth:`next_game` would deal it: a long match picked
        up without every game's moves. The results are checked for the match's sequence
        (numbers, dealers, previous duraks) and the match must not be over after them; their
        outcomes are taken as given, so they must come from a trusted place (a page seals
        them). Raises :class:`MatchError` naming what does not fit. Such a match keeps only
        the results of its earlier games (:attr:`games` starts at the next one)."""
        if not results:
            return cls(rules, players, seed)
        match = object.__new__(cls)
        rules.check_players(players)
        match.rules, match.players, match.seed = rules, players, seed
        match._rng = random.Random(seed)
        first = Game.deal(rules, players, match._game_seed())
        expected: tuple[int | None, int | None] = (cls._dealer(first), None)
        for number, result in enumerate(results, 1):
            if result.number != number:
                raise MatchError(f"game {number}: its result is numbered {result.number}")
            if (result.dealer, result.previous_durak) != expected:
                raise MatchError(f"game {number}: not dealt as the match deals it")
            if any(not 0 <= s < players for s in result.losers):
                raise MatchError(f"game {number}: a loser outside the {players} seats")
            if number > 1:
                match._game_seed()
            expected = _next_dealing(result.durak, result.previous_durak, result.dealer)
        match._earlier = tuple(results)
        match._games = []
        score = match.score()
        if score.finished:
            raise MatchError("the match is over after these games")
        dealer, previous = expected
        assert dealer is not None
        match._games = [
            Game.deal(rules, players, match._game_seed(), dealer=dealer, previous_durak=previous)
        ]
        return match

    def _game_seed(self) -> int:
        return self._rng.randrange(_SEED_RANGE)

    # ------------------------------------------------------------------ views

    @property
    def game(self) -> Game:
        """The current game (the last one dealt)."""
        return self._games[-1]

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game dealt so far, in order (the last may still be in play); for a match
        picked up with :meth:`resume`, from the game it dealt on."""
        return tuple(self._games)

    @property
    def resumed(self) -> bool:
        """Whether its earlier games are known by their results only (:meth:`resume`)."""
        return bool(self._earlier)

    @property
    def results(self) -> tuple[GameResult, ...]:
        """The results of the finished games, in order (read afresh: a game's ``undo`` is
        followed)."""
        return self._earlier + tuple(
            game_result(game, number)
            for number, game in enumerate(self._games, len(self._earlier) + 1)
            if game.outcome is not None
        )

    def score(self) -> Score:
        """The match's score after the finished games (see :func:`score_match`)."""
        return score_match(self.rules, self.players, self.results)

    def standings(self) -> tuple[Standing, ...]:
        """Each side's :class:`Standing` (seats, or teams with ``Rules.teams``)."""
        return self.score().standings

    def scores(self) -> tuple[int, ...]:
        """Each side's count: ladder rungs with ``epaulette_ladder``, else games lost."""
        ladder = self.rules.match_scoring is MatchScoring.EPAULETTE_LADDER
        return tuple(s.ladder if ladder else s.losses for s in self.standings())

    @property
    def sides(self) -> tuple[int, ...]:
        """Each seat's side: its team (``Rules.teams``) or the seat itself."""
        return sides_of(self.rules, self.players)

    @property
    def by_team(self) -> bool:
        """Whether sides are teams."""
        return self.rules.teams is not Teams.NONE

    @property
    def finished(self) -> bool:
        """Whether the match is decided (no next game)."""
        return self.score().finished

    @property
    def loser(self) -> int | None:
        """The side (seat, or team) that lost the match; None until then, or for a drawn
        ``single`` game."""
        return self.score().loser

    def summaries(self) -> list[dict[str, Any]]:
        """Per finished game, JSON-ready: its :class:`GameResult` fields, the losing sides and
        the ladder rank needed and epaulettes scored at it (``epaulette_ladder``)."""
        score = self.score()
        sides = self.sides
        out = []
        for result, (rank, got) in zip(self.results, score.ladder, strict=True):
            summary = result.to_dict()
            summary["losing_sides"] = sorted({sides[s] for s in result.losers})
            summary["ladder_rank"] = None if rank is None else rank.symbol
            summary["ladder_epaulettes"] = got
            out.append(summary)
        return out

    # ------------------------------------------------------------------ play

    def next_dealing(self) -> tuple[int, int | None]:
        """The next game's dealer and previous durak, once the current game is over: the durak
        deals (S0, S2); after a draw the previous durak stays durak and deals (S0 item 27), or
        with no durak yet the same dealer deals again."""
        game = self.game
        outcome = game.outcome
        if outcome is None:
            raise MatchError("the current game is not over yet")
        # under team_loses, the engine names one of the team as durak (S0 item 10)
        dealer, previous = _next_dealing(outcome.durak, game.previous_durak, self._dealer(game))
        assert dealer is not None
        return dealer, previous

    def next_game(self) -> Game:
        """Deal the next game (and return it): its dealer is the durak (see
        :meth:`next_dealing`), and ``Rules.next_game_start`` picks who leads (C6)."""
        dealer, previous = self.next_dealing()
        if self.finished:
            raise MatchError(f"the match is over: side {self.loser} lost it")
        game = Game.deal(
            self.rules, self.players, self._game_seed(), dealer=dealer, previous_durak=previous
        )
        self._games.append(game)
        return game

    @staticmethod
    def _dealer(game: Game) -> int:
        dealer = game.origin.get("dealer")
        if not isinstance(dealer, int):
            raise MatchError("a game of a match must be dealt (it has no dealer)")
        return dealer

    def __repr__(self) -> str:
        state = f"lost by {self.loser}" if self.finished else "in play"
        return (
            f"<Match {self.players}p {self.rules.match_scoring.value} game {len(self._games)} "
            f"{state} scores {list(self.scores())}>"
        )


def _next_dealing(
    durak: int | None, previous_durak: int | None, dealer: int | None
) -> tuple[int | None, int | None]:
    """The next game's dealer and previous durak after a game with these facts (see
    :meth:`Match.next_dealing`)."""
    if durak is not None:
        return durak, durak
    if previous_durak is not None:
        return previous_durak, previous_durak
    return dealer, None


# ---------------------------------------------------------------------- records


def match_record(match: Match) -> dict[str, Any]:
    """The JSON-ready record of ``match``: rules, players, seed, each game's record
    (:func:`~durak_core.record.to_record`) and the finished games' results (checked on
    replay). A match picked up with :meth:`Match.resume` has none (:class:`MatchError`)."""
    if match.resumed:
        raise MatchError("a resumed match knows its earlier games by their results only")
    return {
        "format": MATCH_FORMAT,
        "rules": match.rules.to_dict(),
        "players": match.players,
        "seed": match.seed,
        "games": [to_record(g) for g in match.games],
        "results": match.summaries(),
    }


def replay_match(data: Mapping[str, Any]) -> Match:
    """Rebuild the match of a :func:`match_record`, replaying every game from its record (its
    deck and actions), and check it is the same match: dealers, previous duraks, game seeds
    and results. Raises :class:`MatchRecordError` naming what is wrong."""
    if not isinstance(data, Mapping):
        raise MatchRecordError("a match record is a JSON object")
    if data.get("format") != MATCH_FORMAT:
        raise MatchRecordError(
            f"unknown match record format {data.get('format')!r}; expected {MATCH_FORMAT!r}"
        )
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, Mapping):
        raise MatchRecordError("rules must be an object of Rules fields")
    try:
        rules = Rules.from_dict(dict(raw_rules))
    except (TypeError, ValueError) as exc:
        raise MatchRecordError(f"rules: {exc}") from None
    players, seed = data.get("players"), data.get("seed")
    if not isinstance(players, int) or isinstance(players, bool):
        raise MatchRecordError(f"players must be a whole number, not {players!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise MatchRecordError(f"seed must be a whole number, not {seed!r}")
    try:
        rules.check_players(players)
    except RulesError as exc:
        raise MatchRecordError(f"players: {exc}") from None
    records = data.get("games")
    if not isinstance(records, list) or not records:
        raise MatchRecordError("games must be a non-empty list of game records")
    match = object.__new__(Match)
    match.rules, match.players, match.seed = rules, players, seed
    match._rng = random.Random(seed)
    match._earlier = ()
    match._games = []
    for number, record in enumerate(records, 1):
        match._games.append(_replay_game(match, number, record))
    results = data.get("results")
    if results is not None and results != match.summaries():
        raise MatchRecordError("results: they differ from the replayed games' results")
    return match


def _replay_game(match: Match, number: int, record: object) -> Game:
    """Replay game ``number`` of ``match`` from ``record``, checked against the match."""
    where = f"game {number}"
    if not isinstance(record, Mapping):
        raise MatchRecordError(f"{where}: a game record is a JSON object")
    expected: tuple[int, int | None] | None = None
    if number > 1:
        if match.game.outcome is None:
            raise MatchRecordError(f"{where}: the game before it is not over")
        if match.finished:
            raise MatchRecordError(f"{where}: the match was over before it")
        expected = match.next_dealing()
    seed = match._game_seed()
    if "position" in record:
        raise MatchRecordError(f"{where}: a game of a match is dealt, not set up")
    if record.get("seed") != seed:
        raise MatchRecordError(f"{where}: seed {record.get('seed')!r}, the match deals {seed}")
    if record.get("players") != match.players:
        raise MatchRecordError(f"{where}: players {record.get('players')!r}, not {match.players}")
    try:
        rules = Rules.from_dict(dict(record.get("rules", {})))
    except (TypeError, ValueError) as exc:
        raise MatchRecordError(f"{where}: rules: {exc}") from None
    if rules != match.rules:
        raise MatchRecordError(f"{where}: its rules differ from the match's")
    if expected is not None:
        got = (record.get("dealer"), record.get("previous_durak"))
        if got != expected:
            raise MatchRecordError(
                f"{where}: dealer and previous durak {got}, the match says {expected}"
            )
    try:
        return replay(record)
    except RecordError as exc:
        raise MatchRecordError(f"{where}: {exc}") from None
