"""The lesson controller: owns the game, turns clicks into engine actions and refusals into
explanations, walks through a lesson's steps, scores it, and renders the view models.

Nothing here draws anything, and nothing here applies a rule: the engine decides what is
legal; the controller decides what the learner is asked to do and what to say about it.
Every text is produced at render time through the current language, so switching language
re-renders everything, messages included.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from durak_core import (
    Action,
    ActionKind,
    Card,
    CardError,
    Event,
    EventKind,
    Game,
    IllegalAction,
    Phase,
    Rules,
    observe,
)

from .explain import explain, narrate
from .i18n import Gettext, I18n
from .lessons import Lesson, Step, comparison_game
from .names import (
    Role,
    Term,
    action_label,
    card_count,
    card_full,
    player_name,
    rank_symbol,
    role_name,
    suit_name,
    term,
    you_label,
)
from .opponent import choose
from .progress import stored_stars
from .view_model import ActionButton, CardView, Click, Message, PairView, SeatView, TableView

__all__ = ["RESUME_VERSION", "Comparison", "LessonController", "PanelView", "stars_for"]

Text = Callable[[Gettext], str]
MessageKind = Literal["info", "error", "success", "question"]

RESUME_VERSION: Final = 1
"""Version of :meth:`LessonController.resume_state`'s snapshot."""
_RESUME_KEYS: Final = frozenset(
    {"v", "lesson", "step", "done", "completed", "mistakes", "hinted", "hint", "free", "actions"}
)
_MAX_ACTIONS: Final = 2_000
"""More actions than any game can have (52 cards, 6 players)."""
_MAX_NOTATION: Final = 16
_MAX_MISTAKES: Final = 100_000


def stars_for(par: int, mistakes: int, hints: int) -> int:
    """Stars for a finished lesson, as in lichess Learn: three for a clean run, two for a few
    slips (at most a third of the lesson's decisions, and at least one), one otherwise."""
    slips = mistakes + hints
    if slips == 0:
        return 3
    return 2 if slips <= max(1, par // 3) else 1


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """One action replayed under both rule sets: ``None`` means legal."""

    action: Action
    ours: IllegalAction | None
    theirs: IllegalAction | None


@dataclass(frozen=True, slots=True)
class Comparison:
    """The same moves under the lesson's rules and another rule set."""

    preset: str
    rows: tuple[ComparisonRow, ...]

    @property
    def first_difference(self) -> int | None:
        for i, row in enumerate(self.rows):
            if (row.ours is None) != (row.theirs is None):
                return i
        return None


class PanelView(dict[str, Any]):
    """The lesson panel's snapshot (title, step text, choices, buttons…), all text localized."""


class LessonController:
    """Runs one lesson for one learner. ``on_change`` callbacks fire after every change."""

    def __init__(
        self,
        lesson: Lesson,
        i18n: I18n,
        *,
        seed: int = 0,
        hints: bool = False,
        start: Callable[[], Game] | None = None,
        navigation: bool = True,
    ) -> None:
        self.lesson = lesson
        self.i18n = i18n
        self.hints = hints
        self.navigation = navigation
        """``False`` on pages without Back, Hint and Next (the full-game page): the controller
        then refuses them even when a forged click asks (never trust a hidden button)."""
        self._start = start or lesson.start
        self._rng = random.Random(seed)
        self._listeners: list[Callable[[], None]] = []
        self.progress: dict[str, Any] = {}
        self._reset()

    # ------------------------------------------------------------------ state

    def _reset(self) -> None:
        self.game: Game = self._start()
        self.index = 0
        self.entries: list[int] = []
        """Actions played before each step was entered (for Back)."""
        self.mistakes = 0
        self.hints_used = 0
        self._hinted_steps: set[int] = set()
        self.completed = False
        self.free_play = False
        self.selected: Card | None = None
        self.target: Card | None = None
        self._message: tuple[MessageKind, Text] | None = None
        self.message_id = 0
        self.explained: Card | None = None
        self.hint_shown = False
        self.answer: int | None = None
        self.step_done = False
        self.comparison: Comparison | None = None
        self.since = self.game.event_count
        self._enter()

    @property
    def message(self) -> tuple[MessageKind, Text] | None:
        """The feedback line: its kind and a function that words it in a language."""
        return self._message

    @message.setter
    def message(self, value: tuple[MessageKind, Text] | None) -> None:
        self._message = value
        if value is not None:
            self.message_id += 1

    def on_change(self, callback: Callable[[], None]) -> None:
        self._listeners.append(callback)

    def _changed(self) -> None:
        for callback in list(self._listeners):
            callback()

    @property
    def step(self) -> Step | None:
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) and not self.free_play else None

    @property
    def you(self) -> int:
        return self.lesson.you

    def names(self, tr: Gettext) -> list[str]:
        """Seat names in ``tr``'s language: a lesson's names are msgids too («Ана» in
        Russian), the learner is "You", and an unnamed seat "Player N"."""
        return [
            tr.gettext(name)
            if name
            else (you_label(tr) if seat == self.you else player_name(seat, tr))
            for seat, name in enumerate(self.lesson.players)
        ]

    def stars(self) -> int:
        return stars_for(self.lesson.par, self.mistakes, self.hints_used)

    # ------------------------------------------------------------------ steps

    def _enter(self) -> None:
        """Enter the current step: play automatic moves, prepare comparisons."""
        self.entries = self.entries[: self.index]
        self.entries.append(len(self.game.history))
        self.since = self.game.event_count
        self.selected = self.target = self.explained = None
        self.hint_shown = False
        self.answer = None
        self.comparison = None
        self.message = None
        step = self.step
        if step is None:
            self._finish()
            return
        self.step_done = step.kind in ("say", "auto", "compare")
        if step.kind == "auto":
            for action in step.play:
                self.game.play(action)
        elif step.kind == "compare":
            self.comparison = self._compare(step)

    def _finish(self) -> None:
        if not self.completed:
            self.completed = True
            lesson_id = self.lesson.id
            stars = self.stars()
            if stars > stored_stars(self.progress, lesson_id):
                self.progress = {**self.progress, lesson_id: {"stars": stars}}
        stars = self.stars()
        self.message = (
            "success",
            lambda tr: tr.ngettext(
                "Lesson complete: {n} star!", "Lesson complete: {n} stars!", stars
            ),
        )

    # What the panel offers now. Every handler re-checks these: a click can be forged.

    def can_next(self) -> bool:
        return self.navigation and self.step_done and not self.completed and not self.free_play

    def can_back(self) -> bool:
        return self.navigation and (self.index > 0 or self.free_play)

    def can_hint(self) -> bool:
        step = self.step
        return (
            self.navigation
            and step is not None
            and step.kind in ("move", "question")
            and not self.step_done
        )

    def can_free_play(self) -> bool:
        return self.lesson.free_play and self.game.outcome is None and not self.free_play

    def next(self) -> None:
        """Go on to the next step (when the current one is done)."""
        if not self.can_next():
            return
        self.index += 1
        self._enter()
        self._changed()

    def back(self) -> None:
        """Go back one step, restoring the position it started from."""
        if not self.can_back():
            return
        if self.free_play:
            self.free_play = False
            self.index = min(self.index, len(self.lesson.steps) - 1)
        elif self.index == 0:
            return
        else:
            self.index -= 1
        self.completed = False
        target = self.entries[self.index]
        while len(self.game.history) > target:
            self.game.undo()
        self._enter()
        self._changed()

    def restart(self) -> None:
        progress = self.progress
        self._reset()
        self.progress = progress
        self._changed()

    def hint(self) -> None:
        """Show the step's hint (and the card it points at); costs a star point once per step."""
        step = self.step
        if step is None or not self.can_hint():
            return
        if self.index not in self._hinted_steps:
            self._hinted_steps.add(self.index)
            self.hints_used += 1
        self.hint_shown = True
        hint = step.hint
        if hint:
            self.message = ("info", lambda tr: tr.gettext(hint))
        else:
            self.message = ("info", lambda tr: tr.gettext("Look at the highlighted card."))
        self._changed()

    def _enter_free_play(self) -> None:
        """Switch to free play from the current position and say so."""
        self.free_play = True
        self.selected = self.target = self.explained = None
        self.since = self.game.event_count
        self.message = (
            "info",
            lambda tr: tr.gettext(
                "Free play: the others move by themselves. Your turn when the table waits for you."
            ),
        )

    def continue_free_play(self) -> None:
        """Play the rest of the deal from here; the other seats move by themselves."""
        if not self.can_free_play():
            return
        self._enter_free_play()
        self._run_opponents()
        self._changed()

    def answer_question(self, choice: int) -> None:
        step = self.step
        if step is None or step.kind != "question" or self.step_done:
            return
        if not 0 <= choice < len(step.choices):
            return
        picked = step.choices[choice]
        self.answer = choice
        explanation = picked.explain
        if picked.correct:
            self.step_done = True
            self.message = (
                "success",
                lambda tr: _join(
                    tr, tr.gettext("Right!"), tr.gettext(explanation) if explanation else ""
                ),
            )
        else:
            self.mistakes += 1
            self.message = (
                "error",
                lambda tr: _join(
                    tr,
                    tr.gettext("Not quite."),
                    tr.gettext(explanation) if explanation else tr.gettext("Try again."),
                ),
            )
        self._changed()

    # ------------------------------------------------------------------ resume

    def resumable(self) -> bool:
        """The game starts from the lesson's own position, so it can be rebuilt from the
        actions alone. A game from another ``start`` (a deal) cannot: its deal is secret and
        is not in :meth:`resume_state`; the full-game page seals its deal itself and sets the
        lesson and start back before resuming."""
        return bool(self._start == self.lesson.start)

    def resume_state(self) -> dict[str, Any]:
        """A small JSON snapshot to start again where the learner was (see :meth:`resume`):
        the step, whether it is done, the score, the free-play flag and the game's actions
        in notation. Everything in it is public: the moves were all played face up."""
        return {
            "v": RESUME_VERSION,
            "lesson": self.lesson.id,
            "step": self.index,
            "done": self.step_done,
            "completed": self.completed,
            "mistakes": self.mistakes,
            "hinted": sorted(self._hinted_steps),
            "hint": self.hint_shown,
            "free": self.free_play,
            "actions": [str(action) for action in self.game.history],
        }

    def resume(self, state: object) -> bool:
        """Rebuild the lesson from :meth:`resume_state`'s ``state``: restart, then replay
        every step and every action through the lesson and the engine. Anything invalid
        (wrong types or bounds, another lesson, a move the engine or the step refuses)
        leaves everything exactly as it was and returns ``False``. Listeners are told once,
        on success."""
        parsed = self._parse_resume(state)
        if parsed is None or not self.resumable():
            return False
        saved = dict(self.__dict__)
        listeners, self._listeners = self._listeners, []
        try:
            ok = self._replay(*parsed)
        except Exception:  # a bad state must never break the page: just refuse it
            ok = False
        finally:
            self._listeners = listeners
        if not ok:
            self.__dict__.clear()
            self.__dict__.update(saved)
            return False
        self._changed()
        return True

    def _parse_resume(
        self, state: object
    ) -> tuple[int, bool, bool, int, frozenset[int], bool, bool, list[Action]] | None:
        if not isinstance(state, dict) or set(state) != _RESUME_KEYS:
            return None
        steps = len(self.lesson.steps)
        step, mistakes = state["step"], state["mistakes"]
        hinted, actions = state["hinted"], state["actions"]
        flags = [state[key] for key in ("done", "completed", "hint", "free")]
        if (
            state["v"] != RESUME_VERSION
            or state["lesson"] != self.lesson.id
            or type(step) is not int
            or not 0 <= step <= steps
            or type(mistakes) is not int
            or not 0 <= mistakes <= _MAX_MISTAKES
            or not all(type(flag) is bool for flag in flags)
            or not isinstance(hinted, list)
            or len(hinted) > steps
            or not all(type(i) is int and 0 <= i < steps for i in hinted)
            or len(set(hinted)) != len(hinted)
            or not isinstance(actions, list)
            or len(actions) > _MAX_ACTIONS
            or not all(isinstance(a, str) and len(a) <= _MAX_NOTATION for a in actions)
        ):
            return None
        try:
            played = [Action.parse(a) for a in actions]
        except (ValueError, CardError):
            return None
        done, completed, hint, free = flags
        return step, done, completed, mistakes, frozenset(hinted), hint, free, played

    def _replay(
        self,
        index: int,
        done: bool,
        completed: bool,
        mistakes: int,
        hinted: frozenset[int],
        hint: bool,
        free: bool,
        actions: list[Action],
    ) -> bool:
        """Walk the lesson to step ``index`` the way a learner does, taking the learner's
        moves from ``actions``; then free play the rest. ``False`` when anything disagrees."""
        steps = self.lesson.steps
        if completed != (index == len(steps)):
            return False
        progress = self.progress
        self._reset()
        self.progress = progress
        # the score first: finishing the lesson on the way records its stars
        self.mistakes = mistakes
        self._hinted_steps = set(hinted)
        self.hints_used = len(hinted)
        moves = iter(actions)
        while True:
            played = len(self.game.history)
            if list(self.game.history) != actions[:played]:
                return False
            moves = iter(actions[played:])
            if self.index == index or self.completed:
                break
            step = self.step
            assert step is not None
            if step.kind == "move":
                if not self._replay_move(next(moves, None)):
                    return False
            elif step.kind == "question":
                self._replay_answer(step)
            self.index += 1
            self._enter()
        if self.index != index or self.completed != completed:
            return False
        step = self.step
        if done and step is not None and step.kind in ("move", "question"):
            if step.kind == "move":
                if not self._replay_move(next(moves, None)):
                    return False
            else:
                self._replay_answer(step)
        if self.step_done != done and not completed:
            return False
        if not free and len(self.game.history) != len(actions):
            return False
        if hint:
            if step is None or done or self.index not in hinted:
                return False
            self.hint_shown = True
            text = step.hint
            self.message = (
                "info",
                (lambda tr: tr.gettext(text))
                if text
                else (lambda tr: tr.gettext("Look at the highlighted card.")),
            )
        if free:
            return self._replay_free_play(actions[len(self.game.history) :])
        return True

    def _replay_move(self, action: Action | None) -> bool:
        step = self.step
        if action is None or step is None or action.seat != self.you:
            return False
        if self.game.why_illegal(action) is not None or not self._expected(step, action):
            return False
        self._try(action)
        return self.step_done and self.game.history[-1] == action

    def _replay_answer(self, step: Step) -> None:
        self.answer_question(next(i for i, c in enumerate(step.choices) if c.correct))

    def _replay_free_play(self, actions: list[Action]) -> bool:
        if not self.can_free_play():
            return False
        self._enter_free_play()
        for action in actions:
            if self.game.why_illegal(action) is not None:
                return False
            if action.seat == self.you:
                self.since = self.game.event_count
                self.message = None
            self.game.play(action)
        if self.game.outcome is not None:
            self._game_over_message(self.game.outcome.durak)
        else:
            self._run_opponents()
        return True

    # ------------------------------------------------------------------ clicks

    def click(self, click: Click) -> None:
        """A validated click from the table widget."""
        kind = click.get("type")
        if kind == "card":
            try:
                card = Card.parse(str(click.get("id", "")))
            except CardError:
                return
            if click.get("zone") == "table":
                self._click_table(card)
            elif click.get("zone") == "hand":
                self._click_hand(card)
            elif click.get("zone") == "seat":
                self._click_seat(card)
        elif kind == "action":
            self._click_action(str(click.get("id", "")))
        self._changed()

    def _accepting_moves(self) -> bool:
        step = self.step
        if self.free_play:
            return self.game.outcome is None
        return step is not None and step.kind == "move" and not self.step_done

    def _not_now(self) -> None:
        step = self.step
        if self.completed:
            self.message = (
                "info",
                lambda tr: tr.gettext("The lesson is over. Restart it, or play on from here."),
            )
        elif step is not None and step.kind == "question":
            self.message = ("question", lambda tr: tr.gettext("First answer the question."))
        else:
            self.message = ("info", lambda tr: tr.gettext("Watch this step, then press Next."))

    def _click_hand(self, card: Card) -> None:
        if not self._accepting_moves():
            self._not_now()
            return
        game, you = self.game, self.you
        s = game.state
        unbeaten = [a for a, d in game.table if d is None]
        if game.phase is Phase.BOUT and you == s.defender and unbeaten and not s.taking:
            if self.target is not None:
                self._try(Action.beat(you, card, self.target))
                return
            beatable = [t for t in unbeaten if game.is_legal(Action.beat(you, card, t))]
            transfer = Action.transfer(you, card)
            can_transfer = game.is_legal(transfer)
            # In perevodnoy a card of the attack's rank that beats nothing is meant as a
            # transfer: if that is refused, say why (too late, no room) rather than "can't beat".
            wants_transfer = game.rules.transfer and card.rank is game.table[0][0].rank
            if (can_transfer or wants_transfer) and not beatable:
                self._try(transfer)
            elif len(beatable) == 1 and not can_transfer:
                self._try(Action.beat(you, card, beatable[0]))
            elif not beatable:
                self._try(Action.beat(you, card, unbeaten[0]))
            else:
                self.selected = card
                self.message = (
                    "question",
                    (lambda tr: tr.gettext("Now click the attack card you want to beat with it."))
                    if not can_transfer
                    else (
                        lambda tr: tr.gettext(
                            "Click the attack card to beat with it, "
                            "or press Transfer to pass the attack on."
                        )
                    ),
                )
            return
        if game.phase is Phase.LEAD:
            self._try(Action.lead(you, card))
        else:
            self._try(Action.throw(you, card))

    def shown_seats(self) -> frozenset[int]:
        """Other seats whose hands the table shows face up: the lesson's ``show`` seats while
        the lesson runs; none in free play, which is a real game from then on."""
        if self.free_play:
            return frozenset()
        return self.lesson.show - {self.you}

    def _click_seat(self, card: Card) -> None:
        """A click on another player's face-up card: say whose it is (only when the table
        shows it there: naming the holder of a hidden card would give it away)."""
        s = self.game.state
        owner = next((seat for seat in self.shown_seats() if card in s.hands[seat]), None)
        self.selected = self.target = None
        if owner is None:
            self.message = (
                "info",
                lambda tr: tr.gettext("You can only play cards from your own hand."),
            )
            return
        names = self.names
        self.message = (
            "info",
            lambda tr: tr.gettext(
                "That is {player}'s card: you can only play cards from your own hand.",
                player=names(tr)[owner],
            ),
        )

    def _click_table(self, card: Card) -> None:
        if not self._accepting_moves():
            self._not_now()
            return
        game, you = self.game, self.you
        if you != game.defender:
            return  # a table card is a target only for the defender
        if self.selected is not None:
            self._try(Action.beat(you, self.selected, card))
        else:
            self.target = card
            self.message = (
                "question",
                lambda tr: tr.gettext("Now click the card from your hand to beat it with."),
            )

    def _click_action(self, button: str) -> None:
        if not self._accepting_moves():
            self._not_now()
            return
        you = self.you
        if button == "take":
            self._try(Action.take(you))
        elif button == "pass":
            self._try(Action.pass_(you))
        elif button == "swap":
            self._try(Action.swap(you))
        elif button == "transfer" and self.selected is not None:
            self._try(Action.transfer(you, self.selected))

    def _try(self, action: Action) -> None:
        """Check the learner's action against the rules and the step, then play or explain."""
        self.selected = self.target = None
        refusal = self.game.why_illegal(action)
        step = self.step
        specific = next((w for w in step.wrong if w.play == action), None) if step else None
        if refusal is not None:
            if not self.free_play:
                self.mistakes += 1
            self.explained = action.card
            rules, names, you = self.game.rules, self.names, self.you
            extra = specific.explain if specific else ""
            self.message = (
                "error",
                lambda tr: _join(
                    tr,
                    explain(refusal, tr, players=names(tr), you=you, rules=rules),
                    tr.gettext(extra) if extra else "",
                ),
            )
            return
        if not self.free_play and step is not None and not self._expected(step, action):
            self.mistakes += 1
            self.explained = action.card
            extra = specific.explain if specific else ""
            self.message = (
                "error",
                lambda tr: (
                    tr.gettext(extra)
                    if extra
                    else tr.gettext(
                        "That move is allowed, but it is not what this step asks for. "
                        "Read the task again, or ask for a hint."
                    )
                ),
            )
            return
        self.explained = None
        self.since = self.game.event_count
        self.game.play(action)
        if self.free_play:
            self.message = None
            self._run_opponents()
            return
        assert step is not None
        self.step_done = True
        note = step.note
        self.message = (
            "success",
            lambda tr: tr.gettext(note) if note else tr.gettext("Well done!"),
        )

    def _expected(self, step: Step, action: Action) -> bool:
        if step.expect:
            return action in step.expect
        return action.seat == self.you and (
            step.accept == "any" or action.kind.value == step.accept
        )

    def _run_opponents(self, limit: int = 400) -> None:
        """Let the other seats move until the learner may act or the game ends."""
        game, you = self.game, self.you
        for _ in range(limit):
            if game.outcome is not None:
                self._game_over_message(game.outcome.durak)
                return
            mine = [
                a for a in game.legal_actions() if a.seat == you and a.kind is not ActionKind.SWAP
            ]
            if mine:
                return
            seats = [seat for seat in game.acting_seats() if seat != you]
            if not seats:
                return
            seat = seats[0]
            game.play(choose(observe(game, seat), self._rng))

    def _game_over_message(self, durak: int | None) -> None:
        names, you = self.names, self.you

        def text(tr: Gettext) -> str:
            if durak is None:
                return tr.gettext("Game over: it's a draw.")
            if durak == you:
                return tr.gettext("Game over: you are the durak this time.")
            return tr.gettext("Game over: {player} is the durak.", player=names(tr)[durak])

        self.message = ("success" if durak != you else "info", text)

    # ------------------------------------------------------------------ comparison

    def _compare(self, step: Step) -> Comparison:
        ours = comparison_game(self.lesson, self.game, self.game.rules)
        theirs = comparison_game(self.lesson, self.game, step.rules or self.game.rules)
        return compare_games(ours, theirs, step.play, step.preset)

    # ------------------------------------------------------------------ views

    def _card(self, card: Card, tr: Gettext, mark: str = "") -> CardView:
        trump = card.suit is self.game.trump
        label = card_full(card, tr)
        if trump:
            label = tr.gettext("{card} (trump)", card=label)
        view: CardView = {
            "id": card.ascii(),
            "rank": rank_symbol(card.rank, tr),
            "suit": card.suit.letter,  # type: ignore[typeddict-item]
            "symbol": card.suit.symbol,
            "red": card.suit.is_red,
            "trump": trump,
            "label": label,
        }
        if mark:
            view["mark"] = mark  # type: ignore[typeddict-item]
        return view

    def _learner_actions(self) -> list[Action]:
        if not self._accepting_moves():
            return []
        return [a for a in self.game.legal_actions() if a.seat == self.you]

    def _hint_action(self) -> Action | None:
        step = self.step
        if not self.hint_shown or step is None or step.kind != "move":
            return None
        if step.expect:
            return step.expect[0]
        return next((a for a in self._learner_actions() if self._expected(step, a)), None)

    def table_view(self) -> TableView:
        tr = self.i18n
        game, you = self.game, self.you
        s = game.state
        names = self.names(tr)
        legal = self._learner_actions()
        hinted = self._hint_action()
        new = {
            e.cards[0]
            for e in game.events_since(self.since)
            if e.kind in (EventKind.LEAD, EventKind.THROW_IN, EventKind.BEAT, EventKind.TRANSFER)
            and e.cards
        }
        playable = {a.card for a in legal if a.card is not None}

        def mark(card: Card) -> str:
            if card == self.selected:
                return "selected"
            if hinted is not None and card == hinted.card:
                return "hint"
            if card == self.explained:
                return "explain"
            if self.hints and card in playable:
                return "playable"
            return ""

        actors = set(game.acting_seats()) if game.outcome is None else set()
        seats: list[SeatView] = []
        for seat in range(game.players):
            role: str = ""
            if not s.active[seat]:
                role = "out"
            elif game.outcome is not None:
                role = "durak" if game.outcome.durak == seat else ""
            elif seat == s.attacker:
                role = "attacker"
            elif seat == s.defender:
                role = "defender"
            elif seat in game.throw_in_turn():
                role = "thrower"
            view: SeatView = {
                "seat": seat,
                "name": names[seat],
                "count": len(s.hands[seat]),
                "count_label": card_count(len(s.hands[seat]), tr),
                "role": role,  # type: ignore[typeddict-item]
                "role_label": role_name(Role(role), tr) if role else "",
                "you": seat == you,
                "acting": seat in actors,
            }
            if seat in self.shown_seats():
                view["cards"] = [self._card(c, tr) for c in s.hands[seat]]
            seats.append(view)
        defender_turn = you == s.defender and game.phase is Phase.BOUT and not s.taking
        pairs: list[PairView] = [
            {
                "attack": self._card(
                    a, tr, "selected" if a == self.target else ("new" if a in new else "")
                ),
                "defence": self._card(d, tr, "new" if d in new else "") if d else None,
                "selectable": defender_turn and d is None,
            }
            for a, d in game.table
        ]
        kinds = {a.kind for a in legal}
        actions: list[ActionButton] = []
        if you == s.defender and game.phase is not Phase.OVER:
            actions.append(
                {
                    "id": "take",
                    "label": action_label(ActionKind.TAKE, tr),
                    "enabled": ActionKind.TAKE in kinds,
                }
            )
        else:
            actions.append(
                {
                    "id": "pass",
                    "label": action_label(ActionKind.PASS, tr, taking=s.taking),
                    "enabled": ActionKind.PASS in kinds,
                }
            )
        if self.selected is not None and game.is_legal(Action.transfer(you, self.selected)):
            actions.append(
                {"id": "transfer", "label": action_label(ActionKind.TRANSFER, tr), "enabled": True}
            )
        if ActionKind.SWAP in kinds:
            actions.append(
                {"id": "swap", "label": action_label(ActionKind.SWAP, tr), "enabled": True}
            )
        if hinted is not None:
            for button in actions:
                if button["id"] == hinted.kind.value:
                    button["hint"] = True
        turnup = s.turnup
        in_stock = bool(s.stock) and s.stock[0] is turnup
        cap = game.cap()
        message: Message | None = None
        if self.message is not None:
            message = {"kind": self.message[0], "text": self.message[1](tr), "id": self.message_id}
        return {
            "lang": tr.language,
            "labels": {
                "stock": term(Term.STOCK, tr),
                "discard": term(Term.DISCARD, tr),
                "trump": term(Term.TRUMP, tr),
                "table": term(Term.TABLE, tr),
                "hand": term(Term.HAND, tr),
                "open_ranks": tr.gettext("Ranks on the table"),
                "empty_table": tr.gettext("The table is empty."),
                "cap": tr.gettext("Attack cards"),
                "acting": tr.gettext("Playing now"),
                "no_stock": tr.gettext("The stock is used up"),
            },
            "seats": seats,
            "you": you,
            "hand": [self._card(c, tr, mark(c)) for c in s.hands[you]],
            "table": pairs,
            "stock_count": len(s.stock),
            "stock_label": card_count(len(s.stock), tr),
            "turnup": self._card(turnup, tr) if turnup is not None else None,
            "turnup_in_stock": in_stock,
            "trump_symbol": s.trump.symbol,
            "trump_name": suit_name(s.trump, tr),
            "discard_count": len(s.discard),
            "discard_label": card_count(len(s.discard), tr),
            "open_ranks": [rank_symbol(r, tr) for r in game.table_ranks()],
            "cap_label": tr.gettext("{n} of {cap}", n=cap.on_table, cap=cap.cap)
            if game.phase is Phase.BOUT
            else "",
            "actions": actions,
            "message": message,
            "narration": self._narration(tr),
            "hints": self.hints,
            "busy": False,
        }

    def _narration(self, tr: Gettext) -> str:
        events = [
            e
            for e in self.game.events_since(self.since)
            if e.kind not in (EventKind.PASS,) or e.seat != self.you
        ]
        names = self.names(tr)
        return " ".join(narrate(e, tr, players=names, you=self.you) for e in events[-6:])

    def panel_view(self) -> PanelView:
        tr = self.i18n
        lesson = self.lesson
        step = self.step
        total = len(lesson.steps)
        panel = PanelView(
            title=tr.gettext(lesson.title),
            summary=tr.gettext(lesson.summary),
            teaches=[tr.gettext(t) for t in lesson.teaches],
            step_label=tr.gettext("Step {n} of {total}", n=min(self.index + 1, total), total=total)
            if not self.free_play
            else tr.gettext("Free play"),
            text=tr.gettext(step.say) if step is not None and step.say else "",
            question=tr.gettext(step.question)
            if step is not None and step.kind == "question"
            else "",
            choices=[
                {
                    "label": tr.gettext(c.label),
                    "picked": self.answer == i,
                    "correct": c.correct and self.answer == i,
                }
                for i, c in enumerate(step.choices)
            ]
            if step is not None and step.kind == "question"
            else [],
            comparison=self._comparison_rows(tr),
            can_next=self.can_next(),
            can_back=self.can_back(),
            can_hint=self.can_hint(),
            can_free_play=self.can_free_play(),
            completed=self.completed,
            stars=self.stars() if self.completed else 0,
            best_stars=stored_stars(self.progress, lesson.id),
            mistakes=self.mistakes,
            hints_used=self.hints_used,
        )
        return panel

    def _comparison_rows(self, tr: Gettext) -> dict[str, Any] | None:
        comparison = self.comparison
        if comparison is None:
            return None
        names = self.names(tr)
        you = self.you

        def verdict(refusal: IllegalAction | None, rules: Rules) -> str:
            if refusal is None:
                return tr.gettext("allowed")
            return explain(refusal, tr, players=names, you=you, rules=rules)

        step = self.step
        theirs_rules = step.rules if step is not None and step.rules else self.game.rules
        label = step.label if step is not None else ""
        return {
            # TRANSLATORS: heading of the column that replays moves under the lesson's rules.
            "ours": tr.gettext("This lesson's rules"),
            # TRANSLATORS: heading of the column that replays the same moves under other rules
            # (used when a lesson does not name them).
            "theirs": tr.gettext(label) if label else tr.gettext("Other rules"),
            "first_difference": comparison.first_difference,
            "rows": [
                {
                    "move": _describe_action(row.action, tr, names, you),
                    "ours": verdict(row.ours, self.game.rules),
                    "theirs": verdict(row.theirs, theirs_rules),
                    "ours_ok": row.ours is None,
                    "theirs_ok": row.theirs is None,
                }
                for row in comparison.rows
            ],
        }


def compare_games(ours: Game, theirs: Game, actions: Sequence[Action], label: str) -> Comparison:
    """Check every action under both games' rules, playing it where it is legal (so the two
    games may part ways); ``ours`` and ``theirs`` are changed."""
    rows = []
    for action in actions:
        a, b = ours.why_illegal(action), theirs.why_illegal(action)
        rows.append(ComparisonRow(action, a, b))
        if a is None:
            ours.play(action)
        if b is None:
            theirs.play(action)
    return Comparison(label, tuple(rows))


def _describe_action(action: Action, tr: Gettext, names: list[str], you: int) -> str:
    """A short localized description of an action, via the narration of its event."""
    card = action.card
    kinds = {
        ActionKind.LEAD: EventKind.LEAD,
        ActionKind.THROW: EventKind.THROW_IN,
        ActionKind.TAKE: EventKind.TAKE,
        ActionKind.PASS: EventKind.PASS,
    }
    if action.kind is ActionKind.BEAT and card is not None and action.target is not None:
        event = Event(EventKind.BEAT, action.seat, (card, action.target))
    elif action.kind in kinds:
        event = Event(kinds[action.kind], action.seat, (card,) if card else ())
    else:
        return action_label(action.kind, tr)
    return narrate(event, tr, players=names, you=you)


def _join(tr: Gettext, first: str, second: str) -> str:
    if not second:
        return first
    # TRANSLATORS: two sentences shown one after the other.
    return tr.gettext("{first} {second}", first=first, second=second)
