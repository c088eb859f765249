"""The full-game page: deal, then play a whole game against the computer.

Until the computer-opponent issue lands, the others play :mod:`tutorial.opponent`'s careful
beginner, which sees only its own seat's observation. Its moves come one at a time, a pause
apart (``pace``), into the move log; the game ends with the result panel and "New game"
(:mod:`tutorial.free_play_view`).

Resume after a lost connection carries the deal (seed, players, rules) so the same game goes
on. The seed would reveal every hidden card, so it never reaches the browser in the clear: it
is sealed (encrypted and authenticated) with the server's key, ``DURAK_RESUME_KEY`` in the
kernel's environment. Without a key (e.g. the static site) the page does not offer its deal
for resuming, and a resumed page deals anew.
"""

from __future__ import annotations

import random
from typing import Any, Final

import ipywidgets as w

from durak_core import PRESETS, Game, Rules, RulesError

from .app import LessonApp
from .bridge import PageBridge
from .i18n import N_, Gettext
from .lessons import Lesson, Step
from .names import preset_name
from .sealing import RESUME_KEY_ENV
from .sealing import seal as seal_deal
from .sealing import unseal as unseal_deal

__all__ = ["RESUME_KEY_ENV", "GameApp", "game_lesson", "seal_deal", "unseal_deal"]

NAMES = ("Ana", "Bruno", "Diana", "Elena", "Fiodor")
_MAX_SEED: Final = 2**31


def _valid_deal(deal: object) -> tuple[int, int, str] | None:
    """``(seed, players, preset)`` when ``deal`` names a game this page can deal."""
    if not isinstance(deal, dict) or set(deal) != {"seed", "players", "preset"}:
        return None
    seed, players, preset = deal["seed"], deal["players"], deal["preset"]
    if type(seed) is not int or not 0 <= seed < _MAX_SEED:
        return None
    if not isinstance(preset, str) or preset not in PRESETS:
        return None
    try:
        rules = Rules.preset(preset)
    except RulesError:
        return None
    if type(players) is not int or not 2 <= players <= min(6, rules.max_players):
        return None
    return seed, players, preset


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
        position=game.position(),
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
        bridge: PageBridge | None = None,
        pace: float | None = None,
    ) -> None:
        """``pace``: seconds between the computer's moves (default
        :func:`~tutorial.free_play_view.default_pace`; 0 = all at once)."""
        self._seed = random.randrange(_MAX_SEED) if seed is None else seed
        self._deal_players, self._deal_preset = players, preset
        self._sealed: str | None = None
        rules = Rules.preset(preset)
        game = Game.deal(rules, players, self._seed, dealer=players - 1)
        super().__init__(
            game_lesson(rules, players, preset, game),
            language=language,
            seed=self._seed,
            bridge=bridge,
            pace=pace,
        )

    def _finish_page(self) -> None:
        # LessonApp's constructor ends here: add the deal bar before the handshake runs.
        self.controller.navigation = False  # no Back, Hint, Next here, even for forged clicks
        self._use_deal(self._seed, self._deal_players, self._deal_preset)
        self.players = w.Dropdown(
            options=[2, 3, 4, 5, 6], value=self._deal_players, layout=w.Layout(width="auto")
        )
        self.preset = w.Dropdown(
            options=list(PRESETS), value=self._deal_preset, layout=w.Layout(width="auto")
        )
        self.deal = w.Button(button_style="primary")
        self.deal.on_click(self._guard(lambda _b: self.new_game()))
        bar = w.HBox([self.players, self.preset, self.deal])
        bar.add_class("durak-navbar")
        bar.add_class("durak-deal-bar")
        # in the side panel, under the tools (within one screen); else under the page
        panel = getattr(self, "panel", None)
        holder = panel if isinstance(panel, w.Box) else self.widget
        holder.children = (*holder.children, bar)
        for button in (self.back, self.hint, self.next, self.free):
            button.layout.display = "none"
        self.render()
        super()._finish_page()

    def _use_deal(self, seed: int, players: int, preset: str) -> None:
        """Deal (seed, players, preset) and start it in free play."""
        rules = Rules.preset(preset)
        game = Game.deal(rules, players, seed, dealer=players - 1)
        self._seed, self._deal_players, self._deal_preset = seed, players, preset
        self._sealed = seal_deal({"seed": seed, "players": players, "preset": preset})
        self.controller.lesson = game_lesson(rules, players, preset, game)
        self.controller.start_game = lambda: Game.deal(rules, players, seed, dealer=players - 1)
        self.controller.restart()
        self.controller.continue_free_play()

    def new_game(self) -> None:
        """Deal a new game with the chosen players and rules."""
        preset = str(self.preset.value)
        players = int(self.players.value)
        rules = Rules.preset(preset)
        if players > rules.max_players:
            players = rules.max_players
            self.players.value = players
        self._use_deal(random.randrange(_MAX_SEED), players, preset)

    def page_title(self) -> str:
        return self.i18n.gettext("Play a whole game")

    def resume_state(self) -> dict[str, Any]:
        """The sealed deal and the game's moves (nothing without a server key)."""
        if not hasattr(self, "deal") or self._sealed is None:
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
        seed, players, preset = deal
        rules = Rules.preset(preset)
        dealt = Game.deal(rules, players, seed, dealer=players - 1)
        lesson = game_lesson(rules, players, preset, dealt)
        controller = self.controller
        saved_lesson, saved_start = controller.lesson, controller.start_game
        # replayable from its position:
        controller.lesson, controller.start_game = lesson, lesson.start
        if not controller.resume(state["game"]):
            controller.lesson, controller.start_game = saved_lesson, saved_start
            return False
        controller.start_game = lambda: Game.deal(rules, players, seed, dealer=players - 1)
        self._seed, self._deal_players, self._deal_preset = seed, players, preset
        self._sealed = state["deal"]
        with self.widget.hold_sync():
            self.players.value = players
            self.preset.value = preset
        self.render()
        return True

    def render(self) -> None:
        super().render()
        if hasattr(self, "deal"):
            tr = self.i18n
            self.deal.description = tr.pgettext("button", "New game")
            self.players.description = tr.gettext("Players")
            self.preset.description = tr.gettext("Rules")
            chosen = self.preset.value  # new options reset the value: keep the learner's
            self.preset.options = [(preset_name(p, tr), p) for p in PRESETS]
            self.preset.value = chosen
            self.restart.description = tr.pgettext("button", "Same deal again")
            self.stars.value = ""  # a free game earns no lesson stars

    def play_again(self) -> None:
        """The result panel's button: a new deal."""
        self.new_game()

    def again_label(self, tr: Gettext) -> str:
        return tr.pgettext("button", "New game")

    def restart_lesson(self) -> None:
        """The same deal again, from the first card."""
        self.controller.restart()
        self.controller.continue_free_play()
