"""The sources page without a browser: S0–S4 with their names, what kind of document each is,
what each brings, where they disagree, which rule set follows which, anchors other text can
link to, links that lead to real pages, and the index's link to it."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from durak_core import PRESETS
from tutorial.i18n import SUPPORTED_LANGUAGES, translator
from tutorial.index_page import IndexApp
from tutorial.names import SOURCES, preset_name, source_name
from tutorial.pages import PAGES, page
from tutorial.sources_page import (
    SourcesApp,
    lesson_link,
    render_sources,
    source_href,
    source_link,
    source_presets,
)

LANGS = tuple(SUPPORTED_LANGUAGES)
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


@pytest.fixture(autouse=True)
def no_server_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("HTTP_ACCEPT_LANGUAGE", raising=False)


class Page(HTMLParser):
    """Sections by id, the text of each, link targets and the text of every <p>/<li>."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.pages: list[str] = []
        self.hrefs: list[str] = []
        self.sections: dict[str, list[str]] = {}
        self.blocks: list[str] = []
        self._open: list[tuple[str, str | None]] = []  # (tag, section id)
        self._block: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "a":
            self.hrefs.append(str(a.get("href")))
            if a.get("data-durak-page"):
                self.pages.append(str(a["data-durak-page"]))
        section = str(a["id"]) if tag == "section" and a.get("id") else None
        self._open.append((tag, section))
        if section:
            self.sections[section] = []
        if tag in ("p", "li") and self._block is None:
            self._block = []

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            opened, _ = self._open.pop()
            if opened == tag:
                break
        if (
            tag in ("p", "li")
            and self._block is not None
            and not any(t in ("p", "li") for t, _ in self._open)
        ):
            self.blocks.append("".join(self._block))
            self._block = None

    def handle_data(self, data: str) -> None:
        for _, section in self._open:
            if section:
                self.sections[section].append(data)
        if self._block is not None:
            self._block.append(data)


def parsed(lang: str) -> Page:
    result = Page()
    result.feed(render_sources(translator(lang)))
    return result


def section_text(result: Page, anchor: str) -> str:
    return " ".join(" ".join(result.sections[anchor]).split())


def test_the_page_is_registered_with_a_notebook() -> None:
    assert "sources" in PAGES
    built = page("sources", "ru")
    assert isinstance(built, SourcesApp)
    assert built.bridge.title == translator("ru").gettext(
        "{page} — Learn Durak", page=translator("ru").gettext("Where the rules come from")
    )
    notebook = (NOTEBOOKS / "sources.ipynb").read_text(encoding="utf-8")
    assert 'site(\\"sources\\")' in notebook


@pytest.mark.parametrize("lang", LANGS)
def test_every_source_has_an_anchored_section_with_its_name(lang: str) -> None:
    """S0 wikiHow, S1 Matsuri, S2 Wikipedia, S3 Dáme Karty, S4 Durak Live: each at #s0…#s4,
    its name in Latin script in every language."""
    result, tr = parsed(lang), translator(lang)
    for code in SOURCES:
        anchor = code.lower()
        assert anchor in result.sections, code
        text = section_text(result, anchor)
        assert text.startswith(f"{code} {source_name(code, tr)}"), text[:60]
        assert len(text) > 300, code  # what it is and what it brings, not just a name
        assert f"#{anchor}" in result.hrefs  # the short index at the top
    assert len(result.ids) == len(set(result.ids)), "ids must be unique"


@pytest.mark.parametrize("lang", LANGS)
def test_each_source_lists_the_rule_sets_that_follow_it(lang: str) -> None:
    """PRESETS' sources: classic follows S1 and S3, each other preset its own source."""
    result, tr = parsed(lang), translator(lang)
    for code in SOURCES:
        text = section_text(result, code.lower())
        for preset in source_presets(code):
            assert preset_name(preset, tr) in text, (code, preset)
    assert source_presets("S1") == ["classic", "matsuri"]
    assert source_presets("S3") == ["classic", "dame_karty"]
    assert source_presets("S4") == ["durak_live_vecinos", "durak_live_todos"]
    presets = section_text(result, "presets")
    for preset in PRESETS:
        assert preset_name(preset, tr) in presets


def test_the_kind_of_each_document_is_told_accurately() -> None:
    """S2 is a machine-translated Wikipedia article; S4 is Durak Live's own guide, with its
    own mistakes (the 4♦ of example 1, example 2's wrong limit); S1 and S3 describe online
    games; S0 is wikiHow's home-rules guide."""
    result = parsed("en")
    assert "machine-translated" in section_text(result, "s2")
    assert "English Wikipedia article" in section_text(result, "s2")
    s4 = section_text(result, "s4")
    assert "Durak Live's guide" in s4 and "4♦" in s4 and "Example 2" in s4
    assert "“Vecinos” or “Todos”" in s4
    assert "online Durak game" in section_text(result, "s1")
    assert "online game" in section_text(result, "s3")
    assert "house rules" in section_text(result, "s0")
    ru = parsed("ru")
    # cards in the learner's notation: S3's example J♥ / 6♠ against 9♥ reads В♥ in Russian
    assert "В♥" in section_text(ru, "s3") and "J♥" not in section_text(ru, "s3")


@pytest.mark.parametrize("lang", LANGS)
def test_where_they_disagree_names_sources_and_lessons(lang: str) -> None:
    result, tr = parsed(lang), translator(lang)
    text = section_text(result, "disagree")
    for code in SOURCES:
        assert source_name(code, tr) in text
    assert "agree" in result.sections
    # who adds (S4 «Vecinos» / «Todos», S3's neighbours) leads to lesson 9
    assert "09-who-throws-in" in result.pages


@pytest.mark.parametrize("lang", LANGS)
def test_every_link_leads_to_a_page_of_the_site(lang: str) -> None:
    result = parsed(lang)
    assert result.pages
    for name in result.pages:
        assert name in PAGES, name
    for href in result.hrefs:
        if not href.startswith("#"):
            assert href.split(".ipynb?lang=")[1].split("#")[0] == lang, href
        else:
            assert href[1:] in result.ids, href


def test_the_russian_page_is_russian() -> None:
    """Every paragraph and list item has Russian words, except the short index of sources."""
    result = parsed("ru")
    names = {source_name(code, translator("ru")) for code in SOURCES}
    for block in result.blocks:
        words = re.sub(r"\bS[0-4]\b", "", block).strip()
        if words in names or not re.search(r"[^\W\d_]", words):
            continue
        assert CYRILLIC.search(block), block
    assert "Даме" not in render_sources(translator("ru"))  # brand names are not transliterated


def test_links_to_a_source_and_a_lesson() -> None:
    tr = translator("ru")
    assert source_href("S4", "ru") == "sources.ipynb?lang=ru#s4"
    assert source_link("S3", tr) == (
        "<a href='sources.ipynb?lang=ru#s3' data-durak-page='sources'>Dáme Karty</a>"
    )
    link = lesson_link("who-throws-in", tr)
    assert "data-durak-page='09-who-throws-in'" in link and "Урок 9" in link
    assert lesson_link("no-such-lesson", tr) == ""


def test_the_page_follows_the_language_menu() -> None:
    app = SourcesApp("es")
    spanish = app.content.html
    app.i18n.set_language("ru")
    assert app.content.html != spanish and "Откуда" in app.heading.value


@pytest.mark.parametrize("lang", LANGS)
def test_the_index_links_to_the_sources_and_offers_to_reset_stars(lang: str) -> None:
    app = IndexApp(lang)
    tr = translator(lang)
    extras = {extra["page"]: extra for extra in app.list.view["extras"]}
    assert extras["sources"]["title"] == tr.gettext("Where the rules come from")
    for name in extras:
        assert name in PAGES
    reset = app.list.view["reset"]
    assert set(reset) == {"button", "question", "confirm", "cancel", "done", "failed"}
    assert all(isinstance(text, str) and text.strip() for text in reset.values())
    assert reset["confirm"] != reset["cancel"]
    if lang != "en":
        en = IndexApp("en").list.view["reset"]
        assert all(reset[key] != en[key] for key in reset)
