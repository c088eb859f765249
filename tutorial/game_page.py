"""The play page: a whole game against 1–3 computer players, or hot-seat for 2–4 people.

Against the computer the others are :mod:`durak_core.bots` players of the chosen level
(:func:`tutorial.opponent.page_bot`), each seeing only its seat's observation. Their moves come
one at a time, a pause apart (``pace``), into the move log; the game ends with the result
panel, a short review of the learner's costliest decisions (:func:`review`: each decision was
scored by the search while playing, on the learner's own observation) and "New game"
(:mod:`tutorial.free_play_view`).

Hot-seat (S1: friends around one device): every seat is a person. Between turns a cover
hides every hand ("Pass the device to Bruno"); after the tap only the acting player's hand is
face up. While the cover is up the table widget's state holds no card of any hand, and the
move log never records refused tries (they would name a card still in that hand).

Resume after a lost connection carries the deal (seed, players, rules, level) so the same game
goes on. The seed would reveal every hidden card, so it never reaches the browser in the
clear: it is sealed (encrypted and authenticated) with the server's key,
``DURAK_RESUME_KEY`` in the kernel's environment. Without a key (e.g. the static site) the
page does not offer its deal for resuming, and a resumed page deals anew. A hot-seat game is
not resumable.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, Literal

import ipywidgets as w

from durak_core import PRESETS, Action, ActionKind, Game, Observation, Rules, RulesError, observe
from durak_core.bots import DEFAULT_LEVEL, Bot, next_seat

from .app import LessonApp
from .bridge import PageBridge
from .controller import LessonController
from .i18n import N_, Gettext, I18n
from .lessons import Lesson, Step
from .move_log import MoveLog
from .names import card_short, preset_name
from .opponent import PAGE_LEVELS, page_bot, review_bot
from .page import escape
from .sealing import RESUME_KEY_ENV
from .sealing import seal as seal_deal
from .sealing import unseal as unseal_deal

__all__ = [
    "MAX_NAME",
    "MIN_COST",
    "RESUME_KEY_ENV",
    "GameApp",
    "Mistake",
    "PlayController",
    "describe_action",
    "game_lesson",
    "level_description",
    "level_name",
    "review",
    "review_html",
    "seal_deal",
    "unseal_deal",
]

NAMES = ("Ana", "Bruno", "Diana", "Elena", "Fiodor")
_MAX_SEED: Final = 2**31
MAX_NAME: Final = 20
"""The longest name a hot-seat player may type."""
MIN_COST: Final = 0.05
"""A decision enters the review when the best move did at least this much better (5 of 100
playouts)."""
Mode = Literal["computer", "hotseat"]


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
            "Looks a few deals ahead and sometimes plays its second-best move: gentle for a start."
        )
    if level == "strong":
        return tr.gettext("Plays out four times as many deals as Normal before each move.")
    return tr.gettext(
        "Deals the cards it has not seen in many ways and plays each to the end: "
        "strong but beatable."
    )


def _valid_deal(deal: object) -> tuple[int, int, str, str] | None:
    """``(seed, players, preset, level)`` when ``deal`` names a game this page can deal."""
    if not isinstance(deal, dict) or not {"seed", "players", "preset"} <= set(deal):
        return None
    if not set(deal) <= {"seed", "players", "preset", "level"}:
        return None
    seed, players, preset = deal["seed"], deal["players"], deal["preset"]
    level = deal.get("level", DEFAULT_LEVEL)
    if type(seed) is not int or not 0 <= seed < _MAX_SEED:
        return None
    if not isinstance(preset, str) or preset not in PRESETS:
        return None
    if not isinstance(level, str) or level not in PAGE_LEVELS:
        return None
    try:
        rules = Rules.preset(preset)
    except RulesError:
        return None
    if type(players) is not int or not 2 <= players <= min(6, rules.max_players):
        return None
    return seed, players, preset, level


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


def score_decision(
    move: int, obs: Observation, chosen: Action, scores: dict[Action, float]
) -> Mistake:
    """The decision ``chosen`` against the best of ``scores`` (the search's averages)."""
    better = max(scores, key=lambda a: (scores[a], a == chosen))
    cost = max(0.0, scores[better] - scores[chosen])
    trump = obs.trump

    def trump_card(action: Action) -> bool:
        return action.card is not None and action.card.suit is trump

    picked = 0
    if chosen.kind is ActionKind.TAKE:
        picked = sum(1 + (d is not None) for _, d in obs.table)
    return Mistake(
        move,
        chosen,
        better,
        cost,
        trump_card(chosen) and not trump_card(better),
        picked,
        scores[better],
        scores[chosen],
    )


def review(decisions: list[Mistake], count: int = 3) -> list[Mistake]:
    """The ``count`` costliest decisions (at least :data:`MIN_COST`), costliest first."""
    costly = [d for d in decisions if d.cost >= MIN_COST and d.better != d.chosen]
    costly.sort(key=lambda d: (-d.cost, d.move))
    return costly[:count]


def describe_action(action: Action, tr: Gettext) -> str:
    """A move in a few words ("beat 8♥ with 9♠")."""
    card = card_short(action.card, tr) if action.card is not None else ""
    kind = action.kind
    if kind is ActionKind.LEAD:
        # TRANSLATORS: a move in the end-of-game review (an infinitive or imperative phrase).
        return tr.pgettext("move", "lead {card}", card=card)
    if kind is ActionKind.BEAT:
        target = card_short(action.target, tr) if action.target is not None else ""
        return tr.pgettext("move", "beat {target} with {card}", target=target, card=card)
    if kind is ActionKind.THROW:
        return tr.pgettext("move", "add {card}", card=card)
    if kind is ActionKind.TRANSFER:
        return tr.pgettext("move", "pass the attack on with {card}", card=card)
    if kind is ActionKind.TAKE:
        return tr.pgettext("move", "take the cards")
    if kind is ActionKind.PASS:
        return tr.pgettext("move", "add nothing more")
    if kind is ActionKind.FLASH:
        return tr.pgettext("move", "show the trump {card} to pass the attack on", card=card)
    if kind is ActionKind.REDEAL:
        return tr.pgettext("move", "ask for a new deal")
    return tr.pgettext("move", "swap for the turned-up trump")


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
                    "No costly move: each of your moves did about as well as the best one "
                    "in the computer's playouts."
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
            why = [
                tr.gettext(
                    "Out of 100 of the computer's trial games, the better move ended well "
                    "in {better} and yours in {chosen}.",
                    better=round(d.better_score * 100),
                    chosen=round(d.chosen_score * 100),
                )
            ]
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
        self._review_rng = random.Random(seed ^ 0x5EED)
        self._reviewer = review_bot()
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
            typed[seat] if seat < len(typed) and typed[seat] else tr.gettext(name)
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
            scores = self._reviewer.evaluate(obs, self._review_rng)
            self.decisions.append(score_decision(move, obs, action, scores))
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
    ) -> None:
        """``pace``: seconds between the computer's moves (default
        :func:`~tutorial.free_play_view.default_pace`; 0 = all at once). ``level``: the
        computer's (:data:`~tutorial.opponent.PAGE_LEVELS`); ``hot_seat``: every seat a
        person (``names``: what they typed, "" for the default)."""
        if level not in PAGE_LEVELS:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(PAGE_LEVELS)}")
        self._seed = random.randrange(_MAX_SEED) if seed is None else seed
        self._deal_players, self._deal_preset = players, preset
        self._level, self._hot_seat = level, hot_seat
        self._names = [_clean_name(n) for n in (names or [])]
        self._sealed: str | None = None
        rules = Rules.preset(preset)
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
        for widget in (self.mode, self.players, self.preset):
            widget.observe(self._guard(lambda _change: self._sync_options()), "value")
        self.level.observe(self._guard(lambda _change: self._sync_options()), "value")
        bar = w.HBox(
            [self.mode, self.players, self.level, self.preset, self.deal],
            _dom_classes=("durak-navbar", "durak-deal-bar"),
        )
        self.options = w.VBox(
            [bar, self.level_about, self.names_box], _dom_classes=("durak-options",)
        )
        # the cover between hot-seat turns, where the table is
        self.cover_text = w.HTML()
        self.cover_button = w.Button(button_style="primary", _dom_classes=("durak-cover-ready",))
        self.cover_button.on_click(self._guard(lambda _b: self.play.uncover()))
        self.cover = w.VBox(
            [self.cover_text, self.cover_button], _dom_classes=("durak-cover", "durak-table-box")
        )
        self.stage.children = tuple(
            c
            for child in self.stage.children
            for c in ((self.cover, child) if child is self.table else (child,))
        )
        # the review, under the result
        self.review = w.HTML(_dom_classes=("durak-review-box",))
        result_box = self.free_play.panel.result_box
        result_box.children = (*result_box.children[:1], self.review, *result_box.children[1:])
        # at the end of the side panel's scrolling body, under the move log
        panel = getattr(self, "panel", None)
        body = panel.children[0] if isinstance(panel, w.Box) and panel.children else None
        holder = body if isinstance(body, w.Box) else self.widget
        holder.children = (*holder.children, self.options)
        self.widget.add_class("durak-play-page")
        for button in (self.back, self.hint, self.next, self.free):
            button.layout.display = "none"
        self._use_deal(self._seed, self._deal_players, self._deal_preset)
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
        if self.mode.value == "hotseat":
            return [(tr.ngettext("{n} player", "{n} players", n), n) for n in range(2, most + 1)]
        return [
            (
                tr.ngettext("{n} computer opponent", "{n} computer opponents", n - 1),
                n,
            )
            for n in range(2, most + 1)
        ]

    def _use_deal(self, seed: int, players: int, preset: str) -> None:
        """Deal (seed, players, preset) and start it in free play."""
        rules = Rules.preset(preset)
        game = Game.deal(rules, players, seed, dealer=players - 1)
        self._seed, self._deal_players, self._deal_preset = seed, players, preset
        self._sealed = (
            None
            if self._hot_seat
            else seal_deal(
                {"seed": seed, "players": players, "preset": preset, "level": self._level}
            )
        )
        controller = self.play
        controller.hot_seat = self._hot_seat
        controller.scoring = not self._hot_seat
        controller.typed_names = list(self._names)
        controller.bot = page_bot(self._level)
        controller.lesson = game_lesson(rules, players, preset, game, hot_seat=self._hot_seat)
        controller.start_game = lambda: Game.deal(rules, players, seed, dealer=players - 1)
        controller.restart()
        controller.continue_free_play()

    def new_game(self) -> None:
        """Deal a new game with the chosen mode, players, level, rules and names."""
        preset = str(self.preset.value)
        players = int(self.players.value)
        rules = Rules.preset(preset)
        players = max(2, min(players, rules.max_players, 6))
        self._hot_seat = self.mode.value == "hotseat"
        self._level = str(self.level.value)
        self._names = [_clean_name(box.value) for box in self.name_boxes]
        self._use_deal(random.randrange(_MAX_SEED), players, preset)

    def page_title(self) -> str:
        return self.i18n.gettext("Play a whole game")

    def resume_state(self) -> dict[str, Any]:
        """The sealed deal and the game's moves (nothing without a server key, nothing in
        hot-seat)."""
        if not hasattr(self, "deal") or self._sealed is None or self._hot_seat:
            return {}
        return {"deal": self._sealed, "game": self.controller.resume_state()}

    def resume(self, state: object) -> bool:
        """Deal the sealed game again and replay its moves; ``False`` (nothing changed)
        when the deal was not sealed by this server or the moves do not fit it."""
        if not isinstance(state, dict) or set(state) != {"deal", "game"}:
            return False
        deal = _valid_deal(unseal_deal(state["deal"]))
        if deal is None:
            return False
        seed, players, preset, level = deal
        rules = Rules.preset(preset)
        dealt = Game.deal(rules, players, seed, dealer=players - 1)
        lesson = game_lesson(rules, players, preset, dealt)
        controller = self.play
        saved = (controller.lesson, controller.start_game, controller.hot_seat, controller.bot)
        saved_scoring = controller.scoring
        # replayable from its position:
        controller.lesson, controller.start_game = lesson, lesson.start
        controller.hot_seat, controller.scoring = False, True
        controller.bot = page_bot(level)
        if not controller.resume(state["game"]):
            controller.lesson, controller.start_game, controller.hot_seat, controller.bot = saved
            controller.scoring = saved_scoring
            return False
        controller.start_game = lambda: Game.deal(rules, players, seed, dealer=players - 1)
        self._seed, self._deal_players, self._deal_preset = seed, players, preset
        self._level, self._hot_seat = level, False
        self._sealed = state["deal"]
        with self.widget.hold_sync():
            self.mode.value = "computer"
            self.level.value = level
            self.preset.value = preset
            self.players.value = players
        self.render()
        return True

    def table_snapshot(self) -> dict[str, Any]:
        view = super().table_snapshot()
        ctl = self.controller
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
        finally:
            self._syncing = False

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
            self.level.layout.display = "none" if hot else ""
            self.level_about.value = (
                ""
                if hot
                else f"<p class='durak-level-line'>{escape(level_description(str(level), tr))}</p>"
            )
            self.level_about.layout.display = "none" if hot else ""
            self.preset.description = tr.gettext("Rules")
            chosen = self.preset.value  # new options reset the value: keep the learner's
            self.preset.options = [(preset_name(p, tr), p) for p in PRESETS]
            self.preset.value = chosen
            count = int(self.players.value)
            for i, box in enumerate(self.name_boxes):
                box.placeholder = tr.gettext(NAMES[i])
                box.description = tr.gettext("Player {n}", n=i + 1)
                box.layout.display = "" if hot and i < count else "none"
            self.names_box.layout.display = "" if hot else "none"
            self.restart.description = tr.pgettext("button", "Same deal again")
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
                self.cover.layout.display = ""
                self.stage.add_class("durak-covered")
            else:
                self.cover_text.value = ""
                self.cover.layout.display = "none"
                self.stage.remove_class("durak-covered")
            over = ctl.game.outcome is not None
            self.review.value = review_html(ctl.decisions, tr) if over and not ctl.hot_seat else ""

    def play_again(self) -> None:
        """The result panel's button: a new deal."""
        self.new_game()

    def again_label(self, tr: Gettext) -> str:
        return tr.pgettext("button", "New game")

    def restart_lesson(self) -> None:
        """The same deal again, from the first card."""
        self.controller.restart()
        self.controller.continue_free_play()


def _clean_name(name: object) -> str:
    """A typed name: one line, trimmed, at most :data:`MAX_NAME` characters ("" = default)."""
    text = " ".join(str(name).split()) if isinstance(name, str) else ""
    return text[:MAX_NAME]
