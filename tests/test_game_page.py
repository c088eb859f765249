"""The play page and lessons' free play: the computer moves one move at a time on the kernel's
event loop, a click meanwhile is told to wait (and is neither lost nor queued), a move log
and a result panel with a working button, and no button that does nothing.

The event loop is a fake here (``FakeLoop``): the test runs each scheduled move itself, so
nothing depends on time. Rules behind the result: the last player holding cards is the durak
(S0-S4); the computer's moves are legal moves of the engine (S2's turn order: the defender
answers each attack card, then the attackers add or pass).
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import comm
import pytest
from comm.base_comm import BaseComm

from durak_core import Action, ActionKind, Card, Game, Rules, observe
from durak_core.bots import HeuristicBot, PIMCBot, make_bot, next_seat
from durak_core.rules import MatchScoring, Misdeal, MisdealMode, NextGameStart, Teams
from tests.helpers import press
from tests.lesson_clicks import clicks_for
from tests.test_hidden_info import CARD_TOKEN, strings
from tutorial import free_play_view, opponent
from tutorial.app import LessonApp
from tutorial.controller import LessonController
from tutorial.free_play_view import QUICK_FACTOR, Pacer, default_pace
from tutorial.game_page import (
    HOUSE_RULES,
    MATCHES,
    MIN_COST,
    RESUME_KEY_ENV,
    Deal,
    GameApp,
    Mistake,
    PlayController,
    _valid_deal,
    describe_action,
    house_rule_description,
    house_rule_name,
    level_description,
    level_name,
    match_description,
    match_name,
    page_rules,
    review,
    review_html,
    score_decision,
    seal_deal,
)
from tutorial.hints import rate
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n
from tutorial.lesson_view import table_view
from tutorial.names import card_short, rank_name
from tutorial.opponent import PAGE_LEVELS
from tutorial.page import escape, is_shown
from tutorial.sealing import unseal
from tutorial.view_model import Click

PACE = 0.7


@dataclass
class FakeHandle:
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeLoop:
    """``call_later`` that only records; :meth:`run_next` runs the oldest live callback."""

    pending: list[tuple[float, Callable[[], None], FakeHandle]] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeHandle:
        handle = FakeHandle()
        self.pending.append((delay, callback, handle))
        return handle

    def live(self) -> int:
        return sum(not handle.cancelled for _, _, handle in self.pending)

    def run_next(self) -> None:
        while self.pending:
            delay, callback, handle = self.pending.pop(0)
            if not handle.cancelled:
                self.delays.append(delay)
                callback()
                return
        raise AssertionError("nothing is scheduled")


@pytest.fixture
def loop(monkeypatch: pytest.MonkeyPatch) -> FakeLoop:
    fake = FakeLoop()
    monkeypatch.setattr(free_play_view, "kernel_schedule", lambda: fake.call_later)
    monkeypatch.setattr(free_play_view, "_clock", lambda: 0.0)  # thinking takes no time
    return fake


def paced_game(seed: int, players: int = 2, **kwargs: Any) -> GameApp:
    """A game whose computer moves are scheduled one by one. Its level is the newcomer's
    unless asked (the pacing is the same at every level; the default level's search would
    only make the test slower)."""
    kwargs.setdefault("level", "newcomer")
    return GameApp(players=players, language="en", seed=seed, pace=PACE, **kwargs)


def computer_first(loop: FakeLoop, players: int = 2) -> GameApp:
    """A paced game whose deal lets the computer move first."""
    for seed in range(100):
        app = paced_game(seed, players)
        if app.controller.opponents_pending():
            return app
        loop.pending.clear()
    raise AssertionError("no deal in 100 lets the computer start")


def click(app: LessonApp, content: Click) -> None:
    """A click exactly as the table's JavaScript sends it."""
    app.table._handle_browser_msg(None, dict(content), [])


def learner_plays(app: LessonApp, rng: random.Random) -> None:
    c = app.controller
    legal = [a for a in c.game.legal_actions() if a.seat == c.you]
    before = len(c.game.history)
    action = rng.choice(legal)
    for content in clicks_for(c, action):
        click(app, content)
    assert c.game.history[before] == action


def run_computer(loop: FakeLoop, controller: LessonController) -> int:
    """Run the scheduled moves until the learner's turn (or the end); how many were run."""
    steps = 0
    while controller.opponents_pending():
        before = len(controller.game.history)
        loop.run_next()
        assert len(controller.game.history) == before + 1, "one move per scheduled step"
        steps += 1
        assert steps < 200
    assert loop.live() == 0, "nothing left scheduled when the learner's turn comes"
    return steps


def test_the_computer_moves_one_move_at_a_time(loop: FakeLoop) -> None:
    app = computer_first(loop, players=3)
    c = app.controller
    assert c.paced and c.game.history == ()  # nothing played yet: the first move waits
    assert loop.live() == 1
    view = table_view(c)
    assert view["busy"] and view["actions"] == []
    log_sizes = []
    while c.opponents_pending():
        before = len(c.game.history)
        loop.run_next()
        assert len(c.game.history) == before + 1
        log_sizes.append(len(app.free_play.panel.log.view["lines"]))
        assert loop.live() <= 1
    assert log_sizes == sorted(set(log_sizes)) and len(log_sizes) >= 1  # grows move by move
    assert not table_view(c)["busy"] and table_view(c)["actions"]
    # the learner's move, then the computer's answer waits for its own step again
    learner_plays(app, random.Random(1))
    if c.opponents_pending():
        assert loop.live() == 1


def test_a_pass_comes_after_a_shorter_pause(loop: FakeLoop) -> None:
    app = computer_first(loop, players=3)
    c = app.controller
    rng = random.Random(4)
    expected: list[float] = []
    for _ in range(40):
        while c.opponents_pending():
            action = c.next_opponent_action()
            assert action is not None
            expected.append(PACE * (QUICK_FACTOR if action.kind is ActionKind.PASS else 1.0))
            loop.run_next()
            # the move played is the one announced
            assert c.game.history[-1] == action
        if c.game.outcome is not None:
            break
        learner_plays(app, rng)
    assert loop.delays == expected
    assert PACE in expected and PACE * QUICK_FACTOR in expected


def test_a_click_while_the_computer_moves_is_told_to_wait_not_queued(loop: FakeLoop) -> None:
    app = computer_first(loop)
    c = app.controller
    hand = c.game.hand(c.you)
    history = c.game.history
    for content in (
        {"type": "card", "zone": "hand", "id": hand[0].ascii()},
        {"type": "action", "id": "pass"},
        {"type": "action", "id": "take"},
    ):
        click(app, content)  # type: ignore[arg-type]
        message = table_view(c)["message"]
        mover = c.names(c.i18n)[c.opponent_to_move() or 0]
        assert message is not None and message["text"] == f"Wait: {mover} is playing."
        assert c.game.history == history and c.mistakes == 0
        assert [e.kind for e in c.log.entries] == ["start"]  # not a refusal: just wait
    run_computer(loop, c)
    # nothing was queued: the computer's moves only, and the wait message is gone
    assert all(a.seat != c.you for a in c.game.history)
    assert table_view(c)["message"] is None


def test_the_wait_message_is_localized(loop: FakeLoop) -> None:
    app = computer_first(loop)
    c = app.controller
    app.language.value = "ru"
    click(app, {"type": "action", "id": "pass"})
    message = table_view(c)["message"]
    assert message is not None
    assert message["text"] == c.i18n.gettext(
        "Wait: {player} is playing.", player=c.names(c.i18n)[c.opponent_to_move() or 0]
    )
    assert any("а" <= ch <= "я" for ch in message["text"].lower())


def test_a_new_game_while_a_move_is_scheduled_plays_nothing_stale(loop: FakeLoop) -> None:
    app = computer_first(loop)
    c = app.controller
    old_game = c.game
    app.deal.click()  # a new deal while the computer's first move waits
    assert c.game is not old_game
    # the old game's move is called off; the new game's first move waits its own pause
    assert loop.live() == int(c.opponents_pending())
    run_computer(loop, c)
    assert not c.opponents_pending()


def test_a_closed_page_stops_the_computer(loop: FakeLoop) -> None:
    app = computer_first(loop)
    app.table.close()
    loop.run_next()
    assert app.controller.game.history == ()


def test_resume_with_moves_pending_goes_on_paced(
    loop: FakeLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RESUME_KEY_ENV, "a server secret")
    app = computer_first(loop)
    state = app.resume_state()  # the computer's first move is still to come
    opened = unseal(state["sealed"])
    assert opened is not None and opened["game"]["free"]
    second = FakeLoop()  # the reloaded page's kernel
    monkeypatch.setattr(free_play_view, "kernel_schedule", lambda: second.call_later)
    again = paced_game(12345)
    assert again.resume(state)
    c = again.controller
    assert c.game.history == () and c.opponents_pending()
    assert second.live() == 1  # the resumed game's move (its own deal's is called off)
    steps = run_computer(second, c)
    kinds = [line["kind"] for line in again.free_play.panel.log.view["lines"]]
    assert steps >= 1 and kinds[:2] == ["start", "move"]


def play_to_the_end(app: LessonApp, loop: FakeLoop | None, seed: int) -> None:
    c, rng = app.controller, random.Random(seed)
    for _ in range(400):
        if loop is not None:
            run_computer(loop, c)
        if c.game.outcome is not None:
            return
        learner_plays(app, rng)
    raise AssertionError("the game does not end")


def test_the_result_panel_and_its_new_game_button(loop: FakeLoop) -> None:
    app = paced_game(21, players=3)
    c = app.controller
    panel = app.free_play.panel
    assert not is_shown(panel.result_box)
    play_to_the_end(app, loop, 21)
    outcome = c.game.outcome
    assert outcome is not None
    names = c.names(c.i18n)
    assert is_shown(panel.result_box)
    if outcome.durak is None:
        assert "draw" in panel.result.value
    elif outcome.durak == c.you:
        assert "You are the durak this time." in panel.result.value
    else:
        assert f"{names[outcome.durak]} is the durak." in panel.result.value
    for seat in outcome.out_order:
        assert f"<th scope='row'>{names[seat]}</th>" in panel.result.value
    assert panel.again.description == "New game"
    assert table_view(c)["actions"] == []  # no dead Done button at the end
    # a click on a card now says the game is over
    click(app, {"type": "action", "id": "pass"})
    assert c.message is not None and "The game is over" in c.message[1](c.i18n)
    panel.again.click()
    assert c.game.outcome is None and not is_shown(panel.result_box)
    assert [line["kind"] for line in panel.log.view["lines"]] == ["start"]
    assert c.game.history == ()  # a fresh deal (the computer's first move, if any, waits)


def test_a_forged_again_click_during_the_game_does_nothing(loop: FakeLoop) -> None:
    app = paced_game(21)
    run_computer(loop, app.controller)
    learner_plays(app, random.Random(0))
    history = app.controller.game.history
    app.free_play.panel.again._handle_button_msg(None, {"event": "click"}, [])
    assert app.controller.game.history == history


def test_the_log_on_the_page_and_its_language_switch(loop: FakeLoop) -> None:
    app = paced_game(21, players=3)
    c = app.controller
    rng = random.Random(3)
    click(app, {"type": "action", "id": "take"})  # refused or "wait": never a crash
    for _ in range(3):
        run_computer(loop, c)
        if c.game.outcome is not None:
            break
        learner_plays(app, rng)
    view = app.free_play.panel.log.view
    assert not view["hidden"] and view["title"] == "Moves" and view["lang"] == "en"
    english = view["lines"]
    whose = {line["who"] for line in english if line["kind"] == "move"}
    assert "You" in whose and "Ana" in whose
    app.language.value = "es"
    spanish = app.free_play.panel.log.view["lines"]
    assert [line["key"] for line in spanish] == [line["key"] for line in english]
    assert app.free_play.panel.log.view["lang"] == "es"
    assert "Tú" in {line["who"] for line in spanish}
    assert [a["text"] for a in english] != [b["text"] for b in spanish]


def test_the_log_shows_the_learners_refusals(loop: FakeLoop) -> None:
    app = paced_game(21)
    c = app.controller
    run_computer(loop, c)
    # the Take or the Done button, whichever the rules refuse now: it is greyed out, so its
    # click is explained neutrally and is no try for the log (N13)
    wrong = next(a for a in (Action.take(c.you), Action.pass_(c.you)) if not c.game.is_legal(a))
    before = list(app.free_play.panel.log.view["lines"])
    click(app, {"type": "action", "id": wrong.kind.value})  # type: ignore[typeddict-item]
    assert app.free_play.panel.log.view["lines"] == before
    message = table_view(c)["message"]
    assert message is not None and message["kind"] == "info" and message["text"]
    # a move the rules refuse (a card click, here played straight in) is logged as a try
    c._try(wrong)
    c._changed()
    lines = app.free_play.panel.log.view["lines"]
    assert lines[-1]["kind"] == "refused" and lines[-1]["who"] == "You"
    assert lines[-1]["label"] == "Not allowed"
    message = table_view(c)["message"]
    assert message is not None and message["kind"] == "error"
    assert lines[-1]["text"] in message["text"]


def test_every_button_shown_in_free_play_does_something(loop: FakeLoop) -> None:
    """A shown button is enabled, or its click explains (in words) why not: none is dead."""
    app = paced_game(8, players=3)
    c = app.controller
    rng = random.Random(8)
    checked = 0
    for _ in range(400):
        run_computer(loop, c)
        if c.game.outcome is not None:
            break
        for button in table_view(c)["actions"]:
            if button["enabled"]:
                continue
            history = c.game.history
            click(app, {"type": "action", "id": button["id"]})
            assert c.game.history == history
            # greyed out: a neutral explanation, no mistake (N13)
            assert c.message is not None and c.message[0] == "info" and c.message[1](c.i18n)
            checked += 1
        learner_plays(app, rng)
    assert c.game.outcome is not None and checked > 0
    assert table_view(c)["actions"] == []


def test_lesson_free_play_is_paced_and_offers_play_again(loop: FakeLoop) -> None:
    app = LessonApp("transfer", language="en", pace=PACE)
    c = app.controller
    panel = app.free_play.panel
    assert not is_shown(panel.widget)  # no log during the lesson
    app.next.click()
    app.next.click()
    app.free.click()
    assert c.free_play and is_shown(panel.widget)
    start = c.game.history
    position = c.game.state.copy()
    assert table_view(c)["narration"] == ""  # the log tells it instead
    play_to_the_end(app, loop, 5)
    assert is_shown(panel.result_box) and panel.again.description == "Play again"
    panel.again.click()
    assert c.free_play and c.game.outcome is None
    # back where free play began (the others' moves from there wait for their steps)
    assert c.game.history[: len(start)] == start
    if not c.game.history[len(start) :]:
        assert c.game.state == position
    assert [line["kind"] for line in panel.log.view["lines"]] == ["start"]


def test_without_a_running_event_loop_the_computer_moves_at_once() -> None:
    """Tests, scripts: no loop runs, so nothing is scheduled and free play is as before."""
    assert free_play_view.kernel_schedule() is None
    app = GameApp(players=3, language="en", seed=4)
    assert not app.controller.paced and not app.controller.opponents_pending()


def test_the_pace_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(free_play_view.PACE_ENV, "1.5")
    assert default_pace() == 1.5
    default = free_play_view.DEFAULT_PACE
    for bad, expected in (("x", default), ("nan", default), ("-3", 0.0), ("99", 5.0)):
        monkeypatch.setenv(free_play_view.PACE_ENV, bad)
        assert default_pace() == expected
    monkeypatch.delenv(free_play_view.PACE_ENV)
    assert default_pace() == free_play_view.DEFAULT_PACE
    controller = GameApp(players=2, language="en", seed=1, pace=0).controller
    assert not controller.paced


def test_a_pacer_with_no_delay_leaves_the_controller_unpaced(loop: FakeLoop) -> None:
    controller = GameApp(players=2, language="en", seed=1, pace=0).controller
    Pacer(controller, delay=0, schedule=loop.call_later)
    assert not controller.paced


def test_on_a_running_event_loop_the_kernel_loop_plays_the_moves() -> None:
    """As in ipykernel (and Pyodide): the page schedules the moves on the running loop."""

    async def main() -> tuple[bool, int, int]:
        app = next(
            app
            for seed in range(100)
            if (
                app := GameApp(players=3, language="en", seed=seed, pace=0.01)
            ).controller.opponents_pending()
        )
        c = app.controller
        at_first = len(c.game.history)
        for _ in range(10_000):
            if not c.opponents_pending():
                break
            await asyncio.sleep(0.001)
        return c.paced, at_first, len(c.game.history)

    paced, at_first, after = asyncio.run(main())
    assert paced and at_first == 0 and after >= 1


# ------------------------------------------------ options, hot-seat and the review (issue 11)


def test_the_levels_have_a_name_and_a_line_in_every_language() -> None:
    """S1: computer players of several strengths, a gentler one for newcomers."""
    for lang in SUPPORTED_LANGUAGES:
        tr = I18n(lang)
        names = [level_name(level, tr) for level in PAGE_LEVELS]
        lines = [level_description(level, tr) for level in PAGE_LEVELS]
        assert len(set(names)) == 3 and len(set(lines)) == 3
        if lang != "en":
            english = I18n("en")
            assert names != [level_name(level, english) for level in PAGE_LEVELS]
            assert lines != [level_description(level, english) for level in PAGE_LEVELS]


def test_the_options_offer_one_to_three_computer_opponents_and_the_levels() -> None:
    """S1: one to three computer opponents (2–4 players), a level, any preset."""
    app = GameApp(players=2, language="en", seed=1, pace=0, level="newcomer")
    assert [v for _, v in app.players.options] == [2, 3, 4]
    labels = [label for label, _ in app.players.options]
    assert labels == ["1 computer opponent", "2 computer opponents", "3 computer opponents"]
    assert [v for _, v in app.level.options] == list(PAGE_LEVELS)
    assert app.level_about.value and not is_shown(app.names_box)
    app.i18n.set_language("ru")
    labels = [label for label, _ in app.players.options]
    assert labels == [
        app.i18n.ngettext("{n} computer opponent", "{n} computer opponents", n) for n in (1, 2, 3)
    ]
    assert labels[0] != "1 computer opponent"
    app.players.value = 4
    app.level.value = "strong"
    app.preset.value = "matsuri"
    app.new_game()
    c = app.controller
    assert isinstance(c, PlayController)
    assert c.game.players == 4 and c.game.rules == Rules.preset("matsuri")
    assert isinstance(c.bot, PIMCBot) and c.bot.name == "strong"
    assert c.free_play and not c.hot_seat


def test_the_static_site_caps_the_search_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(opponent.page_bot("strong"), PIMCBot)
    kernel = opponent.page_bot("pimc")
    monkeypatch.setattr(opponent, "IN_BROWSER", True)
    assert opponent.BROWSER_TIME_CAP < free_play_view.DEFAULT_PACE  # a move within the page's pause
    for level in ("newcomer", "pimc", "strong"):
        light = opponent.page_bot(level)
        assert isinstance(kernel, PIMCBot) and isinstance(light, PIMCBot)
        assert light.samples == make_bot(level).samples  # the same search, cut short if slow
        assert light.time_budget == opponent.BROWSER_TIME_CAP
        assert light.exact_node_budget == opponent.BROWSER_EXACT_NODES
    monkeypatch.setattr(opponent, "IN_BROWSER", False)
    strong = opponent.page_bot("strong")
    assert isinstance(strong, PIMCBot) and strong.time_budget == opponent.TIME_CAP
    assert opponent.page_bot("newcomer").time_budget is None  # a seed replays a game


def test_the_lessons_free_play_opponent_is_the_rule_of_thumb() -> None:
    game = Game.deal(Rules(), players=3, seed=4)
    for _ in range(30):
        seat = next_seat(game)
        if seat is None:
            break
        obs = observe(game, seat)
        action = opponent.choose(obs, random.Random(0))
        assert action in obs.legal
        game.play(action)


# ---------------------------------------------------------------- hot-seat (S1: one device)


def hand_ids(game: Game, seats: range | list[int]) -> set[str]:
    return {c.ascii() for seat in seats for c in game.state.hands[seat]}


def public_cards(game: Game) -> set[str]:
    """Cards everybody has seen go into a hand (a take, the turn-up drawn last)."""
    players = game.players
    seen: set[str] = set()
    for seat in range(players):
        other = (seat + 1) % players
        seen.update(c.ascii() for c in observe(game, other).known[seat])
    return seen


def deducible(game: Game, seat: int) -> set[str]:
    """Cards ``seat`` can work out: once the stock is empty and one other hand is left, every
    card it has not seen is in that hand (a solved endgame's hint may name them)."""
    holders = [s for s in range(game.players) if s != seat and game.state.hands[s]]
    return hand_ids(game, holders) if not game.stock and len(holders) == 1 else set()


class SeatWatcher:
    """Checks every comm message, when it is sent, against who may see what right then:
    behind the cover nobody's hand; uncovered, only the acting player's (and what that
    player can work out from the cards seen)."""

    def __init__(self) -> None:
        self.app: GameApp | None = None
        self.leaks: list[str] = []
        self.checked = 0
        self.covered_checks = 0

    def hidden(self) -> set[str]:
        app = self.app
        assert app is not None
        c = app.play
        game = c.game
        if game.outcome is not None:
            return set()
        seats = list(range(game.players))
        shown = [] if c.covered else [c.you]
        hidden = hand_ids(game, [s for s in seats if s not in shown]) - public_cards(game)
        return hidden - hand_ids(game, shown) - deducible(game, c.you)

    def check(self, msg_type: str, data: Any) -> None:
        if self.app is None:
            return
        hidden = self.hidden()
        if not hidden:
            return
        self.checked += 1
        self.covered_checks += self.app.play.covered
        tr = self.app.i18n
        shorts = {card_short(Card.parse(i), tr): i for i in hidden}
        for text in strings(data):
            found = {text} & hidden or {t for t in CARD_TOKEN.findall(text) if t in hidden}
            found |= {i for short, i in shorts.items() if short in text}
            if found:
                self.leaks.append(f"{msg_type}: {sorted(found)} in {text[:200]!r}")


class SeatComm(BaseComm):
    watcher: SeatWatcher = SeatWatcher()

    def publish_msg(self, msg_type: str, data: Any = None, *args: Any, **keys: Any) -> None:
        self.watcher.check(msg_type, data)


@pytest.fixture
def seat_watcher(monkeypatch: pytest.MonkeyPatch) -> SeatWatcher:
    watcher = SeatWatcher()
    monkeypatch.setattr(SeatComm, "watcher", watcher)
    monkeypatch.setattr(comm, "create_comm", lambda **kwargs: SeatComm(**kwargs))
    return watcher


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 8)])
def test_a_hot_seat_game_never_shows_a_hand_to_the_wrong_player(
    seat_watcher: SeatWatcher, players: int, seed: int
) -> None:
    """S1: friends at one device; between turns a cover hides every hand."""
    app = GameApp(players=players, language="en", seed=seed, pace=0, hot_seat=True)
    seat_watcher.app = app
    c = app.play
    rng = random.Random(seed)
    covers = hinted = 0
    names = c.names(app.i18n)
    while c.game.outcome is None:
        if c.covered:
            covers += 1
            who = names[c.you]
            assert is_shown(app.cover) and who in app.cover_text.value
            assert app.table.view["hand"] == [] and app.table.view["actions"] == []
            # a forged click behind the cover plays nothing
            before = len(c.game.history)
            card = c.game.state.hands[c.you][0]
            click(app, {"type": "card", "zone": "hand", "id": card.ascii()})
            assert len(c.game.history) == before
            press(app.cover_button)
            assert not c.covered and c.you == next_seat(c.game)
            assert {v["id"] for v in app.table.view["hand"]} == hand_ids(c.game, [c.you])
            continue
        legal = [a for a in c.game.legal_actions() if a.seat == c.you]
        if rng.random() < 0.15:  # a hint names cards of the hand too: only to its owner
            click(app, {"type": "action", "id": "hint"})
            hinted += c.message is not None and c.message[0] == "hint"
        if rng.random() < 0.1:  # a refused try: it names a card, but only to its owner
            wrong = next(
                (
                    Action.lead(c.you, card)
                    for card in c.game.state.hands[c.you]
                    if c.game.why_illegal(Action.lead(c.you, card)) is not None
                ),
                None,
            )
            if wrong is not None:
                click(app, {"type": "card", "zone": "hand", "id": wrong.card.ascii()})  # type: ignore[union-attr]
        for content in clicks_for(c, rng.choice(legal)):
            click(app, content)
        assert covers < 1000
    assert covers > 5 and seat_watcher.covered_checks > 5 and hinted > 0
    assert seat_watcher.checked > covers
    assert seat_watcher.leaks == []
    assert all(e.kind != "refused" for e in c.log.entries)
    # the end: the result only, no review (there is no single learner)
    assert "durak" in app.free_play.panel.result.value.lower() or "draw" in (
        app.free_play.panel.result.value.lower()
    )
    assert app.review.value == ""
    app.i18n.set_language("ru")
    assert seat_watcher.leaks == []


def test_hot_seat_names_typed_or_default() -> None:
    app = GameApp(players=2, language="en", seed=3, pace=0, level="newcomer")
    app.mode.value = "hotseat"
    assert app.players.options[0][0] == "2 players"
    assert is_shown(app.names_box)
    shown = [b for b in app.name_boxes if is_shown(b)]
    assert len(shown) == 2 and shown[1].placeholder == "Bruno"
    shown[0].value = "  Zoé   la\tgrande  " + "x" * 40
    app.new_game()
    c = app.play
    assert c.hot_seat and c.covered
    tr = app.i18n
    assert c.names(tr)[0].startswith("Zoé la grande") and len(c.names(tr)[0]) == 20
    assert c.names(tr)[1] == "Bruno"
    app.i18n.set_language("ru")
    assert c.names(app.i18n)[1] == app.i18n.gettext("Bruno") != "Bruno"
    assert app.resume_state() == {}  # a hot-seat game is not offered for resuming


# ---------------------------------------------------------------- the end-of-game review


def test_a_decision_is_scored_against_the_best_move() -> None:
    game = Game.from_position(Rules(), ["9S 10D 6H", "8D 7C 6C"], stock="", turnup="KS", attacker=1)
    game.play("1:8D")
    obs = observe(game, 0)
    take = Action.take(0)
    spend = Action.beat(0, "9S", "8D")
    keep = Action.beat(0, "10D", "8D")
    scores = {take: 0.2, spend: 0.6, keep: 0.9}
    assert score_decision(1, obs, take, scores) == Mistake(
        1, take, keep, 0.9 - 0.2, False, 1, 0.9, 0.2
    )
    spent = score_decision(2, obs, spend, scores)
    assert spent.better == keep and spent.trump_spent and spent.picked_up == 0
    best = score_decision(3, obs, keep, scores)
    assert best.cost == 0 and best.better == keep
    small = Mistake(4, spend, keep, MIN_COST / 2, True, 0)
    assert review([best, small, spent, score_decision(1, obs, take, scores)]) == [
        score_decision(1, obs, take, scores),
        spent,
    ]


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_the_review_says_why_in_every_language(lang: str) -> None:
    tr = I18n(lang)
    take, keep = Action.take(0), Action.beat(0, "10D", "8D")
    spend = Action.beat(0, "9S", "8D")
    decisions = [
        Mistake(3, take, keep, 0.31, False, 1, 0.72, 0.41, 40),
        Mistake(7, take, keep, 0.2, False, 3, 0.5, 0.3, 21),
        Mistake(9, spend, keep, 0.12, True, 0, 0.62, 0.5),  # bare scores: no count of games
        Mistake(11, spend, keep, 0.06, True, 0, 0.56, 0.5),
    ]
    html = review_html(decisions, tr)
    assert html.count("<li>") == 3 and "11" not in html.split("<li>")[-1][:8]
    # both outcomes, as rates, and the real number of trial games for the costliest move
    items = html.split("<li>")
    first = items[1]
    assert escape(rate(0.72, tr)) in first and escape(rate(0.41, tr)) in first
    assert " 40 " in first and " 21 " in items[2]
    for share in (0.0, 0.5, 1.0):
        assert "{" not in rate(share, tr) and rate(share, tr)
    # two rates that would read alike out of 10 are said out of 100
    close = review_html([Mistake(1, take, keep, 0.06, False, 1, 0.64, 0.58, 30)], tr)
    assert escape(rate(0.64, tr, scale=100)) in close
    assert escape(rate(0.58, tr, scale=100)) in close
    # a solved endgame is said exactly, without trial games
    exact = review_html(
        [
            Mistake(n, spend, keep, 0.5, True, 0, 1.0, 0.5, 0, False, values)
            for n, values in ((1, ("win", "draw")), (2, ("win", "loss")), (3, ("draw", "loss")))
        ],
        tr,
    )
    assert exact.count("<li>") == 3 and len(set(exact.split("<li>")[1:])) == 3
    assert escape(rate(0.5, tr)) not in exact and escape(rate(1.0, tr)) not in exact
    # with the best answer to the move (issue 18 item 4: "this lets Ana win: she plays ...")
    answered = Mistake(1, spend, keep, 1.0, True, 0, 1.0, 0.0, 0, False, ("win", "loss"), take)
    said = review_html([answered], tr)
    assert escape(describe_action(take, tr)) in said and said != review_html(
        [Mistake(1, spend, keep, 1.0, True, 0, 1.0, 0.0, 0, False, ("win", "loss"))], tr
    )
    assert describe_action(keep, tr) in html and card_short(Card.parse("9S"), tr) in html
    one = tr.ngettext(
        "Taking put {n} card into your hand.", "Taking put {n} cards into your hand.", 1
    )
    three = tr.ngettext(
        "Taking put {n} card into your hand.", "Taking put {n} cards into your hand.", 3
    )
    assert one in html and three in html
    if lang != "en":
        assert html != review_html(decisions, I18n("en"))
    assert "durak-review" in review_html([Mistake(1, keep, keep, 0.0, False, 0)], tr)
    assert review_html([], tr) == ""
    for action in (Action.lead(0, "6H"), Action.throw(0, "6H"), Action.pass_(0), Action.swap(0)):
        assert describe_action(action, tr)


@pytest.mark.review
def test_a_game_against_the_computer_ends_with_the_review() -> None:
    app = GameApp(players=2, language="en", seed=11, pace=0, level="newcomer")
    c = app.play
    rng = random.Random(1)
    while c.game.outcome is None:
        learner_plays(app, rng)
    assert c.decisions and all(0 <= d.cost <= 1 for d in c.decisions)
    assert all(d.chosen.seat == 0 and d.better.seat == 0 for d in c.decisions)
    assert "durak-review" in app.review.value
    assert is_shown(app.free_play.panel.result_box)
    press(app.free_play.panel.again)
    assert app.review.value == "" and c.decisions == []


def test_the_computers_thinking_counts_in_its_pause(
    loop: FakeLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move comes a pace after the learner's move, the search's time included."""
    ticks = iter(range(1000))
    monkeypatch.setattr(free_play_view, "_clock", lambda: 0.25 * next(ticks))
    app = computer_first(loop)
    c = app.controller
    action = c.next_opponent_action()
    assert action is not None
    base = PACE * (QUICK_FACTOR if action.kind is ActionKind.PASS else 1.0)
    assert loop.pending[-1][0] == pytest.approx(max(0.0, base - 0.25))


# ------------------------------------- house rules and matches (S0: teams, three losses; S2)


def finish_game(app: GameApp, rng: random.Random) -> None:
    """The learner plays random legal moves (the computer moves at once) to the game's end."""
    c = app.play
    for _ in range(400):
        if c.game.outcome is not None:
            return
        learner_plays(app, rng)
    raise AssertionError("the game does not end")


def test_the_house_rules_and_matches_have_a_name_and_a_line_in_every_language() -> None:
    english = I18n("en")
    for lang in SUPPORTED_LANGUAGES:
        tr = I18n(lang)
        names = [house_rule_name(name, tr) for name in HOUSE_RULES]
        lines = [house_rule_description(name, tr) for name in HOUSE_RULES]
        matches = [match_name(m, tr) for m in MATCHES]
        about = [match_description(m, tr) for m in MATCHES]
        for texts in (names, lines, matches, about):
            assert len(set(texts)) == len(texts) and all(texts)
        # each line names its source: wikiHow (S0) or Wikipedia (S2), never translated
        assert "wikiHow" in lines[0] and "Wikipedia" in lines[0]
        assert all("Wikipedia" in line for line in lines[1:])
        assert "wikiHow" in about[1] and "Wikipedia" in about[2]
        if lang != "en":
            assert names != [house_rule_name(n, english) for n in HOUSE_RULES]
            assert lines != [house_rule_description(n, english) for n in HOUSE_RULES]
            assert matches != [match_name(m, english) for m in MATCHES]
            assert about != [match_description(m, english) for m in MATCHES]


def test_the_house_rules_change_the_presets_rules() -> None:
    rules = page_rules("wikipedia", teams=True, flash=True, misdeal=True, match="three_losses")
    base = Rules.preset("wikipedia")
    assert rules.differences(base).keys() == {
        "teams",
        "transfer",
        "flash",
        "misdeal",
        "misdeal_mode",
        "match_scoring",
    }  # S2's preset already leads a later game from the durak's left
    assert (rules.teams, rules.flash, rules.transfer) == (Teams.TWO_V_TWO, True, True)
    assert (rules.misdeal, rules.misdeal_mode) == (Misdeal.FOUR_OF_A_SUIT, MisdealMode.ON_REQUEST)
    classic = page_rules("classic", match="epaulette_ladder")
    assert classic.next_game_start is NextGameStart.LEFT_OF_DURAK
    assert classic.match_scoring is MatchScoring.EPAULETTE_LADDER
    assert page_rules("classic") == Rules.preset("classic")


def test_the_switches_on_the_page_deal_with_them() -> None:
    app = GameApp(players=2, language="en", seed=1, pace=0, level="newcomer")
    assert [box.value for box in app.house.values()] == [False, False, False]
    assert app.match.value == "single" and [v for _, v in app.match.options] == list(MATCHES)
    assert "Wikipedia" in app.house_about["flash"].value and app.match_about.value
    app.teams.value = True
    assert app.players.options == (("A computer partner and two computer opponents", 4),)
    assert "Your partner is Bruno" in app.house_about["teams"].value
    app.flash.value = app.misdeal.value = True
    app.new_game()
    rules = app.play.game.rules
    assert app.play.game.players == 4 and rules == page_rules(
        "classic", teams=True, flash=True, misdeal=True
    )
    app.mode.value = "hotseat"  # hot-seat: four people, no computer partner
    assert app.players.options == (("4 players", 4),)
    assert "Your partner" not in app.house_about["teams"].value
    app.i18n.set_language("ru")
    assert (
        app.teams.description
        == I18n("ru").gettext("Teams: two against two")
        != ("Teams: two against two")
    )
    assert app.match.description == "Серия"


def test_a_teams_game_with_a_computer_partner_names_the_losing_team() -> None:
    """S0, S2: partners sit opposite (you and Bruno against Ana and Diana); the last player
    holding cards makes his whole team lose."""
    for seed in range(20):
        app = GameApp(language="en", seed=seed, pace=0, level="newcomer", teams=True)
        c = app.play
        assert c.game.players == 4 and c.game.rules.teams is Teams.TWO_V_TWO
        assert c.names(c.i18n) == ["You", "Ana", "Bruno", "Diana"]
        finish_game(app, random.Random(seed))
        assert any(a.seat == 2 for a in c.game.history)  # the partner plays by itself
        outcome = c.game.outcome
        assert outcome is not None
        if outcome.durak is None:
            continue  # a draw: try another deal
        result = app.free_play.panel.result.value
        if outcome.durak in (0, 2):
            assert set(outcome.losers) == {0, 2}
            assert "Your team loses this time." in result and "Bruno" in result
        else:
            assert set(outcome.losers) == {1, 3}
            assert "Ana and Diana lose as a team." in result
        assert app.standings.value == ""  # one game: no standings
        assert app.free_play.panel.again.description == "New game"
        return
    raise AssertionError("20 team games in a row were draws")


def test_a_three_losses_match_is_played_game_after_game() -> None:
    """S0: the durak three times loses the match; the durak deals the next game, the player
    on his left leads (S0, S2)."""
    app = GameApp(players=3, language="en", seed=7, pace=0, level="newcomer")
    app.match.value = "three_losses"
    app.new_game()
    c = app.play
    panel = app.free_play.panel
    assert not is_shown(app.restart)  # a match's game counts as it was played
    rng = random.Random(7)
    for number in range(1, 40):
        finish_game(app, rng)
        match = app.match_state
        assert match is not None and len(match.games) == number
        assert match.game.history == c.game.history  # the match follows the table
        standings = app.standings.value
        assert f"To three losses: standings after game {number}" in standings
        for standing, name in zip(match.standings(), c.names(c.i18n), strict=True):
            losses = f"{standing.losses} loss" + ("" if standing.losses == 1 else "es")
            assert f"<th scope='row'>{name}</th><td>{losses}</td>" in standings
        if match.finished:
            break
        durak = c.game.outcome.durak  # type: ignore[union-attr]
        assert panel.again.description == "Next game"
        if durak is not None:
            assert f"{c.names(c.i18n)[durak]} deals as the durak" in standings or (
                "you deal as the durak" in standings
            )
        press(panel.again)
        assert c.game.outcome is None or c.game.history
        if durak is not None:
            origin = c.game.origin
            assert origin["dealer"] == durak and origin["previous_durak"] == durak
            assert c.lesson.position["attacker"] == (durak + 1) % 3  # the durak's left leads
    else:
        raise AssertionError("the match does not end")
    loser = match.loser
    assert loser is not None and max(match.scores()) == 3 == match.scores()[loser]
    name = "you lose the match" if loser == 0 else f"{c.names(c.i18n)[loser]} loses the match"
    assert f"Match over: {name}." in app.standings.value
    assert panel.again.description == "New game"
    press(panel.again)  # a new match
    again = app.match_state
    assert again is not None and again is not match and len(again.games) == 1


def test_a_teams_match_counts_losses_per_team() -> None:
    app = GameApp(language="en", seed=3, pace=0, level="newcomer", teams=True, match="three_losses")
    finish_game(app, random.Random(1))
    standings = app.standings.value
    assert "<th scope='col'>Team</th>" in standings
    assert "You and Bruno" in standings and "Ana and Diana" in standings
    match = app.match_state
    assert match is not None and len(match.standings()) == 2


def test_the_epaulette_standings_in_every_language() -> None:
    """S2: the ladder: epaulettes won and the rank that must finish a side next."""
    app = GameApp(players=2, language="en", seed=5, pace=0, level="newcomer")
    app.match.value = "epaulette_ladder"
    app.new_game()
    finish_game(app, random.Random(2))
    match = app.match_state
    assert match is not None
    for lang in SUPPORTED_LANGUAGES:
        tr = I18n(lang)
        html = app.standings_html(tr)
        title = tr.gettext(
            "{match}: standings after game {n}",
            match=tr.pgettext("match", "Epaulettes"),
            n=1,
        )
        assert title in html
        # the column counts rungs, not epaulettes: lesson 12's durak wears two epaulettes
        # after one game, one rung (translations-2026-12-01 N17)
        for header in ("Losses", "Ladder", "Next epaulette"):
            assert f"<th scope='col'>{tr.pgettext('standings', header)}</th>" in html
        for standing in match.standings():
            assert tr.ngettext("{n} loss", "{n} losses", standing.losses) in html
            assert tr.ngettext("{n} rung", "{n} rungs", standing.ladder) in html
            assert standing.next_rank is not None
            assert rank_name(standing.next_rank, tr) in html
        if lang != "en":
            assert html != app.standings_html(I18n("en"))
    ru = I18n("ru")
    assert [ru.ngettext("{n} loss", "{n} losses", n) for n in (1, 2, 5)] == [
        "1 проигрыш",
        "2 проигрыша",
        "5 проигрышей",
    ]
    assert [ru.ngettext("{n} rung", "{n} rungs", n) for n in (1, 3, 11)] == [
        "1 ступенька",
        "3 ступеньки",
        "11 ступенек",
    ]
    es = I18n("es")
    assert es.ngettext("{n} loss", "{n} losses", 2) == "2 derrotas"
    app.i18n.set_language("ru")
    assert "Серия" in app.match.description and "Следующ" in app.standings.value


def test_a_match_resumes_with_its_house_rules_and_finished_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(RESUME_KEY_ENV, "a server secret")
    first = GameApp(
        language="en",
        seed=11,
        pace=0,
        level="newcomer",
        teams=True,
        flash=True,
        misdeal=True,
        match="three_losses",
    )
    rng = random.Random(4)
    finish_game(first, rng)
    press(first.free_play.panel.again)  # game 2
    for _ in range(3):
        if first.play.learner_actions():
            learner_plays(first, rng)
    state = json.loads(json.dumps(first.resume_state()))
    # one sealed token: opaque (no seed, no move in plain text), only this server's key opens it
    assert set(state) == {"sealed"}
    raw = base64.urlsafe_b64decode(state["sealed"])
    assert b"seed" not in raw and b"take" not in raw and b"pass" not in raw
    assert unseal(state["sealed"], b"another key") is None
    opened = unseal(state["sealed"])
    assert opened is not None and opened["deal"]["seed"] == 11
    assert len(opened["results"]) == 1 and opened["game"]["actions"]  # a result, not moves
    again = GameApp(language="en", pace=0)
    assert again.resume(state)
    assert again.play.game.history == first.play.game.history
    assert again.play.game.rules == first.play.game.rules
    assert table_view(again.play) == table_view(first.play)
    assert [b.value for b in again.house.values()] == [True, True, True]
    assert again.match.value == "three_losses" and again.players.value == 4
    resumed, original = again.match_state, first.match_state
    assert resumed is not None and original is not None
    assert resumed.results == original.results and resumed.score() == original.score()
    assert again.standings_html(again.i18n) == first.standings_html(first.i18n)
    # the resume took the game (issue 37 item 2): a second resume of the same state is
    # refused, and the resumed page's own newer state resumes the same match
    assert not GameApp(language="en", pace=0).resume(state)
    taken = again.resume_state()
    assert taken != state
    third = GameApp(language="en", pace=0)
    assert third.resume(taken)
    assert third.play.game.history == first.play.game.history
    assert third.standings_html(third.i18n) == first.standings_html(first.i18n)


def test_forged_house_rules_and_matches_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RESUME_KEY_ENV, "a server secret")
    app = GameApp(seed=5, language="en", pace=0)
    history = list(app.play.game.history)
    game = app.play.resume_state()
    base = {"seed": 1, "players": 2, "preset": "classic", "level": "newcomer"}
    forged = [
        {**base, "teams": True},  # teams are four players
        {**base, "players": 4, "teams": 1},
        {**base, "flash": "yes"},
        {**base, "misdeal": None},
        {**base, "match": "best_of_five"},
        {**base, "past": "0" * 16},  # the old match digest
        {**base, "extra": True},
    ]
    for deal in forged:
        assert _valid_deal(deal) is None, deal
        value = {"v": 2, "deal": deal, "game": game, "results": [], "id": "a" * 32, "n": 1}
        assert not app.resume({"sealed": seal_deal(value)}), deal
        assert list(app.play.game.history) == history
    # the old deals (before the house rules) still resume, and every new field round-trips
    assert _valid_deal(base) == Deal(1, 2, "classic", "newcomer")
    full = Deal(9, 4, "wikipedia", "strong", True, True, True, "epaulette_ladder")
    assert _valid_deal(full.sealed()) == full


def test_same_deal_again_is_not_offered_in_a_match() -> None:
    app = GameApp(players=2, language="en", seed=4, pace=0, match="three_losses")
    c = app.play
    learner_plays(app, random.Random(0))
    history = c.game.history
    app.restart_lesson()  # a forged click on the hidden button
    assert c.game.history == history
    app.match.value = "single"
    app.new_game()
    assert is_shown(app.restart) and app.match_state is None


def test_the_flash_and_misdeal_switches_are_playable_on_the_page() -> None:
    """S2: with "Transfer with Flash" the table offers "Show trump"; with "Misdeal: ask for a
    new deal" a misdealt hand gets "Ask for a new deal" and "Keep these cards"."""
    flashed = redealt = False
    for seed in range(60):
        if not redealt:
            app = GameApp(
                players=3, language="en", seed=seed, pace=0, misdeal=True, level="newcomer"
            )
            c = app.play
            if c.may_keep_deal():
                ids = [a["id"] for a in table_view(c)["actions"] if a["enabled"]]
                assert "redeal" in ids and "keep" in ids
                click(app, {"type": "action", "id": "redeal"})
                assert Action.redeal(c.you) in c.game.history
                redealt = True
        if not flashed:
            app = GameApp(players=3, language="en", seed=seed, pace=0, flash=True, level="newcomer")
            c = app.play
            c.bot, c.scoring = HeuristicBot(), False  # quick: only the switch is tested
            rng = random.Random(seed)
            while c.game.outcome is None and not flashed:
                flash = [a for a in c.learner_actions() if a.kind is ActionKind.FLASH]
                if not flash:
                    learner_plays(app, rng)
                    continue
                clicks = clicks_for(c, flash[0])
                for content in clicks[:-1]:
                    click(app, content)
                assert "flash" in [a["id"] for a in table_view(c)["actions"]]
                before = len(c.game.history)
                click(app, clicks[-1])
                assert c.game.history[before] == flash[0]
                flashed = True
        if flashed and redealt:
            return
    raise AssertionError(f"no Flash ({flashed}) or no misdeal ({redealt}) in 60 deals")


def test_a_new_epaulette_is_announced_in_the_standings() -> None:
    """S2: a durak finished off with a six (the rank his side needed) gets an epaulette."""
    for seed in range(80):
        app = GameApp(
            players=2, language="en", seed=seed, pace=0, match="epaulette_ladder", level="newcomer"
        )
        c = app.play
        c.bot, c.scoring = HeuristicBot(), False  # quick: only the standings are tested
        finish_game(app, random.Random(seed))
        match = app.match_state
        assert match is not None
        needed, got = match.score().ladder[-1]
        if not got:
            assert "durak-epaulette" not in app.standings.value
            continue
        loser = match.results[-1].losers[0]
        for lang in ("en", "ru"):
            tr = I18n(lang)
            assert needed is not None and rank_name(needed, tr) in app.standings_html(tr)
            side = c.names(tr)[loser]
            text = tr.gettext(
                "New epaulette for {side}: the last attack card was the rank needed ({rank}).",
                side=side,
                rank=rank_name(needed, tr),
            )
            assert escape(text) in app.standings_html(tr)
        assert "1 rung" in app.standings.value
        return
    raise AssertionError("no epaulette in 80 games")
