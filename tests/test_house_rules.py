"""The house-rules page without a browser: localized preset names and descriptions (on this
page and the play page), localized player names, a default pair that parts ways, a pair that
parts ways for every situation, what happens when the learner changes the situation or picks a
pair that agrees, and resume.

Sources: the situations come from S4 (Durak Live's example 1, its five-card rule, «Vecinos» /
«Todos»), S0 (wikiHow's optional "no adding after a take") and S1 (Matsuri's perevodnoy switch).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import ipywidgets as w
import pytest

from durak_core import PRESETS
from tutorial.game_page import GameApp
from tutorial.house_rules import SCENARIOS as SCENARIOS_FILE
from tutorial.house_rules import (
    HouseRulesApp,
    Pair,
    compare,
    load_scenarios,
    pair_rules,
    side_label,
)
from tutorial.i18n import SUPPORTED_LANGUAGES, translator
from tutorial.names import SOURCES, preset_description, preset_name, source_name
from tutorial.page import is_shown

LANGS = tuple(SUPPORTED_LANGUAGES)
SCENARIOS = load_scenarios()
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
BARE_SOURCE_CODE = re.compile(r"\bS[0-4]\b")


pytestmark = pytest.mark.usefixtures("no_server_language")


class _Text(HTMLParser):
    """The text a learner sees in an HTML fragment: text nodes, plus ``data-label`` values
    (shown by CSS on a phone) and ``title`` attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts += [v for k, v in attrs if k in ("data-label", "title") and v]

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible_text(widget: Any) -> list[str]:
    """Every piece of text the widget tree shows: HTML, labels, menu items, descriptions."""
    found: list[str] = []
    if isinstance(widget, w.HTML):
        parser = _Text()
        parser.feed(widget.value)
        found += parser.parts
    if isinstance(widget, w.Dropdown):
        found += [str(o[0] if isinstance(o, tuple) else o) for o in widget.options]
    view = getattr(widget, "view", None)  # the card table and the lesson list (anywidgets)
    if isinstance(view, dict):
        found.append(json.dumps(view, ensure_ascii=False))
    description = getattr(widget, "description", "")
    if isinstance(description, str) and description:
        found.append(description)
    for child in getattr(widget, "children", ()):
        found += visible_text(child)
    return [text for text in found if text.strip()]


# --------------------------------------------------------------------------- preset names


@pytest.mark.parametrize("lang", LANGS)
def test_every_preset_has_a_name_and_a_description(lang: str) -> None:
    """S0–S4's presets (rules.py PRESETS) all have a localized name and one-line description."""
    tr, en = translator(lang), translator("en")
    for preset in PRESETS:
        name, description = preset_name(preset, tr), preset_description(preset, tr)
        assert name and name != preset and "_" not in name, preset
        assert description and "\n" not in description, preset
        if lang == "ru":
            assert CYRILLIC.search(description), (preset, description)
        if lang != "en":
            assert description != preset_description(preset, en), (lang, preset)


@pytest.mark.parametrize("lang", LANGS)
def test_brand_names_stay_in_latin_script(lang: str) -> None:
    """S1 Matsuri, S3 Dáme Karty, S4 Durak Live are names, never translated or transliterated."""
    tr = translator(lang)
    assert [source_name(code, tr) for code in SOURCES] == [
        "wikiHow",
        "Matsuri",
        "Wikipedia",
        "Dáme Karty",
        "Durak Live",
    ]
    assert preset_name("dame_karty", tr) == "Dáme Karty"
    for preset in ("durak_live_todos", "durak_live_vecinos"):
        assert preset_name(preset, tr).startswith("Durak Live ")
    assert "wikiHow" in preset_name("wikihow_home", tr)
    if lang == "ru":
        # S4's table settings are named as the Russian lessons name them.
        assert preset_name("durak_live_vecinos", tr) == "Durak Live «Соседи»"
        assert preset_name("durak_live_todos", tr) == "Durak Live «Все»"
        assert CYRILLIC.search(preset_name("classic", tr))


@pytest.mark.parametrize("lang", LANGS)
def test_no_raw_preset_id_on_the_house_rules_or_play_page(lang: str) -> None:
    """Menus, column headings and texts show names ("Durak Live «Todos»", S4), never ids."""
    house, play = HouseRulesApp(lang), GameApp(language=lang)
    for app in (house, play):
        texts = visible_text(app.widget)
        assert texts
        for preset in PRESETS:
            assert preset not in texts, (type(app).__name__, preset)
            if "_" in preset:
                assert not [t for t in texts if preset in t], (type(app).__name__, preset)
    tr = translator(lang)
    assert [label for label, _ in play.preset.options] == [preset_name(p, tr) for p in PRESETS]
    headings = re.findall(r"<th scope='col'><small>.*?</small>(.*?)</th>", house.result.value)
    assert headings == [preset_name(house.pair().a, tr), preset_name(house.pair().b, tr)]


def test_the_play_page_menu_follows_the_language_and_keeps_the_choice() -> None:
    app = GameApp(language="es")
    app.preset.value = "durak_live_todos"
    app.i18n.set_language("ru")
    assert app.preset.value == "durak_live_todos"
    assert dict(app.preset.options)["Durak Live «Все»"] == "durak_live_todos"


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_shows_no_bare_source_code(lang: str) -> None:
    """S0–S4 are named (or linked to the sources page), never shown as bare codes."""
    app = HouseRulesApp(lang)
    for scenario in SCENARIOS:
        app.scenario.value = scenario.id
        app.show_differing_pair()
        texts = visible_text(app.widget)
        assert not [t for t in texts if BARE_SOURCE_CODE.search(t)], scenario.id
    assert "sources.ipynb" in app.footer.value and "data-durak-page='sources'" in app.footer.value


def test_a_situation_from_a_source_links_to_it() -> None:
    """The growing round is S4's example 1: the page links to Durak Live on the sources page."""
    app = HouseRulesApp("ru")
    assert app.current().source == "S4"
    assert "href='sources.ipynb?lang=ru#s4'" in app.situation.value
    assert ">Durak Live</a>" in app.situation.value


def test_russian_shows_the_players_names_in_cyrillic() -> None:
    """S4's example 1 is played by Ana, you, Bruno and Diana: «Ана», «Бруно», «Диана» in Russian."""
    app = HouseRulesApp("ru")
    html = app.result.value
    assert "Ана" in html and "Бруно" in html and "Диана" in html
    assert not re.search(r"\b(Ana|Bruno|Diana)\b", html)
    app.i18n.set_language("en")
    assert "Ana" in app.result.value and "Ана" not in app.result.value


# --------------------------------------------------------------------------- pairs that differ


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_every_situation_has_a_pair_that_parts_ways(scenario: Any) -> None:
    """Each situation's own pair disagrees on one of its moves (S4 growing round: «Vecinos»
    refuses Diana's J♠; S4 sixth card: five cards until the first bito; S0: no adding after a
    take; S1: Matsuri's perevodnoy switch)."""
    left, right = pair_rules(scenario.pair)
    assert compare(scenario, left, right).first_difference is not None


def test_the_page_opens_on_a_pair_that_parts_ways() -> None:
    """Default: S4's growing round under Durak Live «Todos» and «Vecinos» (Diana's J♠, S4)."""
    app = HouseRulesApp("en")
    assert app.current() is not None and app.current().id == SCENARIOS[0].id
    assert app.pair() == SCENARIOS[0].pair
    assert app.differs()
    assert "durak-diverge" in app.result.value
    assert not is_shown(app.offer) and app.note.value == ""


def test_a_new_situation_on_which_the_pair_agrees_switches_pair_and_says_so() -> None:
    """«Todos» and «Vecinos» (S4) agree on the sixth card: both stop at five before the first
    bito, so the page shows the sixth card's own pair (classic against Durak Live «Todos»)."""
    app = HouseRulesApp("en")
    sixth = next(s for s in SCENARIOS if s.id == "sixth-card")
    old = app.pair()
    assert not app.differs(sixth, old)
    app.scenario.value = sixth.id
    assert app.pair() == sixth.pair and app.differs()
    tr = translator("en")
    assert "role='status'" in app.note.value
    for label in (
        side_label(old.a, tr),
        side_label(old.b, tr),
        side_label(sixth.pair.a, tr),
        side_label(sixth.pair.b, tr),
    ):
        assert label in app.note.value
    assert not is_shown(app.offer)


def test_a_new_situation_keeps_the_learners_pair_when_it_still_parts_ways() -> None:
    """Classic against «Vecinos» (S1/S3 against S4) parts ways on both the sixth card and the
    growing round: the learner's choice is kept, with no note."""
    app = HouseRulesApp("en")
    app.scenario.value = "sixth-card"
    app.left.value, app.right.value = "classic", "durak_live_vecinos"
    assert app.differs()
    mine = app.pair()
    app.scenario.value = "growing-round"
    assert app.pair() == mine and app.differs()
    assert app.note.value == ""


def test_a_pair_the_learner_picks_that_agrees_gets_an_offer() -> None:
    """Two rule sets that agree here: the verdict says so and a button shows a pair that does
    not (S1's transfer switch on the transfer situation)."""
    app = HouseRulesApp("es")
    app.scenario.value = "transfer"
    assert app.pair().transfer
    app.transfer.value = False  # Matsuri without its perevodnoy switch: like the classic rules
    tr = translator("es")
    assert not app.differs()
    assert tr.gettext("The two rule sets agree on every move here.") in app.result.value
    assert is_shown(app.offer)
    assert app.offer.description == tr.gettext("Show two rule sets that differ here")
    assert app.note.value == ""  # the learner's own choice is never replaced silently
    app.offer.click()
    assert app.pair() == next(s for s in SCENARIOS if s.id == "transfer").pair
    assert app.differs() and not is_shown(app.offer)


def test_b_switches_are_named_in_the_column_heading() -> None:
    """wikiHow (S0) without adding after a take: the heading says which switch is off."""
    app = HouseRulesApp("en")
    app.scenario.value = "after-take"
    tr = translator("en")
    label = side_label("wikihow_home", tr, transfer=False, after_take=False)
    switch = tr.gettext("nothing added after a take")
    assert label == f"{preset_name('wikihow_home', tr)} ({switch})"
    assert f"{label}</th>" in app.result.value


# --------------------------------------------------------------------------- resume


def test_resume_restores_the_situation_and_the_pair() -> None:
    app = HouseRulesApp("en")
    app.scenario.value = "after-take"
    state = app.resume_state()
    other = HouseRulesApp("en")
    assert other.resume(state)
    assert other.current().id == "after-take" and other.pair() == app.pair()
    assert other.result.value == app.result.value


@pytest.mark.parametrize(
    "state",
    [
        None,
        [],
        {"scenario": "growing-round"},
        {"scenario": "nope", "a": "classic", "b": "classic", "transfer": False, "after_take": True},
        {"scenario": "transfer", "a": "x", "b": "classic", "transfer": False, "after_take": True},
        {"scenario": "transfer", "a": "classic", "b": "classic", "transfer": 1, "after_take": True},
        {
            "scenario": "transfer",
            "a": "classic",
            "b": "classic",
            "transfer": False,
            "after_take": True,
            "extra": 1,
        },
    ],
)
def test_resume_refuses_what_does_not_fit(state: object) -> None:
    app = HouseRulesApp("en")
    before = (app.current().id, app.pair(), app.result.value)
    assert app.resume(state) is False
    assert (app.current().id, app.pair(), app.result.value) == before


def test_a_scenario_must_name_known_presets(tmp_path: Path) -> None:
    text = SCENARIOS_FILE.read_text(encoding="utf-8")
    broken = tmp_path / "scenarios.toml"
    broken.write_text(text.replace('b = "durak_live_vecinos"', 'b = "durak_live_nobody"'), "utf-8")
    with pytest.raises(ValueError, match=r"compare\.b must be one of"):
        load_scenarios(broken)


def test_pair_rules_applies_b_switches() -> None:
    """Matsuri (S1) with its perevodnoy switch; wikiHow (S0) without adding after a take."""
    _, b = pair_rules(Pair("classic", "matsuri", transfer=True, after_take=True))
    assert b.transfer and b.max_players == 4
    _, b = pair_rules(Pair("classic", "wikihow_home", transfer=False, after_take=False))
    assert not b.throw_in_after_take and not b.transfer
