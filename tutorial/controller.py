"""The lesson controller: owns the game, turns clicks into engine actions and refusals into
explanations, walks through a lesson's steps, scores it, and renders the view models.

Nothing here draws anything, and nothing here applies a rule: the engine decides what is
legal; the controller decides what the learner is asked to do and what to say about it.
Every text is produced at render time through the current language, so switching language
re-renders everything, messages included.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, Literal

from durak_core import Action, ActionKind, Card, CardError, Game, IllegalAction, observe

from .clicks import button_action, hand_click, table_click
from .comparison import Comparison, compare_lesson
from .explain import explain
from .hints import Hint, explain_hint, hint
from .i18n import Gettext, I18n
from .lessons import Lesson, Step
from .move_log import MoveLog
from .names import action_label, player_name, you_label
from .opponent import choose
from .people import seat_name
from .progress import stored_stars
from .view_model import Click

__all__ = [
    "RESUME_VERSION",
    "LessonController",
    "MessageKind",
    "PanelView",
    "stars_for",
    "two_star_slips",
]

_INSTRUCTING = ("Click ", "Lead ")
"""How a lesson step's hint (its English source text) begins when it names the move."""

Text = Callable[[Gettext], str]
MessageKind = Literal["info", "error", "detour", "costly", "success", "question", "hint"]
"""``error``: refused by the rules; ``detour``: allowed, but not what this step is about;
``costly``: allowed, but it costs something the lesson points out; ``hint``: the computer's
advice and why (:meth:`LessonController.hint`)."""

RESUME_VERSION: Final = 1
"""Version of :meth:`LessonController.resume_state`'s snapshot."""
_RESUME_KEYS: Final = frozenset(
    {"v", "lesson", "step", "done", "completed", "mistakes", "hinted", "hint", "free", "actions"}
)
_MAX_ACTIONS: Final = 2_000
"""More actions than any game can have (52 cards, 6 players)."""
_MAX_NOTATION: Final = 16
_MAX_MISTAKES: Final = 100_000


def two_star_slips(par: int) -> int:
    """The most slips (mistakes plus hints) a run may have and still earn two stars: a third
    of the lesson's decisions, and at least one."""
    return max(1, par // 3)


def stars_for(par: int, mistakes: int, hints: int) -> int:
    """Stars for a finished lesson, as in lichess Learn: three for a clean run, two for a few
    slips (:func:`two_star_slips`), one otherwise."""
    slips = mistakes + hints
    if slips == 0:
        return 3
    return 2 if slips <= two_star_slips(par) else 1


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
        self.start_game: Callable[[], Game] = start or lesson.start
        """Sets the game up on (re)start: the lesson's position, or a deal (the play page)."""
        self._rng = random.Random(seed)
        self._seed = seed
        self.paced = False
        """``True`` when the page plays the others' moves one at a time, with a pause between
        them (:meth:`opponent_step`); ``False``: they all move at once after the learner."""
        self._listeners: list[Callable[[], None]] = []
        self.progress: dict[str, Any] = {}
        self.skipped = False
        """Steps of this run were played for the learner (:meth:`go_to`: a deep link, the
        presenter's "next"): the run earns no stars. Cleared by :meth:`restart`."""
        self._show_all = False
        self._reset()

    # ------------------------------------------------------------------ state

    def _reset(self) -> None:
        self.game: Game = self.start_game()
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
        self.advice: Hint | None = None
        """The computer's advice last shown (:meth:`hint`), while the position is the same."""
        self._advice_at: tuple[int, bool, frozenset[int]] = (-1, False, frozenset())
        self.answer: int | None = None
        self.step_done = False
        self.comparison: Comparison | None = None
        self.since = self.game.event_count
        self.log = MoveLog()
        """Free play's moves and the learner's refused tries, for the move log."""
        self._free_start = 0
        self._planned: tuple[Game, int, Action] | None = None
        self._wait_message = -1
        self._kept_at: tuple[int, int] | None = None
        """Where the learner chose to play a misdealt hand rather than ask for a new deal."""
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
        """Seat names in ``tr``'s language, each a :class:`~tutorial.people.PersonName` that
        sentences can agree with: a lesson's names are msgids too («Ана» in Russian), the
        learner is "You", and an unnamed seat "Player N"."""
        return [
            seat_name(name, tr)
            if name
            else (you_label(tr) if seat == self.you else player_name(seat, tr))
            for seat, name in enumerate(self.lesson.players)
        ]

    def stars(self) -> int:
        """The stars this run earns (none when steps were skipped)."""
        if self.skipped:
            return 0
        return stars_for(self.lesson.par, self.mistakes, self.hints_used)

    # ------------------------------------------------------------------ steps

    def _enter(self) -> None:
        """Enter the current step: play automatic moves, prepare comparisons."""
        self.entries = self.entries[: self.index]
        self.entries.append(len(self.game.history))
        self.since = self.game.event_count
        self.selected = self.target = self.explained = None
        self.hint_shown = False
        self.advice = None
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
            (
                lambda tr: tr.ngettext(
                    "Lesson complete: {n} star!", "Lesson complete: {n} stars!", stars
                )
            )
            if not self.skipped
            else (lambda tr: tr.gettext("End of the lesson.")),
        )

    # What the panel offers now. Every handler re-checks these: a click can be forged.

    def can_next(self) -> bool:
        return self.navigation and self.step_done and not self.completed and not self.free_play

    def can_back(self) -> bool:
        return self.navigation and (self.index > 0 or self.free_play)

    def can_hint(self) -> bool:
        """The panel's Hint: on a lesson's move or question step not yet done."""
        step = self.step
        return (
            self.navigation
            and step is not None
            and step.kind in ("move", "question")
            and not self.step_done
        )

    def can_advise(self) -> bool:
        """The table's Hint button: in free play (the full-game page too) whenever the
        learner may move. (The panel has no Hint button there.)"""
        # (not while the only choice is a new deal or the dealt cards: no engine move is
        # "keep", so the advice would call the new deal the only move)
        return self.free_play and bool(self.learner_actions()) and not self.may_keep_deal()

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
        self.skipped = False
        self._reset()
        self.progress = progress
        self._changed()

    def go_to(self, step: object, *, done: bool = False) -> bool:
        """Open step ``step`` (1-based, as in ``?step=``) the way a learner reaches it: start
        again, then walk the steps before it, playing their automatic moves, expected moves
        and right answers. ``done=True`` also plays step ``step``'s own move or answer (the
        presenter shows it). Steps played for the learner earn no stars (:attr:`skipped`).
        An invalid or out-of-range ``step`` opens the first step and returns ``False``."""
        steps = len(self.lesson.steps)
        valid = type(step) is int and 1 <= step <= steps
        target = step - 1 if valid and isinstance(step, int) else 0
        if not self.navigation or not self.resumable():
            return False
        progress = self.progress
        listeners, self._listeners = self._listeners, []
        try:
            ok = valid and self._walk_to(target, done)
        except Exception:  # a lesson the walk cannot follow: never break the page
            ok = False
        finally:
            self._listeners = listeners
        if not ok:
            self.skipped = False
            self._reset()
        self.progress = progress
        self._changed()
        return ok

    def _walk_to(self, target: int, done: bool) -> bool:
        self._reset()
        self.skipped = target > 0 or done
        while True:
            step = self.step
            if step is None:
                return False
            if self.index == target and not done:
                return True
            if step.kind == "move":
                move = self.expected_move(step)
                if not self._replay_move(move):
                    return False
            elif step.kind == "question" and not self.step_done:
                self._replay_answer(step)
            if self.index == target:
                return True
            self.index += 1
            self._enter()

    def expected_move(self, step: Step) -> Action | None:
        """The move a move step asks for: its first expected move that is legal now, else the
        first legal move of the kind it accepts."""
        legal = [a for a in self.game.legal_actions() if a.seat == self.you]
        expected = next((a for a in step.expect if a in legal), None)
        if expected is not None:
            return expected
        return next((a for a in legal if self._expected(step, a)), None)

    # Show every hand: for a presenter's demonstrations on a lesson page.

    def showing_all(self) -> bool:
        """Every hand is shown face up: only on lesson pages (never on the full-game page,
        whatever the browser sends) and never in free play, which is a real game."""
        return self._show_all and self.navigation and not self.free_play

    def set_show_all(self, on: bool) -> bool:
        """Switch "show all hands"; ``False`` (and off) where it is not allowed: on a page
        without navigation (the full-game page)."""
        allowed = self.navigation
        self._show_all = bool(on) and allowed
        self._changed()
        return allowed or not on

    def visible_seats(self) -> frozenset[int]:
        """Other seats whose cards the table shows: :meth:`shown_seats`, or every other seat
        while :meth:`showing_all`."""
        if self.showing_all():
            return frozenset(range(self.game.players)) - {self.you}
        return self.shown_seats()

    def hint(self) -> None:
        """Show a hint and highlight its card. On a move step, and in free play, the hint is
        the computer's advice with its reasons (:func:`tutorial.hints.hint`, from the
        learner's observation only; in a lesson, the best of the moves the step asks for),
        after the step's own hint text if it has one. It never plays the move. In a lesson
        a hint costs a star point once per step."""
        if self.can_hint() and self._show_hint():
            self._changed()

    def _show_hint(self) -> bool:
        step = self.step
        if not self.free_play:
            if step is None:
                return False
            if self.index not in self._hinted_steps:
                self._hinted_steps.add(self.index)
                self.hints_used += 1
        self.hint_shown = True
        text = step.hint if step is not None else ""
        advice = self._advise(step) if self.free_play or (step and step.kind == "move") else None
        if advice is not None:
            names, taking = self.names, self.game.taking

            # a step hint that names the move ("Click your 6♣.", "Lead your 8♣.") is not
            # followed by the same move in other words, only by why
            instructed = text.startswith(_INSTRUCTING)

            def words(tr: Gettext) -> str:
                why = explain_hint(
                    advice, tr, players=names(tr), taking=taking, instructed=instructed
                )
                return _join(tr, tr.gettext(text), why) if text else why

            self.message = ("hint", words)
        elif text:
            self.message = ("info", lambda tr: tr.gettext(text))
        else:
            self.message = ("info", lambda tr: tr.gettext("Look at the highlighted card."))
        return True

    def _advise(self, step: Step | None) -> Hint | None:
        """The computer's advice for the learner now (the same position gives the same
        advice: its random numbers come from the run's seed and the number of moves)."""
        legal = self.learner_actions()
        if not legal:
            return None
        played = len(self.game.history)
        shown = self.visible_seats()
        if self.advice is not None and self._advice_at == (played, self.free_play, shown):
            return self.advice
        among = None
        if step is not None and not self.free_play:
            among = [a for a in legal if self._expected(step, a)] or None
        rng = random.Random(self._seed * 1_000_003 + played)
        try:
            # the hands the table shows are known to the learner, so the judge knows them too
            obs = observe(self.game, self.you, shown=shown)
            advice = hint(obs, self.you, rng, among=among)
        except ValueError:
            return None
        self.advice, self._advice_at = advice, (played, self.free_play, shown)
        return advice

    def _enter_free_play(self) -> None:
        """Switch to free play from the current position and say so."""
        self.free_play = True
        self.selected = self.target = self.explained = None
        self.since = self.game.event_count
        self._free_start = len(self.game.history)
        self._planned = None
        # a fresh deal's log opens with the deal; a lesson's, with "you play on from here"
        self.log.start(self.game.events if not self.game.history else ())
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
        return bool(self.start_game == self.lesson.start)

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
        } | ({"skipped": True} if self.skipped else {})

    def resume(self, state: object) -> bool:
        """Rebuild the lesson from :meth:`resume_state`'s ``state``: restart, then replay
        every step and every action through the lesson and the engine. Anything invalid
        (wrong types or bounds, another lesson, a move the engine or the step refuses)
        leaves everything exactly as it was and returns ``False``. Listeners are told once,
        on success."""
        skipped = state.get("skipped", False) if isinstance(state, dict) else False
        if skipped is not True and skipped is not False:
            return False
        parsed = self._parse_resume(
            {k: v for k, v in state.items() if k != "skipped"} if isinstance(state, dict) else state
        )
        if parsed is None or not self.resumable():
            return False
        saved = dict(self.__dict__)
        listeners, self._listeners = self._listeners, []
        try:
            self.skipped = skipped  # before the replay: finishing on the way records no stars
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
        if hint and not free:
            if step is None or self.index not in hinted:
                return False
            if done:
                self.hint_shown = True  # asked for before the move or answer that followed
            else:
                self._show_hint()  # the step is already counted as hinted: no second point
        if free:
            if not self._replay_free_play(actions[len(self.game.history) :]):
                return False
            # free play's Hint, shown for this very position (a move clears it)
            return not hint or (self.can_advise() and self._show_hint())
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
            self._play(action)
        if self.game.outcome is not None:
            self._game_over_message(self.game.outcome.durak, self.game.outcome.losers)
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
            return self.game.outcome is None and not self.opponents_pending()
        return step is not None and step.kind == "move" and not self.step_done

    def _not_now(self) -> None:
        step = self.step
        if self.free_play:
            self._not_your_turn()
        elif self.completed:
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
        intent = hand_click(self.game, self.you, card, self.target)
        if intent.play is not None:
            self._try(intent.play)
            return
        self.selected = card
        text: Text
        if intent.transfer and intent.flash:

            def text(tr: Gettext) -> str:
                return tr.gettext(
                    "Click the attack card to beat with it, press “{transfer}” to pass the "
                    "attack on with it, or “{flash}” to pass it on by showing it.",
                    transfer=action_label(ActionKind.TRANSFER, tr),
                    flash=action_label(ActionKind.FLASH, tr),
                )

        elif intent.flash:

            def text(tr: Gettext) -> str:
                return tr.gettext(
                    "Click the attack card to beat with it, or press “{flash}” to pass the "
                    "attack on by showing it (you keep it).",
                    flash=action_label(ActionKind.FLASH, tr),
                )

        elif intent.transfer:

            def text(tr: Gettext) -> str:
                return tr.gettext(
                    "Click the attack card to beat with it, "
                    "or press Transfer to pass the attack on."
                )

        else:

            def text(tr: Gettext) -> str:
                return tr.gettext("Now click the attack card you want to beat with it.")

        self.message = ("question", text)

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
        owner = next((seat for seat in self.visible_seats() if card in s.hands[seat]), None)
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
        intent = table_click(self.game, self.you, card, self.selected)
        if intent is None:
            return  # a table card is a target only for a defender facing unbeaten cards
        if intent.play is not None:
            self._try(intent.play)
            return
        self.target = card
        self.message = (
            "question",
            lambda tr: tr.gettext("Now click the card from your hand to beat it with."),
        )

    def _click_action(self, button: str) -> None:
        if button == "hint":
            if not (self.can_advise() and self._show_hint()):
                self._not_now()
            return
        if not self._accepting_moves():
            self._not_now()
            return
        if button == "keep":
            if self.may_keep_deal():
                self._kept_at = (id(self.game), len(self.game.history))
                self.message = None
                self._run_opponents()
            return
        action = button_action(self.you, button, self.selected)
        if action is None:
            return
        refusal = self.game.why_illegal(action)
        if refusal is not None:
            # A greyed-out button (the table draws it, not disabled, so that a click on it
            # can say why): a neutral explanation, never a mistake, not in the move log;
            # the learner could see it was greyed (N13). A lesson that lists this press
            # among a step's wrong answers adds its own words after the rule's.
            step = self.step
            listed = next((w for w in step.wrong if w.play == action), None) if step else None
            self.selected = self.target = None
            self.message = ("info", self._refusal_words(refusal, listed.explain if listed else ""))
            return
        self._try(action)

    def _refusal_words(self, refusal: IllegalAction, extra: str = "") -> Text:
        """Why the rules refuse an action, then the lesson's own words about it (``extra``,
        a msgid), in the language asked for."""
        rules, names, you = self.game.rules, self.names, self.you
        return lambda tr: _join(
            tr,
            explain(refusal, tr, players=names(tr), you=you, rules=rules),
            tr.gettext(extra) if extra else "",
        )

    def _try(self, action: Action) -> None:
        """Check the learner's action against the rules and the step, then play or explain.

        Three kinds of feedback: a move the rules refuse is an ``error`` (the rule and its
        numbers; a mistake). A legal move the step does not ask for is a ``detour`` (neutral,
        never a mistake), or ``costly`` when the lesson says it costs something (a mistake
        only where the lesson says so)."""
        self.selected = self.target = None
        refusal = self.game.why_illegal(action)
        step = self.step
        specific = next((w for w in step.wrong if w.play == action), None) if step else None
        extra = specific.explain if specific else ""
        if refusal is not None:
            if self.free_play:
                self.log.refused(self.you, refusal)
            else:
                self.mistakes += 1
            self.explained = action.card
            self.message = ("error", self._refusal_words(refusal, extra))
            return
        if not self.free_play and step is not None and not self._expected(step, action):
            costly = specific is not None and specific.feedback == "costly"
            # a costly move counts as a mistake only where the lesson says so, and then the
            # message says it too, so the finishing panel's count holds no surprise (N-f)
            counted = costly and specific is not None and specific.costs_star
            if counted:
                self.mistakes += 1
            self.explained = action.card
            self.message = (
                "costly" if costly else "detour",
                lambda tr: _join(
                    tr,
                    tr.gettext(extra)
                    if extra
                    else tr.gettext(
                        "That move is allowed, but it is not what this step asks for. "
                        "Read the task again, or ask for a hint."
                    ),
                    # TRANSLATORS: after an allowed move the lesson calls costly, when the
                    # lesson counts it among the run's mistakes (for the stars).
                    tr.gettext("In this lesson it counts as a mistake.") if counted else "",
                ),
            )
            return
        self.explained = None
        self.since = self.game.event_count
        self._play(action)
        if self.free_play:
            self.message = None
            self.hint_shown = False  # the advice was for the position before this move
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

    def _play(self, action: Action) -> None:
        """Play a legal ``action``; in free play the move log records it and what it caused."""
        before = self.game.event_count
        self.game.play(action)
        if self.free_play:
            self.log.move(action.seat, self.game.events_since(before))

    def _run_opponents(self, limit: int = 400) -> None:
        """Let the other seats move until the learner may act or the game ends: all at once,
        or, when :attr:`paced`, not here: the page calls :meth:`opponent_step` for each."""
        if not self.paced:
            for _ in range(limit):
                if not self._opponent_move():
                    break
        if self.game.outcome is not None:
            self._game_over_message(self.game.outcome.durak, self.game.outcome.losers)

    def opponent_to_move(self) -> int | None:
        """In free play, the other seat whose move comes next; ``None`` when the learner may
        act (the others wait for the learner), when the game is over, or outside free play."""
        game, you = self.game, self.you
        if not self.free_play or game.outcome is not None:
            return None
        kept = self._kept_at == (id(game), len(game.history))
        if any(
            a.seat == you
            and a.kind is not ActionKind.SWAP
            and not (kept and a.kind is ActionKind.REDEAL)
            for a in game.legal_actions()
        ):
            return None
        return next((seat for seat in game.acting_seats() if seat != you), None)

    def may_keep_deal(self) -> bool:
        """In free play, the learner may ask for a new deal (a misdealt hand) and has nothing
        else to do: the others wait until the learner asks for it or keeps the cards."""
        game, you = self.game, self.you
        if not self.free_play or game.outcome is not None:
            return False
        if not game.is_legal(Action.redeal(you)):
            return False
        if self._kept_at == (id(game), len(game.history)):
            return False
        return not any(
            a.seat == you and a.kind not in (ActionKind.SWAP, ActionKind.REDEAL)
            for a in game.legal_actions()
        )

    def opponents_pending(self) -> bool:
        """The computer has a move to make before the learner's turn comes."""
        return self.opponent_to_move() is not None

    def next_opponent_action(self) -> Action | None:
        """The move the computer will make next (chosen once: asking again gives the same)."""
        seat = self.opponent_to_move()
        if seat is None:
            return None
        game, played = self.game, len(self.game.history)
        planned = self._planned
        if planned is None or planned[0] is not game or planned[1] != played:
            planned = (game, played, self._opponent_choice(game, seat))
            self._planned = planned
        return planned[2]

    def _opponent_choice(self, game: Game, seat: int) -> Action:
        """The computer's choice for ``seat``, from that seat's observation only."""
        return choose(observe(game, seat), self._rng)

    def opponent_step(self) -> bool:
        """Play the computer's next move, if it has one, and tell the listeners; ``True`` when
        another of its moves follows (the learner's turn has not come yet). The page calls it
        after a pause for each move when :attr:`paced`."""
        if self.next_opponent_action() is None:
            return False
        more = self._opponent_move()
        self._changed()
        return more

    def _opponent_move(self) -> bool:
        action = self.next_opponent_action()
        if action is None:
            return False
        self._planned = None
        if self.paced:
            self.since = self.game.event_count  # highlight this move's cards only
        if self.message is not None and self.message_id == self._wait_message:
            self.message = None  # "wait, Bruno is playing": the wait is over
        self._play(action)
        if self.game.outcome is not None:
            self._game_over_message(self.game.outcome.durak, self.game.outcome.losers)
            return False
        return self.opponents_pending()

    def _not_your_turn(self) -> None:
        """A click in free play while the learner may not move: say why."""
        if self.game.outcome is not None:
            self.message = (
                "info",
                lambda tr: tr.gettext("The game is over. Start a new game, or play again."),
            )
            return
        seat = self.opponent_to_move()
        if seat is None:
            return
        names = self.names
        self.message = (
            "info",
            lambda tr: tr.gettext("Wait: {player} is playing.", player=names(tr)[seat]),
        )
        self._wait_message = self.message_id

    def can_play_again(self) -> bool:
        """Free play has ended: the same position can be played again from where it began."""
        return self.free_play and self.game.outcome is not None

    def play_again(self) -> None:
        """Free play once more from the position where it began (the others may play
        differently this time)."""
        if not self.can_play_again():
            return
        while len(self.game.history) > self._free_start:
            self.game.undo()
        self._enter_free_play()
        self._run_opponents()
        self._changed()

    def _game_over_message(self, durak: int | None, losers: tuple[int, ...] = ()) -> None:
        names, you = self.names, self.you
        team = tuple(sorted(set(losers) | {durak})) if durak is not None else ()

        def text(tr: Gettext) -> str:
            if durak is None:
                return tr.gettext("Game over: it's a draw.")
            if len(team) > 1:
                # team play (S0, S2): the durak's whole team loses
                if you in team:
                    return tr.gettext("Game over: your team loses this time.")
                return tr.gettext(
                    "Game over: {players} lose as a team.",
                    players=tr.format_list([names(tr)[seat] for seat in team]),
                )
            if durak == you:
                return tr.gettext("Game over: you are the durak this time.")
            return tr.gettext("Game over: {player} is the durak.", player=names(tr)[durak])

        self.message = ("success" if durak != you else "info", text)

    # ------------------------------------------------------------------ comparison

    def _compare(self, step: Step) -> Comparison:
        """Replay the step's moves under the lesson's rules and the step's other rules."""
        return compare_lesson(self.lesson, self.game, step)

    # ------------------------------------------------------------------ views

    def learner_actions(self) -> list[Action]:
        if not self._accepting_moves():
            return []
        return [a for a in self.game.legal_actions() if a.seat == self.you]

    def hint_actions(self) -> tuple[Action, ...]:
        """The moves the shown hint points at (highlighted on the table): the advice and the
        moves too close to call with it, or the step's move; none when no hint shows."""
        if (
            self.hint_shown
            and self.advice is not None
            and self._advice_at[:2] == (len(self.game.history), self.free_play)
            and self._accepting_moves()
        ):
            return self.advice.moves()
        step = self.step
        if not self.hint_shown or step is None or step.kind != "move" or self.free_play:
            return ()
        if step.expect:
            return (step.expect[0],)
        found = next((a for a in self.learner_actions() if self._expected(step, a)), None)
        return () if found is None else (found,)


def _join(tr: Gettext, first: str, second: str) -> str:
    if not second:
        return first
    # TRANSLATORS: two sentences shown one after the other.
    return tr.gettext("{first} {second}", first=first, second=second)
