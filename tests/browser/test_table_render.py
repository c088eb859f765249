"""The table widget in a real browser: Debian's Chromium driven by Playwright.

A local server (tests/browser_harness/) serves a page with a fake anywidget model that
mounts ``tutorial/static/table.js``; the sample views below are built in Python with the real
localized names. Screenshots (1000 px and 360 px per sample) go to ``test-artifacts/table/``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlparse

import pytest

from durak_core import Card
from tests.browser_harness.server import serve
from tutorial import names
from tutorial.i18n import translator
from tutorial.names import ActionKind, Role, Term

from . import harness

ARTIFACTS = harness.ARTIFACTS / "table"
STORAGE_KEY = "durak-explainer:progress:v1"

# ------------------------------------------------------------------------------ sample views


# Captions the catalogs do not have yet (the controller will translate them).
LABELS = {
    "en": {
        "open_ranks": "Open ranks",
        "hand": "Hand",
        "cap": "Attack cards",
        "empty_table": "The table is empty",
        "no_stock": "The stock is empty",
        "acting": "Acting now",
    },
    "es": {
        "open_ranks": "Se puede echar",
        "your_hand": "Tu mano",
        "cap": "Cartas de ataque",
        "empty_table": "La mesa está vacía",
        "no_stock": "El mazo se acabó",
        "acting": "Le toca",
    },
    "ru": {
        "open_ranks": "Можно подкинуть",
        "your_hand": "Твои карты",
        "cap": "Карт под ударом",
        "empty_table": "Стол пуст",
        "no_stock": "Колода кончилась",
        "acting": "Сейчас ход",
    },
}


class Views:
    """Builds TableView dicts in one language, the way the controller will."""

    def __init__(self, lang: str, trump: str) -> None:
        self.lang = lang
        self.tr = translator(lang)
        self.trump = trump  # suit letter

    def card(self, code: str, mark: str = "") -> dict[str, Any]:
        tr, c = self.tr, Card.parse(code)
        trump = c.suit.letter == self.trump
        label = names.capitalize(names.card_full(c, tr))
        if trump:
            label += f" ({names.term(Term.TRUMP, tr).lower()})"
        view: dict[str, Any] = {
            "id": code,
            "rank": names.rank_symbol(c.rank, tr),
            "suit": c.suit.letter,
            "symbol": c.suit.symbol,
            "red": c.suit.is_red,
            "trump": trump,
            "label": label,
        }
        if mark:
            view["mark"] = mark
        return view

    def seat(
        self,
        seat: int,
        count: int,
        role: str = "",
        *,
        you: bool = False,
        acting: bool = False,
        name: str = "",
        cards: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        tr = self.tr
        view: dict[str, Any] = {
            "seat": seat,
            "name": name or (names.you_label(tr) if you else names.player_name(seat, tr)),
            "count": count,
            "count_label": names.card_count(count, tr),
            "role": role,
            "role_label": names.role_name(Role(role), tr) if role else "",
            "you": you,
            "acting": acting,
        }
        if cards is not None:
            view["cards"] = cards
        return view

    def action(self, kind: str, enabled: bool = True, hint: bool = False) -> dict[str, Any]:
        label = names.action_label(ActionKind[kind.upper()], self.tr)
        view: dict[str, Any] = {"id": kind, "label": label, "enabled": enabled}
        if hint:
            view["hint"] = True
        return view

    def labels(self) -> dict[str, str]:
        tr = self.tr
        return {
            "stock": names.term(Term.STOCK, tr),
            "discard": names.term(Term.DISCARD, tr),
            "trump": names.term(Term.TRUMP, tr),
            "table": names.term(Term.TABLE, tr),
            **LABELS[self.lang],
        }

    def view(self, **fields: Any) -> dict[str, Any]:
        tr = self.tr
        suit = Card.parse("2" + self.trump).suit
        base: dict[str, Any] = {
            "lang": self.lang,
            "labels": self.labels(),
            "you": 0,
            "table": [],
            "stock_count": 0,
            "turnup": None,
            "turnup_in_stock": False,
            "trump_symbol": suit.symbol,
            "trump_name": names.suit_name(suit, tr),
            "discard_count": 0,
            "open_ranks": [],
            "cap_label": "",
            "actions": [],
            "message": None,
            "narration": "",
            "hints": False,
            "busy": False,
        }
        base.update(fields)
        base["stock_label"] = names.card_count(base["stock_count"], tr)
        base["discard_label"] = names.card_count(base["discard_count"], tr)
        return base

    def pair(
        self,
        attack: str,
        defence: str | None = None,
        *,
        selectable: bool = False,
        attack_mark: str = "",
        defence_mark: str = "",
    ) -> dict[str, Any]:
        return {
            "attack": self.card(attack, attack_mark),
            "defence": self.card(defence, defence_mark) if defence else None,
            "selectable": selectable,
        }


def bout_2p() -> dict[str, Any]:
    """Spanish, two players, the learner defends against two attack cards (one beaten)."""
    v = Views("es", trump="H")
    hand = [
        v.card("7C"), v.card("9C"), v.card("10D", "playable"), v.card("QS"),
        v.card("6H", "playable"), v.card("KH", "selected"),
    ]  # fmt: skip
    return v.view(
        seats=[
            v.seat(0, len(hand), "defender", you=True, acting=True),
            v.seat(1, 4, "attacker", name="Ana"),
        ],
        hand=hand,
        table=[v.pair("8C", "10C"), v.pair("8D", selectable=True, attack_mark="new")],
        stock_count=18,
        turnup=v.card("AH"),
        turnup_in_stock=True,
        discard_count=6,
        open_ranks=["8", "10"],
        cap_label="2 de 6",
        actions=[v.action("take"), v.action("pass", enabled=False)],
        message={
            "kind": "error",
            "text": "El 9♣ no puede cubrir al 8♦: hace falta un ♦ más alto o un triunfo (♥).",
        },
        narration="Ana echa el 8♦.",
        hints=True,
    )


def four_players() -> dict[str, Any]:
    """English, four players: the learner adds cards; the defender's hand is face up."""
    v = Views("en", trump="S")
    hand = [
        v.card("6C"), v.card("9D", "playable"), v.card("9H", "hint"), v.card("JC"),
        v.card("QD"), v.card("KC"), v.card("AD"), v.card("7S"),
    ]  # fmt: skip
    boris = [v.card("8C"), v.card("10S"), v.card("QH")]
    return v.view(
        seats=[
            v.seat(0, 2, "attacker", name="Ana", acting=True),
            v.seat(1, len(boris), "defender", name="Boris", cards=boris),
            v.seat(2, len(hand), "thrower", you=True, acting=True),
            v.seat(3, 0, "out", name="Carmen"),
        ],
        you=2,
        hand=hand,
        table=[
            v.pair("9C", "JC"),
            v.pair("9S", "AS"),
            v.pair("JD", "JS", defence_mark="new"),
            v.pair("6D", "8D", defence_mark="explain"),
        ],
        stock_count=3,
        turnup=v.card("8S"),
        turnup_in_stock=True,
        discard_count=14,
        open_ranks=["6", "8", "9", "J", "A"],
        cap_label="4 of 5",
        actions=[v.action("pass", hint=True)],
        message={"kind": "info", "text": "You may add a 9, 6, 8, J or A — or say you are done."},
        narration="Boris beats the J♦ with the J♠ (a trump).",
        hints=True,
    )


def empty_table() -> dict[str, Any]:
    """Russian, three players, a new bout: empty table, full stock, the turn-up under it."""
    v = Views("ru", trump="D")
    hand = [v.card(c, "playable") for c in ("6C", "8S", "10S", "JH")] + [
        v.card("7D", "playable"),
        v.card("AC", "playable"),
    ]
    return v.view(
        seats=[
            v.seat(0, len(hand), "attacker", you=True, acting=True),
            v.seat(1, 6, "defender", name="Борис"),
            v.seat(2, 6, "", name="Вера"),
        ],
        hand=hand,
        stock_count=18,
        turnup=v.card("QD"),
        turnup_in_stock=True,
        cap_label="0 из 6",
        actions=[v.action("swap", hint=True)],
        message={"kind": "question", "text": "С какой карты ты пойдёшь?"},
        narration="Новый ход: ты ходишь под Бориса.",
        hints=True,
    )


def finished() -> dict[str, Any]:
    """English, the game is over: the learner went out, Ana is the durak."""
    v = Views("en", trump="C")
    return v.view(
        seats=[
            v.seat(0, 0, "out", you=True),
            v.seat(1, 0, "out", name="Boris"),
            v.seat(2, 3, "durak", name="Ana"),
        ],
        hand=[],
        discard_count=33,
        actions=[],
        message={"kind": "success", "text": "You went out first — well played! Ana is the durak."},
        narration="Boris beat the last attack and went out too.",
    )


SAMPLES = {
    "bout_2p": bout_2p,
    "four_players": four_players,
    "empty_table": empty_table,
    "finished": finished,
}

# ------------------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with serve() as url:
        yield url


class Page:
    """A harness page: mount a view, read what the fake model sent, fail on JS errors."""

    def __init__(self, browser: Any, base_url: str, width: int, init_script: str = "") -> None:
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.context = browser.new_context(
            viewport={"width": width, "height": 900}, reduced_motion="reduce"
        )
        host = urlparse(base_url).netloc
        self.context.route("**/*", self._only_local(host))
        self.context.set_default_timeout(5_000)
        self.page = self.context.new_page()
        if init_script:
            self.page.add_init_script(init_script)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.goto(base_url)
        self.page.wait_for_function("window.harnessReady === true")

    def _only_local(self, host: str) -> Callable[[Any], None]:
        def handle(route: Any) -> None:
            if urlparse(route.request.url).netloc == host:
                route.continue_()
            else:
                self.foreign.append(route.request.url)
                route.abort()

        return handle

    def mount(self, view: dict[str, Any], progress: dict[str, Any] | None = None) -> None:
        self.page.evaluate("([v, p]) => window.mountTable(v, p)", [view, progress or {}])

    def push(self, key: str, value: Any) -> None:
        """What a trait change from Python looks like to the view."""
        self.page.evaluate("([k, v]) => window.model.set(k, v)", [key, value])

    @property
    def sent(self) -> list[dict[str, Any]]:
        return self.page.evaluate("window.model.sent")

    def clicks(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] != "progress"]

    def labels(self, selector: str) -> list[str]:
        return self.page.locator(selector).evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )

    def close(self) -> None:
        assert self.errors == [], self.errors
        assert self.foreign == [], f"requests left the machine: {self.foreign}"
        self.context.close()


@pytest.fixture
def open_page(browser: Any, base_url: str) -> Iterator[Any]:
    pages: list[Page] = []

    def make(width: int = 1000, init_script: str = "") -> Page:
        page = Page(browser, base_url, width, init_script)
        pages.append(page)
        return page

    yield make
    for page in pages:
        page.close()


# ------------------------------------------------------------------------------ tests


def _button_name(card: dict[str, Any]) -> str:
    """A card button's name starts with the text it shows (WCAG 2.5.3): "10♣, ten of clubs"."""
    return f"{card['rank']}{card['symbol']}, {card['label']}"


def _expected_buttons(view: dict[str, Any]) -> list[str]:
    names = [_button_name(c) for c in view["hand"]]
    names += [_button_name(p["attack"]) for p in view["table"] if p["selectable"]]
    return names


@pytest.mark.parametrize("sample", SAMPLES)
def test_card_buttons_have_the_card_labels(open_page: Any, sample: str) -> None:
    view = SAMPLES[sample]()
    page = open_page()
    page.mount(view)
    expected = _expected_buttons(view)
    assert sorted(page.labels("button.dt-card")) == sorted(expected)
    assert page.labels(".dt-hand button.dt-card") == [_button_name(c) for c in view["hand"]]
    # Unplayable cards are not disabled: a wrong click must reach the controller.
    assert page.page.locator("button.dt-card[disabled]").count() == 0
    # Every other face-up card is a picture with the same localized name.
    pictures = [p["attack"]["label"] for p in view["table"] if not p["selectable"]]
    pictures += [p["defence"]["label"] for p in view["table"] if p["defence"]]
    if view["turnup"] and view["turnup_in_stock"]:
        pictures.append(view["turnup"]["label"])
    for seat in view["seats"]:
        pictures += [c["label"] for c in seat.get("cards", [])]
    assert sorted(page.labels('.dt-card[role="img"]')) == sorted(pictures)
    status = page.page.locator('[role="status"]')
    assert status.get_attribute("aria-live") == "polite"
    assert status.inner_text().strip().endswith(view["message"]["text"])
    assert page.page.locator(".durak-table").first.get_attribute("lang") == view["lang"]
    assert "[object" not in page.page.locator(".durak-table").first.inner_text()
    hand_name = view["labels"].get("your_hand") or view["labels"]["hand"]
    assert page.page.locator(".dt-hand").get_attribute("aria-label") == hand_name


def test_clicks_send_card_and_action_messages(open_page: Any) -> None:
    view = bout_2p()
    page = open_page()
    page.mount(view)
    p = page.page
    p.get_by_role("button", name=_button_name(view["hand"][1]), exact=True).click()
    p.get_by_role("button", name=_button_name(view["table"][1]["attack"]), exact=True).click()
    p.locator('.dt-action[data-id="take"]').click()
    # An unavailable action still reaches the controller (it explains why not).
    p.locator('.dt-action[data-id="pass"]').click(force=True)  # aria-disabled, not disabled
    assert page.clicks() == [
        {"type": "card", "zone": "hand", "id": "9C"},
        {"type": "card", "zone": "table", "id": "8D"},
        {"type": "action", "id": "take"},
        {"type": "action", "id": "pass"},
    ]
    assert p.locator('.dt-action[data-id="pass"]').get_attribute("aria-disabled") == "true"
    assert p.locator('.dt-action[data-id="take"]').get_attribute("aria-disabled") is None
    # Pictures (the beaten pair, the turn-up) send nothing.
    p.locator(".dt-defence").first.click(force=True)
    p.locator(".dt-turnup").click(force=True)
    assert len(page.clicks()) == 4


def test_face_up_seat_cards_are_pictures_a_click_still_reports(open_page: Any) -> None:
    """Another player's face-up cards are no controls (no tab stops before the learner's own
    hand), but a mouse click on one still reaches the controller, which says whose it is."""
    view = four_players()
    page = open_page()
    page.mount(view)
    card = view["seats"][1]["cards"][2]
    assert page.page.locator(".dt-seat-cards button").count() == 0
    picture = page.page.get_by_role("img", name=card["label"], exact=True)
    assert picture.evaluate("e => e.tabIndex") == -1
    picture.click()
    assert page.clicks() == [{"type": "card", "zone": "seat", "id": "QH"}]


def test_keyboard_enter_and_space_play_a_card(open_page: Any) -> None:
    view = four_players()
    page = open_page()
    page.mount(view)
    p = page.page
    p.locator('.dt-hand [data-id="9D"]').focus()
    p.keyboard.press("Enter")
    p.keyboard.press("Tab")
    p.keyboard.press("Space")
    assert page.clicks() == [
        {"type": "card", "zone": "hand", "id": "9D"},
        {"type": "card", "zone": "hand", "id": "9H"},
    ]
    # The controller redraws without the played card: focus stays in the hand.
    played = four_players()
    played["hand"] = [c for c in played["hand"] if c["id"] != "9H"]
    page.push("view", played)
    focused = p.evaluate("document.activeElement.dataset.id")
    assert focused == "JC"
    # A visible focus ring (keyboard focus).
    outline = p.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"


def test_opponents_sit_in_order_after_the_learner(open_page: Any) -> None:
    page = open_page()
    page.mount(four_players())
    names_in_order = page.page.locator(".dt-opponents .dt-seat .dt-name").all_inner_texts()
    assert names_in_order == ["Carmen", "Ana", "Boris"]
    assert page.page.locator(".dt-you .dt-name").inner_text() == "You"
    acting = page.page.locator(".dt-seat.is-acting .dt-name").all_inner_texts()
    assert acting == ["Ana"]


def test_a_redraw_updates_in_place_and_busy_dims_the_hand(open_page: Any) -> None:
    page = open_page()
    page.mount(bout_2p())
    p = page.page
    p.evaluate("document.querySelector('[role=status]').dataset.marker = 'kept'")
    view = bout_2p()
    view["busy"] = True
    view["hand"] = view["hand"][:2]
    view["message"] = {"kind": "success", "text": "¡Bien!"}
    page.push("view", view)
    assert p.locator(".dt-hand button").count() == 2
    # The live region is the same element (screen readers announce the new text).
    assert p.locator('[role="status"]').get_attribute("data-marker") == "kept"
    assert "kind-success" in (p.locator('[role="status"]').get_attribute("class") or "")
    assert float(p.evaluate("getComputedStyle(document.querySelector('.dt-hand')).opacity")) < 1
    # Clicks while busy still go out (the controller ignores them).
    p.locator(".dt-hand button").first.click()
    assert page.clicks() == [{"type": "card", "zone": "hand", "id": "7C"}]
    # No message: the live region stays (empty), ready for the next one.
    view["message"] = None
    page.push("view", view)
    assert p.locator('[role="status"]').get_attribute("data-marker") == "kept"
    assert p.locator('[role="status"]').inner_text() == ""


def test_cleanup_removes_listeners_and_dom(open_page: Any) -> None:
    page = open_page()
    page.mount(bout_2p())
    p = page.page
    assert p.evaluate("window.model.listenerCount()") == 2
    p.evaluate("window.cleanup()")
    assert p.evaluate("window.model.listenerCount()") == 0
    assert p.locator(".durak-table").count() == 0


def test_progress_round_trip_through_local_storage(open_page: Any) -> None:
    page = open_page()
    p = page.page
    stored = {"lessons": {"attack-1": {"stars": 3}}, "lang": "es"}
    p.evaluate("([k, v]) => localStorage.setItem(k, v)", [STORAGE_KEY, json.dumps(stored)])
    page.mount(bout_2p())
    assert page.sent == [{"type": "progress", "data": stored}]
    saved = {"lessons": {"attack-1": {"stars": 3}, "defence-2": {"stars": 1}}}
    page.push("progress", saved)
    assert json.loads(p.evaluate("k => localStorage.getItem(k)", STORAGE_KEY)) == saved
    # A second redraw does not send the progress again.
    page.push("view", bout_2p())
    assert [m["type"] for m in page.sent] == ["progress"]


def test_progress_with_empty_or_broken_storage_sends_an_empty_dict(open_page: Any) -> None:
    page = open_page()
    page.mount(empty_table())
    assert page.sent == [{"type": "progress", "data": {}}]

    page = open_page()
    page.page.evaluate("k => localStorage.setItem(k, '{not json')", STORAGE_KEY)
    page.mount(empty_table())
    assert page.sent == [{"type": "progress", "data": {}}]


def test_progress_without_local_storage_does_not_break_the_table(open_page: Any) -> None:
    blocked = """
      Object.defineProperty(window, 'localStorage', {
        get() { throw new DOMException('blocked', 'SecurityError'); },
      });
    """
    page = open_page(init_script=blocked)
    page.mount(empty_table())
    assert page.sent == [{"type": "progress", "data": {}}]
    page.push("progress", {"lessons": {}})  # must not throw (checked in Page.close)
    assert page.page.locator(".dt-hand button").count() == 6


def _check_fit_and_screenshot(page: Page, name: str, widths: tuple[int, ...]) -> None:
    p = page.page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width in widths:
        p.set_viewport_size({"width": width, "height": 900})
        assert p.evaluate("document.documentElement.scrollWidth") <= width, width
        # Every card button is fully on screen horizontally.
        boxes = p.locator("button.dt-card").evaluate_all(
            "els => els.map(e => [e.getBoundingClientRect().left, e.getBoundingClientRect().right])"
        )
        assert all(left >= 0 and right <= width for left, right in boxes), width
        p.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)


@pytest.mark.parametrize("sample", SAMPLES)
def test_fits_the_width_and_screenshot(open_page: Any, sample: str) -> None:
    page = open_page(width=1000)
    page.mount(SAMPLES[sample]())
    _check_fit_and_screenshot(page, sample, (1000, 360))


def crowded() -> dict[str, Any]:
    """A stress case: six players with long names, a full table and a huge hand."""
    v = Views("es", trump="S")
    deck = [f"{r}{s}" for s in "CDHS" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    hand = [v.card(c, "playable" if i % 3 == 0 else "") for i, c in enumerate(deck[:16])]
    long_names = ["Maximiliano Fernández", "Александра Константиновна", "Bo", "Ana", "Guadalupe"]
    return v.view(
        seats=[v.seat(0, len(hand), "defender", you=True, acting=True)]
        + [
            v.seat(i + 1, 6 + i, "thrower" if i else "attacker", name=n, acting=i == 0)
            for i, n in enumerate(long_names)
        ],
        hand=hand,
        table=[v.pair(deck[20 + i], deck[30 + i] if i % 2 else None) for i in range(6)],
        stock_count=1,
        turnup=v.card("9S"),
        turnup_in_stock=True,
        discard_count=0,
        open_ranks=["6", "7", "8", "9", "10", "J", "Q", "K", "A"],
        cap_label="6 de 6",
        actions=[v.action(k) for k in ("take", "pass", "swap", "transfer", "beat")],
        message={"kind": "info", "text": "Una línea larga " * 12},
        narration="Y otra más larga todavía " * 8,
        hints=True,
    )


def test_a_crowded_table_still_fits(open_page: Any) -> None:
    view = crowded()
    page = open_page()
    page.mount(view)
    p = page.page
    assert p.locator("button.dt-card").count() == len(view["hand"])
    # With one card left in the stock, only the turn-up lies there.
    assert p.locator(".dt-stock .dt-back").count() == 0
    assert p.locator(".dt-stock .dt-turnup").count() == 1
    _check_fit_and_screenshot(page, "crowded", (1000, 360, 320))


def test_team_markers_and_the_flash_button_from_a_real_snapshot(open_page: Any) -> None:
    """S0/S2 team play and S2's «Flash», drawn from the controller's own snapshot: each seat
    has a numbered team marker whose text says the team (and, for the defender's team-mate,
    that he adds nothing); a held trump offers «Show trump», which sends ``flash``."""
    from tests.test_controller import FLASH_POSITION, TEAMS_POSITION, _lesson
    from tutorial.lesson_view import table_view

    teams = _lesson(
        {"teams": "2v2"},
        ["Ana", "Bruno", "Carla", ""],
        3,
        TEAMS_POSITION,
        [{"kind": "move", "say": "Swap your six.", "expect": ["3:swap"]}],
        lang="ru",
        preset="wikihow_home",
    )
    view = json.loads(json.dumps(table_view(teams)))
    page = open_page()
    page.mount(view)
    p = page.page
    assert p.locator(".dt-team").count() == 4
    assert sorted(p.locator(".dt-team-dot").all_inner_texts()) == ["1", "1", "2", "2"]
    mine = p.locator(".dt-you-head .dt-team .dt-sr").inner_text()
    assert mine == "Команда 2: команда отбивающегося, в этом ходу без подкидывания"
    assert p.locator(".dt-you-head .dt-team").get_attribute("title") == mine

    flash = _lesson(
        {"transfer": True, "flash": True, "throw_in_timing": "any_time"},
        ["Ana", "", "Bruno"],
        1,
        FLASH_POSITION,
        [{"kind": "move", "say": "Show your trump.", "expect": ["1:!9S"]}],
        lang="es",
    )
    flash.click({"type": "card", "zone": "hand", "id": "9S"})
    view = json.loads(json.dumps(table_view(flash)))
    page = open_page()
    page.mount(view)
    p = page.page
    button = p.locator('.dt-action[data-id="flash"]')
    assert button.inner_text() == "Enseñar triunfo"
    assert p.locator(".dt-team").count() == 0
    button.click()
    assert page.clicks()[-1] == {"type": "action", "id": "flash"}
