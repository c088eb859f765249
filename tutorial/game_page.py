"""The full-game page: deal, then play a whole game against the computer.

Until the computer-opponent issue lands, the others play :mod:`tutorial.opponent`'s careful
beginner, which sees only its own seat's observation.
"""

from __future__ import annotations

import random

import ipywidgets as w

from durak_core import PRESETS, Game, Rules

from .app import LessonApp
from .i18n import N_
from .lessons import Lesson, Step, _current_position

__all__ = ["GameApp", "game_lesson"]

NAMES = ("Ana", "Bruno", "Diana", "Elena", "Fiodor")


def game_lesson(rules: Rules, players: int, preset: str, game: Game) -> Lesson:
    """A one-step 'lesson' holding a dealt game, played entirely in free play."""
    return Lesson(
        id="play",
        order=0,
        title=N_("Play a whole game"),
        summary=N_("Deal and play a full game against the computer."),
        rules=rules,
        preset=preset,
        players=("", *NAMES[: players - 1]),
        you=0,
        show=frozenset(),
        position=_current_position(game),
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


class GameApp(LessonApp):
    """A lesson page in free play from the first card, with a 'new game' bar."""

    def __init__(
        self,
        *,
        players: int = 2,
        preset: str = "classic",
        language: str | None = None,
        seed: int | None = None,
    ) -> None:
        self._seed = random.randrange(2**31) if seed is None else seed
        rules = Rules.preset(preset)
        game = Game.deal(rules, players, self._seed, dealer=players - 1)
        super().__init__(
            game_lesson(rules, players, preset, game), language=language, seed=self._seed
        )
        self.controller._start = lambda: Game.deal(rules, players, self._seed, dealer=players - 1)
        self.controller.restart()
        self.controller.continue_free_play()
        self.players = w.Dropdown(
            options=[2, 3, 4, 5, 6], value=players, layout=w.Layout(width="auto")
        )
        self.preset = w.Dropdown(options=list(PRESETS), value=preset, layout=w.Layout(width="auto"))
        self.deal = w.Button(button_style="primary")
        self.deal.on_click(self._guard(lambda _b: self.new_game()))
        bar = w.HBox([self.players, self.preset, self.deal])
        bar.add_class("durak-navbar")
        self.widget.children = (*self.widget.children, bar)
        for button in (self.back, self.hint, self.next, self.free):
            button.layout.display = "none"
        self.render()

    def new_game(self) -> None:
        """Deal a new game with the chosen players and rules."""
        preset = str(self.preset.value)
        players = int(self.players.value)
        rules = Rules.preset(preset)
        if players > rules.max_players:
            players = rules.max_players
            self.players.value = players
        self._seed = random.randrange(2**31)
        seed = self._seed
        game = Game.deal(rules, players, seed, dealer=players - 1)
        self.controller.lesson = game_lesson(rules, players, preset, game)
        self.controller._start = lambda: Game.deal(rules, players, seed, dealer=players - 1)
        self.controller.restart()
        self.controller.continue_free_play()

    def render(self) -> None:
        super().render()
        if hasattr(self, "deal"):
            tr = self.i18n
            self.deal.description = tr.pgettext("button", "New game")
            self.players.description = tr.gettext("Players")
            self.preset.description = tr.gettext("Rules")
            self.restart.description = tr.pgettext("button", "Same deal again")
            self.stars.value = ""  # a free game earns no lesson stars

    def restart_lesson(self) -> None:
        """The same deal again, from the first card."""
        self.controller.restart()
        self.controller.continue_free_play()
