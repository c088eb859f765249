"""The full-game page: deal, then play a whole game against the computer.

Until the computer-opponent issue lands, the others play :mod:`tutorial.opponent`'s careful
beginner, which sees only its own seat's observation.

Resume after a lost connection carries the deal (seed, players, rules) so the same game goes
on. The seed would reveal every hidden card, so it never reaches the browser in the clear: it
is sealed (encrypted and authenticated) with the server's key, ``DURAK_RESUME_KEY`` in the
kernel's environment. Without a key (e.g. the static site) the page does not offer its deal
for resuming, and a resumed page deals anew.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import random
import secrets
from typing import Any, Final

import ipywidgets as w

from durak_core import PRESETS, Game, Rules, RulesError

from .app import LessonApp
from .bridge import PageBridge
from .i18n import N_
from .lessons import Lesson, Step, _current_position

__all__ = ["RESUME_KEY_ENV", "GameApp", "game_lesson", "seal_deal", "unseal_deal"]

NAMES = ("Ana", "Bruno", "Diana", "Elena", "Fiodor")
RESUME_KEY_ENV: Final = "DURAK_RESUME_KEY"
_MAX_SEED: Final = 2**31
_NONCE: Final = 16
_TAG: Final = 32
_MAX_TOKEN: Final = 400


_KEY_FILE: Final = "durak-resume.key"


def _key_file() -> bytes | None:
    """The machine's resume key (32 random bytes), created on first use; ``None`` if there
    is no Jupyter runtime directory to keep it in."""
    try:
        from jupyter_core.paths import jupyter_runtime_dir

        folder = jupyter_runtime_dir()
        os.makedirs(folder, mode=0o700, exist_ok=True)
        path = os.path.join(folder, _KEY_FILE)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as out:
                out.write(secrets.token_bytes(32))
        with open(path, "rb") as source:
            key = source.read()
    except (ImportError, OSError):
        return None
    return key if len(key) == 32 else None


def _key() -> bytes | None:
    secret = os.environ.get(RESUME_KEY_ENV, "")
    if secret:
        return hashlib.sha256(secret.encode()).digest()
    return _key_file()


def _stream(key: bytes, nonce: bytes, size: int) -> bytes:
    blocks = (
        hmac.new(key, b"durak-deal-stream" + nonce + i.to_bytes(4, "big"), hashlib.sha256).digest()
        for i in range(-(-size // 32))
    )
    return b"".join(blocks)[:size]


def _tag(key: bytes, nonce: bytes, cipher: bytes) -> bytes:
    return hmac.new(key, b"durak-deal-tag" + nonce + cipher, hashlib.sha256).digest()


def seal_deal(deal: dict[str, Any], key: bytes | None = None) -> str | None:
    """``deal`` encrypted and authenticated with the server's key (``None`` without one)."""
    key = key or _key()
    if key is None:
        return None
    plain = json.dumps(deal, separators=(",", ":"), sort_keys=True).encode()
    nonce = secrets.token_bytes(_NONCE)
    cipher = bytes(a ^ b for a, b in zip(plain, _stream(key, nonce, len(plain)), strict=True))
    return base64.urlsafe_b64encode(nonce + cipher + _tag(key, nonce, cipher)).decode("ascii")


def unseal_deal(token: object, key: bytes | None = None) -> dict[str, Any] | None:
    """The deal sealed in ``token``, or ``None`` if it is not one this server sealed."""
    key = key or _key()
    if key is None or not isinstance(token, str) or len(token) > _MAX_TOKEN:
        return None
    try:
        raw = base64.urlsafe_b64decode(token.encode("ascii"))
    except (ValueError, binascii.Error, UnicodeEncodeError):
        return None
    if len(raw) <= _NONCE + _TAG:
        return None
    nonce, cipher, tag = raw[:_NONCE], raw[_NONCE:-_TAG], raw[-_TAG:]
    if not hmac.compare_digest(tag, _tag(key, nonce, cipher)):
        return None
    plain = bytes(a ^ b for a, b in zip(cipher, _stream(key, nonce, len(cipher)), strict=True))
    try:
        deal = json.loads(plain)
    except ValueError:
        return None
    return deal if isinstance(deal, dict) else None


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
        bridge: PageBridge | None = None,
    ) -> None:
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
        self.widget.children = (*self.widget.children, bar)
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
        self.controller._start = lambda: Game.deal(rules, players, seed, dealer=players - 1)
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
        saved_lesson, saved_start = controller.lesson, controller._start
        controller.lesson, controller._start = lesson, lesson.start  # replayable from its position
        if not controller.resume(state["game"]):
            controller.lesson, controller._start = saved_lesson, saved_start
            return False
        controller._start = lambda: Game.deal(rules, players, seed, dealer=players - 1)
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
            self.restart.description = tr.pgettext("button", "Same deal again")
            self.stars.value = ""  # a free game earns no lesson stars

    def restart_lesson(self) -> None:
        """The same deal again, from the first card."""
        self.controller.restart()
        self.controller.continue_free_play()
