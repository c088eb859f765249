"""The page bridge without a browser: hello and ping validation, the language handshake,
resume after a lost connection, the shell that builds any page, and the failure panels.

Browser messages are delivered the way ipywidgets delivers a custom comm message
(``_handle_custom_msg``); what the kernel sends back is recorded by a comm that keeps every
message (as in tests/test_table_widget.py).
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import say
from tests.lesson_clicks import clicks_for, expected_action
from tutorial import pages
from tutorial.app import LessonApp
from tutorial.bridge import MAX_LANG, MAX_PAGE, RESUME_MAX_CHARS, PageBridge, validate_message
from tutorial.game_page import RESUME_KEY_ENV, GameApp, seal_deal
from tutorial.house_rules import HouseRulesApp
from tutorial.i18n import translator
from tutorial.index_page import IndexApp
from tutorial.lesson_view import panel_view, table_view
from tutorial.page import PENDING_CLASS, BridgedPage
from tutorial.pages import PAGES, MessagePage, Site, page

pytestmark = pytest.mark.usefixtures("no_server_language")


def hello(lang: str = "es", page_name: str = "index", resume: object = None) -> dict[str, Any]:
    return {"type": "hello", "lang": lang, "page": page_name, "resume": resume}


def pongs(messages: list[tuple[str, Any]]) -> list[Any]:
    return [
        data["content"]
        for kind, data in messages
        if kind == "comm_msg" and data.get("method") == "custom"
    ]


# ------------------------------------------------------------------------------ validation


def test_a_hello_is_accepted_as_a_fresh_copy() -> None:
    resume = {"v": 1, "actions": ["0:8C"], "nested": {"x": [1, 2.5, None, True]}}
    content = hello("ru", "03-growing-round", resume)
    message = validate_message(content)
    assert message == content
    assert message is not content and message["resume"] is not resume


@pytest.mark.parametrize(
    "content",
    [
        None,
        "hello",
        [],
        {"type": "hello", "lang": "ru", "page": "index"},  # a key missing
        {**hello(), "extra": 1},  # an unknown key
        {**hello(), "type": "HELLO"},
        hello(lang=5),  # type: ignore[arg-type]
        hello(lang="x" * (MAX_LANG + 1)),
        hello(page_name="p" * (MAX_PAGE + 1)),
        hello(page_name=None),  # type: ignore[arg-type]
        {"type": "ping"},
        {"type": "ping", "n": 1, "x": 2},
        {"type": "ping", "n": "1"},
        {"type": "ping", "n": True},
        {"type": "ping", "n": -1},
        {"type": "ping", "n": 2**60},
        {"type": "ping", "n": 1.0},
        {"type": "pong", "n": 1},
        {"type": "card", "zone": "hand", "id": "7S"},
    ],
)
def test_forged_messages_are_dropped(content: object) -> None:
    assert validate_message(content) is None


@pytest.mark.parametrize(
    "resume",
    [
        [1, 2],
        "state",
        {"x": math.nan},
        {"x": math.inf},
        {"x": "y" * RESUME_MAX_CHARS},
        {"x": {"x": {"x": {"x": {"x": {"x": {"x": {"x": {"x": {"x": 1}}}}}}}}}},
        {"x": object()},
        {1: "non-string key"},
    ],
)
def test_a_bad_resume_is_dropped_but_the_hello_kept(resume: object) -> None:
    message = validate_message(hello("en", "index", resume))
    assert message is not None and message["lang"] == "en"
    # an object that cannot be used is still an ask to resume: {} (the page says it could
    # not continue, issue 19); anything else is no ask at all
    assert message["resume"] == ({} if isinstance(resume, dict) else None)


def test_a_ping_is_answered_with_its_number(messages: list[tuple[str, Any]]) -> None:
    bridge = PageBridge()
    say(bridge, {"type": "ping", "n": 7})
    say(bridge, {"type": "ping", "n": "8"})  # forged: no answer, no exception
    say(bridge, {"type": "ping", "n": 9})
    assert pongs(messages) == [{"type": "pong", "n": 7}, {"type": "pong", "n": 9}]


def test_the_browser_cannot_write_the_bridge_traits() -> None:
    bridge = PageBridge()
    bridge.lang, bridge.title = "ru", "Урок"
    bridge.set_state({"lang": "en", "title": "forged", "texts": {"a": 1}, "resume": {"b": 2}})
    assert (bridge.lang, bridge.title, bridge.texts, bridge.resume) == ("ru", "Урок", {}, {})


def test_only_the_first_valid_hello_counts() -> None:
    bridge = PageBridge()
    seen: list[str] = []
    bridge.on_hello(lambda h: seen.append(h["lang"]))
    say(bridge, {**hello("ru"), "evil": True})
    say(bridge, hello("ru"))
    say(bridge, hello("en"))
    assert seen == ["ru"] and bridge.hello is not None and bridge.hello["lang"] == "ru"


# ------------------------------------------------------------------------------ language


def test_a_page_waits_for_the_hello_then_speaks_its_language() -> None:
    app = LessonApp("growing-round")
    assert PENDING_CLASS in app.widget._dom_classes
    assert app.bridge.lang == "" and app.bridge.title == ""  # the browser keeps its URL
    assert app.widget.children[0] is app.bridge
    say(app.bridge, hello("ru", "03-growing-round"))
    ru = translator("ru")
    assert PENDING_CLASS not in app.widget._dom_classes
    assert app.i18n.language == "ru" and app.language.value == "ru"
    assert app.bridge.lang == "ru"
    title = ru.gettext(app.controller.lesson.title)
    assert app.bridge.title == ru.gettext("{page} — Learn Durak", page=title)
    assert app.bridge.texts["title"] == ru.gettext("The connection to the lesson was lost")
    assert title in app.title.value
    assert app.notice.value == ""


def test_a_browser_language_tag_is_understood() -> None:
    app = IndexApp()
    say(app.bridge, hello("en-US"))
    assert app.i18n.language == "en"
    assert app.bridge.title == translator("en").gettext("Learn Durak")


def test_an_explicit_language_wins_over_the_hello() -> None:
    app = HouseRulesApp(language="en")
    assert PENDING_CLASS not in app.widget._dom_classes and app.bridge.lang == "en"
    say(app.bridge, hello("ru", "house-rules"))
    assert app.i18n.language == "en" and app.bridge.lang == "en"
    assert app.bridge.title == translator("en").gettext(
        "{page} — Learn Durak", page=translator("en").gettext("House rules")
    )


def test_an_unknown_language_falls_back_to_spanish_visibly() -> None:
    app = LessonApp("beating")
    say(app.bridge, hello("xx<b>", "01-beating"))
    es = translator("es")
    assert app.i18n.language == "es" and app.language.value == "es" and app.bridge.lang == "es"
    assert PENDING_CLASS not in app.widget._dom_classes
    note = es.gettext(
        "This page has no “{code}” version, so it is shown in {language}. "
        "You can pick another language in the menu.",
        code="xx&lt;b&gt;",
        language="español",
    )
    assert note in app.notice.value and "<b>" not in app.notice.value
    # Picking a language in the menu clears the note and goes into the URL.
    app.language.value = "en"
    assert app.i18n.language == "en" and app.bridge.lang == "en" and app.notice.value == ""


# ------------------------------------------------------------------------------ resume


def _walk(app: LessonApp, decisions: int) -> None:
    """Make ``decisions`` correct moves or answers by clicking, going on with Next."""
    c = app.controller
    made = 0
    while made < decisions:
        step = c.step
        assert step is not None
        if step.kind == "move" and not c.step_done:
            for click in clicks_for(c, expected_action(c, step)):
                app._on_click(click)
            made += 1
        elif step.kind == "question" and not c.step_done:
            app.choices[next(i for i, ch in enumerate(step.choices) if ch.correct)].click()
            made += 1
        app.next.click()


def test_a_page_resumes_where_the_learner_was() -> None:
    first = LessonApp("growing-round")
    say(first.bridge, hello("en", "03-growing-round"))
    _walk(first, 2)
    if first.controller.can_hint():
        first.hint.click()
    stored = json.loads(json.dumps(first.bridge.resume))  # what sessionStorage keeps
    assert stored == first.controller.resume_state() and stored["step"] > 0

    again = LessonApp("growing-round")
    say(again.bridge, hello("en", "03-growing-round", stored))
    assert again.controller.index == first.controller.index
    assert again.controller.game.history == first.controller.game.history
    assert panel_view(again.controller) == panel_view(first.controller)
    assert again.bridge.resume == stored
    assert PENDING_CLASS not in again.widget._dom_classes


@pytest.mark.parametrize(
    "resume",
    [{}, {"v": 1}, {"step": "abc"}, {"v": 1, "lesson": "beating", "step": 0}],
)
def test_an_unusable_resume_means_a_fresh_start(resume: dict[str, Any]) -> None:
    app = LessonApp("growing-round")
    fresh = app.controller.resume_state()
    say(app.bridge, hello("ru", "03-growing-round", resume))
    assert app.controller.resume_state() == fresh
    assert app.i18n.language == "ru" and PENDING_CLASS not in app.widget._dom_classes


def _play_some(app: GameApp, moves: int) -> None:
    c = app.controller
    for _ in range(moves):
        actions = [a for a in c.game.legal_actions() if a.seat == c.you]
        if not actions:
            break
        for click in clicks_for(c, actions[0]):
            app._on_click(click)


@pytest.mark.parametrize("key", ["server", "machine"])
def test_the_play_page_resumes_the_same_deal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, key: str
) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    if key == "server":
        monkeypatch.setenv(RESUME_KEY_ENV, "a server secret")
    first = GameApp(players=3, preset="classic", seed=1234)
    say(first.bridge, hello("en", "play"))
    _play_some(first, 3)
    stored = json.loads(json.dumps(first.bridge.resume))
    assert set(stored) == {"sealed"}
    # One sealed token: neither the seed nor the moves are readable in it.
    assert "1234" not in json.dumps(stored) and "take" not in json.dumps(stored)

    again = GameApp()  # another random deal, 2 players
    say(again.bridge, hello("en", "play", stored))
    assert again.controller.game.history == first.controller.game.history
    assert table_view(again.controller) == table_view(first.controller)
    assert again.players.value == 3
    # "Same deal again" deals the resumed game's cards, not the page's first deal.
    again.restart.click()
    first.restart.click()
    assert table_view(again.controller) == table_view(first.controller)


def test_the_play_page_refuses_a_forged_or_foreign_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RESUME_KEY_ENV, "a server secret")
    app = GameApp(seed=5)
    history = list(app.controller.game.history)
    game = app.controller.resume_state()

    def sealed(deal: dict[str, object], key: bytes | None = None, **more: object) -> object:
        value = {"v": 2, "deal": deal, "game": game, "results": [], "id": "b" * 32, "n": 1}
        return {"sealed": seal_deal({**value, **more}, key)}

    classic = {"seed": 1, "players": 2, "preset": "classic"}
    forged = [
        sealed(classic, b"k" * 32),
        sealed({**classic, "seed": -1}),
        sealed({**classic, "players": 9}),
        sealed({**classic, "preset": "nope"}),
        sealed(classic, v=1),
        sealed(classic, id="not hex"),
        sealed(classic, n=0),
        sealed(classic, results=[[0, None, 1, [1], 1, "", 0]]),  # a single game has none
        sealed(classic, game={"v": 1}),
        {"sealed": "A" * 80},
        {"sealed": 5},
        {"deal": seal_deal(classic), "game": game},  # the old format: the deal sealed alone
    ]
    for state in forged:
        assert not app.resume(state), state
        assert list(app.controller.game.history) == history


def test_the_machine_key_is_private_and_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    state = GameApp(seed=5).bridge.resume
    key_file = tmp_path / "durak-resume.key"
    assert key_file.stat().st_mode & 0o077 == 0 and len(key_file.read_bytes()) == 32
    assert GameApp(seed=6).resume(state)


def test_without_any_key_the_play_page_keeps_its_deal_to_itself(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "file" / "runtime"))  # unusable
    app = GameApp(seed=5)
    assert app.bridge.resume == {}


# ------------------------------------------------------------------------------ shell


@pytest.mark.parametrize("name", list(PAGES))
def test_the_shell_builds_every_page_like_the_notebook(name: str) -> None:
    shell = Site()
    assert PENDING_CLASS in shell.widget._dom_classes
    assert shell.widget.children == (shell.bridge,)
    say(shell.bridge, hello("ru", name))
    built = shell.page
    assert isinstance(built, BridgedPage) and not isinstance(built, MessagePage)
    direct = page(name, "ru")
    assert type(built) is type(direct)
    assert built.bridge is shell.bridge and shell.bridge not in built.widget.children
    assert shell.widget.children == (shell.bridge, built.widget)
    assert PENDING_CLASS not in shell.widget._dom_classes
    assert PENDING_CLASS not in built.widget._dom_classes
    assert built.i18n.language == "ru" and shell.bridge.lang == "ru"
    assert shell.bridge.title == direct.bridge.title
    assert shell.bridge.resume == direct.bridge.resume or name == "play"


def test_the_shell_resumes_a_lesson() -> None:
    first = page("03-growing-round", "en")
    assert isinstance(first, LessonApp)
    _walk(first, 1)
    stored = json.loads(json.dumps(first.bridge.resume))
    shell = Site()
    say(shell.bridge, hello("en", "03-growing-round", stored))
    assert isinstance(shell.page, LessonApp)
    assert shell.page.controller.resume_state() == stored


@pytest.mark.parametrize("name", ["nope", "_shell", "../index", "", "INDEX"])
def test_the_shell_refuses_unknown_pages_in_the_learners_language(name: str) -> None:
    shell = Site()
    say(shell.bridge, hello("ru", name))
    panel = shell.page
    assert isinstance(panel, MessagePage) and panel.kind == "not-found"
    ru = translator("ru")
    assert ru.gettext("Page not found") in panel.body.value
    assert "data-durak-page='index'" in panel.body.value
    assert "index.ipynb?lang=ru" in panel.body.value
    assert shell.bridge.title == ru.gettext(
        "{page} — Learn Durak", page=ru.gettext("Page not found")
    )


def test_a_failing_page_shows_a_localized_panel_and_logs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(language: str | None, bridge: PageBridge | None) -> BridgedPage:
        raise RuntimeError("/srv/secret/path exploded")

    monkeypatch.setitem(pages.PAGES, "03-growing-round", broken)
    with caplog.at_level(logging.ERROR, logger="tutorial"):
        panel = page("03-growing-round")
    assert isinstance(panel, MessagePage) and panel.kind == "failed"
    assert PENDING_CLASS in panel.widget._dom_classes
    say(panel.bridge, hello("ru", "03-growing-round"))
    ru = translator("ru")
    assert ru.gettext("This page could not be opened") in panel.body.value
    assert "secret" not in panel.body.value
    assert "index.ipynb?lang=ru" in panel.body.value
    assert any("exploded" in (r.exc_text or "") or r.exc_info for r in caplog.records)

    shell = Site()  # the same through the shell
    say(shell.bridge, hello("en", "03-growing-round"))
    assert isinstance(shell.page, MessagePage) and shell.page.kind == "failed"
    assert shell.bridge.lang == "en"


def test_warm_up_leaves_no_widget_behind(messages: list[tuple[str, Any]]) -> None:
    """The pooled kernel's warm-up builds one page of each kind and closes them all: the
    learner's page is the only thing its kernel then holds."""
    from ipywidgets.widgets.widget import _instances

    from tutorial.pages import warm_up

    before = set(_instances)
    warm_up()
    assert set(_instances) == before
    assert any(kind == "comm_open" for kind, _ in messages)  # pages were really built
