"""Play a game or a position in any notebook cell: the lessons' table, for a teacher's own
positions.

::

    from durak_core import Game, Rules
    from tutorial.notebook import play

    game = Game.from_position(Rules(), ["9H 7C QD", "JH 6S 8C 10D"], stock="7D AC", turnup="KS")
    play(game, seat=1, language="en")                    # the computer plays seat 0
    play(game.position(), seat=0, others="face-up")      # seat 1's cards face up
    play({"hands": ["9H 7C", "JH 6S"], "turnup": "KS"}, others="teacher")

:func:`play` shows a :class:`durak_core.Game`, a :class:`durak_core.Position`, a position in
lesson form (a lesson's ``[position]`` table as a mapping, with ``rules``) or a game record
(:mod:`durak_core.record`) as the lesson pages' table, in free play from that position: the
clicks play through the engine, a refused card is explained in the chosen language, the
table's Hint gives the computer's advice and why, and the move log and result follow the game.
The given game is not changed: the table plays on its own copy, and Restart goes back to the
position shown.

The other seats (``others``):

* ``"computer"``: a computer player of ``level`` (:data:`durak_core.bots.LEVELS`; the play
  page's :func:`tutorial.opponent.page_bot`) plays each of them, from its own observation;
* ``"face-up"``: the same, with their hands shown face up on the table (a demonstration);
* ``"teacher"``: nobody plays them but the clicks (hot seat, without the cover between
  turns): the table shows the hand of the player to move, and the next click plays for them.

Nothing in :mod:`durak_core` imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from ipywidgets.widgets.widget import _instances

from durak_core import PRESETS, CardError, Game, Position, Rules
from durak_core.bots import DEFAULT_LEVEL, LEVELS
from durak_core.record import replay

from .app import LessonApp
from .bridge import PageBridge
from .controller import LessonController
from .deferred_open import built_then_opened
from .game_page import NAMES, PlayController
from .i18n import N_, SUPPORTED_LANGUAGES, normalize_language, translator
from .lesson_view import card_view
from .lessons import Lesson, Step, position_game
from .names import player_name
from .opponent import page_bot
from .page import set_shown
from .pages import close_widgets

__all__ = ["OTHERS", "NotebookTable", "Others", "play"]

Others = Literal["computer", "face-up", "teacher"]
OTHERS: Final[tuple[Others, ...]] = ("computer", "face-up", "teacher")
"""Who plays the seats other than ``seat`` (see the module's docstring)."""

_SUMMARIES: Final[dict[str, str]] = {
    "computer": N_("The computer plays the other seats."),
    "face-up": N_("The computer plays the other seats, with their cards face up."),
    "teacher": N_(
        "Every seat is played by clicks: the table shows the hand of the player to move."
    ),
}


def play(
    source: Game | Position | Mapping[str, Any],
    *,
    seat: int = 0,
    language: str = "es",
    others: Others = "computer",
    level: str = DEFAULT_LEVEL,
    rules: Rules | str | None = None,
    seed: int = 0,
    pace: float | None = None,
) -> NotebookTable:
    """A playable table of ``source`` for the learner at ``seat``, in ``language`` (``"es"``,
    ``"en"`` or ``"ru"``; the table's menu switches it). Display it as a cell's result; its
    root widget is ``.widget``, and ``.close()`` closes every widget it made.

    ``source``: a :class:`~durak_core.Game` (its rules), a :class:`~durak_core.Position` or a
    position in lesson form (a mapping such as a lesson's ``[position]``; ``rules`` gives its
    rules: a :class:`~durak_core.Rules` or a preset name, the classic rules by default), or a
    game record (a mapping with ``"format"``). ``others``: ``"computer"``, ``"face-up"`` or
    ``"teacher"``; ``level``: the computer's (:data:`durak_core.bots.LEVELS`). ``seed`` fixes
    the Hint's and the computer's random numbers; ``pace``: seconds between the computer's
    moves (default: the pages' pause; 0: all at once).

    Raises ``ValueError`` naming the problem: an unknown seat, language, ``others`` or level,
    or a position that is not a possible Durak position (or whose game is already over).
    """
    code = normalize_language(language) if isinstance(language, str) else None
    if code is None:
        raise ValueError(
            f"unsupported language {language!r}; supported: {', '.join(SUPPORTED_LANGUAGES)}"
        )
    if others not in OTHERS:
        raise ValueError(f"unknown others {others!r}; choose one of: {', '.join(OTHERS)}")
    if not isinstance(level, str) or level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    game = _game(source, rules)
    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(
            f"no seat {seat!r} in a game of {game.players}: seats are 0 to {game.players - 1}"
        )
    if game.outcome is not None:
        raise ValueError("this game is already over: there is nothing left to play")
    if not game.state.active[seat]:
        raise ValueError(f"seat {seat} is already out of the game: choose a seat with cards")
    if type(seed) is not int:
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    if pace is not None and (not isinstance(pace, (int, float)) or not 0 <= pace <= 5):
        raise ValueError(f"pace must be a number of seconds from 0 to 5, not {pace!r}")
    return NotebookTable(
        game, seat=seat, language=code, others=others, level=level, seed=seed, pace=pace
    )


def _game(source: object, rules: Rules | str | None) -> Game:
    """A new game at ``source``'s position (never ``source`` itself)."""
    if isinstance(source, Game):
        if rules is not None:
            raise ValueError("a Game has its own rules: leave rules out")
        return Game.from_position(source.rules, source.position())
    if isinstance(source, Mapping) and "format" in source:
        if rules is not None:
            raise ValueError("a record has its own rules: leave rules out")
        try:
            recorded = replay(source)
        except (ValueError, TypeError, KeyError, CardError) as exc:
            raise ValueError(f"this record cannot be replayed: {exc}") from None
        return Game.from_position(recorded.rules, recorded.position())
    if not isinstance(source, (Position, Mapping)):
        raise ValueError(
            "expected a durak_core Game, a Position, a position in lesson form (a mapping) "
            f"or a record, not {type(source).__name__}"
        )
    if rules is None:
        rules = Rules()
    elif isinstance(rules, str):
        if rules not in PRESETS:
            raise ValueError(f"unknown preset {rules!r}; presets: {', '.join(PRESETS)}")
        rules = Rules.preset(rules)
    elif not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules or a preset name, not {type(rules).__name__}")
    try:
        return position_game(rules, source)
    except (ValueError, TypeError, KeyError, CardError) as exc:
        raise ValueError(f"this position is impossible: {exc}") from None


def _lesson(game: Game, seat: int, others: str) -> Lesson:
    """A one-step 'lesson' holding the position, played entirely in free play."""
    n = game.players
    if others == "teacher":  # hot seat: every seat has a name, nobody is "you"
        players = tuple(NAMES[i] if i < len(NAMES) else "" for i in range(n))
    else:
        named = iter(NAMES)
        players = tuple("" if i == seat else next(named, "") for i in range(n))
    preset = next((name for name, p in PRESETS.items() if p.rules == game.rules), "")
    return Lesson(
        id="notebook",
        order=0,
        title=N_("Play this position"),
        summary=_SUMMARIES[others],
        rules=game.rules,
        preset=preset,
        players=players,
        you=seat,
        show=frozenset(),
        position=game.position().to_dict(),
        steps=(Step("say"),),
        free_play=True,
        source="notebook",
    )


class NotebookTable(LessonApp):
    """The lesson page's table and panel in free play from a given position (see
    :func:`play`, which checks the arguments). No links to the site's other pages, no
    presenter mode, nothing to resume: a cell run again starts afresh."""

    hardens_kernel = False
    """The kernel is the notebook user's own: their logs, warnings and widget tracebacks stay
    where they would be, and their own widgets' messages are not rate-limited."""

    def __init__(
        self,
        game: Game,
        *,
        seat: int,
        language: str,
        others: Others,
        level: str,
        seed: int = 0,
        pace: float | None = None,
    ) -> None:
        self.others: Others = others
        self.computer_level = level
        # the seats NAMES does not name, in hot seat (a sixth player): named once, here
        self._extra_names = [
            player_name(i, translator(language)) if others == "teacher" and i >= len(NAMES) else ""
            for i in range(game.players)
        ]
        before = set(_instances)
        with built_then_opened():
            # The page bridge (keys, the tab's title and address, the lost-connection overlay)
            # belongs to a page that has the browser tab to itself: a notebook's table holds
            # one (the page needs it) but does not show it.
            super().__init__(
                _lesson(game, seat, others),
                language=language,
                seed=seed,
                bridge=PageBridge(),
                pace=pace,
            )
            for widget in (self.links, self.present, self.show_all):
                set_shown(widget, False)
            self.widget.add_class("durak-notebook")
            self.controller.continue_free_play()
        self._models = set(_instances) - before
        """The model ids of the widgets this table made (:meth:`close` closes them)."""

    def make_controller(self, lesson: Lesson, *, seed: int, hints: bool) -> LessonController:
        teacher = self.others == "teacher"
        controller = PlayController(
            lesson,
            self.i18n,
            seed=seed,
            bot=page_bot(self.computer_level),
            hot_seat=teacher,
            scoring=False,  # the lesson page shows no end-of-game review
            names=self._extra_names,
        )
        if teacher:
            # the teacher clicks for every seat in front of the class: no cover between turns
            # (registered before the page's redraw, which then never sees one)
            def uncover() -> None:
                controller.covered = False

            controller.on_change(uncover)
        return controller

    def table_snapshot(self) -> dict[str, Any]:
        view = super().table_snapshot()
        if self.others == "face-up":
            ctl, tr = self.controller, self.i18n
            hands = ctl.game.state.hands
            for seat_view in view["seats"]:
                seat = seat_view["seat"]
                if seat != ctl.you:
                    seat_view["cards"] = [card_view(ctl.game, c, tr) for c in hands[seat]]
        return view

    def restart_lesson(self) -> None:
        """Restart: the position shown at first, in free play again."""
        self.controller.restart()
        self.controller.continue_free_play()

    def resume_state(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        """Stop the computer and close every widget this table made (the models every page
        shares, such as the front-end files, stay)."""
        self.stop()
        close_widgets(self._models)
