"""The play page's resume state cannot rewrite a game (issue 19; security review finding 1, 8).

The whole state (deal, every move, a match's results) is one sealed token: tampered, older
(replayed) or foreign tokens are refused, nothing changes, and the page says it dealt anew.
"""

from __future__ import annotations

import base64
import os
import random
import time
from pathlib import Path

import pytest

from durak_core import Game
from durak_core.match import Match
from tests.test_bridge import _play_some
from tutorial.game_page import RESUME_KEY_ENV, Deal, GameApp, page_rules
from tutorial.resume_ledger import Ledger
from tutorial.sealing import EARLIER_KEYS_ENV, key_id, seal, unseal


@pytest.fixture(autouse=True)
def server_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RESUME_KEY_ENV, "a server secret for these tests")


def test_a_tampered_token_is_refused_and_the_page_says_so_in_each_language() -> None:
    first = GameApp(seed=7, pace=0)
    _play_some(first, 2)
    token = first.resume_state()["sealed"]
    raw = bytearray(base64.urlsafe_b64decode(token))
    raw[40] ^= 1  # one bit of the sealed moves
    forged = {"sealed": base64.urlsafe_b64encode(bytes(raw)).decode()}
    for lang, words in (
        ("en", "could not be continued"),
        ("es", "No se pudo"),
        ("ru", "не удалось"),
    ):
        again = GameApp(seed=8, pace=0, language=lang)
        history = again.controller.game.history
        assert not again.resume(forged)
        assert again.controller.game.history == history
        assert words in again.notice.value
        again.new_game()  # the note goes with the next deal
        assert again.notice.value == ""


def test_an_older_state_of_a_game_is_refused_even_by_a_new_kernel(
    resume_ledger_in_tmp: Ledger,
) -> None:
    app = GameApp(seed=9, pace=0)
    _play_some(app, 1)
    older = app.resume_state()
    _play_some(app, 2)
    newer = app.resume_state()
    assert older != newer
    # a reload starts a new kernel: its ledger reads the same folder
    from tutorial import resume_ledger

    resume_ledger._LEDGER = Ledger(resume_ledger_in_tmp.folder)
    assert not GameApp(seed=1, pace=0).resume(older)  # it would take two moves back
    resumed = GameApp(seed=1, pace=0)
    assert resumed.resume(newer)
    assert resumed.controller.game.history == app.controller.game.history


def test_a_state_sealed_under_another_key_says_the_key_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = GameApp(seed=3, pace=0).resume_state()
    monkeypatch.setenv(EARLIER_KEYS_ENV, str(key_id()))  # what durak_server hands its kernels
    monkeypatch.setenv(RESUME_KEY_ENV, "the server's next secret, after a restart")
    again = GameApp(seed=4, pace=0, language="en")
    assert not again.resume(state)
    assert "The site has been restarted since your game was saved" in again.notice.value
    # a damaged token is no key this server ever had: not blamed on a new key
    damaged = GameApp(seed=4, pace=0, language="en")
    assert not damaged.resume({"sealed": "AAAA" + "x" * 100})
    assert (
        "has been restarted" not in damaged.notice.value
        and "could not be continued" in damaged.notice.value
    )


def test_a_long_epaulette_match_resumes_from_a_small_state() -> None:
    """Review finding 8: a long epaulette match (84-173 games in random play) once sent
    76-156 KB of moves; now its finished games are results, a few dozen bytes each."""
    rules = page_rules("classic", match="epaulette_ladder")
    seed, rng = 2024, random.Random(5)
    match = Match(rules, 2, seed)
    while len(match.results) < 80 and not match.finished:
        game: Game = match.game
        while game.outcome is None:
            game.play(rng.choice(list(game.legal_actions())))
        if len(match.results) < 80 and not match.score().finished:
            match.next_game()
    assert not match.finished, "pick a seed whose match lasts 80 games"
    match.next_game()
    app = GameApp(seed=seed, players=2, preset="classic", pace=0, match="epaulette_ladder")
    app._match = match
    app._start(Deal(seed, 2, "classic", app._level, match="epaulette_ladder"))
    state = app.resume_state()
    opened = unseal(state["sealed"])
    assert opened is not None and len(opened["results"]) == 80
    assert len(state["sealed"]) < 12_000  # far under the 64 KiB a websocket message may hold
    again = GameApp(seed=1, pace=0)
    assert again.resume(state)
    resumed = again.match_state
    assert resumed is not None and resumed.score() == match.score()
    assert again.play.game.position() == app.play.game.position()
    # a forged result (another game lost) is sealed out of reach: re-sealing needs the key
    assert seal(opened, b"x" * 32) is not None
    assert not GameApp(seed=1, pace=0).resume({"sealed": seal(opened, b"x" * 32)})


def test_a_game_reloaded_after_the_hint_goes_on_with_the_hint_shown() -> None:
    """Found by the lesson transcripts: a Hint pressed in free play set a flag that no
    resume accepted, so a reload after the Hint dealt a new game (and, since the flag was
    never cleared, every reload for the rest of that game did)."""
    app = GameApp(seed=11, pace=0, language="en")
    _play_some(app, 1)
    app._on_click({"type": "action", "id": "hint"})
    hinted = app.controller.message
    assert hinted is not None and hinted[0] == "hint"
    again = GameApp(seed=12, pace=0, language="en")
    assert again.resume(app.resume_state())
    shown = again.controller.message
    # (the page's judge is seeded per page, so a close call may name another move)
    assert shown is not None and shown[0] == "hint"
    assert again.controller.hint_actions()
    assert again.controller.game.history == app.controller.game.history
    # a move, in the tab that took the game (the first one is now frozen, issue 37 item 2):
    # the advice was for the position before it
    _play_some(again, 1)
    later = GameApp(seed=13, pace=0, language="en")
    assert later.resume(again.resume_state())
    assert later.controller.game.history == again.controller.game.history


def test_the_ledger_forgets_games_a_week_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ledger's files are pruned now and then (one new game in 200): those older than
    KEEP_SECONDS go, newer ones stay; a ledger without a folder keeps nothing to prune. (Found
    by the coverage comparison of issue 33: only chance had ever run the pruning.)"""
    from tutorial import resume_ledger

    ledger = Ledger(str(tmp_path))
    old, recent = "a" * 32, "b" * 32
    ledger.record(old, 3)
    ledger.record(recent, 5)
    week = resume_ledger.KEEP_SECONDS
    os.utime(tmp_path / old, (time.time() - week - 60,) * 2)
    assert ledger.prune() == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [recent]
    assert Ledger(str(tmp_path)).latest(old) is None
    assert Ledger(str(tmp_path)).latest(recent) == 5
    assert ledger.prune(now=time.time() + week + 60) == 1 and not list(tmp_path.iterdir())
    assert Ledger(None).prune() == 0
    assert Ledger(str(tmp_path / "gone")).prune() == 0
    # a new game prunes when the draw says so; a game seen before never does
    pruned: list[float | None] = []
    monkeypatch.setattr(resume_ledger.random, "randrange", lambda _n: 0)
    monkeypatch.setattr(Ledger, "prune", lambda _self, now=None: pruned.append(now) or 0)
    ledger.record("c" * 32, 1)
    ledger.record("c" * 32, 2)
    assert pruned == [None]
