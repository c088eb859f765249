"""The play page: a whole game against 1–3 computer players, or hot-seat for 2–4 people.

Against the computer the others are :mod:`durak_core.bots` players of the chosen level
(:func:`tutorial.opponent.page_bot`), each seeing only its seat's observation. Their moves come
one at a time, a pause apart (``pace``), into the move log; the game ends with the result
panel, a short review of the learner's costliest decisions (:func:`review`: each decision was
scored while playing, on the learner's own observation, by the page's one judge,
:func:`tutorial.opponent.judge`, which the Hint asks too: a move the Hint advised is never
listed, and a move counts as costly only when another did clearly better) and "New game"
(:mod:`tutorial.free_play_view`).

Hot-seat (S1: friends around one device): every seat is a person. Between turns a cover
hides every hand ("Pass the device to Bruno"); after the tap only the acting player's hand is
face up. While the cover is up the table widget's state holds no card of any hand, and the
move log never records refused tries (they would name a card still in that hand).

House rules on top of the chosen preset (:data:`HOUSE_RULES`): two against two (S0, S2:
you and the computer opposite are partners), transfers with Wikipedia's "Flash" (S2) and a
new deal on request for a misdealt hand (S2). A match (:data:`MATCHES`) plays games in a row
(:class:`durak_core.match.Match`): to three losses (S0) or epaulettes (S2); the result panel
then shows the standings and offers the next game, dealt by the durak and led from his left.

Resume after a lost connection carries the whole state as one sealed token (encrypted and
authenticated with the server's key, ``DURAK_RESUME_KEY`` in the kernel's environment:
:mod:`tutorial.sealing`): the deal (seed, players, rules, level, house rules, match), every
move of the game, the computer's included, and in a match the finished games' results (not
their moves: a long match stays small). The browser can neither read it (the seed would
reveal every hidden card) nor change it; an older token than the newest sealed for the game
is refused too (:mod:`tutorial.resume_ledger`), so a move cannot be taken back by handing an
old one over. A refused token deals anew and the page says so (and when the server's key
changed, that this is why). Without a key (e.g. the static site) the page offers nothing to
resume and a reload deals anew. A hot-seat game is not resumable.

A game is played in one tab (issue 37 item 2; security review finding 2). A resume takes the
game: it advances the ledger past the state it resumed, so a second resume of that state is
refused. Before every change of its game (a click, the computer's next move, the match's next
game) a page reserves the next number in the ledger (:meth:`Ledger.advance
<tutorial.resume_ledger.Ledger.advance>`); if another page took the game meanwhile, nothing is
played and the page freezes under a cover: "This game continues in another tab", with "Take
the game here", which resumes from the newest state the ledger holds (never an older one: no
move is taken back, and the other tab freezes in turn), and "Play a new deal". A resume refused
because the state is older than the game's newest freezes the same way.

Back, Forward and links inside the tab hand the page the tab's stored state (issue 37 item 4):
the game goes on where it was. A page opened afresh (a reload, a copied tab) that finds a
stored game offers it: "Continue your game" or "Play a new deal"; until the learner chooses,
the stored game stays stored.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

import ipywidgets as w

from durak_core import PRESETS, Action, ActionKind, Game, Observation, Rules, RulesError, observe
from durak_core.bots import DEFAULT_LEVEL, Assessment, Bot, Evaluator, next_seat
from durak_core.match import (
    RESULT_FIELDS,
    GameResult,
    Match,
    MatchError,
    MatchRecordError,
    Standing,
)

from .app import LessonApp
from .bridge import PageBridge
from .controller import LessonController
from .hints import Hint, describe_action, hint, join_sentences, rate
from .i18n import N_, Gettext, I18n
from .lessons import Lesson, Step
from .move_log import MoveLog
from .names import card_short, preset_name, rank_name
from .opponent import PAGE_LEVELS, judge, page_bot
from .page import escape, is_shown, set_shown
from .people import agree, as_person, seat_name
from .resume_ledger import GAME_ID, ledger
from .sealing import RESUME_KEY_ENV, key_id, sealed_with_another_key
from .sealing import seal as seal_deal
from .sealing import unseal as unseal_deal

__all__ = [
    "HOUSE_RULES",
    "MATCHES",
    "MAX_NAME",
    "MIN_COST",
    "RESUME_KEY_ENV",
    "Deal",
    "GameApp",
    "Mistake",
    "PlayController",
    "describe_action",
    "game_lesson",
    "house_rule_description",
    "house_rule_name",
    "level_description",
    "level_name",
    "match_description",
    "match_name",
    "page_rules",
    "review",
    "review_html",
    "seal_deal",
    "unseal_deal",
]

#: The seats the play page names, in order (all of them in tutorial.people.KNOWN_NAMES).
NAMES = ("Ana", "Bruno", "Diana", "Elena", "Fiodor")
#: Deals are drawn from 128 bits of the operating system's generator: the shuffle is public
#: code, and 31 bits (as before) let a learner's script find the deal, every hidden card and
#: the next draw included, from their own hand and the turn-up in minutes.
_MAX_SEED: Final = 2**128
MAX_NAME: Final = 20
"""The longest name a hot-seat player may type."""
MIN_COST: Final = 0.05
"""A decision enters the review when a move did clearly better (beyond the noise of the
sample, :meth:`~durak_core.bots.Assessment.clearly_better`) and by at least this much (5 of
100 trial games)."""
Mode = Literal["computer", "hotseat"]
HOUSE_RULES: Final = ("teams", "flash", "misdeal")
"""The house-rule switches on top of the chosen preset (see :func:`page_rules`)."""
MATCHES: Final = ("single", "three_losses", "epaulette_ladder")
"""The match choices (``Rules.match_scoring``): one game, to three losses (S0), epaulettes
(S2)."""
_DEAL_KEYS: Final = frozenset({"seed", "players", "preset", "level", "match", *HOUSE_RULES})
RESUME_FORMAT: Final = 2
"""The version of the sealed resume state (1 sealed the deal only)."""
_STATE_KEYS: Final = frozenset({"v", "deal", "game", "results", "id", "n"})
_RESULT_ROW: Final = RESULT_FIELDS[1:]  # the number is the row's place
"""A finished game's :class:`GameResult` in the resume state: these fields, as a list."""
_MAX_PAST_GAMES: Final = 1_000
"""The most finished games a resumed match may have (an epaulette match in random play took
84-173)."""


def level_name(level: str, tr: Gettext) -> str:
    """The level's name on the page."""
    if level == "newcomer":
        # TRANSLATORS: level of the computer opponent (S1: gentler for newcomers).
        return tr.pgettext("level", "Newcomer")
    if level == "strong":
        # TRANSLATORS: level of the computer opponent.
        return tr.pgettext("level", "Strong")
    # TRANSLATORS: level of the computer opponent (the default one).
    return tr.pgettext("level", "Normal")


def level_description(level: str, tr: Gettext) -> str:
    """One line on how the level plays."""
    if level == "newcomer":
        return tr.gettext(
            "Tries only a few guesses at the hidden cards and sometimes plays its second-best "
            "move: gentle for a start."
        )
    if level == "strong":
        return tr.gettext("Plays out up to four times as many deals as Normal before each move.")
    return tr.gettext(
        "Deals the cards it has not seen in many ways and plays each to the end: "
        "a fair but beatable opponent."
    )


def house_rule_name(name: str, tr: Gettext) -> str:
    """The switch's label."""
    if name == "teams":
        # TRANSLATORS: a house-rule switch on the play page (S0, S2: four players in pairs).
        return tr.gettext("Teams: two against two")
    if name == "flash":
        # TRANSLATORS: a house-rule switch: transfers, also by showing a trump (S2 «Flash»).
        return tr.gettext("Transfer with Flash")
    # TRANSLATORS: a house-rule switch: a misdealt hand may ask for a new deal (S2).
    return tr.gettext("Misdeal: ask for a new deal")


def house_rule_description(name: str, tr: Gettext) -> str:
    """One line on what the switch changes, naming its source."""
    if name == "teams":
        # TRANSLATORS: {source} and {other} are "wikiHow" and "Wikipedia" (never translated).
        return tr.gettext(
            "From {source} ({other} has it too): four players, partners sit opposite; "
            "team-mates never add cards against each other, and when one of them is left "
            "holding cards, the whole team loses.",
            source="wikiHow",
            other="Wikipedia",
        )
    if name == "flash":
        return tr.gettext(
            "From {source}: the defender may pass the attack on with a card of the same "
            "rank, or just by showing a trump of that rank and keeping it (“Flash”).",
            source="Wikipedia",
        )
    return tr.gettext(
        "From {source}, played here on request (there it is compulsory): a player dealt a "
        "hand that is all red, all black, or holds four cards of one suit may ask for a new "
        "deal before the first card is led.",
        source="Wikipedia",
    )


def match_name(match: str, tr: Gettext) -> str:
    """The match choice's name."""
    if match == "three_losses":
        # TRANSLATORS: a match choice (S0): whoever is the durak three times loses.
        return tr.pgettext("match", "To three losses")
    if match == "epaulette_ladder":
        # TRANSLATORS: a match choice (S2's «погоны»).
        return tr.pgettext("match", "Epaulettes")
    # TRANSLATORS: a match choice: no match, a single game.
    return tr.pgettext("match", "One game")


def match_description(match: str, tr: Gettext) -> str:
    """One line on how the match is decided, naming its source."""
    if match == "three_losses":
        return tr.gettext(
            "From {source}: games in a row, and whoever is the durak three times, in a row or "
            "not, loses the match. The durak deals the next game; the player on the durak's "
            "left leads.",
            source="wikiHow",
        )
    if match == "epaulette_ladder":
        return tr.gettext(
            "From {source}: a durak finished off with sixes gets epaulettes; from then on "
            "only sevens count, then eights, and so on up to aces; here, whoever gets the ace "
            "epaulettes has lost the match. The durak deals the next game; the player on the "
            "durak's left leads.",
            source="Wikipedia",
        )
    return tr.gettext("Every game stands alone: the durak of this game has lost, that is all.")


def page_rules(
    preset: str,
    *,
    teams: bool = False,
    flash: bool = False,
    misdeal: bool = False,
    match: str = "single",
) -> Rules:
    """The preset's rules with the page's house rules and match: ``teams`` two against two
    (S0; partners opposite), ``flash`` transfers with S2's Flash, ``misdeal`` a new deal on
    request for a hand all red, all black or with four of a suit (S2 as written); a match is
    led from the previous durak's left (S0, S2)."""
    changes: dict[str, Any] = {}
    if teams:
        changes["teams"] = "2v2"
    if flash:
        changes.update(transfer=True, flash=True)
    if misdeal:
        changes.update(misdeal="four_of_a_suit", misdeal_mode="on_request")
    if match != "single":
        changes.update(match_scoring=match, next_game_start="left_of_durak")
    rules = Rules.preset(preset)
    return rules.replace(**changes) if changes else rules


@dataclass(frozen=True)
class Deal:
    """What the page deals: the seed (a match's seed in a match), the players, the preset,
    the computer's level, the house rules and the match."""

    seed: int
    players: int
    preset: str
    level: str = DEFAULT_LEVEL
    teams: bool = False
    flash: bool = False
    misdeal: bool = False
    match: str = "single"

    @property
    def rules(self) -> Rules:
        return page_rules(
            self.preset, teams=self.teams, flash=self.flash, misdeal=self.misdeal, match=self.match
        )

    def sealed(self) -> dict[str, Any]:
        """The deal as sealed (the new fields only when they are not the defaults)."""
        data: dict[str, Any] = {
            "seed": self.seed,
            "players": self.players,
            "preset": self.preset,
            "level": self.level,
        }
        data.update({name: True for name in HOUSE_RULES if getattr(self, name)})
        if self.match != "single":
            data["match"] = self.match
        return data


def _valid_deal(deal: object) -> Deal | None:
    """The :class:`Deal` when ``deal`` names a game this page can deal."""
    if not isinstance(deal, dict) or not {"seed", "players", "preset"} <= set(deal):
        return None
    if not set(deal) <= _DEAL_KEYS:
        return None
    seed, players, preset = deal["seed"], deal["players"], deal["preset"]
    level = deal.get("level", DEFAULT_LEVEL)
    switches = {name: deal.get(name, False) for name in HOUSE_RULES}
    match = deal.get("match", "single")
    if type(seed) is not int or not 0 <= seed < _MAX_SEED:
        return None
    if not isinstance(preset, str) or preset not in PRESETS:
        return None
    if not isinstance(level, str) or level not in PAGE_LEVELS:
        return None
    if not all(type(value) is bool for value in switches.values()):
        return None
    if not isinstance(match, str) or match not in MATCHES:
        return None
    try:
        rules = page_rules(preset, match=match, **switches)
    except RulesError:
        return None
    if type(players) is not int or not 2 <= players <= min(6, rules.max_players):
        return None
    try:
        rules.check_players(players)
    except RulesError:
        return None
    return Deal(seed, players, preset, level, match=match, **switches)


def _result_row(result: GameResult) -> list[Any]:
    """A finished game's result as kept in the resume state (see :data:`_RESULT_ROW`)."""
    fields = result.to_dict()
    return [fields[name] for name in _RESULT_ROW]


def _parse_results(raw: object) -> list[GameResult] | None:
    """The finished games' results of a resume state (rows of :func:`_result_row`)."""
    if not isinstance(raw, list) or len(raw) > _MAX_PAST_GAMES:
        return None
    results: list[GameResult] = []
    for number, row in enumerate(raw, 1):
        if not isinstance(row, list) or len(row) != len(_RESULT_ROW):
            return None
        try:
            fields = dict(zip(_RESULT_ROW, row, strict=True))
            results.append(GameResult.from_dict({"number": number, **fields}))
        except MatchRecordError:
            return None
    return results


def game_lesson(
    rules: Rules, players: int, preset: str, game: Game, *, hot_seat: bool = False
) -> Lesson:
    """A one-step 'lesson' holding a dealt game, played entirely in free play."""
    return Lesson(
        id="play",
        order=0,
        title=N_("Play a whole game"),
        summary=N_("Deal and play a full game with friends on one device.")
        if hot_seat
        else N_("Deal and play a full game against the computer."),
        rules=rules,
        preset=preset,
        players=NAMES[:players] if hot_seat else ("", *NAMES[: players - 1]),
        you=0,
        show=frozenset(),
        position=game.position().to_dict(),
        steps=(
            Step(
                "say",
                say=N_(
                    "A new deal. Get rid of your cards: the last one holding cards is the durak."
                ),
            ),
        ),
        free_play=True,
        source="play",
    )


# ---------------------------------------------------------------------------- review


@dataclass(frozen=True)
class Mistake:
    """One decision of the learner, scored by the search on the learner's observation:
    ``cost`` is how much better (a share of the sampled games) ``better`` did."""

    move: int
    """The learner's decision number, from 1."""
    chosen: Action
    better: Action
    cost: float
    trump_spent: bool
    """``chosen`` spends a trump where ``better`` keeps it."""
    picked_up: int
    """Cards ``chosen`` (a take) put into the learner's hand; 0 otherwise."""
    better_score: float = 0.0
    """The share of sampled games that ended well (not the durak; a draw counts half) after
    ``better``; ``chosen_score`` the same after ``chosen``."""
    chosen_score: float = 0.0
    samples: int = 0
    """The trial games behind the scores (0: solved exactly, or given as bare scores)."""
    hidden: bool = True
    """The trial games dealt hidden cards at random."""
    exact: tuple[str, str] | None = None
    """A solved endgame: the values (``"win"``, ``"draw"``, ``"loss"``) of ``better`` and
    ``chosen`` against perfect play."""
    answer: Action | None = None
    """A solved endgame: the other player's best answer to ``chosen``, when it moves next."""


def score_decision(
    move: int,
    obs: Observation,
    chosen: Action,
    scores: Assessment | dict[Action, float],
) -> Mistake:
    """The decision ``chosen`` against the judge's assessment of the position (or bare
    scores, every difference then counting): ``better`` is the best move clearly better than
    ``chosen`` (``chosen`` itself when none is, as for the Hint's own advice)."""
    if not isinstance(scores, Assessment):
        legal = tuple(scores)
        scores = Assessment(obs.seat, legal, dict(scores), 0, True)
    found = scores
    better = found.better_than(chosen) or chosen
    values = found.scores
    cost = max(0.0, values[better] - values[chosen])
    trump = obs.trump

    def trump_card(action: Action) -> bool:
        return action.card is not None and action.card.suit is trump

    picked = 0
    if chosen.kind is ActionKind.TAKE:
        picked = sum(1 + (d is not None) for _, d in obs.table)
    exact = None
    if found.exact is not None:
        won, got = found.exact[better], found.exact[chosen]
        exact = (won.name.lower(), got.name.lower())
        cost = (won - got) / 2  # a win over a loss costs 1, over a draw ½ (no tie-break)
    return Mistake(
        move,
        chosen,
        better,
        cost,
        trump_card(chosen) and not trump_card(better),
        picked,
        values[better],
        values[chosen],
        found.samples,
        found.hidden,
        exact,
        found.answers.get(chosen),  # only in a solved endgame
    )


def review(decisions: list[Mistake], count: int = 3) -> list[Mistake]:
    """The ``count`` costliest decisions (at least :data:`MIN_COST`), costliest first."""
    costly = [d for d in decisions if d.cost >= MIN_COST and d.better != d.chosen]
    costly.sort(key=lambda d: (-d.cost, d.move))
    return costly[:count]


def _review_exact(values: tuple[str, str], tr: Gettext) -> str:
    if values == ("win", "draw"):
        return tr.gettext(
            "Every card was known then: the better move would have left the other player the "
            "durak against any play, and yours only draws."
        )
    if values == ("win", "loss"):
        return tr.gettext(
            "Every card was known then: the better move would have left the other player the "
            "durak against any play, and after yours the right play makes you the durak."
        )
    return tr.gettext(
        "Every card was known then: the better move holds a draw against any play, and "
        "after yours the right play makes you the durak."
    )


def _review_rates(d: Mistake, tr: Gettext) -> tuple[str, str]:
    scale = 100 if round(d.better_score * 10) == round(d.chosen_score * 10) else 10
    return rate(d.better_score, tr, scale=scale), rate(d.chosen_score, tr, scale=scale)


def _review_why(d: Mistake, tr: Gettext) -> str:
    """Why ``better`` was better: exactly in a solved endgame (with the best answer to the
    learner's move), else the trial games."""
    if d.exact is not None:
        why = _review_exact(d.exact, tr)
        if d.answer is None:
            return why
        answer = tr.gettext(
            "The best answer to your move was to {move}.", move=describe_action(d.answer, tr)
        )
        return join_sentences(tr, why, answer)
    better, chosen = _review_rates(d, tr)
    if d.samples:
        # TRANSLATORS: {n} games the computer played to the end, the hidden cards dealt at
        # random; {better} and {chosen} are rates, e.g. "in about 3 games of every 10".
        return tr.ngettext(
            "In {n} trial game, with the hidden cards dealt at random, the better move kept "
            "you from being the durak {better}, and yours {chosen}.",
            "In {n} trial games, with the hidden cards dealt at random, the better move kept "
            "you from being the durak {better}, and yours {chosen}.",
            d.samples,
            better=better,
            chosen=chosen,
        )
    return tr.gettext(
        "In the computer's trial games, the better move kept you from being the durak "
        "{better}, and yours {chosen}.",
        better=better,
        chosen=chosen,
    )


def review_html(decisions: list[Mistake], tr: Gettext) -> str:
    """The review under the result: the learner's costliest moves, each with a why."""
    worst = review(decisions)
    # TRANSLATORS: heading of the end-of-game review.
    title = tr.gettext("Your costliest moves")
    if not decisions:
        return ""
    if not worst:
        body = (
            "<p>"
            + escape(
                tr.gettext(
                    "No costly move: in the computer's judgement none of your moves did "
                    "clearly worse than the best one."
                )
            )
            + "</p>"
        )
    else:
        items = []
        for d in worst:
            head = tr.gettext(
                "Move {n}: you chose to {chosen}; better: {better}.",
                n=d.move,
                chosen=describe_action(d.chosen, tr),
                better=describe_action(d.better, tr),
            )
            why = [_review_why(d, tr)]
            if d.picked_up:
                why.append(
                    tr.ngettext(
                        "Taking put {n} card into your hand.",
                        "Taking put {n} cards into your hand.",
                        d.picked_up,
                    )
                )
            if d.trump_spent and d.chosen.card is not None:
                why.append(
                    tr.gettext(
                        "Your move spent the trump {card}; the better one kept it.",
                        card=card_short(d.chosen.card, tr),
                    )
                )
            items.append(f"<li><strong>{escape(head)}</strong> {escape(' '.join(why))}</li>")
        body = f"<ol>{''.join(items)}</ol>"
    return f"<section class='durak-review'><h4>{escape(title)}</h4>{body}</section>"


# ---------------------------------------------------------------------------- controller


class _QuietLog(MoveLog):
    """Hot-seat's move log: refused tries are not recorded (they name a card still in the
    hand of the player who tried)."""

    def refused(self, seat: int, refusal: Any) -> bool:
        return False


class PlayController(LessonController):
    """Free play on the play page: the computer seats play ``bot``; in ``hot_seat`` every
    seat is a person, :attr:`you` is the seat whose turn it is, and :attr:`covered` hides
    every hand until that player taps."""

    def __init__(
        self,
        lesson: Lesson,
        i18n: I18n,
        *,
        seed: int = 0,
        bot: Bot | None = None,
        hot_seat: bool = False,
        scoring: bool = True,
        names: list[str] | None = None,
    ) -> None:
        self.bot: Bot = bot or page_bot("newcomer")
        self.hot_seat = hot_seat
        self.scoring = scoring and not hot_seat
        """Score the learner's decisions for the end-of-game review."""
        self.typed_names = list(names or [])
        self.covered = hot_seat
        self._seat = 0
        self.decisions: list[Mistake] = []
        self._decision_count = 0
        self.judge: Evaluator = judge(seed)
        """The one judge behind this page's Hint and its review (the same position gets the
        same numbers from both, computed once)."""
        super().__init__(lesson, i18n, seed=seed, navigation=False)

    @property
    def you(self) -> int:
        return self._seat if self.hot_seat else self.lesson.you

    def learner(self) -> int:
        """The learner's seat; -1 in hot-seat (nobody is "you" there)."""
        return -1 if self.hot_seat else self.lesson.you

    def names(self, tr: Gettext) -> list[str]:
        if not self.hot_seat:
            return super().names(tr)
        typed = self.typed_names
        return [
            as_person(typed[seat], tr) if seat < len(typed) and typed[seat] else seat_name(name, tr)
            for seat, name in enumerate(self.lesson.players)
        ]

    def _reset(self) -> None:
        super()._reset()
        self.decisions = []
        self._decision_count = 0
        if self.hot_seat:
            self.log = _QuietLog()
            self.covered = True

    def _enter_free_play(self) -> None:
        super()._enter_free_play()
        if self.hot_seat:
            self.message = None
            self._cover(next_seat(self.game))

    def _cover(self, seat: int | None) -> None:
        """The cover goes up for ``seat`` (the next to move)."""
        if seat is None:
            return
        self._seat = seat
        self.covered = True
        self.message = None
        self.selected = self.target = self.explained = None

    def uncover(self) -> None:
        """The player the device was passed to taps: their hand is shown."""
        if self.hot_seat and self.covered and self.game.outcome is None:
            self.covered = False
            self._changed()

    def opponent_to_move(self) -> int | None:
        if self.hot_seat:
            return None
        return super().opponent_to_move()

    def _accepting_moves(self) -> bool:
        if self.hot_seat and self.covered:
            return False
        return super()._accepting_moves()

    def learner_actions(self) -> list[Action]:
        actions = super().learner_actions()
        if self.hot_seat and actions and next_seat(self.game) != self._seat:
            return []
        return actions

    def _advise(self, step: Step | None) -> Hint | None:
        """The Hint on this page asks :attr:`judge`, the review's judge (a lesson's steps are
        not played here: every legal move may be advised)."""
        if not self.free_play:
            return super()._advise(step)
        legal = self.learner_actions()
        if not legal:
            return None
        played = len(self.game.history)
        if self.advice is not None and self._advice_at == (played, True, frozenset()):
            return self.advice
        try:
            advice = hint(observe(self.game, self.you), self.you, evaluator=self.judge)
        except ValueError:
            return None
        self.advice, self._advice_at = advice, (played, True, frozenset())
        return advice

    def _opponent_choice(self, game: Game, seat: int) -> Action:
        # a random stream per public history: the same game gets the same moves (a resumed
        # page, "same deal again"), whatever was played before on this page
        rng = random.Random(f"{seat}|{'|'.join(map(str, game.history))}")
        return self.bot.choose(observe(game, seat), rng)

    def _play(self, action: Action) -> None:
        scored: tuple[int, Observation] | None = None
        if self.scoring and self.free_play and action.seat == self.lesson.you:
            self._decision_count += 1
            obs = observe(self.game, action.seat)
            if len(obs.legal) > 1:
                scored = (self._decision_count, obs)
        super()._play(action)
        if scored is not None:
            move, obs = scored
            self.decisions.append(score_decision(move, obs, action, self.judge.assess(obs)))
        if self.hot_seat and self.free_play and self.game.outcome is None:
            following = next_seat(self.game)
            if following is not None and following != self._seat:
                self._cover(following)

    def _game_over_message(self, durak: int | None, losers: tuple[int, ...] = ()) -> None:
        if not self.hot_seat:
            super()._game_over_message(durak, losers)
            return
        self.covered = False
        names = self.names
        team = tuple(sorted(set(losers) | {durak})) if durak is not None else ()

        def text(tr: Gettext) -> str:
            if durak is None:
                return tr.gettext("Game over: it's a draw.")
            if len(team) > 1:
                return tr.gettext(
                    "Game over: {players} lose as a team.",
                    players=tr.format_list([names(tr)[seat] for seat in team]),
                )
            return tr.gettext("Game over: {player} is the durak.", player=names(tr)[durak])

        self.message = ("success", text)


# ---------------------------------------------------------------------------- page


class GameApp(LessonApp):
    """A lesson page in free play from the first card, with the options of a new game."""

    def __init__(
        self,
        *,
        players: int = 2,
        preset: str = "classic",
        language: str | None = None,
        seed: int | None = None,
        bridge: PageBridge | None = None,
        pace: float | None = None,
        level: str = DEFAULT_LEVEL,
        hot_seat: bool = False,
        names: list[str] | None = None,
        teams: bool = False,
        flash: bool = False,
        misdeal: bool = False,
        match: str = "single",
    ) -> None:
        """``pace``: seconds between the computer's moves (default
        :func:`~tutorial.free_play_view.default_pace`; 0 = all at once). ``level``: the
        computer's (:data:`~tutorial.opponent.PAGE_LEVELS`); ``hot_seat``: every seat a
        person (``names``: what they typed, "" for the default). ``teams``, ``flash``,
        ``misdeal``: the house rules (:func:`page_rules`; ``teams`` seats 4 players);
        ``match``: one of :data:`MATCHES`."""
        if level not in PAGE_LEVELS:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(PAGE_LEVELS)}")
        if match not in MATCHES:
            raise ValueError(f"unknown match {match!r}; matches: {', '.join(MATCHES)}")
        self._seed = secrets.randbelow(_MAX_SEED) if seed is None else seed
        players = 4 if teams else players
        self._deal = Deal(
            self._seed,
            players,
            preset,
            level,
            teams=teams,
            flash=flash,
            misdeal=misdeal,
            match=match,
        )
        self._deal_players, self._deal_preset = players, preset
        self._level, self._hot_seat = level, hot_seat
        self._names = [_clean_name(n) for n in (names or [])]
        self._game_id = secrets.token_hex(16)
        """The current game's random id in its resume state (see :mod:`tutorial.resume_ledger`)."""
        self._state_number = 0
        self._sealed: tuple[dict[str, Any], str] | None = None
        """The last resume state sealed, as a value and as the token sent."""
        self._resume_refused: Literal["", "lost", "new-key"] = ""
        """A saved game handed back on opening could not be continued (and why)."""
        self._reserved = False
        """The ledger holds :attr:`_state_number` for this page, its token not sealed yet."""
        self._elsewhere = ""
        """The id of the game that continues in another tab (this page is frozen), or ``""``."""
        self._away_note: Literal["", "busy", "gone"] = ""
        """Why "Take the game here" did not take it (the other tab was moving; it is gone)."""
        self._offered: str | None = None
        """The token of the tab's stored game, offered on opening ("Continue your game")."""
        self._match: Match | None = None
        rules = self._deal.rules
        game = Game.deal(rules, players, self._seed, dealer=players - 1)
        super().__init__(
            game_lesson(rules, players, preset, game, hot_seat=hot_seat),
            language=language,
            seed=self._seed,
            bridge=bridge,
            pace=pace,
        )

    def make_controller(self, lesson: Lesson, *, seed: int, hints: bool) -> LessonController:
        return PlayController(
            lesson,
            self.i18n,
            seed=seed,
            bot=page_bot(self._level),
            hot_seat=self._hot_seat,
            names=self._names,
        )

    @property
    def play(self) -> PlayController:
        controller = self.controller
        assert isinstance(controller, PlayController)
        return controller

    def _finish_page(self) -> None:
        # LessonApp's constructor ends here: add the deal bar before the handshake runs.
        self.controller.navigation = False  # no Back, Hint, Next here, even for forged clicks
        self.mode = w.Dropdown(
            options=[("computer", "computer"), ("hotseat", "hotseat")],
            value="hotseat" if self._hot_seat else "computer",
            layout=w.Layout(width="auto"),
            _dom_classes=("durak-mode",),
        )
        self.players = w.Dropdown(
            options=[(str(n), n) for n in range(2, 7)],
            value=self._deal_players,
            layout=w.Layout(width="auto"),
            _dom_classes=("durak-players",),
        )
        self.level = w.Dropdown(
            options=[(name, name) for name in PAGE_LEVELS],
            value=self._level,
            layout=w.Layout(width="auto"),
            _dom_classes=("durak-level",),
        )
        self.level_about = w.HTML(_dom_classes=("durak-level-about",))
        # house rules on top of the preset, each with its line, and the match
        self.house: dict[str, w.Checkbox] = {
            name: w.Checkbox(
                value=bool(getattr(self._deal, name)),
                indent=False,
                layout=w.Layout(width="auto"),
                _dom_classes=("durak-house-rule", f"durak-house-{name}"),
            )
            for name in HOUSE_RULES
        }
        self.house_about = {
            name: w.HTML(_dom_classes=("durak-house-about", f"durak-house-about-{name}"))
            for name in HOUSE_RULES
        }
        self.teams, self.flash, self.misdeal = (self.house[name] for name in HOUSE_RULES)
        self.match = w.Dropdown(
            options=[(name, name) for name in MATCHES],
            value=self._deal.match,
            layout=w.Layout(width="auto"),
            style={"description_width": "initial"},
            _dom_classes=("durak-match",),
        )
        self.match_about = w.HTML(_dom_classes=("durak-match-about",))
        self.house_box = w.VBox(
            [c for name in HOUSE_RULES for c in (self.house[name], self.house_about[name])]
            + [self.match, self.match_about],
            _dom_classes=("durak-house-rules",),
        )
        self.preset = w.Dropdown(
            options=list(PRESETS),
            value=self._deal_preset,
            layout=w.Layout(width="auto"),
            _dom_classes=("durak-preset",),
        )
        self.name_boxes = [
            w.Text(
                value=self._names[i] if i < len(self._names) else "",
                layout=w.Layout(width="auto"),
                _dom_classes=("durak-name", f"durak-name-{i}"),
            )
            for i in range(4)
        ]
        self.names_box = w.HBox(self.name_boxes, _dom_classes=("durak-names",))
        self.deal = w.Button(button_style="primary", _dom_classes=("durak-deal",))
        self.deal.on_click(self._guard(lambda _b: self.new_game()))
        for widget in (self.mode, self.players, self.preset, self.match, *self.house.values()):
            widget.observe(self._guard(lambda _change: self._sync_options()), "value")
        self.level.observe(self._guard(lambda _change: self._sync_options()), "value")
        bar = w.HBox(
            [self.mode, self.players, self.level, self.preset, self.deal],
            _dom_classes=("durak-navbar", "durak-deal-bar"),
        )
        # what the options change waits for a new game: said right under New game (N14)
        self.pending = w.HTML(_dom_classes=("durak-pending-note",))
        # the hot-seat names right under New game, before the rules' long lines
        self.options = w.VBox(
            [bar, self.pending, self.names_box, self.level_about, self.house_box],
            _dom_classes=("durak-options",),
        )
        # the cover between hot-seat turns, where the table is
        self.cover_text = w.HTML()
        self.cover_button = w.Button(button_style="primary", _dom_classes=("durak-cover-ready",))
        self.cover_button.on_click(self._guard(lambda _b: self.play.uncover()))
        self.cover = w.VBox(
            [self.cover_text, self.cover_button],
            _dom_classes=("durak-cover", "durak-table-box", "durak-hot-seat-cover"),
        )
        # the one-tab cover, where the table is: a stored game offered on opening, or a game
        # that continues in another tab
        self.away_text = w.HTML()
        self.away_button = w.Button(
            button_style="primary", _dom_classes=("durak-cover-button", "durak-away-main")
        )
        self.away_button.on_click(self._guard(lambda _b: self._away_main()))
        self.away_other = w.Button(_dom_classes=("durak-cover-button", "durak-away-new"))
        self.away_other.on_click(self._guard(lambda _b: self._away_new()))
        self.away = w.VBox(
            [self.away_text, w.HBox([self.away_button, self.away_other])],
            _dom_classes=("durak-cover", "durak-table-box", "durak-away"),
        )
        set_shown(self.away, False)
        self.stage.children = tuple(
            c
            for child in self.stage.children
            for c in ((self.cover, self.away, child) if child is self.table else (child,))
        )
        pacer = self.free_play.pacer
        alive = pacer._alive
        # the computer moves only in the tab that holds the game, never under the cover
        pacer._alive = lambda: alive() and self._offered is None and self._hold()
        # the match's standings and the review, under the result
        self.standings = w.HTML(_dom_classes=("durak-standings-box",))
        self.review = w.HTML(_dom_classes=("durak-review-box",))
        # a decided match: its result is the panel's headline, above the game's (N7)
        self.match_head = w.HTML(_dom_classes=("durak-match-head-box",))
        result_box = self.free_play.panel.result_box
        result_box.children = (
            self.match_head,
            *result_box.children[:1],
            self.standings,
            self.review,
            *result_box.children[1:],
        )
        # at the end of the side panel's scrolling body, under the move log
        panel = getattr(self, "panel", None)
        body = panel.children[0] if isinstance(panel, w.Box) and panel.children else None
        holder = body if isinstance(body, w.Box) else self.widget
        holder.children = (*holder.children, self.options)
        self.widget.add_class("durak-play-page")
        for button in (self.back, self.hint, self.next, self.free):
            set_shown(button, False)
        self._use_deal(self._deal)
        super()._finish_page()

    def _sync_options(self) -> None:
        """Options follow each other: 2–4 players (1–3 computer opponents) within what the
        rules allow; the level only against the computer; names only in hot-seat."""
        if not hasattr(self, "deal") or self._syncing:
            return
        self.render()

    def _player_choices(self, tr: Gettext) -> list[tuple[str, int]]:
        preset = str(self.preset.value)
        most = min(4, Rules.preset(preset).max_players)
        if self.teams.value:  # two against two: always four
            if self.mode.value == "hotseat":
                return [(tr.ngettext("{n} player", "{n} players", 4), 4)]
            return [(tr.gettext("A computer partner and two computer opponents"), 4)]
        if self.mode.value == "hotseat":
            return [(tr.ngettext("{n} player", "{n} players", n), n) for n in range(2, most + 1)]
        return [
            (
                tr.ngettext("{n} computer opponent", "{n} computer opponents", n - 1),
                n,
            )
            for n in range(2, most + 1)
        ]

    def _use_deal(self, deal: Deal) -> None:
        """Deal ``deal`` (in a match, its first game) and start it in free play."""
        self._match = None if deal.match == "single" else Match(deal.rules, deal.players, deal.seed)
        self._start(deal)

    def _deal_maker(self, deal: Deal) -> Callable[[], Game]:
        """Deals the current game afresh: the page's own deal, or the match's current game."""
        rules, players = deal.rules, deal.players
        match = self._match
        if match is None:
            seed = deal.seed
            return lambda: Game.deal(rules, players, seed, dealer=players - 1)
        origin = match.game.origin
        seed, dealer, previous = origin["seed"], origin["dealer"], origin["previous_durak"]
        return lambda: Game.deal(rules, players, seed, dealer=dealer, previous_durak=previous)

    def _start(self, deal: Deal, *, same_match: bool = False) -> None:
        """Start the current game of ``deal`` in free play, and seal the deal. A match's next
        game (``same_match``) keeps the match's id and numbers: one game for the ledger, so a
        tab left behind takes over the match where it is."""
        make = self._deal_maker(deal)
        rules, players, preset = deal.rules, deal.players, deal.preset
        self._deal = deal
        self._seed, self._deal_players, self._deal_preset = deal.seed, players, preset
        if not same_match:
            self._new_game_id()
        controller = self.play
        controller.hot_seat = self._hot_seat
        controller.scoring = not self._hot_seat
        controller.typed_names = list(self._names)
        controller.bot = page_bot(self._level)
        controller.lesson = game_lesson(rules, players, preset, make(), hot_seat=self._hot_seat)
        controller.start_game = make
        controller.restart()
        controller.continue_free_play()

    def _new_game_id(self) -> None:
        """The game on the table is a new one: its own id, and no other tab holds it."""
        self._game_id, self._state_number, self._sealed = secrets.token_hex(16), 0, None
        self._reserved, self._elsewhere, self._away_note, self._offered = False, "", "", None

    def new_game(self) -> None:
        """Deal a new game (or match) with the chosen mode, players, level, rules, house rules
        and names."""
        self._forget_refused_resume()
        preset = str(self.preset.value)
        players = int(self.players.value)
        rules = Rules.preset(preset)
        players = max(2, min(players, rules.max_players, 6))
        teams = bool(self.teams.value)
        if teams:
            players = 4
        self._hot_seat = self.mode.value == "hotseat"
        self._level = str(self.level.value)
        self._names = [_clean_name(box.value) for box in self.name_boxes]
        match = str(self.match.value)
        self._use_deal(
            Deal(
                secrets.randbelow(_MAX_SEED),
                players,
                preset,
                self._level,
                teams=teams,
                flash=bool(self.flash.value),
                misdeal=bool(self.misdeal.value),
                match=match if match in MATCHES else "single",
            )
        )

    # ------------------------------------------------------------------ the match

    @property
    def match_state(self) -> Match | None:
        """The match being played (its current game follows the table's once it is over),
        or None for a single game."""
        match = self._match
        if match is None:
            return None
        played = self.play.game
        moves = played.history if played.outcome is not None else ()
        game = match.game
        if game.history != moves:
            while game.history:
                game.undo()
            for action in moves:
                game.play(action)
        return match

    def _match_goes_on(self) -> bool:
        """A match whose current game is over and which is not decided yet."""
        match = self.match_state
        return match is not None and match.game.outcome is not None and not match.finished

    def next_game(self) -> None:
        """The match's next game: dealt by the durak, led from his left (S0, S2). When the
        match is over, a new one."""
        if self.play.game.outcome is None:
            return  # a forged click while the game goes on
        self._forget_refused_resume()
        if self._match_goes_on() and not self._hold():
            return  # the match goes on in another tab
        if not self._match_goes_on():
            self.new_game()
            return
        match = self.match_state
        assert match is not None
        match.next_game()
        self._start(self._deal, same_match=True)

    def _side_name(self, seats: tuple[int, ...], tr: Gettext) -> str:
        names = self.play.names(tr)
        return tr.format_list([names[seat] for seat in seats])

    def standings_html(self, tr: Gettext) -> str:
        """The match's standings under the result: losses per player (or team), epaulettes
        and the rank needed next on the ladder (S2), who lost the match or who deals next."""
        match = self.match_state
        if match is None or match.game.outcome is None:
            return ""
        score = match.score()
        ladder = match.rules.match_scoring.value == "epaulette_ladder"
        teams = match.by_team
        you = self.play.learner()
        headers = [
            # TRANSLATORS: column of the match standings (team play).
            tr.pgettext("standings", "Team") if teams else tr.pgettext("result", "Player"),
            # TRANSLATORS: column of the match standings: games lost so far.
            tr.pgettext("standings", "Losses"),
        ]
        if ladder:
            headers += [
                # TRANSLATORS: column of the match standings: rungs climbed on S2's epaulette
                # ladder (one per game lost to the right rank, however many epaulettes).
                tr.pgettext("standings", "Ladder"),
                # TRANSLATORS: column: the rank that must finish this side off for its next
                # epaulette (S2's ladder: sixes, then sevens, ... up to aces).
                tr.pgettext("standings", "Next epaulette"),
            ]
        rows = []
        for standing in score.standings:
            cells = [tr.ngettext("{n} loss", "{n} losses", standing.losses)]
            if ladder:
                cells.append(tr.ngettext("{n} rung", "{n} rungs", standing.ladder))
                cells.append(rank_name(standing.next_rank, tr) if standing.next_rank else "—")
            mine = you in standing.seats
            lost = score.loser == standing.side
            classes = " ".join(c for c, on in (("is-you", mine), ("is-loser", lost)) if on)
            rows.append(
                f"<tr class='{classes}'><th scope='row'>"
                f"{escape(self._side_name(standing.seats, tr))}</th>"
                + "".join(f"<td>{escape(cell)}</td>" for cell in cells)
                + "</tr>"
            )
        games = len(match.results)
        # TRANSLATORS: heading of the match standings; {match} is "To three losses" or
        # "Epaulettes".
        title = tr.gettext(
            "{match}: standings after game {n}",
            match=match_name(match.rules.match_scoring.value, tr),
            n=games,
        )
        if score.finished and score.loser is not None:
            status = self._match_over_text(score.standings[score.loser], tr)
        else:
            status = self._next_dealing_text(match, tr)
        head = "".join(f"<th scope='col'>{escape(h)}</th>" for h in headers)
        needed, got = score.ladder[-1] if score.ladder else (None, 0)
        news = ""
        if ladder and needed is not None and got:
            # S2: the last card of the attack that finished the losing side was the rank needed
            losing = set(match.results[-1].losers)
            side = next(s for s in score.standings if losing & set(s.seats))
            # TRANSLATORS: in the match standings (S2's epaulettes); {side} is a player or a
            # team, {rank} a rank's name ("seven").
            text = tr.gettext(
                "New epaulette for {side}: the last attack card was the rank needed ({rank}).",
                side=self._side_name(side.seats, tr),
                rank=rank_name(needed, tr),
            )
            news = f"<p class='durak-epaulette'>{escape(text)}</p>"
        return (
            f"<section class='durak-standings'><h4>{escape(title)}</h4>{news}"
            "<table class='durak-result-table durak-standings-table'>"
            f"<thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
            f"<p class='durak-match-status'>{escape(status)}</p></section>"
        )

    def _match_losers(self) -> tuple[int, ...]:
        match = self.match_state
        if match is None:
            return ()
        score = match.score()
        return score.standings[score.loser].seats if score.loser is not None else ()

    def _match_over_text(self, loser: Standing, tr: Gettext) -> str:
        """Who lost the match."""
        you = self.play.learner()
        if len(loser.seats) > 1:
            if you in loser.seats:
                return tr.gettext("Match over: your team loses the match.")
            return tr.gettext(
                "Match over: {players} lose the match.", players=self._side_name(loser.seats, tr)
            )
        if you in loser.seats:
            return tr.gettext("Match over: you lose the match.")
        return tr.gettext(
            "Match over: {player} loses the match.", player=self._side_name(loser.seats, tr)
        )

    def _next_dealing_text(self, match: Match, tr: Gettext) -> str:
        """Who deals the next game and who leads it (S0, S2: the durak deals, his left leads)."""
        dealer, previous = match.next_dealing()
        you = self.play.learner()
        name = self.play.names(tr)[dealer]
        if previous is None:
            if dealer == you:
                return tr.gettext("Next game: you deal.")
            return tr.gettext("Next game: {player} deals.", player=name)
        if dealer == you:
            return tr.gettext(
                "Next game: you deal as the durak, and the player on your left leads."
            )
        return tr.gettext(
            "Next game: {player} deals as the durak, and the player on the durak's left leads.",
            player=name,
        )

    def page_title(self) -> str:
        return self.i18n.gettext("Play a whole game")

    def resume_state(self) -> dict[str, Any]:
        """``{"sealed": token}``: the deal, the game (every move) and a match's finished
        games' results, sealed as one token (see the module's docstring); nothing without a
        server key, nothing in hot-seat. While a stored game is offered, that game's token (it
        stays stored until the learner chooses); in a frozen page, the last token it had."""
        if not hasattr(self, "deal") or self._hot_seat:
            return {}
        if self._offered is not None:
            return {"sealed": self._offered}
        last = {"sealed": self._sealed[1]} if self._sealed is not None else {}
        if self._elsewhere or key_id() is None:
            return last
        match = self._match
        value = {
            "v": RESUME_FORMAT,
            "deal": self._deal.sealed(),
            "game": self.controller.resume_state(),
            "results": [] if match is None else [_result_row(r) for r in self.match_results()],
            "id": self._game_id,
        }
        if self._sealed is not None and self._sealed[0] == value and not self._reserved:
            return last
        if not self._hold():
            return last
        token = seal_deal({**value, "n": self._state_number})
        if token is None:
            return {}
        if not ledger().advance(self._game_id, self._state_number, self._state_number, token):
            self._freeze(self._game_id)
            return last
        self._reserved = False
        self._sealed = (value, token)
        return {"sealed": token}

    # ------------------------------------------------------------------ one tab

    def _hold(self) -> bool:
        """Before the game changes: reserve its next number in the ledger (once per change).
        ``False``, and the page frozen, when another tab took the game meanwhile."""
        if self._elsewhere:
            return False
        if self._hot_seat or self._reserved or key_id() is None:
            return True
        number = self._state_number
        if ledger().advance(self._game_id, number, number + 1):
            self._state_number, self._reserved = number + 1, True
            return True
        self._freeze(self._game_id)
        return False

    def _freeze(self, game_id: str) -> None:
        """Game ``game_id`` continues in another tab: stop, and cover the table."""
        self._elsewhere, self._offered = game_id, None
        self.free_play.pacer.cancel()
        self.render()

    def take_here(self) -> bool:
        """ "Take the game here": resume the frozen game from the newest state the ledger
        holds (the other tab freezes at its next change). ``False`` when there is none now:
        the other tab is between a move and its seal, or the game is gone."""
        game_id = self._elsewhere
        if not game_id:
            return False
        newest = ledger().entry(game_id)
        if newest is not None and not newest.token:
            self._away_note = "busy"
        elif newest is None or self._resume({"sealed": newest.token}) != "ok":
            self._away_note = "gone"
        else:
            return True
        self.render()
        return False

    def offer_stored(self, state: dict[str, Any]) -> None:
        """The tab's stored game, found on opening: offer to continue it (a state this server
        sealed), or say that the server's key changed since."""
        token = state.get("sealed")
        if set(state) != {"sealed"} or not isinstance(token, str) or self._hot_seat:
            return
        if unseal_deal(token) is None:
            if sealed_with_another_key(token):
                self._resume_refused = "new-key"
                self._render_notice()
            return
        self._offered = token
        self.free_play.pacer.cancel()
        self.render()

    def _away_main(self) -> None:
        """The cover's first button: continue the offered game, or take the game here."""
        offered = self._offered
        if offered is not None:
            self._offered = None
            if not self.resume({"sealed": offered}):
                self.render()
                self.free_play.pacer.check()
            return
        self.take_here()

    def _away_new(self) -> None:
        """The cover's second button: leave the stored or frozen game, play a new deal."""
        if self._offered is not None:
            self._offered = None
            self.render()
            self.sync_bridge()
            self.free_play.pacer.check()
            return
        self.new_game()

    def _on_click(self, click: Any) -> None:
        if click.get("type") != "progress":
            if self._elsewhere or self._offered is not None:
                return  # under the cover: nothing to play
            if not self._hold():
                return
        super()._on_click(click)
        self.sync_bridge()  # seals the reserved number even when the click changed nothing

    def _render_one_tab(self, tr: Gettext) -> None:
        """The one-tab cover: a stored game offered, or a game that continues elsewhere."""
        if self._offered is not None:
            title = tr.gettext("Your game is saved in this tab")
            lines = [
                tr.gettext("Continue it from where you left off, or leave it and start a new game.")
            ]
            main = tr.pgettext("button", "Continue your game")
        elif self._elsewhere:
            title = tr.gettext("This game continues in another tab")
            lines = [
                tr.gettext(
                    "You went on with this game in another tab or window, so it is paused "
                    "here: a game is played in one place at a time. You can take it here: it "
                    "goes on from its newest position, and the other tab pauses instead."
                )
            ]
            if self._away_note == "busy":
                lines.append(
                    tr.gettext("The other tab is in the middle of a move. Try again in a moment.")
                )
            elif self._away_note == "gone":
                lines.append(tr.gettext("This game can no longer be continued."))
            main = tr.pgettext("button", "Take the game here")
        else:
            if is_shown(self.away):
                self.away_text.value = ""
                set_shown(self.away, False)
                if not (self.play.hot_seat and self.play.covered):
                    self.stage.remove_class("durak-covered")
            return
        role = "status" if self._offered is not None else "alert"
        self.away_text.value = (
            f"<div class='durak-cover-text' role='{role}'>"
            f"<p class='durak-cover-title'>{escape(title)}</p>"
            + "".join(f"<p>{escape(line)}</p>" for line in lines)
            + "</div>"
        )
        self.away_button.description = main
        self.away_button.disabled = self._elsewhere != "" and self._away_note == "gone"
        self.away_other.description = tr.pgettext("button", "Start a new game")
        set_shown(self.away, True)
        set_shown(self.cover, False)
        self.stage.add_class("durak-covered")

    def match_results(self) -> tuple[GameResult, ...]:
        """The results of the match's finished games before the current one."""
        match = self._match
        if match is None:
            return ()
        results = match.results
        return results[:-1] if match.game.outcome is not None else results

    def resume(self, state: object) -> bool:
        """Continue the game sealed in ``state`` (from :meth:`resume_state`): deal it again
        (in a match, picked up from its finished games' results) and replay its moves.
        ``False``, with nothing changed, for anything else: a token this server did not seal
        or sealed under another key, an older state of the game than its newest, or moves
        that do not fit; the page then says that it dealt a new game."""
        self._offered = None
        outcome = self._resume(state)
        if outcome == "elsewhere":
            self._render_notice()
            return False
        if outcome != "ok":
            token = state.get("sealed") if isinstance(state, dict) else None
            self._resume_refused = "new-key" if sealed_with_another_key(token) else "lost"
            self._render_notice()
            return False
        self._resume_refused = ""
        return True

    def _resume(self, state: object) -> Literal["ok", "no", "elsewhere"]:
        """:meth:`resume`'s work: ``"ok"`` when it resumed (and took the game: the ledger is
        advanced past the state resumed, so a second resume of it is refused);
        ``"elsewhere"`` when the game went on past this state (the page is then frozen,
        offering the newest state); ``"no"`` when the state is not usable."""
        if not isinstance(state, dict) or set(state) != {"sealed"}:
            return "no"
        value = unseal_deal(state["sealed"])
        if value is None or set(value) != _STATE_KEYS or value["v"] != RESUME_FORMAT:
            return "no"
        deal = _valid_deal(value["deal"])
        game_id, number = value["id"], value["n"]
        if deal is None or not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            return "no"
        if type(number) is not int or number < 1:
            return "no"
        newest = ledger().latest(game_id)
        if newest is not None and newest > number:
            # an older state of this game (it would take moves back), or one another tab
            # resumed already: the game continues there
            self._freeze(game_id)
            return "elsewhere"
        results = _parse_results(value["results"])
        if results is None:
            return "no"
        match: Match | None = None
        rules, players, preset = deal.rules, deal.players, deal.preset
        if deal.match == "single":
            if results:
                return "no"
            dealt = Game.deal(rules, players, deal.seed, dealer=players - 1)
        else:
            try:
                match = Match.resume(rules, players, deal.seed, results)
            except (MatchError, RulesError):
                return "no"
            dealt = match.game
        lesson = game_lesson(rules, players, preset, dealt)
        controller = self.play
        saved = (controller.lesson, controller.start_game, controller.hot_seat, controller.bot)
        saved_scoring = controller.scoring
        # replayable from its position:
        controller.lesson, controller.start_game = lesson, lesson.start
        controller.hot_seat, controller.scoring = False, True
        controller.bot = page_bot(deal.level)
        # take the game: the next number, sealed now, so a second resume of this one is refused
        kept = {k: v for k, v in value.items() if k != "n"}
        token = seal_deal({**kept, "n": number + 1})
        if token is None:
            return "no"
        if not ledger().advance(game_id, number, number + 1, token):
            controller.lesson, controller.start_game, controller.hot_seat, controller.bot = saved
            controller.scoring = saved_scoring
            self._freeze(game_id)  # another tab took it a moment ago
            return "elsewhere"
        if not controller.resume(value["game"]):
            controller.lesson, controller.start_game, controller.hot_seat, controller.bot = saved
            controller.scoring = saved_scoring
            return "no"
        self._match = match
        controller.start_game = self._deal_maker(deal)
        self._deal = deal
        self._seed, self._deal_players, self._deal_preset = deal.seed, players, preset
        self._level, self._hot_seat = deal.level, False
        # the same state seals to the same token again (until the game goes on)
        self._game_id, self._state_number, self._sealed = game_id, number + 1, (kept, token)
        self._reserved, self._elsewhere, self._away_note = False, "", ""
        with self.widget.hold_sync():
            self.mode.value = "computer"
            self.level.value = deal.level
            self.preset.value = preset
            for name in HOUSE_RULES:
                self.house[name].value = bool(getattr(deal, name))
            self.match.value = deal.match
            self.players.value = players
        self.render()
        return "ok"

    def _forget_refused_resume(self) -> None:
        if self._resume_refused:
            self._resume_refused = ""
            self._render_notice()

    def notices(self, tr: Gettext) -> list[str]:
        """The page's notes: a saved game that could not be continued."""
        if self._resume_refused == "new-key":
            return [
                tr.gettext(
                    "The site has been restarted since your game was saved, so it can't be "
                    "continued. Here is a new deal."
                )
            ]
        if self._resume_refused == "lost":
            return [tr.gettext("Your saved game could not be continued, so here is a new deal.")]
        return []

    def match_over_text(self, tr: Gettext) -> str:
        """Who lost the match, once the match is decided; else ``""``."""
        match = self.match_state if hasattr(self, "deal") else None
        if match is None or match.game.outcome is None:
            return ""
        score = match.score()
        if not score.finished or score.loser is None:
            return ""
        return self._match_over_text(score.standings[score.loser], tr)

    def table_snapshot(self) -> dict[str, Any]:
        view = super().table_snapshot()
        ctl = self.controller
        over = self.match_over_text(self.i18n)
        message = view.get("message")
        if over and message:
            # the feedback line says the match is over, not only this game (N7)
            view["message"] = {**message, "text": f"{over} {message['text']}"}
        if (
            isinstance(ctl, PlayController)
            and ctl.hot_seat
            and (ctl.covered or ctl.game.outcome is not None)
        ):
            # behind the cover (and once it is over) no hand at all, nothing to press
            view.update(hand=[], actions=[], message=None, busy=False)
            view["seats"] = [
                {k: v for k, v in seat.items() if k != "cards"} for seat in view["seats"]
            ]
        return view

    _syncing = False

    def render(self) -> None:
        super().render()
        if not hasattr(self, "deal"):
            return
        self._syncing = True
        try:
            self._render_options()
            self._render_one_tab(self.i18n)
        finally:
            self._syncing = False

    def options_changed(self) -> bool:
        """The options differ from the game on the table: they take effect in a new game."""
        deal = self._deal
        teams = bool(self.teams.value)
        players = 4 if teams else int(self.players.value)
        hot = self.mode.value == "hotseat"
        return (
            hot != self._hot_seat
            or players != deal.players
            or str(self.preset.value) != deal.preset
            or (not hot and str(self.level.value) != deal.level)
            or teams != deal.teams
            or bool(self.flash.value) != deal.flash
            or bool(self.misdeal.value) != deal.misdeal
            or str(self.match.value) != deal.match
        )

    def _render_options(self) -> None:
        tr = self.i18n
        ctl = self.play
        with self.widget.hold_sync():
            self.deal.description = tr.pgettext("button", "New game")
            self.mode.description = tr.gettext("Play")
            mode = self.mode.value
            self.mode.options = [
                (tr.gettext("Against the computer"), "computer"),
                (tr.gettext("Hot-seat: friends on one device"), "hotseat"),
            ]
            self.mode.value = mode
            hot = mode == "hotseat"
            chosen_players = self.players.value
            choices = self._player_choices(tr)
            self.players.options = choices
            values = [v for _, v in choices]
            self.players.value = (
                chosen_players if chosen_players in values else min(values[-1], max(values[0], 2))
            )
            self.players.description = tr.gettext("Players") if hot else tr.gettext("Opponents")
            level = self.level.value
            self.level.options = [(level_name(name, tr), name) for name in PAGE_LEVELS]
            self.level.value = level
            self.level.description = tr.gettext("Level")
            set_shown(self.level, not hot)
            self.level_about.value = (
                ""
                if hot
                else f"<p class='durak-level-line'>{escape(level_description(str(level), tr))}</p>"
            )
            set_shown(self.level_about, not hot)
            self._render_house_rules(tr, hot)
            self.preset.description = tr.gettext("Rules")
            chosen = self.preset.value  # new options reset the value: keep the learner's
            self.preset.options = [(preset_name(p, tr), p) for p in PRESETS]
            self.preset.value = chosen
            count = int(self.players.value)
            for i, box in enumerate(self.name_boxes):
                box.placeholder = tr.gettext(NAMES[i])
                box.description = tr.gettext("Player {n}", n=i + 1)
                set_shown(box, hot and i < count)
            set_shown(self.names_box, hot)
            changed = self.options_changed()
            # TRANSLATORS: under the play page's options once one was changed: the game on
            # the table goes on with the old ones.
            note = tr.gettext(
                "These settings start with a new game: press “{button}”.",
                button=tr.pgettext("button", "New game"),
            )
            self.pending.value = (
                f"<p class='durak-pending-text' role='status'>{escape(note)}</p>" if changed else ""
            )
            set_shown(self.pending, changed)
            if changed:
                self.deal.add_class("durak-deal-pending")
            else:
                self.deal.remove_class("durak-deal-pending")
            self.restart.description = tr.pgettext("button", "Same deal again")
            # in a match a game counts as it was played: no second try at the same deal
            set_shown(self.restart, self._match is None)
            self.stars.value = ""  # a free game earns no lesson stars
            # the cover between hot-seat turns
            covered = ctl.hot_seat and ctl.covered and ctl.game.outcome is None
            if covered:
                name = ctl.names(tr)[ctl.you]
                title = tr.gettext("Pass the device to {player}", player=name)
                away = tr.gettext(
                    "Everyone else, look away: {player} will see their cards.", player=name
                )
                self.cover_text.value = (
                    "<div class='durak-cover-text' role='status'>"
                    f"<p class='durak-cover-title'>{escape(title)}</p>"
                    f"<p>{escape(away)}</p></div>"
                )
                self.cover_button.description = tr.gettext(
                    "I am {player}: show my cards", player=name
                )
                set_shown(self.cover, True)
                self.stage.add_class("durak-covered")
            else:
                self.cover_text.value = ""
                set_shown(self.cover, False)
                self.stage.remove_class("durak-covered")
            over = ctl.game.outcome is not None
            self.review.value = review_html(ctl.decisions, tr) if over and not ctl.hot_seat else ""
            self.standings.value = self.standings_html(tr) if over else ""
            decided = self.match_over_text(tr) if over else ""
            lost = self.play.learner() in self._match_losers() if decided else False
            self.match_head.value = (
                f"<section class='durak-match-head outcome-{'lost' if lost else 'won'}'>"
                f"<h3>{escape(decided)}</h3></section>"
                if decided
                else ""
            )
            set_shown(self.match_head, bool(decided))
            set_shown(self.standings, bool(self.standings.value))

    def _render_house_rules(self, tr: Gettext, hot: bool) -> None:
        """The house-rule switches, each with its line, and the match choice."""
        for name in HOUSE_RULES:
            self.house[name].description = house_rule_name(name, tr)
            line = house_rule_description(name, tr)
            html = f"<p class='durak-level-line durak-house-line'>{escape(line)}</p>"
            if name == "teams" and self.teams.value and not hot:
                mate = seat_name(NAMES[1], tr)
                # TRANSLATORS: "partner" agrees with {player} in some languages (es «Tu
                # compañera es Ana» / «Tu compañero es Bruno»).
                partner = agree(
                    tr,
                    mate,
                    "Your partner is {player}, a computer player at the level you chose.",
                    player=mate,
                )
                html += (
                    "<p class='durak-level-line durak-house-line durak-partner'>"
                    f"{escape(partner)}</p>"
                )
            self.house_about[name].value = html
        # TRANSLATORS: label of the match choice (one game, to three losses, epaulettes).
        self.match.description = tr.gettext("Match")
        chosen = self.match.value
        self.match.options = [(match_name(name, tr), name) for name in MATCHES]
        self.match.value = chosen
        line = match_description(str(chosen), tr)
        self.match_about.value = f"<p class='durak-level-line durak-house-line'>{escape(line)}</p>"

    def play_again(self) -> None:
        """The result panel's button: a new deal, or in a match its next game."""
        if self._match is not None:
            self.next_game()
        else:
            self.new_game()

    def again_label(self, tr: Gettext) -> str:
        if self._match_goes_on():
            # TRANSLATORS: button under a game's result in a match: the match's next game.
            return tr.pgettext("button", "Next game")
        return tr.pgettext("button", "New game")

    def restart_lesson(self) -> None:
        """The same deal again, from the first card (not in a match: a game counts as it
        was played)."""
        if self._match is not None or self._elsewhere or self._offered is not None:
            return
        # a new game of the same deal: its own id (the game it leaves may go on elsewhere)
        self._new_game_id()
        self.controller.restart()
        self.controller.continue_free_play()


def _clean_name(name: object) -> str:
    """A typed name: one line, trimmed, at most :data:`MAX_NAME` characters ("" = default)."""
    text = " ".join(str(name).split()) if isinstance(name, str) else ""
    return text[:MAX_NAME]
