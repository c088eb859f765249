"""tutorial.i18n and tutorial.names: languages, catalogs, plurals, lists and localized names."""

from __future__ import annotations

import builtins
import io
import os
import time
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po
from babel.support import Translations

from durak_core import ActionKind, Card, Rank, Suit, parse_cards
from tutorial import i18n
from tutorial.i18n import (
    DEFAULT_LANGUAGE,
    SUPPORTED_LANGUAGES,
    CatalogNotFoundError,
    I18n,
    Translator,
    format_list,
    initial_language,
    language_choices,
    language_from_query,
    language_name,
    normalize_language,
    translator,
)
from tutorial.names import (
    Role,
    Term,
    action_label,
    capitalize,
    card_count,
    card_full,
    card_short,
    cards_list,
    player_name,
    rank_name,
    rank_symbol,
    ranks_list,
    role_name,
    suit_name,
    term,
    you_label,
)

# ------------------------------------------------------------------------------ languages


def test_supported_languages_and_default() -> None:
    assert SUPPORTED_LANGUAGES == ("es", "en", "ru")
    assert DEFAULT_LANGUAGE == "es"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("lang=ru&x=1", "ru"),
        ("x=1&lang=en", "en"),
        ("?lang=es", "es"),
        ("lang=RU", "ru"),
        ("lang=ru-RU", "ru"),
        ("lang=es_AR", "es"),
        ("lang=en-GB&lesson=3", "en"),
        ("lang=de", "es"),  # unsupported: the default
        ("lang=xx-yy", "es"),
        ("lang=", "es"),
        ("lesson=2", "es"),
        ("", "es"),
        (None, "es"),
        ("lang=de&lang=ru", "ru"),  # the first supported value wins
    ],
)
def test_language_from_query(query: str | None, expected: str) -> None:
    assert language_from_query(query) == expected


def test_language_from_query_custom_default() -> None:
    assert language_from_query("lang=fr", default="en") == "en"


def test_normalize_language() -> None:
    assert normalize_language("RU") == "ru"
    assert normalize_language(" es-MX ") == "es"
    assert normalize_language("en_US") == "en"
    assert normalize_language("fr") is None
    assert normalize_language("") is None
    assert normalize_language(None) is None
    assert normalize_language("not a language") is None


def test_initial_language_from_voila_environment() -> None:
    assert initial_language({"QUERY_STRING": "lang=ru"}) == "ru"
    # ?lang= wins over Accept-Language
    assert initial_language({"QUERY_STRING": "lang=en", "HTTP_ACCEPT_LANGUAGE": "ru"}) == "en"
    assert (
        initial_language({"QUERY_STRING": "x=1", "HTTP_ACCEPT_LANGUAGE": "de-DE,ru;q=0.8,en;q=0.5"})
        == "ru"
    )
    assert initial_language({"HTTP_ACCEPT_LANGUAGE": "en;q=0.2, ru;q=0.9"}) == "ru"
    assert initial_language({"HTTP_ACCEPT_LANGUAGE": "fr, de"}) == DEFAULT_LANGUAGE
    assert initial_language({}) == DEFAULT_LANGUAGE


def test_initial_language_reads_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    assert initial_language() == "en"
    assert I18n().language == "en"
    monkeypatch.delenv("QUERY_STRING")
    monkeypatch.delenv("HTTP_ACCEPT_LANGUAGE", raising=False)
    assert I18n().language == DEFAULT_LANGUAGE


def test_language_names_come_from_babel() -> None:
    assert language_name("es") == "español"
    assert language_name("ru", "es") == "ruso"
    assert language_name("en", "ru") == "английский"
    assert language_name("ru") == "русский"
    assert language_name("es", "en") == "Spanish"
    assert translator("ru").language_name("es") == "испанский"
    assert language_choices() == [("Español", "es"), ("English", "en"), ("Русский", "ru")]


# ------------------------------------------------------------------------------ lists


def test_format_list_and_or() -> None:
    assert format_list(["8", "10", "J"], "es") == "8, 10 y J"
    assert format_list(["8", "10", "В"], "ru") == "8, 10 и В"
    assert format_list(["8", "10", "J"], "en") == "8, 10, and J"
    assert format_list(["8", "10", "J"], "es", style="or") == "8, 10 o J"
    assert format_list(["8", "10", "В"], "ru", style="or") == "8, 10 или В"
    assert format_list(["8"], "ru", style="or") == "8"
    assert format_list([], "es") == ""


def test_spanish_y_e_and_o_u() -> None:
    assert format_list(["6", "8"], "es", style="or") == "6 u 8"
    assert format_list(["7", "11"], "es", style="or") == "7 u 11"
    assert format_list(["Ana", "Olga"], "es", style="or") == "Ana u Olga"
    assert format_list(["Ana", "Inés"], "es") == "Ana e Inés"
    assert format_list(["Ana", "Hilda"], "es") == "Ana e Hilda"
    assert format_list(["Ana", "Hielo"], "es") == "Ana y Hielo"  # «hie» sounds /je/
    assert format_list(["8", "10"], "es", style="or") == "8 o 10"
    assert format_list(["Ana", "Inés"], "en") == "Ana and Inés"


# ------------------------------------------------------------------------------ translators


def test_translators_are_cached_objects_not_global_state() -> None:
    before = getattr(builtins, "_", None)
    es, ru = translator("es"), translator("ru")
    assert translator("es") is es
    assert translator("ES") is es
    assert es.gettext("Only the defender can take the cards.") != ru.gettext(
        "Only the defender can take the cards."
    )
    # nothing was installed into builtins (no gettext.install())
    assert getattr(builtins, "_", None) is before


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unsupported language"):
        translator("fr")
    with pytest.raises(ValueError):
        I18n("fr")


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, "0 карт"),
        (1, "1 карта"),
        (2, "2 карты"),
        (4, "4 карты"),
        (5, "5 карт"),
        (11, "11 карт"),
        (12, "12 карт"),
        (14, "14 карт"),
        (21, "21 карта"),
        (22, "22 карты"),
        (25, "25 карт"),
        (36, "36 карт"),
        (101, "101 карта"),
        (111, "111 карт"),
    ],
)
def test_russian_plurals(n: int, expected: str) -> None:
    assert card_count(n, translator("ru")) == expected


def test_spanish_and_english_plurals() -> None:
    es, en = translator("es"), translator("en")
    assert [card_count(n, es) for n in (0, 1, 2, 21)] == [
        "0 cartas",
        "1 carta",
        "2 cartas",
        "21 cartas",
    ]
    assert [card_count(n, en) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_message_functions_fill_named_placeholders() -> None:
    ru = translator("ru")
    assert ru.gettext("You lead {card}.", card="8♣") == "Ты ходишь с 8♣."
    assert ru.pgettext("rank symbol", "J") == "В"
    assert (
        ru.npgettext("no such context", "{n} card", "{n} cards", 3) == "3 cards"
    )  # unknown msgid: English
    assert ru.ngettext("{n} card", "{n} cards", 7, n=7) == "7 карт"


# ------------------------------------------------------------------------------ switching


def test_set_language_switches_and_notifies() -> None:
    state = I18n("en")
    seen: list[str] = []
    unregister = state.on_change(seen.append)
    assert state.pgettext("term", "Trump") == "Trump"
    state.set_language("ru")
    assert state.language == "ru"
    assert state.pgettext("term", "Trump") == "Козырь"
    assert state.translator is translator("ru")
    state.set_language("ru")  # already current: no notification
    state.set_language("es-ES")
    assert seen == ["ru", "es"]
    unregister()
    state.set_language("en")
    assert seen == ["ru", "es"]
    unregister()  # twice is harmless


def test_set_language_rejects_unknown_and_keeps_current() -> None:
    state = I18n("es")
    with pytest.raises(ValueError):
        state.set_language("fr")
    assert state.language == "es"


def test_every_callback_runs_even_if_one_fails() -> None:
    state = I18n("es")
    seen: list[str] = []

    def broken(code: str) -> None:
        raise RuntimeError("widget gone")

    state.on_change(broken)
    state.on_change(seen.append)
    with pytest.raises(RuntimeError, match="widget gone"):
        state.set_language("en")
    assert seen == ["en"]
    assert state.language == "en"
    state.on_change(broken)
    with pytest.raises(ExceptionGroup):
        state.set_language("ru")
    assert seen == ["en", "ru"]


def test_widgets_re_render_every_text_on_switch() -> None:
    """A stand-in for a widget: it keeps texts built from the state and re-renders on change."""
    state = I18n("es")
    rendered: dict[str, str] = {}

    def render(_: str = "") -> None:
        rendered["button"] = action_label(ActionKind.TAKE, state)
        rendered["card"] = card_short(Card.parse("JS"), state)
        rendered["count"] = card_count(5, state)

    render()
    state.on_change(render)
    assert rendered == {"button": "Recoger", "card": "J♠", "count": "5 cartas"}
    state.set_language("ru")
    assert rendered == {"button": "Беру", "card": "В♠", "count": "5 карт"}
    state.set_language("en")
    assert rendered == {"button": "Take", "card": "J♠", "count": "5 cards"}


# ------------------------------------------------------------------------------ catalog files


def _tiny_catalog(language: str, text: str) -> Catalog:
    catalog = Catalog(locale=language, domain="messages")
    catalog.add("Only the defender can take the cards.", text)
    return catalog


def _write(folder: Path, catalog: Catalog, *, po: bool, mo: bool) -> None:
    target = folder / catalog.locale_identifier / "LC_MESSAGES"  # type: ignore[operator]
    target.mkdir(parents=True, exist_ok=True)
    if po:
        with (target / "messages.po").open("wb") as fp:
            write_po(fp, catalog)
    if mo:
        with (target / "messages.mo").open("wb") as fp:
            write_mo(fp, catalog)


MSG = "Only the defender can take the cards."


def test_loads_compiled_mo_as_in_a_wheel(tmp_path: Path) -> None:
    _write(tmp_path, _tiny_catalog("ru", "из mo"), po=False, mo=True)
    assert Translator.load("ru", [tmp_path]).gettext(MSG) == "из mo"


def test_compiles_po_in_memory_when_mo_is_missing(tmp_path: Path) -> None:
    _write(tmp_path, _tiny_catalog("ru", "из po"), po=True, mo=False)
    assert Translator.load("ru", [tmp_path]).gettext(MSG) == "из po"
    assert not (tmp_path / "ru" / "LC_MESSAGES" / "messages.mo").exists()


def test_stale_mo_is_ignored_for_a_newer_po(tmp_path: Path) -> None:
    _write(tmp_path, _tiny_catalog("ru", "старое"), po=False, mo=True)
    mo = tmp_path / "ru" / "LC_MESSAGES" / "messages.mo"
    old = time.time() - 100
    os.utime(mo, (old, old))
    _write(tmp_path, _tiny_catalog("ru", "новое"), po=True, mo=False)
    assert Translator.load("ru", [tmp_path]).gettext(MSG) == "новое"


def test_first_directory_with_a_catalog_wins(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    _write(second, _tiny_catalog("es", "segundo"), po=True, mo=False)
    assert Translator.load("es", [first, second]).gettext(MSG) == "segundo"


def test_missing_catalog_says_what_to_run(tmp_path: Path) -> None:
    with pytest.raises(CatalogNotFoundError, match="script/test"):
        Translator.load("es", [tmp_path])


def test_source_checkout_and_wheel_locations() -> None:
    dirs = i18n.locale_dirs()
    root = Path(i18n.__file__).resolve().parent.parent
    assert root / "locales" in dirs
    assert Path(i18n.__file__).resolve().parent / "locales" in dirs
    for code in SUPPORTED_LANGUAGES:
        assert (root / "locales" / code / "LC_MESSAGES" / "messages.po").is_file()


def test_locales_dir_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, _tiny_catalog("en", "overridden"), po=True, mo=False)
    monkeypatch.setenv("DURAK_LOCALES_DIR", str(tmp_path))
    assert Translator.load("en").gettext(MSG) == "overridden"


def test_fuzzy_entries_are_not_used(tmp_path: Path) -> None:
    catalog = Catalog(locale="ru", domain="messages")
    catalog.add(MSG, "неточно", flags=["fuzzy"])
    _write(tmp_path, catalog, po=True, mo=False)
    assert Translator.load("ru", [tmp_path]).gettext(MSG) == MSG


def test_translator_accepts_babel_translations_directly() -> None:
    buffer = io.BytesIO()
    write_mo(buffer, _tiny_catalog("es", "directo"))
    buffer.seek(0)
    assert Translator("es", Translations(buffer)).gettext(MSG) == "directo"


# ------------------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("text", "es", "en", "ru"),
    [
        ("10H", "10♥", "10♥", "10♥"),
        ("JS", "J♠", "J♠", "В♠"),
        ("QD", "Q♦", "Q♦", "Д♦"),
        ("KC", "K♣", "K♣", "К♣"),
        ("AH", "A♥", "A♥", "Т♥"),
        ("6S", "6♠", "6♠", "6♠"),
    ],
)
def test_card_short(text: str, es: str, en: str, ru: str) -> None:
    card = Card.parse(text)
    assert card_short(card, translator("es")) == es
    assert card_short(card, translator("en")) == en
    assert card_short(card, translator("ru")) == ru


@pytest.mark.parametrize(
    ("text", "es", "en", "ru"),
    [
        ("10H", "el diez de corazones", "the ten of hearts", "десятка червей"),
        ("QS", "la reina de picas", "the queen of spades", "дама пик"),
        ("AD", "el as de diamantes", "the ace of diamonds", "туз бубен"),
        ("JC", "la jota de tréboles", "the jack of clubs", "валет треф"),
        ("6H", "el seis de corazones", "the six of hearts", "шестёрка червей"),
        ("KD", "el rey de diamantes", "the king of diamonds", "король бубен"),
        ("2C", "el dos de tréboles", "the two of clubs", "двойка треф"),
    ],
)
def test_card_full(text: str, es: str, en: str, ru: str) -> None:
    card = Card.parse(text)
    assert card_full(card, translator("es")) == es
    assert card_full(card, translator("en")) == en
    assert card_full(card, translator("ru")) == ru


def test_every_card_has_distinct_names_in_every_language() -> None:
    deck = [Card(r, s) for s in Suit for r in Rank]
    for code in SUPPORTED_LANGUAGES:
        tr = translator(code)
        assert len({card_full(c, tr) for c in deck}) == 52
        assert len({card_short(c, tr) for c in deck}) == 52


def test_rank_and_suit_names() -> None:
    ru, es = translator("ru"), translator("es")
    assert [rank_symbol(r, ru) for r in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)] == [
        "В",
        "Д",
        "К",
        "Т",
    ]
    assert rank_name(Rank.SIX, ru) == "шестёрка"
    assert rank_name(Rank.JACK, es) == "jota"
    assert [suit_name(s, ru) for s in Suit] == ["трефы", "бубны", "черви", "пики"]
    assert [suit_name(s, es) for s in Suit] == ["tréboles", "diamantes", "corazones", "picas"]
    assert capitalize(card_full(Card.parse("10H"), es)) == "El diez de corazones"


def test_lists_of_cards_and_ranks() -> None:
    cards = parse_cards("8C 10C JH")
    assert cards_list(cards, translator("es")) == "8♣, 10♣ y J♥"
    assert cards_list(cards, translator("ru")) == "8♣, 10♣ и В♥"
    ranks = [Rank.EIGHT, Rank.TEN, Rank.JACK]
    assert ranks_list(ranks, translator("es")) == "8, 10 o J"
    assert ranks_list(ranks, translator("ru")) == "8, 10 или В"
    assert ranks_list(ranks, translator("en")) == "8, 10, or J"
    assert ranks_list([Rank.SIX, Rank.EIGHT], translator("es")) == "6 u 8"


def test_player_role_button_and_term_labels() -> None:
    es, ru, en = translator("es"), translator("ru"), translator("en")
    assert player_name(0, es) == "Jugador 1"
    assert player_name(2, ru) == "Игрок 3"
    assert you_label(es) == "Tú" and you_label(ru) == "Ты" and you_label(en) == "You"
    assert role_name(Role.DEFENDER, es) == "Defensor"
    assert role_name(Role.ATTACKER, ru) == "Атака"
    # Badges sit next to «Ты» / «Tú»: never a verb in the third person (GLOSSARY.md).
    assert role_name(Role.THROWER, es) == "Turno de echar"
    assert role_name(Role.DEFENDER, ru) == "Защита"
    assert action_label(ActionKind.TAKE, ru) == "Беру"
    assert action_label(ActionKind.PASS, ru) == "Бито"
    assert action_label(ActionKind.PASS, ru, taking=True) == "Пас"
    assert action_label(ActionKind.TRANSFER, es) == "Traspasar"
    assert action_label(ActionKind.BEAT, es) == "Matar"
    # S2's «Flash» and the new deal on request (GLOSSARY.md)
    assert action_label(ActionKind.FLASH, en) == "Show trump"
    assert action_label(ActionKind.FLASH, es) == "Enseñar triunfo"
    assert action_label(ActionKind.FLASH, ru) == "Показать козырь"
    assert action_label(ActionKind.REDEAL, en) == "Ask for a new deal"
    assert action_label(ActionKind.REDEAL, es) == "Pedir otro reparto"
    assert action_label(ActionKind.REDEAL, ru) == "Пересдача"
    assert term(Term.TRUMP, es) == "Triunfo"
    assert term(Term.STOCK, ru) == "Колода"
    assert term(Term.DISCARD, ru) == "Отбой"
    for code in SUPPORTED_LANGUAGES:
        tr = translator(code)
        assert all(role_name(r, tr) for r in Role)
        assert all(term(t, tr) for t in Term)
        assert all(action_label(k, tr) for k in ActionKind)


def test_docstring_examples() -> None:
    import doctest

    import tutorial.explain
    import tutorial.names

    for module in (i18n, tutorial.names, tutorial.explain):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
