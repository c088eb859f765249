"""A game is played in one tab, and Back keeps it (issue 37 items 2 and 4; security review
findings 2 and 4).

Item 2: a resume takes the game (a second resume of the same state is refused); a page whose
game went on elsewhere plays nothing more and freezes under a localized cover, "This game
continues in another tab", whose "Take the game here" goes on from the newest state only.
Item 4: a page change inside the tab hands the play page the tab's sealed state, so Back to it
keeps the game; a page opened afresh offers the tab's stored game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import say
from tests.test_bridge import _play_some
from tests.test_game_page import FakeLoop, computer_first
from tutorial import free_play_view, resume_ledger
from tutorial.bridge import validate_message
from tutorial.game_page import RESUME_KEY_ENV, GameApp
from tutorial.i18n import translator
from tutorial.page import is_shown
from tutorial.pages import Site
from tutorial.resume_ledger import Entry, Ledger
from tutorial.sealing import unseal

pytestmark = pytest.mark.usefixtures("no_server_language")

ELSEWHERE = "This game continues in another tab"


@pytest.fixture
def loop(monkeypatch: pytest.MonkeyPatch) -> FakeLoop:
    """The kernel's event loop, run by hand (as in tests/test_game_page.py)."""
    fake = FakeLoop()
    monkeypatch.setattr(free_play_view, "kernel_schedule", lambda: fake.call_later)
    monkeypatch.setattr(free_play_view, "_clock", lambda: 0.0)
    return fake


@pytest.fixture(autouse=True)
def server_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RESUME_KEY_ENV, "a server secret for these tests")


def stored(app: GameApp) -> dict[str, Any]:
    """What the tab's sessionStorage keeps for the page (through JSON, as the browser does)."""
    state: dict[str, Any] = json.loads(json.dumps(app.bridge.resume))
    return state


def frozen(app: GameApp, lang: str = "en") -> bool:
    """The page shows the one-tab cover saying the game continues in another tab."""
    words = translator(lang).gettext(ELSEWHERE)
    return is_shown(app.away) and words in app.away_text.value


def new_kernel(folder: str | None) -> None:
    """Another kernel of the same server (a reload, another tab): its own ledger object on
    the same folder."""
    resume_ledger._LEDGER = Ledger(folder)


# ---------------------------------------------------------------------------- the ledger


def test_the_ledger_moves_a_game_on_only_from_the_number_held(tmp_path: Path) -> None:
    one, two = Ledger(str(tmp_path)), Ledger(str(tmp_path))  # two kernels, one folder
    game = "c" * 32
    assert one.advance(game, 0, 1)  # a new game: reserve 1
    assert two.entry(game) == Entry(1, "")  # reserved: no token to take yet
    assert one.advance(game, 1, 1, "token-1")  # sealed
    assert two.entry(game) == Entry(1, "token-1")
    assert two.advance(game, 1, 2, "token-2")  # the other kernel resumed 1 and took the game
    assert not one.advance(game, 1, 2)  # the first one's next move is refused
    assert one.latest(game) == 2 and one.entry(game) == Entry(2, "token-2")
    assert not two.advance(game, 1, 2)  # a second resume of state 1 is refused too
    # the old one-number files (before this change) still read
    (tmp_path / ("d" * 32)).write_text("7")
    assert one.entry("d" * 32) == Entry(7, "") and one.latest("d" * 32) == 7
    # without a folder, a kernel keeps its own games
    alone = Ledger(None)
    assert alone.advance(game, 0, 1, "t") and not alone.advance(game, 0, 1)


# ---------------------------------------------------------------------------- one tab


def test_a_resume_takes_the_game_and_a_second_resume_of_it_is_refused(
    resume_ledger_in_tmp: Ledger,
) -> None:
    first = GameApp(seed=21, pace=0, language="en")
    _play_some(first, 2)
    state = stored(first)
    new_kernel(resume_ledger_in_tmp.folder)
    taken = GameApp(seed=1, pace=0, language="en")
    assert taken.resume(state)
    assert taken.play.game.history == first.play.game.history
    assert stored(taken) != state  # a state of its own: the next number
    assert not frozen(taken)
    new_kernel(resume_ledger_in_tmp.folder)
    for lang in ("en", "es", "ru"):
        second = GameApp(seed=2, pace=0, language=lang)
        history = second.play.game.history
        assert not second.resume(state)
        assert second.play.game.history == history  # nothing of that game here
        assert frozen(second, lang)
        assert translator(lang).pgettext("button", "Take the game here") in (
            second.away_button.description
        )
        assert "could not be continued" not in second.notice.value


def test_a_tab_whose_game_went_on_elsewhere_plays_nothing_and_freezes(
    resume_ledger_in_tmp: Ledger,
) -> None:
    tab_a = GameApp(seed=22, pace=0, language="es")
    _play_some(tab_a, 1)
    token_a = stored(tab_a)
    tab_b = GameApp(seed=3, pace=0, language="en")
    assert tab_b.resume(token_a)
    before = tab_a.play.game.history
    _play_some(tab_a, 1)  # a move in the tab left behind: refused before it is played
    assert tab_a.play.game.history == before
    assert frozen(tab_a, "es")
    assert stored(tab_a) == token_a  # nothing new to store: its old state, refused elsewhere
    # the learner cannot try a second move from the same position in the first tab
    _play_some(tab_a, 1)
    assert tab_a.play.game.history == before
    # the tab that holds the game plays on
    _play_some(tab_b, 2)
    assert len(tab_b.play.game.history) > len(before)
    assert not frozen(tab_b)


def test_take_it_here_goes_on_from_the_newest_state_and_freezes_the_other_tab(
    resume_ledger_in_tmp: Ledger,
) -> None:
    tab_a = GameApp(seed=23, pace=0, language="en")
    _play_some(tab_a, 1)
    old = stored(tab_a)
    tab_b = GameApp(seed=4, pace=0, language="en")
    assert tab_b.resume(old)
    _play_some(tab_b, 2)
    newest = tab_b.play.game.history
    _play_some(tab_a, 1)
    assert frozen(tab_a)
    tab_a.away_button.click()  # "Take the game here"
    assert not frozen(tab_a)
    assert tab_a.play.game.history == newest  # B's moves included: nothing taken back
    # B, left behind in turn, plays nothing more
    _play_some(tab_b, 1)
    assert tab_b.play.game.history == newest and frozen(tab_b)
    # A's state from before B's moves stays refused: taking the game never rewinds it
    assert not GameApp(seed=5, pace=0).resume(old)
    assert tab_a.play.game.history == newest


def test_take_it_here_waits_while_the_other_tab_is_making_a_move(
    resume_ledger_in_tmp: Ledger,
) -> None:
    tab_a = GameApp(seed=24, pace=0, language="en")
    _play_some(tab_a, 1)
    tab_b = GameApp(seed=6, pace=0, language="en")
    assert tab_b.resume(stored(tab_a))
    _play_some(tab_a, 1)
    assert frozen(tab_a)
    history = tab_a.play.game.history
    assert tab_b._hold()  # B has reserved its next number and not sealed it yet
    tab_a.away_button.click()
    assert frozen(tab_a) and tab_a.play.game.history == history
    assert "in the middle of a move" in tab_a.away_text.value
    tab_b.sync_bridge()  # B's state is sealed: now it can be taken
    tab_a.away_button.click()
    assert not frozen(tab_a) and tab_a.play.game.history == tab_b.play.game.history


def test_the_computer_plays_no_move_in_a_tab_left_behind(
    loop: FakeLoop, resume_ledger_in_tmp: Ledger
) -> None:
    tab_a = computer_first(loop)
    assert loop.live() == 1  # the computer's first move is scheduled
    tab_b = GameApp(seed=7, pace=0, language="en")
    assert tab_b.resume(stored(tab_a))
    loop.run_next()
    assert tab_a.play.game.history == () and frozen(tab_a)
    assert loop.live() == 0


def test_a_new_game_in_a_frozen_tab_is_its_own(resume_ledger_in_tmp: Ledger) -> None:
    tab_a = GameApp(seed=25, pace=0, language="en")
    _play_some(tab_a, 1)
    tab_b = GameApp(seed=8, pace=0, language="en")
    assert tab_b.resume(stored(tab_a))
    _play_some(tab_a, 1)
    assert frozen(tab_a)
    tab_a.away_other.click()  # "Start a new game"
    assert not frozen(tab_a) and not is_shown(tab_a.away)
    _play_some(tab_a, 1)
    _play_some(tab_b, 1)
    assert not frozen(tab_a) and not frozen(tab_b)  # two games, one in each tab


# ---------------------------------------------------------------------------- Back keeps it


def test_a_page_change_carries_only_a_sealed_state() -> None:
    go = {"type": "go", "lang": "en", "page": "play"}
    assert validate_message(go | {"resume": {"sealed": "abc"}}) == go | {
        "resume": {"sealed": "abc"}
    }
    for other in ({"v": 1}, {"sealed": 5}, {"sealed": "a", "more": 1}, {"sealed": "x" * 70_000}):
        message = validate_message(go | {"resume": other})
        assert message is not None and message["resume"] is None
    hello = {"type": "hello", "lang": "en", "page": "play", "resume": None}
    message = validate_message(hello | {"stored": {"sealed": "abc"}})
    assert message is not None and message.get("stored") == {"sealed": "abc"}
    message = validate_message(hello | {"stored": {"v": 1}})
    assert message is not None and "stored" not in message
    assert validate_message(go | {"resume": None, "stored": {"sealed": "abc"}}) is None


def test_back_to_the_play_page_inside_the_tab_keeps_the_game() -> None:
    tab = Site("play")
    say(tab.bridge, {"type": "hello", "lang": "en", "page": "play", "resume": None})
    page = tab.page
    assert isinstance(page, GameApp)
    _play_some(page, 2)
    history, hand = page.play.game.history, page.table_snapshot()["hand"]
    kept = stored(page)  # sessionStorage under the play page's address
    say(tab.bridge, {"type": "go", "lang": "en", "page": "index", "resume": None})
    say(tab.bridge, {"type": "go", "lang": "en", "page": "play", "resume": kept})  # Back
    back = tab.page
    assert isinstance(back, GameApp) and back is not page
    assert back.play.game.history == history and back.table_snapshot()["hand"] == hand
    assert not frozen(back) and "could not be continued" not in back.notice.value
    _play_some(back, 1)
    assert len(back.play.game.history) > len(history)


def test_a_fresh_page_offers_the_stored_game_and_keeps_it_stored_until_asked() -> None:
    first = GameApp(seed=26, pace=0, language="en")
    _play_some(first, 2)
    kept = stored(first)
    for lang in ("es", "ru", "en"):
        tr = translator(lang)
        reloaded = GameApp(seed=9, pace=0)
        say(
            reloaded.bridge,
            {"type": "hello", "lang": lang, "page": "play", "resume": None, "stored": kept},
        )
        assert is_shown(reloaded.away)
        assert tr.gettext("Your game is saved in this tab") in reloaded.away_text.value
        assert reloaded.away_button.description == tr.pgettext("button", "Continue your game")
        assert stored(reloaded) == kept  # not overwritten by the new deal behind the cover
    reloaded.away_button.click()  # "Continue your game"
    assert reloaded.play.game.history == first.play.game.history
    assert not is_shown(reloaded.away) and stored(reloaded) != kept
    # "Start a new game" instead: the new deal, stored from then on
    other = GameApp(seed=10, pace=0)
    say(
        other.bridge,
        {"type": "hello", "lang": "en", "page": "play", "resume": None, "stored": kept},
    )
    deal = other.play.game.history
    other.away_other.click()
    assert not is_shown(other.away) and other.play.game.history == deal
    assert stored(other) != kept and unseal(stored(other)["sealed"]) is not None
